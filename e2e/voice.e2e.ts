import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MIC_DEBOUNCE_MS } from '@xtalk/protocol';
import { productInBrowser, speakingMicrophone } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';
import { messageWith, twoGuestsInRoom } from './lib/room.js';

/*
 * Voice input in Chromium with a fake microphone that speaks (espeak-ng, looped by Chromium): tap, speak,
 * tap; the clip is encoded to Ogg/Opus in the page, checked for a voice by the server, transcribed by the
 * fake provider (FAKE_AI_TRANSCRIPT: Opus carries no marker text) and posted like typed chat. The second
 * person sees the transcript and its translation and receives the spoken translation.
 */

const TRANSCRIPT = 'Hello from the microphone';
const artifacts = resolve(import.meta.dirname, 'artifacts');

describe('voice input in the browser', () => {
  const microphone = speakingMicrophone('Hello from the microphone. This is a test.');
  const product = productInBrowser({ FAKE_AI_TRANSCRIPT: TRANSCRIPT }, () => [
    `--use-file-for-fake-audio-capture=${microphone.path}`,
  ]);
  beforeAll(() => mkdirSync(artifacts, { recursive: true }));

  const micButton = (page: Page) => page.getByTestId('mic-button');

  it('tap, speak, tap: the other person sees the transcript and its translation and hears it', async () => {
    // Bob listens in Japanese (he gets the spoken translation) and lets the test count what he receives
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url, (person) =>
      person.context.addInitScript(() => {
        localStorage.setItem('lang', 'ja');
        localStorage.setItem('xtalk:test-hooks', '1');
      }),
    );

    const mic = micButton(alice.page);
    await expect.poll(() => mic.getAttribute('data-state')).toBe('idle');
    await expect.poll(() => alice.page.getByTestId('recording-timer').textContent()).toBe('00:00');
    await mic.click();
    await expect.poll(() => mic.getAttribute('data-state'), { timeout: 10_000 }).toBe('recording');
    await expect.poll(() => alice.page.getByTestId('visualiser').getAttribute('data-active')).toBe('true');
    await expect
      .poll(() => alice.page.getByTestId('recording-timer').textContent(), { timeout: 5000 })
      .toBe('00:02');
    await alice.page.screenshot({ path: join(artifacts, 'voice-recording-light.png') });
    await alice.page.evaluate(() => document.documentElement.classList.add('dark'));
    await alice.page.waitForTimeout(400); // colour transitions
    await alice.page.screenshot({ path: join(artifacts, 'voice-recording-dark.png') });
    await alice.page.evaluate(() => document.documentElement.classList.remove('dark'));
    await alice.page.waitForTimeout(800); // about three seconds of speech in all
    await mic.click();
    await expect.poll(() => mic.getAttribute('data-state'), { timeout: 10_000 }).toBe('idle');
    await expect.poll(() => alice.page.getByTestId('recording-timer').textContent()).toBe('00:00');

    // the transcript is a message like typed chat, for both of them
    await messageWith(alice.page, TRANSCRIPT).waitFor({ timeout: 20_000 });
    const atBob = messageWith(bob.page, TRANSCRIPT);
    await atBob.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => atBob.getByTestId('translation').first().textContent(), { timeout: 20_000 })
      .toContain(`[ja] ${TRANSCRIPT}`);
    // and Bob received the spoken translation (a WAV frame accepted by the playback queue)
    await expect
      .poll(
        () =>
          bob.page.evaluate(() => (window as { __xtalkAudioReceived?: number }).__xtalkAudioReceived ?? 0),
        {
          timeout: 20_000,
        },
      )
      .toBeGreaterThanOrEqual(1);
    await bob.page.screenshot({ path: join(artifacts, 'voice-listener-ja.png') });
    expect(
      await alice.page.evaluate(() => (window as { __xtalkAudioReceived?: number }).__xtalkAudioReceived),
    ).toBeUndefined();

    // A tap right after the start is too short to send. Both taps happen inside the page, so no
    // round trip to the test process (slow on a loaded machine) stretches the clip past 500 ms: the
    // second tap comes once recording has begun and the 150 ms debounce has passed.
    // The first of them must itself come after the debounce since the stop tap above: on a fast machine
    // every check since then can finish within it, and then the tap is ignored.
    await alice.page.waitForTimeout(MIC_DEBOUNCE_MS);
    await alice.page.evaluate(async () => {
      const button = document.querySelector<HTMLButtonElement>('[data-testid="mic-button"]')!;
      const firstTap = performance.now();
      button.click();
      while (button.getAttribute('data-state') !== 'recording') {
        if (performance.now() - firstTap > 10_000) throw new Error('recording did not start');
        await new Promise(requestAnimationFrame);
      }
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 200 - (performance.now() - firstTap))));
      button.click();
    });
    await alice.page.getByText('Recording too short').waitFor();
    await expect.poll(() => mic.getAttribute('data-state')).toBe('idle');
    expect(await alice.page.getByTestId('message').count()).toBe(1);

    await alice.context.close();
    await bob.context.close();
  });

  it('picks the microphone from the settings menu and remembers it', async () => {
    const carol = await newPerson(product.browser, product.server.url);
    await enterAsGuest(carol.page);
    await carol.page.getByTestId('settings-menu').click();
    await carol.page.getByRole('menuitem', { name: 'Microphone' }).click();
    const picker = carol.page.getByTestId('mic-picker');
    await picker.waitFor();
    const choices = picker.getByRole('radio');
    await expect.poll(() => choices.count()).toBeGreaterThanOrEqual(1);
    await carol.page.screenshot({ path: join(artifacts, 'voice-mic-picker.png') });
    const last = choices.last();
    const deviceId = await last.getAttribute('value');
    await last.click();
    await picker.waitFor({ state: 'detached' });
    expect(await carol.page.evaluate(() => localStorage.getItem('mic'))).toBe(deviceId);

    // the remembered device is used for the next recording
    const mic = micButton(carol.page);
    await mic.click();
    await expect.poll(() => mic.getAttribute('data-state'), { timeout: 10_000 }).toBe('recording');
    await carol.page.waitForTimeout(1500);
    await mic.click();
    await messageWith(carol.page, TRANSCRIPT).waitFor({ timeout: 20_000 });
    await carol.context.close();
  });

  it('says "Not connected." when a clip finishes while the connection is down', async () => {
    const dave = await newPerson(product.browser, product.server.url);
    await enterAsGuest(dave.page);
    const mic = micButton(dave.page);
    await mic.click();
    await expect.poll(() => mic.getAttribute('data-state'), { timeout: 10_000 }).toBe('recording');
    await dave.page.waitForTimeout(1000);
    await product.server.stop();
    // the reconnect overlay covers the bar now; the tap goes to the button itself
    await mic.dispatchEvent('click');
    await dave.page.getByText('Not connected.').waitFor({ timeout: 10_000 });
    await product.server.boot();
    await dave.context.close();
  });
});
