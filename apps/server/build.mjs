// Bundles the server into dist/server.js, and the database thread's entry (docs/decisions/0118) into
// dist/pglite-worker.js beside it. Workspace packages (@xtalk/*) are compiled in; everything
// from node_modules stays external and is loaded at run time (PGlite finds its WASM files that way).
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

await build({
  entryPoints: { server: 'src/server.ts', 'pglite-worker': '../../packages/pglite-engine/src/worker.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externalise-node-modules',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@xtalk/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});

// esbuild writes strings as ASCII, but keeps regular expression literals as written. One character outside
// Latin-1 there makes V8 hold the whole bundle's source as a two-byte string, twice the heap it
// needs for as long as the server runs (docs/decisions/0132). Such characters are written as \u escapes.
for (const file of ['dist/server.js', 'dist/pglite-worker.js']) {
  const wide = readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line, index) => (/[^\t\n\r\u0020-\u00ff]/u.test(line) ? [`${file}:${index + 1}`] : []));
  if (wide.length)
    throw new Error(
      `Characters outside Latin-1 in the bundle (write them as \\u escapes): ${wide.join(', ')}`,
    );
}
