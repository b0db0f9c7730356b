import { describe, expect, it } from 'vitest';
import { speakingMicrophone } from '../block-hooks.js';
import { productInEngine } from '../engines/block.js';
import { speakInto } from '../engines/speech-fixture.js';
import { ENGINES, type EnginePage } from '../engines/index.js';
import {
  byTestId,
  enterAsGuest,
  messageShown,
  newPerson,
  say,
  translationOf,
  waitUntil,
} from '../engines/people.js';

/*
 * Voice in each engine: a message recorded in the page (tap, speak, tap) is encoded to Ogg/Opus, streamed
 * to the server, checked for a voice, transcribed and posted; the listener gets its translation spoken,
 * and the clip begins to sound in their page. Chromium's fake microphone speaks a sentence (espeak-ng,
 * from a file); Firefox's and WebKit's give only a tone, so there the same sentence is played into the
 * stream their device opened (engines/speech-fixture.ts says how, and what that leaves unproven).
 * Playback runs into Chromium's headless output, Firefox's mock audio context and WebKit's GStreamer sink
 * under Xvfb: what sounds is counted by the page's test hooks, not heard.
 */

const TRANSCRIPT = 'Hello from the microphone';

const hooks = (page: EnginePage) =>
  page.evaluate(() => {
    const w = window as unknown as { __xtalkAudioReceived?: number; __xtalkAudioStarted?: number };
    return { received: w.__xtalkAudioReceived ?? 0, started: w.__xtalkAudioStarted ?? 0 };
  }, null);

const micState = (page: EnginePage) =>
  page.evaluate(() => document.querySelector('[data-testid="mic-button"]')?.getAttribute('data-state'), null);

describe.each(ENGINES)('voice in %s', (name) => {
  const microphone = speakingMicrophone('Hello from the microphone. This is a test.');
  const product = productInEngine(name, { FAKE_AI_TRANSCRIPT: TRANSCRIPT }, () => [
    `--use-file-for-fake-audio-capture=${microphone.path}`,
  ]);

  it('sends a recorded voice message, and the listener is played its spoken translation', async () => {
    const [aliceLine, bobLine] = product.lines;
    const alice = await newPerson(product.engine, aliceLine!.url);
    const roomId = await enterAsGuest(alice);
    const bob = await newPerson(product.engine, bobLine!.url, { language: 'ja', hooks: true });
    await enterAsGuest(bob, `/translate?r=${roomId}`);
    // Bob has tapped in the page (as Safari requires before any sound): he says hello
    await say(bob, 'hello');
    await messageShown(alice, 'hello');

    await waitUntil(
      alice,
      'the mic idle',
      async () => document.querySelector('[data-testid="mic-button"]')?.getAttribute('data-state') === 'idle',
      null,
    );
    if (name !== 'chromium') await speakInto(alice, microphone.path);
    await alice.click(byTestId('mic-button'));
    await waitUntil(
      alice,
      'recording',
      () => document.querySelector('[data-testid="mic-button"]')?.getAttribute('data-state') === 'recording',
      null,
      20_000,
    );
    await waitUntil(
      alice,
      'two seconds recorded',
      () => document.querySelector('[data-testid="recording-timer"]')?.textContent === '00:02',
      null,
      10_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 800));
    await alice.click(byTestId('mic-button'));
    await waitUntil(
      alice,
      'idle again',
      () => document.querySelector('[data-testid="mic-button"]')?.getAttribute('data-state') === 'idle',
      null,
      20_000,
    );
    expect(await micState(alice)).toBe('idle');

    await messageShown(alice, TRANSCRIPT, 30_000);
    await messageShown(bob, TRANSCRIPT, 30_000);
    await waitUntil(
      bob,
      'the translation',
      async (text) => {
        const message = [...document.querySelectorAll('[data-testid="message"]')].find(
          (node) => node.querySelector('[data-testid="original"]')?.textContent === text,
        );
        return message?.querySelector('[data-testid="translation"]')?.textContent?.includes(`[ja] ${text}`);
      },
      TRANSCRIPT,
      30_000,
    );
    expect(await translationOf(bob, TRANSCRIPT)).toContain(`[ja] ${TRANSCRIPT}`);
    await waitUntil(
      bob,
      'the spoken translation received and sounding',
      async () => {
        const w = window as unknown as { __xtalkAudioReceived?: number; __xtalkAudioStarted?: number };
        return (w.__xtalkAudioReceived ?? 0) >= 1 && (w.__xtalkAudioStarted ?? 0) >= 1;
      },
      null,
      30_000,
    );
    expect((await hooks(bob)).started).toBeGreaterThanOrEqual(1);
    await alice.close();
    await bob.close();
  }, 300_000);
});
