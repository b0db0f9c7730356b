// A room's frames fanned out to its sockets on every node, in order, with who is present: what other
// modules may use of the delivery.
export { createDepartures, type Departures } from './departures.js';
export { encodeText, decodeEnvelope, offsetOf, type Audience } from './envelope.js';
export { createHotRooms, type HotRooms } from './hot-rooms.js';
export {
  createPresenceAnnouncer,
  type AnnouncerOptions,
  type PresenceAnnouncer,
} from './presence-announcer.js';
export type { Person, PresenceEvent } from './presence-event.js';
export { withMemoryFallback } from './presence-fallback.js';
export { nodeShares, startNodeHeartbeat, type NodeHeartbeat, type NodeShares } from './presence-nodes.js';
export { createMemoryPresence, createRedisPresence, wholeAudioIn, type Presence } from './presence.js';
export { createRecentWindows, type RecentWindow, type RecentWindowRead } from './recent-windows.js';
export { createFileReturners, createRedisReturners, type Present, type Returners } from './returners.js';
export {
  createRoomHub,
  type HubMember,
  type RoomHub,
  type RoomHubOptions,
  type SpokenSentence,
  type UserMember,
} from './room-hub.js';
export type { RoomLogSource } from './room-sequencer.js';
