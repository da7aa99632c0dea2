/**
 * The route table and the messages in the app's bundle. Each area of the table reaches the bundle
 * with what a call needs alone (tools/route-table.ts), so the first screen carries neither zod nor
 * any schema. The locale files of packages/shared lose the labels only the operator API names, and
 * come in two parts: the first screen's messages and the rest.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import type { allRoutes } from '@bourse/shared';
import { thinRouteTable } from '../../tools/route-table';

/** A locale file of packages/shared (the app bundles them as its messages). */
const LOCALE_FILE = /[\\/]packages[\\/]shared[\\/]locales[\\/][a-z]+\.json$/;

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

const webDir = path.dirname(fileURLToPath(import.meta.url));

/**
 * Where the first screen's texts are named: the home feature, the shell and the shared layers it
 * uses, and the spec's constants (default banners, product types). A key named in these files, or
 * starting with a prefix a template there completes (`market_${…}`), is a first-screen message.
 */
const FIRST_SCREEN_SOURCES = [
  'src/features/home',
  'src/app',
  'src/components',
  'src/hooks',
  'src/lib',
  'src/api',
  'src/config',
  'src/i18n',
  '../../packages/shared/src/constants.ts',
].map((source) => path.join(webDir, source));

function* sourceFiles(entry: string): Generator<string> {
  if (statSync(entry).isDirectory()) {
    for (const name of readdirSync(entry)) yield* sourceFiles(path.join(entry, name));
  } else if (/\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry)) {
    yield entry;
  }
}

/** The message keys the first screen may show, of those a locale has. */
export function firstScreenKeys(keys: Iterable<string>): Set<string> {
  const names = new Set<string>();
  const prefixes = new Set<string>();
  for (const source of FIRST_SCREEN_SOURCES) {
    for (const file of sourceFiles(source)) {
      const text = readFileSync(file, 'utf8');
      for (const [, name] of text.matchAll(/['"`]([A-Za-z]+_[A-Za-z0-9_]+)['"`]/g))
        names.add(name!);
      for (const [, prefix] of text.matchAll(/`([A-Za-z]+_)\$\{/g)) prefixes.add(prefix!);
    }
  }
  return new Set(
    [...keys].filter(
      (key) => names.has(key) || [...prefixes].some((prefix) => key.startsWith(prefix)),
    ),
  );
}

/** `?raw&part=home` (the first screen's messages) or `&part=rest` (all others) of a locale file. */
function localePart(id: string): 'home' | 'rest' | undefined {
  const part = new URLSearchParams(id.split('?')[1] ?? '').get('part');
  return part === 'home' || part === 'rest' ? part : undefined;
}

export function routeTablePlugin(): Plugin {
  let operatorLabels: Promise<Set<string>> | undefined;
  let homeKeys: Set<string> | undefined;
  return {
    name: 'bourse-route-table',
    enforce: 'pre',
    async transform(code, id) {
      // The whole locale files (a part, `?raw&part=`, is made in `load`).
      if (id.includes('?') || !LOCALE_FILE.test(id)) return null;
      const drop = await (operatorLabels ??= operatorOnlyLabels());
      const messages = JSON.parse(code) as Record<string, string>;
      for (const key of drop) delete messages[key];
      return { code: JSON.stringify(messages), map: null };
    },
    async load(id) {
      const file = id.split('?')[0]!;
      // A part of a locale file, as the JSON text of its messages: what the first screen shows,
      // or the rest, loaded with the first other screen (the server's language pack brings every
      // key at launch anyway). Without this plugin (unit tests) `?raw` gives the whole file.
      const part = localePart(id);
      if (part && LOCALE_FILE.test(file)) {
        const drop = await (operatorLabels ??= operatorOnlyLabels());
        homeKeys ??= firstScreenKeys(
          Object.keys(
            JSON.parse(readFileSync(file.replace(/[a-z]+\.json$/, 'en.json'), 'utf8')) as object,
          ),
        );
        const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
        for (const key of Object.keys(messages)) {
          if (drop.has(key) || homeKeys.has(key) !== (part === 'home')) delete messages[key];
        }
        return `export default ${JSON.stringify(JSON.stringify(messages))};`;
      }
      return thinRouteTable(file, { access: false });
    },
  };
}
