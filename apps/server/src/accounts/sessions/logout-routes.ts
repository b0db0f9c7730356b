import type { FastifyInstance } from 'fastify';
import { ApiPath, type SignedOutResponse } from '@xtalk/protocol';
import type { Authenticator } from './authenticate.js';
import type { SignInSessions } from './sign-in-sessions.js';

/*
 * Sign-out on the server. Who may call: the bearer of a live token, for their own sessions only (the
 * token says whose); an ended, forged or missing token is a 401 and ends nothing.
 */
export async function logoutRoutes(
  app: FastifyInstance,
  deps: { authenticator: Authenticator; sessions: SignInSessions },
) {
  app.post(ApiPath.logout, async (request, reply): Promise<SignedOutResponse> => {
    reply.header('cache-control', 'no-store');
    const { claims, user } = await deps.authenticator.fromRequest(request);
    await deps.sessions.end(claims);
    request.log.info({ user: user.id }, 'signed out');
    return { ok: true, message: 'You are signed out.' };
  });

  app.post(ApiPath.logoutAll, async (request, reply): Promise<SignedOutResponse> => {
    reply.header('cache-control', 'no-store');
    const { user } = await deps.authenticator.fromRequest(request);
    await deps.sessions.endAll(user.id);
    request.log.info({ user: user.id }, 'signed out everywhere');
    return { ok: true, message: 'You are signed out everywhere.' };
  });
}
