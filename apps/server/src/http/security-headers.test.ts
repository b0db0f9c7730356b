import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../testing/harness.js';
import { TELEGRAM_MINI_APP_PATH, TELEGRAM_WEB_ORIGIN } from './security-headers.js';

/*
 * The headers browsers enforce, on pages, API answers, errors and 404s alike: the policy's directives
 * are read one by one, so a source added to the wrong directive fails here.
 */

const webRoot = mkdtempSync(join(tmpdir(), 'xtalk-headers-web-'));
mkdirSync(join(webRoot, 'assets'));
writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
/** The one inline script this build's pages carry, as the web build names it (decision 0263). */
const INLINE_SCRIPT = `'sha256-${createHash('sha256').update('document.title = "";').digest('base64')}'`;
writeFileSync(join(webRoot, 'inline-scripts.json'), JSON.stringify({ 'script-src': [INLINE_SCRIPT] }));
afterAll(() => rmSync(webRoot, { recursive: true, force: true }));

/** The policy as directive -> sources. */
function policyOf(header: unknown): Map<string, string[]> {
  expect(typeof header).toBe('string');
  const entries = String(header)
    .split(';')
    .map((part) => part.trim().split(/\s+/))
    .filter(([name]) => name)
    .map(([name, ...sources]) => [name as string, sources] as const);
  return new Map(entries);
}

async function headersOf(server: TestServer, url: string, method: 'GET' | 'POST' = 'GET') {
  const response = await server.app.inject({ method, url, payload: method === 'POST' ? {} : undefined });
  return { status: response.statusCode, headers: response.headers };
}

describe('security headers over plain HTTP, nothing optional configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({}, { webRoot });
  }, 60_000);
  afterAll(() => server.close());

  it("gives a page a policy without inline scripts but the build's, that no one may frame", async () => {
    const { status, headers } = await headersOf(server, '/guest-login');
    expect(status).toBe(200);
    const policy = policyOf(headers['content-security-policy']);
    expect(policy.get('default-src')).toEqual(["'self'"]);
    expect(policy.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'", INLINE_SCRIPT]);
    expect(policy.get('object-src')).toEqual(["'none'"]);
    expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    expect(policy.get('frame-src')).toEqual(["'none'"]);
    expect(policy.get('worker-src')).toEqual(["'self'", 'blob:']);
    expect(policy.get('manifest-src')).toEqual(["'self'"]);
    expect(policy.get('media-src')).toEqual(["'self'", 'data:', 'blob:']);
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['strict-transport-security']).toBeUndefined();
  });

  it('sends the same headers on API answers, client errors and 404s', async () => {
    const answers = [
      await headersOf(server, '/api/health'),
      await headersOf(server, '/api/auth/guest', 'POST'),
      await headersOf(server, '/api/nothing-here'),
      await headersOf(server, '/assets/missing.js'),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 400, 404, 404]);
    for (const { headers } of answers) {
      expect(policyOf(headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
      expect(headers['x-content-type-options']).toBe('nosniff');
      expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    }
  });

  it('lets no one frame the Mini App path while Telegram is not configured', async () => {
    const { headers } = await headersOf(server, `${TELEGRAM_MINI_APP_PATH}?r=ABCDEFG`);
    expect(policyOf(headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
  });
});

describe('security headers behind TLS with Telegram and Turnstile configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(
      {
        PUBLIC_URL: 'https://xtalk.example',
        TELEGRAM_BOT_TOKEN: '123:abc',
        TELEGRAM_BOT_NAME: 'xtalk_test_bot',
        TURNSTILE_SITE_KEY: 'site',
        TURNSTILE_SECRET_KEY: 'secret',
      },
      { webRoot },
    );
  }, 60_000);
  afterAll(() => server.close());

  it('pins the host to TLS and upgrades any plain request', async () => {
    const { headers } = await headersOf(server, '/');
    expect(headers['strict-transport-security']).toBe('max-age=31536000');
    expect(policyOf(headers['content-security-policy']).has('upgrade-insecure-requests')).toBe(true);
  });

  it("lets Telegram's web client frame the Mini App path, and only that path", async () => {
    const miniApp = await headersOf(server, `${TELEGRAM_MINI_APP_PATH}?r=ABCDEFG`);
    expect(policyOf(miniApp.headers['content-security-policy']).get('frame-ancestors')).toEqual([
      TELEGRAM_WEB_ORIGIN,
    ]);
    for (const path of ['/', '/guest-login', `${TELEGRAM_MINI_APP_PATH}/npc`, '/api/health']) {
      const { headers } = await headersOf(server, path);
      expect(policyOf(headers['content-security-policy']).get('frame-ancestors')).toEqual(["'none'"]);
    }
  });

  it("allows Telegram's widget and Turnstile, still without inline scripts but the build's", async () => {
    const policy = policyOf((await headersOf(server, '/guest-login')).headers['content-security-policy']);
    expect(policy.get('script-src')).toEqual([
      "'self'",
      "'wasm-unsafe-eval'",
      INLINE_SCRIPT,
      'https://challenges.cloudflare.com',
      'https://telegram.org',
    ]);
    expect(policy.get('frame-src')).toEqual([
      'https://challenges.cloudflare.com',
      'https://oauth.telegram.org',
    ]);
  });
});

describe('security headers with a Telegram bot token but no bot name', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ TELEGRAM_BOT_TOKEN: '123:abc' }, { webRoot });
  }, 60_000);
  afterAll(() => server.close());

  it('admits no Telegram script or frame (the page shows no widget), yet lets Telegram frame the Mini App', async () => {
    const policy = policyOf((await headersOf(server, '/login')).headers['content-security-policy']);
    expect(policy.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'", INLINE_SCRIPT]);
    expect(policy.get('frame-src')).toEqual(["'none'"]);
    const miniApp = await headersOf(server, TELEGRAM_MINI_APP_PATH);
    expect(policyOf(miniApp.headers['content-security-policy']).get('frame-ancestors')).toEqual([
      TELEGRAM_WEB_ORIGIN,
    ]);
  });
});
