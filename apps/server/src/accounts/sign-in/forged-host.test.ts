import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseSiweMessage } from 'viem/siwe';
import { ApiPath, MailPagePath, nonceResponseSchema, type PurchaseResponse } from '@xtalk/protocol';
import { startServer, type TestServer } from '../../testing/harness.js';
import { startMailbox, tokenOf, type Mailbox } from '../../testing/mailbox.js';
import { memberLogin } from '../../testing/members.js';
import { startOidcProvider, type TestOidcProvider } from '../../testing/oidc-provider.js';

/*
 * A request's Host builds nothing the server writes. With PUBLIC_URL at its development default
 * (http://localhost:PORT), a request that names an attacker's host, directly or as a proxy would, still
 * gets mails, a SIWE message, an OAuth redirect URI and checkout addresses that point at PUBLIC_URL, and
 * works as any other.
 */

const SECRET = 'forged-host-secret-long-enough-to-sign';

const PUBLIC = 'http://localhost:8787';
const FORGED = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

describe('links under a forged Host', () => {
  let mailbox: Mailbox;
  let provider: TestOidcProvider;
  let server: TestServer;

  beforeAll(async () => {
    mailbox = await startMailbox();
    provider = await startOidcProvider();
    server = await startServer({
      AUTH_SECRET: SECRET,
      SMTP_URL: mailbox.url,
      MAIL_FROM: 'XTalk <accounts@xtalk.test>',
      OIDC_ISSUER: provider.issuer,
      GOOGLE_CLIENT_ID: 'xtalk-test-client',
    });
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
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

  it("sends the identity provider PUBLIC_URL's callback, with a cookie for PUBLIC_URL's scheme", async () => {
    const login = await server.app.inject({ method: 'GET', url: ApiPath.googleLogin, headers: FORGED });
    expect(login.statusCode).toBe(302);
    const redirectUri = new URL(String(login.headers.location)).searchParams.get('redirect_uri');
    expect(redirectUri).toBe(`${PUBLIC}${ApiPath.googleCallback}`);
    expect(String(login.headers['set-cookie'])).not.toContain('Secure');
  });

  it('answers a purchase and its Pay with checkout and return addresses under PUBLIC_URL', async () => {
    const buyer = await memberLogin(server, SECRET, 'forged-host-buyer');
    const session = { authorization: `Bearer ${buyer.token}` };
    const started = await server.app.inject({
      method: 'POST',
      url: ApiPath.walletPurchase,
      headers: { ...session, ...FORGED },
      payload: { currency: 't_free', amount: 1000 },
    });
    const { orderId, checkoutURL } = started.json() as PurchaseResponse;
    expect(checkoutURL).toBe(`${PUBLIC}${ApiPath.testCheckout(orderId)}`);
    const paid = await server.app.inject({
      method: 'POST',
      url: ApiPath.testCheckoutPay(orderId),
      headers: { ...session, ...FORGED, 'content-type': 'application/x-www-form-urlencoded' },
      payload: '',
    });
    expect(paid.headers.location).toBe(`${PUBLIC}/checkout?status=success&orderId=${orderId}`);
  });
});
