import { jwtVerify, errors } from 'jose';
import type { AuthenticatorPort, UsersPort } from '../ports.js';
import { refusal } from '../errors.js';

/*
 * Who a standalone service's caller is. Players sign in elsewhere: the service accepts the session tokens
 * XTalk's server issues (HS256 with the shared AUTH_SECRET, issuer `xtalk`, audience `xtalk-session`),
 * so a web app signed in to XTalk pays here with the same token. Players are the other servers' to
 * vouch for: a server call with the server key may name any player id.
 */

const ISSUER = 'xtalk';
const AUDIENCE = 'xtalk-session';

export function sessionTokenAuthenticator(authSecret: string): AuthenticatorPort {
  const key = new TextEncoder().encode(authSecret);
  async function fromToken(token: string) {
    let payload;
    try {
      ({ payload } = await jwtVerify(token, key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      }));
    } catch (error) {
      throw refusal(401, error instanceof errors.JWTExpired ? 'Token has expired.' : 'Token is invalid.');
    }
    if (typeof payload.sub !== 'string' || !payload.sub) throw refusal(401, 'Token is missing claims.');
    return { id: payload.sub, guest: payload.provider === 'guest' };
  }
  return {
    fromToken,
    async fromRequest(request) {
      const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
      if (!token) throw refusal(401, 'Not logged in: a bearer token is required.');
      return fromToken(token);
    },
  };
}

/** Every player id a server names exists: the server key vouches for it. */
export const anyPlayer: UsersPort = { exists: async (userId) => userId !== '' };
