import type { CaptionPartialFrame, TranslationChunkFrame } from '@xtalk/protocol';
import type { ChatState, LiveCaption } from './chat-items';

/*
 * Live captions of streamed voice clips (protocol 3) in the chat state: the words so far and the
 * translations of their committed sentences, until the clip's message replaces them.
 */

/** The caption of `clipId` through `update` (a new one starts empty); undefined takes it away. */
export function withCaption(
  state: ChatState,
  clipId: string,
  update: (caption: LiveCaption) => LiveCaption | undefined,
): ChatState {
  const captions = { ...state.captions };
  const current = captions[clipId] ?? {
    clipId,
    username: '',
    displayUsername: '',
    language: '',
    text: '',
    translations: {},
  };
  const next = update(current);
  if (next) captions[clipId] = next;
  else delete captions[clipId];
  return { ...state, captions };
}

/** The words of a clip so far; none left takes its caption away. */
export function onCaptionPartial(state: ChatState, frame: CaptionPartialFrame): ChatState {
  return withCaption(state, frame.clipId, (caption) =>
    frame.text === ''
      ? undefined
      : {
          ...caption,
          username: frame.username,
          displayUsername: frame.displayUsername,
          language: frame.language,
          text: frame.text,
        },
  );
}

/** A chunk of a caption's translation (a clip still being spoken). */
export function onCaptionChunk(state: ChatState, clipId: string, frame: TranslationChunkFrame): ChatState {
  const target = frame.targetLanguage;
  return withCaption(state, clipId, (caption) => ({
    ...caption,
    translations: {
      ...caption.translations,
      [target]: (caption.translations[target] ?? '') + frame.chunk,
    },
  }));
}
