/*
 * How many sentences are synthesised at once: at most `perRoom` for one room and `perNode` for this
 * process, so one long message (or one busy room) cannot hold the speech engine while every other room
 * waits for its voice. A sentence takes a slot of its room, then one of the node, and gives both back when
 * its engine call ends; waiters are served in arrival order, so a stream's sentences start in order.
 * Sentences found in the audio cache take no slot.
 */

interface Gate {
  active: number;
  waiting: Array<() => void>;
}

const gate = (): Gate => ({ active: 0, waiting: [] });

function enter(gate: Gate, limit: number): Promise<void> | undefined {
  if (gate.active < limit) {
    gate.active++;
    return undefined;
  }
  return new Promise<void>((resolve) => gate.waiting.push(resolve));
}

/** The slot passes straight to the next waiter, so `active` counts it still. */
function leave(gate: Gate): void {
  const next = gate.waiting.shift();
  if (next) next();
  else gate.active--;
}

export function createSpeechSlots(perRoom: number, perNode: number) {
  const node = gate();
  const rooms = new Map<string, Gate>();
  return {
    /** Runs `work` (one sentence's engine call) once its room and the node have a slot for it. */
    async run<T>(roomId: string, work: () => Promise<T>): Promise<T> {
      let room = rooms.get(roomId);
      if (!room) rooms.set(roomId, (room = gate()));
      await enter(room, perRoom);
      try {
        await enter(node, perNode);
        try {
          return await work();
        } finally {
          leave(node);
        }
      } finally {
        leave(room);
        if (room.active === 0) rooms.delete(roomId);
      }
    },
  };
}
export type SpeechSlots = ReturnType<typeof createSpeechSlots>;
