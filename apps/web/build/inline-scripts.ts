import { createHash } from 'node:crypto';
import type { Plugin } from 'vite';

/*
 * The policy allows no inline script but those it names by hash (decision 0263). The build writes the
 * hash of every inline script its pages carry, read from the pages as they are written, into
 * `INLINE_SCRIPTS_FILE`; the server admits exactly those (apps/server/src/web/inline-scripts.ts). A
 * script edited in index.html changes its hash here, never in a list kept by hand.
 */

/** Where the build writes the hashes (the server reads the same name). */
export const INLINE_SCRIPTS_FILE = 'inline-scripts.json';

const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g;

/** The `'sha256-…'` source of each inline script in `html`, as a policy names it. */
export function inlineScriptHashes(html: string): string[] {
  return [...html.matchAll(INLINE_SCRIPT)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body!, 'utf8').digest('base64')}'`,
  );
}

export function inlineScripts(): Plugin {
  return {
    name: 'xtalk-inline-scripts',
    apply: 'build',
    // after the other plugins have written every page
    enforce: 'post',
    generateBundle(_options, bundle) {
      const hashes = new Set<string>();
      for (const [fileName, output] of Object.entries(bundle))
        if (output.type === 'asset' && fileName.endsWith('.html'))
          for (const hash of inlineScriptHashes(String(output.source))) hashes.add(hash);
      const source = `${JSON.stringify({ 'script-src': [...hashes].sort() }, null, 2)}\n`;
      this.emitFile({ type: 'asset', fileName: INLINE_SCRIPTS_FILE, source });
    },
  };
}
