import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import { linkRoutes } from '../players/link-routes.js';
import type { Db } from '../store/db.js';
import { createAttemptLimits } from './attempt-limits.js';
import type { Authenticator } from './authenticate.js';
import { createEmailAccounts } from './email-accounts.js';
import { emailRoutes } from './email-routes.js';
import { createIdentityProofs } from './identity-proofs.js';
import { createMailer } from './mailer.js';
import type { PlayerLinks } from './player-links.js';
import type { SignInStore } from './sign-in-store.js';
import { createSessions } from './sign-in-session.js';
import { createTelegramSignIn } from './telegram.js';
import type { Tokens } from './tokens.js';
import type { UsersRepo } from './users-repo.js';
import { walletTokenRoutes } from './wallet-token-routes.js';
import { createWalletSignIn } from './wallet.js';

export interface PlayerAccountsDeps {
  config: Config;
  db: Db;
  clock: Clock;
  tokens: Tokens;
  users: UsersRepo;
  links: PlayerLinks;
  authenticator: Authenticator;
  store: SignInStore;
}

/**
 * The rest of the player service (spec sections 3, 5, 7): email accounts, wallets, Telegram, the token
 * endpoint and linked sign-ins, composed here so app.ts registers them in one line.
 */
export async function playerAccounts(app: FastifyInstance, deps: PlayerAccountsDeps) {
  const { config } = deps;
  const sessions = createSessions(deps);
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
  });
  const wallet = createWalletSignIn(deps.db, deps.clock);
  const proofs = createIdentityProofs({
    wallet,
    telegram: createTelegramSignIn(config.TELEGRAM_BOT_TOKEN, deps.clock),
    publicUrl: config.PUBLIC_URL,
  });
  await app.register(emailRoutes, { emails, sessions, publicUrl: config.PUBLIC_URL });
  await app.register(walletTokenRoutes, { wallet, proofs, sessions, emails, store: deps.store });
  await app.register(linkRoutes, { ...deps, proofs, emails, publicUrl: config.PUBLIC_URL });
}
