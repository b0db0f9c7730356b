import { CATCH_UP_MISSED_MESSAGES, type ClientFrame, type ServerFrame } from '@xtalk/protocol';
import { useCallback, useRef, useState } from 'react';
import { lastSeen, rememberSeen } from '../utils/last-seen';

export interface CatchUpState {
  /** The panel is open: a summary is being written, or was. */
  open: boolean;
  text: string;
  done: boolean;
}

const CLOSED: CatchUpState = { open: false, text: '', done: false };

/**
 * "Catch me up": where this person left the room (the last message this device saw there), how many of the
 * messages the join replayed came after it, and the summary streaming in for them alone.
 */
export function useCatchUp() {
  const [summary, setSummary] = useState<CatchUpState>(CLOSED);
  const [missed, setMissed] = useState(0);
  const [dismissed, setDismissed] = useState(false);
  /** The room joined (READY) and the last message seen there before this visit. */
  const visit = useRef<{ roomId: string; since: number | undefined } | undefined>(undefined);
  // the join's replay comes before READY, which names the room: its ids wait here until then
  const replayed = useRef<number[]>([]);
  const requestId = useRef<string | undefined>(undefined);

  const onFrame = useCallback((frame: ServerFrame) => {
    if (frame.type === 'message') {
      if (frame.isTutorial) return;
      if (visit.current) rememberSeen(visit.current.roomId, frame.id);
      else replayed.current.push(frame.id);
    } else if (frame.type === 'system' && frame.message === 'READY' && frame.roomId) {
      if (visit.current?.roomId === frame.roomId) return;
      const since = lastSeen(frame.roomId);
      visit.current = { roomId: frame.roomId, since };
      const ids = replayed.current;
      replayed.current = [];
      setMissed(ids.filter((id) => id > (since ?? 0)).length);
      if (ids.length > 0) rememberSeen(frame.roomId, Math.max(...ids));
    } else if (frame.type === 'summaryChunk') {
      if (requestId.current !== undefined && requestId.current !== frame.requestId) return;
      requestId.current = frame.requestId;
      setSummary((state) =>
        state.open && !state.done ? { ...state, text: state.text + frame.chunk } : state,
      );
    } else if (frame.type === 'summaryComplete') {
      requestId.current = undefined;
      setSummary((state) => (state.open ? { open: true, text: frame.text, done: true } : state));
    } else if (frame.type === 'error' && frame.requestId !== undefined) {
      // refused or failed: the room's error toast says why; nothing is left to show here
      requestId.current = undefined;
      setSummary(CLOSED);
    }
  }, []);

  /** A new session (another room): the count starts over. */
  const reset = useCallback(() => {
    visit.current = undefined;
    replayed.current = [];
    setMissed(0);
    setDismissed(false);
    setSummary(CLOSED);
  }, []);

  /** Asks for the summary since this visit's starting point, in `language`. */
  const start = (send: (frame: ClientFrame) => boolean, language: string) => {
    const room = visit.current;
    if (!room) return;
    requestId.current = undefined;
    const since = room.since !== undefined ? { since: room.since } : {};
    if (send({ type: 'summarize', room: room.roomId, language, ...since })) {
      setSummary({ open: true, text: '', done: false });
      setDismissed(true);
    }
  };

  return {
    summary,
    missed,
    /** Offered on its own once enough was missed, until used or dismissed. */
    offered: missed >= CATCH_UP_MISSED_MESSAGES && !dismissed,
    dismiss: () => setDismissed(true),
    close: () => setSummary(CLOSED),
    onFrame,
    reset,
    start,
  };
}
export type CatchUp = ReturnType<typeof useCatchUp>;
