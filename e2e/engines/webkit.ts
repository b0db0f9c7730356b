import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import WebDriver from 'webdriver';
import { freePort } from '../../apps/server/src/testing/free-port.js';
import { notePolicyViolation, reportPolicyViolations } from '../lib/browser.js';
import type { Engine, EnginePage, PageFunction, PageOptions, Viewport } from './driver.js';
import { DESKTOP } from './driver.js';

/*
 * WebKitGTK, Safari's engine family, over classic WebDriver: Debian's WebKitWebDriver opens MiniBrowser on
 * an X display of its own (Xvfb, which picks a free display number), one driver and one browser per
 * person, on ports the system picks. MiniBrowser runs with WebKit's mock capture devices (a microphone
 * that plays a tone, no speech file) and, as iOS Safari does, media playback only after a user gesture.
 */

export const WEBKIT_DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';

const MINIBROWSER_ARGS = [
  '--automation',
  '--enable-media-stream=true',
  '--enable-mock-capture-devices=true',
  '--enable-webaudio=true',
  '--media-playback-requires-user-gesture=true',
];

type Client = Awaited<ReturnType<typeof WebDriver.newSession>>;

/** Xvfb on the first free display: it writes the display's number to the descriptor it is given. */
async function startDisplay(): Promise<{ display: string; child: ChildProcess }> {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const display = await new Promise<string>((resolve, reject) => {
    let text = '';
    child.stdio[3]!.on('data', (data: Buffer) => {
      text += data.toString();
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
  });
  return { display, child };
}

async function startDriver(display: string): Promise<{ port: number; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(WEBKIT_DRIVER, [`--port=${port}`, '--host=127.0.0.1'], {
    env: { ...process.env, DISPLAY: display },
    stdio: 'ignore',
  });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited (${child.exitCode})`);
    const up = await fetch(`http://127.0.0.1:${port}/status`).then(
      (response) => response.ok,
      () => false,
    );
    if (up) return { port, child };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('WebKitWebDriver did not answer');
}

/** Runs `fn(arg)` in the page, awaiting what it returns; an exception comes back as one. */
const ASYNC_WRAPPER = `const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (FN)(arguments[0])).then(
  (value) => done({ value: value === undefined ? null : value }),
  (error) => done({ error: String(error && error.stack || error) }));`;

class WebKitPage implements EnginePage {
  readonly engine = 'webkit';
  constructor(
    readonly baseUrl: string,
    private readonly client: Client,
    private readonly driver: ChildProcess,
  ) {}
  async goto(path: string) {
    await this.takeViolations();
    await this.client.navigateTo(new URL(path, this.baseUrl).href);
    await this.watchPolicy();
  }
  async reload() {
    await this.takeViolations();
    await this.client.refresh();
    await this.watchPolicy();
  }
  url() {
    return this.client.getUrl();
  }
  /*
   * Classic WebDriver has no script that runs before the page's own, nor its console: the document's
   * `securitypolicyviolation` listener is set once a navigation has loaded, and what it kept is read before
   * the next navigation and at close. A violation during the load itself is not seen in this engine.
   */
  private async watchPolicy() {
    await this.client.executeScript(`(${reportPolicyViolations.toString()})()`, []).catch(() => undefined);
  }
  private async takeViolations() {
    const script = 'return (window.__policyViolations || []).splice(0)';
    const seen = (await this.client.executeScript(script, []).catch(() => [])) as string[] | null;
    for (const text of seen ?? []) notePolicyViolation(`webkit: ${text}`);
  }
  async evaluate<A, R>(fn: PageFunction<A, R>, arg: A): Promise<R> {
    const script = ASYNC_WRAPPER.replace('FN', fn.toString());
    const result = (await this.client.executeAsyncScript(script, [arg ?? null])) as {
      value?: R;
      error?: string;
    };
    if (result.error !== undefined) throw new Error(`in WebKit's page: ${result.error}`);
    return result.value as R;
  }
  async inject(source: string) {
    await this.client.executeScript(source, []);
  }
  private async element(selector: string) {
    const found = await this.client.findElement('css selector', selector);
    const id = (found as Record<string, string>)['element-6066-11e4-a52e-4f735466cecf'];
    if (!id) throw new Error(`no element matches ${selector}`);
    return id;
  }
  async click(selector: string) {
    await this.client.elementClick(await this.element(selector));
  }
  async fill(selector: string, text: string) {
    const id = await this.element(selector);
    await this.client.elementClear(id);
    await this.client.elementSendKeys(id, text);
  }
  async screenshot(path: string) {
    writeFileSync(path, Buffer.from(await this.client.takeScreenshot(), 'base64'));
  }
  /** The window made as large as the page should be inside it (its bars take the difference). */
  async resize({ width, height }: Viewport) {
    await this.client.setWindowRect(null, null, width, height);
    const inner = await this.evaluate(() => [innerWidth, innerHeight], null);
    await this.client.setWindowRect(null, null, 2 * width - inner[0]!, 2 * height - inner[1]!);
  }
  private closed = false;
  async close() {
    if (this.closed) return;
    this.closed = true;
    await this.takeViolations();
    await this.client.deleteSession().catch(() => undefined);
    this.driver.kill('SIGTERM');
  }
}

export async function launchWebKit(): Promise<Engine> {
  const screen = await startDisplay();
  const pages: WebKitPage[] = [];
  return {
    name: 'webkit',
    async newPage({ baseUrl, viewport = DESKTOP }: PageOptions) {
      const driver = await startDriver(screen.display);
      const client = await WebDriver.newSession({
        hostname: '127.0.0.1',
        port: driver.port,
        logLevel: 'error',
        connectionRetryCount: 0,
        capabilities: {
          browserName: 'MiniBrowser',
          // classic WebDriver: WebKitGTK's driver does not offer BiDi
          'wdio:enforceWebDriverClassic': true,
          'webkitgtk:browserOptions': { args: MINIBROWSER_ARGS },
        } as WebdriverIO.Capabilities,
      });
      const page = new WebKitPage(baseUrl, client, driver.child);
      pages.push(page);
      await page.goto('/api/health');
      await page.resize(viewport);
      return page;
    },
    async close() {
      for (const page of pages.splice(0)) await page.close();
      screen.child.kill('SIGTERM');
    },
  };
}
