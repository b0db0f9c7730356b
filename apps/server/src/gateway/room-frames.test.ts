import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { CloseCode, PROTOCOL_VERSION } from '@xtalk/protocol';
import { ROOM, quiet, room, types } from './testing/fake-room.js';

/*
 * Room frames on their way to each peer, against fake sockets: a peer that stopped reading is dropped
 * (and said so a few times only), and each protocol version gets the frames it reads.
 */

describe('connection: room frames to each peer', () => {
  it('drops a peer that stopped reading instead of buffering for it', async () => {
    const { peer } = room();
    const alice = peer(1);
    const bob = peer(2);
    await alice.join();
    await bob.join();
    bob.socket.bufferedAmount = 5_000;
    await alice.chat('are you there?');
    expect(bob.socket.closed).toEqual({ code: CloseCode.PolicyViolation, reason: 'Too slow to keep up.' });
    expect(types(bob.socket.frames)).not.toContain('message');
  });

  it('says a few times, not once per frame, that it drops a peer that stopped reading', async () => {
    const lines: string[] = [];
    const recording = {
      ...quiet,
      child: () => recording,
      warn: (...args: unknown[]) => void lines.push(String(args.at(-1))),
    };
    const { peer, hub } = room({ logger: recording as unknown as FastifyBaseLogger });
    const bob = peer(2);
    await bob.join();
    bob.socket.bufferedAmount = 5_000; // and its close never completes: every frame finds it stuck
    for (let i = 0; i < 200; i++)
      await hub.broadcast(ROOM, { type: 'system', message: 'JOIN', timestamp: i, username: `u${i}` });
    const dropped = lines.filter((line) => line === 'dropping a connection that stopped reading');
    expect(dropped.length).toBeGreaterThan(0);
    expect(dropped.length).toBeLessThanOrEqual(3);
  });

  it('delivers a room frame as served to current clients, and to older ones only in a form they read', async () => {
    const { peer, hub } = room();
    const clients = [1, 3, PROTOCOL_VERSION].map((version, index) => {
      const client = peer(index + 1);
      const join = { type: 'setUsername', username: client.user.username, language: 'en', room: ROOM };
      client.send(version > 1 ? { ...join, protocolVersion: version } : join);
      return { version, client };
    });
    await Promise.all(clients.map(({ client }) => client.connection.settled()));
    // a failed translation, then a message: everyone gets the message; only a client that knows the
    // failure frame (version 4) gets that, and before the message
    await hub.broadcast(ROOM, { type: 'translationFailed', originalTimestamp: 7, targetLanguage: 'ja' });
    await clients[0]!.client.chat('after the failure');
    for (const { version, client } of clients) {
      await expect
        .poll(() => client.socket.frames.some((frame) => frame.type === 'message'), { timeout: 2000 })
        .toBe(true);
      const seen = types(client.socket.frames).filter((type) => type !== 'system');
      expect(seen, `version ${version}`).toEqual(
        version >= 4 ? ['translationFailed', 'message'] : ['message'],
      );
    }
    expect(clients[2]!.client.socket.frames.find((frame) => frame.type === 'translationFailed')).toEqual({
      type: 'translationFailed',
      originalTimestamp: 7,
      targetLanguage: 'ja',
    });
  });
});
