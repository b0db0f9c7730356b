import { z } from 'zod';

/* The answer to a member's `members` (client-frames.ts): who is in its room, a page at a time. */

/**
 * A page of the room's members (protocol 9), the answer to this connection's `members`: usernames and
 * their display names, in the same order, from every node. `cursor` asks for the next page; none: this
 * was the last. Pages are taken while people come and go: someone present throughout is listed at least
 * once, and a client drops repeats by username.
 */
export const memberListFrame = z.object({
  type: z.literal('memberList'),
  usernames: z.array(z.string()),
  displayUsernames: z.array(z.string()),
  cursor: z.string().optional(),
});
export type MemberListFrame = z.infer<typeof memberListFrame>;
