import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiPath, ApiSecurity, ApiTag, errorResponses, signedOutResponseSchema } from '@xtalk/protocol';
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
  const api = app.withTypeProvider<ZodTypeProvider>();
  const about = {
    tags: [ApiTag.accounts],
    security: ApiSecurity.bearer,
    response: { 200: signedOutResponseSchema, ...errorResponses(401) },
  };
  const one = { summary: "End the bearer token's session" };
  api.post(ApiPath.logout, { schema: { ...about, ...one } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { claims, user } = await deps.authenticator.fromRequest(request);
    await deps.sessions.end(claims);
    request.log.info({ user: user.id }, 'signed out');
    return { ok: true as const, message: 'You are signed out.' };
  });

  const all = { summary: "End every session of the bearer's player" };
  api.post(ApiPath.logoutAll, { schema: { ...about, ...all } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { user } = await deps.authenticator.fromRequest(request);
    await deps.sessions.endAll(user.id);
    request.log.info({ user: user.id }, 'signed out everywhere');
    return { ok: true as const, message: 'You are signed out everywhere.' };
  });
}
