import { MEMBER_LIST_PROTOCOL_VERSION, type MembersFrame } from '@xtalk/protocol';
import type { PresenceServices, Speaker } from './connection-ports.js';
import { checkRoom } from './frame-handlers.js';

/** A page when the frame names no limit: what a list shows at once. */
const DEFAULT_PAGE = 50;

/*
 * members (protocol 9): a page of who is in this connection's room, on every node, answered to this
 * connection alone. A hot room sends counts, not names (decision 0166); this is how a member lists them
 * when its user asks. Only a connection joined to the room may ask, and only about that room; a cursor
 * the presence never gave is refused. The presence reads, nothing changes.
 */
export async function members(
  services: Pick<PresenceServices, 'presence'>,
  asker: Speaker,
  frame: MembersFrame,
) {
  if (asker.state !== 'joined')
    return asker.sendError('not_joined', 'Join the room before asking who is in it.');
  if (asker.protocolVersion < MEMBER_LIST_PROTOCOL_VERSION)
    return asker.sendError('bad_frame', `members needs protocol ${MEMBER_LIST_PROTOCOL_VERSION} or later.`);
  if (!checkRoom(asker, frame.room)) return;
  const { presence } = services;
  if (!presence.page) return asker.sendError('bad_frame', 'This server cannot list a room’s members.');
  const page = await presence.page(asker.roomId, frame.cursor, frame.limit ?? DEFAULT_PAGE);
  if (!page) return asker.sendError('bad_frame', 'That cursor is not one this room’s member list gave.');
  asker.sendFrame({
    type: 'memberList',
    usernames: page.people.map((person) => person.username),
    displayUsernames: page.people.map((person) => person.displayUsername),
    ...(page.cursor !== undefined ? { cursor: page.cursor } : {}),
  });
}
