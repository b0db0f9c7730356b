import { AiError } from '../ai/provider.js';
import { isWav, readWavInfo } from '../audio/index.js';
import { characters, digest, usageOf, type TaskContext } from './task-context.js';
import type { Job } from './types.js';

/** Synthesise a finished translation once for the listeners of `language` (never the author). */
export async function speak(ctx: TaskContext, job: Job, language: string, text: string): Promise<void> {
  if (!ctx.options.speech || !ctx.supported('speech', language)) return;
  const { roomId, message } = job;
  const key = digest(['speech', language, text]);
  try {
    let wav = ctx.audioCache.get(key);
    if (!wav) {
      wav = await ctx.callEngine(
        'speech',
        usageOf(job, 'speech', { characters: characters(text), language }),
        async (signal) => {
          const audio = await ctx.provider.synthesize({ text, language, signal });
          if (!isWav(audio))
            throw new AiError('the speech engine returned audio that is not WAV', { retryable: false });
          return audio;
        },
      );
      ctx.audioCache.set(key, wav);
    }
    await ctx.output.sendAudio(roomId, language, wav, message.username);
    ctx.emit({ kind: 'audio', roomId, messageId: message.id, language });
    ctx.logger.debug(
      { roomId, messageId: message.id, language, seconds: readWavInfo(wav)?.durationSeconds },
      'translation: spoken translation sent',
    );
  } catch (error) {
    ctx.reportFailure(job, 'speech', language, error);
  }
}
