import type { ServerFrame } from '@xtalk/protocol';
import type { Bus } from '../bus/bus.js';
import { decodeEnvelope, encodeAudio, encodeText, isAudience, type Audience } from './envelope.js';

/** A connection as the hub sees it: where to deliver and what it listens in. */
export interface HubMember {
  readonly roomId: string;
  /** Current values; they change with setLanguage and username updates. */
  username(): string;
  language(): string;
  deliverText(json: Buffer): void;
  deliverAudio(wav: Buffer): void;
}

/** A connection as the user channel sees it: frames meant for this user wherever they are (BALANCE). */
export interface UserMember {
  readonly userId: string;
  deliverText(json: Buffer): void;
}

const channelOf = (roomId: string) => `xtalk:room:${roomId}`;
const userChannelOf = (userId: string) => `xtalk:user:${userId}`;

/**
 * This node's members of each room. The node subscribes to a room's channel while it has a member there;
 * everything for a room goes through the bus, even on one node, so one node and many behave alike.
 */
export function createRoomHub(bus: Bus) {
  const rooms = new Map<string, { members: Set<HubMember>; unsubscribe: Promise<() => Promise<void>> }>();
  const users = new Map<string, { members: Set<UserMember>; unsubscribe: Promise<() => Promise<void>> }>();

  function dispatch(roomId: string, payload: Buffer) {
    const room = rooms.get(roomId);
    const envelope = decodeEnvelope(payload);
    if (!room || !envelope) return;
    for (const member of room.members) {
      if (!isAudience(envelope, member.username(), member.language())) continue;
      if (envelope.kind === 'text') member.deliverText(envelope.body);
      else member.deliverAudio(envelope.body);
    }
  }

  return {
    /** Resolves once the node is subscribed, so nothing published after it is missed. */
    async attach(member: HubMember): Promise<void> {
      let room = rooms.get(member.roomId);
      if (!room) {
        const subscription = bus.subscribe(channelOf(member.roomId), (payload) =>
          dispatch(member.roomId, payload),
        );
        room = { members: new Set(), unsubscribe: subscription };
        rooms.set(member.roomId, room);
      }
      room.members.add(member);
      await room.unsubscribe;
    },

    async detach(member: HubMember): Promise<void> {
      const room = rooms.get(member.roomId);
      if (!room || !room.members.delete(member) || room.members.size > 0) return;
      rooms.delete(member.roomId);
      await (
        await room.unsubscribe
      )();
    },

    /** Subscribes a connection to its user's channel (the node subscribes while it has one there). */
    async attachUser(member: UserMember): Promise<void> {
      let user = users.get(member.userId);
      if (!user) {
        const members = new Set<UserMember>();
        const subscription = bus.subscribe(userChannelOf(member.userId), (payload) => {
          const envelope = decodeEnvelope(payload);
          if (envelope?.kind !== 'text') return;
          for (const each of members) each.deliverText(envelope.body);
        });
        user = { members, unsubscribe: subscription };
        users.set(member.userId, user);
      }
      user.members.add(member);
      await user.unsubscribe;
    },

    async detachUser(member: UserMember): Promise<void> {
      const user = users.get(member.userId);
      if (!user || !user.members.delete(member) || user.members.size > 0) return;
      users.delete(member.userId);
      await (
        await user.unsubscribe
      )();
    },

    /** Sends a frame to every connection of one user, on every node. */
    async sendToUser(userId: string, frame: ServerFrame): Promise<void> {
      await bus.publish(userChannelOf(userId), encodeText(frame));
    },

    /** Sends a frame to the room (or the part of it in `audience`), serialised once here. */
    async broadcast(roomId: string, frame: ServerFrame, audience: Audience = {}): Promise<void> {
      await bus.publish(channelOf(roomId), encodeText(frame, audience));
    },

    async sendAudio(
      roomId: string,
      language: string,
      wav: Uint8Array,
      exceptUsername: string,
    ): Promise<void> {
      await bus.publish(channelOf(roomId), encodeAudio(wav, { language, exceptUsername }));
    },

    /** Local member counts, for health and the benchmark. */
    stats() {
      let connections = 0;
      for (const room of rooms.values()) connections += room.members.size;
      return { rooms: rooms.size, connections };
    },
  };
}
export type RoomHub = ReturnType<typeof createRoomHub>;
