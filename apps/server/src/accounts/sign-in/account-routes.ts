import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  ApiPath,
  UsernameError,
  checkFullName,
  checkUsername,
  exchangeBodySchema,
  normalizeUsername,
  updateUserBodySchema,
  usernameErrorText,
  type AuthConfig,
  type ExchangeResponse,
  type HttpErrorCode,
  type UpdateUserResponse,
} from '@xtalk/protocol';
import { HttpError, parseOr400 } from '../../http-errors.js';
import type { Authenticator } from '../sessions/authenticate.js';
import { FLOW_COOKIE, FLOW_TTL_SECONDS, SignInError, type Oidc } from './oidc.js';
import type { PlayerLinks } from '../links/player-links.js';
import type { SignInStore } from '../sessions/sign-in-store.js';
import type { Tokens } from '../sessions/tokens.js';
import { UsernameTakenError, toUser, type UsersRepo } from '../users/users-repo.js';

export interface AccountRoutesDeps {
  /** Undefined when sign-in is not configured. */
  oidc: Oidc | undefined;
  /** Account mails go out by SMTP; without it they reach only the server log. */
  mailConfigured: boolean;
  /** The bot the web app's Telegram sign-in names; undefined when Telegram is not configured. */
  telegramBot: string | undefined;
  /** The chain the server's Sign-In with Ethereum messages name. */
  walletChainId: number;
  store: SignInStore;
  links: PlayerLinks;
  tokens: Tokens;
  users: UsersRepo;
  authenticator: Authenticator;
  publicUrl: string | undefined;
  codeTtlSeconds: number;
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
 * Signing in with Google (GET /auth/google/login, its callback, POST /api/auth/exchange), what the web app
 * needs to know about it (GET /api/auth/config) and the profile (PATCH /users). Spec sections 2, 5, 7, 8.
 */
export async function accountRoutes(app: FastifyInstance, deps: AccountRoutesDeps) {
  function baseUrl(request: FastifyRequest): string {
    if (deps.publicUrl) return deps.publicUrl.replace(/\/+$/, '');
    return `${request.protocol}://${request.host}`;
  }
  const secureCookies = (request: FastifyRequest) => baseUrl(request).startsWith('https:');

  // every provider the sign-in page may show; fields are only ever added (older clients read the first two)
  app.get(ApiPath.authConfig, async (request, reply): Promise<AuthConfig> => {
    reply.header('cache-control', 'no-store');
    return {
      google: deps.oidc !== undefined,
      mail: deps.mailConfigured,
      email: true,
      telegram: deps.telegramBot ? { bot: deps.telegramBot } : false,
      wallet: { chainId: deps.walletChainId, domain: new URL(baseUrl(request)).host },
    };
  });

  app.get(ApiPath.googleLogin, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!deps.oidc) return toErrorPage(reply, NOT_CONFIGURED, 'sign_in_unavailable');
    try {
      const { url, browserSecret } = await deps.oidc.start(`${baseUrl(request)}${ApiPath.googleCallback}`);
      reply.header(
        'set-cookie',
        `${FLOW_COOKIE}=${browserSecret}; Path=${CALLBACK_COOKIE_PATH}; Max-Age=${FLOW_TTL_SECONDS}; HttpOnly; SameSite=Lax${secureCookies(request) ? '; Secure' : ''}`,
      );
      return reply.redirect(url.href, 302);
    } catch (error) {
      // starting fails only when the identity provider cannot be reached
      if (error instanceof SignInError) return toErrorPage(reply, error.message, 'sign_in_unavailable');
      throw error;
    }
  });

  app.get(ApiPath.googleCallback, async (request, reply) => {
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
        `${FLOW_COOKIE}=; Path=${CALLBACK_COOKIE_PATH}; Max-Age=0; HttpOnly; SameSite=Lax${secureCookies(request) ? '; Secure' : ''}`,
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

  app.post(ApiPath.exchange, async (request, reply): Promise<ExchangeResponse> => {
    reply.header('cache-control', 'no-store');
    const body = parseOr400(exchangeBodySchema, request.body);
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
