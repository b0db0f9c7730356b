import { AiUnavailableError, type ContextMessage } from '../ai/index.js';
import { characters, digest, usageOf } from './engine-usage.js';
import type { TaskContext } from './task-context.js';
import type { Job } from './types.js';

/**
 * The language the one hint per message is written in: the other language when the room has two (the
 * listeners who need it), else English when it is a target (the usual lingua franca), else the first target.
 */
export function noteLanguageFor(sourceLanguage: string, languages: readonly string[]): string | undefined {
  const others = languages.filter((language) => language !== sourceLanguage);
  if (others.length <= 1) return others[0];
  return others.includes('en') ? 'en' : others[0];
}

/**
 * An engine that has a hint model it cannot run here (a machine too small for it): the room is told
 * why, once, and nothing is charged for hints that are never written.
 */
function tellWhyNot(ctx: TaskContext, job: Job, failed: (error: unknown) => void): void {
  const reason = ctx.provider.unsupportedReason?.('note');
  const key = `note\u0000${job.roomId}`;
  if (!reason || ctx.toldUnsupported?.has(key)) return;
  ctx.toldUnsupported?.add(key);
  failed(new AiUnavailableError('note', reason));
}

/**
 * The engine's hint on the message, or null when it finds nothing worth saying (or fails: `failed` hears
 * why, and reports it).
 */
export async function writeNote(
  ctx: TaskContext,
  job: Job,
  noteLanguage: string,
  context: ContextMessage[],
  contextKey: string,
  failed: (error: unknown) => void = (error) => ctx.reportFailure(job, 'note', undefined, error),
): Promise<string | null> {
  if (!ctx.options.notes) return null;
  if (!ctx.supported('note', noteLanguage)) {
    tellWhyNot(ctx, job, failed);
    return null;
  }
  const { message } = job;
  const key = digest(['note', message.language, noteLanguage, message.message, contextKey]);
  const cached = ctx.textCache.get(key);
  if (cached !== undefined) return cached;
  try {
    const note = await ctx.callEngine(
      'note',
      usageOf(job, 'note', { characters: characters(message.message), language: noteLanguage }),
      (signal) =>
        ctx.provider.note({
          text: message.message,
          sourceLanguage: message.language,
          noteLanguage,
          context,
          signal,
        }),
      job.stop?.signal,
    );
    const value = note?.trim() ? note.trim() : null;
    ctx.textCache.set(key, value);
    return value;
  } catch (error) {
    failed(error);
    return null;
  }
}
