import type { MessageFrame, ServerFrame } from '@xtalk/protocol';
import { initialChatState, type ChatMessage, type ChatState, type ChatSystemEvent } from './chat-items';
import { chatReducer } from './messages-reducer';

/* The chat utils' tests build a room's chat state from server frames through these. */

/** A stored message from alice (BraveOtter) in English, with `id` as its timestamp. */
export const message = (id: number, overrides: Partial<MessageFrame> = {}): MessageFrame => ({
  type: 'message',
  id,
  username: 'alice',
  displayUsername: 'BraveOtter',
  message: `hello ${id}`,
  language: 'en',
  timestamp: id,
  translations: {},
  isTutorial: false,
  ...overrides,
});

/** The chat state after `frames`, from `state` or an empty room. */
export const run = (frames: ServerFrame[], state: ChatState = initialChatState) =>
  frames.reduce((s, frame) => chatReducer(s, { type: 'frame', frame }), state);

/** The items that name a person (messages and JOIN/LEAVE), not a hot room's counts. */
export const named = (state: ChatState) =>
  state.items.filter((item): item is ChatMessage | ChatSystemEvent => item.kind !== 'members');

/** The first item, read as a message: the one message of a test about it. */
export const onlyMessage = (state: ChatState) => state.items[0] as ChatMessage;
