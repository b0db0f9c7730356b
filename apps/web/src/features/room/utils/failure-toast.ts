import type { NoticeDetail } from '@xtalk/protocol';

/*
 * An engine failing on one message is often several notices at once (the hint first, then the
 * translation, each from its own task). They are one event to the person: one toast, the real cause
 * first, the lesser failures after it.
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

export interface FailureEvent {
  at: number;
  parts: { rank: number; text: string }[];
}

/** The event after one more failure notice: a new one once the last has had its time. */
export function addFailure(
  event: FailureEvent | undefined,
  rank: number,
  text: string,
  now: number,
): FailureEvent {
  const parts = event && now - event.at <= FAILURE_EVENT_MS ? event.parts : [];
  if (parts.some((part) => part.text === text)) return { at: now, parts };
  return { at: now, parts: [...parts, { rank, text }].sort((a, b) => a.rank - b.rank) };
}

export const failureText = (event: FailureEvent) => event.parts.map((part) => part.text).join(' ');
