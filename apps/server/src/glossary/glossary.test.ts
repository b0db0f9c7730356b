import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  GlossaryResponse,
  GuestLoginResponse,
  ServerFrame,
  TranslationCompleteFrame,
} from '@xtalk/protocol';
import {
  guestLogin,
  joinRoom,
  roomBarrier,
  startServer,
  TestClient,
  type TestServer,
} from '../testing/harness.js';
import { memberLogin } from '../testing/members.js';

/*
 * The room glossary over real HTTP and sockets (fake engine, which writes the renderings it is given):
 * who may read and change it, bad lists refused with nothing stored, glossaryUpdated to the room's
 * protocol-6 clients only, and the next translation obeying the change.
 */

const SECRET = 'glossary-test-secret-long-enough-for-hs256';
let server: TestServer;
const auth = (login: GuestLoginResponse) => ({ authorization: `Bearer ${login.token}` });

async function put(login: GuestLoginResponse, roomId: string, payload: unknown) {
  return server.app.inject({
    method: 'PUT',
    url: `/api/rooms/${roomId}/glossary`,
    headers: auth(login),
    payload: payload as object,
  });
}
async function get(login: GuestLoginResponse, roomId: string) {
  return server.app.inject({ method: 'GET', url: `/api/rooms/${roomId}/glossary`, headers: auth(login) });
}

const kite = { term: 'Kite', language: 'en', renderings: { ja: 'Kite' } };

beforeAll(async () => {
  server = await startServer({ AUTH_SECRET: SECRET, CREDITS_DAILY_FREE: '100000' });
}, 120_000);
afterAll(async () => {
  await server.close();
});

describe('room glossary', () => {
  it('lets signed-in members replace it, members read it, and answers the new version', async () => {
    const alice = await memberLogin(server, SECRET, 'glossary-alice');
    const guest = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, alice.token, null);
    await joinRoom(server.app, guest.token, roomId);
    expect((await get(alice, roomId)).json()).toEqual({ version: 0, entries: [] });
    const saved = await put(alice, roomId, {
      entries: [kite, { term: '翔太', language: 'ja', renderings: { en: 'Shota' } }],
    });
    expect(saved.statusCode).toBe(200);
    const body = saved.json<GlossaryResponse>();
    expect(body.version).toBe(1);
    expect(body.entries.map((e) => [e.term, e.renderings])).toEqual([
      ['Kite', { ja: 'Kite' }],
      ['翔太', { en: 'Shota' }],
    ]);
    expect(body.entries.every((e) => typeof e.id === 'string' && e.id.length > 0)).toBe(true);
    // guests read it
    const read = await get(guest, roomId);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(body);
    // the whole list replaces the old one
    expect((await put(alice, roomId, { entries: [body.entries[0]] })).json<GlossaryResponse>()).toEqual({
      version: 2,
      entries: [body.entries[0]],
    });
  });

  it('refuses bad lists with a clear 400 and stores nothing', async () => {
    const alice = await memberLogin(server, SECRET, 'glossary-bad');
    const { roomId } = await joinRoom(server.app, alice.token, null);
    await put(alice, roomId, { entries: [kite] });
    const tooMany = Array.from({ length: 201 }, (_, i) => ({
      term: `t${i}`,
      language: 'en',
      renderings: {},
    }));
    const cases: [unknown, RegExp][] = [
      [{ entries: tooMany }, /at most 200 entries/],
      [{ entries: [{ ...kite, term: '   ' }] }, /term: must not be empty/],
      [{ entries: [{ ...kite, term: 'x'.repeat(101) }] }, /term: must be at most 100 characters/],
      [{ entries: [{ ...kite, language: 'fr' }] }, /language fr is not one of the room's languages/],
      [{ entries: [{ ...kite, renderings: { de: 'Drachen' } }] }, /language de is not one/],
      [{ entries: [kite, { ...kite, term: 'kite' }] }, /already in the list/],
      [{ entries: 'nope' }, /entries/],
    ];
    for (const [payload, message] of cases) {
      const response = await put(alice, roomId, payload);
      expect(response.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
      expect(response.json()).toMatchObject({
        statusCode: 400,
        code: 'bad_request',
        message: expect.stringMatching(message),
      });
    }
    const stored = (await get(alice, roomId)).json<GlossaryResponse>();
    expect(stored.version).toBe(1);
    expect(stored.entries.map((e) => e.term)).toEqual(['Kite']);
  });

  it('answers 403 to non-members and to guests editing, 404 for an unknown room, 401 without a token', async () => {
    const alice = await memberLogin(server, SECRET, 'glossary-owner');
    const stranger = await memberLogin(server, SECRET, 'glossary-stranger');
    const guest = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, alice.token, null);
    await joinRoom(server.app, guest.token, roomId);
    expect((await get(stranger, roomId)).statusCode).toBe(403);
    expect((await put(stranger, roomId, { entries: [kite] })).statusCode).toBe(403);
    const byGuest = await put(guest, roomId, { entries: [kite] });
    expect(byGuest.statusCode).toBe(403);
    expect(byGuest.json()).toMatchObject({ code: 'login_required' });
    const unknown = await get(alice, 'ZZZZZZZ');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'room_not_found' });
    const anonymous = await server.app.inject({ method: 'GET', url: `/api/rooms/${roomId}/glossary` });
    expect(anonymous.statusCode).toBe(401);
    expect((await get(alice, roomId)).json()).toEqual({ version: 0, entries: [] });
  });

  it('tells the room glossaryUpdated (protocol 6 only) and the next translation uses the change', async () => {
    const alice = await memberLogin(server, SECRET, 'glossary-speaker');
    const bob = await memberLogin(server, SECRET, 'glossary-listener');
    const old = await guestLogin(server.app);
    const { roomId } = await joinRoom(server.app, alice.token, null);
    const speaker = await TestClient.join(server, alice, roomId, 'en', { protocolVersion: 6 });
    const listener = await TestClient.join(server, bob, roomId, 'ja', { protocolVersion: 6 });
    const older = await TestClient.join(server, old, roomId, 'ja', { protocolVersion: 5 });
    const isTranslation = (text: string) => (f: ServerFrame) =>
      f.type === 'translationComplete' && f.fullText.includes(text);

    speaker.send({ type: 'chat', language: 'en', message: 'We fly the kite today', room: roomId });
    await listener.next(isTranslation('kite today'));

    const updated = listener.nextNew((f) => f.type === 'glossaryUpdated');
    await put(alice, roomId, { entries: [{ term: 'kite', language: 'en', renderings: { ja: 'カイト' } }] });
    expect(await updated).toEqual({ type: 'glossaryUpdated', room: roomId, version: 1 });

    speaker.send({ type: 'chat', language: 'en', message: 'The Kite team met Kites fans', room: roomId });
    const done = await listener.next<TranslationCompleteFrame>(isTranslation('team met'));
    // case-insensitive, whole words only
    expect(done.fullText).toBe('[ja] The カイト team met Kites fans');

    const [marker] = await roomBarrier(speaker, roomId, [older]);
    expect(older.framesBefore(marker!).some((f) => f.type === ('glossaryUpdated' as string))).toBe(false);
    for (const client of [speaker, listener, older]) client.close();
  });
});
