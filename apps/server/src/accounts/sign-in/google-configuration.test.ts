import { describe, expect, it } from 'vitest';
import { freePort } from '../../testing/free-port.js';
import { startServer, startServerAtPublicUrl } from '../../testing/harness.js';
import { startOidcProvider, type TestOidcProvider } from '../../testing/oidc-provider.js';
import { SECRET, hop, type Browser } from '../testing/oidc-flow.js';

/*
 * How the server's settings shape Google sign-in: off without GOOGLE_CLIENT_ID, started while the issuer
 * is unreachable, and the callback and its cookie under PUBLIC_URL.
 */

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
    const server = await startServerAtPublicUrl({
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
