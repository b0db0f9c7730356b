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
  const body = await request<unknown>('POST', ApiPath.exchange, { body: { token, provider } });
  const parsed = exchangeResponseSchema.safeParse(body);
  if (!parsed.success || parsed.data.token === '') throw new Error('Invalid sign-in response.');
  return parsed.data;
}

/** Whether this server offers "Sign in with Google" (it may not be configured). */
export async function fetchAuthConfig(): Promise<AuthConfig> {
  return authConfigSchema.parse(await request<unknown>('GET', ApiPath.authConfig));
}
