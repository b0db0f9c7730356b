import { describe, expect, it } from 'vitest';
import { takePolicyViolations } from '../lib/browser.js';
import { productInEngine } from '../engines/block.js';
import { ENGINES } from '../engines/index.js';
import { newPerson } from '../engines/people.js';

/*
 * Every cross-engine flow fails on a Content-Security-Policy violation in its engine, as every Chromium
 * test does (e2e/setup.ts takes them after each test). This proves each engine's watch sees one: a page
 * made to load an image the policy refuses.
 */

/** The violations reported within `ms`, once one is; closing the page is the last chance to read them. */
async function reported(ms: number): Promise<string> {
  const seen: string[] = [];
  const deadline = Date.now() + ms;
  while (seen.length === 0 && Date.now() < deadline) {
    seen.push(...takePolicyViolations());
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return seen.join('\n');
}

/** Runs in the page: resolves once the page's watch has kept a violation, or after `ms`. */
function policyEventCame(ms: number): Promise<void> {
  const until = Date.now() + ms;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      const kept = (window as unknown as { __policyViolations?: string[] }).__policyViolations ?? [];
      if (kept.length === 0 && Date.now() < until) return;
      clearInterval(timer);
      resolve();
    }, 50);
  });
}

describe.each(ENGINES)('the policy watch in %s', (name) => {
  const product = productInEngine(name);

  it('reports a load the policy blocks', async () => {
    const page = await newPerson(product.engine, product.lines[0]!.url);
    await page.goto('/guest-login');
    await page.evaluate(() => {
      const image = document.createElement('img');
      image.src = 'https://blocked.invalid/pixel.png';
      document.body.append(image);
    }, null);
    // reported asynchronously: on the console (Chromium, Firefox), or kept by the page and read when it
    // navigates or closes (WebKit), so there the test waits in the page for the event to have come
    if (name === 'webkit') await page.evaluate(policyEventCame, 5_000);
    let seen = name === 'webkit' ? '' : await reported(5_000);
    await page.close();
    // what the engine said of it twice over, or only now (WebKit), is this test's too
    seen += `\n${takePolicyViolations().join('\n')}`;
    if (!seen.trim()) seen = await reported(5_000);
    expect(seen).toContain('img-src');
  });
});
