import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiTag,
  PlayerPath,
  errorResponses,
  nonceResponseSchema,
  signInResponseSchema,
  tokenBodySchema,
  walletBodySchema,
} from '@xtalk/protocol';
import { z } from 'zod';
import { HttpError } from '../../http-errors.js';
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
  const api = app.withTypeProvider<ZodTypeProvider>();
  const accounts = { tags: [ApiTag.accounts] };
  const signedIn = { 200: signInResponseSchema, ...errorResponses(400, 401, 409) };
  const nonce = {
    summary: 'A nonce for a wallet to sign (Sign-In with Ethereum)',
    params: z.object({ address: z.string().min(1).max(100) }),
    response: { 200: nonceResponseSchema, ...errorResponses(400) },
  };
  api.get('/api/auth/nonce/:address', { schema: { ...accounts, ...nonce } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { address } = request.params;
    return deps.wallet.issueNonce(address, deps.proofs.walletSite);
  });

  const wallet = {
    summary: 'Sign in with a signed wallet message',
    body: walletBodySchema,
    response: signedIn,
  };
  api.post(PlayerPath.wallet, { schema: { ...accounts, ...wallet } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const proven = await deps.proofs.wallet(request.body);
    request.log.info({ provider: 'evm' }, 'signed in with a wallet');
    return deps.sessions.signInOrLink(request, proven.identity, proven);
  });

  const token = {
    summary: 'Sign in from a native client with any proof the other routes take',
    body: tokenBodySchema,
    response: signedIn,
  };
  api.post(PlayerPath.token, { schema: { ...accounts, ...token } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const { body } = request;
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
