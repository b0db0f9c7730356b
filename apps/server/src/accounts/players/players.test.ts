import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playerSchema, playersResponseSchema } from '@xtalk/protocol';
import { guestLogin, startServer, type TestServer } from '../../testing/harness.js';
import { memberLogin } from '../../testing/members.js';

/* The player service: own player only, unless the admin key is given. */

const SECRET = 'test-secret-that-is-long-enough-to-sign-tokens';
const ADMIN_KEY = 'admin-key-for-the-player-tests';

describe('player API', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ AUTH_SECRET: SECRET, ADMIN_API_KEY: ADMIN_KEY });
  });
  afterAll(() => server.close());

  const call = (
    method: 'GET' | 'PUT' | 'POST',
    url: string,
    auth: { token?: string; admin?: string },
    payload?: unknown,
  ) =>
    server.app.inject({
      method,
      url,
      headers: {
        ...(auth.token ? { authorization: `Bearer ${auth.token}` } : {}),
        ...(auth.admin ? { 'x-admin-key': auth.admin } : {}),
      },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  it('reads and writes the own player: name, and data that always carries the name', async () => {
    const me = await memberLogin(server, SECRET, 'player-1', 'Yuki');
    const id = me.user.userId;
    const read = await call('GET', `/api/player/${id}`, { token: me.token });
    expect(read.statusCode).toBe(200);
    expect(playerSchema.parse(read.json())).toEqual({
      id,
      name: 'Yuki',
      username: me.user.username,
      provider: 'ggl',
      platform: 'web',
      appId: 'xtalk',
      platformPlayerID: 'player-1',
      data: { name: 'Yuki' },
      // every sign-in of the player
      links: [{ provider: 'ggl', issuer: 'https://issuer.test', subject: 'player-1' }],
    });

    const renamed = await call('PUT', '/api/player', { token: me.token }, { id, name: ' Yuki  Tanaka ' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Yuki Tanaka', data: { name: 'Yuki Tanaka' } });

    const data = await call(
      'PUT',
      `/api/player/${id}/data`,
      { token: me.token },
      { data: { level: 3, name: 'ignored', prefs: { tts: true } } },
    );
    expect(data.statusCode, data.body).toBe(200);
    expect(data.json().data).toEqual({ level: 3, prefs: { tts: true }, name: 'Yuki Tanaka' });

    // the same profile as /api/me
    const profile = await server.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${me.token}` },
    });
    expect(profile.json().name).toBe('Yuki Tanaka');
  });

  it("refuses another user's player without the admin key", async () => {
    const me = await memberLogin(server, SECRET, 'player-own');
    const other = await memberLogin(server, SECRET, 'player-other');
    const otherId = other.user.userId;
    const attempts = [
      call('GET', `/api/player/${otherId}`, { token: me.token }),
      call('PUT', '/api/player', { token: me.token }, { id: otherId, name: 'Mallory' }),
      call('PUT', `/api/player/${otherId}/data`, { token: me.token }, { data: { x: 1 } }),
      call(
        'POST',
        '/api/players/load_by_platform_id',
        { token: me.token },
        {
          platform: 'web',
          appID: 'xtalk',
          platformPlayerIds: ['player-own', 'player-other'],
        },
      ),
      call('POST', '/api/players/load_by_gct_id', { token: me.token }, { gctIDs: [otherId] }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.statusCode, response.body).toBe(403);
      expect(response.json().message).toBe('You can only access your own player.');
    }
    const unchanged = await call('GET', `/api/player/${otherId}`, { admin: ADMIN_KEY });
    expect(unchanged.json().name).toBe('');
    expect((await call('GET', `/api/player/${otherId}`, {})).statusCode).toBe(401);
  });

  it('loads the own player by platform id and by id', async () => {
    const me = await memberLogin(server, SECRET, 'player-load');
    const byPlatform = await call(
      'POST',
      '/api/players/load_by_platform_id',
      { token: me.token },
      { platform: 'web', appID: 'xtalk', platformPlayerIds: ['player-load'] },
    );
    expect(playersResponseSchema.parse(byPlatform.json()).players.map((p) => p.id)).toEqual([me.user.userId]);
    const byId = await call(
      'POST',
      '/api/players/load_by_gct_id',
      { token: me.token },
      { gctIDs: [me.user.userId] },
    );
    expect(byId.json().players.map((p: { id: string }) => p.id)).toEqual([me.user.userId]);
    const otherApp = await call(
      'POST',
      '/api/players/load_by_platform_id',
      { token: me.token },
      { platform: 'web', appID: 'another-app', platformPlayerIds: ['player-load'] },
    );
    expect(otherApp.json()).toEqual({ players: [] });
  });

  it('lets the admin key read and write anyone, and refuses a wrong key', async () => {
    const a = await memberLogin(server, SECRET, 'player-admin-a');
    const b = await memberLogin(server, SECRET, 'player-admin-b');
    const loaded = await call(
      'POST',
      '/api/players/load_by_gct_id',
      { admin: ADMIN_KEY },
      { gctIDs: [a.user.userId, b.user.userId, 'nobody'] },
    );
    expect(loaded.statusCode).toBe(200);
    expect(
      loaded
        .json()
        .players.map((p: { id: string }) => p.id)
        .sort(),
    ).toEqual([a.user.userId, b.user.userId].sort());
    const renamed = await call(
      'PUT',
      '/api/player',
      { admin: ADMIN_KEY },
      { id: b.user.userId, name: 'Set by admin' },
    );
    expect(renamed.json().name).toBe('Set by admin');
    expect((await call('GET', '/api/player/nobody', { admin: ADMIN_KEY })).statusCode).toBe(404);

    const wrong = await call('GET', `/api/player/${a.user.userId}`, { admin: 'not-the-admin-key-at-all' });
    expect(wrong.statusCode).toBe(401);
    // a wrong admin key is not rescued by a valid bearer token
    const both = await call('GET', `/api/player/${a.user.userId}`, { token: a.token, admin: 'wrong' });
    expect(both.statusCode).toBe(401);
  });

  it('needs a string or number id, and valid bodies', async () => {
    const me = await memberLogin(server, SECRET, 'player-ids');
    for (const id of [null, {}, [], true, '']) {
      const response = await call('PUT', '/api/player', { token: me.token }, { id, name: 'x' });
      expect(response.statusCode, JSON.stringify(id)).toBe(400);
    }
    // a number is a valid id (it just is not this user's)
    expect((await call('PUT', '/api/player', { token: me.token }, { id: 12345, name: 'x' })).statusCode).toBe(
      403,
    );
    for (const gctIDs of [[], [null], [{}], 'abc']) {
      const response = await call('POST', '/api/players/load_by_gct_id', { token: me.token }, { gctIDs });
      expect(response.statusCode, JSON.stringify(gctIDs)).toBe(400);
    }
    const notObject = await call(
      'PUT',
      `/api/player/${me.user.userId}/data`,
      { token: me.token },
      { data: [1] },
    );
    expect(notObject.statusCode).toBe(400);
    const huge = await call(
      'PUT',
      `/api/player/${me.user.userId}/data`,
      { token: me.token },
      { data: { blob: 'x'.repeat(20_000) } },
    );
    expect(huge.statusCode).toBe(413);
  });

  it('lets a guest read but not change their player', async () => {
    const guest = await guestLogin(server.app);
    const id = guest.user.userId;
    expect((await call('GET', `/api/player/${id}`, { token: guest.token })).json()).toMatchObject({
      id,
      provider: 'guest',
      platformPlayerID: guest.user.platformPlayerId,
    });
    const put = await call('PUT', '/api/player', { token: guest.token }, { id, name: 'Guest' });
    expect(put.statusCode).toBe(403);
    expect(put.json().message).toBe('Login to customize your username and profile.');
  });
});
