import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { newPerson } from './lib/people.js';

/*
 * The guest card holds still while the bot check runs: from the first frame its microphone button is
 * drawn, through the widget loading, solving and turning to "Verified", to the check being done, the card
 * and the button stay where they are, so a finger on its way to "Allow microphone" lands on it. Every
 * animation frame is measured at phone size.
 */

interface Sample {
  state: string;
  cardTop: number;
  cardHeight: number;
  micTop: number;
}

/** Runs in the page from its start: the card's and the button's boxes at every frame. */
function sampleLayout() {
  const samples: Sample[] = [];
  (window as { guestCardSamples?: Sample[] }).guestCardSamples = samples;
  const frame = () => {
    const card = document.querySelector<HTMLElement>('[data-testid="guest-login"]');
    const mic = document.querySelector('[data-testid="mic-permission"]');
    if (card && mic) {
      const box = card.getBoundingClientRect();
      samples.push({
        state: card.dataset.state ?? '',
        cardTop: box.top,
        cardHeight: box.height,
        micTop: mic.getBoundingClientRect().top,
      });
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

const spread = (values: number[]) => Math.max(...values) - Math.min(...values);

describe('the guest card', () => {
  const product = productInBrowser();

  it.each(['en', 'ja'] as const)(
    'does not move when the bot check turns to Verified (%s)',
    async (language) => {
      const { context, page } = await newPerson(product.browser, product.server.url, {
        viewport: { width: 390, height: 844 },
        language,
      });
      await context.addInitScript(sampleLayout);
      await page.goto('/guest-login');
      await page.locator('[data-testid="guest-login"][data-state="done"]').waitFor({ timeout: 30_000 });
      // a few frames drawn after the check is done
      await page.evaluate(async () => {
        for (let i = 0; i < 5; i += 1) await new Promise(requestAnimationFrame);
      });
      const samples = await page.evaluate(
        () => (window as { guestCardSamples?: Sample[] }).guestCardSamples ?? [],
      );
      console.log(
        JSON.stringify(
          samples.filter(
            (s, i) =>
              i === 0 || s.cardHeight !== samples[i - 1]!.cardHeight || s.state !== samples[i - 1]!.state,
          ),
        ),
      );
      const states = new Set(samples.map((sample) => sample.state));
      expect(states).toContain('solving');
      expect(states).toContain('done');
      const before = samples.find((sample) => sample.state === 'solving')!;
      const after = samples.at(-1)!;
      expect({ top: after.cardTop, height: after.cardHeight, mic: after.micTop }).toEqual({
        top: before.cardTop,
        height: before.cardHeight,
        mic: before.micTop,
      });
      expect(spread(samples.map((sample) => sample.micTop))).toBe(0);
      expect(spread(samples.map((sample) => sample.cardHeight))).toBe(0);
      await context.close();
    },
  );
});
