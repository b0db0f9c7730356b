import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { exchangeResponseSchema, type ExchangeResponse } from '@xtalk/protocol';
import { startServerAtPublicUrl, type TestServer } from '../../testing/harness.js';
import { startOidcProvider, type TestOidcProvider } from '../../testing/oidc-provider.js';

/*
 * "Sign in with Google" as a browser goes through it, against a real OpenID provider on 127.0.0.1: each
 * redirect seen on its own, the binding cookie kept between them, and the one-time code exchanged.
 */

export const SECRET = 'test-secret-that-is-long-enough-to-sign-tokens';

export interface Browser {
  cookie: string | undefined;
}

/** GET without following redirects, as a browser would see each hop. */
export async function hop(url: string, browser: Browser) {
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

/** A refused callback: the English message, and the code the web app words. */
export function expectErrorPage(location: string, pattern: RegExp) {
  const page = new URL(location, 'http://web.invalid');
  expect(page.pathname).toBe('/error');
  expect(page.searchParams.get('message')).toMatch(pattern);
  expect(page.searchParams.get('code')).toBe('sign_in_failed');
}

/** A server with Google sign-in configured against the provider, and the steps of its flow. */
export class OidcSignIn {
  provider!: TestOidcProvider;
  server!: TestServer;
  /** How far the server's clock runs ahead of the wall clock; back to zero before each test. */
  offsetMs = 0;
  readonly clock = { now: () => Date.now() + this.offsetMs };

  /** Our login route, then the provider: returns the callback URL the provider sends the browser to. */
  async startFlow(browser: Browser): Promise<URL> {
    const login = await hop(`${this.server.baseUrl}/auth/google/login`, browser);
    expect(login.status).toBe(302);
    expect(login.location.startsWith(this.provider.issuer)).toBe(true);
    const atProvider = await hop(login.location, browser);
    expect(atProvider.status).toBe(302);
    return new URL(atProvider.location);
  }

  /** The whole flow up to the /auth/{code} redirect; returns the code. */
  async signInCode(browser: Browser = { cookie: undefined }): Promise<string> {
    const callback = await this.startFlow(browser);
    const done = await hop(callback.href, browser);
    expect(done.status, done.location).toBe(302);
    const match = /^\/auth\/([^/?]+)\?provider=ggl$/.exec(done.location);
    expect(match, done.location).not.toBeNull();
    return decodeURIComponent(match![1]!);
  }

  async exchange(token: string, provider = 'ggl') {
    return this.server.app.inject({
      method: 'POST',
      url: '/api/auth/exchange',
      payload: { token, provider },
    });
  }

  async signIn(): Promise<ExchangeResponse> {
    const response = await this.exchange(await this.signInCode());
    expect(response.statusCode, response.body).toBe(200);
    return exchangeResponseSchema.parse(response.json());
  }
}

/** The block's provider and server, started before its tests and closed after; the clock reset each test. */
export function oidcSignIn(): OidcSignIn {
  const t = new OidcSignIn();
  beforeAll(async () => {
    t.provider = await startOidcProvider();
    t.server = await startServerAtPublicUrl(
      {
        AUTH_SECRET: SECRET,
        OIDC_ISSUER: t.provider.issuer,
        GOOGLE_CLIENT_ID: 'xtalk-test-client',
        GOOGLE_CLIENT_SECRET: 'xtalk-test-secret',
      },
      { clock: t.clock },
    );
  });
  afterAll(async () => {
    await t.server?.close();
    await t.provider?.close();
  });
  beforeEach(() => {
    t.offsetMs = 0;
    t.provider.nextIdentity({ sub: 'google-sub-1', name: 'Hanako Sato', email: 'hanako@example.com' });
  });
  return t;
}
