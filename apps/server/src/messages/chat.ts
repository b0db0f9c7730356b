import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { createChatService } from './chat-service.js';
import { createFairRooms, withFairRooms } from './fair-rooms.js';
import type { RoomsRepo } from '../rooms/index.js';
import type { TranslationService } from '../translation/index.js';
import type { RoomHub } from '../delivery/index.js';

/**
 * The one path of a message, typed or spoken, and of its corrections: stored, fanned out, translated.
 * Rooms take turns to store, so one room's flood never delays another room's messages.
 */
export function createChat(
  config: Config,
  rooms: RoomsRepo,
  hub: RoomHub,
  translation: Pick<TranslationService, 'onMessage' | 'onEdited' | 'retranslate'>,
  log: FastifyBaseLogger,
) {
  const fairRooms = createFairRooms({
    concurrency: config.STORE_CONCURRENCY,
    maxQueuedPerRoom: config.ROOM_QUEUE_MAX,
  });
  const outlets = {
    broadcast: hub.broadcast,
    onStored: translation.onMessage,
    onEdited: translation.onEdited,
    onRetranslate: translation.retranslate,
  };
  const chat = createChatService(rooms, outlets, log);
  const posting = withFairRooms(chat, fairRooms, config.ROOM_QUEUE_MAX);
  // a room's waiting posts wait as one batch in the fair queue: health counts the posts
  const stats = () => ({
    messagesStoring: fairRooms.stats().messagesStoring,
    messagesWaiting: posting.postsWaiting(),
  });
  return { chat: posting, fairRooms: { ...fairRooms, stats } };
}

/** This node's message path: the posting chat and the fair queue its rooms take turns in. */
export type Chat = ReturnType<typeof createChat>;
