import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { playerSchema, signInResponseSchema, type SignInResponse } from '@xtalk/protocol';
import { guestLogin, joinRoom, startServer, type TestServer } from '../../testing/harness.js';
import { startOidcProvider, type TestOidcProvider } from '../../testing/oidc-provider.js';

/*
 * One player, several sign-ins: link, list, unlink (the last sign-in refused), store link, an OIDC
 * identity linked through its one-time code, the guest carried into the account on the OIDC exchange,
 * player lookups with every link and no secrets, and the token endpoint.
 */

const ADMIN_KEY = 'admin-key-for-the-links-tests';
const SERVER_KEY = 'server-key-for-the-links-tests';

describe('linked sign-ins', () => {
  let provider: TestOidcProvider;
  let server: TestServer;

  beforeAll(async () => {
    provider = await startOidcProvider();
    server = await startServer({
      OIDC_ISSUER: provider.issuer,
      GOOGLE_CLIENT_ID: 'xtalk-test-client',
      GOOGLE_CLIENT_SECRET: 'xtalk-test-secret',
      PUBLIC_URL: 'http://xtalk.test',
      ADMIN_API_KEY: ADMIN_KEY,
      PAYMENT_SERVER_KEY: SERVER_KEY,
    });
  });
  afterAll(async () => {
    await server?.close();
    await provider?.close();
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: object) =>
    server.app.inject({
      method,
      url,
      ...(payload ? { payload } : {}),
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });

  /** The browser part of "Sign in with Google" against the provider: returns the /auth/{code} code. */
  async function oidcCode(sub: string): Promise<string> {
    provider.nextIdentity({ sub, name: `Name of ${sub}` });
    let cookie: string | undefined;
    const hop = async (url: string) => {
      const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
      const set = response.headers.get('set-cookie');
      if (set) cookie = set.split(';')[0];
      return response.headers.get('location') ?? '';
    };
    const toProvider = await hop(`${server.baseUrl}/auth/google/login`);
    const callback = await hop(toProvider);
    const done = await hop(callback.replace('http://xtalk.test', server.baseUrl));
    const match = /^\/auth\/([^/?]+)\?provider=ggl$/.exec(done);
    if (!match) throw new Error(`no code in ${done}`);
    return decodeURIComponent(match[1]!);
  }

  /** A fresh nonce signed by the wallet (a new one unless given). */
  async function walletProof(wallet = privateKeyToAccount(generatePrivateKey())) {
    const { nonce } = (await call('GET', `/api/auth/nonce/${wallet.address}`)).json() as { nonce: string };
    const message = createSiweMessage({
      address: wallet.address,
      chainId: 1,
      domain: 'xtalk.test',
      nonce,
      uri: 'http://xtalk.test/',
      version: '1',
    });
    return {
      account: wallet,
      address: wallet.address.toLowerCase(),
      body: {
        nonce,
        signature: await wallet.signMessage({ message }),
        chainType: 'evm',
        networkID: 1,
        walletProvider: 'test',
        signingData: message,
      },
    };
  }

  async function googleSession(sub: string, guestToken?: string): Promise<SignInResponse> {
    const code = await oidcCode(sub);
    const response = await call('POST', '/api/auth/exchange', guestToken, { token: code, provider: 'ggl' });
    expect(response.statusCode, response.body).toBe(200);
    return signInResponseSchema.parse(response.json());
  }

  it('links a wallet and a store account, lists them, unlinks, and refuses to unlink the last sign-in', async () => {
    const me = await googleSession('links-sub-1');
    const wallet = await walletProof();
    const linked = await call('POST', '/api/player/link', me.token, { provider: 'evm', ...wallet.body });
    expect(linked.statusCode, linked.body).toBe(200);
    // a store account id is proven by the store or, here, vouched for by a server (store-links.test.ts)
    const store = await server.app.inject({
      method: 'POST',
      url: '/api/player/link',
      headers: { authorization: `Bearer ${me.token}`, 'x-server-key': SERVER_KEY },
      payload: { provider: 'store', store: 'google', accountId: 'play-account-7' },
    });
    expect(store.statusCode, store.body).toBe(200);
    expect((await call('GET', '/api/player/links', me.token)).json()).toEqual({
      links: [
        { provider: 'ggl', issuer: provider.issuer, subject: 'links-sub-1' },
        { provider: 'evm', subject: wallet.address },
        { provider: 'store', issuer: 'google', subject: 'play-account-7' },
      ],
    });

    // the wallet now signs in the same player
    const viaWallet = await call(
      'POST',
      '/api/auth/wallet',
      undefined,
      (await walletProof(wallet.account)).body,
    );
    expect(viaWallet.statusCode, viaWallet.body).toBe(200);
    expect(viaWallet.json().user.userId).toBe(me.user.userId);

    // unlink Google: the wallet remains; then the wallet is the last sign-in and stays
    const unlinked = await call('DELETE', `/api/player/link/ggl/links-sub-1`, me.token);
    expect(unlinked.statusCode, unlinked.body).toBe(200);
    // an unlink ends every other session of the player (the wallet's too); the caller's goes on
    expect((await call('GET', '/api/me', viaWallet.json().token)).statusCode).toBe(401);
    expect((await call('GET', '/api/me', me.token)).statusCode).toBe(200);
    const last = await call('DELETE', `/api/player/link/evm/${wallet.address}`, me.token);
    expect(last.statusCode).toBe(409);
    expect(last.json().message).toBe('The last sign-in of a player cannot be unlinked.');
    // a store account is not a sign-in: it may go
    expect((await call('DELETE', '/api/player/link/store/play-account-7', me.token)).statusCode).toBe(200);
    expect((await call('DELETE', '/api/player/link/store/play-account-7', me.token)).statusCode).toBe(404);
    expect((await call('GET', '/api/player/links', me.token)).json()).toEqual({
      links: [{ provider: 'evm', subject: wallet.address }],
    });
    // Google again makes a new player: the identity is no longer this one's
    const fresh = await googleSession('links-sub-1');
    expect(fresh.user.userId).not.toBe(me.user.userId);
  });

  it('links an OIDC identity by its code; one held by a real player is refused', async () => {
    const wallet = await walletProof();
    const me = signInResponseSchema.parse(
      (await call('POST', '/api/auth/wallet', undefined, wallet.body)).json(),
    );
    const code = await oidcCode('links-sub-2');
    const linked = await call('POST', '/api/player/link', me.token, { provider: 'ggl', code });
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json().links).toContainEqual({
      provider: 'ggl',
      issuer: provider.issuer,
      subject: 'links-sub-2',
    });
    const viaGoogle = await googleSession('links-sub-2');
    expect(viaGoogle.user.userId).toBe(me.user.userId);

    // someone who already uses Google with history cannot be folded in
    const other = await googleSession('links-sub-3');
    await joinRoom(server.app, other.token, null);
    const refused = await call('POST', '/api/player/link', me.token, {
      provider: 'ggl',
      code: await oidcCode('links-sub-3'),
    });
    expect(refused.statusCode).toBe(409);
    // bad bodies are 400 and change nothing
    expect((await call('POST', '/api/player/link', me.token, { provider: 'myspace' })).statusCode).toBe(400);
    expect(
      (await call('POST', '/api/player/link', me.token, { provider: 'ggl', code: 'nope' })).statusCode,
    ).toBe(400);
    expect((await call('GET', '/api/player/links', me.token)).json().links).toHaveLength(2);
  });

  it('a guest who chatted signs in with Google and keeps the room history and username', async () => {
    const guest = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, guest.token, null);
    const session = await googleSession('links-sub-4', guest.token);
    expect(session.user.provider).toBe('ggl');
    expect(session.user.displayUsername).toBe(guest.user.displayUsername);
    const history = await call('GET', '/api/rooms/history', session.token);
    expect(history.json().rooms.map((room: { roomId: string }) => room.roomId)).toEqual([roomId]);
    expect((await call('GET', '/api/me', guest.token)).statusCode).toBe(401);
    // next time Google finds the same player, history included
    const again = await googleSession('links-sub-4');
    expect(again.user.userId).toBe(session.user.userId);
    const links = (await call('GET', '/api/player/links', again.token)).json().links as {
      provider: string;
    }[];
    expect(links.map((link) => link.provider).sort()).toEqual(['ggl', 'guest']);
  });

  it('player lookups carry every link, never secrets; an unverified email is not linked yet', async () => {
    const me = await googleSession('links-sub-5');
    await server.app.inject({
      method: 'POST',
      url: '/api/player/link',
      headers: { authorization: `Bearer ${me.token}` },
      payload: { provider: 'email', email: 'lookup@example.com', password: 'lookup-password' },
    });
    // an email is linked only once its address is verified (email-accounts.test.ts)
    const own = playerSchema.parse((await call('GET', `/api/player/${me.user.userId}`, me.token)).json());
    expect(own.links).toEqual([{ provider: 'ggl', issuer: provider.issuer, subject: 'links-sub-5' }]);
    const admin = await server.app.inject({
      method: 'POST',
      url: '/api/players/load_by_gct_id',
      headers: { 'x-admin-key': ADMIN_KEY },
      payload: { gctIDs: [me.user.userId] },
    });
    expect(admin.statusCode).toBe(200);
    expect(admin.body).not.toMatch(/scrypt|password_hash/);
  });

  it('token endpoint: Google code, wallet, unknown provider and app', async () => {
    const code = await oidcCode('links-sub-6');
    const viaCode = await call('POST', '/api/auth/token', undefined, {
      app_id: 'xtalk',
      platform: 'ios',
      identity_provider: 'ggl',
      platform_player_id: '',
      payload: code,
      data: {},
    });
    expect(viaCode.statusCode, viaCode.body).toBe(200);
    const session = signInResponseSchema.parse(viaCode.json());
    expect((await call('GET', '/api/me', session.token)).json().platformPlayerId).toBe('links-sub-6');
    const reused = await call('POST', '/api/auth/token', undefined, {
      app_id: 'xtalk',
      platform: 'ios',
      identity_provider: 'ggl',
      payload: code,
    });
    expect(reused.statusCode).toBe(400);

    const wallet = await walletProof();
    const viaWallet = await call('POST', '/api/auth/token', undefined, {
      app_id: 'xtalk',
      platform: 'web',
      identity_provider: 'evm',
      data: wallet.body,
    });
    expect(viaWallet.statusCode, viaWallet.body).toBe(200);

    const unknown = await call('POST', '/api/auth/token', undefined, {
      app_id: 'xtalk',
      platform: 'web',
      identity_provider: 'fb',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('identity_provider fb is not supported.');
    const app = await call('POST', '/api/auth/token', undefined, {
      app_id: 'other',
      platform: 'web',
      identity_provider: 'ggl',
    });
    expect(app.statusCode).toBe(400);
    expect((await call('POST', '/api/auth/token', undefined, { platform: 'web' })).statusCode).toBe(400);
  });
});
