import { createOpusStreamDecoder, floatToPcm16, pcm16Bytes } from '../audio/index.js';

/** The rate Realtime takes PCM16 at. */
const PCM_RATE = 24_000;

function pcm16Base64(samples: Float32Array): string {
  const bytes = pcm16Bytes(floatToPcm16(samples));
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** The clip's audio on its way in to the session. */
export interface RealtimeAudio {
  /** Every piece pushed so far, for a fallback to begin with. */
  readonly pieces: readonly Uint8Array[];
  /** The next Ogg pages: decoded in order, then appended or held until the session exists. */
  push(pages: Uint8Array): void;
  /** The session exists: what was held goes out, and every later piece as it is decoded. */
  start(): void;
  /** Settles when every piece pushed so far is decoded. */
  decoded(): Promise<void>;
  /** Nothing more is decoded or appended, and the decoder is released. */
  stop(): void;
}

/** Opus pages in, `append(base64 PCM16)` out, in the order they were pushed. */
export function createRealtimeAudio(append: (audio: string) => void): RealtimeAudio {
  const decoder = createOpusStreamDecoder(PCM_RATE);
  const pieces: Uint8Array[] = [];
  const held: string[] = [];
  let decoding = Promise.resolve();
  let started = false;
  let stopped = false;
  return {
    pieces,
    push(pages) {
      pieces.push(pages);
      decoding = decoding.then(async () => {
        if (stopped) return;
        const audio = pcm16Base64(await decoder.push(pages).catch(() => new Float32Array(0)));
        if (started) append(audio);
        else held.push(audio);
      });
    },
    start() {
      started = true;
      for (const audio of held.splice(0)) append(audio);
    },
    decoded: () => decoding,
    stop() {
      stopped = true;
      decoder.free();
    },
  };
}
