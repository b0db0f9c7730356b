import { describe, expect, it } from 'vitest';
import type { LoggedFrame } from '../rooms/index.js';
import type { FastifyBaseLogger } from 'fastify';
import { decodeEnvelope, encodeText, type Envelope } from './envelope.js';
import { createRoomSequencer, type RoomLogSource } from './room-sequencer.js';
import { loggedMessage } from './testing/logged-message.js';

const frame = loggedMessage;
const silentLogger = { warn: () => undefined } as unknown as FastifyBaseLogger;
const envelope = (offset: number) => decodeEnvelope(encodeText(frame(offset)))!;

function setup(stored: number, gapWaitMs = 5) {
  const log: LoggedFrame[] = Array.from({ length: stored }, (_, i) => frame(i + 1));
  const reads: number[] = [];
  const source: RoomLogSource = {
    position: async () => ({ epoch: 'e', offset: log.length }),
    readSince: async (_room, after, upTo, limit) => {
      reads.push(after);
      return log.filter((f) => f.offset > after && f.offset <= upTo).slice(0, limit);
    },
  };
  const delivered: number[] = [];
  const sequencer = createRoomSequencer(
    'ROOM',
    source,
    (e: Envelope) => delivered.push(JSON.parse(e.body.toString()).offset),
    { gapWaitMs, pageSize: 2, logger: silentLogger },
  );
  return { log, reads, delivered, sequencer, store: (n: number) => log.push(frame(n)) };
}

describe('room sequencer', () => {
  it('puts frames of two publishers back in offset order without reading the log', async () => {
    const t = setup(2);
    await t.sequencer.start();
    t.store(3);
    t.store(4);
    t.sequencer.push(envelope(4));
    t.sequencer.push(envelope(3));
    t.sequencer.push(envelope(3)); // a late copy
    expect(t.delivered).toEqual([3, 4]);
    expect(t.reads).toEqual([]);
  });

  it('fills a gap the bus left from the log, in pages, and drops the late copies', async () => {
    const t = setup(0);
    await t.sequencer.start();
    for (let n = 1; n <= 5; n++) t.store(n);
    t.sequencer.push(envelope(5)); // 1-4 were lost on the bus
    await expect.poll(() => t.delivered).toEqual([1, 2, 3, 4, 5]);
    t.sequencer.push(envelope(2));
    t.store(6);
    t.sequencer.push(envelope(6));
    expect(t.delivered).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('catches up on request (a failed publish, the bus back) with nothing newer on the bus', async () => {
    const t = setup(1);
    await t.sequencer.start();
    t.store(2);
    t.store(3);
    await t.sequencer.catchUp();
    expect(t.delivered).toEqual([2, 3]);
    t.sequencer.push(envelope(3));
    expect(t.delivered).toEqual([2, 3]);
  });

  it('holds frames until it knows where the room is, then starts after what is stored', async () => {
    const t = setup(3);
    t.store(4);
    t.sequencer.push(envelope(4));
    t.sequencer.push(envelope(3));
    expect(t.delivered).toEqual([]);
    t.log.pop(); // the position read sees 3
    await t.sequencer.start();
    expect(t.delivered).toEqual([4]);
  });

  it('skips a hole at the start of a trimmed log instead of waiting for it forever', async () => {
    const t = setup(0);
    await t.sequencer.start();
    t.store(3);
    t.store(4);
    t.sequencer.push(envelope(4));
    await expect.poll(() => t.delivered).toEqual([3, 4]);
  });
});
