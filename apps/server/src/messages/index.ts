// The one path of a message, typed or spoken, and of its corrections: stored in turn, fanned out,
// handed to translation. What other modules may use of it.
export type { Author } from './author.js';
export { createChat, type Chat } from './chat.js';
export type { ChatService, MessageOutlets, PostMessage, RetranslateAnswer } from './chat-service.js';
export { createFairRooms, ROOM_BUSY, type FairRooms } from './fair-rooms.js';
export { createTokenBucket } from './rate-limit.js';
export { createChatService } from './chat-service.js';
