import type { ServerFrame } from '@xtalk/protocol';
import type { Bus } from '../bus/index.js';
import { decodeEnvelope, encodeRenamed, encodeText, isRenamed } from './envelope.js';

/** A connection as the user channel sees it: frames meant for this user wherever they are (BALANCE). */
export interface UserMember {
  readonly userId: string;
  deliverText(json: Buffer): void;
  /** The user's profile changed on another of their connections: this one takes it too. */
  renamed?(): void;
}

const userChannelOf = (userId: string) => `xtalk:user:${userId}`;

/**
 * This node's connections of one user. Almost every user has one, so `members` is that member itself
 * until a second one comes: a Set per user is memory every connection would pay for nothing.
 */
interface LocalUser {
  members: UserMember | Set<UserMember>;
  unsubscribe: Promise<() => Promise<void>>;
}

function deliverToUser(user: LocalUser, payload: Buffer) {
  if (isRenamed(payload)) {
    for (const each of user.members instanceof Set ? user.members : [user.members]) each.renamed?.();
    return;
  }
  const envelope = decodeEnvelope(payload);
  if (envelope?.kind !== 'text') return;
  if (!(user.members instanceof Set)) return user.members.deliverText(envelope.body);
  for (const each of user.members) each.deliverText(envelope.body);
}

/** Each user's channel, for frames to one person on every node (the node subscribes while it has them). */
export function userChannels(bus: Bus) {
  const users = new Map<string, LocalUser>();
  return {
    /** Subscribes a connection to its user's channel (the node subscribes while it has one there). */
    async attachUser(member: UserMember): Promise<void> {
      let user = users.get(member.userId);
      if (!user) {
        const created: LocalUser = { members: member, unsubscribe: Promise.resolve(async () => undefined) };
        created.unsubscribe = bus.subscribe(userChannelOf(member.userId), (payload) =>
          deliverToUser(created, payload),
        );
        user = created;
        users.set(member.userId, user);
      } else if (user.members instanceof Set) user.members.add(member);
      else if (user.members !== member) user.members = new Set([user.members, member]);
      await user.unsubscribe;
    },

    async detachUser(member: UserMember): Promise<void> {
      const user = users.get(member.userId);
      if (!user) return;
      if (user.members instanceof Set) {
        if (!user.members.delete(member) || user.members.size > 0) return;
      } else if (user.members !== member) return;
      users.delete(member.userId);
      await (
        await user.unsubscribe
      )();
    },

    /** Sends a frame to every connection of one user, on every node. */
    async sendToUser(userId: string, frame: ServerFrame): Promise<void> {
      await bus.publish(userChannelOf(userId), encodeText(frame));
    },

    /**
     * Tells every connection of one user, on every node, that their profile changed: each takes the
     * saved one, as if it had sent its own rename (the room was told once, by the connection that did).
     */
    async renamedUser(userId: string): Promise<void> {
      await bus.publish(userChannelOf(userId), encodeRenamed());
    },
  };
}
