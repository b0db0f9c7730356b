import type { GuestLoginResponse } from '@xtalk/protocol';
import { createTokens } from '../accounts/index.js';
import { toUser } from '../accounts/index.js';
import type { TestServer } from './harness.js';

/*
 * A signed-in (ggl) user without going through the provider, for tests about what signed-in users can do
 * (the provider flow itself is tested in accounts/sign-in/google-sign-in.test.ts). The server must use
 * `secret` as AUTH_SECRET.
 */
export async function memberLogin(
  server: TestServer,
  secret: string,
  subject: string,
  name = '',
): Promise<GuestLoginResponse> {
  const row = await server.app.xtalkAuth.users.findOrCreateOidcUser({
    issuer: 'https://issuer.test',
    subject,
    name,
  });
  const { token, expiresAt } = await createTokens(secret, 43_200, { now: Date.now }).sign({
    userId: row.id,
    provider: row.provider,
    platformPlayerId: row.subject,
  });
  return { token, user: toUser(row, { expiresAt }), player: { id: row.id, platformPlayerID: row.subject } };
}
