import type { Config } from '../config.js';
import type { VoiceEndFrame, VoiceStartFrame, ServerFrame } from '@xtalk/protocol';
import type { AiProvider } from '../ai/index.js';
import type { Author } from '../messages/index.js';
import { createClipLimiter, createClipPoster, createVoiceInput, type VoiceInputDeps } from './voice-input.js';
import { createVoiceStream, type ClipTranslation } from './voice-stream.js';

/**
 * The connection's voice handlers: whole clips (binary frames) and streamed clips (voiceStart, pieces,
 * voiceEnd), sharing one clip limit and one posting path. `streaming: false` (VOICE_STREAMING=off, or an
 * engine that cannot) keeps the protocol but transcribes each streamed clip when it ends (clip mode).
 */
export function createVoiceHandlers(
  deps: Omit<VoiceInputDeps, 'stream' | 'limiter'> & {
    provider: Pick<AiProvider, 'streamingTranscription' | 'startTranscription'>;
    translation: VoiceInputDeps['translation'] & ClipTranslation;
    broadcast(roomId: string, frame: ServerFrame): Promise<void>;
    streaming: boolean;
  },
) {
  const limiter = createClipLimiter(deps.clock);
  const stream = createVoiceStream({
    chat: deps.chat,
    provider: deps.streaming ? deps.provider : {},
    translation: deps.translation,
    broadcast: deps.broadcast,
    postClip: createClipPoster(deps),
    takeToken: limiter,
    logger: deps.logger,
    ...(deps.maxClipBytes ? { maxClipBytes: deps.maxClipBytes } : {}),
    ...(deps.maxClipSeconds ? { maxClipSeconds: deps.maxClipSeconds } : {}),
    ...(deps.voiced ? { voiced: deps.voiced } : {}),
  });
  return {
    onAudio: createVoiceInput({ ...deps, stream, limiter }),
    onVoiceFrame: (connection: Author, frame: VoiceStartFrame | VoiceEndFrame) =>
      frame.type === 'voiceStart' ? stream.start(connection, frame) : stream.end(connection, frame),
  };
}

/** Voice input, whole clips and streamed ones (VOICE_STREAMING=off: streamed clips in clip mode). */
export function voiceHandlersFor(
  config: Pick<Config, 'VOICE_STREAMING'>,
  deps: Omit<Parameters<typeof createVoiceHandlers>[0], 'broadcast' | 'streaming'> & {
    hub: { broadcast(roomId: string, frame: ServerFrame): Promise<void> };
  },
) {
  return createVoiceHandlers({
    ...deps,
    broadcast: (roomId, frame) => deps.hub.broadcast(roomId, frame),
    streaming: config.VOICE_STREAMING === 'on',
  });
}

export type VoiceHandlers = ReturnType<typeof createVoiceHandlers>;
