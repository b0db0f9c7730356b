import { MEMBER_COUNT_PROTOCOL_VERSION, type SystemFrame } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { Audience } from './envelope.js';
import type { PresenceEvent } from './presence-event.js';

/*
 * A hot room: one with more people than `hotAbove` (decision 0166). Naming every arrival to
 * everyone makes filling a room of n cost n² names; here current clients get a MEMBERS frame instead: the
 * room's count, how many came and went since the last one and the latest few names. It goes out when the
 * count has moved by a step proportional to the count last announced, so while a room fills each member
 * gets one frame per that fraction of growth: a constant number of frames per join, whatever the size.
 * The exact count follows once the room has been quiet for `settleMs`. Clients below protocol 7 keep
 * getting every name (presence-announcer.ts).
 */

/** The latest arrivals a MEMBERS frame names. */
export const RECENT_NAMES = 5;
/** The count moves by at least 1/STEPS of the count last announced before a MEMBERS frame goes out. */
export const STEPS = 20;

export const forCurrentClients: Audience = { fromVersion: MEMBER_COUNT_PROTOCOL_VERSION };
export const forOlderClients: Audience = { belowVersion: MEMBER_COUNT_PROTOCOL_VERSION };

export interface HotRoomOptions {
  hotAbove: number;
  settleMs: number;
  members: (roomId: string) => Promise<number>;
  /** Sends a MEMBERS frame to the room's current clients. */
  send: (roomId: string, frame: SystemFrame) => Promise<void>;
}

interface HotRoom {
  announced: number;
  joined: number;
  left: number;
  /** The latest arrivals not yet announced, oldest first. */
  recent: Map<string, string>;
  settle: ReturnType<typeof setTimeout> | undefined;
}

export const stepOf = (count: number) => Math.max(1, Math.ceil(count / STEPS));

export function createHotRooms(clock: Clock, options: HotRoomOptions) {
  const rooms = new Map<string, HotRoom>();

  function frameOf(room: HotRoom, members: number): SystemFrame {
    const frame: SystemFrame = {
      type: 'system',
      message: 'MEMBERS',
      timestamp: clock.now(),
      members,
      joined: room.joined,
      left: room.left,
    };
    if (room.recent.size > 0) {
      frame.usernames = [...room.recent.keys()];
      frame.displayUsernames = [...room.recent.values()];
    }
    return frame;
  }

  function announce(roomId: string, room: HotRoom, members: number): Promise<void> {
    const frame = frameOf(room, members);
    Object.assign(room, { announced: members, joined: 0, left: 0, recent: new Map() });
    return options.send(roomId, frame);
  }

  /** The room went quiet: its exact count goes out if it is not what was said last. */
  async function settle(roomId: string) {
    const room = rooms.get(roomId);
    if (!room) return;
    room.settle = undefined;
    const members = await options.members(roomId).catch(() => undefined);
    if (members === undefined || rooms.get(roomId) !== room) return;
    if (members <= options.hotAbove) rooms.delete(roomId);
    if (members !== room.announced || room.joined + room.left > 0) await announce(roomId, room, members);
  }

  function note(room: HotRoom, event: PresenceEvent, people: Map<string, string>) {
    if (event === 'LEAVE') {
      room.left += people.size;
      for (const username of people.keys()) room.recent.delete(username);
      return;
    }
    room.joined += people.size;
    for (const [username, shown] of people) {
      room.recent.delete(username);
      room.recent.set(username, shown);
    }
    for (const username of room.recent.keys()) {
      if (room.recent.size <= RECENT_NAMES) break;
      room.recent.delete(username);
    }
  }

  return {
    isHot: (roomId: string, members: number) => members > options.hotAbove || rooms.has(roomId),

    /** People came or went in a hot room whose count is now `members`: a MEMBERS frame, if a step is due. */
    async changed(roomId: string, event: PresenceEvent, people: Map<string, string>, members: number) {
      let room = rooms.get(roomId);
      if (!room) {
        room = { announced: 0, joined: 0, left: 0, recent: new Map(), settle: undefined };
        rooms.set(roomId, room);
      }
      note(room, event, people);
      clearTimeout(room.settle);
      room.settle = undefined;
      if (Math.abs(members - room.announced) >= stepOf(room.announced)) {
        await announce(roomId, room, members);
        if (members <= options.hotAbove) rooms.delete(roomId);
        return;
      }
      room.settle = setTimeout(() => void settle(roomId), options.settleMs);
      room.settle.unref?.();
    },

    /** The frame a current client joining the room is sent: its count, when the room is hot. */
    async countFor(roomId: string): Promise<SystemFrame | undefined> {
      const members = await options.members(roomId);
      if (members <= options.hotAbove) return undefined;
      return { type: 'system', message: 'MEMBERS', timestamp: clock.now(), members, joined: 0, left: 0 };
    },

    /** Sends every waiting exact count now (shutdown, tests). */
    async flush(): Promise<void> {
      const waiting = [...rooms].filter(([, room]) => room.settle !== undefined);
      await Promise.all(
        waiting.map(([roomId, room]) => {
          clearTimeout(room.settle);
          return settle(roomId);
        }),
      );
    },
  };
}
export type HotRooms = ReturnType<typeof createHotRooms>;
