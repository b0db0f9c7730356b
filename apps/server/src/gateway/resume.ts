import type { ResumePosition, ServerFrame } from '@xtalk/protocol';
import type { RoomsRepo } from '../rooms/index.js';
import type { RoomLog, RoomPosition } from '../rooms/index.js';
import type { RecentWindowRead } from '../delivery/index.js';

export interface CatchUpDeps {
  rooms: Pick<RoomsRepo, 'listMessages'>;
  /**
   * With `recentWindow`, a join without a resume position costs one query instead of two, or none while
   * the room hub shares a current one (recent-windows.ts).
   */
  log: Pick<RoomLog, 'position' | 'readSince'> & { recentWindow?: RecentWindowRead };
  /** How many stored messages a joiner without a position gets (the recent window). */
  replayLimit: number;
  /** The furthest behind (in offsets) a resume may be; further gets RESYNC and the recent window. */
  resumeMaxEvents: number;
}

export interface CatchUp {
  /** The room's position at the moment of reading: READY carries it; live frames after it follow. */
  position: RoomPosition;
  /** Sent before the frames: the resume could not be honoured, the list starts over. */
  resync: boolean;
  frames: ServerFrame[];
  /** `frames` serialised, when the window came from the hub's shared copy: sent as they are. */
  json?: readonly Buffer[];
}

/**
 * What a joining connection is sent before READY (docs/decisions/0061-room-offsets-and-epochs.md):
 * with a resume position of this epoch not too far behind, exactly the logged frames after it, in order;
 * otherwise the recent window (with RESYNC first when a resume was asked for). The position is read
 * first, so everything after it arrives live and nothing between the two reads is lost.
 */
export async function catchUpFor(
  deps: CatchUpDeps,
  roomId: string,
  resume: ResumePosition | undefined,
): Promise<CatchUp> {
  if (!resume && deps.log.recentWindow) {
    const { position, messages, json } = await deps.log.recentWindow(roomId, deps.replayLimit);
    return { position: position ?? { epoch: '', offset: 0 }, resync: false, frames: messages, json };
  }
  const position = (await deps.log.position(roomId)) ?? { epoch: '', offset: 0 };
  if (resume && canResume(resume, position, deps.resumeMaxEvents)) {
    const frames = await deps.log.readSince(roomId, resume.offset, position.offset, deps.resumeMaxEvents);
    // the log is gap-free, so anything short of the full range means it was trimmed: start over
    if (frames.length === position.offset - resume.offset) {
      return { position, resync: false, frames };
    }
  }
  const window = await deps.rooms.listMessages(roomId, deps.replayLimit);
  return {
    position,
    resync: resume !== undefined,
    // a message stored after the position was read arrives live: not twice
    frames: window.filter((message) => message.offset === undefined || message.offset <= position.offset),
  };
}

function canResume(resume: ResumePosition, position: RoomPosition, maxEvents: number): boolean {
  return (
    resume.epoch === position.epoch &&
    resume.offset <= position.offset &&
    position.offset - resume.offset <= maxEvents
  );
}
