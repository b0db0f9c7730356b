import type { ContextMessage } from '../ai/index.js';
import { isInsufficientCredits } from './errors.js';
import { roomGlossary } from './glossary.js';
import { digest } from './engine-usage.js';
import { storedOffset, type TaskContext } from './task-context.js';
import { translateInto } from './translate-into.js';
import type { Job } from './types.js';
import { noteLanguageFor, writeNote } from './write-note.js';

/*
 * One message: every missing language translated once (never per listener), each translation spoken
 * sentence by sentence as it streams, and one hint, sent after the translations.
 */

async function loadContext(ctx: TaskContext, job: Job): Promise<ContextMessage[]> {
  if (ctx.options.contextMessages <= 0) return [];
  try {
    const recent = await ctx.store.recentMessages(job.roomId, job.message.id, ctx.options.contextMessages);
    return recent.map((m) => ({
      username: m.displayUsername ?? m.username,
      language: m.language,
      text: m.message,
    }));
  } catch (error) {
    ctx.logger.warn(
      { err: error, roomId: job.roomId },
      'translation: could not read recent messages; no context',
    );
    return [];
  }
}

async function sendNote(ctx: TaskContext, job: Job, noteText: string): Promise<void> {
  const { roomId, message } = job;
  if (job.superseded) return;
  const offset = await storedOffset(ctx, job, { failure: 'translation: could not store the note' }, () =>
    ctx.store.saveNote(roomId, message.id, noteText, message.message),
  );
  if (job.superseded) return;
  await ctx.send(roomId, {
    type: 'noteComplete',
    originalTimestamp: message.id,
    note: noteText,
    ...(offset ? { offset } : {}),
  });
  ctx.emit({ kind: 'note', roomId, messageId: message.id });
}

/**
 * A hint that failed: told as any failure, unless the room already heard of this message's engine trouble
 * from its translations (the same outage; one notice says it). Credits still pause the author.
 */
function reportNoteFailure(ctx: TaskContext, job: Job, error: unknown): void {
  if (!job.failureTold || isInsufficientCredits(error))
    return ctx.reportFailure(job, 'note', undefined, error);
  const { roomId, message } = job;
  ctx.emit({ kind: 'failed', roomId, messageId: message.id, task: 'note' });
  ctx.logger.warn(
    { err: error, roomId, messageId: message.id },
    'translation: note failed with the translation',
  );
}

export async function processMessage(ctx: TaskContext, job: Job): Promise<void> {
  const { roomId, message } = job;
  const { languages } = ctx;
  ctx.emit({ kind: 'started', roomId, messageId: message.id });
  if (job.superseded) return; // corrected while it waited
  const targets = languages.filter((l) => l !== message.language && message.translations[l] === undefined);
  const noteLanguage = message.note === undefined ? noteLanguageFor(message.language, languages) : undefined;
  if (targets.length === 0 && noteLanguage === undefined) return;
  const [context, glossary] = await Promise.all([
    loadContext(ctx, job),
    roomGlossary(ctx.glossary, roomId, ctx.logger),
  ]);
  job.glossary = glossary;
  const contextKey = digest(context.map((m) => [m.username, m.language, m.text]));
  if (job.superseded) return;

  // a hint's failure waits for the translations: the engine failing them all is told once, by them
  let noteFailure: { error: unknown } | undefined;
  const note = noteLanguage
    ? writeNote(ctx, job, noteLanguage, context, contextKey, (error) => (noteFailure = { error }))
    : Promise.resolve(null);
  const speeches: Promise<void>[] = [];
  await Promise.all(
    targets.map(async (target) => {
      // spoken sentence by sentence while the translation streams (speech-stream.ts)
      const speech = ctx.speech?.open(job, target);
      const onPiece = speech && ((piece: string) => speech.push(piece));
      const text = await translateInto(ctx, job, target, context, contextKey, onPiece);
      if (!speech) return;
      if (text === undefined && job.superseded) speech.cancel();
      else speeches.push(speech.finish(text));
    }),
  );
  if (message.clipId) {
    ctx.clips?.dropClip(roomId, message.clipId);
    ctx.speech?.dropClip(roomId, message.clipId);
  }
  // The hint follows the translations (chunks, complete, then note), never before.
  const noteText = await note;
  if (noteFailure) reportNoteFailure(ctx, job, noteFailure.error);
  if (noteText) await sendNote(ctx, job, noteText);
  await Promise.all(speeches);
}
