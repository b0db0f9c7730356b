import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiPath,
  ApiSecurity,
  ApiTag,
  botcheckChallengeSchema,
  errorResponses,
  guestLoginBodySchema,
  guestLoginResponseSchema,
  userSchema,
} from '@xtalk/protocol';
import { HttpError } from '../../http-errors.js';
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
  const api = app.withTypeProvider<ZodTypeProvider>();
  const rooms = { tags: [ApiTag.rooms] };
  const botcheck = {
    summary: 'A bot-check challenge to solve before a guest login',
    response: { 200: botcheckChallengeSchema },
  };
  api.get(ApiPath.botcheck, { schema: { ...rooms, ...botcheck } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return deps.botCheck.challenge();
  });

  const guest = {
    summary: 'Enter as a guest with a solved bot check: a session token',
    body: guestLoginBodySchema,
    response: { 200: guestLoginResponseSchema, ...errorResponses(400, 503) },
  };
  api.post(ApiPath.guest, { schema: { ...rooms, ...guest } }, async (request) => {
    const { body } = request;
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

  const me = {
    tags: [ApiTag.accounts],
    summary: 'Who the bearer token signs in',
    security: ApiSecurity.bearer,
    response: { 200: userSchema, ...errorResponses(401) },
  };
  api.get(ApiPath.me, { schema: me }, async (request) => {
    const { claims, user } = await deps.authenticator.fromRequest(request);
    return toUser(user, claims);
  });
}
