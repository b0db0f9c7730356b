/*
 * Band-limited resampling between any two integer rates: each output sample is a windowed-sinc (Hamming)
 * low-pass of the input evaluated at its position, with the cutoff at 95% of the lower of the two Nyquist
 * frequencies. Decimating without that filter (plain linear interpolation) folds everything above the new
 * Nyquist back into the speech band, which the transcriber then hears as noise.
 */

/** Sinc zero crossings on each side of the centre, at the lower rate: the length of the filter. */
const ZERO_CROSSINGS = 8;
/** Passband edge as a share of the lower Nyquist frequency (48 kHz -> 16 kHz: 7.6 kHz). */
const PASSBAND = 0.95;

/** Filter weights for the inputs left-half .. left+half+1 around one fractional output position. */
function kernel(fraction: number, half: number, cutoff: number): Float32Array {
  const taps = new Float32Array(2 * half + 2);
  let sum = 0;
  for (let k = -half; k <= half + 1; k += 1) {
    const distance = k - fraction;
    if (Math.abs(distance) > half) continue;
    const sinc =
      distance === 0 ? 2 * cutoff : Math.sin(2 * Math.PI * cutoff * distance) / (Math.PI * distance);
    const weight = sinc * (0.54 + 0.46 * Math.cos((Math.PI * distance) / half));
    taps[k + half] = weight;
    sum += weight;
  }
  // unit gain at DC, whatever the phase
  for (let i = 0; i < taps.length; i += 1) taps[i]! /= sum;
  return taps;
}

/** Resample mono samples from `fromRate` to `toRate` (Hz); the input itself when the rates are equal. */
export function resample(input: Float32Array, fromRate: number, toRate: number): Float32Array {
  if (!Number.isInteger(fromRate) || !Number.isInteger(toRate) || fromRate <= 0 || toRate <= 0) {
    throw new RangeError(`sample rates must be positive integers (got ${fromRate} -> ${toRate})`);
  }
  if (fromRate === toRate) return input;
  const ratio = fromRate / toRate;
  const cutoff = (PASSBAND / 2) * Math.min(1, 1 / ratio); // cycles per input sample
  const half = Math.ceil(ZERO_CROSSINGS * Math.max(1, ratio));
  // Output i sits at input position i * fromRate / toRate: an integer part and one of at most
  // toRate / gcd phases, each with its own weights, computed once.
  const kernels = new Map<number, Float32Array>();
  const out = new Float32Array(Math.floor((input.length * toRate) / fromRate));
  for (let i = 0; i < out.length; i += 1) {
    const position = i * fromRate;
    const left = Math.floor(position / toRate);
    const phase = position - left * toRate;
    let taps = kernels.get(phase);
    if (!taps) {
      taps = kernel(phase / toRate, half, cutoff);
      kernels.set(phase, taps);
    }
    const base = left - half;
    let acc = 0;
    if (base >= 0 && base + taps.length <= input.length) {
      for (let k = 0; k < taps.length; k += 1) acc += input[base + k]! * taps[k]!;
    } else {
      // at the edges the samples outside the input count as silence
      for (let k = 0; k < taps.length; k += 1) {
        const index = base + k;
        if (index >= 0 && index < input.length) acc += input[index]! * taps[k]!;
      }
    }
    out[i] = acc;
  }
  return out;
}
