import { expect, it } from 'vitest';
import { PROTOCOL_VERSION, type ServerFrame } from '@xtalk/protocol';
import { FakeProvider } from '../ai/index.js';
import { guestLogin, joinRoom, startServer, TestClient } from '../testing/harness.js';

/*
 * A language the engine has no voice for (decision 0205), on the real server: the Japanese listener of
 * protocol 8 is sent the translation's text as `noServerVoice` for the browser to speak, and no speech is
 * made or charged for it; a listener of protocol 7 is served as before (the translation, nothing more);
 * English, which the engine speaks, gets its `speech` frames as always.
 */

const completeOf = (id: number, language: string) => (frame: ServerFrame) =>
  frame.type === 'translationComplete' && frame.originalTimestamp === id && frame.targetLanguage === language;
const messageWith = (text: string) => (frame: ServerFrame) =>
  frame.type === 'message' && frame.message === text;

it('sends a translation without a server voice as text to its listeners of protocol 8 alone', async () => {
  const provider = new FakeProvider({ voiceless: ['ja'] });
  const server = await startServer({ LANGUAGES: 'en,ja' }, { provider });
  const [ann, cat, dan, eve] = await Promise.all([1, 2, 3, 4].map(() => guestLogin(server.app)));
  const { roomId } = await joinRoom(server.app, ann!.token, null);
  const current = { protocolVersion: PROTOCOL_VERSION };
  const a = await TestClient.join(server, ann!, roomId, 'ja', current);
  const c = await TestClient.join(server, cat!, roomId, 'ja', current);
  const d = await TestClient.join(server, dan!, roomId, 'ja', { protocolVersion: 7 });
  const e = await TestClient.join(server, eve!, roomId, 'en', current);

  a.send({ type: 'chat', language: 'en', message: 'Good morning. See you soon.', room: roomId });
  const { id } = await c.next<Extract<ServerFrame, { type: 'message' }>>(
    messageWith('Good morning. See you soon.'),
  );
  const voice = await c.next((frame) => frame.type === 'noServerVoice');
  expect(voice).toEqual({
    type: 'noServerVoice',
    id,
    language: 'ja',
    text: '[ja] Good morning. See you soon.',
  });
  // after the translation it speaks, never before
  const complete = await c.next(completeOf(id, 'ja'));
  expect(c.frames.indexOf(complete)).toBeLessThan(c.frames.indexOf(voice));

  // a later message is the barrier: whatever the first one sent has reached everyone before it
  c.send({ type: 'chat', language: 'ja', message: 'barrier', room: roomId });
  const barriers = await Promise.all([a, d, e].map((x) => x.next(messageWith('barrier'))));
  await d.next(completeOf(id, 'ja'));
  expect(d.framesBefore(barriers[1]!).some((f) => f.type === 'noServerVoice')).toBe(false);
  // the author, listening in Japanese too, is not spoken their own message
  expect(a.framesBefore(barriers[0]!).some((f) => f.type === 'noServerVoice')).toBe(false);
  expect(e.framesBefore(barriers[2]!).some((f) => f.type === 'noServerVoice')).toBe(false);

  // English, which the engine speaks, still comes as audio
  await e.next((frame) => frame.type === 'speech' && frame.id > id && frame.last, 10_000);
  for (const x of [a, c, d, e]) x.close();
  await server.close();
  const spoken = provider.calls.filter((call) => call.task === 'speech');
  expect(spoken.map((call) => call.language)).toEqual(['en']);
});
