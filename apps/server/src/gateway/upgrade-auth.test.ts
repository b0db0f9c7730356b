import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthenticator, createSeals } from '../accounts/index.js';
import { createTokens } from '../accounts/index.js';
import { createUsersRepo } from '../accounts/index.js';
import { createRoomsRepo } from '../rooms/index.js';
import { createSessionHandoffs } from '../rooms/index.js';
import { guestLogin, joinRoom, startServer, userIdOf, type TestServer } from '../testing/harness.js';
import { recordingStatements } from '../testing/recording-db.js';
import { authoriseUpgrade } from './upgrade-auth.js';
import { dbOf, markMerged } from '../testing/seed/index.js';

/*
 * Who may open a socket (a connect's statements are most of its CPU). A bad token is refused
 * before any database read; a good one has its user and the session read in one statement. Real tokens,
 * real repositories on the test server's database, whose statements are counted.
 */

describe('authoriseUpgrade', () => {
  let server: TestServer;
  let now = Date.now();
  const clock = { now: () => now };
  const tokens = createTokens('a-test-secret-of-enough-length-0123456789', 3600, clock);
  let statements: string[] = [];
  /** The test server's database, its statements counted. */
  let counted: ReturnType<typeof recordingStatements>['db'];
  let options: Parameters<typeof authoriseUpgrade>[1];
  const request = (url: string) => ({ url, headers: {} }) as IncomingMessage;

  /** A guest with a room session, and a token of ours for that guest. */
  async function guestInRoom() {
    const login = await guestLogin(server.app);
    const { sessionId, roomId } = await joinRoom(server.app, login.token, null);
    const userId = await userIdOf(server, login.user.username);
    const { token } = await tokens.sign({ userId, provider: 'guest', platformPlayerId: userId });
    return { userId, sessionId, roomId, token };
  }

  beforeAll(async () => {
    server = await startServer();
    const recording = recordingStatements(dbOf(server));
    statements = recording.statements;
    counted = recording.db;
    options = {
      authenticator: createAuthenticator(tokens, createUsersRepo(counted)),
      rooms: createRoomsRepo(counted, clock),
      allowedOrigins: [],
    };
  });
  afterAll(() => server.close());

  it('refuses a bad token without reading the database', async () => {
    statements.length = 0;
    await expect(authoriseUpgrade(request('/xtalk_ws/sess1?t=forged'), options)).rejects.toMatchObject({
      statusCode: 401,
    });
    await expect(authoriseUpgrade(request('/xtalk_ws/sess1'), options)).rejects.toMatchObject({
      statusCode: 401,
    });
    expect(statements).toEqual([]);
  });

  it('admits the session’s own user after one statement for the user and one for the session', async () => {
    const alice = await guestInRoom();
    statements.length = 0;
    const admitted = await authoriseUpgrade(
      request(`/xtalk_ws/${alice.sessionId}?t=${alice.token}`),
      options,
    );
    expect(statements).toHaveLength(2);
    expect(statements.filter((sql) => /\bfrom users\b/.test(sql))).toHaveLength(1);
    expect(statements.filter((sql) => /\bfrom sessions\b/.test(sql))).toHaveLength(1);
    expect(admitted.auth.user).toMatchObject({ id: alice.userId, provider: 'guest' });
    expect(admitted.session).toMatchObject({
      id: alice.sessionId,
      user_id: alice.userId,
      room_id: alice.roomId,
      expires_at: expect.any(Date),
    });
  });

  it('admits the first upgrade after a join on this node with its token, checking and reading nothing', async () => {
    const alice = await guestInRoom();
    const handoffs = createSessionHandoffs(clock);
    // what POST /xtalk holds after creating the session (rooms/routes.ts)
    const claims = await tokens.verify(alice.token);
    const read = {
      session: await options.rooms.findSession(alice.sessionId),
      user: await options.authenticator.userOf(claims),
    };
    handoffs.hold({ session: read.session!, user: read.user!, claims, token: alice.token });
    const withHandoffs = { ...options, handoffs };
    const url = `/xtalk_ws/${alice.sessionId}?t=${alice.token}`;
    statements.length = 0;
    const admitted = await authoriseUpgrade(request(url), withHandoffs);
    expect(statements).toEqual([]);
    expect(admitted).toEqual({ auth: { claims, user: read.user }, session: read.session });
    // used up: the next upgrade checks the token and reads the session and user
    expect(await authoriseUpgrade(request(url), withHandoffs)).toEqual(admitted);
    expect(statements).toHaveLength(2);
  });

  it('refuses another user’s session, an unknown one and an expired one', async () => {
    const [alice, bob] = [await guestInRoom(), await guestInRoom()];
    await expect(
      authoriseUpgrade(request(`/xtalk_ws/${alice.sessionId}?t=${bob.token}`), options),
    ).rejects.toMatchObject({ statusCode: 403 });
    await expect(authoriseUpgrade(request(`/xtalk_ws/nosuch?t=${bob.token}`), options)).rejects.toMatchObject(
      {
        statusCode: 401,
        code: 'session_expired',
      },
    );
    const later = now;
    now += 400 * 24 * 3600 * 1000; // past any session's lifetime
    const expiredToken = (
      await tokens.sign({ userId: alice.userId, provider: 'guest', platformPlayerId: alice.userId })
    ).token;
    await expect(
      authoriseUpgrade(request(`/xtalk_ws/${alice.sessionId}?t=${expiredToken}`), options),
    ).rejects.toMatchObject({ statusCode: 401, code: 'session_expired' });
    now = later;
  });

  it('refuses the token of a user who no longer exists, or who was merged into another', async () => {
    const carol = await guestInRoom();
    const dave = await guestInRoom();
    await markMerged(server, carol.userId, dave.userId);
    await expect(
      authoriseUpgrade(request(`/xtalk_ws/${carol.sessionId}?t=${carol.token}`), options),
    ).rejects.toMatchObject({ statusCode: 401, message: 'The user of this token no longer exists.' });
    const { token: ghost } = await tokens.sign({
      userId: 'u-nobody',
      provider: 'guest',
      platformPlayerId: 'x',
    });
    await expect(
      authoriseUpgrade(request(`/xtalk_ws/${dave.sessionId}?t=${ghost}`), options),
    ).rejects.toMatchObject({ statusCode: 401, message: 'The user of this token no longer exists.' });
  });

  describe('with sealed session ids (decision 0230)', () => {
    const seals = createSeals('a-test-secret-of-enough-length-0123456789');
    const sealedOptions = () => ({ ...options, rooms: createRoomsRepo(counted, clock, { seals }) });

    /** Alice's token, and a sealed session of hers in her room, stored as a join stores it. */
    async function sealedGuest() {
      const alice = await guestInRoom();
      const session = await sealedOptions().rooms.createSession(alice.userId, alice.roomId, 3600);
      return { ...alice, sessionId: session.id };
    }

    it('admits a sealed session after one statement, for its user', async () => {
      const alice = await sealedGuest();
      expect(alice.sessionId).toMatch(/^s[A-Z0-9]{7}/);
      statements.length = 0;
      const admitted = await authoriseUpgrade(
        request(`/xtalk_ws/${alice.sessionId}?t=${alice.token}`),
        sealedOptions(),
      );
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/\bfrom users\b/);
      expect(admitted.auth.user).toMatchObject({ id: alice.userId });
      expect(admitted.session).toMatchObject({
        id: alice.sessionId,
        user_id: alice.userId,
        room_id: alice.roomId,
      });
    });

    it('refuses a sealed session to another user, and a changed or forged one, as the row would', async () => {
      const [alice, bob] = [await sealedGuest(), await sealedGuest()];
      const upgrade = (sessionId: string, token: string) =>
        authoriseUpgrade(request(`/xtalk_ws/${sessionId}?t=${token}`), sealedOptions());
      // not sealed for bob: the row is read, and it is alice's
      await expect(upgrade(alice.sessionId, bob.token)).rejects.toMatchObject({ statusCode: 403 });
      // bob's seal over alice's room: no such session
      const moved = `s${alice.roomId}${bob.sessionId.slice(8)}`;
      await expect(upgrade(moved, bob.token)).rejects.toMatchObject({
        statusCode: 401,
        code: 'session_expired',
      });
      // a seal under another secret
      const forged = createRoomsRepo(dbOf(server), clock, {
        seals: createSeals('another-secret-0123456789'),
      });
      const made = await forged.createSession(bob.userId, alice.roomId, 3600);
      statements.length = 0;
      expect(sealedOptions().rooms.sealedSession(made.id, bob.userId)).toBeUndefined();
      // a later expiry under the same seal
      const later = `${bob.sessionId.slice(0, 8)}zzzzzzz${bob.sessionId.slice(15)}`;
      expect(sealedOptions().rooms.sealedSession(later, bob.userId)).toBeUndefined();
      expect(statements).toEqual([]);
    });

    it('refuses an expired sealed session', async () => {
      const alice = await sealedGuest();
      const later = now;
      now += 2 * 3600 * 1000; // past the session, not the token made below
      const { token } = await tokens.sign({
        userId: alice.userId,
        provider: 'guest',
        platformPlayerId: alice.userId,
      });
      await expect(
        authoriseUpgrade(request(`/xtalk_ws/${alice.sessionId}?t=${token}`), sealedOptions()),
      ).rejects.toMatchObject({ statusCode: 401, code: 'session_expired' });
      now = later;
    });
  });
});
