import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { root } from './lint-probes.js';
import { serverModuleDependencies, serverModuleFolders } from './server-modules.js';

/*
 * docs/architecture.md lists the server's modules in table order and docs/architecture.mmd draws their
 * journeys: both must name the modules that exist, so a move or a new module shows up here first.
 */

const src = `${root}apps/server/src`;
const page = readFileSync(`${root}docs/architecture.md`, 'utf8');
const picture = readFileSync(`${root}docs/architecture.mmd`, 'utf8');

/** The node names of the Mermaid picture's edges (`a -->|label| b`). */
function pictureModules(text: string): string[] {
  const names = [...text.matchAll(/^\s*([\w-]+)\s*-->(?:\|[^|]*\|)?\s*([\w-]+)\s*$/gm)].flatMap((edge) => [
    edge[1]!,
    edge[2]!,
  ]);
  return [...new Set(names)].sort();
}

describe('the architecture page and its picture', () => {
  it('lists every module of the table, in its order, and nothing else', () => {
    const listed = [...page.matchAll(/^\| `([\w-]+)`\s+\|/gm)].map((row) => row[1]);
    expect(listed).toEqual(Object.keys(serverModuleDependencies));
    expect([...serverModuleFolders(src)].sort()).toEqual(Object.keys(serverModuleDependencies).sort());
  });

  it('draws only modules that exist', () => {
    const drawn = pictureModules(picture);
    expect(drawn.length).toBeGreaterThan(5);
    for (const name of drawn) expect(serverModuleFolders(src), name).toContain(name);
  });

  it('draws the journey through the modules the page walks through', () => {
    const drawn = pictureModules(picture);
    for (const module of ['gateway', 'messages', 'voice', 'delivery', 'translation', 'rooms'])
      expect(drawn).toContain(module);
  });
});
