/**
 * The first screen's code in one chunk. By default the entry's static imports split into some
 * thirty small shared chunks (each icon, each hook a lazy screen also uses…), and a phone on
 * HTTP/1.1 has six connections to the server: every file costs a round trip on the slow network
 * Lighthouse simulates. `firstScreenGroup` first bundles the app in memory as it would split by
 * default (no minifying, nothing written), takes the modules of every chunk the entry loads
 * statically, and returns a code-splitting group that puts exactly those in one chunk, `start`.
 * The lazy screens split as before and import what they share from it (it is always loaded
 * first). A module-level walk of the graph would not do: a library's index re-exports all of it,
 * and Rolldown's own `$initial` tag follows dynamic imports too; both took every screen.
 */
import { build, type Rolldown } from 'vite';

/** Set while the probe build runs, so the app's config does not start another. */
export const PROBE_ENV = 'BOURSE_FIRST_SCREEN_PROBE';

export interface ChunkGroup {
  name: string;
  test(id: string): boolean;
  includeDependenciesRecursively: boolean;
}

export async function firstScreenGroup(root: string): Promise<ChunkGroup> {
  process.env[PROBE_ENV] = '1';
  let result: Awaited<ReturnType<typeof build>>;
  try {
    result = await build({
      root,
      mode: 'production',
      logLevel: 'silent',
      build: { write: false, minify: false, manifest: false, emptyOutDir: false },
    });
  } finally {
    delete process.env[PROBE_ENV];
  }
  const outputs = (Array.isArray(result) ? result : [result]) as Rolldown.RolldownOutput[];
  const chunks = outputs
    .flatMap((output) => output.output)
    .filter((item): item is Rolldown.OutputChunk => item.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const modules = new Set<string>();
  const queue = chunks.filter((chunk) => chunk.isEntry).flatMap((chunk) => chunk.imports);
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop()!;
    const chunk = byFile.get(file);
    if (!chunk || seen.has(file)) continue;
    seen.add(file);
    for (const id of chunk.moduleIds) modules.add(id);
    queue.push(...chunk.imports);
  }
  // Exactly these: a library's index among them re-exports every part of it, which the
  // dependencies of the group would bring back.
  return { name: 'start', test: (id) => modules.has(id), includeDependenciesRecursively: false };
}
