import { expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION, type ServerFrame } from '@xtalk/protocol';
import { FakeProvider } from '../ai/index.js';
import { guestLogin, joinRoom, presenceOf, startServer, TestClient } from '../testing/harness.js';

/*
 * A message's speech as one WAV is for clients before sentence-by-sentence speech only: it is made while
 * such a client listens in the language, and not for a room of current clients, who get the sentences.
 */

it('makes the WAV of a spoken translation only while a protocol-5 listener is in the room', async () => {
  const provider = new FakeProvider();
  const server = await startServer({ LANGUAGES: 'en,ja', FAKE_AI_CHUNK_DELAY_MS: '0' }, { provider });
  const wavs = vi.spyOn(server.app.xtalkHub, 'sendAudio');
  try {
    const [ann, cat, dan] = await Promise.all([1, 2, 3].map(() => guestLogin(server.app)));
    const { roomId } = await joinRoom(server.app, ann!.token, null);
    const current = { protocolVersion: PROTOCOL_VERSION };
    const a = await TestClient.join(server, ann!, roomId, 'en', current);
    const c = await TestClient.join(server, cat!, roomId, 'ja', current);
    await a.next(presenceOf('JOIN', cat!.user.username));
    const spoken = async (text: string) => {
      a.send({ type: 'chat', language: 'en', message: text, room: roomId });
      const message = await c.next((f: ServerFrame) => f.type === 'message' && f.message === text);
      await c.next(
        (f: ServerFrame) => f.type === 'speech' && f.id === (message as { id: number }).id && f.last,
      );
    };

    await spoken('one: only current listeners');
    const d = await TestClient.join(server, dan!, roomId, 'ja', { protocolVersion: 5 });
    await a.next(presenceOf('JOIN', dan!.user.username));
    await spoken('two: a version-5 listener too');
    // the WAV follows the sentences: the old client's binary frame is the one made for message two
    await expect.poll(() => d.binary.length).toBe(1);
    for (const client of [a, c, d]) client.close();
  } finally {
    await server.close(); // waits for the translation work still running, the WAV included
  }
  expect(wavs).toHaveBeenCalledTimes(1);
  expect(provider.calls.filter((call) => call.task === 'speech')).toHaveLength(2);
});
