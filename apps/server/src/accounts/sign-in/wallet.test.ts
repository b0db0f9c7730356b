import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { signInResponseSchema } from '@xtalk/protocol';
import { guestLogin, joinRoom, startServer, type TestServer } from '../../testing/harness.js';

/*
 * Sign-In with Ethereum with a wallet key made here: good, wrong nonce, wrong domain, wrong chain,
 * expired, replayed; other chain types are not supported; with a bearer token the call links instead.
 */

describe('wallet sign-in (SIWE, EIP-4361)', () => {
  let server: TestServer;
  let offsetMs = 0;
  const clock = { now: () => Date.now() + offsetMs };
  let wallet: PrivateKeyAccount;

  beforeAll(async () => {
    server = await startServer({ PUBLIC_URL: 'https://xtalk.example' }, { clock });
  });
  afterAll(() => server?.close());
  beforeEach(() => {
    offsetMs = 0;
    wallet = privateKeyToAccount(generatePrivateKey());
  });

  async function nonceFor(address: string): Promise<string> {
    const response = await server.app.inject({ method: 'GET', url: `/api/auth/nonce/${address}` });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { nonce: string }).nonce;
  }

  async function signed(
    nonce: string,
    change: Partial<Parameters<typeof createSiweMessage>[0]> = {},
    account = wallet,
  ) {
    const message = createSiweMessage({
      address: account.address,
      chainId: 1,
      domain: 'xtalk.example',
      nonce,
      uri: 'https://xtalk.example/login',
      version: '1',
      issuedAt: new Date(clock.now()),
      expirationTime: new Date(clock.now() + 5 * 60_000),
      ...change,
    });
    return {
      nonce,
      signature: await account.signMessage({ message }),
      chainType: 'evm',
      networkID: 1,
      walletProvider: 'test',
      signingData: message,
    };
  }

  const post = (payload: object, token?: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/auth/wallet',
      payload,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });

  it('signs in with a good signature, the same player next time', async () => {
    const first = await post(await signed(await nonceFor(wallet.address)));
    expect(first.statusCode, first.body).toBe(200);
    const session = signInResponseSchema.parse(first.json());
    const again = signInResponseSchema.parse(
      (await post(await signed(await nonceFor(wallet.address)))).json(),
    );
    expect(again.user.userId).toBe(session.user.userId);
    const links = await server.app.inject({
      method: 'GET',
      url: '/api/player/links',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(links.json()).toEqual({ links: [{ provider: 'evm', subject: wallet.address.toLowerCase() }] });
  });

  it('refuses a wrong nonce, a wrong domain, a wrong chain, an expired message and a replay', async () => {
    const nonce = await nonceFor(wallet.address);
    const otherNonce = await post({ ...(await signed(nonce)), nonce: 'abcdefgh12345678' });
    expect(otherNonce.statusCode).toBe(401);
    expect(otherNonce.json().message).toMatch(/nonce/);
    const unknownNonce = await post(await signed('abcdefgh12345678'));
    expect(unknownNonce.statusCode).toBe(401);
    expect(unknownNonce.json().message).toMatch(/unknown, expired or already used/);

    const domain = await post(await signed(await nonceFor(wallet.address), { domain: 'evil.example' }));
    expect(domain.statusCode).toBe(401);
    expect(domain.json().message).toMatch(/evil\.example, not xtalk\.example/);

    const chain = await post({ ...(await signed(await nonceFor(wallet.address))), networkID: 137 });
    expect(chain.statusCode).toBe(401);
    expect(chain.json().message).toMatch(/chain 1/);
    // a message for another chain than WALLET_CHAIN_ID, however the client labels it
    const otherChain = await post({
      ...(await signed(await nonceFor(wallet.address), { chainId: 137 })),
      networkID: 137,
    });
    expect(otherChain.statusCode).toBe(401);
    expect(otherChain.json().message).toBe('The message is for chain 137, not 1.');

    const expiring = await signed(await nonceFor(wallet.address));
    offsetMs = 6 * 60_000;
    const expired = await post(expiring);
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toMatch(/expired/);
    offsetMs = 0;

    const good = await signed(await nonceFor(wallet.address));
    expect((await post(good)).statusCode).toBe(200);
    const replay = await post(good);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toMatch(/already used/);
  });

  it('refuses a signature by another key and a nonce issued for another address', async () => {
    const intruder = privateKeyToAccount(generatePrivateKey());
    const nonce = await nonceFor(wallet.address);
    const forged = await signed(nonce);
    const otherSignature = await intruder.signMessage({ message: forged.signingData });
    const response = await post({ ...forged, signature: otherSignature });
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toMatch(/signature/);

    const borrowed = await post(await signed(await nonceFor(wallet.address), {}, intruder));
    expect(borrowed.statusCode).toBe(401);
    expect(borrowed.json().message).toMatch(/another address/);
  });

  it('answers other chain types and malformed input clearly', async () => {
    const solana = await post({ ...(await signed(await nonceFor(wallet.address))), chainType: 'solana' });
    expect(solana.statusCode).toBe(400);
    expect(solana.json().message).toBe('chainType solana is not supported; only evm wallets are.');
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/auth/nonce/not-an-address' })).statusCode,
    ).toBe(400);
    const garbage = await post({ ...(await signed(await nonceFor(wallet.address))), signingData: 'hello' });
    expect(garbage.statusCode).toBe(400);
  });

  it('with a bearer token links the wallet to that player; a guest keeps their player', async () => {
    const guest = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, guest.token, null);
    const linked = await post(await signed(await nonceFor(wallet.address)), guest.token);
    expect(linked.statusCode, linked.body).toBe(200);
    const session = signInResponseSchema.parse(linked.json());
    expect(session.user).toMatchObject({ userId: guest.user.userId, provider: 'ggl' });
    const history = await server.app.inject({
      method: 'GET',
      url: '/api/rooms/history',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(history.json().rooms[0].roomId).toBe(roomId);

    // another player cannot take the wallet
    const other = signInResponseSchema.parse(
      (
        await post(await signed(await nonceFor((wallet = privateKeyToAccount(generatePrivateKey())).address)))
      ).json(),
    );
    const taken = privateKeyToAccount(generatePrivateKey());
    expect(
      (await post(await signed(await nonceFor(taken.address), {}, taken), session.token)).statusCode,
    ).toBe(200);
    const steal = await post(await signed(await nonceFor(taken.address), {}, taken), other.token);
    expect(steal.statusCode).toBe(409);
  });
});
