import type { ServerFrame } from '@xtalk/protocol';
import { describe, expect, it, vi } from 'vitest';
import { createMemoryBus, type Bus } from '../bus/index.js';
import type { LoggedFrame } from '../rooms/index.js';
import { helloFrom } from './envelope.js';
import { createRoomHub, type HubMember } from './room-hub.js';
import type { RoomLogSource } from './room-sequencer.js';
import { loggedMessage } from './testing/logged-message.js';

/*
 * Two hubs on one in-process bus, as two nodes (decision 0236): a room one node holds alone is delivered
 * there without publishing, and a node that arrives meanwhile gets even the frame stored in the moment
 * before the first node heard its hello.
 */

function roomLog() {
  const frames: LoggedFrame[] = [];
  const source: RoomLogSource = {
    position: async () => ({ epoch: 'e', offset: frames.length }),
    readSince: async (_room, after, upTo, limit) =>
      frames.filter((f) => f.offset > after && f.offset <= upTo).slice(0, limit),
  };
  return {
    source,
    /** Stores the next message, as the message path does before broadcasting it. */
    store: () => {
      frames.push(loggedMessage(frames.length + 1));
      return frames.at(-1)!;
    },
  };
}

function member(roomId: string) {
  const offsets: number[] = [];
  const view: HubMember = {
    roomId,
    username: () => 'g-b',
    language: () => 'en',
    deliverText: (_json, offset) => offset !== undefined && offsets.push(offset),
    deliverAudio: () => undefined,
    deliverSpeech: () => undefined,
  };
  return { view, offsets };
}

/** The in-process bus, counting room publishes, with a node's hellos held back until `release`. */
function node(shared: Bus) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const sent: Buffer[] = [];
  const bus: Bus = {
    ...shared,
    async publish(channel, payload) {
      if (helloFrom(payload) !== undefined) await held;
      else sent.push(payload);
      return shared.publish(channel, payload);
    },
  };
  return { bus, sent, release };
}

/** Broadcasts until one is not published: the hub has heard that it holds the room alone. */
async function untilLocal(hub: ReturnType<typeof createRoomHub>, sent: Buffer[], store: () => LoggedFrame) {
  await vi.waitFor(async () => {
    const before = sent.length;
    await hub.broadcast('R', store());
    expect(sent.length).toBe(before);
  });
  sent.length = 0;
}

/** Two nodes on one bus, the first holding room R alone with a member; the second's hellos held back. */
async function firstNodeAlone() {
  const shared = createMemoryBus();
  const log = roomLog();
  const [one, two] = [node(shared), node(shared)];
  one.release();
  const hubOne = createRoomHub(one.bus, { log: log.source, gapWaitMs: 5 });
  const hubTwo = createRoomHub(two.bus, { log: log.source, gapWaitMs: 5 });
  const here = member('R');
  await hubOne.attach(here.view);
  await untilLocal(hubOne, one.sent, log.store);
  return { log, one, two, hubOne, hubTwo, here };
}

/** A notice, whose text tells the frames apart in the order a member receives them. */
const note = (message: string): ServerFrame => ({ type: 'error', code: 'notice', message });

/**
 * A hub with a member in room R after another node held R for a while, so the hub is back on the bus;
 * `texts` are the notices its member receives. `flush` brings back what the bus holds.
 */
async function backOnTheBus(bus: Bus, log: RoomLogSource, flush: () => void) {
  const hub = createRoomHub(bus, { log });
  const texts: string[] = [];
  const here = member('R');
  here.view.deliverText = (json) => texts.push((JSON.parse(json.toString()) as { message: string }).message);
  await hub.attach(here.view);
  flush();
  const other = createRoomHub(bus, { log });
  const there = member('R');
  await other.attach(there.view);
  flush();
  await other.detach(there.view);
  return { hub, texts };
}

describe('room reach (decision 0236)', () => {
  it('delivers a room held by one node without publishing, and publishes once another node holds it', async () => {
    const { log, one, two, hubOne, hubTwo, here } = await firstNodeAlone();
    two.release();
    let last = log.store();
    await hubOne.broadcast('R', last);
    for (let i = 0; i < 5; i++) await hubOne.broadcast('R', (last = log.store()));
    expect(one.sent).toEqual([]);
    expect(here.offsets.at(-1)).toBe(last.offset);

    const there = member('R');
    await hubTwo.attach(there.view);
    const next = log.store();
    await hubOne.broadcast('R', next);
    expect(there.offsets).toEqual([next.offset]);
    // the last frame node one delivered alone, published again for the newcomer, then the new one
    expect(one.sent).toHaveLength(2);
  });

  it('gives a node that arrives the frame stored before its hello was heard', async () => {
    const { log, two, hubOne, hubTwo, here } = await firstNodeAlone();

    // node two subscribes and reads where the room is; its hello has not reached node one yet
    const there = member('R');
    await hubTwo.attach(there.view);
    const missed = log.store();
    await hubOne.broadcast('R', missed);
    expect(here.offsets.at(-1)).toBe(missed.offset);
    two.release();
    await vi.waitFor(() => expect(there.offsets).toEqual([missed.offset]));
  });

  it('delivers nothing straight to its members before what it published earlier is back from the bus', async () => {
    const log = roomLog();
    // a bus that answers at once and brings payloads back only when asked, like Redis's two connections
    const queue: Array<() => void> = [];
    const shared = createMemoryBus();
    const bus: Bus = {
      ...shared,
      subscribe: (channel, handler) =>
        shared.subscribe(channel, (payload) => queue.push(() => handler(payload))),
    };
    const flush = () => {
      for (const deliver of queue.splice(0)) deliver();
    };
    const { hub, texts } = await backOnTheBus(bus, log.source, flush);
    await hub.broadcast('R', note('first'));
    await hub.broadcast('R', note('second'));
    flush();
    await hub.broadcast('R', note('third'));
    flush();
    expect(texts).toEqual(['first', 'second', 'third']);
  });

  it('goes straight to its members only once the latest of the frames it sent together is back', async () => {
    const log = roomLog();
    // a bus whose answers and whose payloads coming back are each let through by the test, in order
    const back: Array<() => void> = [];
    const answers: Array<() => void> = [];
    let holdAnswers = false;
    const shared = createMemoryBus();
    const bus: Bus = {
      ...shared,
      subscribe: (channel, handler) =>
        shared.subscribe(channel, (payload) => back.push(() => handler(payload))),
      async publish(channel, payload) {
        const receivers = await shared.publish(channel, payload);
        if (holdAnswers) await new Promise<void>((resolve) => answers.push(resolve));
        return receivers;
      },
    };
    const flush = () => {
      for (const deliver of back.splice(0)) deliver();
    };
    const { hub, texts } = await backOnTheBus(bus, log.source, flush);

    holdAnswers = true;
    // two frames leave together, as a stored batch does; the first is answered (alone) and comes back
    const first = hub.broadcast('R', note('first'));
    const second = hub.broadcast('R', note('second'));
    await vi.waitFor(() => expect(answers).toHaveLength(2));
    answers.shift()!();
    await first;
    back.shift()!();
    // the second is still on the bus: a frame sent now must not reach the member before it
    holdAnswers = false;
    const third = hub.broadcast('R', note('third'));
    answers.shift()!();
    await Promise.all([second, third]);
    flush();
    expect(texts).toEqual(['first', 'second', 'third']);
  });
});
