import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedDisplayName, type MessageFrame, type UsernameUpdateFrame } from '@xtalk/protocol';
import { TestClient, guestLogin, joinRoom, startServer, type TestServer } from '../../testing/harness.js';
import { memberLogin } from '../../testing/members.js';

/* PATCH /users and the username rules as the server applies them; the rename reaching the room. */

const SECRET = 'test-secret-that-is-long-enough-to-sign-tokens';

describe('profile and usernames', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer({ AUTH_SECRET: SECRET });
  });
  afterAll(() => server.close());

  const patch = (token: string | undefined, payload: unknown) =>
    server.app.inject({
      method: 'PATCH',
      url: '/users',
      headers: token ? { authorization: `Bearer ${token}` } : {},
      payload: payload as object,
    });

  it('sets the username (then the display name) and the full name', async () => {
    const member = await memberLogin(server, SECRET, 'profile-1');
    const response = await patch(member.token, { name: '  hanako_s ', fullName: ' Hanako   Sato ' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().user).toMatchObject({
      userId: member.user.userId,
      username: 'hanako_s',
      displayUsername: 'hanako_s',
      name: 'Hanako Sato',
      expiresAt: member.user.expiresAt,
    });
    const me = await server.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(me.json()).toMatchObject({ username: 'hanako_s', name: 'Hanako Sato' });

    // the full name alone, username unchanged
    const again = await patch(member.token, { name: 'hanako_s', fullName: 'Hanako' });
    expect(again.json().user).toMatchObject({ username: 'hanako_s', name: 'Hanako' });
    // and keeping a username from before the rules is allowed: only new names are checked
    const keeps = await memberLogin(server, SECRET, 'profile-keep');
    const unchanged = await patch(keeps.token, { name: keeps.user.username, fullName: 'Keeper' });
    expect(unchanged.statusCode).toBe(200);
    expect(unchanged.json().user.displayUsername).toBe(generatedDisplayName(keeps.user.username));
  });

  it('applies every username rule with its code and message', async () => {
    const member = await memberLogin(server, SECRET, 'profile-rules');
    const generated = generatedDisplayName('g-abcdef012345');
    const cases: [string, number, string, RegExp][] = [
      ['ab', 400, 'ErrInvalidUsernameLength', /^Username is too short, please try again\.$/],
      ['x'.repeat(25), 400, 'ErrInvalidUsernameLength', /too long/],
      ['g-mine', 400, 'ErrUsernameGuestPrefix', /^Username cannot start with g-$/],
      ['two words', 400, 'ErrUsernameInvalidCharacters', /letters, numbers/],
      ['_xtalkchan', 400, 'ErrUsernameReserved', /not available or reserved/],
      ['xtalkchan', 400, 'ErrUsernameReserved', /not available or reserved/],
      ['Admin', 400, 'ErrUsernameReserved', /not available or reserved/],
      [
        generated,
        400,
        'ErrUsernameGenerated',
        new RegExp(`^The username ${generated} is a system generated one`),
      ],
    ];
    for (const [name, status, code, message] of cases) {
      const response = await patch(member.token, { name });
      expect(response.statusCode, name).toBe(status);
      expect(response.json(), name).toMatchObject({ statusCode: status, code });
      expect(response.json().message, name).toMatch(message);
    }
    // nothing was saved
    const me = await server.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(me.json().username).toBe(member.user.username);
  });

  it('refuses a taken username, in any case, with 409 ErrUsernameAlreadyTaken', async () => {
    const first = await memberLogin(server, SECRET, 'profile-taken-1');
    const second = await memberLogin(server, SECRET, 'profile-taken-2');
    expect((await patch(first.token, { name: 'Kenji' })).statusCode).toBe(200);
    for (const name of ['Kenji', 'kenji', 'KENJI']) {
      const response = await patch(second.token, { name });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({
        code: 'ErrUsernameAlreadyTaken',
        message: 'The given username is taken, please try another one.',
      });
    }
    // changing the case of one's own name is not "taken"
    expect((await patch(first.token, { name: 'kenji' })).json().user.username).toBe('kenji');
  });

  it('lets only signed-in users edit, and checks the body', async () => {
    const guest = await guestLogin(server.app);
    const refused = await patch(guest.token, { name: 'guesty' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Login to customize your username and profile.');
    expect((await patch(undefined, { name: 'nobody' })).statusCode).toBe(401);

    const member = await memberLogin(server, SECRET, 'profile-body');
    for (const payload of [{}, { name: 42 }, { name: 'okname', fullName: 'a\u0007b' }]) {
      const response = await patch(member.token, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
    }
  });

  it('tells the room about a rename and renames the stored messages', async () => {
    const member = await memberLogin(server, SECRET, 'profile-room');
    const guest = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, member.token, null);
    const alice = await TestClient.join(server, member, roomId);
    const bob = await TestClient.join(server, guest, roomId);
    alice.send({ type: 'chat', language: 'en', message: 'before the rename', room: roomId });
    await bob.next((frame) => frame.type === 'message' && frame.message === 'before the rename');

    const oldDisplay = member.user.displayUsername;
    expect((await patch(member.token, { name: 'alice_new' })).statusCode).toBe(200);
    alice.send({ type: 'updateUsername', username: 'alice_new', displayUsername: 'alice_new' });
    const update = await bob.next<UsernameUpdateFrame>((frame) => frame.type === 'usernameUpdate');
    expect(update).toEqual({
      type: 'usernameUpdate',
      username: 'alice_new',
      displayUsername: 'alice_new',
      oldDisplayUsername: oldDisplay,
      // logged at the room's next offset, so a client that resumes gets the rename too
      offset: expect.any(Number),
    });
    await alice.next((frame) => frame.type === 'usernameUpdate');

    // someone joining later sees the stored message under the new name
    const later = await guestLogin(server.app);
    const carol = await TestClient.join(server, later, roomId);
    const replayed = await carol.next<MessageFrame>(
      (frame) => frame.type === 'message' && frame.message === 'before the rename',
    );
    expect(replayed).toMatchObject({ username: 'alice_new', displayUsername: 'alice_new' });

    // a frame claiming a name the profile does not have is refused
    alice.send({ type: 'updateUsername', username: 'someone_else', displayUsername: 'someone_else' });
    await alice.next((frame) => frame.type === 'error' && frame.code === 'forbidden');
    for (const client of [alice, bob, carol]) client.close();
  });
});
