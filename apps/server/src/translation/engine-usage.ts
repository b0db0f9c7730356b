import { createHash } from 'node:crypto';
import type { Usage } from './ports.js';
import type { Job } from './types.js';

/* What an engine call is cached under and metered as, for every task that calls an engine. */

export function characters(text: string): number {
  return [...text].length;
}

/** Cache key for an engine answer. */
export function digest(parts: unknown): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}

/** What one engine call for `job` is metered as. */
export function usageOf(job: Job, task: Usage['task'], extra: Partial<Usage>): Usage {
  return {
    userId: job.author.userId,
    username: job.message.username,
    roomId: job.roomId,
    task,
    messageId: job.message.id,
    ...chargeKeyOf(job, task, extra.language),
    ...extra,
  };
}

/** A request's engine call's own key, so that each call is paid once however often the request comes. */
export function chargeKeyOf(
  job: Pick<Job, 'chargeKey'> | undefined,
  ...call: (string | number | undefined)[]
): Pick<Usage, 'key'> {
  return job?.chargeKey ? { key: [job.chargeKey, ...call].join('/') } : {};
}
