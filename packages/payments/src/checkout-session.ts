import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiPath } from '@xtalk/protocol';

/*
 * Who may press Pay or Cancel on a TEST MODE order: its owner, by their session. The checkout window is a
 * plain page the web app opens, which cannot send the bearer header; so the purchase call, which carries
 * the session, leaves its token in a cookie that only the test checkout's paths receive (HttpOnly,
 * SameSite=Strict, for as long as a checkout takes). A client that posts the forms itself (an app, a
 * test) sends the bearer header instead. Either way the token is checked like any other session's.
 */

const COOKIE = 'xtalk_checkout';
/** The test checkout's paths, and nothing else of the server's. */
const COOKIE_PATH = ApiPath.testCheckout('').replace(/\/$/, '');
const COOKIE_MAX_AGE_SECONDS = 3600;

const bearerOf = (request: FastifyRequest) =>
  /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];

/** Hands the purchase's session on to the checkout window (publicUrl: whether the cookie is Secure). */
export function rememberCheckoutSession(request: FastifyRequest, reply: FastifyReply, publicUrl: string) {
  const token = bearerOf(request);
  if (!token) return;
  const secure = publicUrl.startsWith('https:') ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${COOKIE}=${token}; Path=${COOKIE_PATH}; Max-Age=${COOKIE_MAX_AGE_SECONDS}; HttpOnly; SameSite=Strict${secure}`,
  );
}

/** The session token a Pay or Cancel carries: the bearer header's, else the checkout cookie's. */
export function checkoutSessionToken(request: FastifyRequest): string | undefined {
  const bearer = bearerOf(request);
  if (bearer) return bearer;
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE && value.length > 0) return value.join('=');
  }
  return undefined;
}
