import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exchangeResponseSchema, userSchema, type ExchangeResponse } from '@xtalk/protocol';
import type { Db } from '../../store/db.js';
import { freePort } from '../../test/free-port.js';
import { guestLogin, startServer, type TestServer } from '../../test/harness.js';
import { startOidcProvider, type TestOidcProvider } from '../../test/oidc-provider.js';
import { dbOf } from '../../test/seed/index.js';

/*
 * The whole "Sign in with Google" flow against a real OpenID provider on 127.0.0.1: our login route, the
 * provider's authorisation endpoint, our callback (state, PKCE, nonce, ID token checks), the one-time code
 * and its exchange; and everything that must fail: bad state, bad verifier, replays, expiry.
 */

const SECRET = 'test-secret-that-is-long-enough-to-sign-tokens';

interface Browser {
  cookie: string | undefined;
}

/** GET without following redirects, as a browser would see each hop. */
async function hop(url: string, browser: Browser) {
  const response = await fetch(url, {
    redirect: 'manual',
    headers: browser.cookie ? { cookie: browser.cookie } : {},
  });
  const setCookie = response.headers.get('set-cookie');
  if (setCookie) {
    const pair = setCookie.split(';')[0]!;
    browser.cookie = pair.endsWith('=') ? undefined : pair;
  }
  return { status: response.status, location: response.headers.get('location') ?? '' };
}

describe('sign-in with an OpenID provider', () => {
  let provider: TestOidcProvider;
  let server: TestServer;
  let db: Db;
  let offsetMs = 0;
  const clock = { now: () => Date.now() + offsetMs };

  beforeAll(async () => {
    provider = await startOidcProvider();
    server = await startServer(
      {
        AUTH_SECRET: SECRET,
        OIDC_ISSUER: provider.issuer,
        GOOGLE_CLIENT_ID: 'xtalk-test-client',
        GOOGLE_CLIENT_SECRET: 'xtalk-test-secret',
      },
      { clock },
    );
    db = dbOf(server);
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });
  beforeEach(() => {
    offsetMs = 0;
    provider.nextIdentity({ sub: 'google-sub-1', name: 'Hanako Sato', email: 'hanako@example.com' });
  });

  /** Our login route, then the provider: returns the callback URL the provider sends the browser to. */
  async function startFlow(browser: Browser): Promise<URL> {
    const login = await hop(`${server.baseUrl}/auth/google/login`, browser);
    expect(login.status).toBe(302);
    expect(login.location.startsWith(provider.issuer)).toBe(true);
    const atProvider = await hop(login.location, browser);
    expect(atProvider.status).toBe(302);
    return new URL(atProvider.location);
  }

  /** The whole flow up to the /auth/{code} redirect; returns the code. */
  async function signInCode(browser: Browser = { cookie: undefined }): Promise<string> {
    const callback = await startFlow(browser);
    const done = await hop(callback.href, browser);
    expect(done.status, done.location).toBe(302);
    const match = /^\/auth\/([^/?]+)\?provider=ggl$/.exec(done.location);
    expect(match, done.location).not.toBeNull();
    return decodeURIComponent(match![1]!);
  }

  async function exchange(token: string, provider = 'ggl') {
    return server.app.inject({ method: 'POST', url: '/api/auth/exchange', payload: { token, provider } });
  }

  async function signIn(): Promise<ExchangeResponse> {
    const response = await exchange(await signInCode());
    expect(response.statusCode, response.body).toBe(200);
    return exchangeResponseSchema.parse(response.json());
  }

  /** A refused callback: the English message, and the code the web app words. */
  function expectErrorPage(location: string, pattern: RegExp) {
    const page = new URL(location, 'http://web.invalid');
    expect(page.pathname).toBe('/error');
    expect(page.searchParams.get('message')).toMatch(pattern);
    expect(page.searchParams.get('code')).toBe('sign_in_failed');
  }

  it('tells the web app that sign-in is configured', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/auth/config' });
    expect(response.json()).toMatchObject({ google: true, mail: false });
  });

  it('sends the browser to the provider with PKCE (S256), state, nonce and our callback', async () => {
    const browser: Browser = { cookie: undefined };
    const login = await hop(`${server.baseUrl}/auth/google/login`, browser);
    const url = new URL(login.location);
    expect(url.pathname).toBe('/authorize');
    expect(url.searchParams.get('client_id')).toBe('xtalk-test-client');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe('openid profile email');
    expect(url.searchParams.get('redirect_uri')).toBe(`${server.baseUrl}/auth/google/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    // the verifier never leaves the server; the browser only holds a binding cookie
    const { rows } = await db.query<{ code_verifier: string }>(
      'select code_verifier from auth_flows where state = $1',
      [url.searchParams.get('state')],
    );
    expect(rows[0]?.code_verifier).toMatch(/^[\w-]{43,}$/);
    expect(login.location).not.toContain(rows[0]!.code_verifier);
    expect(browser.cookie).toMatch(/^xtalk_signin=[\w-]+$/);
  });

  it('creates the user on first sign-in, finds the same one next time, and never puts the session in a URL', async () => {
    const code = await signInCode();
    expect(code).toMatch(/^[\w-]{40,}$/);
    const response = await exchange(code);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const first = exchangeResponseSchema.parse(response.json());
    expect(code).not.toBe(first.token);
    expect(userSchema.parse(first.user)).toMatchObject({
      provider: 'ggl',
      platformPlayerId: 'google-sub-1',
      name: 'Hanako Sato',
      appId: 'xtalk',
    });
    expect(first.user.username).toMatch(/^u-[0-9a-f]{12}$/);
    expect(first.user.displayUsername).toMatch(/^[A-Z][a-z]+[A-Z][a-z]+$/);

    const me = await server.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${first.token}` },
    });
    expect(me.json()).toMatchObject({ userId: first.user.userId, provider: 'ggl' });

    const again = await signIn();
    expect(again.user.userId).toBe(first.user.userId);

    provider.nextIdentity({ sub: 'google-sub-2', name: 'Taro' });
    const other = await signIn();
    expect(other.user.userId).not.toBe(first.user.userId);
    expect(other.user.name).toBe('Taro');
  });

  it('refuses a used, unknown or expired exchange code with 400', async () => {
    const code = await signInCode();
    expect((await exchange(code)).statusCode).toBe(200);
    const replayed = await exchange(code);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().message).toMatch(/invalid, expired or already used/);
    // the web words it by this code (the /auth page in either language)
    expect(replayed.json().code).toBe('invalid_link');

    expect((await exchange('no-such-code')).statusCode).toBe(400);
    expect((await exchange('')).statusCode).toBe(400);

    const late = await signInCode();
    offsetMs = 61_000; // AUTH_CODE_TTL_SECONDS defaults to 60
    expect((await exchange(late)).statusCode).toBe(400);
    offsetMs = 0;
    // once refused for expiry it is gone, not merely waiting
    expect((await exchange(late)).statusCode).toBe(400);
  });

  it('refuses malformed exchange bodies and the guest form', async () => {
    for (const payload of [{}, { token: 42 }, { token: 'x', provider: 'facebook' }]) {
      const response = await server.app.inject({ method: 'POST', url: '/api/auth/exchange', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const guest = await exchange('', 'guest');
    expect(guest.statusCode).toBe(400);
    expect(guest.json().message).toMatch(/bot check/);
  });

  it('refuses a callback with a wrong, missing or replayed state', async () => {
    const browser: Browser = { cookie: undefined };
    const callback = await startFlow(browser);
    const forged = new URL(callback);
    forged.searchParams.set('state', 'not-the-state-we-sent');
    expectErrorPage((await hop(forged.href, browser)).location, /expired or was already used/);
    const missing = new URL(callback);
    missing.searchParams.delete('state');
    expectErrorPage((await hop(missing.href, browser)).location, /no state/);

    // the genuine callback still works once, then never again
    const cookie = browser.cookie;
    const genuine = await hop(callback.href, browser);
    expect(genuine.location).toMatch(/^\/auth\//);
    expect(browser.cookie).toBeUndefined(); // cleared after success
    expectErrorPage((await hop(callback.href, { cookie })).location, /expired or was already used/);
  });

  it('refuses a callback from another browser (no or a different binding cookie)', async () => {
    const callback = await startFlow({ cookie: undefined });
    expectErrorPage((await hop(callback.href, { cookie: undefined })).location, /another browser/);
    const second = await startFlow({ cookie: undefined });
    expectErrorPage(
      (await hop(second.href, { cookie: 'xtalk_signin=someone-else' })).location,
      /another browser/,
    );
  });

  it('refuses when the PKCE verifier does not match the challenge the provider saw', async () => {
    const browser: Browser = { cookie: undefined };
    const callback = await startFlow(browser);
    // swap in another well-formed verifier, as an attacker holding a stolen code would have to
    await db.query('update auth_flows set code_verifier = $2 where state = $1', [
      callback.searchParams.get('state'),
      'a'.repeat(43),
    ]);
    expectErrorPage((await hop(callback.href, browser)).location, /did not confirm/);
  });

  it('refuses an expired flow, an expired ID token and a wrong nonce', async () => {
    const browser: Browser = { cookie: undefined };
    const slow = await startFlow(browser);
    offsetMs = 601_000;
    expectErrorPage((await hop(slow.href, browser)).location, /expired or was already used/);
    offsetMs = 0;

    const expired = await startFlow(browser);
    provider.tamperNextIdToken((payload) => {
      payload.iat = Math.floor(Date.now() / 1000) - 7200;
      payload.nbf = payload.iat;
      payload.exp = Math.floor(Date.now() / 1000) - 3600;
    });
    expectErrorPage((await hop(expired.href, browser)).location, /did not confirm/);

    const wrongNonce = await startFlow(browser);
    provider.tamperNextIdToken((payload) => {
      payload.nonce = 'somebody-elses-nonce';
    });
    expectErrorPage((await hop(wrongNonce.href, browser)).location, /did not confirm/);

    const wrongAudience = await startFlow(browser);
    provider.tamperNextIdToken((payload) => {
      payload.aud = 'another-client';
    });
    expectErrorPage((await hop(wrongAudience.href, browser)).location, /did not confirm/);
  });

  it('says so when the person cancels at the provider', async () => {
    const browser: Browser = { cookie: undefined };
    const callback = await startFlow(browser);
    const cancelled = new URL(callback);
    cancelled.searchParams.delete('code');
    cancelled.searchParams.set('error', 'access_denied');
    expectErrorPage((await hop(cancelled.href, browser)).location, /cancelled/);
  });

  it('expires the session token after SESSION_TTL_SECONDS', async () => {
    const session = await signIn();
    offsetMs = 43_201_000;
    const me = await server.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(me.statusCode).toBe(401);
    expect(me.json().message).toMatch(/expired/);
  });

  it('lets a guest sign in: a different, signed-in user', async () => {
    const guest = await guestLogin(server.app);
    const member = await signIn();
    expect(member.user.userId).not.toBe(guest.user.userId);
    expect(member.user.provider).toBe('ggl');
  });
});

describe('sign-in configuration', () => {
  it('is off without GOOGLE_CLIENT_ID: the web app is told, the login route explains', async () => {
    const server = await startServer({ AUTH_SECRET: SECRET });
    try {
      const config = await server.app.inject({ method: 'GET', url: '/api/auth/config' });
      expect(config.json()).toMatchObject({ google: false, mail: false });
      const login = await server.app.inject({ method: 'GET', url: '/auth/google/login' });
      expect(login.statusCode).toBe(302);
      expect(decodeURIComponent(login.headers.location as string)).toMatch(/not configured/);
      expect(new URL(login.headers.location as string, 'http://web.invalid').searchParams.get('code')).toBe(
        'sign_in_unavailable',
      );
    } finally {
      await server.close();
    }
  });

  it('starts while the issuer is unreachable and signs in once it is back', async () => {
    const port = await freePort();
    const server = await startServer({
      AUTH_SECRET: SECRET,
      OIDC_ISSUER: `http://127.0.0.1:${port}`,
      GOOGLE_CLIENT_ID: 'xtalk-test-client',
    });
    let provider: TestOidcProvider | undefined;
    try {
      expect((await server.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      const down = await hop(`${server.baseUrl}/auth/google/login`, { cookie: undefined });
      expect(decodeURIComponent(down.location)).toMatch(/cannot be reached/);

      provider = await startOidcProvider(port);
      const browser: Browser = { cookie: undefined };
      const login = await hop(`${server.baseUrl}/auth/google/login`, browser);
      expect(login.location.startsWith(provider.issuer)).toBe(true);
      const callback = await hop(login.location, browser);
      const done = await hop(callback.location, browser);
      expect(done.location).toMatch(/^\/auth\/[\w-]+\?provider=ggl$/);
    } finally {
      await server.close();
      await provider?.close();
    }
  });

  it('builds the callback under PUBLIC_URL and marks the cookie Secure there', async () => {
    const provider = await startOidcProvider();
    const server = await startServer({
      AUTH_SECRET: SECRET,
      PUBLIC_URL: 'https://xtalk.example/',
      OIDC_ISSUER: provider.issuer,
      GOOGLE_CLIENT_ID: 'xtalk-test-client',
    });
    try {
      const login = await server.app.inject({ method: 'GET', url: '/auth/google/login' });
      const url = new URL(login.headers.location as string);
      expect(url.searchParams.get('redirect_uri')).toBe('https://xtalk.example/auth/google/callback');
      expect(String(login.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
      expect(String(login.headers['set-cookie'])).toMatch(/Path=\/auth\/google;/);
    } finally {
      await server.close();
      await provider.close();
    }
  });
});
