import type { ContextMessage } from '../ai/index.js';
import { AiError } from '../ai/index.js';
import { characters, digest, usageOf } from './engine-usage.js';
import { storedOffset, type TaskContext } from './task-context.js';
import { termsOf } from './glossary.js';
import { checkCurrent, SupersededError } from './supersede.js';
import type { Job } from './types.js';

/**
 * The first text of the job's translation into `target` reached the room: timed once, from the message
 * (`seconds`: 0 for a clip's sentences translated while it was spoken, before its message existed).
 */
function firstText(ctx: TaskContext, job: Job, target: string, seconds?: number): void {
  const sent = (job.firstTextSent ??= new Set());
  if (sent.has(target)) return;
  sent.add(target);
  ctx.metrics?.translationFirstText(seconds ?? (performance.now() - job.receivedAt) / 1000);
}

/**
 * One piece of a translation (a cached one comes as one piece), `at` the length of the pieces sent before it
 * (a listener who holds a different amount waits for the complete text: decision 0136).
 */
export async function sendChunk(
  ctx: TaskContext,
  job: Job,
  target: string,
  chunk: string,
  at: number | undefined,
): Promise<void> {
  const { roomId, message } = job;
  await ctx.send(roomId, {
    type: 'translationChunk',
    originalTimestamp: message.id,
    targetLanguage: target,
    chunk,
    ...(at !== undefined ? { at } : {}),
    ...(message.editedAt !== undefined ? { revision: message.editedAt } : {}),
  });
  firstText(ctx, job, target);
  ctx.emit({ kind: 'chunk', roomId, messageId: message.id, language: target });
}

/**
 * Ends a translation that failed for good: logged first (a client that was away when it failed is told on
 * resume, and drops the chunks it kept), then sent with its offset. A log that could not be written still
 * leaves the live frame for those in the room.
 */
async function sendFailure(ctx: TaskContext, job: Job, target: string): Promise<void> {
  const { roomId, message } = job;
  const offset = await storedOffset(
    ctx,
    job,
    { failure: 'translation: could not log its failure', language: target },
    () => ctx.store.saveTranslationFailure(roomId, message.id, target, message.message),
  );
  await ctx.send(roomId, {
    type: 'translationFailed',
    originalTimestamp: message.id,
    targetLanguage: target,
    ...(offset ? { offset } : {}),
  });
}

/** The engine's translation, each piece sent to the room as it comes (a retry is not streamed again). */
async function streamTranslation(
  ctx: TaskContext,
  job: Job,
  target: string,
  context: ContextMessage[],
  /** Only this part of the message (a streamed clip's tail), its first chunk led by `lead`. */
  part?: { text: string; lead: string },
  /** Each piece of the live attempt, as it comes (the speech of its sentences). */
  onPiece?: (piece: string) => void,
): Promise<string> {
  const { message } = job;
  const source = part?.text ?? message.message;
  let lead = part?.lead ?? '';
  let chunksSent = false;
  // a clip's tail continues the caption's translation, whose length this stream does not know
  let at = part ? undefined : 0;
  return ctx.callEngine(
    'translation',
    usageOf(job, 'translation', { characters: characters(source), language: target }),
    async (signal) => {
      // A retry after pieces were already shown is not streamed again: translationComplete replaces them.
      const live = !chunksSent;
      let text = '';
      for await (const piece of ctx.provider.translate({
        text: source,
        sourceLanguage: message.language,
        targetLanguage: target,
        context,
        glossary: termsOf(job.glossary, source, target),
        signal,
      })) {
        if (signal.aborted) throw signal.reason;
        text += piece;
        checkCurrent(job);
        if (live && piece) {
          chunksSent = true;
          onPiece?.(piece);
          const chunk = `${lead}${piece}`;
          await sendChunk(ctx, job, target, chunk, at);
          if (at !== undefined) at += chunk.length;
          lead = '';
        }
      }
      if (signal.aborted) throw signal.reason;
      if (text.trim() === '')
        throw new AiError('the AI engine returned an empty translation', { retryable: true });
      return text.trim();
    },
    job.stop?.signal,
  );
}

/**
 * A streamed clip's message: its committed sentences were translated while it was spoken (the listener has
 * those chunks); only the tail is translated now. Undefined when nothing usable was translated early.
 */
async function fromClip(
  ctx: TaskContext,
  job: Job,
  target: string,
  context: ContextMessage[],
  onPiece?: (piece: string) => void,
): Promise<string | undefined> {
  const { roomId, message } = job;
  if (!ctx.clips || !message.clipId) return undefined;
  const head = await ctx.clips.head(
    roomId,
    message.clipId,
    { language: message.language, text: message.message },
    target,
  );
  if (!head) return undefined;
  firstText(ctx, job, target, 0);
  if (head.tail === '') return head.translation;
  if (!ctx.supported('translation', target)) return undefined;
  const part = { text: head.tail, lead: head.joiner };
  const tail = await streamTranslation(ctx, job, target, context, part, onPiece);
  return `${head.translation}${head.joiner}${tail}`;
}

/** Translate into one language; resolves with the full text once sent and stored (undefined on failure). */
export async function translateInto(
  ctx: TaskContext,
  job: Job,
  target: string,
  context: ContextMessage[],
  contextKey: string,
  /** Each piece of the translation as it streams (a cached one comes whole, as the result). */
  onPiece?: (piece: string) => void,
): Promise<string | undefined> {
  const { roomId, message } = job;
  // the same text under another glossary is another translation
  const terms = termsOf(job.glossary, message.message, target) ?? [];
  const key = digest(['translation', message.language, target, message.message, contextKey, terms]);
  let fullText = ctx.textCache.get(key) ?? undefined;
  try {
    checkCurrent(job);
    if (fullText !== undefined) {
      await sendChunk(ctx, job, target, fullText, 0);
    } else if (
      message.clipId &&
      (fullText = await fromClip(ctx, job, target, context, onPiece)) !== undefined
    ) {
      ctx.textCache.set(key, fullText);
    } else {
      if (!ctx.supported('translation', target)) return undefined;
      fullText = await streamTranslation(ctx, job, target, context, undefined, onPiece);
      ctx.textCache.set(key, fullText);
    }
  } catch (error) {
    ctx.reportFailure(job, 'translation', target, error);
    // Listeners may hold some of its chunks: they drop them and show the message as written. Not for a
    // correction (messageEdited clears them already, and the new text has a job of its own).
    if (!(error instanceof SupersededError) && !job.superseded) await sendFailure(ctx, job, target);
    return undefined;
  }
  if (job.superseded) return undefined;
  job.done[target] = fullText;
  const revision = message.editedAt ?? 0;
  // Stored (and given its room offset) before it is sent, so a client that resumes gets it from the log.
  // Only while the message still has the text it was made from (a correction may have landed meanwhile).
  const offset = await storedOffset(
    ctx,
    job,
    { failure: 'translation: could not store', language: target },
    async () => {
      const stored = await ctx.store.saveTranslation(
        roomId,
        message.id,
        target,
        fullText,
        message.message,
        revision,
      );
      ctx.emit({ kind: 'stored', roomId, messageId: message.id, language: target });
      return stored;
    },
  );
  if (job.superseded) return undefined;
  await ctx.send(roomId, {
    type: 'translationComplete',
    originalTimestamp: message.id,
    targetLanguage: target,
    fullText,
    ...(offset ? { offset } : {}),
    revision,
  });
  ctx.emit({ kind: 'complete', roomId, messageId: message.id, language: target });
  return fullText;
}
