import { expect, it } from 'vitest';
import type { ServerFrame } from '@xtalk/protocol';
import { FakeProvider } from '../ai/index.js';
import { guestLogin, joinRoom, presenceOf, startServer, TestClient } from '../testing/harness.js';

/*
 * Speech is made only for a language someone in the room listens in (decision 0137), on the real server: the
 * connections' languages are counted as they join, switch (setLanguage) and leave, and the translation
 * service asks before it synthesises. Translations are made and stored either way.
 */

const messageWith = (text: string) => (frame: ServerFrame) =>
  frame.type === 'message' && frame.message === text;

it('speaks a translation only while someone listens in its language', async () => {
  const provider = new FakeProvider();
  const server = await startServer({ LANGUAGES: 'en,ja', FAKE_AI_CHUNK_DELAY_MS: '0' }, { provider });
  const [ann, bob, cat] = await Promise.all([1, 2, 3].map(() => guestLogin(server.app)));
  const { roomId } = await joinRoom(server.app, ann!.token, null);
  const a = await TestClient.join(server, ann!, roomId, 'en');
  const b = await TestClient.join(server, bob!, roomId, 'en');
  /** Says `text` and waits until every client has its Japanese translation (stored either way). */
  const say = async (text: string, clients: TestClient[]) => {
    a.send({ type: 'chat', language: 'en', message: text, room: roomId });
    for (const client of clients) {
      const message = await client.next(messageWith(text));
      await client.next(
        (frame) =>
          frame.type === 'translationComplete' &&
          frame.originalTimestamp === (message as { id: number }).id &&
          frame.targetLanguage === 'ja',
      );
    }
  };

  await say('one: nobody listens in Japanese', [a, b]);
  const c = await TestClient.join(server, cat!, roomId, 'ja');
  // counted once joined: the room is told after (JOIN)
  await a.next(presenceOf('JOIN', cat!.user.username));
  await say('two: Cat listens in Japanese', [a, b, c]);
  // Cat hears it (the audio comes after the translation)
  await expect.poll(() => c.binary.length).toBe(1);
  c.send({ type: 'setLanguage', language: 'en', room: roomId });
  // a connection's frames are handled in order: once her next message is back, the switch is counted
  c.send({ type: 'chat', language: 'en', message: 'cat: English now', room: roomId });
  await c.next(messageWith('cat: English now'));
  await say('three: Cat switched to English', [a, b, c]);
  c.send({ type: 'setLanguage', language: 'ja', room: roomId });
  c.close();
  // the room is told she left once her connection is no longer counted
  await a.next(presenceOf('LEAVE', cat!.user.username));
  await say('four: Cat left', [a, b]);
  a.close();
  b.close();
  await server.close(); // waits for the translation work still running, speech included

  const spoken = provider.calls.filter((call) => call.task === 'speech').map((call) => call.text);
  expect(spoken).toEqual(['[ja] two: Cat listens in Japanese']);
  expect(c.binary).toHaveLength(1);
});
