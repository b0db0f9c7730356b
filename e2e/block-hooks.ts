import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import {
  startOidcProvider,
  type TestIdentity,
  type TestOidcProvider,
} from '../apps/server/src/testing/oidc-provider.js';
import { launchBrowser } from './lib/browser.js';
import { ProductServer } from './lib/product-server.js';

/*
 * What a describe block's tests need, made in its `beforeAll` and removed in its `afterAll`. The plain
 * pieces (the server, the browser, people, rooms) are in e2e/lib/, which scripts read without Vitest.
 */

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
 * The product with "Google" sign-in from a real OpenID provider on 127.0.0.1, started before the product,
 * which signs `identity` in. `env` adds to the sign-in settings.
 */
export function productWithGoogle(
  identity: TestIdentity,
  env: Record<string, string> = {},
): ProductInBrowser {
  let provider: TestOidcProvider | undefined;
  beforeAll(async () => {
    provider = await startOidcProvider();
    provider.nextIdentity(identity);
  });
  afterAll(() => provider?.close());
  return productInBrowser(() => ({
    OIDC_ISSUER: made(provider, 'productWithGoogle').issuer,
    GOOGLE_CLIENT_ID: 'xtalk-e2e',
    GOOGLE_CLIENT_SECRET: 'xtalk-e2e-secret',
    ...env,
  }));
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
