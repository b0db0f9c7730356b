import { describe, expect, it } from 'vitest';
import { exchangeResponseSchema, userSchema } from '@xtalk/protocol';
import { guestLogin } from '../../testing/harness.js';
import { flowVerifierOf } from '../../testing/seed/index.js';
import { hop, type Browser, oidcSignIn } from '../testing/oidc-flow.js';

/*
 * The whole "Sign in with Google" flow against a real OpenID provider on 127.0.0.1: our login route, the
 * provider's authorisation endpoint, our callback, the one-time code and its exchange, and the session
 * it gives (a new user, the same one next time, a guest's own).
 */

describe('sign-in with an OpenID provider', () => {
  const t = oidcSignIn();

  it('tells the web app that sign-in is configured', async () => {
    const response = await t.server.app.inject({ method: 'GET', url: '/api/auth/config' });
    expect(response.json()).toMatchObject({ google: true, mail: false });
  });

  it('sends the browser to the provider with PKCE (S256), state, nonce and our callback', async () => {
    const browser: Browser = { cookie: undefined };
    const login = await hop(`${t.server.baseUrl}/auth/google/login`, browser);
    const url = new URL(login.location);
    expect(url.pathname).toBe('/authorize');
    expect(url.searchParams.get('client_id')).toBe('xtalk-test-client');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('scope')).toBe('openid profile email');
    expect(url.searchParams.get('redirect_uri')).toBe(`${t.server.baseUrl}/auth/google/callback`);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[\w-]{20,}$/);
    // the verifier never leaves the server; the browser only holds a binding cookie
    const verifier = await flowVerifierOf(t.server, url.searchParams.get('state')!);
    expect(verifier).toMatch(/^[\w-]{43,}$/);
    expect(login.location).not.toContain(verifier!);
    expect(browser.cookie).toMatch(/^xtalk_signin=[\w-]+$/);
  });

  it('creates the user on first sign-in, finds the same one next time, and never puts the session in a URL', async () => {
    const code = await t.signInCode();
    expect(code).toMatch(/^[\w-]{40,}$/);
    const response = await t.exchange(code);
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

    const me = await t.server.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${first.token}` },
    });
    expect(me.json()).toMatchObject({ userId: first.user.userId, provider: 'ggl' });

    const again = await t.signIn();
    expect(again.user.userId).toBe(first.user.userId);

    t.provider.nextIdentity({ sub: 'google-sub-2', name: 'Taro' });
    const other = await t.signIn();
    expect(other.user.userId).not.toBe(first.user.userId);
    expect(other.user.name).toBe('Taro');
  });

  it('expires the session token after SESSION_TTL_SECONDS', async () => {
    const session = await t.signIn();
    t.offsetMs = 43_201_000;
    const me = await t.server.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(me.statusCode).toBe(401);
    expect(me.json().message).toMatch(/expired/);
  });

  it('lets a guest sign in: a different, signed-in user', async () => {
    const guest = await guestLogin(t.server.app);
    const member = await t.signIn();
    expect(member.user.userId).not.toBe(guest.user.userId);
    expect(member.user.provider).toBe('ggl');
  });
});
