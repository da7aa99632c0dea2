/**
 * The route table in the console's bundle: of each route (packages/shared/src/contract/<area>.ts)
 * the console needs what a call sends (method, path, body encoding), what kind of answer comes
 * back (data, a page of rows, a file) and who may call it (auth and roles: the menu and the page
 * gates read them). This plugin loads each area's table at build time and gives the bundle those
 * fields alone, so the shell and the pages that validate nothing carry neither zod nor the answer
 * schemas (they are the server's); the forms import the schemas they check with directly. The
 * types still come from the full table: TypeScript reads the source, the plugin only changes what
 * the bundler emits. (apps/web/route-table-plugin.ts does the same for the app, without roles.)
 */
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';

/** An area file of the table (route.ts, answer.ts and index.ts are not). */
const AREA_FILE =
  /[\\/]packages[\\/]shared[\\/]src[\\/]contract[\\/](?!(?:route|answer|index)\.ts$)[a-z-]+\.ts$/;

interface FullRoute {
  method: unknown;
  path: string;
  auth: string;
  roles?: readonly string[];
  encoding?: string;
  rows?: unknown;
  file?: boolean;
}

const isRoute = (value: unknown): value is FullRoute =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as FullRoute).path === 'string' &&
  'method' in value;

/** What the console needs of a route. */
function thin(route: FullRoute) {
  return {
    method: route.method,
    path: route.path,
    auth: route.auth,
    ...(route.roles ? { roles: route.roles } : {}),
    ...(route.encoding ? { encoding: route.encoding } : {}),
    ...(route.rows ? { rows: true } : {}),
    ...(route.file ? { file: true } : {}),
  };
}

export function routeTablePlugin(): Plugin {
  return {
    name: 'bourse-console-route-table',
    enforce: 'pre',
    async load(id) {
      const file = id.split('?')[0]!;
      if (!AREA_FILE.test(file)) return null;
      const { tsImport } = await import('tsx/esm/api');
      const area = (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<
        string,
        unknown
      >;
      const exports = Object.entries(area).map(([name, value]) => {
        const routes = Object.entries(value as Record<string, unknown>);
        if (!routes.every(([, route]) => isRoute(route)))
          throw new Error(`${file}: export ${name} is not a map of routes`);
        const table = Object.fromEntries(
          routes.map(([key, route]) => [key, thin(route as FullRoute)]),
        );
        return `export const ${name} = ${JSON.stringify(table)};`;
      });
      return exports.join('\n');
    },
  };
}
