import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiPath,
  ApiSecurity,
  ApiTag,
  errorResponses,
  updateUserResponseSchema,
  UsernameError,
  checkFullName,
  checkUsername,
  normalizeUsername,
  updateUserBodySchema,
  usernameErrorText,
} from '@xtalk/protocol';
import { HttpError } from '../../http-errors.js';
import type { Authenticator } from '../sessions/authenticate.js';
import { UsernameTakenError, toUser, type UsersRepo } from './users-repo.js';

export interface ProfileRouteDeps {
  users: UsersRepo;
  authenticator: Authenticator;
}

/** A refused username: 400 (409 when taken) with the rule's code, so the form can say it in its language. */
class UsernameRefused extends HttpError {
  constructor(
    statusCode: number,
    message: string,
    override readonly code: string,
  ) {
    super(statusCode, message);
  }
}

/** A member's username and full name: PATCH /users. */
export async function profileRoute(app: FastifyInstance, deps: ProfileRouteDeps) {
  /** A guest is told to sign in before the body is read: it learns nothing of the rules. */
  async function memberOf(request: Parameters<Authenticator['fromRequest']>[0]) {
    const found = await deps.authenticator.fromRequest(request);
    if (found.user.provider === 'guest')
      throw new HttpError(403, 'Login to customize your username and profile.', 'login_required');
    return found;
  }
  const schema = {
    tags: [ApiTag.accounts],
    summary: "Change the signed-in player's username and full name",
    security: ApiSecurity.bearer,
    body: updateUserBodySchema,
    response: { 200: updateUserResponseSchema, ...errorResponses(400, 401, 403, 409) },
  };
  const memberFirst = {
    preValidation: async (request: Parameters<typeof memberOf>[0]) => void (await memberOf(request)),
  };
  const api = app.withTypeProvider<ZodTypeProvider>();
  api.patch(ApiPath.users, { ...memberFirst, schema }, async (request) => {
    const { claims, user } = await memberOf(request);
    const { body } = request;
    const username = normalizeUsername(body.name);
    let fullName: string | undefined;
    if (body.fullName !== undefined) {
      const checked = checkFullName(body.fullName);
      if (!checked.ok) throw new HttpError(400, checked.message);
      fullName = checked.value;
    }
    // An unchanged username needs no rules (it may predate them); a new one must pass all of them.
    const renamed = username !== user.username;
    const taken = () =>
      new UsernameRefused(409, usernameErrorText.ErrUsernameAlreadyTaken, UsernameError.AlreadyTaken);
    if (renamed) {
      const problem = checkUsername(username);
      if (problem) throw new UsernameRefused(400, problem.message, problem.code);
      if (await deps.users.isUsernameTaken(username, user.id)) throw taken();
    }
    try {
      const updated = await deps.users.updateProfile(user.id, {
        username,
        ...(fullName !== undefined ? { fullName } : {}),
      });
      if (renamed) request.log.info({ user: user.id }, 'username changed');
      return { user: toUser(updated, claims) };
    } catch (error) {
      // two people racing for one name: the unique index decides
      if (error instanceof UsernameTakenError) throw taken();
      throw error;
    }
  });

  // Refused usernames carry their rule's code next to Fastify's usual error body.
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof UsernameRefused)) throw error; // everything else as Fastify answers it
    return reply.code(error.statusCode).send({
      statusCode: error.statusCode,
      error: error.statusCode === 409 ? 'Conflict' : 'Bad Request',
      message: error.message,
      code: error.code,
    });
  });
}
