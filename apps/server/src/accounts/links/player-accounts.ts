import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../clock.js';
import type { Config } from '../../config.js';
import { linkRoutes } from './link-routes.js';
import type { Db } from '../../store/index.js';
import { createAttemptLimits } from '../sign-in/attempt-limits.js';
import type { Authenticator } from '../sessions/authenticate.js';
import { createEmailAccounts } from '../sign-in/email/email-accounts.js';
import { emailRoutes } from '../sign-in/email/email-routes.js';
import { createIdentityProofs } from '../sign-in/identity-proofs.js';
import { createMailer } from '../sign-in/email/mailer.js';
import type { PlayerLinks } from './player-links.js';
import type { StorePurchaseAccount } from './store-link-proof.js';
import type { SignInStore } from '../sessions/sign-in-store.js';
import { createSessions } from '../sessions/sign-in-session.js';
import type { SignInSessions } from '../sessions/sign-in-sessions.js';
import { createTelegramSignIn } from '../sign-in/telegram.js';
import type { Tokens } from '../sessions/tokens.js';
import type { UsersRepo } from '../users/users-repo.js';
import { walletTokenRoutes } from '../sign-in/wallet-token-routes.js';
import { createWalletSignIn } from '../sign-in/wallet.js';

export interface PlayerAccountsDeps {
  config: Config;
  db: Db;
  clock: Clock;
  tokens: Tokens;
  users: UsersRepo;
  links: PlayerLinks;
  authenticator: Authenticator;
  /** Ends sessions: a changed or reset password, an unlinked sign-in. */
  sessions: SignInSessions;
  store: SignInStore;
  /** What a store says of a purchase's account, for store links (built by the composition). */
  storePurchaseAccount: StorePurchaseAccount | undefined;
}

/**
 * The rest of the player service: email accounts, wallets, Telegram, the token
 * endpoint and linked sign-ins, composed here so app.ts registers them in one line.
 */
export async function playerAccounts(app: FastifyInstance, deps: PlayerAccountsDeps) {
  const { config } = deps;
  const signIns = createSessions(deps);
  const emails = createEmailAccounts({
    db: deps.db,
    clock: deps.clock,
    users: deps.users,
    links: deps.links,
    limits: createAttemptLimits(deps.db, deps.clock),
    mailer: createMailer(
      { smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, toLog: config.MAIL_TO_LOG === 'on' },
      app.log,
    ),
    logger: app.log,
    sessions: deps.sessions,
  });
  const wallet = createWalletSignIn(deps.db, deps.clock);
  const proofs = createIdentityProofs({
    wallet,
    telegram: createTelegramSignIn(config.TELEGRAM_BOT_TOKEN, deps.clock),
    publicUrl: config.PUBLIC_URL,
    chainId: config.WALLET_CHAIN_ID,
  });
  await app.register(emailRoutes, { emails, sessions: signIns, publicUrl: config.PUBLIC_URL });
  await app.register(walletTokenRoutes, { wallet, proofs, sessions: signIns, emails, store: deps.store });
  await app.register(linkRoutes, {
    ...deps,
    proofs,
    emails,
    publicUrl: config.PUBLIC_URL,
    storeProof: { serverKey: config.PAYMENT_SERVER_KEY, purchaseAccount: deps.storePurchaseAccount },
  });
}
