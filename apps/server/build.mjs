// Bundles the server into dist/serve.js behind the small entry dist/server.js, which sets V8's young
// generation for the start before it loads serve.js (docs/decisions/0131), and the database thread's
// entry (docs/decisions/0118) into dist/pglite-worker.js beside them. Workspace packages (@xtalk/*) are compiled in; everything
// from node_modules stays external and is loaded at run time (PGlite finds its WASM files that way).
import { build } from 'esbuild';

await build({
  entryPoints: {
    server: 'src/server.ts',
    serve: 'src/serve.ts',
    'pglite-worker': 'src/store/pglite-worker.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      // the entry loads serve.js at run time, after its setting: bundled in, it would load first
      name: 'serve-stays-a-file',
      setup(b) {
        b.onResolve({ filter: /^\.\/serve\.js$/ }, (args) => ({ path: args.path, external: true }));
      },
    },
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
