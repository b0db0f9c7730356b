import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseSiweMessage } from 'viem/siwe';
import { MailPagePath, nonceResponseSchema } from '@xtalk/protocol';
import { startServer, type TestServer } from '../../test/harness.js';
import { startMailbox, tokenOf, type Mailbox } from '../../test/mailbox.js';

/*
 * A request's Host builds nothing the server writes. With PUBLIC_URL at its development default
 * (http://localhost:PORT), a request that names an attacker's host, directly or as a proxy would, still
 * gets mails, a SIWE message and a sign-in page that point at PUBLIC_URL, and works as any other.
 */

const PUBLIC = 'http://localhost:8787';
const FORGED = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

describe('links under a forged Host', () => {
  let mailbox: Mailbox;
  let server: TestServer;

  beforeAll(async () => {
    mailbox = await startMailbox();
    server = await startServer({ SMTP_URL: mailbox.url, MAIL_FROM: 'XTalk <accounts@xtalk.test>' });
  });
  afterAll(async () => {
    await server?.close();
    await mailbox?.close();
  });

  const post = (url: string, payload: object) =>
    server.app.inject({ method: 'POST', url, payload, headers: FORGED });

  it('mails confirmation and reset links under PUBLIC_URL', async () => {
    const email = 'forged-host@example.com';
    expect((await post('/api/auth/email/register', { email, password: 'a-good-password' })).statusCode).toBe(
      202,
    );
    const confirmation = await mailbox.next();
    expect(confirmation.text).toContain(`${PUBLIC}${MailPagePath.verify}?token=`);
    expect(confirmation.text).not.toContain('evil.example');
    expect((await post('/api/auth/email/verify', { token: tokenOf(confirmation) })).statusCode).toBe(200);

    expect((await post('/api/auth/email/forgot', { email })).statusCode).toBe(202);
    const reset = await mailbox.next();
    expect(reset.to).toBe(email);
    expect(reset.text).toContain(`${PUBLIC}${MailPagePath.reset}?token=${tokenOf(reset)}`);
    expect(reset.text).not.toContain('evil.example');
  });

  it("writes the SIWE message and the sign-in page's wallet domain for PUBLIC_URL's host", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const nonce = await server.app.inject({
      method: 'GET',
      url: `/api/auth/nonce/${wallet.address}`,
      headers: FORGED,
    });
    expect(nonce.statusCode, nonce.body).toBe(200);
    const message = parseSiweMessage(nonceResponseSchema.parse(nonce.json()).message!);
    expect(message).toMatchObject({ domain: 'localhost:8787', uri: `${PUBLIC}/login` });
    const config = await server.app.inject({ method: 'GET', url: '/api/auth/config', headers: FORGED });
    expect(config.json().wallet).toEqual({ chainId: 1, domain: 'localhost:8787' });
  });
});
