import { describe, expect, it } from 'vitest';
import { productInEngine } from '../engines/block.js';
import { ENGINES } from '../engines/index.js';
import {
  byTestId,
  countOf,
  enterAsGuest,
  messageShown,
  newPerson,
  present,
  say,
  waitUntil,
} from '../engines/people.js';

/*
 * The core of the product in each engine people use, the same steps in each: a guest enters and gets a
 * room, a second opens it by its link, they chat both ways, a translation streams in piece by piece with
 * its hint behind a toggle, the author corrects a word, a reload resumes without a duplicate, and a
 * server restart loses nothing.
 */

describe.each(ENGINES)('chat in %s', (name) => {
  const product = productInEngine(name, { FAKE_AI_CHUNK_DELAY_MS: '250' });

  it('guest entry, room by link, both ways, streaming, hint, edit, reload and restart', async () => {
    const [aliceLine, bobLine] = product.lines;
    const alice = await newPerson(product.engine, aliceLine!.url);
    const roomId = await enterAsGuest(alice);
    const bob = await newPerson(product.engine, bobLine!.url, { language: 'ja' });
    expect(await enterAsGuest(bob, `/translate?r=${roomId}`)).toBe(roomId);

    // Alice to Bob: the translation grows through partial states to the whole, with its hint
    const text = 'break a leg tonight, it is an idiom for good luck';
    await say(alice, text);
    await messageShown(bob, text);
    const seen = await bob.evaluate(async (wanted) => {
      const states: string[] = [];
      const deadline = performance.now() + 20_000;
      while (performance.now() < deadline) {
        const message = [...document.querySelectorAll('[data-testid="message"]')].find(
          (node) => node.querySelector('[data-testid="original"]')?.textContent === wanted,
        );
        const now = message?.querySelector('[data-testid="translation"]')?.textContent ?? '';
        if (now && states.at(-1) !== now) states.push(now);
        if (now.includes(`[ja] ${wanted}`)) break;
        await new Promise((resolve) => setTimeout(resolve, 30));
      }
      return states;
    }, text);
    expect(seen.at(-1)).toContain(`[ja] ${text}`);
    expect(seen.length).toBeGreaterThanOrEqual(3);
    await waitUntil(bob, 'the hint toggle', present, byTestId('hint-toggle'));
    await bob.click(byTestId('hint-toggle'));
    const note = await waitUntil(
      bob,
      'the hint',
      () => document.querySelector('[data-testid="note"]')?.textContent,
      null,
    );
    expect(note).toMatch(/idiom/);

    // Bob to Alice
    await say(bob, 'こんにちは、アリス');
    await messageShown(alice, 'こんにちは、アリス');

    // Alice corrects her message: Bob sees the new text, its translation and the mark
    await alice.click(`${byTestId('message')} ${byTestId('edit-button')}`);
    await waitUntil(alice, 'the editor', present, byTestId('edit-input'));
    const fixed = 'break a leg tomorrow, it is an idiom for good luck';
    await alice.fill(byTestId('edit-input'), fixed);
    await alice.click(byTestId('edit-save'));
    await messageShown(bob, fixed);
    await waitUntil(
      bob,
      'the corrected translation',
      (t) => document.body.textContent?.includes(`[ja] ${t}`),
      fixed,
    );
    await waitUntil(bob, 'the edited mark', present, byTestId('edited-mark'));
    expect(await countOf(bob, text)).toBe(0);

    // a reload resumes without a duplicate
    await bob.reload();
    await messageShown(bob, fixed);
    await messageShown(bob, 'こんにちは、アリス');
    await say(alice, 'after the reload');
    await messageShown(bob, 'after the reload');
    for (const wanted of [fixed, 'こんにちは、アリス', 'after the reload'])
      expect(await countOf(bob, wanted), wanted).toBe(1);

    // a server restart: both come back by themselves (or by the reconnect button) with nothing lost
    await product.server.restart();
    for (const page of [alice, bob]) {
      await waitUntil(
        page,
        'back after the restart',
        async () => {
          document.querySelector<HTMLButtonElement>('[data-testid="reconnect-button"]')?.click();
          return (
            !document.querySelector('[data-testid="connecting-overlay"]') &&
            !document.querySelector('[data-testid="reconnect-button"]') &&
            !document.querySelector('[data-testid="reconnecting-banner"]')
          );
        },
        null,
        45_000,
      );
    }
    await say(bob, 'still here');
    await messageShown(alice, 'still here');
    await say(alice, 'me too');
    await messageShown(bob, 'me too');
    for (const page of [alice, bob])
      for (const wanted of [fixed, 'こんにちは、アリス', 'after the reload', 'still here', 'me too'])
        expect(await countOf(page, wanted), `${page.engine}: ${wanted}`).toBe(1);
    await alice.close();
    await bob.close();
  }, 300_000);
});
