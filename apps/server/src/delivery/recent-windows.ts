import type { MessageFrame } from '@xtalk/protocol';
import type { RoomPosition } from '../rooms/index.js';

/** A room's latest messages (oldest first) and the position they were read at. */
export interface RecentWindow {
  position: RoomPosition | undefined;
  messages: MessageFrame[];
  /** Each message serialised, as every joiner is sent it (filled in by the cache, once per read). */
  json?: readonly Buffer[];
}

export type RecentWindowRead = (roomId: string, limit: number) => Promise<RecentWindow>;

interface Entry {
  limit: number;
  window: RecentWindow;
  timer: NodeJS.Timeout;
}

/**
 * What a joiner without a resume position is sent before READY, shared by the joiners of a room while it
 * is current (decision 0134). Reading the window was one database statement per join, one thread
 * hand-over each way, and up to REPLAY_LIMIT rows parsed and serialised again for every joiner of a room
 * that has not changed since: the cost of a reconnect storm. A window read at offset C may be given to a
 * member already attached to the room (so every frame delivered from now on reaches it) for as long as
 * the room has delivered no logged frame past C: the frames up to C are in the window, the later ones
 * arrive live. `delivered` is that offset on this node (the room's sequencer delivers in offset order and
 * fills every gap). Changes that take no offset (a rename logged in another room renames the messages
 * here too) are seen at the latest `ttlMs` after the read: the window is dropped then, read or not.
 */
export function createRecentWindows(options: {
  read: RecentWindowRead;
  /** The last offset delivered to the room's members on this node; undefined when it has none here. */
  delivered: (roomId: string) => number | undefined;
  ttlMs: number;
}) {
  const entries = new Map<string, Entry>();
  const starts = createOfferedStarts(options);
  /** Reads under way: a joiner that comes meanwhile waits for one and checks it as it would a kept one. */
  const reading = new Map<string, { limit: number; window: Promise<RecentWindow> }>();

  function usable(roomId: string, limit: number, read: { limit: number; window: RecentWindow }) {
    const position = read.window.position;
    const delivered = options.delivered(roomId);
    return (
      read.limit === limit &&
      position !== undefined &&
      delivered !== undefined &&
      delivered <= position.offset
    );
  }

  function keep(roomId: string, limit: number, window: RecentWindow) {
    drop(roomId);
    const timer = setTimeout(() => {
      if (entries.get(roomId)?.timer === timer) entries.delete(roomId);
    }, options.ttlMs);
    timer.unref();
    entries.set(roomId, { limit, window, timer });
  }

  function drop(roomId: string) {
    const entry = entries.get(roomId);
    if (!entry) return;
    clearTimeout(entry.timer);
    entries.delete(roomId);
  }

  async function read(roomId: string, limit: number): Promise<RecentWindow> {
    const window = options.read(roomId, limit).then((read) => ({
      ...read,
      json: read.messages.map((message) => Buffer.from(JSON.stringify(message))),
    }));
    const pending = { limit, window };
    reading.set(roomId, pending);
    try {
      const read = await window;
      // kept only while the room has members here: its offsets are what tells whether it is current
      if (options.delivered(roomId) !== undefined) keep(roomId, limit, read);
      return read;
    } finally {
      if (reading.get(roomId) === pending) reading.delete(roomId);
    }
  }

  return {
    expect: starts.expect,
    withdraw: starts.withdraw,
    /**
     * The window of a room not yet started on this node, read as the position its sequencer starts at
     * (one statement for both), or the one a join offered for it; `keep` shares it once the room has
     * started.
     */
    async first(roomId: string, limit: number) {
      const window = starts.take(roomId, limit) ?? (await options.read(roomId, limit));
      const read = {
        ...window,
        json: window.messages.map((message) => Buffer.from(JSON.stringify(message))),
      };
      return { window: read, keep: () => keep(roomId, limit, read) };
    },
    /** The room's recent window for a member already attached to it: shared while current, else read. */
    async get(roomId: string, limit: number): Promise<RecentWindow> {
      const kept = entries.get(roomId);
      if (kept && usable(roomId, limit, kept)) return kept.window;
      const pending = reading.get(roomId);
      if (pending?.limit === limit) {
        const window = await pending.window.catch(() => undefined);
        if (window && usable(roomId, limit, { limit, window })) return window;
      }
      return read(roomId, limit);
    },
    /** The room has no members here any more: its window goes with it. */
    drop,
    /** Rooms with a window kept (tests). */
    size: () => entries.size,
  };
}
export type RecentWindows = ReturnType<typeof createRecentWindows>;

/**
 * Windows a join on this node read for a room not open here, which start the room here in its socket's
 * stead (decision 0265), and the reads under way for them.
 */
function createOfferedStarts(options: { delivered: (roomId: string) => number | undefined; ttlMs: number }) {
  const offered = new Map<string, Entry>();
  const expected = new Map<string, object>();

  /** The window offered for the room's start, taken once; none when it was read for another limit. */
  function take(roomId: string, limit: number): RecentWindow | undefined {
    const offer = offered.get(roomId);
    if (!offer) return undefined;
    clearTimeout(offer.timer);
    offered.delete(roomId);
    return offer.limit === limit ? offer.window : undefined;
  }

  return {
    /**
     * Called before a join on this node reads a room not open here: the window it read then starts the
     * room here (`first`) within `ttlMs`, unless the room changed on this node since the call (`withdraw`).
     * The read's end is always told, `undefined` when there is nothing to offer.
     */
    expect(roomId: string): (window: (RecentWindow & { limit: number }) | undefined) => void {
      const ticket = {};
      expected.set(roomId, ticket);
      return (window) => {
        if (expected.get(roomId) !== ticket) return;
        expected.delete(roomId);
        // none read (no such room, a failed read), or open here meanwhile: it started without
        if (!window || options.delivered(roomId) !== undefined) return;
        const timer = setTimeout(() => {
          if (offered.get(roomId)?.timer === timer) offered.delete(roomId);
        }, options.ttlMs);
        timer.unref();
        take(roomId, window.limit);
        offered.set(roomId, { limit: window.limit, window, timer });
      };
    },
    /** The room changed on this node while not open here: an offered window no longer starts it. */
    withdraw(roomId: string) {
      expected.delete(roomId);
      take(roomId, 0);
    },
    take,
  };
}
