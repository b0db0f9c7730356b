import type { ErrorFrame, NoticeDetail, UiLanguage } from '@xtalk/protocol';
import { causeText, noticeText } from '#web/lib/notice-text';

/*
 * An engine failing on one message is often several notices at once (the hint, the translation, each from
 * its own task). They are one event to the person: one toast that says the real cause first (the engine
 * unreachable, too slow, the status it answered; docs/decisions/0187), then what failed. The hint's
 * failure is a consequence of the translation's: it is left out once a translation failed. The event keeps
 * its notices, not their words, so the toast is worded in the language of the moment it shows.
 */

/** How long notices count as one event: a toast's life. */
export const FAILURE_EVENT_MS = 4000;

const TASK_RANK: Record<string, number> = { translation: 0, transcription: 1, speech: 2, note: 3 };

/** A failure notice's place in the toast (lower first), or undefined for notices that are not failures. */
export function failureRank(notice: NoticeDetail | undefined): number | undefined {
  if (!notice || (notice.kind !== 'engine_failed' && notice.kind !== 'engine_unavailable')) return undefined;
  const task = TASK_RANK[String(notice.params?.task ?? '')] ?? 4;
  // an engine that cannot be reached is the cause of whatever failed with it
  return (notice.kind === 'engine_unavailable' ? 0 : 10) + task;
}

/** One failure notice of an event, and its place in the toast. */
export interface FailurePart {
  rank: number;
  task?: string | undefined;
  frame: Pick<ErrorFrame, 'message' | 'notice'>;
}

export interface FailureEvent {
  at: number;
  parts: FailurePart[];
}

/** A failure frame as a part of the toast, or undefined for notices that are not failures. */
export function failurePart(frame: Pick<ErrorFrame, 'message' | 'notice'>): FailurePart | undefined {
  const rank = failureRank(frame.notice);
  if (rank === undefined) return undefined;
  const task = frame.notice?.params?.task;
  return { rank, task: task === undefined ? undefined : String(task), frame };
}

/** The event after one more failure notice: a new one once the last has had its time. */
export function addFailure(event: FailureEvent | undefined, part: FailurePart, now: number): FailureEvent {
  const parts = event && now - event.at <= FAILURE_EVENT_MS ? event.parts : [];
  // the same words again (in any one language: English is the server's own) add nothing
  const said = noticeText('en', part.frame);
  if (parts.some((each) => noticeText('en', each.frame) === said)) return { at: now, parts };
  return { at: now, parts: [...parts, part].sort((a, b) => a.rank - b.rank) };
}

/** The toast's words: each cause once, first, then what failed (no hint once a translation failed). */
export function failureText(language: UiLanguage, event: FailureEvent): string {
  const translated = event.parts.some((part) => part.task === 'translation');
  const shown = event.parts.filter((part) => !(translated && part.task === 'note'));
  const causes = [...new Set(shown.flatMap((part) => causeText(language, part.frame.notice) ?? []))];
  const sentences = [...causes, ...shown.map((part) => noticeText(language, part.frame))];
  // Japanese sentences follow one another without a space
  return sentences.reduce(
    (text, next) => (!text || text.endsWith('。') ? text + next : `${text} ${next}`),
    '',
  );
}
