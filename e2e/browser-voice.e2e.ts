import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { productInBrowser } from './block-hooks.js';
import { messageWith, say, twoGuestsInRoom } from './lib/room.js';

/*
 * A language the engine has no voice for (the embedded engine has none for Japanese): the server sends the
 * Japanese listener the translation's text (`noServerVoice`), and the page speaks it with the browser's
 * `speechSynthesis`, stubbed here to record what it is asked to say and to keep "speaking" until
 * cancelled. The speech control mutes it like server speech: what is spoken stops, and a later
 * translation, which still arrives (the page's test hook counts it), is not spoken.
 */

interface Spoken {
  text: string;
  lang: string;
}
interface Hooks {
  __spoken?: Spoken[];
  __cancelled?: number;
  __xtalkBrowserVoice?: Array<{ id: number; language: string }>;
  __xtalkSpeech?: unknown[];
}
const hooks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as Hooks;
    return {
      spoken: w.__spoken ?? [],
      cancelled: w.__cancelled ?? 0,
      frames: w.__xtalkBrowserVoice ?? [],
      speech: w.__xtalkSpeech ?? [],
    };
  });

/** The browser's speech synthesis, recording each utterance; one speaks until it is cancelled. */
function stubSpeechSynthesis() {
  const w = window as unknown as Hooks & { __utterance?: { onerror?: (e: unknown) => void } };
  w.__spoken = [];
  class Utterance {
    lang = '';
    onend: (() => void) | null = null;
    onerror: ((event: { error: string }) => void) | null = null;
    constructor(readonly text: string) {}
  }
  Object.defineProperty(window, 'SpeechSynthesisUtterance', { value: Utterance, configurable: true });
  Object.defineProperty(window, 'speechSynthesis', {
    configurable: true,
    value: {
      speak(utterance: Utterance) {
        w.__spoken!.push({ text: utterance.text, lang: utterance.lang });
        w.__utterance = utterance as never;
      },
      cancel() {
        w.__cancelled = (w.__cancelled ?? 0) + 1;
        const speaking = w.__utterance;
        w.__utterance = undefined;
        speaking?.onerror?.({ error: 'canceled' });
      },
    },
  });
}

describe('a language without a server voice', () => {
  const product = productInBrowser({ FAKE_AI_NO_VOICE: 'ja' });

  it("speaks the translation with the browser's voice, and the speech control mutes it", async () => {
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url, async (person) => {
      await person.context.addInitScript(() => {
        localStorage.setItem('lang', 'ja');
        localStorage.setItem('xtalk:test-hooks', '1');
      });
      await person.context.addInitScript(stubSpeechSynthesis);
    });
    const toggle = bob.page.getByTestId('speech-toggle');
    expect(await toggle.getAttribute('data-state')).toBe('on');

    await say(alice.page, 'Good morning, Bob.');
    await messageWith(bob.page, 'Good morning, Bob.').waitFor();
    await expect
      .poll(async () => (await hooks(bob.page)).spoken, { timeout: 20_000 })
      .toEqual([{ text: '[ja] Good morning, Bob.', lang: 'ja' }]);
    // the control names the message being spoken, as for server speech
    const [voice] = (await hooks(bob.page)).frames;
    expect(voice?.language).toBe('ja');
    await expect.poll(() => toggle.getAttribute('data-speaking')).toBe(String(voice?.id));

    await toggle.click();
    expect(await toggle.getAttribute('data-state')).toBe('off');
    expect((await hooks(bob.page)).cancelled).toBeGreaterThanOrEqual(1);
    expect(await toggle.getAttribute('data-speaking')).toBeNull();

    await say(alice.page, 'Are you still there?');
    // the second translation's text arrives, and nothing more is spoken
    await expect.poll(async () => (await hooks(bob.page)).frames.length, { timeout: 20_000 }).toBe(2);
    const after = await hooks(bob.page);
    expect(after.spoken).toHaveLength(1);
    // the engine made no audio for Japanese
    expect(after.speech).toEqual([]);
    await alice.context.close();
    await bob.context.close();
  });
});
