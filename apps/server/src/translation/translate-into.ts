import type { ContextMessage } from '../ai/provider.js';
import { AiError } from '../ai/provider.js';
import { characters, digest, usageOf, type TaskContext } from './task-context.js';
import type { Job } from './types.js';

/** One piece of a translation (a cached one comes as one piece). */
async function sendChunk(ctx: TaskContext, job: Job, target: string, chunk: string): Promise<void> {
  const { roomId, message } = job;
  await ctx.send(roomId, {
    type: 'translationChunk',
    originalTimestamp: message.id,
    targetLanguage: target,
    chunk,
  });
  ctx.emit({ kind: 'chunk', roomId, messageId: message.id, language: target });
}

/** The engine's translation, each piece sent to the room as it comes (a retry is not streamed again). */
async function streamTranslation(
  ctx: TaskContext,
  job: Job,
  target: string,
  context: ContextMessage[],
): Promise<string> {
  const { message } = job;
  let chunksSent = false;
  return ctx.callEngine(
    'translation',
    usageOf(job, 'translation', { characters: characters(message.message), language: target }),
    async (signal) => {
      // A retry after pieces were already shown is not streamed again: translationComplete replaces them.
      const live = !chunksSent;
      let text = '';
      for await (const piece of ctx.provider.translate({
        text: message.message,
        sourceLanguage: message.language,
        targetLanguage: target,
        context,
        signal,
      })) {
        if (signal.aborted) throw signal.reason;
        text += piece;
        if (live && piece) {
          chunksSent = true;
          await sendChunk(ctx, job, target, piece);
        }
      }
      if (signal.aborted) throw signal.reason;
      if (text.trim() === '')
        throw new AiError('the AI engine returned an empty translation', { retryable: true });
      return text.trim();
    },
  );
}

/** Translate into one language; resolves with the full text once sent and stored (undefined on failure). */
export async function translateInto(
  ctx: TaskContext,
  job: Job,
  target: string,
  context: ContextMessage[],
  contextKey: string,
): Promise<string | undefined> {
  const { roomId, message } = job;
  const key = digest(['translation', message.language, target, message.message, contextKey]);
  let fullText = ctx.textCache.get(key) ?? undefined;
  try {
    if (fullText !== undefined) {
      await sendChunk(ctx, job, target, fullText);
    } else {
      if (!ctx.supported('translation', target)) return undefined;
      fullText = await streamTranslation(ctx, job, target, context);
      ctx.textCache.set(key, fullText);
    }
  } catch (error) {
    ctx.reportFailure(job, 'translation', target, error);
    return undefined;
  }
  job.done[target] = fullText;
  // Stored (and given its room offset) before it is sent, so a client that resumes gets it from the log.
  let offset: number | void = undefined;
  try {
    offset = await ctx.store.saveTranslation(roomId, message.id, target, fullText);
    ctx.emit({ kind: 'stored', roomId, messageId: message.id, language: target });
  } catch (error) {
    ctx.logger.error(
      { err: error, roomId, messageId: message.id, language: target },
      'translation: could not store',
    );
  }
  await ctx.send(roomId, {
    type: 'translationComplete',
    originalTimestamp: message.id,
    targetLanguage: target,
    fullText,
    ...(offset ? { offset } : {}),
  });
  ctx.emit({ kind: 'complete', roomId, messageId: message.id, language: target });
  return fullText;
}
