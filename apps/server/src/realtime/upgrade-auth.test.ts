import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createAuthenticator } from '../auth/authenticate.js';
import { createTokens } from '../auth/tokens.js';
import type { UserRow, UsersRepo } from '../auth/users-repo.js';
import type { SessionRow } from '../rooms/rooms-repo.js';
import { authoriseUpgrade } from './upgrade-auth.js';

/*
 * The upgrade's reads (issue 13): a bad token is refused before any database read, and a good one has its
 * user and its session read together, so both statements reach the database at once. The tokens are
 * real; the two repositories are fakes that record when each read starts and let the test finish them.
 */

const clock = { now: () => Date.now() };
const tokens = createTokens('a-test-secret-of-enough-length-0123456789', 3600, clock);
const alice: UserRow = {
  id: 'u-alice',
  provider: 'guest',
  subject: 's-alice',
  username: 'g-alice',
  display_name: null,
  name: '',
};

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

function setup() {
  const started: string[] = [];
  const user = deferred<UserRow | undefined>();
  const session = deferred<SessionRow | undefined>();
  const users = {
    findById: (id: string) => {
      started.push(`user ${id}`);
      return user.promise;
    },
  } as unknown as UsersRepo;
  const rooms = {
    findSession: (id: string) => {
      started.push(`session ${id}`);
      return session.promise;
    },
  };
  const options = { authenticator: createAuthenticator(tokens, users), rooms, allowedOrigins: [] };
  return { started, user, session, options };
}

const request = (url: string) => ({ url, headers: {} }) as IncomingMessage;

describe('authoriseUpgrade', () => {
  it('refuses a bad token without reading the database', async () => {
    const { started, options } = setup();
    await expect(authoriseUpgrade(request('/xtalk_ws/sess1?t=forged'), options)).rejects.toMatchObject({
      statusCode: 401,
    });
    await expect(authoriseUpgrade(request('/xtalk_ws/sess1'), options)).rejects.toMatchObject({
      statusCode: 401,
    });
    expect(started).toEqual([]);
  });

  it('reads the user and the session together, then admits the session’s own user', async () => {
    const { started, user, session, options } = setup();
    const { token } = await tokens.sign({ userId: alice.id, provider: 'guest', platformPlayerId: 'p1' });
    const result = authoriseUpgrade(request(`/xtalk_ws/sess1?t=${token}`), options);
    // both reads start before either has answered
    await expect.poll(() => started.length).toBe(2);
    expect(started.sort()).toEqual(['session sess1', 'user u-alice']);
    const expiresAt = new Date(Date.now() + 60_000);
    session.resolve({ id: 'sess1', user_id: alice.id, room_id: 'ROOM123', expires_at: expiresAt });
    user.resolve(alice);
    await expect(result).resolves.toMatchObject({ auth: { user: alice }, session: { room_id: 'ROOM123' } });
  });

  it('refuses another user’s session and an unknown one', async () => {
    const { token } = await tokens.sign({ userId: alice.id, provider: 'guest', platformPlayerId: 'p1' });
    const other = setup();
    other.user.resolve(alice);
    other.session.resolve({ id: 's', user_id: 'u-bob', room_id: 'R', expires_at: new Date() });
    await expect(authoriseUpgrade(request(`/xtalk_ws/s?t=${token}`), other.options)).rejects.toMatchObject({
      statusCode: 403,
    });
    const unknown = setup();
    unknown.user.resolve(alice);
    unknown.session.resolve(undefined);
    await expect(authoriseUpgrade(request(`/xtalk_ws/s?t=${token}`), unknown.options)).rejects.toMatchObject({
      statusCode: 401,
      code: 'session_expired',
    });
  });
});
