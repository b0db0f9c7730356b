import type { FastifyInstance } from 'fastify';
import { PlayerPath, tokenBodySchema, type NonceResponse, type SignInResponse } from '@xtalk/protocol';
import { HttpError, parseOr400 } from '../../http-errors.js';
import type { EmailAccounts } from './email/email-accounts.js';
import type { IdentityProofs } from './identity-proofs.js';
import type { SignInStore } from '../sessions/sign-in-store.js';
import type { Sessions } from '../sessions/sign-in-session.js';
import { APP_ID } from '../users/users-repo.js';
import type { WalletSignIn } from './wallet.js';

/**
 * Wallet sign-in (GET /api/auth/nonce/{address}, POST /api/auth/wallet) and the token endpoint of native
 * clients (POST /api/auth/token), which signs in with any proof the other routes take.
 */
export async function walletTokenRoutes(
  app: FastifyInstance,
  deps: {
    wallet: WalletSignIn;
    proofs: IdentityProofs;
    sessions: Sessions;
    emails: EmailAccounts;
    store: SignInStore;
  },
) {
  app.get('/api/auth/nonce/:address', async (request, reply): Promise<NonceResponse> => {
    reply.header('cache-control', 'no-store');
    const { address } = request.params as { address: string };
    return deps.wallet.issueNonce(address, deps.proofs.walletSite);
  });

  app.post(PlayerPath.wallet, async (request, reply): Promise<SignInResponse> => {
    reply.header('cache-control', 'no-store');
    const proven = await deps.proofs.wallet(request.body);
    request.log.info({ provider: 'evm' }, 'signed in with a wallet');
    return deps.sessions.signInOrLink(request, proven.identity, proven);
  });

  app.post(PlayerPath.token, async (request, reply): Promise<SignInResponse> => {
    reply.header('cache-control', 'no-store');
    const body = parseOr400(tokenBodySchema, request.body);
    if (body.app_id !== APP_ID) throw new HttpError(400, `app_id ${body.app_id} is not known here.`);
    const provider = body.identity_provider;
    if ((provider === 'tgw' || provider === 'tga') && body.platform !== 'tg') {
      throw new HttpError(400, `identity_provider ${provider} belongs to platform tg.`);
    }
    switch (provider) {
      case 'ggl': {
        // the one-time code of the OIDC redirect, for a client that ran the browser part itself
        const userId = body.payload ? await deps.store.redeemCode(body.payload) : undefined;
        const user = userId ? await deps.sessions.userById(userId) : undefined;
        if (!user)
          throw new HttpError(400, 'This sign-in code is invalid, expired or already used.', 'invalid_link');
        return deps.sessions.signIn(request, user);
      }
      case 'email': {
        const user = await deps.emails.login(
          body.platform_player_id.trim().toLowerCase(),
          body.payload,
          request.ip,
        );
        return deps.sessions.signIn(request, user);
      }
      case 'evm': {
        const proven = await deps.proofs.wallet(body.data);
        return deps.sessions.signInOrLink(request, proven.identity, proven);
      }
      case 'tgw': {
        const proven = deps.proofs.telegramWidget(body.data);
        return deps.sessions.signInOrLink(request, proven.identity, proven);
      }
      case 'tga': {
        const proven = deps.proofs.telegramMiniApp(body.payload, body.data);
        return deps.sessions.signInOrLink(request, proven.identity, proven);
      }
      default:
        throw new HttpError(400, `identity_provider ${provider} is not supported.`);
    }
  });
}
