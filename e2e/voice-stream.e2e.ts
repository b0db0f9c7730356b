import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, messageWith, ProductServer, twoGuestsInRoom } from './harness.js';

/*
 * Streaming voice in Chromium (issue 14): the fake microphone speaks (espeak-ng, looped), the recorder
 * streams Opus pages while recording, and the listener reads a live caption of what is said (with the
 * translation of each finished sentence) while the speaker is still recording; when the speaker stops,
 * the message with its translation replaces the caption. The fake provider's scripted deltas
 * (FAKE_AI_TRANSCRIPT, one word per 0.3 s of audio) stand in for the speech engine.
 */

const TRANSCRIPT = 'Hello from the microphone. This caption is live. We keep talking here.';

describe('streaming voice in the browser', () => {
  let server: ProductServer;
  let browser: Browser;
  let workDir: string;

  beforeAll(async () => {
    workDir = mkdtempSync(join(tmpdir(), 'xtalk-voice-stream-'));
    const speech = join(workDir, 'speech.wav');
    const mic = join(workDir, 'fake-mic.wav');
    execFileSync('espeak-ng', [
      '-v',
      'en-us',
      '-w',
      speech,
      'Hello from the microphone. This caption is live.',
    ]);
    execFileSync('sox', [speech, '-r', '48000', '-c', '1', '-b', '16', mic, 'pad', '0.3', '0.3']);
    server = await ProductServer.start({ FAKE_AI_TRANSCRIPT: TRANSCRIPT, FAKE_AI_DELTA_MS: '100' });
    browser = await launchBrowser([`--use-file-for-fake-audio-capture=${mic}`]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('the listener reads the live caption while the speaker records, then the message and its translation', async () => {
    const { alice, bob } = await twoGuestsInRoom(browser, server.url, (person) =>
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
