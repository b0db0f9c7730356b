import type { FastifyInstance } from 'fastify';
import { ApiPath, type AuthConfig } from '@xtalk/protocol';

export interface AuthConfigRouteDeps {
  /** Sign-in with Google is configured. */
  google: boolean;
  /** Account mails go out by SMTP; without it they reach only the server log. */
  mailConfigured: boolean;
  /** The bot the web app's Telegram sign-in names; undefined when Telegram is not configured. */
  telegramBot: string | undefined;
  /** The chain the server's Sign-In with Ethereum messages name. */
  walletChainId: number;
  publicUrl: string;
}

/** What the web app's sign-in page needs to know: GET /api/auth/config. */
export async function authConfigRoute(app: FastifyInstance, deps: AuthConfigRouteDeps) {
  // every provider the sign-in page may show; fields are only ever added (older clients read the first two)
  app.get(ApiPath.authConfig, async (_request, reply): Promise<AuthConfig> => {
    reply.header('cache-control', 'no-store');
    return {
      google: deps.google,
      mail: deps.mailConfigured,
      email: true,
      telegram: deps.telegramBot ? { bot: deps.telegramBot } : false,
      wallet: { chainId: deps.walletChainId, domain: new URL(deps.publicUrl).host },
    };
  });
}
