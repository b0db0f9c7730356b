import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  PASSWORD_MIN_LENGTH,
  PlayerPath,
  emailLoginBodySchema,
  emailOnlyBodySchema,
  emailRegisterBodySchema,
  emailResetBodySchema,
  emailVerifyBodySchema,
  passwordChangeBodySchema,
  type MailSentResponse,
  type SignInResponse,
} from '@xtalk/protocol';
import { HttpError, parseOr400 as parseBody, type IssueCode } from '../../../http-errors.js';
import { TooManyAttemptsError } from '../attempt-limits.js';
import { MAIL_SENT_MESSAGE, type EmailAccounts } from './email-accounts.js';
import type { Sessions } from '../../sessions/sign-in-session.js';

/** A refused address or password gets its own code, so the form can say what to fix in its language. */
const accountIssue: IssueCode = (issue) => {
  const field = issue.path[0];
  if (field === 'email') return 'invalid_email';
  if (field !== 'password' && field !== 'newPassword') return undefined;
  if (issue.code === 'too_big') return 'password_too_long';
  // a chosen password (not one typed at sign-in, whose minimum is 1)
  if (issue.code === 'too_small' && Number(issue.minimum) === PASSWORD_MIN_LENGTH)
    return 'password_too_short';
  return undefined;
};
const parseOr400 = <T>(schema: Parameters<typeof parseBody<T>>[0], value: unknown): T =>
  parseBody(schema, value, accountIssue);

/** The email account routes: register, verify, forgot, resend and password change. */
export async function emailRoutes(
  app: FastifyInstance,
  deps: { emails: EmailAccounts; sessions: Sessions; publicUrl: string },
) {
  const sent: MailSentResponse = { ok: true, message: MAIL_SENT_MESSAGE };

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

  app.post(PlayerPath.emailRegister, async (request, reply): Promise<MailSentResponse> => {
    const body = parseOr400(emailRegisterBodySchema, request.body);
    const requester = await deps.sessions.caller(request);
    await limited(reply, () =>
      deps.emails.register(body.email, body.password, request.ip, deps.publicUrl, requester),
    );
    return reply.code(202).send(sent);
  });

  app.post(PlayerPath.emailVerify, async (request) => {
    const { token } = parseOr400(emailVerifyBodySchema, request.body);
    await deps.emails.verify(token);
    return { ok: true, message: 'Your email is confirmed. You can sign in with it now.' };
  });

  app.post(PlayerPath.emailResend, async (request, reply): Promise<MailSentResponse> => {
    const { email } = parseOr400(emailOnlyBodySchema, request.body);
    await limited(reply, () => deps.emails.resend(email, request.ip, deps.publicUrl));
    return reply.code(202).send(sent);
  });

  app.post(PlayerPath.emailForgot, async (request, reply): Promise<MailSentResponse> => {
    const { email } = parseOr400(emailOnlyBodySchema, request.body);
    await limited(reply, () => deps.emails.forgot(email, request.ip, deps.publicUrl));
    return reply.code(202).send(sent);
  });

  app.post(PlayerPath.emailReset, async (request) => {
    const body = parseOr400(emailResetBodySchema, request.body);
    await deps.emails.reset(body.token, body.newPassword);
    return { ok: true, message: 'Your password is changed. Sign in with the new one.' };
  });

  app.post(PlayerPath.emailLogin, async (request, reply): Promise<SignInResponse> => {
    reply.header('cache-control', 'no-store');
    const body = parseOr400(emailLoginBodySchema, request.body);
    const user = await limited(reply, () => deps.emails.login(body.email, body.password, request.ip));
    request.log.info({ user: user.id }, 'signed in with email');
    return deps.sessions.signIn(request, user);
  });

  app.put(PlayerPath.password, async (request, reply) => {
    const caller = await deps.sessions.callerSession(request);
    if (!caller) throw new HttpError(401, 'Not logged in: a bearer token is required.');
    const { user, claims } = caller;
    const body = parseOr400(passwordChangeBodySchema, request.body);
    await limited(reply, () =>
      deps.emails.changePassword(
        { user, sessionId: claims.sessionId },
        body.password,
        body.newPassword,
        request.ip,
      ),
    );
    request.log.info({ user: user.id }, 'password changed; the other sessions ended');
    return { ok: true, message: 'Your password is changed. You are signed out everywhere else.' };
  });
}
