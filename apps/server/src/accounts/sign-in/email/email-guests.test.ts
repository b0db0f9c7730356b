import { describe, expect, it } from 'vitest';
import { signInResponseSchema } from '@xtalk/protocol';
import { guestLogin, joinRoom } from '../../../testing/harness.js';
import { useEmailServer } from '../../testing/mail-accounts.js';

/* A guest who takes an email account, new or existing, keeps what they did as a guest. */

describe('email accounts and guests', () => {
  const env = useEmailServer();
  const { registerAndVerify, login } = env;

  it('a guest who registers keeps their player: the room history is theirs once verified', async () => {
    const guest = await guestLogin(env.server.app);
    const { roomId } = await joinRoom(env.server.app, guest.token, null);
    await registerAndVerify('guest@example.com', 'guest-password', guest.token);
    const session = signInResponseSchema.parse((await login('guest@example.com', 'guest-password')).json());
    expect(session.user.userId).toBe(guest.user.userId);
    expect(session.user.username).toBe(guest.user.username);
    const history = await env.server.app.inject({
      method: 'GET',
      url: '/api/rooms/history',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().rooms.map((room: { roomId: string }) => room.roomId)).toEqual([roomId]);
  });

  it('a guest who signs in to an existing email account carries their rooms and username into it', async () => {
    await registerAndVerify('member@example.com', 'member-password');
    const guest = await guestLogin(env.server.app);
    const { roomId } = await joinRoom(env.server.app, guest.token, null);
    const signedIn = await login('member@example.com', 'member-password', guest.token);
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const session = signInResponseSchema.parse(signedIn.json());
    expect(session.user.userId).not.toBe(guest.user.userId);
    // the account never chose a username: it keeps the one the room knew
    expect(session.user.displayUsername).toBe(guest.user.displayUsername);
    const history = await env.server.app.inject({
      method: 'GET',
      url: '/api/rooms/history',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(history.json().rooms.map((room: { roomId: string }) => room.roomId)).toEqual([roomId]);
    // the guest token is spent
    const old = await env.server.app.inject({
      method: 'GET',
      url: '/api/me',
      headers: { authorization: `Bearer ${guest.token}` },
    });
    expect(old.statusCode).toBe(401);
    const links = await env.server.app.inject({
      method: 'GET',
      url: '/api/player/links',
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(
      links
        .json()
        .links.map((link: { provider: string }) => link.provider)
        .sort(),
    ).toEqual(['email', 'guest']);
  });
});
