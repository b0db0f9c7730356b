import AxeBuilder from '@axe-core/playwright';
import { createHash, createHmac } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { privateKeyToAccount } from 'viem/accounts';
import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { newPerson } from './lib/people.js';

/*
 * The sign-in page's providers in Chromium against the built server. Telegram's widget script and its
 * frame are served by stubs (page.route), so no network is needed: the stub frame posts what Telegram's
 * frame posts, signed here with the test bot's token. The wallet is an injected EIP-1193 provider whose
 * requests are answered in Node with a fixed test key. The Mini App opens with initData signed here.
 */

const BOT_TOKEN = '123456:TEST-bot-token-for-xtalk-e2e';
const BOT_NAME = 'xtalk_e2e_bot';
// a well-known test key (Hardhat's first account): never holds anything real
const TEST_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const wallet = privateKeyToAccount(TEST_KEY);

function checkString(fields: Record<string, string>): string {
  return Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
}

/** What Telegram's Login Widget frame hands the page, by Telegram's documented rule. */
function widgetData(fields: Record<string, string>): Record<string, string> {
  const key = createHash('sha256').update(BOT_TOKEN).digest();
  return { ...fields, hash: createHmac('sha256', key).update(checkString(fields)).digest('hex') };
}

/** A Mini App's initData, by Telegram's documented rule. */
function initData(fields: Record<string, string>): string {
  const key = createHmac('sha256', 'WebAppData').update(BOT_TOKEN).digest();
  const hash = createHmac('sha256', key).update(checkString(fields)).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

const now = () => String(Math.floor(Date.now() / 1000));

/** telegram.org's widget script and oauth.telegram.org's frame, as stubs that behave as they do. */
async function stubTelegram(context: BrowserContext, user: Record<string, string>) {
  await context.route('https://telegram.org/js/telegram-widget.js*', (route) =>
    route.fulfill({
      contentType: 'application/javascript',
      body: `(() => {
        const script = document.currentScript;
        const frame = document.createElement('iframe');
        frame.src = 'https://oauth.telegram.org/embed/' + script.dataset.telegramLogin +
          '?origin=' + encodeURIComponent(location.origin);
        frame.width = 238; frame.height = 40; frame.style.border = 'none';
        script.parentNode.insertBefore(frame, script);
      })();`,
    }),
  );
  await context.route('https://oauth.telegram.org/embed/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><button id="tg">Log in with Telegram</button><script>
        document.getElementById('tg').onclick = () => parent.postMessage(
          JSON.stringify({ event: 'auth_user', auth_data: ${JSON.stringify(widgetData(user))} }), '*');
      </script>`,
    }),
  );
}

async function providersShown(page: Page) {
  await page.locator('[data-testid="sign-in-providers"][data-state="ready"]').waitFor({ state: 'attached' });
}

async function signedInUser(page: Page): Promise<{ name: string; provider: string }> {
  await page.waitForURL(/\/translate/, { timeout: 30_000 });
  return page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? 'null'));
}

async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

describe('sign-in with Telegram configured', () => {
  const product = productInBrowser({ TELEGRAM_BOT_TOKEN: BOT_TOKEN, TELEGRAM_BOT_NAME: BOT_NAME });

  it("renders Telegram's widget for our bot on demand, allowed by the policy, and signs in with it", async () => {
    const { context, page } = await newPerson(product.browser, product.server.url);
    await stubTelegram(context, { id: '4242', first_name: 'Taro', last_name: 'Yamada', auth_date: now() });
    const response = await page.goto('/login');
    const policy = response?.headers()['content-security-policy'] ?? '';
    expect(policy).toMatch(/script-src [^;]*https:\/\/telegram\.org/);
    expect(policy).toMatch(/frame-src [^;]*https:\/\/oauth\.telegram\.org/);
    await providersShown(page);
    // nothing of Telegram's loads before the button is pressed
    expect(await page.locator('script[data-telegram-login]').count()).toBe(0);
    expect(await page.getByTestId('google-signin').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByTestId('telegram-signin').click();
    const script = page.locator('script[data-telegram-login]');
    await script.waitFor({ state: 'attached' });
    expect(await script.getAttribute('data-telegram-login')).toBe(BOT_NAME);
    expect(await script.getAttribute('src')).toMatch(/^https:\/\/telegram\.org\/js\/telegram-widget\.js/);
    await page
      .frameLocator('iframe[src^="https://oauth.telegram.org/embed/"]')
      .getByText('Log in with Telegram')
      .click();
    expect(await signedInUser(page)).toMatchObject({ name: 'Taro Yamada', provider: 'ggl' });
    await context.close();
  });

  it('signs a page opened as the Mini App in by itself and drops the fragment', async () => {
    const { context, page } = await newPerson(product.browser, product.server.url);
    const data = initData({
      query_id: 'AAE1',
      user: JSON.stringify({ id: 5151, first_name: 'Mika' }),
      auth_date: now(),
    });
    await page.goto(`/#tgWebAppData=${encodeURIComponent(data)}&tgWebAppVersion=7.0&tgWebAppPlatform=web`);
    expect(await signedInUser(page)).toMatchObject({ name: 'Mika', provider: 'ggl' });
    expect(new URL(page.url()).hash).toBe('');
    await context.close();
  });
});

describe('sign-in with nothing optional configured, and a wallet in the browser', () => {
  const product = productInBrowser();

  interface WalletAnswer {
    result?: unknown;
    error?: { code: number; message: string };
  }

  /** A browser whose injected wallet signs with the test key in Node; `refuse` makes it decline. */
  async function personWithWallet(refuse = false) {
    const person = await newPerson(product.browser, product.server.url);
    const asked: string[] = [];
    await person.page.exposeFunction('signWithTestKey', async (method: string, params: unknown[]) => {
      asked.push(method);
      if (method === 'eth_requestAccounts' || method === 'eth_accounts') return { result: [wallet.address] };
      if (method === 'eth_chainId') return { result: '0x1' };
      if (method !== 'personal_sign') return { error: { code: 4200, message: `${method} unsupported` } };
      if (refuse) return { error: { code: 4001, message: 'User rejected the request.' } };
      return { result: await wallet.signMessage({ message: { raw: params[0] as `0x${string}` } }) };
    });
    await person.page.addInitScript(() => {
      const ask = (
        window as unknown as { signWithTestKey: (m: string, p: unknown[]) => Promise<WalletAnswer> }
      ).signWithTestKey;
      (window as unknown as { ethereum: unknown }).ethereum = {
        request: async ({ method, params }: { method: string; params?: unknown[] }) => {
          const answer = await ask(method, params ?? []);
          if (answer.error) throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
          return answer.result;
        },
      };
    });
    return { ...person, asked };
  }

  it('shows neither Google nor Telegram, and a policy that admits no telegram.org', async () => {
    const { context, page } = await newPerson(product.browser, product.server.url);
    const response = await page.goto('/login');
    expect(response?.headers()['content-security-policy']).not.toMatch(/telegram\.org/);
    await providersShown(page);
    await page.getByTestId('email-form').waitFor();
    expect(await page.getByTestId('telegram-signin').count()).toBe(0);
    expect(await page.getByTestId('google-signin').count()).toBe(0);
    // and no wallet button in a browser without a wallet
    expect(await page.getByTestId('wallet-signin').count()).toBe(0);
    await context.close();
  });

  it('shows the SIWE message before the wallet signs, then signs in as the address', async () => {
    const { context, page, asked } = await personWithWallet();
    await page.goto('/login');
    await page.getByTestId('wallet-signin').click();
    const message = page.getByTestId('siwe-message');
    await message.getByText('wants you to sign in with your Ethereum account', { exact: false }).waitFor();
    expect(await message.textContent()).toContain(wallet.address);
    expect(asked).toEqual(['eth_requestAccounts']);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByTestId('wallet-sign').click();
    expect(await signedInUser(page)).toMatchObject({ name: wallet.address, provider: 'ggl' });
    expect(asked).toEqual(['eth_requestAccounts', 'personal_sign']);
    await page.getByTestId('settings-menu').click();
    await page.getByRole('menuitem', { name: 'Settings', exact: true }).click();
    expect(await page.getByLabel('Full Name').inputValue()).toBe(wallet.address);
    await context.close();
  });

  it('says so when the person declines in the wallet, and signs nothing in', async () => {
    const { context, page } = await personWithWallet(true);
    await page.goto('/login');
    await page.getByTestId('wallet-signin').click();
    await page.getByTestId('wallet-sign').click();
    await page.getByTestId('wallet-error').getByText('You declined the request in your wallet').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();
    await context.close();
  });
});
