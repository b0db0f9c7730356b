// The server's modules are the folders under apps/server/src, and this table is the one place that says which
// of them each may import (docs/decisions/0176-server-module-table.md). eslint.config.js derives the
// server's import zones from it and from the folders on disk; eslint/table-owner.js uses the same names.
import { readdirSync } from 'node:fs';

/**
 * Each module with the modules it may import. Every module may also import the shared files directly
 * under src/ (sharedServerFiles); none may import the composition (compositionServerFiles), which sits
 * above them all. The table has no circles: a module never reaches back up to one that imports it.
 * Listed from the ground up.
 */
export const serverModuleDependencies = {
  audio: [],
  bus: [],
  store: [],
  web: [],
  ai: ['audio'],
  metrics: ['ai', 'store'],
  accounts: ['bus', 'store'],
  rooms: ['accounts', 'store'],
  // a room's frames to its sockets on every node, and who is present: the hub translation sends through
  delivery: ['bus', 'metrics', 'rooms'],
  translation: ['ai', 'audio', 'bus', 'delivery', 'metrics'],
  glossary: ['accounts', 'ai', 'store', 'translation'],
  summary: ['ai', 'translation'],
  credits: ['accounts', 'bus', 'metrics', 'store', 'translation'],
  http: ['accounts', 'bus'],
  payments: ['accounts', 'credits', 'store'],
  // the one path of a message: stored in its room's turn, fanned out, handed to translation
  messages: ['delivery', 'rooms', 'translation'],
  voice: ['ai', 'audio', 'messages', 'metrics', 'translation'],
  // sockets and frames, the top of the journey: it hands frames to the modules below
  gateway: ['accounts', 'delivery', 'messages', 'metrics', 'rooms', 'store'],
  // the use cases that span modules: each joins modules through the ports they declare
  'use-cases': ['accounts', 'rooms', 'store', 'translation'],
  // readiness, the drain and the sweeps: the top of the house, which winds every module down in order
  lifecycle: [
    'accounts',
    'bus',
    'delivery',
    'gateway',
    'messages',
    'rooms',
    'store',
    'translation',
    'use-cases',
  ],
};

/** Files directly under src/ that every module may import: small helpers that know no module. */
export const sharedServerFiles = [
  'clock.ts',
  'config.ts',
  'http-errors.ts',
  'lazy-module.ts',
  'log-sampler.ts',
  'startup-garbage.ts',
];

/** Files directly under src/ that compose the modules into the app: no module imports them. */
export const compositionServerFiles = ['server.ts', 'app.ts'];

/** Folders under src/ that hold test helpers only; production code never imports them (a rule of its own). */
export const testOnlyServerFolders = ['testing'];

/** The folders under `src`, each a module (test-only folders aside). */
export function serverModuleFolders(src) {
  return readdirSync(src, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !testOnlyServerFolders.includes(entry.name))
    .map((entry) => entry.name);
}

/**
 * The import-x/no-restricted-paths zones of the table: a module may import the modules of its row and
 * nothing else on disk, nor the composition. A folder not in the table yet is forbidden to every module
 * (and eslint/lint-boundaries.test.ts fails until it has its row).
 */
export function serverModuleZones(src, dependencies = serverModuleDependencies) {
  const folders = serverModuleFolders(src);
  return Object.entries(dependencies).map(([module, allowed]) => ({
    target: `./apps/server/src/${module}`,
    from: [
      ...folders.filter((folder) => folder !== module && !allowed.includes(folder)),
      ...compositionServerFiles,
    ].map((path) => `./apps/server/src/${path}`),
    message: `${module} may import only ${allowed.length ? allowed.join(', ') : 'no other module'} and the shared files under src/ (eslint/server-modules.js): a module never imports one above it; pass what it needs in through a port.`,
  }));
}

/**
 * The import-x/no-restricted-paths zones of the faces (decision 0208): from another module only its
 * `index.ts` may be imported; the composition may also import a module's `plugin.ts`. With `tests`, the
 * zones for test files: they may also import another module's `testing/` folder, and nothing else deep.
 */
export function serverFaceZones(src, { tests = false } = {}) {
  const folders = serverModuleFolders(src);
  const everyFolder = [...folders, ...testOnlyServerFolders];
  const message = tests
    ? "a test imports another module through its index.js, or that module's testing/ folder (decision 0208)."
    : 'from another module only its index.js may be imported (decision 0208): name what you need in its face.';
  const face = tests ? ['./index.ts', './testing'] : ['./index.ts'];
  return folders.flatMap((module) => [
    {
      target: everyFolder
        .filter((folder) => folder !== module)
        .map((folder) => `./apps/server/src/${folder}`),
      from: `./apps/server/src/${module}`,
      except: face,
      message: `${module}: ${message}`,
    },
    {
      target: compositionServerFiles.map((file) => `./apps/server/src/${file}`),
      from: `./apps/server/src/${module}`,
      except: [...face, './plugin.ts'],
      message: `${module}: the composition imports a module's plugin.js or index.js, nothing deeper (decision 0208).`,
    },
  ]);
}
