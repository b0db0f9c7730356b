import {
  ApiPath,
  botcheckChallengeSchema,
  guestLoginResponseSchema,
  userSchema,
  type BotcheckChallenge,
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

/** /auth/{token}: trade a sign-in token from the identity provider redirect for our own. */
export async function exchangeToken(token: string, provider: string): Promise<{ token: string; user: User }> {
  const body = await request<{ token?: unknown; user?: unknown } | undefined>('POST', '/api/auth/exchange', {
    body: { token, provider },
  });
  if (typeof body?.token !== 'string' || body.token === '') throw new Error('Invalid sign-in response.');
  return { token: body.token, user: userSchema.parse(body.user) };
}
