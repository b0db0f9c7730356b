import type { ServerFrame, SystemFrame } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { Audience } from './envelope.js';
import { createHotRooms, forCurrentClients, forOlderClients, type HotRooms } from './hot-rooms.js';
import type { Person, PresenceEvent } from './presence-event.js';

/*
 * JOIN and LEAVE, coalesced per room (decision 0110). Announced one by one, filling a room of n
 * costs n²/2 frames (every joiner is announced to everyone already there): half a million for 1,000.
 * Here the first event in a quiet room goes out at once, exactly as before (one name, not to the
 * person's own connections); events within the next `windowMs` wait and leave together as one frame
 * that lists everyone: `usernames` / `displayUsernames` (the room's '{A and B} have joined'). Such a
 * frame also carries the first person in `username` / `displayUsername`, so a client that does not know
 * the lists still reads a valid frame. It goes to the whole room; a client leaves itself out (a client
 * below protocol 3 gets one frame per person instead, without its own: gateway/legacy-frames.ts).
 * A JOIN and a LEAVE never share a frame, and their order is kept: an event of the other kind sends
 * what is waiting first. With `members` (the room's count on every node), each frame carries the count
 * after it for current clients, and a room above `hotAbove` people is a hot room (hot-rooms.ts): its names
 * go only to clients below protocol 7, and current clients get counts. An event `elsewhere` goes to the
 * other nodes' members only (people a swept node brings back, whom its own members never saw leave), and
 * never shares a frame with one for everyone.
 */

export interface PresenceAnnouncer {
  announce(roomId: string, event: PresenceEvent, person: Person, to?: { elsewhere: boolean }): Promise<void>;
  /** Sends whatever waits now (shutdown, tests). */
  flush(): Promise<void>;
  /** Sends every hot room's exact count that waits for the room to go quiet, now (tests). */
  settle(): Promise<void>;
  /** The MEMBERS frame a current client joining a hot room is sent; undefined for other rooms. */
  countFor(roomId: string): Promise<SystemFrame | undefined>;
}

export interface AnnouncerOptions {
  windowMs?: number;
  /** The room's count of people on every node; without it no room is hot. */
  members?: (roomId: string) => Promise<number>;
  hotAbove?: number;
  settleMs?: number;
}

type Broadcast = (roomId: string, frame: ServerFrame, audience?: Audience) => Promise<void>;

interface RoomWindow {
  event: PresenceEvent | undefined;
  elsewhere: boolean;
  people: Map<string, string>;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export function createPresenceAnnouncer(
  hub: { broadcast: Broadcast },
  clock: Clock,
  options: AnnouncerOptions = {},
): PresenceAnnouncer {
  const { windowMs = 250, members } = options;
  const rooms = new Map<string, RoomWindow>();
  const hot: HotRooms | undefined =
    members &&
    createHotRooms(clock, {
      members,
      hotAbove: options.hotAbove ?? 200,
      settleMs: options.settleMs ?? 2000,
      send: (roomId, frame) => hub.broadcast(roomId, frame, forCurrentClients),
    });

  function frameOf(event: PresenceEvent, people: Map<string, string>): SystemFrame {
    const [[username, displayUsername]] = people as unknown as [[string, string]];
    const frame: SystemFrame = {
      type: 'system',
      message: event,
      timestamp: clock.now(),
      username,
      displayUsername,
    };
    if (people.size > 1) {
      frame.usernames = [...people.keys()];
      frame.displayUsernames = [...people.values()];
    }
    return frame;
  }

  async function send(roomId: string, window: RoomWindow): Promise<void> {
    const { event, people, elsewhere } = window;
    window.event = undefined;
    window.people = new Map();
    if (!event || people.size === 0) return;
    const frame = frameOf(event, people);
    const audience: Audience = people.size === 1 ? { exceptUsername: frame.username! } : {};
    if (elsewhere) audience.elsewhere = true;
    // the count only decorates the frame: while it cannot be read, the names go out as before
    const count = await members?.(roomId).catch(() => undefined);
    if (count === undefined || !hot?.isHot(roomId, count)) {
      if (count !== undefined) frame.members = count;
      return hub.broadcast(roomId, frame, audience);
    }
    await hub.broadcast(roomId, frame, { ...audience, ...forOlderClients });
    await hot.changed(roomId, event, people, count);
  }

  /** The window ends: send what waited and keep the window open while events keep coming. */
  function tick(roomId: string) {
    const window = rooms.get(roomId);
    if (!window) return;
    if (window.people.size === 0) {
      rooms.delete(roomId);
      return;
    }
    void send(roomId, window);
    window.timer = setTimeout(() => tick(roomId), windowMs);
    window.timer.unref?.();
  }

  return {
    async announce(roomId, event, person, { elsewhere } = { elsewhere: false }) {
      let window = rooms.get(roomId);
      if (!window) {
        // a quiet room: this one goes out now, and the window opens for whoever follows
        const people = new Map([[person.username, person.displayUsername]]);
        window = { event, elsewhere, people, timer: undefined };
        rooms.set(roomId, window);
        window.timer = setTimeout(() => tick(roomId), windowMs);
        window.timer.unref?.();
        await send(roomId, window);
        return;
      }
      if (window.event && (window.event !== event || window.elsewhere !== elsewhere))
        await send(roomId, window);
      window.event = event;
      window.elsewhere = elsewhere;
      window.people.delete(person.username); // a repeat moves to the end: the order is arrival order
      window.people.set(person.username, person.displayUsername);
    },
    async flush() {
      const sends: Promise<void>[] = [];
      for (const [roomId, window] of rooms) {
        clearTimeout(window.timer);
        sends.push(send(roomId, window));
      }
      rooms.clear();
      await Promise.all(sends);
    },
    async settle() {
      await hot?.flush();
    },
    async countFor(roomId) {
      return hot?.countFor(roomId).catch(() => undefined);
    },
  };
}
