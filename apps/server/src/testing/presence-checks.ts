import { expect } from 'vitest';
import type { Presence } from '../delivery/index.js';

/**
 * What every presence store must do: per-user counts (JOIN and LEAVE once per person) and per-connection
 * language counts (speech only for a language someone listens in, decision 0137). `room` must be fresh.
 */
export async function checkPresence(presence: Presence, room: string) {
  expect(await presence.join(room, 'ann')).toBe(true);
  expect(await presence.join(room, 'ann')).toBe(false); // a second tab
  expect(await presence.leave(room, 'ann')).toBe(false);
  expect(await presence.leave(room, 'ann')).toBe(true);

  expect(await presence.listens(room, 'ja')).toBe(false);
  await presence.listen(room, undefined, 'ja'); // ann's tab
  await presence.listen(room, undefined, 'ja'); // bob's
  await presence.listen(room, 'ja', 'en'); // ann switches
  expect(await presence.listens(room, 'ja')).toBe(true);
  expect(await presence.listens(room, 'en')).toBe(true);
  await presence.listen(room, 'ja', undefined); // bob leaves
  expect(await presence.listens(room, 'ja')).toBe(false);
  expect(await presence.listens(`${room}-other`, 'en')).toBe(false);
  await presence.listen(room, 'en', 'en'); // no move
  expect(await presence.listens(room, 'en')).toBe(true);
  await presence.listen(room, 'en', undefined);
  expect(await presence.listens(room, 'en')).toBe(false);
}
