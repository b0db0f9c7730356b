import { createHmac } from 'node:crypto';
import { SignJWT, errors, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { hmacKey, signJwt, verifyJwt } from './jwt-hs256.js';
import { InvalidTokenError, createTokens } from './tokens.js';

/*
 * The synchronous HS256 check (decision 0114) against jose's jwtVerify with the options tokens.ts
 * used before: the same tokens accepted, the same refused, expiry told apart the same way.
 */

const SECRET = 'test-secret-that-is-long-enough-to-sign-tokens';
const NOW = 1_800_000_000; // seconds
const checks = { issuer: 'xtalk', audience: 'xtalk-session', now: NOW };
const key = hmacKey(SECRET);
const joseKey = new TextEncoder().encode(SECRET);

async function joseVerdict(token: string): Promise<'ok' | 'expired' | 'refused'> {
  try {
    await jwtVerify(token, joseKey, {
      issuer: 'xtalk',
      audience: 'xtalk-session',
      algorithms: ['HS256'],
      currentDate: new Date(NOW * 1000),
    });
    return 'ok';
  } catch (error) {
    return error instanceof errors.JWTExpired ? 'expired' : 'refused';
  }
}

function ourVerdict(token: string): 'ok' | 'expired' | 'refused' {
  const verdict = verifyJwt(key, token, checks);
  if (verdict.ok) return 'ok';
  return verdict.reason === 'expired' ? 'expired' : 'refused';
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const claims = {
  provider: 'guest',
  ppid: 'p1',
  sub: 'u1',
  iss: 'xtalk',
  aud: 'xtalk-session',
  iat: NOW - 10,
  exp: NOW + 3600,
};

/** A token with any header and payload, signed with the right key (what a forger cannot do). */
function signedRaw(header: unknown, payload: unknown): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', SECRET).update(input).digest('base64url')}`;
}

function flipLast(segment: string): string {
  const last = segment.at(-1) === 'A' ? 'B' : 'A';
  return segment.slice(0, -1) + last;
}

describe('HS256 tokens without WebCrypto', () => {
  it('makes the very tokens jose made', async () => {
    const ours = signJwt(key, claims);
    const jose = await new SignJWT({ provider: 'guest', ppid: 'p1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .setIssuer('xtalk')
      .setAudience('xtalk-session')
      .setIssuedAt(NOW - 10)
      .setExpirationTime(NOW + 3600)
      .sign(joseKey);
    expect(ours).toBe(jose);
  });

  it('accepts and refuses exactly what jose accepted and refused', async () => {
    const good = signJwt(key, claims);
    const [header, payload, signature] = good.split('.') as [string, string, string];
    const cases: Record<string, string> = {
      good,
      expired: signJwt(key, { ...claims, exp: NOW - 1 }),
      'expiring this second': signJwt(key, { ...claims, exp: NOW }),
      'other secret': signJwt(hmacKey(`${SECRET}-other`), claims),
      'tampered payload': `${header}.${b64({ ...claims, sub: 'u2' })}.${signature}`,
      'tampered signature': `${header}.${payload}.${flipLast(signature)}`,
      'no signature': `${header}.${payload}.`,
      'alg none': `${b64({ alg: 'none' })}.${payload}.`,
      'alg HS512 header': `${b64({ alg: 'HS512' })}.${payload}.${signature}`,
      'two parts': `${header}.${payload}`,
      'four parts': `${good}.x`,
      empty: '',
      garbage: 'not a token at all',
      'wrong issuer': signJwt(key, { ...claims, iss: 'someone' }),
      'wrong audience': signJwt(key, { ...claims, aud: 'other' }),
      'audience list with ours': signJwt(key, { ...claims, aud: ['other', 'xtalk-session'] }),
      'no issuer': signJwt(key, { ...claims, iss: undefined }),
      'no audience': signJwt(key, { ...claims, aud: undefined }),
      'no expiry': signJwt(key, { ...claims, exp: undefined }),
      'expiry as text': signJwt(key, { ...claims, exp: String(NOW + 3600) }),
      'iat as text': signJwt(key, { ...claims, iat: 'yesterday' }),
      'not before later': signJwt(key, { ...claims, nbf: NOW + 60 }),
      'not before now': signJwt(key, { ...claims, nbf: NOW }),
      'expired with wrong issuer': signJwt(key, { ...claims, exp: NOW - 5, iss: 'someone' }),
      'payload an array': signedRaw({ alg: 'HS256' }, [1, 2]),
      'payload a string': signedRaw({ alg: 'HS256' }, 'hello'),
      'header with an unknown crit': signedRaw({ alg: 'HS256', crit: ['exp2'], exp2: 1 }, claims),
      'header with typ': signedRaw({ alg: 'HS256', typ: 'JWT' }, claims),
    };
    for (const [name, token] of Object.entries(cases)) {
      expect({ name, verdict: ourVerdict(token) }).toEqual({ name, verdict: await joseVerdict(token) });
    }
  });

  it('refuses a signature spelled other than the one canonical base64url', () => {
    const [header, payload, signature] = signJwt(key, claims).split('.') as [string, string, string];
    expect(ourVerdict(`${header}.${payload}.${signature}=`)).toBe('refused');
    expect(ourVerdict(`${header}.${payload}.${signature.replace(/-/g, '+').replace(/_/g, '/')}`)).toBe(
      signature.includes('-') || signature.includes('_') ? 'refused' : 'ok',
    );
  });

  it('tells an expired token from an invalid one, through createTokens', async () => {
    let now = NOW * 1000;
    const tokens = createTokens(SECRET, 60, { now: () => now });
    const { token, expiresAt } = await tokens.sign({
      userId: 'u1',
      provider: 'guest',
      platformPlayerId: 'p1',
    });
    await expect(tokens.verify(token)).resolves.toEqual({
      userId: 'u1',
      provider: 'guest',
      platformPlayerId: 'p1',
      expiresAt,
    });
    now += 60_000;
    const expired = await tokens.verify(token).catch((error: unknown) => error);
    expect(expired).toBeInstanceOf(InvalidTokenError);
    expect(expired).toMatchObject({ message: 'Token has expired.', expired: true });
    const [header, , signature] = token.split('.');
    const forged = `${header}.${b64({ ...claims, provider: 'telegram' })}.${signature}`;
    await expect(tokens.verify(forged)).rejects.toMatchObject({
      message: 'Token is invalid.',
      expired: false,
    });
    const missing = signJwt(hmacKey(SECRET), { ...claims, iat: NOW, exp: NOW + 600, ppid: undefined });
    now = NOW * 1000;
    await expect(tokens.verify(missing)).rejects.toMatchObject({ message: 'Token is missing claims.' });
  });
});
