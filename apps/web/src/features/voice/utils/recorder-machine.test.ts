import { describe, expect, it } from 'vitest';
import {
  ENGINE_START_TIMEOUT_MS,
  createRecorder,
  type Capture,
  type RecorderOptions,
  type RecorderProblem,
  type RecorderSnapshot,
} from './recorder-machine';
import { formatTimer, type RecorderClock } from './recording-clock';
import { NoAudioContextError } from './opus-capture';

/** A clock whose time moves only when the test says so, with the timers that fire on the way. */
class FakeClock implements RecorderClock {
  private time = 0;
  private nextId = 1;
  private timers = new Map<number, { at: number; fn: () => void; every?: number }>();

  now = () => this.time;
  setTimeout = (fn: () => void, ms: number) => this.add(fn, ms);
  setInterval = (fn: () => void, ms: number) => this.add(fn, ms, ms);
  clearTimeout = (handle: unknown) => void this.timers.delete(handle as number);
  clearInterval = (handle: unknown) => void this.timers.delete(handle as number);

  private add(fn: () => void, ms: number, every?: number) {
    const id = this.nextId++;
    this.timers.set(id, { at: this.time + ms, fn, every });
    return id;
  }

  /** Move time forward, firing due timers in order. */
  async advance(ms: number) {
    const end = this.time + ms;
    for (;;) {
      const due = [...this.timers.entries()]
        .filter(([, timer]) => timer.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      const [id, timer] = due;
      this.time = timer.at;
      if (timer.every) timer.at += timer.every;
      else this.timers.delete(id);
      timer.fn();
      await flush();
    }
    this.time = end;
    await flush();
  }

  get pending() {
    return this.timers.size;
  }
}

const flush = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function setup(overrides: Partial<RecorderOptions> & { clip?: Uint8Array } = {}) {
  const clock = new FakeClock();
  const snapshots: RecorderSnapshot[] = [];
  const clips: { clip: Uint8Array; durationMs: number }[] = [];
  const problems: RecorderProblem[] = [];
  const events: string[] = [];
  let captures = 0;
  const capture = (): Capture => ({
    stop: async () => {
      events.push('stop');
      return overrides.clip ?? new Uint8Array([0x4f, 0x67, 0x67, 0x53]);
    },
    cancel: () => events.push('cancel'),
  });
  const recorder = createRecorder({
    clock,
    start: async () => {
      captures += 1;
      events.push('start');
      return capture();
    },
    onBeforeStart: () => events.push('stop-playback'),
    onClip: (clip, durationMs) => clips.push({ clip, durationMs }),
    onProblem: (problem) => problems.push(problem),
    onChange: (snapshot) => snapshots.push(snapshot),
    ...overrides,
  });
  const timer = () => formatTimer(recorder.elapsedSeconds);
  return { clock, recorder, snapshots, clips, problems, events, timer, captures: () => captures };
}

describe('recorder state machine', () => {
  it('tap starts (stopping playback first), the timer counts mm:ss each second, tap stops and sends', async () => {
    const { clock, recorder, clips, events, timer, snapshots } = setup();
    recorder.tap();
    expect(recorder.state).toBe('initialising');
    expect(events[0]).toBe('stop-playback');
    await flush();
    expect(recorder.state).toBe('recording');
    expect(timer()).toBe('00:00');
    await clock.advance(999);
    expect(timer()).toBe('00:00');
    await clock.advance(1);
    expect(timer()).toBe('00:01');
    await clock.advance(42_000);
    expect(timer()).toBe('00:43');
    recorder.tap();
    await flush();
    expect(recorder.state).toBe('idle');
    expect(clips).toHaveLength(1);
    expect(clips[0]!.durationMs).toBe(43_000);
    expect(events).toEqual(['stop-playback', 'start', 'stop']);
    expect(snapshots.map((s) => s.state)).toEqual(
      expect.arrayContaining(['initialising', 'recording', 'stopping', 'idle']),
    );
    expect(clock.pending).toBe(0);
  });

  it('the timer starts again at 00:00 for the next recording', async () => {
    const { clock, recorder, timer } = setup();
    recorder.tap();
    await flush();
    await clock.advance(5_000);
    expect(timer()).toBe('00:05');
    recorder.tap();
    await flush();
    await clock.advance(1_000);
    recorder.tap();
    expect(timer()).toBe('00:00');
    await flush();
    expect(timer()).toBe('00:00');
    await clock.advance(2_000);
    expect(timer()).toBe('00:02');
  });

  it('ignores taps within 150 ms of the previous one', async () => {
    const { clock, recorder, clips, captures } = setup();
    recorder.tap();
    recorder.tap(); // same instant: a double tap
    await flush();
    expect(captures()).toBe(1);
    await clock.advance(149);
    recorder.tap(); // 149 ms after: ignored, still recording
    expect(recorder.state).toBe('recording');
    await clock.advance(1_000);
    recorder.tap();
    await flush();
    expect(recorder.state).toBe('idle');
    expect(clips).toHaveLength(1);
  });

  it('a second tap while the microphone starts gives up the start, without a word', async () => {
    let signal: AbortSignal | undefined;
    let release: ((capture: Capture) => void) | undefined;
    const cancelled: string[] = [];
    const { clock, recorder, problems } = setup({
      start: (attempt) => {
        signal = attempt.signal;
        return new Promise<Capture>((resolve) => (release = resolve));
      },
    });
    recorder.tap();
    // the permission prompt is still open: no time limit runs yet
    await clock.advance(30_000);
    expect(recorder.state).toBe('initialising');
    recorder.tap();
    expect(recorder.state).toBe('idle');
    expect(signal?.aborted).toBe(true);
    expect(problems).toEqual([]);
    expect(clock.pending).toBe(0);
    // a capture that arrives after all is released, not recorded
    release!({ stop: async () => new Uint8Array([1]), cancel: () => cancelled.push('late') });
    await flush();
    expect(cancelled).toEqual(['late']);
    expect(recorder.state).toBe('idle');
  });

  it('gives up when the audio engine never starts, says why and is ready for the next tap', async () => {
    let signal: AbortSignal | undefined;
    let engineStarts = false;
    const { clock, recorder, problems, snapshots } = setup({
      start: (attempt) => {
        signal = attempt.signal;
        attempt.microphoneOpen();
        if (engineStarts) return Promise.resolve({ stop: async () => new Uint8Array([1]), cancel: () => {} });
        return new Promise<Capture>(() => undefined); // an engine that never starts
      },
    });
    recorder.tap();
    await clock.advance(ENGINE_START_TIMEOUT_MS - 1);
    expect(recorder.state).toBe('initialising');
    await clock.advance(1);
    expect(recorder.state).toBe('idle');
    expect(snapshots.at(-1)).toEqual({ state: 'idle', elapsedSeconds: 0 });
    expect(problems).toEqual([{ kind: 'engineTimeout' }]);
    expect(signal?.aborted).toBe(true);
    expect(clock.pending).toBe(0);
    engineStarts = true;
    await clock.advance(1_000);
    recorder.tap();
    await flush();
    expect(recorder.state).toBe('recording');
    await clock.advance(ENGINE_START_TIMEOUT_MS * 2);
    expect(recorder.state).toBe('recording');
    expect(problems).toHaveLength(1);
  });

  it('drops a clip under 500 ms as "too short"', async () => {
    const { clock, recorder, clips, problems } = setup();
    recorder.tap();
    await flush();
    await clock.advance(499);
    recorder.tap();
    await flush();
    expect(clips).toHaveLength(0);
    expect(problems).toEqual([{ kind: 'tooShort' }]);
    // exactly 500 ms is long enough
    await clock.advance(200);
    recorder.tap();
    await flush();
    await clock.advance(500);
    recorder.tap();
    await flush();
    expect(clips).toHaveLength(1);
  });

  it('stops by itself at 60 s and sends the clip', async () => {
    const { clock, recorder, clips, timer } = setup();
    recorder.tap();
    await flush();
    await clock.advance(59_999);
    expect(recorder.state).toBe('recording');
    expect(timer()).toBe('00:59');
    await clock.advance(1);
    expect(recorder.state).toBe('idle');
    expect(clips).toEqual([{ clip: expect.any(Uint8Array), durationMs: 60_000 }]);
    await clock.advance(10_000);
    expect(clips).toHaveLength(1);
  });

  it('reports an empty capture as "No audio data captured"', async () => {
    const { clock, recorder, clips, problems } = setup({ clip: new Uint8Array(0) });
    recorder.tap();
    await flush();
    await clock.advance(2_000);
    recorder.tap();
    await flush();
    expect(clips).toHaveLength(0);
    expect(problems).toEqual([{ kind: 'empty' }]);
  });

  it('goes back to idle with the reason when the microphone fails', async () => {
    const { recorder, problems } = setup({
      start: () => Promise.reject(new DOMException('Permission denied', 'NotAllowedError')),
    });
    recorder.tap();
    await flush();
    expect(recorder.state).toBe('idle');
    expect(problems).toEqual([{ kind: 'mic', message: 'Permission denied' }]);
  });

  it('says "Browser does not support AudioContext" when there is no Web Audio', async () => {
    const { recorder, problems } = setup({ start: () => Promise.reject(new NoAudioContextError()) });
    recorder.tap();
    await flush();
    expect(recorder.state).toBe('idle');
    expect(problems).toEqual([{ kind: 'noAudioContext' }]);
  });

  it('cancels the capture and its timers when disposed mid-recording', async () => {
    const { clock, recorder, events, clips } = setup();
    recorder.tap();
    await flush();
    recorder.dispose();
    expect(events).toContain('cancel');
    expect(clock.pending).toBe(0);
    await clock.advance(70_000);
    expect(clips).toHaveLength(0);
    recorder.tap();
    expect(recorder.state).toBe('idle');
  });

  it('formats the timer as mm:ss', () => {
    expect(formatTimer(0)).toBe('00:00');
    expect(formatTimer(9.9)).toBe('00:09');
    expect(formatTimer(60)).toBe('01:00');
    expect(formatTimer(3599)).toBe('59:59');
  });
});
