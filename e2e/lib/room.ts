import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { enterAsGuest, newPerson, type Person } from './people.js';

/* What people do in a room, and the room two guests share. */

export async function roomIdOf(page: Page): Promise<string> {
  return new URL(page.url()).searchParams.get('r') ?? '';
}

/**
 * The room a page moved to after leaving `previous`: waits for a real 7-character code. While a room is
 * being created the address says `r=new`, which already differs from `previous` but is no room yet.
 */
export async function movedRoomIdOf(page: Page, previous: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const roomId = await roomIdOf(page);
    if (roomId !== previous && /^[A-Z0-9]{7}$/.test(roomId)) return roomId;
    if (Date.now() > deadline) throw new Error(`the page stayed on room '${roomId}' (from '${previous}')`);
    await page.waitForTimeout(100);
  }
}

/** The room's messages shown and its connecting overlay gone. */
export async function connected(page: Page): Promise<void> {
  await page.getByTestId('message-list').waitFor();
  await page.getByTestId('connecting-overlay').waitFor({ state: 'detached', timeout: 20_000 });
}

export async function say(page: Page, text: string): Promise<void> {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('send-button').click();
}

export function messageWith(page: Page, text: string) {
  return page
    .getByTestId('message')
    .filter({ has: page.getByTestId('original').getByText(text, { exact: true }) });
}

/** Each person's page shows the message once (waits for it). */
export async function seenOnceBy(people: Person[], text: string): Promise<void> {
  for (const { page } of people) await expect.poll(() => messageWith(page, text).count()).toBe(1);
}

/**
 * Two guests in one room: Alice enters and gets a new room, Bob opens the room's address. `beforeBob`
 * prepares Bob's browser (storage, init scripts) before he enters.
 */
export async function twoGuestsInRoom(
  browser: Browser,
  baseUrl: string,
  beforeBob?: (bob: Person) => Promise<unknown>,
): Promise<{ alice: Person; bob: Person; roomId: string }> {
  const alice = await newPerson(browser, baseUrl);
  await enterAsGuest(alice.page);
  const roomId = await roomIdOf(alice.page);
  const bob = await newPerson(browser, baseUrl);
  await beforeBob?.(bob);
  await enterAsGuest(bob.page, `/translate?r=${roomId}`);
  return { alice, bob, roomId };
}
