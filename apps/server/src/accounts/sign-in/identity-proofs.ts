import { telegramWidgetDataSchema, walletBodySchema } from '@xtalk/protocol';
import { HttpError, parseOr400 } from '../../http-errors.js';
import type { Identity } from '../links/player-links.js';
import type { TelegramSignIn } from './telegram.js';
import type { SiweSite, WalletSignIn } from './wallet.js';

/*
 * Turning what a client proves into an identity: a wallet signature (evm), Telegram widget data (tgw)
 * or Mini App initData (tga). Shared by the wallet route, the link route and the token endpoint.
 */

export interface ProvenIdentity {
  identity: Identity;
  name?: string;
}

export function createIdentityProofs(deps: {
  wallet: WalletSignIn;
  telegram: TelegramSignIn;
  /** PUBLIC_URL: its host is the domain a SIWE message must name. */
  publicUrl: string;
  /** The chain the server's own SIWE messages name (WALLET_CHAIN_ID). */
  chainId: number;
}) {
  /** SIWE names PUBLIC_URL's host as its domain, whatever host a request came to. */
  const walletSite: SiweSite = {
    domain: new URL(deps.publicUrl).host,
    uri: `${deps.publicUrl}/login`,
    chainId: deps.chainId,
  };

  return {
    walletSite,

    async wallet(body: unknown): Promise<ProvenIdentity> {
      const wallet = parseOr400(walletBodySchema, body);
      const address = await deps.wallet.verify(wallet, walletSite);
      // a wallet tells no name: a new player is named after its address until they choose one
      return { identity: { provider: 'evm', subject: address.toLowerCase() }, name: address };
    },

    telegramWidget(data: unknown): ProvenIdentity {
      const user = deps.telegram.widget(parseOr400(telegramWidgetDataSchema, data));
      return { identity: { provider: 'tg', subject: user.id }, ...(user.name ? { name: user.name } : {}) };
    },

    telegramMiniApp(signedPayload: unknown, data: unknown): ProvenIdentity {
      const bot = (data as { bot?: unknown } | null | undefined)?.bot;
      if (
        typeof signedPayload !== 'string' ||
        signedPayload === '' ||
        typeof bot !== 'string' ||
        bot === ''
      ) {
        throw new HttpError(400, 'signedPayload and data.bot are required for tga.');
      }
      const user = deps.telegram.miniApp(signedPayload, bot);
      return { identity: { provider: 'tg', subject: user.id }, ...(user.name ? { name: user.name } : {}) };
    },
  };
}
export type IdentityProofs = ReturnType<typeof createIdentityProofs>;
