/**
 * The route table in a browser bundle: of each route (packages/shared/src/contract/<area>.ts) an
 * app needs what a call sends (method, path, body encoding) and what kind of answer comes back
 * (data, a page of rows, a file); the console also who may call it (auth and roles: its menu and
 * page gates read them). At build time each area's table is loaded and the bundle gets those
 * fields alone, so a first screen carries neither zod nor the schemas (they are the server's, to
 * validate and serialize). The types still come from the full table: TypeScript reads the source,
 * the plugin only changes what the bundler emits. apps/web/route-table-plugin.ts uses
 * `thinRouteTable` beside its locale parts; the console's vite.config.ts takes the plugin as is.
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

export interface TableOptions {
  /** Keep who may call each route (auth and roles). */
  access: boolean;
}

const isRoute = (value: unknown): value is FullRoute =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as FullRoute).path === 'string' &&
  'method' in value;

/** What the app needs of a route. */
function thin(route: FullRoute, { access }: TableOptions) {
  return {
    method: route.method,
    path: route.path,
    ...(access ? { auth: route.auth, ...(route.roles ? { roles: route.roles } : {}) } : {}),
    ...(route.encoding ? { encoding: route.encoding } : {}),
    ...(route.rows ? { rows: true } : {}),
    ...(route.file ? { file: true } : {}),
  };
}

/** The module an area file becomes in the bundle; null for any other file. */
export async function thinRouteTable(file: string, options: TableOptions): Promise<string | null> {
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
      routes.map(([key, route]) => [key, thin(route as FullRoute, options)]),
    );
    return `export const ${name} = ${JSON.stringify(table)};`;
  });
  return exports.join('\n');
}

export function routeTablePlugin(options: TableOptions): Plugin {
  return {
    name: 'bourse-route-table',
    enforce: 'pre',
    load: (id) => thinRouteTable(id.split('?')[0]!, options),
  };
}
