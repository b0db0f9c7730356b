import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { parseSiweMessage } from 'viem/siwe';
import { authConfigSchema, nonceResponseSchema, signInResponseSchema } from '@xtalk/protocol';
import { loadConfig } from '../../config.js';
import { startServer, type TestServer } from '../../testing/harness.js';

/*
 * GET /api/auth/config names every sign-in provider the page may show, additively (the first two fields
 * as before), with nothing configured and with everything; the nonce route writes the SIWE message the
 * web app shows and the wallet signs, and that message signs in a player named after the address.
 */

const config = (server: TestServer, host = 'xtalk.local:8803') =>
  server.app.inject({ method: 'GET', url: '/api/auth/config', headers: { host } });

describe('sign-in configuration with nothing optional configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  }, 60_000);
  afterAll(() => server?.close());

  it("offers email and wallets on chain 1 of PUBLIC_URL's host (not the host asked), and no Google, mail or Telegram", async () => {
    const response = await config(server);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      google: false,
      mail: false,
      email: true,
      telegram: false,
      // the development default, http://localhost:PORT: never the Host a request names
      wallet: { chainId: 1, domain: 'localhost:8787' },
    });
    expect(authConfigSchema.parse(response.json())).toBeTruthy();
  });
});

describe('sign-in configuration with every provider configured', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      PUBLIC_URL: 'https://xtalk.example/',
      GOOGLE_CLIENT_ID: 'xtalk-test-client',
      OIDC_ISSUER: 'http://127.0.0.1:9/unreachable',
      SMTP_URL: 'smtp://127.0.0.1:9',
      TELEGRAM_BOT_TOKEN: '123456:TEST-token',
      TELEGRAM_BOT_NAME: '@xtalk_test_bot',
      WALLET_CHAIN_ID: '137',
    });
  }, 60_000);
  afterAll(() => server?.close());

  it('names the Telegram bot (without @), the wallet chain and PUBLIC_URL as the domain', async () => {
    expect((await config(server)).json()).toEqual({
      google: true,
      mail: true,
      email: true,
      telegram: { bot: 'xtalk_test_bot' },
      wallet: { chainId: 137, domain: 'xtalk.example' },
    });
  });

  it('writes the SIWE message for the address: checksummed, our domain and chain; signed, it signs in', async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const asked = await server.app.inject({
      method: 'GET',
      url: `/api/auth/nonce/${wallet.address.toLowerCase()}`,
    });
    expect(asked.statusCode, asked.body).toBe(200);
    const { nonce, message } = nonceResponseSchema.parse(asked.json());
    expect(message).toBeDefined();
    expect(message!.split('\n').slice(0, 4)).toEqual([
      'xtalk.example wants you to sign in with your Ethereum account:',
      wallet.address,
      '',
      'Sign in to XTalk.',
    ]);
    const parsed = parseSiweMessage(message!);
    expect(parsed).toMatchObject({ chainId: 137, nonce, uri: 'https://xtalk.example/login', version: '1' });
    expect(parsed.expirationTime!.getTime() - parsed.issuedAt!.getTime()).toBe(600_000);

    const signedIn = await server.app.inject({
      method: 'POST',
      url: '/api/auth/wallet',
      payload: {
        nonce,
        signature: await wallet.signMessage({ message: message! }),
        chainType: 'evm',
        networkID: 137,
        walletProvider: 'test',
        signingData: message,
      },
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    // a new wallet player is named after its address
    expect(signInResponseSchema.parse(signedIn.json()).user.name).toBe(wallet.address);
  });
});

describe('TELEGRAM_BOT_NAME', () => {
  it('is refused without a token, or when it is no bot username', () => {
    expect(() => loadConfig({ TELEGRAM_BOT_NAME: 'xtalk_test_bot' })).toThrow(
      /TELEGRAM_BOT_NAME is set without TELEGRAM_BOT_TOKEN/,
    );
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: '1:a', TELEGRAM_BOT_NAME: 'no spaces allowed' })).toThrow(
      /TELEGRAM_BOT_NAME must be a bot username/,
    );
    expect(() => loadConfig({ WALLET_CHAIN_ID: '0' })).toThrow(/WALLET_CHAIN_ID/);
  });

  it('without the token-and-name pair leaves Telegram off the page', async () => {
    const server = await startServer({ TELEGRAM_BOT_TOKEN: '123456:TEST-token' });
    try {
      expect((await config(server)).json()).toMatchObject({ telegram: false });
    } finally {
      await server.close();
    }
  }, 60_000);
});
