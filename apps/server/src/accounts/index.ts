/*
 * Users, session tokens and the authenticator, sign-in, player links and merging: what other modules
 * may use of accounts. It reaches rooms only through the port it declares (UserRooms).
 */
export { type BotCheck } from './sign-in/botcheck.js';
export { createPlayerLinks, type MergedSessions } from './links/player-links.js';
export { type UserRooms } from './user-rooms.js';
export { deleteIdleGuests } from './users/idle-guests.js';
export { displayNameOf, createUsersRepo, toUser, type UserRow, type UsersRepo } from './users/users-repo.js';
export { createTokens, type Tokens } from './sessions/tokens.js';
export { createSeals, type Seals } from './sessions/seals.js';
export {
  authenticatedAs,
  createAuthenticator,
  bearerTokenOf,
  type Authenticator,
  type Authenticated,
} from './sessions/authenticate.js';
export { endsSession, type EndedSessions, type SessionEnds } from './sessions/ended-sessions.js';
export { createMailer } from './sign-in/email/mailer.js';
export { sameText } from './sessions/same-text.js';
export { createSignInStore } from './sessions/sign-in-store.js';
export { deleteExpiredAuthRows } from './users/expired-rows.js';
export { type StorePurchaseAccount } from './links/store-link-proof.js';
export {
  type AuthoredMessageRecord,
  type JoinedRoomRecord,
  type PlayerRecords,
} from './own-data/player-records.js';
export { jsonExport, markdownExport, profileOf } from './own-data/player-export.js';
