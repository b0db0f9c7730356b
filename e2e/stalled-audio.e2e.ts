import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { MIC_DEBOUNCE_MS } from '@xtalk/protocol';
import { productInBrowser } from './block-hooks.js';
import { enterAsGuest, newPerson } from './lib/people.js';

/*
 * A browser whose audio engine never starts (no sound device, a device that fails): the microphone opens
 * but the encoder's worklet never loads. The mic button gives up after a few seconds, says why and is
 * idle again, with the microphone released; a second tap gives up at once.
 */

/** Runs in the page from its start: a worklet that never loads, and every microphone stream kept. */
function stallAudioEngine() {
  const streams: MediaStream[] = [];
  (window as { micStreams?: MediaStream[] }).micStreams = streams;
  AudioWorklet.prototype.addModule = () => new Promise<void>(() => undefined);
  const open = MediaDevices.prototype.getUserMedia;
  MediaDevices.prototype.getUserMedia = async function (constraints) {
    const stream = await open.call(this, constraints);
    streams.push(stream);
    return stream;
  };
}

/** True when every microphone stream the page opened has ended. */
const microphoneReleased = (page: Page) =>
  page.evaluate(() =>
    ((window as { micStreams?: MediaStream[] }).micStreams ?? []).every((stream) =>
      stream.getTracks().every((track) => track.readyState === 'ended'),
    ),
  );

/** Opened streams so far (the guest page's permission question opens one too). */
const streamsOpened = (page: Page) =>
  page.evaluate(() => (window as { micStreams?: MediaStream[] }).micStreams?.length ?? 0);

describe('a mic whose audio engine never starts', () => {
  const product = productInBrowser();

  it('gives up after a few seconds, says why, releases the microphone; a second tap gives up at once', async () => {
    const { context, page } = await newPerson(product.browser, product.server.url, {
      viewport: { width: 390, height: 844 },
    });
    await context.addInitScript(stallAudioEngine);
    await enterAsGuest(page);
    const mic = page.getByTestId('mic-button');
    await expect.poll(() => mic.getAttribute('data-state')).toBe('idle');

    const before = await streamsOpened(page);
    await mic.click();
    await expect.poll(() => mic.getAttribute('data-state')).toBe('initialising');
    await expect.poll(() => streamsOpened(page)).toBe(before + 1);
    await page
      .getByText("The microphone could not start: the browser's audio did not respond.", {
        exact: false,
      })
      .waitFor({ timeout: 15_000 });
    expect(await mic.getAttribute('data-state')).toBe('idle');
    expect(await microphoneReleased(page)).toBe(true);

    // tap, and tap again while it starts: idle at once, the microphone released
    await mic.click();
    await expect.poll(() => mic.getAttribute('data-state')).toBe('initialising');
    await expect.poll(() => streamsOpened(page)).toBe(before + 2);
    expect(await mic.isEnabled()).toBe(true);
    await page.waitForTimeout(MIC_DEBOUNCE_MS); // a tap closer to the previous one is ignored
    await mic.click();
    await expect.poll(() => mic.getAttribute('data-state'), { timeout: 1_000 }).toBe('idle');
    await expect.poll(() => microphoneReleased(page)).toBe(true);
    await context.close();
  });
});
