import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../http-errors.js';
import { InvalidTokenError, type TokenClaims, type Tokens } from './tokens.js';
import type { UserRow, UsersRepo } from '../users/users-repo.js';

export interface Authenticated {
  claims: TokenClaims;
  user: UserRow;
}

/**
 * Checked claims with their user, read by the caller (the socket upgrade reads it beside the session),
 * who must still exist.
 */
export function authenticatedAs(claims: TokenClaims, user: UserRow | undefined): Authenticated {
  if (!user) throw new HttpError(401, 'The user of this token no longer exists.');
  return { claims, user };
}

/** The token of an `Authorization: Bearer …` header, if there is one. */
export function bearerTokenOf(request: Pick<FastifyRequest, 'headers'>): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
}

/**
 * Resolves a bearer token to its user, or throws a 401 that says why. Used by HTTP routes (header) and
 * the WebSocket upgrade (query parameter `t`, since browsers cannot set headers on a WebSocket).
 */
export function createAuthenticator(tokens: Tokens, users: UsersRepo) {
  /** A token's claims, checked without the database (a bad token never costs a query). */
  async function claimsOf(token: string | undefined): Promise<TokenClaims> {
    if (!token) throw new HttpError(401, 'Not logged in: a bearer token is required.');
    try {
      return await tokens.verify(token);
    } catch (error) {
      throw new HttpError(401, error instanceof InvalidTokenError ? error.message : 'Token is invalid.');
    }
  }
  /** The user of checked claims; undefined when their session ended, or the user is gone or merged. */
  const userOf = (claims: TokenClaims): Promise<UserRow | undefined> =>
    users.findSignedIn(claims.userId, claims.sessionId);
  async function fromToken(token: string | undefined): Promise<Authenticated> {
    const claims = await claimsOf(token);
    return authenticatedAs(claims, await userOf(claims));
  }
  // one look-up per request: the route's hook and its handler ask alike
  const asked = new WeakMap<FastifyRequest, Promise<Authenticated>>();
  function fromRequest(request: FastifyRequest): Promise<Authenticated> {
    let found = asked.get(request);
    if (!found) {
      found = fromToken(bearerTokenOf(request));
      asked.set(request, found);
    }
    return found;
  }
  return {
    claimsOf,
    userOf,
    fromToken,
    fromRequest,
    /**
     * A route's hook: the token is checked before the request's schema, so a caller who is not signed in
     * is told that first, and learns nothing of the body's rules.
     */
    signedInFirst: {
      preValidation: async (request: FastifyRequest): Promise<void> => {
        await fromRequest(request);
      },
    },
  };
}
export type Authenticator = ReturnType<typeof createAuthenticator>;
