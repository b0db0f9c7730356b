import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

/*
 * Writes a .br and a .gz next to every text asset of the build, which the server sends to browsers that
 * accept them (@fastify/static `preCompressed`, apps/server/src/web/static.ts). Without it the entry
 * chunk travels uncompressed, which on a throttled mobile link delays /guest-login's first paint. Compressed once at build time, at the highest levels, so no
 * request pays for it.
 */

const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
/** Below this, the encoding headers weigh about what compression saves. */
const MIN_BYTES = 1024;

export function precompress(): Plugin {
  return {
    name: 'xtalk-precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      const dir = options.dir ?? 'dist';
      for (const [fileName, output] of Object.entries(bundle)) {
        if (!COMPRESSIBLE.test(fileName)) continue;
        const content = Buffer.from(output.type === 'chunk' ? output.code : output.source);
        if (content.length < MIN_BYTES) continue;
        const path = join(dir, fileName);
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(content, {
            params: {
              [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
              [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
            },
          }),
        );
      }
    },
  };
}
