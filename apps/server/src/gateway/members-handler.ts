import { MEMBER_LIST_PROTOCOL_VERSION, type MembersFrame } from '@xtalk/protocol';
import type { ConnectionCore } from './connection-core.js';
import { checkRoom } from './frame-handlers.js';

/** A page when the frame names no limit: what a list shows at once. */
const DEFAULT_PAGE = 50;

/*
 * members (protocol 9): a page of who is in this connection's room, on every node, answered to this
 * connection alone. A hot room sends counts, not names (decision 0166); this is how a member lists them
 * when its user asks. Only a connection joined to the room may ask, and only about that room; a cursor
 * the presence never gave is refused. The presence reads, nothing changes.
 */
export async function members(core: ConnectionCore, frame: MembersFrame) {
  if (core.state !== 'joined')
    return core.sendError('not_joined', 'Join the room before asking who is in it.');
  if (core.protocolVersion < MEMBER_LIST_PROTOCOL_VERSION)
    return core.sendError('bad_frame', `members needs protocol ${MEMBER_LIST_PROTOCOL_VERSION} or later.`);
  if (!checkRoom(core, frame.room)) return;
  const { presence } = core.deps;
  if (!presence.page) return core.sendError('bad_frame', 'This server cannot list a room’s members.');
  const page = await presence.page(core.roomId, frame.cursor, frame.limit ?? DEFAULT_PAGE);
  if (!page) return core.sendError('bad_frame', 'That cursor is not one this room’s member list gave.');
  core.sendFrame({
    type: 'memberList',
    usernames: page.people.map((person) => person.username),
    displayUsernames: page.people.map((person) => person.displayUsername),
    ...(page.cursor !== undefined ? { cursor: page.cursor } : {}),
  });
}
