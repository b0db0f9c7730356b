import { PRODUCT_NAME, type NonceResponse, type WalletBody } from '@xtalk/protocol';
import type { Clock } from '../../clock.js';
import { HttpError } from '../../http-errors.js';
import type { Db } from '../../store/index.js';
import { lazyModule } from '../../lazy-module.js';

/*
 * Signing in with an Ethereum wallet: Sign-In with Ethereum (EIP-4361), parsed and checked with viem's
 * SIWE utilities and the signature recovered with viem (an externally owned account; contract wallets
 * would need an RPC endpoint, which the server does not have). The server checks what EIP-4361 leaves to
 * the relying party: the domain is ours (PUBLIC_URL's host), the nonce is one we issued for that address
 * and is used once, the chain id is WALLET_CHAIN_ID and the one the client claims, and the message has
 * not expired.
 */

const NONCE_TTL_SECONDS = 600;
const STATEMENT = `Sign in to ${PRODUCT_NAME}.`;

/** What a message names besides the wallet: this server's domain and address, and the chain. */
export interface SiweSite {
  domain: string;
  uri: string;
  chainId: number;
}

// viem is large in memory: loaded by the first wallet sign-in, not at start (decision 0116)
const viem = lazyModule(async () => {
  const [
    { getAddress, isAddress, verifyMessage },
    { createSiweMessage, generateSiweNonce, parseSiweMessage },
  ] = await Promise.all([import('viem'), import('viem/siwe')]);
  return { getAddress, isAddress, verifyMessage, createSiweMessage, generateSiweNonce, parseSiweMessage };
});

export function createWalletSignIn(db: Db, clock: Clock) {
  return {
    /**
     * A nonce for `address`, and the message carrying it for the wallet to sign: written here so that
     * every client shows the person the same EIP-4361 text, with a checksummed address (decision 0184).
     */
    async issueNonce(address: string, site: SiweSite): Promise<NonceResponse> {
      const { isAddress, getAddress, createSiweMessage, generateSiweNonce } = await viem();
      if (!isAddress(address, { strict: false }))
        throw new HttpError(400, 'address: not an Ethereum address.');
      const nonce = generateSiweNonce();
      const issuedAt = new Date(clock.now());
      const expiresAt = new Date(issuedAt.getTime() + NONCE_TTL_SECONDS * 1000);
      await db.query('insert into wallet_nonces (nonce, address, expires_at) values ($1, $2, $3)', [
        nonce,
        address.toLowerCase(),
        expiresAt,
      ]);
      const message = createSiweMessage({
        address: getAddress(address),
        chainId: site.chainId,
        domain: site.domain,
        nonce,
        uri: site.uri,
        version: '1',
        statement: STATEMENT,
        issuedAt,
        expirationTime: expiresAt,
      });
      return { nonce, message };
    },

    /** The checked wallet address (EIP-55 checksummed), or a 400/401 saying what is wrong. */
    async verify(
      body: Omit<WalletBody, 'networkID'> & { networkID: number },
      site: SiweSite,
    ): Promise<string> {
      const { domain } = site;
      if (body.chainType !== 'evm') {
        throw new HttpError(400, `chainType ${body.chainType} is not supported; only evm wallets are.`);
      }
      const { parseSiweMessage, getAddress, verifyMessage } = await viem();
      const message = parseSiweMessage(body.signingData);
      if (!message.address || !message.domain || !message.nonce || !message.chainId || !message.uri) {
        throw new HttpError(400, 'signingData is not a Sign-In with Ethereum (EIP-4361) message.');
      }
      if (message.domain !== domain)
        throw new HttpError(401, `The message is for ${message.domain}, not ${domain}.`);
      if (message.nonce !== body.nonce) throw new HttpError(401, 'The message does not carry this nonce.');
      // a signature made for another chain is no proof here, however the client labels it
      if (message.chainId !== site.chainId)
        throw new HttpError(401, `The message is for chain ${message.chainId}, not ${site.chainId}.`);
      if (message.chainId !== body.networkID) {
        throw new HttpError(
          401,
          `The message is for chain ${message.chainId}, not networkID ${body.networkID}.`,
        );
      }
      const now = clock.now();
      if (message.expirationTime && message.expirationTime.getTime() <= now) {
        throw new HttpError(401, 'The message has expired.');
      }
      if (message.notBefore && message.notBefore.getTime() > now) {
        throw new HttpError(401, 'The message is not valid yet.');
      }
      // the nonce is spent by any attempt that gets this far, so a signature cannot be tried twice
      const { rows } = await db.query<{ address: string; expires_at: Date }>(
        'delete from wallet_nonces where nonce = $1 returning address, expires_at',
        [body.nonce],
      );
      const issued = rows[0];
      if (!issued || new Date(issued.expires_at).getTime() <= now) {
        throw new HttpError(401, 'The nonce is unknown, expired or already used; ask for a new one.');
      }
      if (issued.address !== message.address.toLowerCase()) {
        throw new HttpError(401, 'The nonce was issued for another address.');
      }
      const valid = await verifyMessage({
        address: getAddress(message.address),
        message: body.signingData,
        signature: body.signature as `0x${string}`,
      }).catch(() => false);
      if (!valid) throw new HttpError(401, 'The signature does not match the message and address.');
      return getAddress(issued.address);
    },
  };
}
export type WalletSignIn = ReturnType<typeof createWalletSignIn>;
