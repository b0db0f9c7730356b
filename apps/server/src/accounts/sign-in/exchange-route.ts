import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiPath, ApiTag, errorResponses, exchangeBodySchema, exchangeResponseSchema } from '@xtalk/protocol';
import { HttpError } from '../../http-errors.js';
import type { PlayerLinks } from '../links/player-links.js';
import type { Authenticator } from '../sessions/authenticate.js';
import type { SignInStore } from '../sessions/sign-in-store.js';
import type { Tokens } from '../sessions/tokens.js';
import { toUser, type UsersRepo } from '../users/users-repo.js';

export interface ExchangeRouteDeps {
  store: SignInStore;
  links: PlayerLinks;
  tokens: Tokens;
  users: UsersRepo;
  authenticator: Authenticator;
}

/** A one-time sign-in code for a session token: POST /api/auth/exchange. */
export async function exchangeRoute(app: FastifyInstance, deps: ExchangeRouteDeps) {
  /** A guest signing in sends their guest token along and keeps their player (history, username). */
  async function carryOverGuest(request: FastifyRequest, accountId: string): Promise<void> {
    if (!request.headers.authorization) return;
    const guest = await deps.authenticator.fromRequest(request).then(
      ({ user }) => user,
      () => undefined,
    );
    if (guest?.provider !== 'guest' || guest.id === accountId) return;
    await deps.links.absorb(guest.id, accountId);
    request.log.info({ user: accountId, guestId: guest.id }, 'guest carried into the account');
  }

  const schema = {
    tags: [ApiTag.accounts],
    summary: 'A one-time sign-in code for a session token',
    body: exchangeBodySchema,
    response: { 200: exchangeResponseSchema, ...errorResponses(400) },
  };
  app.withTypeProvider<ZodTypeProvider>().post(ApiPath.exchange, { schema }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { body } = request;
    if (body.provider === 'guest') {
      throw new HttpError(400, 'Guests enter through the bot check at /guest-login.');
    }
    const userId = body.token ? await deps.store.redeemCode(body.token) : undefined;
    if (userId) await carryOverGuest(request, userId);
    const row = userId ? await deps.users.findById(userId) : undefined;
    if (!row)
      throw new HttpError(
        400,
        'This sign-in link is invalid, expired or already used; please sign in again.',
        'invalid_link',
      );
    const { token, expiresAt } = await deps.tokens.sign({
      userId: row.id,
      provider: row.provider,
      platformPlayerId: row.subject,
    });
    return { token, user: toUser(row, { expiresAt }) };
  });
}
