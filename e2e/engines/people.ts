import { expect } from 'vitest';
import type { Engine, EnginePage, Viewport } from './driver.js';

/* A person in any engine: storage set before the app's first load, the way in as a guest, what they do. */

export interface PersonOptions {
  viewport?: Viewport;
  language?: 'en' | 'ja';
  theme?: 'light' | 'dark';
  /** The player reports what it received and played (features/voice/utils/test-hooks.ts). */
  hooks?: boolean;
}

/**
 * A page of its own, its storage set on the origin before the app loads (by way of a page that is not
 * the app): no engine here offers playwright's init scripts in the same form.
 */
export async function newPerson(engine: Engine, baseUrl: string, options: PersonOptions = {}) {
  const page = await engine.newPage({ baseUrl, viewport: options.viewport });
  await page.goto('/api/health');
  const stored: Record<string, string> = { tut: '1' };
  if (options.language) stored.lang = options.language;
  if (options.theme) stored['ui-theme'] = options.theme;
  if (options.hooks) stored['xtalk:test-hooks'] = '1';
  await page.evaluate((entries) => {
    for (const [key, value] of Object.entries(entries)) localStorage.setItem(key, value);
  }, stored);
  return page;
}

/** Polls `fn` in the page until it returns something truthy; fails with `what` after `timeout` ms. */
export async function waitUntil<A, R>(
  page: EnginePage,
  what: string,
  fn: (arg: A) => R | Promise<R>,
  arg: A,
  timeout = 20_000,
): Promise<R> {
  const deadline = Date.now() + timeout;
  let last: R | undefined;
  while (Date.now() < deadline) {
    last = await page.evaluate(fn, arg).catch(() => undefined);
    if (last) return last;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // what the page said meanwhile (a toast) is often why
  const said = await page
    .evaluate(
      () => ({
        at: location.href,
        toasts: [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent),
        text: document.body?.innerText.slice(0, 200),
      }),
      null,
    )
    .catch((error: unknown) => String(error));
  throw new Error(
    `${page.engine}: ${what} (after ${timeout} ms; last ${JSON.stringify(last)}; page ${JSON.stringify(said)})`,
  );
}

/** True once an element matching `selector` is in the document. */
export const present = (selector: string) => document.querySelector(selector) !== null;
/** True once no element matches `selector`. */
export const absent = (selector: string) => document.querySelector(selector) === null;

export const byTestId = (id: string) => `[data-testid="${id}"]`;

export async function roomIdOf(page: EnginePage): Promise<string> {
  return new URL(await page.url()).searchParams.get('r') ?? '';
}

/** From any page to a room: the bot check solves itself, then the microphone step, then the room. */
export async function enterAsGuest(page: EnginePage, path = '/'): Promise<string> {
  await page.goto(path);
  // the app's button, not the inert one of the markup the page is painted with before its script
  const mic = `${byTestId('mic-permission')}:not([inert] *)`;
  await waitUntil(page, 'the microphone step', present, mic, 45_000);
  await page.click(mic);
  await waitUntil(page, 'a room', () => /\/translate\?r=[A-Z0-9]{7}/.test(location.href), null, 30_000);
  await waitUntil(page, 'the message list', present, byTestId('message-list'));
  await waitUntil(page, 'connected', absent, byTestId('connecting-overlay'), 30_000);
  const roomId = await roomIdOf(page);
  expect(roomId).toMatch(/^[A-Z0-9]{7}$/);
  return roomId;
}

export async function say(page: EnginePage, text: string): Promise<void> {
  await page.fill(byTestId('chat-input'), text);
  await page.click(byTestId('send-button'));
}

/** The originals shown, newest first. */
export const originals = (page: EnginePage) =>
  page.evaluate(
    () => [...document.querySelectorAll('[data-testid="original"]')].map((node) => node.textContent ?? ''),
    null,
  );

/** How many messages show `text` as their original. */
export function countOf(page: EnginePage, text: string): Promise<number> {
  return page.evaluate(
    (wanted) =>
      [...document.querySelectorAll('[data-testid="original"]')].filter((node) => node.textContent === wanted)
        .length,
    text,
  );
}

/** Waits until the message whose original is `text` is shown. */
export function messageShown(page: EnginePage, text: string, timeout = 20_000) {
  return waitUntil(
    page,
    `the message '${text}'`,
    (wanted) =>
      [...document.querySelectorAll('[data-testid="original"]')].some((node) => node.textContent === wanted),
    text,
    timeout,
  );
}

/** The first translation's text of the message whose original is `text` ('' when none yet). */
export function translationOf(page: EnginePage, text: string): Promise<string> {
  return page.evaluate((wanted) => {
    for (const message of document.querySelectorAll('[data-testid="message"]')) {
      if (message.querySelector('[data-testid="original"]')?.textContent !== wanted) continue;
      return message.querySelector('[data-testid="translation"]')?.textContent ?? '';
    }
    return '';
  }, text);
}
