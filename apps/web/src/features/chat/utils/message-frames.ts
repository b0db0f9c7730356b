import type {
  MessageEditedFrame,
  MessageFrame,
  NoteCompleteFrame,
  TranslationChunkFrame,
  TranslationCompleteFrame,
  TranslationFailedFrame,
} from '@xtalk/protocol';
import { fromFrame, type ChatMessage, type ChatState } from './chat-items';
import { withCaption } from './live-captions';

/*
 * How a message in the chat log takes the frames about it: the message itself (new, replayed, or ending
 * a live caption), its translations streaming in, completing or failing, its correction and its note.
 */

/** `languages` without `language`; undefined once none is left. */
function without(languages: string[] | undefined, language: string): string[] | undefined {
  const rest = languages?.filter((l) => l !== language);
  return rest?.length ? rest : undefined;
}

/** The message `id` through `update`; the same state when it is not there or `update` changes nothing. */
function updateMessage(
  state: ChatState,
  id: number,
  update: (message: ChatMessage) => ChatMessage,
): ChatState {
  const index = state.items.findIndex((item) => item.kind === 'message' && item.id === id);
  if (index < 0) return state;
  const updated = update(state.items[index] as ChatMessage);
  if (updated === state.items[index]) return state; // nothing changed: no new state, no render
  const items = state.items.slice();
  items[index] = updated;
  return { ...state, items };
}

/** A message frame: a new message in time order, or a replayed copy merged into the one held. */
export function upsertMessage(state: ChatState, frame: MessageFrame): ChatState {
  const caption = frame.clipId ? state.captions?.[frame.clipId] : undefined;
  if (frame.clipId && caption) {
    // the clip's message replaces its caption and takes over the translations streamed so far
    const rest = withCaption(state, frame.clipId, () => undefined);
    const partial = Object.fromEntries(
      Object.entries(caption.translations).filter(([language]) => frame.translations[language] === undefined),
    );
    const next = upsertMessage(rest, { ...frame, clipId: undefined });
    return updateMessage(next, frame.id, (message) => ({
      ...message,
      partial: { ...partial, ...message.partial },
    }));
  }
  const incoming = fromFrame(frame);
  const index = state.items.findIndex((item) => item.kind === 'message' && item.id === incoming.id);
  if (index >= 0) {
    // A replayed copy of a message we already hold: keep what streamed in, take what is stored.
    const existing = state.items[index] as ChatMessage;
    const items = state.items.slice();
    // A copy of another text (the stored message was corrected meanwhile) keeps nothing of the old one.
    const sameText = existing.message === incoming.message;
    items[index] = sameText
      ? {
          ...incoming,
          translations: { ...existing.translations, ...incoming.translations },
          partial: existing.partial,
          note: incoming.note ?? existing.note,
          editedAt: incoming.editedAt ?? existing.editedAt,
        }
      : incoming;
    return { ...state, items };
  }
  // Usually the newest; a late replay is slotted in by time so the order stays chronological.
  const items = state.items.slice();
  let at = items.length;
  while (at > 0 && items[at - 1]!.timestamp > incoming.timestamp) at--;
  items.splice(at, 0, incoming);
  return { ...state, items };
}

/** A translation of the text at `revision` (its editedAt, 0 for the first text) is older than the text shown. */
const olderThanShown = (message: { editedAt?: number }, revision: number) =>
  message.editedAt !== undefined && revision < message.editedAt;

/** A chunk of a message's translation streaming in. */
export function onTranslationChunk(state: ChatState, frame: TranslationChunkFrame): ChatState {
  return updateMessage(state, frame.originalTimestamp, (message) => {
    // A chunk arriving after the complete text (reordering, replay) must not append to it.
    if (message.translations[frame.targetLanguage] !== undefined) return message;
    // A chunk of a text older than the correction shown (its revision is that text's editedAt, none for
    // the first text): a node drops those once it delivered the correction, a client guards all the same.
    if (olderThanShown(message, frame.revision ?? 0)) return message;
    const sofar = message.partial[frame.targetLanguage] ?? '';
    // Only a chunk that continues what is shown (0136): joined mid-stream, the start is missing; a late
    // chunk of a text a correction replaced belongs to another stream. translationComplete comes anyway.
    if (frame.at !== undefined && frame.at !== sofar.length) return message;
    return { ...message, partial: { ...message.partial, [frame.targetLanguage]: sofar + frame.chunk } };
  });
}

/** A message's translation is complete: it replaces the chunks and clears a failure mark. */
export function onTranslationComplete(state: ChatState, frame: TranslationCompleteFrame): ChatState {
  return updateMessage(state, frame.originalTimestamp, (message) => {
    // The translation of a text older than the correction shown (a server that names no revision is
    // trusted, as before it named one): a node drops those once it delivered the correction, as chunks.
    if (frame.revision !== undefined && olderThanShown(message, frame.revision)) return message;
    const { [frame.targetLanguage]: _done, ...partial } = message.partial;
    return {
      ...message,
      translations: { ...message.translations, [frame.targetLanguage]: frame.fullText },
      partial,
      failed: without(message.failed, frame.targetLanguage),
    };
  });
}

/**
 * The engine gave up: its chunks go, the message shows as written and keeps a mark for the language (a
 * room notice says why). A complete translation, if one came first, stays.
 */
export function onTranslationFailed(state: ChatState, frame: TranslationFailedFrame): ChatState {
  return updateMessage(state, frame.originalTimestamp, (message) => {
    const language = frame.targetLanguage;
    if (message.translations[language] !== undefined) return message;
    if (message.failed?.includes(language) && message.partial[language] === undefined) return message;
    const { [frame.targetLanguage]: _failed, ...partial } = message.partial;
    const failed = [...(without(message.failed, frame.targetLanguage) ?? []), frame.targetLanguage];
    return { ...message, partial, failed };
  });
}

/** The text was corrected: its translations and hint are void; the new ones follow for the same id. */
export function onMessageEdited(state: ChatState, frame: MessageEditedFrame): ChatState {
  return updateMessage(state, frame.id, (message) =>
    message.editedAt !== undefined && message.editedAt > frame.editedAt
      ? message
      : {
          ...message,
          message: frame.message,
          editedAt: frame.editedAt,
          translations: {},
          partial: {},
          note: undefined,
          failed: undefined,
        },
  );
}

export function onNoteComplete(state: ChatState, frame: NoteCompleteFrame): ChatState {
  return updateMessage(state, frame.originalTimestamp, (message) => ({ ...message, note: frame.note }));
}
