import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MessageFrame } from '@xtalk/protocol';
import { createMemoryBus } from '../bus/index.js';
import type { LoggedFrame } from '../rooms/index.js';
import { createRecentWindows, type RecentWindow } from './recent-windows.js';
import { createRoomHub, type HubMember } from './room-hub.js';
import type { RoomLogSource } from './room-sequencer.js';

/*
 * A joiner's recent window is read once and shared by the joiners after it while the room has delivered
 * nothing past it (decision 0134). Sharing a window that misses a delivered frame would lose that frame for
 * the joiner (too late for it live, not in its replay): these tests hold the rule to that.
 */

const message = (offset: number): MessageFrame & { offset: number } => ({
  type: 'message',
  id: 1000 + offset,
  username: 'ann',
  message: `m${offset}`,
  language: 'en',
  timestamp: 1000 + offset,
  translations: {},
  isTutorial: false,
  offset,
});

/** A room log in memory that counts window reads; `gate` holds a read until released. */
function memoryLog() {
  const stored: Array<MessageFrame & { offset: number }> = [message(1), message(2), message(3)];
  let reads = 0;
  let gate: Promise<void> | undefined;
  const source: RoomLogSource = {
    position: async () => ({ epoch: 'e1', offset: stored.length }),
    readSince: async (_room, after, upTo, limit) =>
      stored.filter((each) => each.offset > after && each.offset <= upTo).slice(0, limit) as LoggedFrame[],
    async recentWindow(_room, limit) {
      reads += 1;
      // the snapshot is taken when the read starts, as one statement does; the answer may come later
      const window: RecentWindow = {
        position: { epoch: 'e1', offset: stored.length },
        messages: stored.slice(-limit),
      };
      await gate;
      return window;
    },
  };
  return {
    source,
    stored,
    reads: () => reads,
    hold() {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
}

function member(username: string): HubMember & { got: string[] } {
  const got: string[] = [];
  return {
    roomId: 'R',
    got,
    username: () => username,
    language: () => 'en',
    deliverText: (json) => got.push((JSON.parse(json.toString()) as { message: string }).message),
    deliverAudio: () => undefined,
    deliverSpeech: () => undefined,
  };
}

const texts = (window: RecentWindow) => window.messages.map((each) => each.message);

describe('recent windows shared by joiners', () => {
  afterEach(() => vi.useRealTimers());

  it('reads once for joiners of a room that has not moved on, serialised once for all of them', async () => {
    const log = memoryLog();
    const hub = createRoomHub(createMemoryBus(), { log: log.source });
    await hub.attach(member('ann'));
    const first = await hub.recentWindow!('R', 500);
    await hub.attach(member('bob'));
    const second = await hub.recentWindow!('R', 500);

    expect(log.reads()).toBe(1);
    expect(texts(second)).toEqual(['m1', 'm2', 'm3']);
    expect(second.json).toBe(first.json);
    expect(second.json!.map((json) => JSON.parse(json.toString()))).toEqual(second.messages);
  });

  it('reads again once a frame past the window was delivered, and the new joiner gets it', async () => {
    const log = memoryLog();
    const hub = createRoomHub(createMemoryBus(), { log: log.source });
    const ann = member('ann');
    await hub.attach(ann);
    await hub.recentWindow!('R', 500);

    log.stored.push(message(4));
    await hub.broadcast('R', message(4));
    expect(ann.got).toEqual(['m4']);
    await hub.attach(member('bob'));
    const later = await hub.recentWindow!('R', 500);

    expect(log.reads()).toBe(2);
    expect(texts(later)).toEqual(['m1', 'm2', 'm3', 'm4']);
  });

  it('does not hand a read still under way to a joiner after a frame past it was delivered', async () => {
    const log = memoryLog();
    const hub = createRoomHub(createMemoryBus(), { log: log.source });
    const ann = member('ann');
    await hub.attach(ann);
    const release = log.hold();
    const annWindow = hub.recentWindow!('R', 500); // reads at offset 3

    log.stored.push(message(4));
    await hub.broadcast('R', message(4)); // delivered to ann live: she was attached before her read
    const bob = member('bob');
    await hub.attach(bob); // too late for m4 live
    const bobWindow = hub.recentWindow!('R', 500);
    release();

    expect(texts(await annWindow)).toEqual(['m1', 'm2', 'm3']);
    expect(ann.got).toEqual(['m4']);
    expect(texts(await bobWindow)).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(bob.got).toEqual([]);
    expect(log.reads()).toBe(2);
  });

  it('shares a read under way with joiners while nothing was delivered past it', async () => {
    const log = memoryLog();
    const hub = createRoomHub(createMemoryBus(), { log: log.source });
    await hub.attach(member('ann'));
    const release = log.hold();
    const reads = [hub.recentWindow!('R', 500)];
    for (const name of ['bob', 'cat', 'dan']) {
      await hub.attach(member(name));
      reads.push(hub.recentWindow!('R', 500));
    }
    release();

    const windows = await Promise.all(reads);
    expect(log.reads()).toBe(1);
    for (const window of windows) expect(texts(window)).toEqual(['m1', 'm2', 'm3']);
  });

  it('gives the next joiner what was written while nobody here listened', async () => {
    const log = memoryLog();
    const hub = createRoomHub(createMemoryBus(), { log: log.source });
    const ann = member('ann');
    await hub.attach(ann);
    await hub.recentWindow!('R', 500);
    await hub.detach(ann);
    // written elsewhere while nobody here listened: the next joiner must not get the window from before
    log.stored.push(message(4));
    await hub.attach(member('bob'));

    expect(texts(await hub.recentWindow!('R', 500))).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(log.reads()).toBe(2);
  });

  it('reads another window for another limit', async () => {
    const log = memoryLog();
    const hub = createRoomHub(createMemoryBus(), { log: log.source });
    await hub.attach(member('ann'));
    await hub.recentWindow!('R', 500);

    expect(texts(await hub.recentWindow!('R', 2))).toEqual(['m2', 'm3']);
    expect(log.reads()).toBe(2);
  });

  it('keeps a window for ttlMs after its read at most, so changes that take no offset are seen', async () => {
    vi.useFakeTimers();
    let reads = 0;
    const windows = createRecentWindows({
      read: async () => ({ position: { epoch: 'e1', offset: 3 }, messages: [message(++reads)] }),
      delivered: () => 3,
      ttlMs: 1000,
    });
    await windows.get('R', 500);
    vi.advanceTimersByTime(999);
    await windows.get('R', 500);
    expect(reads).toBe(1);
    vi.advanceTimersByTime(1);
    expect(windows.size()).toBe(0);

    expect(texts(await windows.get('R', 500))).toEqual(['m2']);
    expect(reads).toBe(2);
  });

  it('keeps nothing for a room with no member here, and a failed read is not shared', async () => {
    const here: { delivered?: number } = {};
    let fail = true;
    const windows = createRecentWindows({
      read: async () => {
        if (fail) throw new Error('database away');
        return { position: { epoch: 'e1', offset: 3 }, messages: [] };
      },
      delivered: () => here.delivered,
      ttlMs: 1000,
    });
    await expect(windows.get('R', 500)).rejects.toThrow('database away');
    fail = false;
    await windows.get('R', 500);
    expect(windows.size()).toBe(0);
    here.delivered = 3;
    await windows.get('R', 500);
    expect(windows.size()).toBe(1);
  });
});
