import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { defaultWebRoot } from './static.js';

/** Where the web build writes the hashes of its pages' inline scripts (apps/web/build/inline-scripts.ts). */
const INLINE_SCRIPTS_FILE = 'inline-scripts.json';

const hashes = z.object({ 'script-src': z.array(z.string().regex(/^'sha256-[A-Za-z0-9+/]+=*'$/)) });

/**
 * The `'sha256-…'` sources that admit the built pages' inline scripts, and nothing else: a build without
 * the file (none at all, or one from before it) admits no inline script. A file that names anything but
 * hashes is refused at start rather than loosening the policy.
 */
export function inlineScriptSources(root: string = defaultWebRoot): string[] {
  const file = join(root, INLINE_SCRIPTS_FILE);
  if (!existsSync(file)) return [];
  return hashes.parse(JSON.parse(readFileSync(file, 'utf8')))['script-src'];
}
