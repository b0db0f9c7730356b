import type { FastifyInstance } from 'fastify';
import { ApiPath, guestLoginBodySchema, type GuestLoginResponse } from '@xtalk/protocol';
import { HttpError, parseOr400 } from '../../http-errors.js';
import type { Authenticator } from '../sessions/authenticate.js';
import { BotCheckError, type BotCheck } from './botcheck.js';
import type { Tokens } from '../sessions/tokens.js';
import { toUser, type UsersRepo } from '../users/users-repo.js';

export interface AuthRoutesDeps {
  botCheck: BotCheck;
  tokens: Tokens;
  users: UsersRepo;
  authenticator: Authenticator;
}

export async function authRoutes(app: FastifyInstance, deps: AuthRoutesDeps) {
  app.get(ApiPath.botcheck, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return deps.botCheck.challenge();
  });

  app.post(ApiPath.guest, async (request): Promise<GuestLoginResponse> => {
    const body = parseOr400(guestLoginBodySchema, request.body);
    try {
      await deps.botCheck.verify(body.botcheck, request.ip);
    } catch (error) {
      if (error instanceof BotCheckError)
        throw new HttpError(
          error.statusCode,
          error.message,
          error.statusCode === 400 ? 'bot_check_failed' : undefined,
        );
      throw error;
    }
    const row = await deps.users.createGuest();
    const { token, expiresAt } = await deps.tokens.sign({
      userId: row.id,
      provider: row.provider,
      platformPlayerId: row.subject,
    });
    request.log.info({ user: row.id }, 'guest signed in');
    return { token, user: toUser(row, { expiresAt }), player: { id: row.id, platformPlayerID: row.subject } };
  });

  app.get(ApiPath.me, async (request) => {
    const { claims, user } = await deps.authenticator.fromRequest(request);
    return toUser(user, claims);
  });
}
