import { ApiPath } from '@xtalk/protocol';
import { request } from './api-client';

/*
 * Sign-out on the server: the session ends there, so its token is refused on every node and its sockets
 * close with SignedOut, this tab's and any other's (docs/decisions/0195-sessions-that-end.md).
 */

/** POST /api/auth/logout: ends the session of `token`. */
export async function endSession(token: string): Promise<void> {
  await request<unknown>('POST', ApiPath.logout, { token });
}

/** POST /api/auth/logout-all: ends every session of the player, on every device, this one included. */
export async function endAllSessions(token: string): Promise<void> {
  await request<unknown>('POST', ApiPath.logoutAll, { token });
}
