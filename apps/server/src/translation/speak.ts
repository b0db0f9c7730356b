import { AiError } from '../ai/provider.js';
import { isWav, readWavInfo } from '../audio/index.js';
import { characters, digest, usageOf, type TaskContext } from './task-context.js';
import { checkCurrent } from './supersede.js';
import type { Listeners } from './ports.js';
import type { Job } from './types.js';

/**
 * Synthesise a finished translation once for the listeners of `language` (never the author), when the room
 * has any: the audio is not kept, so speech nobody listens to would be made, and paid for by the author,
 * for nothing (0137). A listener count that cannot be read counts as someone listening.
 */
export async function speak(ctx: TaskContext, job: Job, language: string, text: string): Promise<void> {
  if (!ctx.options.speech || !ctx.supported('speech', language)) return;
  const { roomId, message } = job;
  if (ctx.listeners && !(await listens(ctx, ctx.listeners, roomId, language))) return;
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
        job.stop?.signal,
      );
      ctx.audioCache.set(key, wav);
    }
    checkCurrent(job);
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

async function listens(
  ctx: TaskContext,
  listeners: Listeners,
  roomId: string,
  language: string,
): Promise<boolean> {
  try {
    return await listeners.listens(roomId, language);
  } catch (error) {
    ctx.logger.warn({ err: error, roomId, language }, 'translation: listeners unknown; speaking anyway');
    return true;
  }
}
