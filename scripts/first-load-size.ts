import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { FIRST_LOAD_BUDGET_BYTES } from '../apps/web/build/first-load-budget.js';

/*
 * The first-load budget of the web app: the gzipped JavaScript every page loads before it can
 * render, i.e. the entry chunk of index.html and every chunk it imports statically (what Vite preloads).
 * Screens loaded on demand (the room, the bot check) are not part of it. Read from Vite's manifest.
 */

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

export function firstLoadFiles(distDir: string): string[] {
  const manifest = JSON.parse(readFileSync(join(distDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ManifestChunk
  >;
  const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entry) throw new Error('No entry chunk in the Vite manifest.');
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key]!.imports ?? []) visit(next);
  };
  visit(entry);
  return [...seen].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
}

export function gzippedSize(distDir: string, files: string[]): number {
  return files.reduce(
    (sum, file) => sum + gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length,
    0,
  );
}

// `npm run size`: fail when the built app is over budget.
if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = join(import.meta.dirname, '../apps/web/dist');
  const files = firstLoadFiles(dist);
  const bytes = gzippedSize(dist, files);
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  console.log(
    `first-load JS: ${kb(bytes)} gzipped (${files.join(', ')}); budget ${kb(FIRST_LOAD_BUDGET_BYTES)}`,
  );
  if (bytes > FIRST_LOAD_BUDGET_BYTES) {
    console.error('Over budget: load more lazily (see docs/decisions/0081-first-load-budget.md).');
    process.exit(1);
  }
}
