import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startFakeOpenAiServer,
  type FakeOpenAiServer,
} from '../apps/server/src/ai/testing/fake-openai-server.js';
import type { Page } from 'playwright-core';
import { productInBrowser } from './block-hooks.js';
import { messageWith, say, twoGuestsInRoom } from './lib/room.js';
import { recordToasts, recordedToasts } from './lib/toasts.js';

/** The words of every failure toast the page added (one per element, whatever it became). */
const failureToasts = async (page: Page) =>
  (await recordedToasts(page))
    .map((toast) => toast.text)
    .filter((text) => /fail|hint|engine|失敗|ヒント|エンジン/i.test(text));

/*
 * A translation that failed leaves a mark that survives a reload, and its author's "Try again" makes it
 * once the engine is back. The product talks to the fake OpenAI-compatible server over HTTP, which
 * answers 500 until the test lets it recover.
 */
describe('a failed translation in the browser', () => {
  let engine: FakeOpenAiServer;
  let failing = true;
  beforeAll(async () => {
    engine = await startFakeOpenAiServer();
    engine.onChat = () => (failing ? { kind: 'status', status: 500, message: 'engine down' } : undefined);
  });
  afterAll(async () => {
    await engine.close();
  });
  const product = productInBrowser(() => ({
    AI_PROVIDER: 'openai',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: engine.baseURL,
  }));

  it('marks it for the listener, keeps the mark over a reload, and the author’s Try again redoes it', async () => {
    const { alice, bob } = await twoGuestsInRoom(product.browser, product.server.url, async (person) => {
      await recordToasts(person.context);
      await person.context.addInitScript(() => localStorage.setItem('lang', 'ja'));
    });
    await recordToasts(alice.context);
    await alice.page.reload();
    await alice.page.getByTestId('chat-input').waitFor();
    const text = 'good morning everyone';
    await say(alice.page, text);
    const bobsMessage = messageWith(bob.page, text);
    await bobsMessage.getByRole('button', { name: '翻訳できませんでした' }).waitFor({ timeout: 30_000 });
    expect(await bobsMessage.getByTestId('retranslate').count()).toBe(0);
    const retry = messageWith(alice.page, text).getByRole('button', { name: 'Try again' });
    await retry.waitFor({ timeout: 30_000 });
    // one toast each, the engine's answer first; the hint that failed with it is not told
    expect(await failureToasts(bob.page)).toEqual([
      'AIエンジンがエラーを返しました（HTTP 500）。日本語への翻訳に失敗しました。メッセージは原文のまま表示されます。',
    ]);
    expect(await failureToasts(alice.page)).toEqual([
      'The AI engine answered with an error (HTTP 500). Translation into Japanese failed. The message is shown as written.',
    ]);

    await bob.page.reload();
    await messageWith(bob.page, text)
      .getByRole('button', { name: '翻訳できませんでした' })
      .waitFor({ timeout: 20_000 });

    failing = false;
    await retry.click();
    const translation = messageWith(bob.page, text).locator('[data-testid="translation"][data-complete]');
    await translation.waitFor({ timeout: 20_000 });
    expect(await translation.textContent()).toContain(text);
    await expect.poll(() => messageWith(bob.page, text).getByTestId('translation-failed').count()).toBe(0);
    await expect.poll(() => messageWith(alice.page, text).getByTestId('translation-failed').count()).toBe(0);
    await alice.context.close();
    await bob.context.close();
  });
});
