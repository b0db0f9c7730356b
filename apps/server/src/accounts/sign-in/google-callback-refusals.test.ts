import { describe, expect, it } from 'vitest';
import { swapFlowVerifier } from '../../testing/seed/index.js';
import { expectErrorPage, hop, type Browser, oidcSignIn } from '../testing/oidc-flow.js';

/*
 * Every callback that must fail against a real OpenID provider (state, binding cookie, PKCE verifier, flow
 * and ID token expiry, nonce and audience, a cancel) sends the browser to the error page with its code.
 */

describe('refused Google sign-in callbacks', () => {
  const t = oidcSignIn();

  it('refuses a callback with a wrong, missing or replayed state', async () => {
    const browser: Browser = { cookie: undefined };
    const callback = await t.startFlow(browser);
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
    const callback = await t.startFlow({ cookie: undefined });
    expectErrorPage((await hop(callback.href, { cookie: undefined })).location, /another browser/);
    const second = await t.startFlow({ cookie: undefined });
    expectErrorPage(
      (await hop(second.href, { cookie: 'xtalk_signin=someone-else' })).location,
      /another browser/,
    );
  });

  it('refuses when the PKCE verifier does not match the challenge the provider saw', async () => {
    const browser: Browser = { cookie: undefined };
    const callback = await t.startFlow(browser);
    // swap in another well-formed verifier, as an attacker holding a stolen code would have to
    await swapFlowVerifier(t.server, callback.searchParams.get('state')!, 'a'.repeat(43));
    expectErrorPage((await hop(callback.href, browser)).location, /did not confirm/);
  });

  it('refuses an expired flow, an expired ID token and a wrong nonce', async () => {
    const browser: Browser = { cookie: undefined };
    const slow = await t.startFlow(browser);
    t.offsetMs = 601_000;
    expectErrorPage((await hop(slow.href, browser)).location, /expired or was already used/);
    t.offsetMs = 0;

    const expired = await t.startFlow(browser);
    t.provider.tamperNextIdToken((payload) => {
      payload.iat = Math.floor(Date.now() / 1000) - 7200;
      payload.nbf = payload.iat;
      payload.exp = Math.floor(Date.now() / 1000) - 3600;
    });
    expectErrorPage((await hop(expired.href, browser)).location, /did not confirm/);

    const wrongNonce = await t.startFlow(browser);
    t.provider.tamperNextIdToken((payload) => {
      payload.nonce = 'somebody-elses-nonce';
    });
    expectErrorPage((await hop(wrongNonce.href, browser)).location, /did not confirm/);

    const wrongAudience = await t.startFlow(browser);
    t.provider.tamperNextIdToken((payload) => {
      payload.aud = 'another-client';
    });
    expectErrorPage((await hop(wrongAudience.href, browser)).location, /did not confirm/);
  });

  it('says so when the person cancels at the provider', async () => {
    const browser: Browser = { cookie: undefined };
    const callback = await t.startFlow(browser);
    const cancelled = new URL(callback);
    cancelled.searchParams.delete('code');
    cancelled.searchParams.set('error', 'access_denied');
    expectErrorPage((await hop(cancelled.href, browser)).location, /cancelled/);
  });
});
