import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiPath, ApiTag, authConfigSchema } from '@xtalk/protocol';

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
  const schema = {
    tags: [ApiTag.accounts],
    summary: 'Which ways to sign in this server offers',
    response: { 200: authConfigSchema },
  };
  app.withTypeProvider<ZodTypeProvider>().get(ApiPath.authConfig, { schema }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return {
      google: deps.google,
      mail: deps.mailConfigured,
      email: true,
      telegram: deps.telegramBot ? { bot: deps.telegramBot } : (false as const),
      wallet: { chainId: deps.walletChainId, domain: new URL(deps.publicUrl).host },
    };
  });
}
