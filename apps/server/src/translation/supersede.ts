/*
 * Corrections (docs/decisions/0130-corrections.md): a message's text changed while its old text was still
 * being translated. The old job is marked superseded and its engine calls aborted at once; every step of
 * a job checks the mark before it sends or stores anything, so nothing of the old text reaches the room
 * after the moment of the edit (and the store refuses work made from a text the message no longer has).
 */

/** Why a superseded job's engine call stopped: not a failure anyone is told about. */
export class SupersededError extends Error {
  constructor() {
    super('the message was corrected; this work is superseded');
    this.name = 'SupersededError';
  }
}

export interface SupersedableJob {
  /** Set once a correction replaced the text this job works on. */
  superseded?: boolean;
  /** Aborted when the job is superseded (its engine calls listen to it). */
  stop?: AbortController;
}

/** What the supersession keys a job by: its room and its message. */
type Keyed = SupersedableJob & { roomId: string; message: { id: number } };

/** Throws SupersededError when the job's text was corrected meanwhile (call before sending or storing). */
export function checkCurrent(job: SupersedableJob): void {
  if (job.superseded) throw new SupersededError();
}

/** The job that currently works on each message (queued or running), so an edit can stop it. */
export function createSupersession<J extends Keyed>() {
  const current = new Map<string, J>();
  const keyOf = (roomId: string, id: number) => `${roomId}\u0000${id}`;
  return {
    /** `job` now works on its message (the latest job for a message is the current one). */
    track(job: J): void {
      job.stop ??= new AbortController();
      current.set(keyOf(job.roomId, job.message.id), job);
    },
    /** `job` finished: forget it unless a newer one took its place already. */
    done(job: J): void {
      const key = keyOf(job.roomId, job.message.id);
      if (current.get(key) === job) current.delete(key);
    },
    /** The message was corrected: stop whatever works on its old text. */
    supersede(roomId: string, id: number): void {
      const key = keyOf(roomId, id);
      const job = current.get(key);
      if (!job) return;
      current.delete(key);
      job.superseded = true;
      job.stop?.abort(new SupersededError());
    },
    /** Jobs being tracked (tests). */
    size: () => current.size,
  };
}
