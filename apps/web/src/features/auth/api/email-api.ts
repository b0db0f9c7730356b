import { PlayerPath, type MailSentResponse, type SignInResponse } from '@xtalk/protocol';
import { request } from '#web/lib/api-client';
import { authStore } from '#web/lib/auth-session';

// the answers' schemas load on first use, so zod stays off /login's first load
const schemas = () => import('./auth-schemas');

/*
 * Email accounts. Sign-ins send the current guest's token along, so a guest who signs in keeps
 * their player (rooms, name); register does too, so the account is theirs once the address is confirmed.
 */

export const guestToken = (): string | undefined => {
  const session = authStore.get();
  return session?.user.provider === 'guest' ? session.token : undefined;
};

export async function emailLogin(email: string, password: string): Promise<SignInResponse> {
  return (await schemas()).signInResponseSchema.parse(
    await request<unknown>('POST', PlayerPath.emailLogin, { body: { email, password }, token: guestToken() }),
  );
}

export async function emailRegister(email: string, password: string): Promise<MailSentResponse> {
  return (await schemas()).mailSentResponseSchema.parse(
    await request<unknown>('POST', PlayerPath.emailRegister, {
      body: { email, password },
      token: guestToken(),
    }),
  );
}

export async function emailForgot(email: string): Promise<MailSentResponse> {
  return (await schemas()).mailSentResponseSchema.parse(
    await request<unknown>('POST', PlayerPath.emailForgot, { body: { email } }),
  );
}

export async function emailResend(email: string): Promise<MailSentResponse> {
  return (await schemas()).mailSentResponseSchema.parse(
    await request<unknown>('POST', PlayerPath.emailResend, { body: { email } }),
  );
}

export async function emailVerify(token: string): Promise<void> {
  await request<unknown>('POST', PlayerPath.emailVerify, { body: { token } });
}

export async function emailReset(token: string, newPassword: string): Promise<void> {
  await request<unknown>('POST', PlayerPath.emailReset, { body: { token, newPassword } });
}

export async function changePassword(token: string, password: string, newPassword: string): Promise<void> {
  await request<unknown>('PUT', PlayerPath.password, { body: { password, newPassword }, token });
}
