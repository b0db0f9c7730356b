import type { ErrorFrame, NoticeDetail, NoticeKind, ServerFrame } from '@xtalk/protocol';
import type { Clock } from '../clock.js';
import type { AiProvider, AiTask, Logger, ProviderStatus } from '../ai/index.js';
import { AiUnavailableError, languageName } from '../ai/index.js';
import { describeCause, engineCause } from './engine-cause.js';
import { ShutdownError } from './engine-call.js';
import { SupersededError } from './supersede.js';
import { isInsufficientCredits } from './errors.js';
import type { TranslationServiceOptions } from './options.js';
import type { RoomOutput } from './ports.js';
import { createLogSampler } from '../log-sampler.js';
import type { Job, PipelineEvent, TranslationMetrics } from './types.js';

/*
 * What the room is told: frames sent without ever throwing, failure notices at most once per kind per
 * window, and engine loading progress at most once per interval.
 */

export type Send = (roomId: string, frame: ServerFrame, exceptUsername?: string) => Promise<void>;
/** Tells the room once per `key` per window: `message` in English, `detail` for the client's own words. */
export type Notice = (roomId: string, key: string, message: string, detail: NoticeFields) => void;

/** A notice's kind with its params, as the protocol has them (frames.ts NOTICE_KINDS). */
export type NoticeFields = { kind: NoticeKind; params?: NonNullable<NoticeDetail['params']> };

/** The `notice` frame: the English `message` for older clients, `notice` for the client's own words. */
export function noticeFrame(message: string, detail: NoticeFields): ErrorFrame {
  return { type: 'error', code: 'notice', message, notice: detail };
}

const LOADING_LABEL: Record<AiTask, string> = {
  translation: 'translation engine',
  note: 'hint engine',
  speech: 'speech engine',
  transcription: 'speech recognition engine',
  summary: 'summary engine',
};

export function createNotices(deps: {
  output: RoomOutput;
  logger: Logger;
  clock: Clock;
  options: TranslationServiceOptions;
}): { send: Send; notice: Notice } {
  const { output, logger, clock, options } = deps;
  const noticeSentAt = new Map<string, number>();

  async function send(roomId: string, frame: ServerFrame, exceptUsername?: string): Promise<void> {
    try {
      await output.broadcast(roomId, frame, exceptUsername ? { exceptUsername } : undefined);
    } catch (error) {
      logger.error({ err: error, roomId, frame: frame.type }, 'translation: broadcast failed');
    }
  }

  /** Tell the room, once per `key` per window. */
  function notice(roomId: string, key: string, message: string, detail: NoticeFields): void {
    const roomKey = `${roomId}\u0000${key}`;
    const now = clock.now();
    const last = noticeSentAt.get(roomKey);
    if (last !== undefined && now - last < options.noticeWindowMs) return;
    noticeSentAt.set(roomKey, now);
    if (noticeSentAt.size > 10_000) {
      for (const [k, at] of noticeSentAt) if (now - at >= options.noticeWindowMs) noticeSentAt.delete(k);
    }
    void send(roomId, noticeFrame(message, detail));
  }

  return { send, notice };
}

/** Tells the rooms with work about engines loading; returns the unsubscribe, if the provider reports. */
export function watchLoading(deps: {
  provider: AiProvider;
  clock: Clock;
  options: TranslationServiceOptions;
  send: Send;
  roomIds: () => Iterable<string>;
}): (() => void) | undefined {
  const { provider, clock, options, send } = deps;
  const loadingNoticeAt = new Map<string, number>();
  return provider.onStatus?.((status: ProviderStatus) => {
    if (status.kind === 'failed') return; // each waiting task reports its own AiUnavailableError
    const { task } = status;
    const label = LOADING_LABEL[task];
    for (const roomId of deps.roomIds()) {
      const key = `${roomId}\u0000${task}`;
      const now = clock.now();
      if (status.kind === 'ready') {
        if (loadingNoticeAt.delete(key))
          void send(roomId, noticeFrame(`${label} ready`, { kind: 'engine_ready', params: { task } }));
        continue;
      }
      const last = loadingNoticeAt.get(key);
      if (last !== undefined && now - last < options.loadingNoticeIntervalMs) continue;
      loadingNoticeAt.set(key, now);
      const percent = Math.floor(status.percent);
      void send(
        roomId,
        noticeFrame(`${label} loading ${percent}%`, { kind: 'engine_loading', params: { task, percent } }),
      );
    }
  });
}

export type ReportFailure = (job: Job, task: AiTask, language: string | undefined, error: unknown) => void;

/** A task that failed for good: shutdown is logged, no credits pauses the author, the rest tell the room. */
export function createFailureReporter(deps: {
  logger: Logger;
  emit: (event: Omit<PipelineEvent, 'at'>) => void;
  notice: Notice;
  refused: (job: Job, message: string, guest: boolean) => void;
  metrics?: Pick<TranslationMetrics, 'aiRefused'> | undefined;
}): ReportFailure {
  const { logger, emit, notice } = deps;
  // a room of guests out of credits refuses every message's every task: counted, the lines sampled per room
  const sampled = createLogSampler(logger);
  return function reportFailure(job, task, language, error) {
    const { roomId, message } = job;
    emit({ kind: 'failed', roomId, messageId: message.id, language, task });
    if (error instanceof SupersededError) {
      logger.debug(
        { roomId, messageId: message.id, task, language },
        'translation: superseded by a correction',
      );
      return;
    }
    if (error instanceof ShutdownError) {
      logger.info({ roomId, messageId: message.id, task, language }, 'translation: abandoned at shutdown');
      return;
    }
    if (isInsufficientCredits(error)) {
      deps.metrics?.aiRefused('no_credits');
      const fields = { roomId, messageId: message.id, task, username: message.username };
      sampled.info('no-credits', fields, 'translation: no credits', roomId);
      deps.refused(job, error.message, error.guest);
      return;
    }
    // the room hears of this job's engine trouble now: a hint failing with it is not told again
    job.failureTold = true;
    if (error instanceof AiUnavailableError) {
      logger.warn({ roomId, task, language, err: error }, error.message);
      notice(roomId, `unavailable:${task}`, error.message, {
        kind: 'engine_unavailable',
        params: { task },
      });
      return;
    }
    const cause = engineCause(error);
    const reason = cause ? describeCause(cause) : error instanceof Error ? error.message : String(error);
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
      summary: `Summary failed: ${reason}.`,
    };
    notice(roomId, `failed:${task}`, text[task], {
      kind: 'engine_failed',
      params: { task, ...(language ? { language } : {}), ...cause },
    });
  };
}
