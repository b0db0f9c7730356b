import { AUDIO_SAMPLE_RATE, RECORDING_MIN_MS } from '@xtalk/protocol';
// libopus + resampler + Ogg muxer in WebAssembly, bundled with the app as an asset (never a CDN); it runs
// as the AudioWorklet processor 'encoder-worklet'. See docs/decisions/0004-voice-capture.md.
import encoderUrl from 'opus-recorder/dist/encoderWorker.min.js?url';
import type { Capture } from './recorder-machine';

/*
 * Microphone -> 16 kHz mono Opus in Ogg, in the browser. One AudioContext per recording:
 *   getUserMedia (the chosen device) -> MediaStreamSource -> AnalyserNode (the visualiser)
 *                                                        -> AudioWorkletNode 'encoder-worklet' (Ogg pages)
 * Stopping flushes the encoder and returns the pages as one file; a capture that produced no audio packet
 * returns an empty array (the recorder then says 'No audio data captured').
 */

export interface OpusCapture extends Capture {
  /** Live input for the frequency bars. */
  analyser: AnalyserNode;
}

/**
 * Where a streamed recording's pages go (protocol 3): opened once the recording is long enough to keep
 * (RECORDING_MIN_MS), then fed whole pages every STREAM_FLUSH_MS, ended at stop. `send` false: the stream
 * broke (connection lost), and the recorder falls back to sending the whole clip.
 */
export interface VoiceSink {
  send(pages: Uint8Array): boolean;
  end(): boolean;
}

export interface CaptureOptions {
  deviceId?: string | undefined;
  /** Streaming: opens the sink (undefined: the server cannot stream, send the whole clip). */
  openStream?: () => VoiceSink | undefined;
  /** Aborted when the start is no longer wanted: the microphone and audio engine are released. */
  signal?: AbortSignal;
  /** Called once the microphone is open, before the audio engine starts. */
  onMicrophoneOpen?: () => void;
}

/** How often pages go out while streaming; a page holds at most 200 ms (10 frames of 20 ms). */
const STREAM_FLUSH_MS = 250;

function concat(pages: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(pages.reduce((sum, page) => sum + page.length, 0));
  let offset = 0;
  for (const page of pages) {
    out.set(page, offset);
    offset += page.length;
  }
  return out;
}

interface PageMessage {
  message: 'page';
  page: Uint8Array;
  samplePosition: number;
}
type EncoderMessage = PageMessage | { message: 'ready' | 'done' | 'flushed' };

export class MicError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MicError';
  }
}

/** The browser has no Web Audio at all: nothing can be recorded or measured. */
export class NoAudioContextError extends Error {
  constructor() {
    super('Browser does not support AudioContext');
    this.name = 'NoAudioContextError';
  }
}

export function isCaptureSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.AudioContext === 'function' &&
    typeof window.AudioWorkletNode === 'function' &&
    typeof WebAssembly === 'object' &&
    Boolean(navigator.mediaDevices?.getUserMedia)
  );
}

function constraints(deviceId: string | undefined): MediaStreamConstraints {
  return {
    audio: {
      ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
      channelCount: 1,
      echoCancellation: true,
      noiseSuppression: true,
      autoGainControl: true,
    },
  };
}

async function openStream(deviceId: string | undefined): Promise<MediaStream> {
  try {
    return await navigator.mediaDevices.getUserMedia(constraints(deviceId));
  } catch (error) {
    // The remembered device was unplugged: fall back to the default one rather than fail.
    if (deviceId && (error as DOMException | undefined)?.name === 'OverconstrainedError') {
      return navigator.mediaDevices.getUserMedia(constraints(undefined));
    }
    throw error;
  }
}

export async function startOpusCapture(options: CaptureOptions = {}): Promise<OpusCapture> {
  const { deviceId } = options;
  if (typeof window.AudioContext !== 'function') throw new NoAudioContextError();
  if (!isCaptureSupported()) throw new MicError('This browser cannot record audio (no AudioWorklet).');
  const { signal } = options;
  const stream = await openStream(deviceId);
  const context = new AudioContext();
  const release = () => {
    for (const track of stream.getTracks()) track.stop();
    void context.close().catch(() => undefined);
  };
  // An engine that never starts leaves the steps below waiting for good: the abort releases the
  // microphone at once rather than when they settle.
  signal?.addEventListener('abort', release, { once: true });
  if (signal?.aborted) release();
  options.onMicrophoneOpen?.();
  try {
    await context.audioWorklet.addModule(encoderUrl);
    const source = context.createMediaStreamSource(stream);
    const analyser = context.createAnalyser();
    analyser.fftSize = 64;
    analyser.smoothingTimeConstant = 0.6;
    source.connect(analyser);
    const encoder = new AudioWorkletNode(context, 'encoder-worklet', {
      numberOfOutputs: 0,
      channelCount: 1,
      channelCountMode: 'explicit',
      channelInterpretation: 'speakers',
    });
    const pages: Uint8Array[] = [];
    let samplePosition = 0;
    let onDone: (() => void) | undefined;
    const ready = new Promise<void>((resolve, reject) => {
      encoder.onprocessorerror = () => reject(new MicError('The audio encoder failed to start.'));
      encoder.port.onmessage = ({ data }: MessageEvent<EncoderMessage>) => {
        if (data.message === 'ready') resolve();
        else if (data.message === 'page') {
          pages.push(data.page);
          samplePosition = data.samplePosition;
        } else if (data.message === 'done') onDone?.();
      };
    });
    encoder.port.postMessage({
      command: 'init',
      originalSampleRate: context.sampleRate,
      encoderSampleRate: AUDIO_SAMPLE_RATE,
      numberOfChannels: 1,
      encoderApplication: 2048, // OPUS_APPLICATION_VOIP: tuned for speech
      encoderFrameSize: 20,
      maxFramesPerPage: options.openStream ? 10 : 40,
      resampleQuality: 3,
    });
    await ready;
    encoder.port.postMessage({ command: 'getHeaderPages' });
    source.connect(encoder);
    // 'suspended', or Safari's 'interrupted' (a call, the lock screen)
    if (context.state !== 'running') await context.resume();

    const streaming = startStreaming(options.openStream, pages);
    let finished = false;
    return {
      analyser,
      async stop() {
        if (finished) return new Uint8Array(0);
        finished = true;
        source.disconnect();
        const done = new Promise<void>((resolve) => (onDone = resolve));
        encoder.port.postMessage({ command: 'done' });
        await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 3000))]);
        encoder.port.postMessage({ command: 'close' });
        release();
        if (samplePosition === 0) {
          streaming.stop();
          return new Uint8Array(0); // headers only: no audio captured
        }
        const clip = concat(pages);
        // streamed to the end: the server has it all; else the whole clip goes as one frame
        return streaming.finish() ? Object.assign(clip, { streamed: true }) : clip;
      },
      cancel() {
        if (finished) return;
        finished = true;
        streaming.stop();
        source.disconnect();
        encoder.port.postMessage({ command: 'close' });
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** Feeds the sink: nothing for the first RECORDING_MIN_MS (a clip that short is dropped anyway). */
function startStreaming(open: CaptureOptions['openStream'], pages: Uint8Array[]) {
  let sink: VoiceSink | undefined;
  let sent = 0;
  let broken = !open;
  const flush = () => {
    if (!sink || broken || sent === pages.length) return;
    if (!sink.send(concat(pages.slice(sent)))) broken = true;
    sent = pages.length;
  };
  const opener = setTimeout(() => {
    sink = open?.();
    if (!sink) broken = true;
    flush();
  }, RECORDING_MIN_MS);
  const ticker = setInterval(flush, STREAM_FLUSH_MS);
  const stop = () => {
    clearTimeout(opener);
    clearInterval(ticker);
  };
  return {
    stop,
    /** True when every page went out and the clip was ended on the stream. */
    finish(): boolean {
      stop();
      flush();
      return Boolean(sink) && !broken && sink!.end();
    },
  };
}
