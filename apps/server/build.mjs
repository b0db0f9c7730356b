// Bundles the server into dist/server.js, and the database thread's entry (docs/decisions/0118) into
// dist/pglite-worker.js beside it. Workspace packages (@xtalk/*) are compiled in; everything
// from node_modules stays external and is loaded at run time (PGlite finds its WASM files that way).
import { build } from 'esbuild';

await build({
  entryPoints: { server: 'src/server.ts', 'pglite-worker': 'src/store/pglite-worker.ts' },
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
