import { describe, expect, it } from 'vitest';
import { productInBrowser, speakingMicrophone } from './block-hooks.js';
import { messageWith, twoGuestsInRoom } from './lib/room.js';

/*
 * Streaming voice in Chromium: the fake microphone speaks (espeak-ng, looped), the recorder
 * streams Opus pages while recording, and the listener reads a live caption of what is said (with the
 * translation of each finished sentence) while the speaker is still recording; when the speaker stops,
 * the message with its translation replaces the caption. The fake provider's scripted deltas
 * (FAKE_AI_TRANSCRIPT, one word per 0.3 s of audio) stand in for the speech engine.
 */

const TRANSCRIPT = 'Hello from the microphone. This caption is live. We keep talking here.';

describe('streaming voice in the browser', () => {
  const microphone = speakingMicrophone('Hello from the microphone. This caption is live.');
  const product = productInBrowser({ FAKE_AI_TRANSCRIPT: TRANSCRIPT, FAKE_AI_DELTA_MS: '100' }, () => [
    `--use-file-for-fake-audio-capture=${microphone.path}`,
  ]);

  it('the listener reads the live caption while the speaker records, then the message and its translation', async () => {
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url, (person) =>
      person.context.addInitScript(() => localStorage.setItem('lang', 'ja')),
    );
    const mic = alice.page.getByTestId('mic-button');
    await expect.poll(() => mic.getAttribute('data-state')).toBe('idle');
    await mic.click();
    await expect.poll(() => mic.getAttribute('data-state'), { timeout: 10_000 }).toBe('recording');

    // while Alice still records: Bob sees her words live, and the first sentence translated
    const caption = bob.page.getByTestId('live-caption');
    await expect
      .poll(() => caption.getByTestId('live-caption-text').textContent(), { timeout: 15_000 })
      .toMatch(/^Hello from/u);
    await expect
      .poll(() => caption.getByTestId('live-caption-translation').first().textContent(), { timeout: 15_000 })
      .toContain('[ja] Hello from the microphone.');
    expect(await mic.getAttribute('data-state')).toBe('recording');
    expect(await bob.page.getByTestId('message').count()).toBe(0);

    await mic.click();
    await expect.poll(() => mic.getAttribute('data-state'), { timeout: 10_000 }).toBe('idle');
    const atBob = messageWith(bob.page, TRANSCRIPT);
    await atBob.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => atBob.getByTestId('translation').first().textContent(), { timeout: 20_000 })
      .toContain('[ja] Hello from the microphone.');
    // the message replaced the caption
    await expect.poll(() => caption.count()).toBe(0);
    await alice.context.close();
    await bob.context.close();
  });
});
