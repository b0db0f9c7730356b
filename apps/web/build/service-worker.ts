import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { build, type Plugin, type Rollup } from 'vite';
import { chunkGraph } from './route-preload';

/*
 * Builds the service worker (src/service-worker/sw.ts) into /sw.js: one classic script (a worker
 * registered without `type: 'module'` runs in every browser that has workers), unhashed (a worker's address
 * must stay the same across deploys), with the build's shell written into it: index.html, the entry and
 * the screens a first visit loads (each with every chunk it imports and its CSS), and a version hashed from
 * them, so each deploy has a worker of its own that replaces the last.
 */

const SOURCE = fileURLToPath(new URL('../src/service-worker/sw.ts', import.meta.url));
/** Where the worker is served; at the root, its scope is the whole app. */
export const SERVICE_WORKER_FILE = 'sw.js';

export interface Shell {
  version: string;
  files: string[];
}

/** The files the shell keeps, as the absolute paths the page requests them by. */
export function shellFiles(bundle: Rollup.OutputBundle): string[] {
  const { entry, screens, catalogues, byFile, filesOf } = chunkGraph(bundle);
  const files = new Set<string>();
  // every language's catalogue too: a person whose language is lazy sees it offline as well
  for (const root of [entry, ...screens.values(), ...catalogues.values()]) {
    for (const file of filesOf(root.fileName)) {
      files.add(file);
      for (const css of byFile.get(file)?.viteMetadata?.importedCss ?? []) files.add(css);
    }
  }
  return [...files].sort().map((file) => `/${file}`);
}

async function bundleWorker(shell: Shell): Promise<string> {
  const output = await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    define: { __XTALK_SHELL__: JSON.stringify(shell) },
    build: {
      write: false,
      copyPublicDir: false,
      reportCompressedSize: false,
      modulePreload: false,
      rolldownOptions: { input: SOURCE, output: { format: 'iife', entryFileNames: SERVICE_WORKER_FILE } },
    },
  });
  const chunks = (Array.isArray(output) ? output : [output]).flatMap((result) =>
    'output' in result ? result.output.filter((item) => item.type === 'chunk') : [],
  );
  if (chunks.length !== 1) throw new Error(`service-worker: expected one chunk, got ${chunks.length}`);
  return chunks[0]!.code;
}

export function serviceWorker(): Plugin {
  return {
    name: 'xtalk-service-worker',
    apply: 'build',
    // after Vite's own HTML plugin has put index.html into the bundle
    enforce: 'post',
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') throw new Error('service-worker: the build has no index.html');
      const files = shellFiles(bundle);
      const version = createHash('sha256')
        .update(JSON.stringify(files))
        .update(index.source)
        .digest('hex')
        .slice(0, 16);
      this.emitFile({
        type: 'asset',
        fileName: SERVICE_WORKER_FILE,
        source: await bundleWorker({ version, files }),
      });
    },
  };
}
