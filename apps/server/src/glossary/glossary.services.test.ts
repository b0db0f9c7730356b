import { beforeAll, describe, expect, it } from 'vitest';
import type { GlossaryResponse, TranslationCompleteFrame } from '@xtalk/protocol';
import { joinRoom, TestClient, type TestServer } from '../testing/harness.js';
import { memberLogin } from '../testing/members.js';
import { NODES_SECRET, serviceNodes } from '../testing/service-nodes.js';

/*
 * `npm run test:services`: a glossary changed on node A applies to the very next message posted on node B
 * (real PostgreSQL and Redis); the room on node B hears glossaryUpdated through the bus.
 */
describe('the room glossary across nodes', () => {
  const services = serviceNodes('xtalk_glossary', 2, { CREDITS_DAILY_FREE: '100000' });
  let a: TestServer;
  let b: TestServer;
  beforeAll(() => {
    [a, b] = services.nodes as [TestServer, TestServer];
  });

  it('a change on node A reaches a message posted on node B right after', async () => {
    const alice = await memberLogin(a, NODES_SECRET, 'glossary-nodes-alice');
    const bob = await memberLogin(a, NODES_SECRET, 'glossary-nodes-bob');
    const { roomId } = await joinRoom(a.app, alice.token, null);
    const speakerAtB = await TestClient.join(b, alice, roomId, 'en', { protocolVersion: 6 });
    const listenerAtB = await TestClient.join(b, bob, roomId, 'ja', { protocolVersion: 6 });

    const changed = await a.app.inject({
      method: 'PUT',
      url: `/api/rooms/${roomId}/glossary`,
      headers: { authorization: `Bearer ${alice.token}` },
      payload: { entries: [{ term: 'Kite', language: 'en', renderings: { ja: 'カイト' } }] },
    });
    expect(changed.json<GlossaryResponse>().version).toBe(1);
    // at once, before node B could have heard of it from the bus
    speakerAtB.send({ type: 'chat', language: 'en', message: 'Kite ships today', room: roomId });
    const done = await listenerAtB.next<TranslationCompleteFrame>((f) => f.type === 'translationComplete');
    expect(done.fullText).toBe('[ja] カイト ships today');
    expect(await listenerAtB.next((f) => f.type === 'glossaryUpdated')).toEqual({
      type: 'glossaryUpdated',
      room: roomId,
      version: 1,
    });
    speakerAtB.close();
    listenerAtB.close();
  });
});
