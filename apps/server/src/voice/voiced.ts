/*
 * Is there a voice in this clip? Speech models asked to transcribe silence or noise do not say "nothing":
 * Whisper in particular invents phrases it saw at the end of subtitled videos ('Thank you for watching',
 * 'ご視聴ありがとうございました'). So a clip reaches the provider only when it holds voiced speech.
 *
 * A 20 ms frame counts as voiced when it is (1) loud enough, absolutely and above the clip's own noise
 * floor, and (2) periodic at a pitch a human voice has (50-500 Hz: a clear peak in its normalised
 * autocorrelation). Silence fails (1); hiss, fans and most broadband noise fail (2); vowels pass both.
 * A clip is voiced when it has at least `minVoicedMs` of such frames.
 */

export interface VoicedOptions {
  sampleRate: number;
  frameMs: number;
  /** Frames quieter than this (dBFS, RMS) are silence whatever else they look like. */
  minFrameDb: number;
  /** A voiced frame stands this far (dB) above the quiet tenth of the clip. */
  aboveFloorDb: number;
  /** Normalised autocorrelation peak a voiced frame reaches within the pitch range. */
  minPeriodicity: number;
  minPitchHz: number;
  maxPitchHz: number;
  /** Voiced time a clip needs to go to the provider. */
  minVoicedMs: number;
}

export const DEFAULT_VOICED_OPTIONS: VoicedOptions = {
  sampleRate: 16_000,
  frameMs: 20,
  minFrameDb: -50,
  aboveFloorDb: 8,
  minPeriodicity: 0.5,
  minPitchHz: 50,
  maxPitchHz: 500,
  minVoicedMs: 200,
};

export interface VoicedAnalysis {
  voiced: boolean;
  durationMs: number;
  voicedMs: number;
  /** Share of frames that are voiced (0..1). */
  voicedRatio: number;
  /** Loudest frame (dBFS). */
  peakDb: number;
  /** The quiet tenth of the clip (dBFS). */
  floorDb: number;
}

const SILENT_DB = -120;

function toDb(rms: number): number {
  return rms > 0 ? Math.max(SILENT_DB, 20 * Math.log10(rms)) : SILENT_DB;
}

/**
 * Highest normalised autocorrelation of `x[from, to)` for lags in [minLag, maxLag]: near 1 for a periodic
 * (voiced) signal, near 0 for noise. Energies come from prefix sums, so each lag costs one dot product.
 */
function periodicity(
  x: Float32Array,
  squares: Float64Array,
  from: number,
  to: number,
  minLag: number,
  maxLag: number,
): number {
  let best = 0;
  for (let lag = minLag; lag <= Math.min(maxLag, to - from - 1); lag += 1) {
    let sum = 0;
    for (let i = from; i + lag < to; i += 1) sum += (x[i] as number) * (x[i + lag] as number);
    const e1 = (squares[to - lag] as number) - (squares[from] as number);
    const e2 = (squares[to] as number) - (squares[from + lag] as number);
    if (e1 > 0 && e2 > 0) best = Math.max(best, sum / Math.sqrt(e1 * e2));
  }
  return best;
}

/** Half the rate (smoothed with [1/4, 1/2, 1/4] first), DC removed: pitch lives far below 4 kHz. */
function halfRate(samples: Float32Array): Float32Array {
  const out = new Float32Array(Math.floor(samples.length / 2));
  let mean = 0;
  for (let o = 0; o < out.length; o += 1) {
    const i = 2 * o;
    out[o] = 0.25 * (samples[i - 1] ?? 0) + 0.5 * (samples[i] as number) + 0.25 * (samples[i + 1] ?? 0);
    mean += out[o] as number;
  }
  mean /= Math.max(1, out.length);
  for (let o = 0; o < out.length; o += 1) out[o]! -= mean;
  return out;
}

export function analyseVoice(samples: Float32Array, overrides: Partial<VoicedOptions> = {}): VoicedAnalysis {
  const options = { ...DEFAULT_VOICED_OPTIONS, ...overrides };
  const frameLength = Math.round((options.sampleRate * options.frameMs) / 1000);
  const frameCount = Math.floor(samples.length / frameLength);
  const durationMs = (samples.length / options.sampleRate) * 1000;
  if (frameCount === 0) {
    return { voiced: false, durationMs, voicedMs: 0, voicedRatio: 0, peakDb: SILENT_DB, floorDb: SILENT_DB };
  }
  const levels: number[] = [];
  for (let f = 0; f < frameCount; f += 1) {
    let sum = 0;
    for (let i = f * frameLength; i < (f + 1) * frameLength; i += 1) sum += (samples[i] as number) ** 2;
    levels.push(toDb(Math.sqrt(sum / frameLength)));
  }
  const sorted = [...levels].sort((a, b) => a - b);
  const floorDb = sorted[Math.floor(sorted.length * 0.1)] ?? SILENT_DB;
  const peakDb = sorted.at(-1) ?? SILENT_DB;
  // Pitch is looked for at half the rate, over two frames (a 50 Hz period is 20 ms).
  const half = halfRate(samples);
  const squares = new Float64Array(half.length + 1);
  for (let i = 0; i < half.length; i += 1) squares[i + 1] = (squares[i] as number) + (half[i] as number) ** 2;
  const halfRateHz = options.sampleRate / 2;
  const minLag = Math.floor(halfRateHz / options.maxPitchHz);
  const maxLag = Math.ceil(halfRateHz / options.minPitchHz);
  const halfFrame = frameLength / 2;
  let voicedFrames = 0;
  for (let f = 0; f < frameCount; f += 1) {
    const level = levels[f] as number;
    if (level < options.minFrameDb || level < floorDb + options.aboveFloorDb) continue;
    const from = Math.floor(f * halfFrame);
    const to = Math.min(half.length, from + 2 * halfFrame);
    if (periodicity(half, squares, from, to, minLag, maxLag) >= options.minPeriodicity) voicedFrames += 1;
  }
  const voicedMs = voicedFrames * options.frameMs;
  return {
    voiced: voicedMs >= options.minVoicedMs,
    durationMs,
    voicedMs,
    voicedRatio: voicedFrames / frameCount,
    peakDb,
    floorDb,
  };
}
