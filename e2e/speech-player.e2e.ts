import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { productInBrowser, speakingMicrophone } from './block-hooks.js';
import { twoGuestsInRoom } from './lib/room.js';

/*
 * The speech player in Chromium: the fake microphone speaks three sentences; the listener's page plays the
 * translation of the first while the speaker still records (its audio element is sounding, the speech
 * control names the clip being spoken), and the speech control mutes it: what sounds stops and the later
 * sentences, which still arrive, are not played. The page reports through its test hooks
 * (features/voice/utils/test-hooks.ts).
 */

const TRANSCRIPT = 'Hello from the microphone. This caption is live. We keep talking here.';

interface Hooks {
  __xtalkSpeech?: Array<{ id: number; seq: number; last: boolean }>;
  __xtalkAudioStarted?: number;
  __xtalkAudioPlaying?: number;
}
const hooks = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as Hooks;
    return {
      speech: w.__xtalkSpeech ?? [],
      started: w.__xtalkAudioStarted ?? 0,
      playing: w.__xtalkAudioPlaying ?? 0,
    };
  });

describe('speech player in the browser', () => {
  const microphone = speakingMicrophone(TRANSCRIPT);
  const product = productInBrowser({ FAKE_AI_TRANSCRIPT: TRANSCRIPT, FAKE_AI_DELTA_MS: '100' }, () => [
    `--use-file-for-fake-audio-capture=${microphone.path}`,
  ]);

  it('plays the first sentence while the speaker still records, and the mute control silences it', async () => {
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url, (person) =>
      person.context.addInitScript(() => {
        localStorage.setItem('lang', 'ja');
        localStorage.setItem('xtalk:test-hooks', '1');
      }),
    );
    const mic = alice.page.getByTestId('mic-button');
    const toggle = bob.page.getByTestId('speech-toggle');
    expect(await toggle.getAttribute('data-state')).toBe('on');
    await expect.poll(() => mic.getAttribute('data-state')).toBe('idle');
    await mic.click();
    await expect.poll(() => mic.getAttribute('data-state'), { timeout: 10_000 }).toBe('recording');

    // while Alice still records, Bob hears the first sentence's translation
    await expect.poll(async () => (await hooks(bob.page)).playing, { timeout: 20_000 }).toBe(1);
    expect(await toggle.getAttribute('data-speaking')).toBe('0'); // her clip, not yet a message
    expect((await hooks(bob.page)).speech[0]).toEqual({ id: 0, seq: 0, last: false });
    expect(await mic.getAttribute('data-state')).toBe('recording');

    await toggle.click();
    expect(await toggle.getAttribute('data-state')).toBe('off');
    expect(await toggle.getAttribute('data-speaking')).toBeNull();
    expect((await hooks(bob.page)).playing).toBe(0);
    const startedBeforeMute = (await hooks(bob.page)).started;

    await mic.click();
    await expect.poll(() => mic.getAttribute('data-state'), { timeout: 10_000 }).toBe('idle');
    // the rest of the speech still arrives (the last sentence of her message), and none of it sounds
    await expect
      .poll(async () => (await hooks(bob.page)).speech.some((s) => s.last && s.id > 0), { timeout: 30_000 })
      .toBe(true);
    expect(await hooks(bob.page)).toMatchObject({ started: startedBeforeMute, playing: 0 });
    // remembered: the next visit starts muted
    await bob.page.reload();
    await expect.poll(() => bob.page.getByTestId('speech-toggle').getAttribute('data-state')).toBe('off');
    await alice.context.close();
    await bob.context.close();
  });
});
