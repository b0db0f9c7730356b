import {
  ApiPath,
  type AuthConfig,
  type BotcheckChallenge,
  type ExchangeResponse,
  type GuestLoginResponse,
  type User,
} from '@xtalk/protocol';
import { request } from '#web/lib/api-client';
import { authStore } from '#web/lib/auth-session';

const schemas = () => import('./auth-schemas');

export async function fetchBotcheck(): Promise<BotcheckChallenge> {
  const body = await request<unknown>('GET', ApiPath.botcheck);
  return (await schemas()).botcheckChallengeSchema.parse(body);
}

/** Exchange a solved bot check for a guest user and token. */
export async function guestLogin(botcheck: string): Promise<GuestLoginResponse> {
  const body = await request<unknown>('POST', ApiPath.guest, { body: { botcheck } });
  return (await schemas()).guestLoginResponseSchema.parse(body);
}

export async function fetchMe(token: string): Promise<User> {
  const body = await request<unknown>('GET', ApiPath.me, { token });
  return (await schemas()).userSchema.parse(body);
}

/** /auth/{token}: trade the one-time code of the sign-in redirect for a session token and user. */
export async function exchangeToken(token: string, provider: string): Promise<ExchangeResponse> {
  // a guest signing in sends their guest token: the server carries their rooms and name into the account
  const current = authStore.get();
  const guestToken = current?.user.provider === 'guest' ? current.token : undefined;
  const body = await request<unknown>('POST', ApiPath.exchange, {
    body: { token, provider },
    token: guestToken,
  });
  const parsed = (await schemas()).exchangeResponseSchema.safeParse(body);
  if (!parsed.success || parsed.data.token === '') throw new Error('Invalid sign-in response.');
  return parsed.data;
}

/** Which sign-ins this server offers (Google, mails, Telegram's bot, the wallet chain); see AuthConfig. */
export async function fetchAuthConfig(): Promise<AuthConfig> {
  const body = await request<unknown>('GET', ApiPath.authConfig);
  // checked by hand, as /login asks it on its first load (no zod chunk); an absent field is not offered
  const { google, mail, email, telegram, wallet } = (body ?? {}) as Record<string, unknown>;
  const is = (value: unknown, type: string) => value === undefined || typeof value === type;
  const bot = (telegram as { bot?: unknown } | undefined)?.bot;
  const chainId = (wallet as { chainId?: unknown } | undefined)?.chainId;
  if (typeof google !== 'boolean' || !is(mail, 'boolean') || !is(email, 'boolean')) {
    throw new Error('Invalid sign-in configuration.');
  }
  return {
    google,
    mail: mail as boolean | undefined,
    email: email as boolean | undefined,
    telegram: typeof bot === 'string' && bot !== '' ? { bot } : false,
    wallet:
      typeof chainId === 'number' && chainId > 0
        ? { chainId, domain: String((wallet as { domain?: unknown }).domain) }
        : false,
  };
}
