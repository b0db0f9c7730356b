import { describe, expect, it } from 'vitest';
import { oidcSignIn } from '../testing/oidc-flow.js';

/*
 * POST /api/auth/exchange after a Google sign-in: a code works once, and a used, unknown or expired code, a
 * malformed body or the guest form is refused with 400.
 */

describe('the one-time code exchange', () => {
  const t = oidcSignIn();

  it('refuses a used, unknown or expired exchange code with 400', async () => {
    const code = await t.signInCode();
    expect((await t.exchange(code)).statusCode).toBe(200);
    const replayed = await t.exchange(code);
    expect(replayed.statusCode).toBe(400);
    expect(replayed.json().message).toMatch(/invalid, expired or already used/);
    // the web words it by this code (the /auth page in either language)
    expect(replayed.json().code).toBe('invalid_link');

    expect((await t.exchange('no-such-code')).statusCode).toBe(400);
    expect((await t.exchange('')).statusCode).toBe(400);

    const late = await t.signInCode();
    t.offsetMs = 61_000; // AUTH_CODE_TTL_SECONDS defaults to 60
    expect((await t.exchange(late)).statusCode).toBe(400);
    t.offsetMs = 0;
    // once refused for expiry it is gone, not merely waiting
    expect((await t.exchange(late)).statusCode).toBe(400);
  });

  it('refuses malformed exchange bodies and the guest form', async () => {
    for (const payload of [{}, { token: 42 }, { token: 'x', provider: 'facebook' }]) {
      const response = await t.server.app.inject({ method: 'POST', url: '/api/auth/exchange', payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const guest = await t.exchange('', 'guest');
    expect(guest.statusCode).toBe(400);
    expect(guest.json().message).toMatch(/bot check/);
  });
});
