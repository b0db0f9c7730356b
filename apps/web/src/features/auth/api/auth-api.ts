import {
  ApiPath,
  authConfigSchema,
  botcheckChallengeSchema,
  exchangeResponseSchema,
  guestLoginResponseSchema,
  userSchema,
  type AuthConfig,
  type BotcheckChallenge,
  type ExchangeResponse,
  type GuestLoginResponse,
  type User,
} from '@xtalk/protocol';
import { request } from '../../../lib/api-client';
import { authStore } from '../../../lib/auth-session';

export async function fetchBotcheck(): Promise<BotcheckChallenge> {
  return botcheckChallengeSchema.parse(await request<unknown>('GET', ApiPath.botcheck));
}

/** Exchange a solved bot check for a guest user and token. */
export async function guestLogin(botcheck: string): Promise<GuestLoginResponse> {
  return guestLoginResponseSchema.parse(
    await request<unknown>('POST', ApiPath.guest, { body: { botcheck } }),
  );
}

export async function fetchMe(token: string): Promise<User> {
  return userSchema.parse(await request<unknown>('GET', ApiPath.me, { token }));
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
  const parsed = exchangeResponseSchema.safeParse(body);
  if (!parsed.success || parsed.data.token === '') throw new Error('Invalid sign-in response.');
  return parsed.data;
}

/** Whether this server offers "Sign in with Google" (it may not be configured). */
export async function fetchAuthConfig(): Promise<AuthConfig> {
  return authConfigSchema.parse(await request<unknown>('GET', ApiPath.authConfig));
}
