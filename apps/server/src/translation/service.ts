import type { Clock } from '../clock.js';
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { MessageFrame, ServerFrame } from '@xtalk/protocol';
import type { Config } from '../config.js';
import type {
  AiProvider,
  AiTask,
  ContextMessage,
  Logger,
  ProviderStatus,
  Transcription,
} from '../ai/provider.js';
import { AiError, AiTimeoutError, AiUnavailableError, isRetryable, languageName } from '../ai/provider.js';
import { isWav, readWavInfo } from '../audio/index.js';
import { isInsufficientCredits } from './errors.js';
import { LruCache } from './lru.js';
import { createPausedAuthors, type PausableJob } from './paused-authors.js';
import type { Charge, Meter, RoomOutput, TranslationStore, Usage, UserOutput } from './ports.js';

/*
 * Translation of room messages (issue 3, server side).
 *
 * For a new message in language S and every other configured language T: translate once (never per
 * listener), stream the pieces to the room (translationChunk), then translationComplete, store it, and
 * synthesise the complete translation once per T for the listeners of T (sendAudio, never the author).
 * One hint per message (noteComplete) when the engine finds nuance worth it, sent after the translations.
 *
 * onMessage only enqueues: the caller's path never waits for an engine. Work runs under a process-wide
 * concurrency bound, shared round-robin between rooms (each room at most `maxConcurrentPerRoom` messages at
 * once, at most `maxQueuedPerRoom` waiting), so one busy or slow room cannot starve the others.
 * Every engine call: cache first; else Meter.charge (may refuse) then the call under a timeout, retried
 * with bounded exponential backoff when retrying can help. A task that still fails leaves the message with
 * what was done, is refunded (Charge.refund), and tells the room once per kind of failure per window.
 *
 * When the author cannot pay, the message stays as delivered (untranslated); the author is told once and
 * the room gets one line, until `resume(userId)` says the balance grew: then the refused work of the
 * author's recent messages runs again (what was done is not redone) and a later refusal is told again.
 */

export type TranslationConfig = Pick<Config, 'LANGUAGES'> & {
  /** Per-call timeout for engine calls (ms); default 30 000. */
  AI_TIMEOUT_MS?: number;
  /** Messages processed at once by this process; default 8. */
  AI_CONCURRENCY?: number;
};

export interface TranslationServiceOptions {
  /** Earlier messages given to the engine as context. */
  contextMessages: number;
  callTimeoutMs: number;
  /** Attempts per engine call, first one included. */
  attempts: number;
  retryBaseDelayMs: number;
  retryMaxDelayMs: number;
  maxConcurrent: number;
  maxConcurrentPerRoom: number;
  maxQueuedPerRoom: number;
  /** A room hears about one kind of failure at most once per window. */
  noticeWindowMs: number;
  /** Loading-progress notices at most this often per room. */
  loadingNoticeIntervalMs: number;
  cacheEntries: number;
  audioCacheBytes: number;
  closeTimeoutMs: number;
  speech: boolean;
  notes: boolean;
}

export const DEFAULT_TRANSLATION_OPTIONS: TranslationServiceOptions = {
  contextMessages: 6,
  callTimeoutMs: 30_000,
  attempts: 3,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 4_000,
  maxConcurrent: 8,
  maxConcurrentPerRoom: 2,
  maxQueuedPerRoom: 50,
  noticeWindowMs: 60_000,
  loadingNoticeIntervalMs: 5_000,
  cacheEntries: 1_000,
  audioCacheBytes: 16 * 1024 * 1024,
  closeTimeoutMs: 10_000,
  speech: true,
  notes: true,
};

/** Instrumentation (bench, debugging): `at` is performance.now() when the step finished. */
export interface PipelineEvent {
  kind: 'received' | 'started' | 'chunk' | 'complete' | 'stored' | 'note' | 'audio' | 'failed' | 'dropped';
  roomId: string;
  messageId: number;
  language?: string;
  task?: AiTask;
  at: number;
}

export interface TranslationServiceDeps {
  config: TranslationConfig;
  provider: AiProvider;
  output: RoomOutput;
  store: TranslationStore;
  meter: Meter;
  /** Where the author's own notice goes (all of their connections); without it only the room is told. */
  users?: UserOutput;
  logger: Logger;
  clock?: Clock;
  options?: Partial<TranslationServiceOptions>;
  onEvent?: (event: PipelineEvent) => void;
}

export interface Author {
  userId: string;
}

export interface TranscribeRequest {
  roomId: string;
  author: { userId: string; username: string };
  audio: Uint8Array;
  languageHint?: string;
  mimeType?: string;
  /** Length of the clip, for metering (the recorder knows it). */
  audioSeconds: number;
}

export interface TranslationService {
  /** Queue translation of a new message. Never throws, never waits for an engine. */
  onMessage(roomId: string, message: MessageFrame, author: Author): void;
  /**
   * Speech to text for the voice issue, with the same metering, timeout and retries as everything else.
   * Throws InsufficientCreditsError, AiUnavailableError or the last engine error.
   */
  transcribe(request: TranscribeRequest): Promise<Transcription>;
  /** The user's balance grew: run the work refused for their credits again. Never throws. */
  resume(userId: string): void;
  /** Stop taking messages; wait for running ones up to `closeTimeoutMs`, then abort them. */
  close(): Promise<void>;
}

interface Job extends PausableJob {
  author: Author;
}

interface RoomQueue {
  waiting: Job[];
  running: number;
}

class ShutdownError extends Error {
  constructor() {
    super('translation service is shutting down');
    this.name = 'ShutdownError';
  }
}

const LOADING_LABEL: Record<AiTask, string> = {
  translation: 'translation engine',
  note: 'hint engine',
  speech: 'speech engine',
  transcription: 'speech recognition engine',
};

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ShutdownError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ShutdownError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function characters(text: string): number {
  return [...text].length;
}

function digest(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

function describeError(error: unknown): string {
  if (error instanceof AiTimeoutError) return 'the AI engine did not answer in time';
  const status = (error as { status?: unknown } | null)?.status;
  if (typeof status === 'number') return `the AI engine answered HTTP ${status}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * The language the one hint per message is written in: the other language when the room has two (the
 * listeners who need it), else English when it is a target (the usual lingua franca), else the first target.
 */
export function noteLanguageFor(sourceLanguage: string, languages: readonly string[]): string | undefined {
  const others = languages.filter((language) => language !== sourceLanguage);
  if (others.length <= 1) return others[0];
  return others.includes('en') ? 'en' : others[0];
}

export function createTranslationService(deps: TranslationServiceDeps): TranslationService {
  const { provider, output, store, meter, logger } = deps;
  const clock = deps.clock ?? { now: () => Date.now() };
  const options: TranslationServiceOptions = {
    ...DEFAULT_TRANSLATION_OPTIONS,
    ...(deps.config.AI_TIMEOUT_MS ? { callTimeoutMs: deps.config.AI_TIMEOUT_MS } : {}),
    ...(deps.config.AI_CONCURRENCY ? { maxConcurrent: deps.config.AI_CONCURRENCY } : {}),
    ...deps.options,
  };
  const languages = deps.config.LANGUAGES;
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal); // one listener per call in flight
  let closing = false;

  const textCache = new LruCache<string | null>(options.cacheEntries);
  const audioCache = new LruCache<Uint8Array>(
    options.cacheEntries,
    options.audioCacheBytes,
    (wav) => wav.length,
  );

  const rooms = new Map<string, RoomQueue>();
  /** Rooms with waiting jobs, in round-robin order. */
  const ready: string[] = [];
  let running = 0;
  const inFlight = new Set<Promise<void>>();

  const noticeSentAt = new Map<string, number>();
  const loadingNoticeAt = new Map<string, number>();
  const loggedUnsupported = new Set<string>();

  const emit = (event: Omit<PipelineEvent, 'at'>) => {
    if (!deps.onEvent) return;
    try {
      deps.onEvent({ ...event, at: performance.now() });
    } catch {
      // instrumentation never breaks the pipeline
    }
  };

  async function send(roomId: string, frame: ServerFrame, exceptUsername?: string): Promise<void> {
    try {
      await output.broadcast(roomId, frame, exceptUsername ? { exceptUsername } : undefined);
    } catch (error) {
      logger.error({ err: error, roomId, frame: frame.type }, 'translation: broadcast failed');
    }
  }

  /** Tell the room, once per `kind` per window. */
  function notice(roomId: string, kind: string, message: string): void {
    const key = `${roomId}\u0000${kind}`;
    const now = clock.now();
    const last = noticeSentAt.get(key);
    if (last !== undefined && now - last < options.noticeWindowMs) return;
    noticeSentAt.set(key, now);
    if (noticeSentAt.size > 10_000) {
      for (const [k, at] of noticeSentAt) if (now - at >= options.noticeWindowMs) noticeSentAt.delete(k);
    }
    void send(roomId, { type: 'error', code: 'notice', message });
  }

  function supported(task: AiTask, language: string): boolean {
    if (provider.supports(task, language)) return true;
    const key = `${task}:${language}`;
    if (!loggedUnsupported.has(key)) {
      loggedUnsupported.add(key);
      logger.info(
        { provider: provider.name, task, language },
        `AI provider '${provider.name}' has no engine for ${task} (${language}); skipping it`,
      );
    }
    return false;
  }

  // -------------------------------------------------------------------------------- loading progress

  const unsubscribe = provider.onStatus?.((status: ProviderStatus) => {
    if (status.kind === 'failed') return; // each waiting task reports its own AiUnavailableError
    const label = LOADING_LABEL[status.task];
    for (const roomId of rooms.keys()) {
      const key = `${roomId}\u0000${status.task}`;
      const now = clock.now();
      if (status.kind === 'ready') {
        if (loadingNoticeAt.delete(key))
          void send(roomId, { type: 'error', code: 'notice', message: `${label} ready` });
        continue;
      }
      const last = loadingNoticeAt.get(key);
      if (last !== undefined && now - last < options.loadingNoticeIntervalMs) continue;
      loadingNoticeAt.set(key, now);
      void send(roomId, {
        type: 'error',
        code: 'notice',
        message: `${label} loading ${Math.floor(status.percent)}%`,
      });
    }
  });

  // -------------------------------------------------------------------------------- engine calls

  /** Charge, then run `call` under a timeout with bounded retries. */
  async function callEngine<T>(
    task: AiTask,
    usage: Usage,
    call: (signal: AbortSignal, attempt: number) => Promise<T>,
  ): Promise<T> {
    if (shutdown.signal.aborted) throw new ShutdownError();
    // one charge per engine call; retries of a failed call are not charged again
    const charge = await meter.charge(usage);
    try {
      return await attemptCall(task, usage, call);
    } catch (error) {
      // nothing is charged for work that failed (or was abandoned at shutdown)
      if (charge) await refund(charge, usage);
      throw error;
    }
  }

  async function refund(charge: Charge, usage: Usage): Promise<void> {
    try {
      await charge.refund();
    } catch (error) {
      logger.error({ err: error, userId: usage.userId, task: usage.task }, 'translation: refund failed');
    }
  }

  async function attemptCall<T>(
    task: AiTask,
    usage: Usage,
    call: (signal: AbortSignal, attempt: number) => Promise<T>,
  ): Promise<T> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= options.attempts; attempt += 1) {
      if (shutdown.signal.aborted) throw new ShutdownError();
      const controller = new AbortController();
      const onShutdown = () => controller.abort(new ShutdownError());
      shutdown.signal.addEventListener('abort', onShutdown, { once: true });
      const timer = setTimeout(
        () => controller.abort(new AiTimeoutError(task, options.callTimeoutMs)),
        options.callTimeoutMs,
      );
      // Engines that ignore the signal still lose the race; the work they finish later is discarded.
      const aborted = new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
      });
      aborted.catch(() => undefined);
      try {
        return await Promise.race([call(controller.signal, attempt), aborted]);
      } catch (caught) {
        const error = controller.signal.aborted ? controller.signal.reason : caught;
        lastError = error;
        if (error instanceof ShutdownError) throw error;
        const retry = isRetryable(error) && attempt < options.attempts;
        logger.warn(
          { err: error, task, attempt, attempts: options.attempts, roomId: usage.roomId, retry },
          `AI ${task} call failed${retry ? '; retrying' : ''}`,
        );
        if (!retry) throw error;
        const backoff = Math.min(options.retryMaxDelayMs, options.retryBaseDelayMs * 2 ** (attempt - 1));
        await sleep(backoff / 2 + Math.random() * (backoff / 2), shutdown.signal);
      } finally {
        clearTimeout(timer);
        shutdown.signal.removeEventListener('abort', onShutdown);
      }
    }
    throw lastError;
  }

  function reportFailure(job: Job, task: AiTask, language: string | undefined, error: unknown): void {
    const { roomId, message } = job;
    emit({ kind: 'failed', roomId, messageId: message.id, language, task });
    if (error instanceof ShutdownError) {
      logger.info({ roomId, messageId: message.id, task, language }, 'translation: abandoned at shutdown');
      return;
    }
    if (isInsufficientCredits(error)) {
      logger.info(
        { roomId, messageId: message.id, task, username: message.username },
        'translation: no credits',
      );
      pausedAuthors.refused(job, error.message, error.guest);
      return;
    }
    if (error instanceof AiUnavailableError) {
      logger.warn({ roomId, task, language, err: error }, error.message);
      notice(roomId, `unavailable:${task}`, error.message);
      return;
    }
    const reason = describeError(error);
    logger.error(
      { roomId, messageId: message.id, task, language, err: error },
      `translation: ${task} failed`,
    );
    const into = language ? ` into ${languageName(language)}` : '';
    const text: Record<AiTask, string> = {
      translation: `Translation${into} failed: ${reason}. The message is shown as written.`,
      note: `Translation hint failed: ${reason}.`,
      speech: `Spoken translation${into} failed: ${reason}.`,
      transcription: `Speech recognition failed: ${reason}.`,
    };
    notice(roomId, `failed:${task}`, text[task]);
  }

  // -------------------------------------------------------------------------------- no credits

  function requeue(job: Job): void {
    const translations = { ...job.message.translations, ...job.done };
    onMessage(job.roomId, { ...job.message, translations }, job.author);
  }

  const pausedAuthors = createPausedAuthors<Job>({
    users: deps.users,
    tellRoom: (roomId, message, exceptUsername) =>
      void send(roomId, { type: 'error', code: 'notice', message }, exceptUsername),
    requeue,
    logger,
  });

  // -------------------------------------------------------------------------------- one message

  async function loadContext(job: Job): Promise<ContextMessage[]> {
    if (options.contextMessages <= 0) return [];
    try {
      const recent = await store.recentMessages(job.roomId, job.message.id, options.contextMessages);
      return recent.map((m) => ({
        username: m.displayUsername ?? m.username,
        language: m.language,
        text: m.message,
      }));
    } catch (error) {
      logger.warn(
        { err: error, roomId: job.roomId },
        'translation: could not read recent messages; no context',
      );
      return [];
    }
  }

  function usageOf(job: Job, task: Usage['task'], extra: Partial<Usage>): Usage {
    return {
      userId: job.author.userId,
      username: job.message.username,
      roomId: job.roomId,
      task,
      messageId: job.message.id,
      ...extra,
    };
  }

  /** Translate into one language; resolves with the full text once sent and stored (undefined on failure). */
  async function translateInto(
    job: Job,
    target: string,
    context: ContextMessage[],
    contextKey: string,
  ): Promise<string | undefined> {
    const { roomId, message } = job;
    const key = digest(['translation', message.language, target, message.message, contextKey]);
    let fullText = textCache.get(key) ?? undefined;
    try {
      if (fullText !== undefined) {
        await send(roomId, {
          type: 'translationChunk',
          originalTimestamp: message.id,
          targetLanguage: target,
          chunk: fullText,
        });
        emit({ kind: 'chunk', roomId, messageId: message.id, language: target });
      } else {
        if (!supported('translation', target)) return undefined;
        let chunksSent = false;
        fullText = await callEngine(
          'translation',
          usageOf(job, 'translation', { characters: characters(message.message), language: target }),
          async (signal) => {
            // A retry after pieces were already shown is not streamed again: translationComplete replaces them.
            const live = !chunksSent;
            let text = '';
            for await (const piece of provider.translate({
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
                await send(roomId, {
                  type: 'translationChunk',
                  originalTimestamp: message.id,
                  targetLanguage: target,
                  chunk: piece,
                });
                emit({ kind: 'chunk', roomId, messageId: message.id, language: target });
              }
            }
            if (signal.aborted) throw signal.reason;
            if (text.trim() === '')
              throw new AiError('the AI engine returned an empty translation', { retryable: true });
            return text.trim();
          },
        );
        textCache.set(key, fullText);
      }
    } catch (error) {
      reportFailure(job, 'translation', target, error);
      return undefined;
    }
    job.done[target] = fullText;
    // Stored (and given its room offset) before it is sent, so a client that resumes gets it from the log.
    let offset: number | void = undefined;
    try {
      offset = await store.saveTranslation(roomId, message.id, target, fullText);
      emit({ kind: 'stored', roomId, messageId: message.id, language: target });
    } catch (error) {
      logger.error(
        { err: error, roomId, messageId: message.id, language: target },
        'translation: could not store',
      );
    }
    await send(roomId, {
      type: 'translationComplete',
      originalTimestamp: message.id,
      targetLanguage: target,
      fullText,
      ...(offset ? { offset } : {}),
    });
    emit({ kind: 'complete', roomId, messageId: message.id, language: target });
    return fullText;
  }

  async function speak(job: Job, language: string, text: string): Promise<void> {
    if (!options.speech || !supported('speech', language)) return;
    const { roomId, message } = job;
    const key = digest(['speech', language, text]);
    try {
      let wav = audioCache.get(key);
      if (!wav) {
        wav = await callEngine(
          'speech',
          usageOf(job, 'speech', { characters: characters(text), language }),
          async (signal) => {
            const audio = await provider.synthesize({ text, language, signal });
            if (!isWav(audio))
              throw new AiError('the speech engine returned audio that is not WAV', { retryable: false });
            return audio;
          },
        );
        audioCache.set(key, wav);
      }
      await output.sendAudio(roomId, language, wav, message.username);
      emit({ kind: 'audio', roomId, messageId: message.id, language });
      logger.debug(
        { roomId, messageId: message.id, language, seconds: readWavInfo(wav)?.durationSeconds },
        'translation: spoken translation sent',
      );
    } catch (error) {
      reportFailure(job, 'speech', language, error);
    }
  }

  async function writeNote(
    job: Job,
    noteLanguage: string,
    context: ContextMessage[],
    contextKey: string,
  ): Promise<string | null> {
    if (!options.notes || !supported('note', noteLanguage)) return null;
    const { message } = job;
    const key = digest(['note', message.language, noteLanguage, message.message, contextKey]);
    const cached = textCache.get(key);
    if (cached !== undefined) return cached;
    try {
      const note = await callEngine(
        'note',
        usageOf(job, 'note', { characters: characters(message.message), language: noteLanguage }),
        (signal) =>
          provider.note({
            text: message.message,
            sourceLanguage: message.language,
            noteLanguage,
            context,
            signal,
          }),
      );
      const value = note?.trim() ? note.trim() : null;
      textCache.set(key, value);
      return value;
    } catch (error) {
      reportFailure(job, 'note', undefined, error);
      return null;
    }
  }

  async function processJob(job: Job): Promise<void> {
    const { roomId, message } = job;
    emit({ kind: 'started', roomId, messageId: message.id });
    const targets = languages.filter((l) => l !== message.language && message.translations[l] === undefined);
    const noteLanguage =
      message.note === undefined ? noteLanguageFor(message.language, languages) : undefined;
    if (targets.length === 0 && noteLanguage === undefined) return;
    const context = await loadContext(job);
    const contextKey = digest(context.map((m) => [m.username, m.language, m.text]));

    const note = noteLanguage ? writeNote(job, noteLanguage, context, contextKey) : Promise.resolve(null);
    const speeches: Promise<void>[] = [];
    await Promise.all(
      targets.map(async (target) => {
        const text = await translateInto(job, target, context, contextKey);
        if (text !== undefined) speeches.push(speak(job, target, text));
      }),
    );
    // The hint follows the translations (chunks, complete, then note), never before.
    const noteText = await note;
    if (noteText) {
      let offset: number | void = undefined;
      try {
        offset = await store.saveNote(roomId, message.id, noteText);
      } catch (error) {
        logger.error({ err: error, roomId, messageId: message.id }, 'translation: could not store the note');
      }
      await send(roomId, {
        type: 'noteComplete',
        originalTimestamp: message.id,
        note: noteText,
        ...(offset ? { offset } : {}),
      });
      emit({ kind: 'note', roomId, messageId: message.id });
    }
    await Promise.all(speeches);
  }

  // -------------------------------------------------------------------------------- scheduling

  function pump(): void {
    let scanned = 0;
    while (running < options.maxConcurrent && ready.length > 0 && scanned < ready.length) {
      const roomId = ready.shift() as string;
      const room = rooms.get(roomId);
      if (!room || room.waiting.length === 0) continue;
      if (room.running >= options.maxConcurrentPerRoom) {
        ready.push(roomId); // this room is at its share; give the others a turn
        scanned += 1;
        continue;
      }
      scanned = 0;
      const job = room.waiting.shift() as Job;
      if (room.waiting.length > 0) ready.push(roomId);
      room.running += 1;
      running += 1;
      const work = processJob(job)
        .catch((error: unknown) => {
          logger.error({ err: error, roomId, messageId: job.message.id }, 'translation: unexpected failure');
        })
        .finally(() => {
          job.running = false;
          if (job.resumeWhenDone && !closing) requeue(job);
          room.running -= 1;
          running -= 1;
          inFlight.delete(work);
          if (room.running === 0 && room.waiting.length === 0) rooms.delete(roomId);
          if (!closing) pump();
        });
      inFlight.add(work);
    }
  }

  function onMessage(roomId: string, message: MessageFrame, author: Author): void {
    try {
      emit({ kind: 'received', roomId, messageId: message.id });
      if (closing) {
        logger.info({ roomId, messageId: message.id }, 'translation: shutting down; message not translated');
        return;
      }
      let room = rooms.get(roomId);
      if (!room) {
        room = { waiting: [], running: 0 };
        rooms.set(roomId, room);
      }
      if (room.waiting.length >= options.maxQueuedPerRoom) {
        emit({ kind: 'dropped', roomId, messageId: message.id });
        logger.warn(
          { roomId, messageId: message.id, queued: room.waiting.length },
          'translation: room backlog full',
        );
        notice(roomId, 'backlog', 'Too many messages at once: some messages were not translated.');
        return;
      }
      room.waiting.push({ roomId, message, author, done: {}, running: true, resumeWhenDone: false });
      if (room.waiting.length === 1) ready.push(roomId);
      pump();
    } catch (error) {
      logger.error({ err: error, roomId }, 'translation: could not queue a message');
    }
  }

  async function transcribe(request: TranscribeRequest): Promise<Transcription> {
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
        provider.transcribe(request.audio, {
          languageHint: request.languageHint,
          mimeType: request.mimeType,
          signal,
        }),
    );
  }

  async function close(): Promise<void> {
    if (closing) return;
    closing = true;
    const dropped = [...rooms.values()].reduce((sum, room) => sum + room.waiting.length, 0);
    for (const room of rooms.values()) room.waiting.length = 0;
    ready.length = 0;
    if (dropped > 0) logger.warn({ dropped }, 'translation: queued messages dropped at shutdown');
    unsubscribe?.();
    const settled = Promise.allSettled([...inFlight]);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      settled.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), options.closeTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      logger.warn({ running }, 'translation: shutdown timeout; aborting running work');
      shutdown.abort();
      await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, 1_000))]);
    }
  }

  return {
    onMessage,
    transcribe,
    resume(userId: string) {
      try {
        pausedAuthors.resume(userId);
      } catch (error) {
        logger.error({ err: error, userId }, 'translation: could not resume');
      }
    },
    close,
  };
}
