import { expect } from 'vitest';
import { signInResponseSchema, type GuestLoginResponse, type SignInResponse } from '@xtalk/protocol';
import { joinRoom, TestClient, type TestServer } from './harness.js';
import type { useEmailServer } from './mail-accounts.js';

/*
 * What the tests of a person's own data share: an email account with a session, a socket in a room,
 * and the calls as a browser makes them.
 */

type EmailEnv = ReturnType<typeof useEmailServer>;

let accounts = 0;

/** A verified email account signed in just now, with the address and password it signed in with. */
export async function emailAccount(env: EmailEnv, label: string) {
  const email = `${label}-${++accounts}@example.com`;
  const password = 'their-own-password';
  await env.registerAndVerify(email, password);
  const answer = await env.login(email, password);
  expect(answer.statusCode, answer.body).toBe(200);
  return { email, password, session: signInResponseSchema.parse(answer.json()) };
}

/** A socket of `session` in `roomId` (a new room when null), after READY, and the room's id. */
export async function inRoom(
  server: TestServer,
  session: SignInResponse | GuestLoginResponse,
  roomId: string | null,
) {
  const room = roomId ?? (await joinRoom(server.app, session.token, null)).roomId;
  const socket = await TestClient.join(server, session as GuestLoginResponse, room);
  return { socket, room };
}

/** Sends a chat message and waits until `receiver` has it. */
export async function say(sender: TestClient, receiver: TestClient, room: string, text: string) {
  sender.send({ type: 'chat', language: 'en', message: text, room });
  await receiver.next((frame) => frame.type === 'message' && frame.message === text);
}

/** Orders credits as the wallet page does (a pending order, nothing paid); answers the order's id. */
export async function orderCredits(server: TestServer, token: string): Promise<string> {
  const order = await server.app.inject({
    method: 'POST',
    url: '/api/wallet/purchase',
    headers: { authorization: `Bearer ${token}` },
    payload: { currency: 't_free', amount: 1000 },
  });
  expect(order.statusCode, order.body).toBe(200);
  return order.json().orderId as string;
}

export const deleteAccount = (server: TestServer, token: string | undefined, payload?: object) =>
  server.app.inject({
    method: 'DELETE',
    url: '/api/player',
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    ...(payload ? { payload } : {}),
  });

export const exportOf = (server: TestServer, token: string | undefined, query = '', accept?: string) =>
  server.app.inject({
    method: 'GET',
    url: `/api/player/export${query}`,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(accept ? { accept } : {}),
    },
  });

export const statusOf = async (server: TestServer, token: string) =>
  (await server.app.inject({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } }))
    .statusCode;
