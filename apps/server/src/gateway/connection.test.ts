import { describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { quiet, room, ROOM } from './testing/fake-room.js';

/* The connection's rate limit and its logger, in a fake room: no network, a clock the test moves. */

const chatFrame = (n: number) => ({ type: 'chat', language: 'en', message: `m${n}`, room: ROOM });

describe('connection rate limit', () => {
  it('refuses a burst beyond 8 frames', async () => {
    const { peer, stored } = room({ clock: { now: () => 1_000_000 } });
    const alice = peer(1);
    alice.send({ type: 'setUsername', username: 'g-1', language: 'en', room: ROOM });
    for (let i = 0; i < 12; i++) alice.send(chatFrame(i));
    await alice.connection.settled();
    expect(stored).toHaveLength(8);
    expect(
      alice.socket.frames.filter((frame) => frame.type === 'error' && frame.code === 'rate_limited'),
    ).toHaveLength(4);
  });

  it('does not punish a steady client for a server stall', async () => {
    const clock = {
      t: 1_000_000,
      now() {
        return this.t;
      },
    };
    const { peer, stored, holdInserts } = room({ clock });
    const alice = peer(1);
    await alice.join();
    const release = holdInserts();
    // 20 frames at 1 per second (half the sustained limit) arrive while storing is stuck
    for (let i = 0; i < 20; i++) {
      alice.send(chatFrame(i));
      clock.t += 1000;
    }
    release();
    await alice.connection.settled();
    expect(alice.socket.errors()).toEqual([]);
    expect(stored.map((message) => message.message)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i}`));
  });
});

describe('a connection at rest', () => {
  it('makes no child logger while it has nothing to log (a few hundred bytes per idle socket)', async () => {
    let children = 0;
    const counting = { ...quiet, child: () => (children++, quiet) } as unknown as FastifyBaseLogger;
    const calm = room({ logger: counting }).peer(1);
    calm.send({ type: 'setUsername', username: 'g-1', language: 'en', room: ROOM });
    calm.send(chatFrame(1));
    await calm.connection.settled();
    expect(children).toBe(0);
    // one is made the first time something is worth logging: here, a balance that cannot be read
    const unlucky = room({
      logger: counting,
      balanceFrame: () => Promise.reject(new Error('ledger away')),
    }).peer(1);
    unlucky.send({ type: 'setUsername', username: 'g-1', language: 'en', room: ROOM });
    await unlucky.connection.settled();
    expect(children).toBe(1);
  });
});
