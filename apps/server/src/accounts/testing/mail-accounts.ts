import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startServer, type TestServer } from '../../testing/harness.js';
import { startMailbox, tokenOf, type Mailbox } from '../../testing/mailbox.js';

/**
 * A server with mail for the email-account tests, against a real SMTP server started here; one per test
 * file. `offsetMs` moves the server's clock; each test has its own client address (`ip`), so per-IP
 * counters of one test do not spill into the next.
 */
export function useEmailServer() {
  let ipCounter = 0;
  const env = {
    mailbox: undefined as unknown as Mailbox,
    server: undefined as unknown as TestServer,
    offsetMs: 0,
    ip: '10.0.0.1',
  };
  const post = (url: string, payload: object, token?: string, from = env.ip) =>
    env.server.app.inject({
      method: 'POST',
      url,
      payload,
      remoteAddress: from,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });
  async function registerAndVerify(email: string, password: string, token?: string) {
    const registered = await post('/api/auth/email/register', { email, password }, token);
    expect(registered.statusCode, registered.body).toBe(202);
    const mail = await env.mailbox.next();
    expect(mail.to).toBe(email.toLowerCase());
    const verified = await post('/api/auth/email/verify', { token: tokenOf(mail) });
    expect(verified.statusCode, verified.body).toBe(200);
  }
  const login = (email: string, password: string, token?: string) =>
    post('/api/auth/email/login', { email, password }, token);
  const clock = { now: () => Date.now() + env.offsetMs };

  beforeAll(async () => {
    env.mailbox = await startMailbox();
    env.server = await startServer(
      {
        SMTP_URL: env.mailbox.url,
        MAIL_FROM: 'XTalk <accounts@xtalk.test>',
        PUBLIC_URL: 'http://xtalk.test',
        ADMIN_API_KEY: 'admin-key-for-the-email-tests',
      },
      { clock },
    );
  });
  afterAll(async () => {
    await env.server?.close();
    await env.mailbox?.close();
  });
  beforeEach(() => {
    env.offsetMs = 0;
    env.ip = `10.0.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;
  });
  return Object.assign(env, { post, registerAndVerify, login });
}
