/**
 * The route table in the browser: of each route (packages/shared/src/contract/<area>.ts) the app
 * needs only what a call sends (method, path, body encoding) and what kind of answer comes back
 * (data, a page of rows, a file). This plugin loads each area's table at build time and gives the
 * bundle those fields alone, so the first screen carries neither zod nor any schema (they are the
 * server's, to validate and serialize). The types still come from the full table: TypeScript reads
 * the source, the plugin only changes what the bundler emits.
 */
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import type { allRoutes } from '@bourse/shared';

/** A locale file of packages/shared (the app bundles them as its messages). */
const LOCALE_FILE = /[\\/]packages[\\/]shared[\\/]locales[\\/][a-z]+\.json$/;

/** An area file of the table (route.ts, answer.ts and index.ts are not). */
const AREA_FILE =
  /[\\/]packages[\\/]shared[\\/]src[\\/]contract[\\/](?!(?:route|answer|index)\.ts$)[a-z-]+\.ts$/;

interface FullRoute {
  method: unknown;
  path: string;
  auth: string;
  encoding?: string;
  rows?: unknown;
  file?: boolean;
}

const isRoute = (value: unknown): value is FullRoute =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as FullRoute).path === 'string' &&
  'method' in value;

/** What a call needs of a route. */
function thin(route: FullRoute) {
  return {
    method: route.method,
    path: route.path,
    ...(route.encoding ? { encoding: route.encoding } : {}),
    ...(route.rows ? { rows: true } : {}),
    ...(route.file ? { file: true } : {}),
  };
}

type Contract = { allRoutes: typeof allRoutes };

/** The names of the fields of a query or body schema (an object, or a pipe into one). */
function fieldsOf(schema: unknown, into: Set<string>): Set<string> {
  const shape = (schema as { shape?: Record<string, unknown> } | null)?.shape;
  if (shape) for (const name of Object.keys(shape)) into.add(name);
  const inner = (schema as { def?: { in?: unknown } } | null)?.def?.in;
  if (inner) fieldsOf(inner, into);
  return into;
}

/**
 * The labels only the operator API names (`field_<name>` of inputs no call of the app has): the
 * app never shows them, so its bundled messages leave them out.
 */
async function operatorOnlyLabels(): Promise<Set<string>> {
  const { tsImport } = await import('tsx/esm/api');
  const contract = (await tsImport(
    pathToFileURL(new URL('../../packages/shared/src/contract/index.ts', import.meta.url).pathname)
      .href,
    import.meta.url,
  )) as Contract;
  const app = new Set<string>();
  const operators = new Set<string>();
  for (const route of contract.allRoutes()) {
    const into =
      route.auth === 'operator' || route.path.startsWith('/admin-api/') ? operators : app;
    fieldsOf(route.query, into);
    fieldsOf(route.body, into);
  }
  return new Set([...operators].filter((name) => !app.has(name)).map((name) => `field_${name}`));
}

export function routeTablePlugin(): Plugin {
  let operatorLabels: Promise<Set<string>> | undefined;
  return {
    name: 'bourse-route-table',
    enforce: 'pre',
    async transform(code, id) {
      if (!LOCALE_FILE.test(id.split('?')[0]!)) return null;
      operatorLabels ??= operatorOnlyLabels();
      const drop = await operatorLabels;
      const messages = JSON.parse(code) as Record<string, string>;
      for (const key of drop) delete messages[key];
      return { code: JSON.stringify(messages), map: null };
    },
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
