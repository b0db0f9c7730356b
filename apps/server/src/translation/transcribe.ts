import type { AiProvider, Transcription } from '../ai/index.js';
import { AiUnavailableError } from '../ai/index.js';
import type { EngineCall } from './engine-call.js';
import type { TranscribeRequest } from './types.js';

/** Speech to text, metered by the clip's length, under the same timeout and retries as the other tasks. */
export async function transcribe(
  provider: AiProvider,
  callEngine: EngineCall,
  request: TranscribeRequest,
): Promise<Transcription> {
  if (!provider.supports('transcription')) {
    throw new AiUnavailableError(
      'transcription',
      `transcription unavailable with the '${provider.name}' provider`,
    );
  }
  return callEngine(
    'transcription',
    {
      userId: request.author.userId,
      username: request.author.username,
      roomId: request.roomId,
      task: 'transcription',
      audioSeconds: request.audioSeconds,
    },
    (signal) =>
      request.engine?.(signal) ??
      provider.transcribe(request.audio, {
        languageHint: request.languageHint,
        mimeType: request.mimeType,
        signal,
      }),
  );
}
