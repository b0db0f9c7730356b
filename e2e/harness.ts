import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { expectNoIssuedSecretsIn, watchIssuedSecrets } from './issued-secrets.js';

/*
 * Browser tests run the built product as a person gets it: `apps/server/dist/server.js` in a child
 * process (so it can be killed and restarted mid-test) and Debian's Chromium driven by playwright-core.
 */

const root = resolve(import.meta.dirname, '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export class ProductServer {
  private child: ChildProcess | undefined;
  readonly log: string[] = [];

  private constructor(
    readonly port: number,
    readonly dataDir: string,
    private readonly env: Record<string, string>,
  ) {}

  /** `port`: when other servers must know the address first; a free one by default. */
  static async start(env: Record<string, string> = {}, port?: number): Promise<ProductServer> {
    const server = new ProductServer(
      port ?? (await freePort()),
      mkdtempSync(join(tmpdir(), 'xtalk-e2e-')),
      env,
    );
    await server.boot();
    return server;
  }

  get url() {
    return `http://127.0.0.1:${this.port}`;
  }

  async boot(): Promise<void> {
    const child = spawn(process.execPath, [join(root, 'apps/server/dist/server.js')], {
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        ALTCHA_COST: '300',
        AI_PROVIDER: 'fake',
        // every request's line too: the log is checked for the secrets the run's browsers used
        LOG_LEVEL: 'info',
        // every browser / load client connects from 127.0.0.1: lift the per-address limits (the per-user
        // ones stay at their defaults)
        RATE_LIMIT_BOTCHECK_PER_MINUTE: '100000',
        GUESTS_PER_MINUTE_PER_IP: '100000',
        RATE_LIMIT_SIGN_IN_PER_MINUTE: '100000',
        RATE_LIMIT_API_PER_MINUTE_PER_IP: '100000',
        MAX_SOCKETS_PER_IP: '100000',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (data: Buffer) => this.log.push(data.toString()));
    child.stderr?.on('data', (data: Buffer) => this.log.push(data.toString()));
    // a cold start (PGlite's first open, migrations) takes 20-30 s on a loaded 2-core machine
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${this.log.join('')}`);
      try {
        const response = await fetch(`${this.url}/api/health`);
        if (response.ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    // a server that never answered must not outlive the test run that gave up on it
    child.kill('SIGKILL');
    throw new Error(`server did not start:\n${this.log.join('')}`);
  }

  /** SIGTERM, as a deploy would; resolves with the exit code once the process is gone. */
  async stop(): Promise<number | null> {
    const child = this.child;
    // a killed child has a signal and no exit code
    if (!child || child.exitCode !== null || child.signalCode !== null) return child?.exitCode ?? null;
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    return exited;
  }

  /** SIGKILL: no drain, no goodbye; the kernel cuts its sockets. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  }

  async restart(): Promise<void> {
    const code = await this.stop();
    if (code !== 0) throw new Error(`server did not shut down cleanly (exit ${code}):\n${this.log.join('')}`);
    await this.boot();
  }

  /** Stops the server and checks that its log, over all its starts, holds no secret the run used. */
  async dispose(): Promise<void> {
    await this.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
    expectNoIssuedSecretsIn(this.log.join(''));
  }
}

/**
 * Chromium 156 (Debian's) renders its desktop omnibox popups as WebUI pages and warms them up in renderers of
 * their own whenever a page opens, so every page load here ran beside ~1 s of the browser's own UI work
 * (that renderer and its compositing) on this 2-core machine, stretching the page's tasks ~3x in wall time.
 * Phones, which Lighthouse's mobile profile stands for, have no such popup; tests never use the omnibox.
 * docs/decisions/0086-measure-the-page-not-the-browser-ui.md
 */
export const BROWSER_UI_FEATURES_OFF = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/*
 * The server sends its Content-Security-Policy in every test: whatever a page, popup or worker does that
 * the policy blocks fails the test it happened in (or, from a beforeAll, the block's first test).
 * Chromium reports a violation twice over: a `securitypolicyviolation` event in the document (read by an
 * init script) and a console error (which also covers workers, where init scripts do not run).
 */
const cspViolations: string[] = [];
const CSP_MESSAGE = /Content Security Policy|CSP violation/;

function reportPolicyViolations() {
  addEventListener(
    'securitypolicyviolation',
    (event) => {
      const where = `${event.sourceFile || location.href}:${event.lineNumber}`;
      console.error(
        `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${where})`,
      );
    },
    true,
  );
}

export async function watchPolicy(context: BrowserContext): Promise<void> {
  context.on('console', (message) => {
    if (message.type() === 'error' && CSP_MESSAGE.test(message.text())) cspViolations.push(message.text());
  });
  await context.addInitScript(reportPolicyViolations);
}

function expectNoPolicyViolations() {
  expect(cspViolations.splice(0), 'Content-Security-Policy violations').toEqual([]);
}
afterEach(expectNoPolicyViolations);
afterAll(expectNoPolicyViolations);

/** How every test's Chromium runs: headless, quiet, a fake microphone that needs no permission prompt. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  `--disable-features=${BROWSER_UI_FEATURES_OFF.join(',')}`,
];

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
  // every context (browser.newPage makes one too) is watched from its first page on
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchPolicy(context);
    watchIssuedSecrets(context);
    return context;
  };
  return browser;
}

/** What a describe block's tests run against: the built product and one Chromium. */
export interface ProductInBrowser {
  readonly server: ProductServer;
  readonly browser: Browser;
}

/** A value, or a function that gives it once the block's earlier `beforeAll` hooks have run. */
type Later<T> = T | (() => T);
const valueOf = <T>(later: Later<T>): T => (typeof later === 'function' ? (later as () => T)() : later);

/** What a `beforeAll` made, read in a test; read before it ran, it says so rather than being undefined. */
function made<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what}: read it inside a test, after beforeAll`);
  return value;
}

/**
 * Starts the product (with `env`) and Chromium (with `browserArgs`) before the block's tests and closes
 * both after them. Read `server` and `browser` inside the tests: they exist from `beforeAll` on. A setting
 * that depends on something the block starts first (an OpenID provider's address, a fake microphone's
 * file) is passed as a function: hooks run in the order they were registered, and close in reverse.
 */
export function productInBrowser(
  env: Later<Record<string, string>> = {},
  browserArgs: Later<string[]> = [],
): ProductInBrowser {
  let server: ProductServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await ProductServer.start(valueOf(env));
    browser = await launchBrowser(valueOf(browserArgs));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.dispose();
  });
  return {
    get server() {
      return made(server, 'productInBrowser');
    },
    get browser() {
      return made(browser, 'productInBrowser');
    },
  };
}

/**
 * A microphone that speaks `text` (espeak-ng, then sox to 48 kHz mono 16-bit with a little silence around
 * it; Chromium loops the file), made before the block's tests and removed after them. Its `path` goes to
 * Chromium as `--use-file-for-fake-audio-capture`.
 */
export function speakingMicrophone(text: string): { readonly path: string } {
  let workDir: string | undefined;
  let mic: string | undefined;
  beforeAll(() => {
    workDir = mkdtempSync(join(tmpdir(), 'xtalk-mic-'));
    mic = join(workDir, 'fake-mic.wav');
    const speech = join(workDir, 'speech.wav');
    execFileSync('espeak-ng', ['-v', 'en-us', '-w', speech, text]);
    execFileSync('sox', [speech, '-r', '48000', '-c', '1', '-b', '16', mic, 'pad', '0.3', '0.3']);
  });
  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });
  return {
    get path() {
      return made(mic, 'speakingMicrophone');
    },
  };
}

export interface Person {
  context: BrowserContext;
  page: Page;
}

export interface PersonOptions {
  /** Show XTalkChan's first-connection tutorial (off by default: other tests count messages). */
  tutorial?: boolean;
  viewport?: { width: number; height: number };
  /** Interface language stored before the first page loads. */
  language?: 'en' | 'ja';
}

export async function newPerson(
  browser: Browser,
  baseUrl: string,
  options: PersonOptions = {},
): Promise<Person> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: options.viewport ?? { width: 1100, height: 800 },
  });
  await context.addInitScript(
    ({ tutorial, language }) => {
      if (!tutorial && localStorage.getItem('tut') === null) localStorage.setItem('tut', '1');
      if (language && localStorage.getItem('lang') === null) localStorage.setItem('lang', language);
    },
    { tutorial: options.tutorial ?? false, language: options.language },
  );
  await context.grantPermissions(['microphone', 'clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error('[page error]', error.message));
  return { context, page };
}

/** From any page to a room: the bot check solves itself, then the microphone step, then the room. */
export async function enterAsGuest(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await page.getByTestId('guest-login').waitFor();
  const mic = page.getByTestId('mic-permission');
  await mic.waitFor({ timeout: 30_000 });
  await mic.click();
  await page.waitForURL(/\/translate\?r=[A-Z0-9]{7}/, { timeout: 30_000 });
  await page.getByTestId('message-list').waitFor();
  await page.getByTestId('connecting-overlay').waitFor({ state: 'detached', timeout: 20_000 });
}

export async function roomIdOf(page: Page): Promise<string> {
  return new URL(page.url()).searchParams.get('r') ?? '';
}

/**
 * The room a page moved to after leaving `previous`: waits for a real 7-character code. While a room is
 * being created the address says `r=new`, which already differs from `previous` but is no room yet.
 */
export async function movedRoomIdOf(page: Page, previous: string, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const roomId = await roomIdOf(page);
    if (roomId !== previous && /^[A-Z0-9]{7}$/.test(roomId)) return roomId;
    if (Date.now() > deadline) throw new Error(`the page stayed on room '${roomId}' (from '${previous}')`);
    await page.waitForTimeout(100);
  }
}

export async function say(page: Page, text: string): Promise<void> {
  await page.getByTestId('chat-input').fill(text);
  await page.getByTestId('send-button').click();
}

export function messageWith(page: Page, text: string) {
  return page
    .getByTestId('message')
    .filter({ has: page.getByTestId('original').getByText(text, { exact: true }) });
}

/**
 * Two guests in one room: Alice enters and gets a new room, Bob opens the room's address. `beforeBob`
 * prepares Bob's browser (storage, init scripts) before he enters.
 */
export async function twoGuestsInRoom(
  browser: Browser,
  baseUrl: string,
  beforeBob?: (bob: Person) => Promise<unknown>,
): Promise<{ alice: Person; bob: Person; roomId: string }> {
  const alice = await newPerson(browser, baseUrl);
  await enterAsGuest(alice.page);
  const roomId = await roomIdOf(alice.page);
  const bob = await newPerson(browser, baseUrl);
  await beforeBob?.(bob);
  await enterAsGuest(bob.page, `/translate?r=${roomId}`);
  return { alice, bob, roomId };
}
