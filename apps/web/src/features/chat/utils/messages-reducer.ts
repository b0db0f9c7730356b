import { initialChatState, type ChatAction, type ChatState } from './chat-items';
import { onCaptionChunk, onCaptionPartial } from './live-captions';
import {
  onMessageEdited,
  onNoteComplete,
  onTranslationChunk,
  onTranslationComplete,
  onTranslationFailed,
  upsertMessage,
} from './message-frames';
import { onSystem, onUsernameUpdate } from './room-events';

/*
 * The room's chat log as a pure reducer over server frames (chat-items.ts): each kind of frame goes to
 * the step that knows it, for a message (message-frames.ts), a live caption (live-captions.ts) or the
 * room (room-events.ts).
 */

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  if (action.type === 'reset') return initialChatState;
  const frame = action.frame;
  switch (frame.type) {
    case 'message':
      return upsertMessage(state, frame);
    case 'system':
      return onSystem(state, frame);
    case 'captionPartial':
      return onCaptionPartial(state, frame);
    case 'translationChunk':
      if (frame.originalTimestamp === 0 && frame.clipId) return onCaptionChunk(state, frame.clipId, frame);
      return onTranslationChunk(state, frame);
    case 'translationComplete':
      return onTranslationComplete(state, frame);
    case 'translationFailed':
      return onTranslationFailed(state, frame);
    case 'messageEdited':
      return onMessageEdited(state, frame);
    case 'noteComplete':
      return onNoteComplete(state, frame);
    case 'usernameUpdate':
      return onUsernameUpdate(state, frame);
    default:
      return state;
  }
}
