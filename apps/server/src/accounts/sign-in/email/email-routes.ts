import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiSecurity,
  ApiTag,
  PASSWORD_MIN_LENGTH,
  PlayerPath,
  emailLoginBodySchema,
  emailOnlyBodySchema,
  emailRegisterBodySchema,
  emailResetBodySchema,
  emailVerifyBodySchema,
  errorResponses,
  mailSentResponseSchema,
  passwordChangeBodySchema,
  signInResponseSchema,
  type MailSentResponse,
} from '@xtalk/protocol';
import { z } from 'zod';
import { HttpError, type IssueCode } from '../../../http-errors.js';
import { TooManyAttemptsError } from '../attempt-limits.js';
import { MAIL_SENT_MESSAGE, type EmailAccounts } from './email-accounts.js';
import type { Sessions } from '../../sessions/sign-in-session.js';

/** A refused address or password gets its own code, so the form can say what to fix in its language. */
const accountIssue: IssueCode = (refusal) => {
  const field = refusal.path[0];
  if (field === 'email') return 'invalid_email';
  if (field !== 'password' && field !== 'newPassword') return undefined;
  if (refusal.issueCode === 'too_big') return 'password_too_long';
  // a chosen password (not one typed at sign-in, whose minimum is 1)
  if (refusal.issueCode === 'too_small' && Number(refusal.params.minimum) === PASSWORD_MIN_LENGTH)
    return 'password_too_short';
  return undefined;
};

/** The answer of a step that mails nothing: it says what happened. */
const doneSchema = z.object({ ok: z.literal(true), message: z.string() });

type EmailRouteDeps = { emails: EmailAccounts; sessions: Sessions; publicUrl: string };

const sent: MailSentResponse = { ok: true, message: MAIL_SENT_MESSAGE };
const config = { issueCode: accountIssue };
const about = { tags: [ApiTag.accounts] };

/** Runs `work`, turning a used-up attempt counter into 429 with Retry-After. */
async function limited<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof TooManyAttemptsError)) throw error;
    reply.header('retry-after', String(error.retryAfterSeconds));
    throw error;
  }
}

/** The email account routes: register, verify, forgot, resend, reset, sign-in and password change. */
export async function emailRoutes(app: FastifyInstance, deps: EmailRouteDeps) {
  mailedLinkRoutes(app, deps);
  passwordRoutes(app, deps);
}

/** The steps that mail a link, and the ones that redeem it. */
function mailedLinkRoutes(app: FastifyInstance, deps: EmailRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const mailed = { 202: mailSentResponseSchema, ...errorResponses(400, 429) };

  const register = {
    summary: 'Register with an email and a password: a link is mailed',
    body: emailRegisterBodySchema,
  };
  api.post(
    PlayerPath.emailRegister,
    { config, schema: { ...about, ...register, response: mailed } },
    async (request, reply) => {
      const { body } = request;
      const requester = await deps.sessions.caller(request);
      await limited(reply, () =>
        deps.emails.register(body.email, body.password, request.ip, deps.publicUrl, requester),
      );
      return reply.code(202).send(sent);
    },
  );

  const verify = {
    summary: "Confirm an address with its mailed link's token",
    body: emailVerifyBodySchema,
    response: { 200: doneSchema, ...errorResponses(400) },
  };
  api.post(PlayerPath.emailVerify, { config, schema: { ...about, ...verify } }, async (request) => {
    await deps.emails.verify(request.body.token);
    return { ok: true as const, message: 'Your email is confirmed. You can sign in with it now.' };
  });

  const resend = { summary: 'Mail the confirmation link again', body: emailOnlyBodySchema };
  api.post(
    PlayerPath.emailResend,
    { config, schema: { ...about, ...resend, response: mailed } },
    async (request, reply) => {
      await limited(reply, () => deps.emails.resend(request.body.email, request.ip, deps.publicUrl));
      return reply.code(202).send(sent);
    },
  );

  const forgot = { summary: 'Mail a link to choose a new password', body: emailOnlyBodySchema };
  api.post(
    PlayerPath.emailForgot,
    { config, schema: { ...about, ...forgot, response: mailed } },
    async (request, reply) => {
      await limited(reply, () => deps.emails.forgot(request.body.email, request.ip, deps.publicUrl));
      return reply.code(202).send(sent);
    },
  );

  const reset = {
    summary: "Choose a new password with the mailed link's token",
    body: emailResetBodySchema,
    response: { 200: doneSchema, ...errorResponses(400) },
  };
  api.post(PlayerPath.emailReset, { config, schema: { ...about, ...reset } }, async (request) => {
    await deps.emails.reset(request.body.token, request.body.newPassword);
    return { ok: true as const, message: 'Your password is changed. Sign in with the new one.' };
  });
}

/** Signing in with the password, and changing it. */
function passwordRoutes(app: FastifyInstance, deps: EmailRouteDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  const login = {
    summary: 'Sign in with an email and a password',
    body: emailLoginBodySchema,
    response: { 200: signInResponseSchema, ...errorResponses(400, 401, 429) },
  };
  api.post(PlayerPath.emailLogin, { config, schema: { ...about, ...login } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { body } = request;
    const user = await limited(reply, () => deps.emails.login(body.email, body.password, request.ip));
    request.log.info({ user: user.id }, 'signed in with email');
    return deps.sessions.signIn(request, user);
  });

  /** Who changes a password is known before the body is read: a stranger learns nothing of its rules. */
  async function callerOf(request: FastifyRequest) {
    const caller = await deps.sessions.callerSession(request);
    if (!caller) throw new HttpError(401, 'Not logged in: a bearer token is required.');
    return caller;
  }
  const password = {
    summary: 'Change the password; every other session ends',
    security: ApiSecurity.bearer,
    body: passwordChangeBodySchema,
    response: { 200: doneSchema, ...errorResponses(400, 401, 429) },
  };
  const signedInFirst = { preValidation: async (request: FastifyRequest) => void (await callerOf(request)) };
  api.put(
    PlayerPath.password,
    { config, ...signedInFirst, schema: { ...about, ...password } },
    async (request, reply) => {
      const { user, claims } = await callerOf(request);
      const { body } = request;
      await limited(reply, () =>
        deps.emails.changePassword(
          { user, sessionId: claims.sessionId },
          body.password,
          body.newPassword,
          request.ip,
        ),
      );
      request.log.info({ user: user.id }, 'password changed; the other sessions ended');
      return { ok: true as const, message: 'Your password is changed. You are signed out everywhere else.' };
    },
  );
}
