import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { FIRST_LOAD_BUDGET_BYTES } from '../apps/web/build/first-load-budget.js';

/*
 * The first-load budget of the web app: the gzipped JavaScript a page fetches before it can render, read
 * from Vite's manifest. That is the entry chunk of index.html and every chunk it imports statically (what
 * Vite preloads), plus the interface words of the person's language when they are a chunk of their own
 * (main.tsx waits for them before the first render: decision 0188). The budget holds for the heaviest
 * language, so the largest such catalogue is counted. Screens loaded on demand (the room, the bot check)
 * are not part of it.
 */

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

/** A language's catalogue module (apps/web/src/lib/i18n/catalogues.ts loads the lazy ones). */
const CATALOGUE = /(^|\/)lib\/i18n\/([a-z]{2})\.ts$/;

export interface FirstLoad {
  /** The entry and its static imports, loaded by every page. */
  entry: string[];
  /** The catalogue counted on top of them (the largest lazy one), if any language is lazy. */
  catalogue?: { language: string; files: string[] };
}

const readManifest = (distDir: string): Manifest =>
  JSON.parse(readFileSync(join(distDir, '.vite/manifest.json'), 'utf8')) as Manifest;

/** A chunk's key and every key it imports statically, transitively. */
function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const next of manifest[key]!.imports ?? []) closure(manifest, next, seen);
  return seen;
}

const jsFiles = (manifest: Manifest, keys: Iterable<string>) =>
  [...keys].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));

export function firstLoad(distDir: string): FirstLoad {
  const manifest = readManifest(distDir);
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
  if (!entryKey) throw new Error('No entry chunk in the Vite manifest.');
  const entryKeys = closure(manifest, entryKey);
  const entry = jsFiles(manifest, entryKeys);
  const catalogues = Object.keys(manifest).flatMap((key) => {
    const language = CATALOGUE.exec(manifest[key]!.src ?? key)?.[2];
    if (!language || !manifest[key]!.isDynamicEntry) return [];
    const extra = [...closure(manifest, key)].filter((chunk) => !entryKeys.has(chunk));
    const files = jsFiles(manifest, extra);
    return [{ language, files, bytes: gzippedSize(distDir, files) }];
  });
  const largest = catalogues.sort((a, b) => b.bytes - a.bytes)[0];
  return { entry, catalogue: largest && { language: largest.language, files: largest.files } };
}

/** Every file of the heaviest first load: the entry's, then the largest catalogue's. */
export function firstLoadFiles(distDir: string): string[] {
  const { entry, catalogue } = firstLoad(distDir);
  return [...entry, ...(catalogue?.files ?? [])];
}

/** The room screen's module (the router loads it lazily): its chunk and static imports run as it opens. */
const ROOM_SCREEN = 'src/app/routes/translate-route.tsx';

/**
 * The files of the room screen's chunk and its static imports that hold zod: none, as zod and the room's
 * schemas load in tasks of their own while the join is in flight (decision 0084). A zod schema built at a
 * module's top level, in a module the screen imports for something else, brings all of zod into the
 * task that evaluates the screen.
 */
export function zodInRoomScreen(distDir: string): string[] {
  const manifest = readManifest(distDir);
  if (!manifest[ROOM_SCREEN]) throw new Error(`No ${ROOM_SCREEN} chunk in the Vite manifest.`);
  return jsFiles(manifest, closure(manifest, ROOM_SCREEN)).filter((file) => {
    // the bundler's own runtime has no source map and no sources
    const mapFile = join(distDir, `${file}.map`);
    if (!existsSync(mapFile)) return false;
    const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { sources: string[] };
    return map.sources.some((source) => source.includes('/node_modules/zod/'));
  });
}

export const gzipped = (distDir: string, file: string): number =>
  gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;

export function gzippedSize(distDir: string, files: string[]): number {
  return files.reduce((sum, file) => sum + gzipped(distDir, file), 0);
}

// `npm run size`: print what a first load fetches, and fail when the built app is over budget.
if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = join(import.meta.dirname, '../apps/web/dist');
  const { entry, catalogue } = firstLoad(dist);
  const kb = (n: number) => `${(n / 1000).toFixed(1)} KB`;
  const row = (file: string) => `  ${kb(gzipped(dist, file)).padStart(8)}  ${file}`;
  console.log('entry and its static imports:');
  for (const file of entry) console.log(row(file));
  if (catalogue) {
    console.log(`the largest catalogue (${catalogue.language}):`);
    for (const file of catalogue.files) console.log(row(file));
  }
  const bytes = gzippedSize(dist, [...entry, ...(catalogue?.files ?? [])]);
  console.log(
    `first-load JS: ${kb(bytes)} gzipped (entry ${kb(gzippedSize(dist, entry))}` +
      `${catalogue ? ` + ${catalogue.language} ${kb(gzippedSize(dist, catalogue.files))}` : ''}); ` +
      `budget ${kb(FIRST_LOAD_BUDGET_BYTES)}`,
  );
  if (bytes > FIRST_LOAD_BUDGET_BYTES) {
    console.error('Over budget: load more lazily (see docs/decisions/0081-first-load-budget.md).');
    process.exit(1);
  }
  const zod = zodInRoomScreen(dist);
  if (zod.length > 0) {
    console.error(
      `The room screen imports zod statically (${zod.join(', ')}): keep zod schemas out of the modules it ` +
        'imports (see docs/decisions/0084-room-screen-main-thread-at-load.md).',
    );
    process.exit(1);
  }
}
