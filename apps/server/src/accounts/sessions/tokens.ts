import { PROVIDERS, type Provider } from '@xtalk/protocol';
import type { Clock } from '../../clock.js';
import { hmacKey, signJwt, verifyJwt } from './jwt-hs256.js';

/** What a session token says. Username is not in it: names change, the id does not. */
export interface TokenClaims {
  userId: string;
  provider: Provider;
  platformPlayerId: string;
  /**
   * The sign-in session the token belongs to (its row in sign_in_sessions, sign-in-sessions.ts); absent
   * in tokens made before sessions were stored.
   */
  sessionId?: string;
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
  // one KeyObject, and node:crypto's synchronous HMAC: a socket's token check is on the connect path
  // (decision 0114); tokens are the ones jose's SignJWT made, checked as jwtVerify did
  const key = hmacKey(secret);
  return {
    async sign(claims) {
      const issuedAt = Math.floor(clock.now() / 1000);
      const expiresAt = issuedAt + ttlSeconds;
      const token = signJwt(key, {
        provider: claims.provider,
        ppid: claims.platformPlayerId,
        ...(claims.sessionId ? { sid: claims.sessionId } : {}),
        sub: claims.userId,
        iss: ISSUER,
        aud: AUDIENCE,
        iat: issuedAt,
        exp: expiresAt,
      });
      return { token, expiresAt };
    },
    async verify(token) {
      const verdict = verifyJwt(key, token, {
        issuer: ISSUER,
        audience: AUDIENCE,
        now: Math.floor(clock.now() / 1000),
      });
      if (!verdict.ok) {
        throw new InvalidTokenError(
          verdict.reason === 'expired' ? 'Token has expired.' : 'Token is invalid.',
          verdict.reason === 'expired',
        );
      }
      const payload = verdict.payload;
      const provider = payload.provider as Provider;
      if (
        typeof payload.sub !== 'string' ||
        !payload.sub ||
        !PROVIDERS.includes(provider) ||
        typeof payload.ppid !== 'string' ||
        (payload.sid !== undefined && (typeof payload.sid !== 'string' || !payload.sid)) ||
        !payload.exp
      ) {
        throw new InvalidTokenError('Token is missing claims.');
      }
      return {
        userId: payload.sub,
        provider,
        platformPlayerId: payload.ppid,
        ...(payload.sid ? { sessionId: payload.sid as string } : {}),
        expiresAt: payload.exp as number,
      };
    },
  };
}
