import { MIC_DEBOUNCE_MS, RECORDING_MAX_MS, RECORDING_MIN_MS } from '@xtalk/protocol';

/*
 * The mic button's state machine (spec sections 4 and 9), free of the browser so it is tested with a fake
 * clock and fake timers:
 *
 *   idle --tap--> initialising (button disabled; playback stopped; microphone and encoder starting)
 *        --started--> recording (timer from 00:00, a tick every second; auto-stop at 60 s)
 *        --tap or 60 s--> stopping --clip--> idle
 *
 * Taps closer than 150 ms to the previous one are ignored. A clip under 500 ms is dropped ('Recording too
 * short'); a capture without audio gives 'No audio data captured'; anything else is handed to `onClip`.
 */

export type RecorderState = 'idle' | 'initialising' | 'recording' | 'stopping';

/** A running capture: `stop` ends it and resolves with the encoded clip (empty when nothing was captured). */
export interface Capture {
  stop(): Promise<Uint8Array>;
  /** Abandon without a clip (unmount, errors). */
  cancel(): void;
}

export type RecorderProblem =
  { kind: 'tooShort' } | { kind: 'empty' } | { kind: 'mic'; message: string } | { kind: 'noAudioContext' };

export interface RecorderClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const browserClock: RecorderClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
  setInterval: (fn, ms) => globalThis.setInterval(fn, ms),
  clearInterval: (handle) => globalThis.clearInterval(handle as ReturnType<typeof setInterval>),
};

export interface RecorderSnapshot {
  state: RecorderState;
  /** Whole seconds recorded so far (the timer shows it as mm:ss). */
  elapsedSeconds: number;
}

export interface RecorderOptions {
  /** Opens the microphone and starts encoding. Rejects with the reason the microphone failed. */
  start: () => Promise<Capture>;
  /** Called at each tap that starts a recording, before the microphone opens (stops playback). */
  onBeforeStart?: () => void;
  onClip: (clip: Uint8Array, durationMs: number) => void;
  onProblem: (problem: RecorderProblem) => void;
  onChange: (snapshot: RecorderSnapshot) => void;
  clock?: RecorderClock;
  minMs?: number;
  maxMs?: number;
  debounceMs?: number;
}

export const TICK_MS = 1000;

export function createRecorder(options: RecorderOptions) {
  const clock = options.clock ?? browserClock;
  const minMs = options.minMs ?? RECORDING_MIN_MS;
  const maxMs = options.maxMs ?? RECORDING_MAX_MS;
  const debounceMs = options.debounceMs ?? MIC_DEBOUNCE_MS;

  let state: RecorderState = 'idle';
  let elapsedSeconds = 0;
  let lastTapAt = Number.NEGATIVE_INFINITY;
  let startedAt = 0;
  let capture: Capture | undefined;
  let ticker: unknown;
  let limit: unknown;
  let disposed = false;
  /** Bumped on dispose so a start still in flight knows it is unwanted. */
  let generation = 0;

  const emit = () => options.onChange({ state, elapsedSeconds });
  const set = (next: RecorderState) => {
    state = next;
    emit();
  };

  function clearTimers() {
    if (ticker !== undefined) clock.clearInterval(ticker);
    if (limit !== undefined) clock.clearTimeout(limit);
    ticker = undefined;
    limit = undefined;
  }

  async function begin() {
    const mine = generation;
    options.onBeforeStart?.();
    elapsedSeconds = 0;
    set('initialising');
    let started: Capture;
    try {
      started = await options.start();
    } catch (error) {
      if (mine !== generation) return;
      set('idle');
      options.onProblem(problemOf(error));
      return;
    }
    if (mine !== generation || disposed) {
      started.cancel();
      return;
    }
    capture = started;
    startedAt = clock.now();
    elapsedSeconds = 0;
    set('recording');
    ticker = clock.setInterval(() => {
      elapsedSeconds = Math.floor((clock.now() - startedAt) / 1000);
      emit();
    }, TICK_MS);
    limit = clock.setTimeout(() => void finish(), maxMs);
  }

  async function finish() {
    if (state !== 'recording' || !capture) return;
    const running = capture;
    capture = undefined;
    clearTimers();
    const durationMs = Math.min(maxMs, clock.now() - startedAt);
    set('stopping');
    let clip: Uint8Array;
    try {
      clip = await running.stop();
    } catch (error) {
      elapsedSeconds = 0;
      set('idle');
      options.onProblem(problemOf(error));
      return;
    }
    if (disposed) return;
    elapsedSeconds = 0;
    set('idle');
    if (durationMs < minMs) return options.onProblem({ kind: 'tooShort' });
    if (clip.length === 0) return options.onProblem({ kind: 'empty' });
    options.onClip(clip, durationMs);
  }

  return {
    get state() {
      return state;
    },
    get elapsedSeconds() {
      return elapsedSeconds;
    },
    /** The mic button: start when idle, stop when recording; ignored while busy or within the debounce. */
    tap(): void {
      if (disposed) return;
      const now = clock.now();
      if (now - lastTapAt < debounceMs) return;
      lastTapAt = now;
      if (state === 'idle') void begin();
      else if (state === 'recording') void finish();
    },
    /** Stop as if tapped (used when the room goes away); no debounce. */
    stop(): void {
      void finish();
    },
    dispose(): void {
      disposed = true;
      generation += 1;
      clearTimers();
      capture?.cancel();
      capture = undefined;
      state = 'idle';
    },
  };
}
export type Recorder = ReturnType<typeof createRecorder>;

/** 75 -> '01:15'. */
export function formatTimer(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return `${mm}:${ss}`;
}

/** Why a recording failed: a browser without Web Audio has its own words (spec section 8). */
function problemOf(error: unknown): RecorderProblem {
  if (error instanceof Error && error.name === 'NoAudioContextError') return { kind: 'noAudioContext' };
  return { kind: 'mic', message: error instanceof Error ? error.message : String(error) };
}
