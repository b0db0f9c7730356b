import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiPath, ApiTag, type HttpErrorCode } from '@xtalk/protocol';
import { z } from 'zod';
import type { SignInStore } from '../sessions/sign-in-store.js';
import type { UsersRepo } from '../users/users-repo.js';
import { FLOW_COOKIE, FLOW_TTL_SECONDS, SignInError, type Oidc } from './oidc.js';

export interface GoogleRoutesDeps {
  /** Undefined when sign-in is not configured. */
  oidc: Oidc | undefined;
  store: SignInStore;
  users: UsersRepo;
  /** PUBLIC_URL: the callback the identity provider sends the browser back to is under it. */
  publicUrl: string;
  codeTtlSeconds: number;
}

const CALLBACK_COOKIE_PATH = '/auth/google';
const NOT_CONFIGURED = 'Sign-in with Google is not configured on this server.';

function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}

/** Sends the browser to the web app's error page: the code it words in its language, the English message. */
function toErrorPage(reply: FastifyReply, message: string, code: HttpErrorCode) {
  return reply.redirect(`/error?message=${encodeURIComponent(message)}&code=${code}`, 302);
}

/**
 * Signing in with Google: GET /auth/google/login sends the browser to the identity provider, its callback
 * signs the person in and hands the web app a one-time code (redeemed by POST /api/auth/exchange).
 */
export async function googleRoutes(app: FastifyInstance, deps: GoogleRoutesDeps) {
  const secure = deps.publicUrl.startsWith('https:') ? '; Secure' : '';

  // pages a browser is sent to, not calls: each answers with a redirect
  const redirect = (to: string) => z.null().describe(to);
  const login = {
    tags: [ApiTag.accounts],
    summary: 'Start signing in with Google (a browser is sent here)',
    response: { 302: redirect('To the identity provider, or to the error page.') },
  };
  app.get(ApiPath.googleLogin, { schema: login }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!deps.oidc) return toErrorPage(reply, NOT_CONFIGURED, 'sign_in_unavailable');
    try {
      const callback = `${deps.publicUrl}${ApiPath.googleCallback}`;
      const { url, browserSecret } = await deps.oidc.start(callback);
      reply.header(
        'set-cookie',
        `${FLOW_COOKIE}=${browserSecret}; Path=${CALLBACK_COOKIE_PATH}; Max-Age=${FLOW_TTL_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
      );
      return reply.redirect(url.href, 302);
    } catch (error) {
      // starting fails only when the identity provider cannot be reached
      if (error instanceof SignInError) return toErrorPage(reply, error.message, 'sign_in_unavailable');
      throw error;
    }
  });

  const callback = {
    tags: [ApiTag.accounts],
    summary: "Google's way back: the web app gets a one-time code for POST /api/auth/exchange",
    response: { 302: redirect('To the web app with a one-time code, or to the error page.') },
  };
  app.get(ApiPath.googleCallback, { schema: callback }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!deps.oidc) return toErrorPage(reply, NOT_CONFIGURED, 'sign_in_unavailable');
    try {
      const identity = await deps.oidc.finish(
        new URL(request.url, 'http://callback.invalid'),
        readCookie(request, FLOW_COOKIE),
      );
      const user = await deps.users.findOrCreateOidcUser(identity);
      const code = await deps.store.issueCode(user.id, deps.codeTtlSeconds);
      request.log.info({ user: user.id }, 'signed in with OIDC');
      // The flow cookie has done its job. (A refused callback leaves it: a forged one must not be able to
      // break the sign-in the person really has in progress; it expires with the flow anyway.)
      reply.header(
        'set-cookie',
        `${FLOW_COOKIE}=; Path=${CALLBACK_COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secure}`,
      );
      // The browser carries a one-time code, never the session token, in the URL.
      return reply.redirect(`/auth/${encodeURIComponent(code)}?provider=ggl`, 302);
    } catch (error) {
      if (error instanceof SignInError) {
        request.log.info({ reason: error.message }, 'sign-in refused');
        return toErrorPage(reply, error.message, 'sign_in_failed');
      }
      throw error;
    }
  });
}
