import { SignJWT, errors, jwtVerify } from 'jose';
import { PROVIDERS, type Provider } from '@xtalk/protocol';
import type { Clock } from '../clock.js';

/** What a session token says. Username is not in it: names change, the id does not. */
export interface TokenClaims {
  userId: string;
  provider: Provider;
  platformPlayerId: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

const ISSUER = 'xtalk';
const AUDIENCE = 'xtalk-session';

export class InvalidTokenError extends Error {
  constructor(
    message: string,
    readonly expired = false,
  ) {
    super(message);
  }
}

export interface Tokens {
  sign(claims: Omit<TokenClaims, 'expiresAt'>): Promise<{ token: string; expiresAt: number }>;
  verify(token: string): Promise<TokenClaims>;
}

export function createTokens(secret: string, ttlSeconds: number, clock: Clock): Tokens {
  // imported once: given raw bytes, jose imports the key again on every sign and verify (a socket's
  // token check is on the join path; issue 13)
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  return {
    async sign(claims) {
      const issuedAt = Math.floor(clock.now() / 1000);
      const expiresAt = issuedAt + ttlSeconds;
      const token = await new SignJWT({ provider: claims.provider, ppid: claims.platformPlayerId })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.userId)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(await key);
      return { token, expiresAt };
    },
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, await key, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
          currentDate: new Date(clock.now()),
        });
        const provider = payload.provider as Provider;
        if (
          !payload.sub ||
          !PROVIDERS.includes(provider) ||
          typeof payload.ppid !== 'string' ||
          !payload.exp
        ) {
          throw new InvalidTokenError('Token is missing claims.');
        }
        return { userId: payload.sub, provider, platformPlayerId: payload.ppid, expiresAt: payload.exp };
      } catch (error) {
        if (error instanceof InvalidTokenError) throw error;
        if (error instanceof errors.JWTExpired) throw new InvalidTokenError('Token has expired.', true);
        throw new InvalidTokenError('Token is invalid.');
      }
    },
  };
}
