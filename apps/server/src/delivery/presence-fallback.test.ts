import { describe, expect, it } from 'vitest';
import type { RedisOutage } from '../bus/index.js';
import { checkPresence } from '../testing/presence-checks.js';
import { createMemoryPresence, type Presence } from './presence.js';
import { withMemoryFallback } from './presence-fallback.js';

/* Presence that goes on in this node's memory while the shared store is away. */

/** A switchable outage; while down, every shared call fails as a dead Redis's would. */
function switchable(shared: Presence) {
  const state = { up: true, failures: 0 };
  const outage: RedisOutage = {
    usable: () => state.up,
    failed: () => void state.failures++,
  };
  const failing = <T>(work: () => Promise<T>) => (state.up ? work() : Promise.reject(new Error('down')));
  const store: Presence = {
    join: (room, user) => failing(() => shared.join(room, user)),
    leave: (room, user) => failing(() => shared.leave(room, user)),
    listen: (room, from, to) => failing(() => shared.listen(room, from, to)),
    listens: (room, language) => failing(() => shared.listens(room, language)),
  };
  return { state, outage, store };
}

describe('presence with a memory fallback', () => {
  it('counts as the shared store does while it is up', async () => {
    const { outage, store } = switchable(createMemoryPresence());
    await checkPresence(withMemoryFallback(store, outage), 'R1');
  });

  it('counts on this node while the store is away', async () => {
    const { state, outage, store } = switchable(createMemoryPresence());
    state.up = false;
    await checkPresence(withMemoryFallback(store, outage), 'R1');
  });

  it('takes back from the shared counts only what this node added to them', async () => {
    const shared = createMemoryPresence();
    const { state, outage, store } = switchable(shared);
    const presence = withMemoryFallback(store, outage);
    await shared.listen('R1', undefined, 'ja'); // another node's listener
    await shared.join('R1', 'bob'); // and bob on another node
    state.up = false;
    await presence.listen('R1', undefined, 'ja'); // counted here only
    expect(await presence.join('R1', 'bob')).toBe(true); // a second tab, counted here only
    state.up = true;
    await presence.listen('R1', 'ja', undefined);
    expect(await presence.leave('R1', 'bob')).toBe(true);
    expect(await shared.listens('R1', 'ja')).toBe(true);
    expect(await shared.leave('R1', 'bob')).toBe(true); // bob's other tab was still counted
  });

  it('answers from this node when the shared store fails mid-call', async () => {
    const { state, outage, store } = switchable(createMemoryPresence());
    const presence = withMemoryFallback(store, { ...outage, usable: () => true });
    state.up = false;
    expect(await presence.join('R1', 'ann')).toBe(true);
    await presence.listen('R1', undefined, 'en');
    expect(await presence.listens('R1', 'en')).toBe(true);
    expect(await presence.listens('R1', 'ja')).toBe(false);
    expect(state.failures).toBeGreaterThan(0);
  });
});
