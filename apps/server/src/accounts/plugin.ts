import fp from 'fastify-plugin';
import type { Clock } from '../clock.js';
import type { Config } from '../config.js';
import type { Db } from '../store/index.js';
import { resolveAuthSecret } from './sessions/auth-secret.js';
import { createAuthenticator, type Authenticator } from './sessions/authenticate.js';
import { createSessionEnds, type SessionEnds } from './sessions/ended-sessions.js';
import { createSeals, type Seals } from './sessions/seals.js';
import { logoutRoutes } from './sessions/logout-routes.js';
import { createSignInSessions, type SignInSessions } from './sessions/sign-in-sessions.js';
import { createAltchaBotCheck, createTurnstileBotCheck, type BotCheck } from './sign-in/botcheck.js';
import { authConfigRoute } from './sign-in/auth-config-route.js';
import { exchangeRoute } from './sign-in/exchange-route.js';
import { googleRoutes } from './sign-in/google-routes.js';
import { createOidc } from './sign-in/oidc.js';
import { profileRoute } from './users/profile-route.js';
import { playerAccounts } from './links/player-accounts.js';
import { createPlayerLinks, type PlayerLinks } from './links/player-links.js';
import type { UserRooms } from './user-rooms.js';
import type { StorePurchaseAccount } from './links/store-link-proof.js';
import { authRoutes } from './sign-in/guest-routes.js';
import { createSignInStore } from './sessions/sign-in-store.js';
import { createTokens, type Tokens } from './sessions/tokens.js';
import { createUsersRepo, type UsersRepo } from './users/users-repo.js';

/*
 * Accounts: users, session tokens, the bot check, sign-in of every kind (Google/OIDC when configured,
 * email, wallets, Telegram, tokens) and linked sign-ins. Other modules reach users through `xtalkAuth`.
 */

export interface Auth {
  /** Signs tokens, each opening a sign-in session, and checks them. */
  tokens: Tokens;
  users: UsersRepo;
  links: PlayerLinks;
  authenticator: Authenticator;
  /** Ends sign-in sessions (sign-out, a new password, an unlink, a merge). */
  sessions: SignInSessions;
  /** Where sockets hear that the session they were opened with ended, on every node. */
  sessionEnds: SessionEnds;
  /** MACs every node of the cluster can check (sealed room session ids, decision 0230). */
  seals: Seals;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Who a request or a token is, and the users behind them. */
    xtalkAuth: Auth;
  }
}

export interface AuthPluginOptions {
  config: Config;
  clock: Clock;
  /** Replaces the configured bot check (tests). */
  botCheck?: BotCheck;
  /** What rooms hold of a user, for merges: the port accounts declares, filled in by the composition. */
  userRooms: UserRooms;
  /** What an app store says of a purchase's account, for store links: a port filled in the same way. */
  storePurchaseAccount?: StorePurchaseAccount | undefined;
}

/** Turnstile when both of its keys are set, else the self-hosted ALTCHA proof-of-work. */
function chooseBotCheck(config: Config, secret: string, db: Db, clock: Clock): BotCheck {
  return config.TURNSTILE_SITE_KEY && config.TURNSTILE_SECRET_KEY
    ? createTurnstileBotCheck({
        siteKey: config.TURNSTILE_SITE_KEY,
        secretKey: config.TURNSTILE_SECRET_KEY,
        verifyUrl: config.TURNSTILE_VERIFY_URL,
        db,
        clock,
      })
    : createAltchaBotCheck({ secret, cost: config.ALTCHA_COST, db, clock });
}

export const authPlugin = fp<AuthPluginOptions>(
  async (app, { config, clock, botCheck, userRooms, storePurchaseAccount }) => {
    const db = app.xtalkDb;
    const secret = resolveAuthSecret(config.AUTH_SECRET, config.DATA_DIR);
    const sessionEnds = await createSessionEnds(app.xtalkBus, db, app.log);
    const sessions = createSignInSessions(
      db,
      createTokens(secret, config.SESSION_TTL_SECONDS, clock),
      clock,
      sessionEnds,
    );
    const tokens = sessions.tokens;
    const users = createUsersRepo(db);
    const links = createPlayerLinks(db, userRooms, sessions);
    const authenticator = createAuthenticator(tokens, users);
    const seals = createSeals(secret);
    app.decorate('xtalkAuth', { tokens, users, links, authenticator, sessions, sessionEnds, seals });
    await app.register(logoutRoutes, { authenticator, sessions });

    await app.register(authRoutes, {
      botCheck: botCheck ?? chooseBotCheck(config, secret, db, clock),
      tokens,
      users,
      authenticator,
    });
    const signInStore = createSignInStore(db, clock);
    const oidc = config.GOOGLE_CLIENT_ID
      ? createOidc(
          {
            issuer: config.OIDC_ISSUER,
            clientId: config.GOOGLE_CLIENT_ID,
            clientSecret: config.GOOGLE_CLIENT_SECRET,
          },
          signInStore,
          app.log,
        )
      : undefined;
    const publicUrl = config.PUBLIC_URL;
    await app.register(authConfigRoute, {
      google: oidc !== undefined,
      mailConfigured: config.SMTP_URL !== undefined,
      // the widget and the Mini App both name the bot, so the web offers Telegram only with both settings
      telegramBot: config.TELEGRAM_BOT_TOKEN ? config.TELEGRAM_BOT_NAME : undefined,
      walletChainId: config.WALLET_CHAIN_ID,
      publicUrl,
    });
    await app.register(googleRoutes, {
      oidc,
      store: signInStore,
      users,
      publicUrl,
      codeTtlSeconds: config.AUTH_CODE_TTL_SECONDS,
    });
    await app.register(exchangeRoute, { store: signInStore, links, tokens, users, authenticator });
    await app.register(profileRoute, { users, authenticator });
    await app.register(playerAccounts, {
      config,
      db,
      clock,
      tokens,
      users,
      links,
      authenticator,
      sessions,
      store: signInStore,
      storePurchaseAccount,
    });
    // the identity provider is discovered in the background; sign-in retries if it is unreachable now
    app.addHook('onReady', async () => oidc?.warmUp());
  },
  { name: 'xtalk-auth', dependencies: ['xtalk-store', 'xtalk-bus'] },
);

// the player API is a plugin of its own, registered after accounts; the composition reads it here
export { playersPlugin } from './players/plugin.js';
