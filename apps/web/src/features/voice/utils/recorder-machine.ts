import { MIC_DEBOUNCE_MS, RECORDING_MAX_MS, RECORDING_MIN_MS } from '@xtalk/protocol';
import { browserClock, createRecordingTime, type RecorderClock } from './recording-clock';

/*
 * The mic button's state machine, free of the browser so it is tested with a fake
 * clock and fake timers:
 *
 *   idle --tap--> initialising (playback stopped; microphone and encoder starting)
 *        --started--> recording (timer from 00:00, a tick every second; auto-stop at 60 s)
 *        --tap or 60 s--> stopping --clip--> idle
 *   initialising --tap--> idle (the start is abandoned, without a word)
 *   initialising --ENGINE_START_TIMEOUT_MS after the microphone opened--> idle ('engineTimeout')
 *
 * The time limit runs from the moment the microphone is open, not from the tap, so a person reading the
 * browser's permission prompt is never cut short; past it, an audio engine that has not started (a
 * machine without a sound device, a device that fails) will not, and the button must not wait on it.
 *
 * Taps closer than 150 ms to the previous one are ignored. A clip under 500 ms is dropped ('Recording too
 * short'); a capture without audio gives 'No audio data captured'; anything else is handed to `onClip`.
 */

/** How long the audio engine may take to start once the microphone is open. */
export const ENGINE_START_TIMEOUT_MS = 5_000;

export type RecorderState = 'idle' | 'initialising' | 'recording' | 'stopping';

/** A running capture: `stop` ends it and resolves with the encoded clip (empty when nothing was captured). */
export interface Capture {
  stop(): Promise<Uint8Array>;
  /** Abandon without a clip (unmount, errors). */
  cancel(): void;
}

export type RecorderProblem =
  | { kind: 'tooShort' }
  | { kind: 'empty' }
  | { kind: 'mic'; message: string }
  | { kind: 'noAudioContext' }
  | { kind: 'engineTimeout' };

export interface RecorderSnapshot {
  state: RecorderState;
  /** Whole seconds recorded so far (the timer shows it as mm:ss). */
  elapsedSeconds: number;
}

/** What `start` is given: how to learn it is no longer wanted, and how to say the microphone is open. */
export interface StartAttempt {
  /** Aborted once the start is abandoned: whatever it has opened is to be released. */
  signal: AbortSignal;
  /** The microphone is open: from now the audio engine has ENGINE_START_TIMEOUT_MS to start. */
  microphoneOpen(): void;
}

export interface RecorderOptions {
  /** Opens the microphone and starts encoding. Rejects with the reason the microphone failed. */
  start: (attempt: StartAttempt) => Promise<Capture>;
  /** Called at each tap that starts a recording, before the microphone opens (stops playback). */
  onBeforeStart?: () => void;
  onClip: (clip: Uint8Array, durationMs: number) => void;
  onProblem: (problem: RecorderProblem) => void;
  onChange: (snapshot: RecorderSnapshot) => void;
  clock?: RecorderClock;
  minMs?: number;
  maxMs?: number;
  debounceMs?: number;
  engineTimeoutMs?: number;
}

/** The machine behind the mic button; `createRecorder` makes one. */
class RecorderMachine {
  private current: RecorderState = 'idle';
  private elapsed = 0;
  private lastTapAt = Number.NEGATIVE_INFINITY;
  private capture: Capture | undefined;
  /** The start in flight: its abort and, once the microphone is open, its time limit. */
  private starting: { controller: AbortController; timer?: unknown } | undefined;
  private disposed = false;
  /** Bumped on dispose so a start still in flight knows it is unwanted. */
  private generation = 0;
  private readonly clock: RecorderClock;
  private readonly minMs: number;
  private readonly debounceMs: number;
  private readonly engineTimeoutMs: number;
  private readonly time: ReturnType<typeof createRecordingTime>;

  constructor(private readonly options: RecorderOptions) {
    this.clock = options.clock ?? browserClock;
    this.minMs = options.minMs ?? RECORDING_MIN_MS;
    this.debounceMs = options.debounceMs ?? MIC_DEBOUNCE_MS;
    this.engineTimeoutMs = options.engineTimeoutMs ?? ENGINE_START_TIMEOUT_MS;
    const onTick = (seconds: number) => {
      this.elapsed = seconds;
      this.emit();
    };
    this.time = createRecordingTime(this.clock, options.maxMs ?? RECORDING_MAX_MS, onTick, () => {
      void this.finish();
    });
  }

  get state(): RecorderState {
    return this.current;
  }
  get elapsedSeconds(): number {
    return this.elapsed;
  }

  /** The mic button: start when idle, give up while starting, stop when recording; debounced. */
  tap(): void {
    if (this.disposed) return;
    const now = this.clock.now();
    if (now - this.lastTapAt < this.debounceMs) return;
    this.lastTapAt = now;
    if (this.current === 'idle') void this.begin();
    else if (this.current === 'initialising') this.abandonStart();
    else if (this.current === 'recording') void this.finish();
  }

  /** Stop as if tapped (used when the room goes away); no debounce. */
  stop(): void {
    void this.finish();
  }

  dispose(): void {
    this.disposed = true;
    this.generation += 1;
    this.time.clear();
    this.endStart()?.abort();
    this.capture?.cancel();
    this.capture = undefined;
    this.current = 'idle';
  }

  private emit(): void {
    this.options.onChange({ state: this.current, elapsedSeconds: this.elapsed });
  }

  private set(next: RecorderState): void {
    this.current = next;
    this.emit();
  }

  /** Opens the microphone; a start that fails says why, one no longer wanted is cancelled. */
  private async begin(): Promise<void> {
    const mine = this.generation;
    const controller = new AbortController();
    const starting: { controller: AbortController; timer?: unknown } = { controller };
    this.starting = starting;
    const microphoneOpen = () => {
      if (this.starting !== starting || starting.timer !== undefined) return;
      starting.timer = this.clock.setTimeout(
        () => this.abandonStart({ kind: 'engineTimeout' }),
        this.engineTimeoutMs,
      );
    };
    this.options.onBeforeStart?.();
    this.elapsed = 0;
    this.set('initialising');
    let started: Capture;
    try {
      started = await this.options.start({ signal: controller.signal, microphoneOpen });
    } catch (error) {
      if (mine !== this.generation || controller.signal.aborted) return;
      this.endStart();
      this.set('idle');
      this.options.onProblem(problemOf(error));
      return;
    }
    if (mine !== this.generation || this.disposed || controller.signal.aborted) {
      started.cancel();
      return;
    }
    this.endStart();
    this.capture = started;
    this.elapsed = 0;
    this.time.start();
    this.set('recording');
  }

  /** Gives up the start in flight: back to idle, saying why when it is the time limit. */
  private abandonStart(problem?: RecorderProblem): void {
    const controller = this.endStart();
    if (!controller) return;
    controller.abort();
    this.set('idle');
    if (problem) this.options.onProblem(problem);
  }

  /** Forgets the start in flight and its time limit; returns its abort for the caller to use. */
  private endStart(): AbortController | undefined {
    const starting = this.starting;
    this.starting = undefined;
    if (starting?.timer !== undefined) this.clock.clearTimeout(starting.timer);
    return starting?.controller;
  }

  /** Ends the recording: the clip goes to `onClip`, or the problem with it to `onProblem`. */
  private async finish(): Promise<void> {
    if (this.current !== 'recording' || !this.capture) return;
    const running = this.capture;
    this.capture = undefined;
    this.time.clear();
    const durationMs = this.time.durationMs();
    this.set('stopping');
    let clip: Uint8Array;
    try {
      clip = await running.stop();
    } catch (error) {
      this.elapsed = 0;
      this.set('idle');
      this.options.onProblem(problemOf(error));
      return;
    }
    if (this.disposed) return;
    this.elapsed = 0;
    this.set('idle');
    if (durationMs < this.minMs) return this.options.onProblem({ kind: 'tooShort' });
    if (clip.length === 0) return this.options.onProblem({ kind: 'empty' });
    this.options.onClip(clip, durationMs);
  }
}

export function createRecorder(options: RecorderOptions) {
  return new RecorderMachine(options);
}
export type Recorder = ReturnType<typeof createRecorder>;

/** Why a recording failed: a browser without Web Audio has its own words. */
function problemOf(error: unknown): RecorderProblem {
  if (error instanceof Error && error.name === 'NoAudioContextError') return { kind: 'noAudioContext' };
  return { kind: 'mic', message: error instanceof Error ? error.message : String(error) };
}
