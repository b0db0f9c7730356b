import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { CSP_MESSAGE, notePolicyViolation, reportPolicyViolations } from '../lib/browser.js';
import type { Engine, EnginePage, PageFunction, PageOptions } from './driver.js';
import { DESKTOP } from './driver.js';

/*
 * Debian's Firefox ESR over WebDriver BiDi (puppeteer-core speaks it to Firefox itself; no geckodriver).
 * Machines here have no sound device: the microphone is Firefox's fake one (a tone, no speech file can be
 * given to it) and playback goes to a mock audio context, which runs its clock as a real one would.
 */

export const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

export const FIREFOX_PREFS: Record<string, unknown> = {
  'media.navigator.streams.fake': true,
  'media.navigator.permission.disabled': true,
  'media.cubeb.force_mock_context': true,
  // a prompt nobody answers would stall the page: the test says yes or no for itself
  'permissions.default.desktop-notification': 2,
  'browser.shell.checkDefaultBrowser': false,
};

class FirefoxPage implements EnginePage {
  readonly engine = 'firefox';
  constructor(
    readonly baseUrl: string,
    private readonly page: Page,
    private readonly closeContext: () => Promise<void>,
  ) {}
  async goto(path: string) {
    await this.page.goto(new URL(path, this.baseUrl).href);
  }
  async reload() {
    await this.page.reload();
  }
  async url() {
    return this.page.url();
  }
  evaluate<A, R>(fn: PageFunction<A, R>, arg: A): Promise<R> {
    // the argument crosses as JSON, which the engine's own generic types cannot say
    return this.page.evaluate(fn as (arg: unknown) => R, arg as unknown) as Promise<R>;
  }
  async inject(source: string) {
    await this.page.evaluate(source);
  }
  async click(selector: string) {
    await this.page.click(selector);
  }
  async fill(selector: string, text: string) {
    const field = await this.page.waitForSelector(selector, { timeout: 10_000 });
    await field!.evaluate((element) => {
      (element as HTMLInputElement).focus();
      (element as HTMLInputElement).select();
    });
    await this.page.keyboard.type(text);
    await field!.dispose();
  }
  async screenshot(path: string) {
    await this.page.screenshot({ path: path as `${string}.png` });
  }
  close() {
    return this.closeContext();
  }
}

export async function launchFirefox(): Promise<Engine> {
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    extraPrefsFirefox: FIREFOX_PREFS,
  });
  return {
    name: 'firefox',
    async newPage({ baseUrl, viewport = DESKTOP }: PageOptions) {
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport(viewport);
      page.on('pageerror', (error) => {
        // Firefox says the policy's own refusals (of the document and its workers) as page errors
        if (CSP_MESSAGE.test(String(error))) notePolicyViolation(`firefox: ${String(error)}`);
        else console.error('[firefox page error]', String(error));
      });
      // the policy watched as in Chromium: a preload script (over BiDi) says each violation on the console
      page.on('console', (message) => {
        if (message.type() === 'error' && CSP_MESSAGE.test(message.text()))
          notePolicyViolation(`firefox: ${message.text()}`);
      });
      await page.evaluateOnNewDocument(reportPolicyViolations);
      return new FirefoxPage(baseUrl, page, () => context.close());
    },
    close: () => browser.close(),
  };
}
