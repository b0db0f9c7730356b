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
  translation: ['ai', 'audio', 'bus', 'metrics'],
  glossary: ['accounts', 'ai', 'store', 'translation'],
  summary: ['ai', 'translation'],
  credits: ['accounts', 'bus', 'metrics', 'store', 'translation'],
  http: ['accounts', 'bus'],
  realtime: ['accounts', 'bus', 'metrics', 'rooms', 'store', 'translation'],
  payments: ['accounts', 'credits', 'store'],
  voice: ['ai', 'audio', 'metrics', 'realtime', 'rooms', 'translation'],
  // the use cases that span modules: each joins modules through the ports they declare
  'use-cases': ['accounts', 'credits', 'rooms', 'store', 'translation'],
  // readiness, the drain and the sweeps: the top of the house, which winds every module down in order
  lifecycle: ['accounts', 'bus', 'realtime', 'rooms', 'store', 'translation', 'use-cases'],
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
export const testOnlyServerFolders = ['test'];

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
