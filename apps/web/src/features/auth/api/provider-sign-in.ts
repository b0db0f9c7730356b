import {
  APP_ID,
  PlayerPath,
  TELEGRAM_PLATFORM,
  type NonceResponse,
  type SignInResponse,
  type WalletBody,
} from '@xtalk/protocol';
import { request } from '#web/lib/api-client';
import { guestToken } from './email-api';

// the answers' schemas load on first use, so zod stays off /login's first load
const schemas = () => import('./auth-schemas');

/*
 * Telegram and wallet sign-ins, through the routes native clients use too. A guest sends their token
 * along and keeps their player (rooms, name).
 */

/** `tgw`: the Login Widget's signed user; `tga`: a Mini App's initData, naming the bot it came through. */
export async function telegramSignIn(
  kind: 'tgw' | 'tga',
  proof: { payload?: string; data: Record<string, unknown> },
): Promise<SignInResponse> {
  const body = { app_id: APP_ID, platform: TELEGRAM_PLATFORM, identity_provider: kind, ...proof };
  return (await schemas()).signInResponseSchema.parse(
    await request<unknown>('POST', PlayerPath.token, { body, token: guestToken() }),
  );
}

/** A nonce for the address and the Sign-In with Ethereum message the server wrote around it. */
export async function walletNonce(address: string): Promise<NonceResponse> {
  return (await schemas()).nonceResponseSchema.parse(
    await request<unknown>('GET', PlayerPath.nonce(address)),
  );
}

export async function walletSignIn(body: WalletBody): Promise<SignInResponse> {
  return (await schemas()).signInResponseSchema.parse(
    await request<unknown>('POST', PlayerPath.wallet, { body, token: guestToken() }),
  );
}
