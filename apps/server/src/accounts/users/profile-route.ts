import type { FastifyInstance } from 'fastify';
import {
  ApiPath,
  UsernameError,
  checkFullName,
  checkUsername,
  normalizeUsername,
  updateUserBodySchema,
  usernameErrorText,
  type UpdateUserResponse,
} from '@xtalk/protocol';
import { HttpError, parseOr400 } from '../../http-errors.js';
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
  app.patch(ApiPath.users, async (request): Promise<UpdateUserResponse> => {
    const { claims, user } = await deps.authenticator.fromRequest(request);
    if (user.provider === 'guest')
      throw new HttpError(403, 'Login to customize your username and profile.', 'login_required');
    const body = parseOr400(updateUserBodySchema, request.body);
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
