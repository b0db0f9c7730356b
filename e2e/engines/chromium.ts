import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../lib/browser.js';
import type { Engine, EnginePage, PageFunction, PageOptions } from './driver.js';
import { DESKTOP } from './driver.js';

/* Chromium through playwright-core, with the same launch (fake devices, the policy watch) as every test. */

class ChromiumPage implements EnginePage {
  readonly engine = 'chromium';
  constructor(
    readonly baseUrl: string,
    private readonly page: Page,
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
    return this.page.evaluate(fn as (arg: unknown) => R, arg as unknown);
  }
  async inject(source: string) {
    await this.page.evaluate(source);
  }
  async click(selector: string) {
    await this.page.click(selector);
  }
  async fill(selector: string, text: string) {
    await this.page.fill(selector, text);
  }
  async screenshot(path: string) {
    await this.page.screenshot({ path });
  }
  async close() {
    await this.page.context().close();
  }
}

export async function launchChromium(args: string[] = []): Promise<Engine> {
  const browser: Browser = await launchBrowser(args);
  return {
    name: 'chromium',
    async newPage({ baseUrl, viewport = DESKTOP }: PageOptions) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      page.on('pageerror', (error) => console.error('[chromium page error]', error.message));
      return new ChromiumPage(baseUrl, page);
    },
    close: () => browser.close(),
  };
}
