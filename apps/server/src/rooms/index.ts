/*
 * Room codes, members, the room log and its positions, stored messages and their changes, history and
 * session handoffs: what other modules may use of rooms.
 */
export { activeRoomUsers, forgetRoomUsers } from './forget-users.js';
export { countJoinedRooms, moveRoomData } from './user-merge.js';
export { createMessageChanges } from './message-changes.js';
export { createMessagesRepo } from './messages-repo.js';
export { createRoomsRepo, type RoomsRepo, type StoredMessage, type NewMessage } from './rooms-repo.js';
export { createSessionHandoffs, type SessionHandoffs } from './session-handoffs.js';
export {
  createRoomLog,
  REPLAY_LIMIT,
  type RoomLog,
  type RoomPosition,
  type LoggedFrame,
} from './room-log.js';
export { FrameRefusal } from './refusal.js';
export { deleteExpiredSessions, trimRoomChanges } from './expired-rows.js';
export { removeOldMessages } from './retention.js';
export { type EditOutcome, type MessageEdit } from './message-edits.js';
export { type RetranslateOutcome, type RetranslateRequest } from './message-retranslation.js';
export { eraseRoomAuthor, type ErasedAuthorNotice } from './erase-author.js';
export { authoredMessages, joinedRooms } from './author-records.js';
