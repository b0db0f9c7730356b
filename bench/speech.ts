import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROTOCOL_VERSION, type MessageFrame, type ServerFrame } from '@xtalk/protocol';
import { FakeProvider } from '../apps/server/src/ai/index.js';
import { guestLogin, joinRoom, startServer, TestClient } from '../apps/server/src/testing/harness.js';
import { pagesOf, withTranscript } from '../apps/server/src/voice/testing/clips.js';
import { percentile, round, summarise, type Summary } from './lib/stats.js';

/*
 * The speech run: speech end -> first translated text at the listener, streaming voice vs clip
 * mode, in the same run, through the real server in-process (PGlite, real WebSockets) with fake engines of
 * fixed latencies: a transcription delta 200 ms after the audio that holds its word (and the final text
 * 200 ms after the end; a whole clip's transcription also takes 200 ms), translation's first token
 * 300 ms after the call (then 20 words a second). The speaker sends a 4.2 s clip (three sentences, the last
 * word at the very end) at real-time pace: streaming, one Ogg page per frame as it is "recorded", then
 * voiceEnd; clip mode, the whole clip as one frame when the speaker stops. Speech end is voiceEnd (or the
 * clip frame) leaving the speaker; the listener's first translated text of the last sentence is the first
 * translationChunk of the message (streaming: the tail; clip mode: the whole). Speech (synthesis's first
 * byte 250 ms after the call, each sentence as soon as its translation is complete): speech end -> the
 * listener's `speech` frame (its audio follows at once) of the first sentence, and of the last sentence,
 * the one said at the very end, which is what a one-sentence utterance waits for.
 *
 *   BENCH_SPEECH_ROOMS (6) rooms at once, BENCH_SPEECH_CLIPS (3) clips each, per mode.
 */

const SCRIPT = 'Good morning everyone. The weather is lovely today. Let us begin now.';
const DELTA_MS = 200;
const FIRST_TOKEN_MS = 300;
/** Synthesis: the first byte of a sentence's audio this long after the call. */
const SPEECH_FIRST_BYTE_MS = 250;

export interface SpeechResult {
  rooms: number;
  clipsPerRoom: number;
  clipSeconds: number;
  latencies: { transcriptionDeltaMs: number; translationFirstTokenMs: number; speechFirstByteMs: number };
  /** speech end -> first translated text of the last sentence at the listener. */
  streaming: Summary & { p95: number };
  clip: Summary & { p95: number };
  /** speech end -> first translated audio at the listener (negative: before the speaker stopped). */
  streamingFirstAudio: Summary & { p95: number };
  clipFirstAudio: Summary & { p95: number };
  /** speech end -> the audio of the sentence said last. */
  streamingLastSentenceAudio: Summary & { p95: number };
  clipLastSentenceAudio: Summary & { p95: number };
  /** streaming: clips whose first sentence's audio reached the listener before the speaker stopped. */
  streamingAudioBeforeEnd: number;
  /** streaming only: how much of the clip's translation the listener had before the speaker stopped. */
  streamingTranslatedBeforeEnd: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const withP95 = (samples: number[]) => ({
  ...summarise(samples),
  p95: percentile(
    [...samples].sort((a, b) => a - b),
    0.95,
  ),
});

interface Spoken {
  id: number;
  clipId?: string | undefined;
  last: boolean;
  at: number;
}

/** When each `speech` frame reached the listener (its audio is the very next frame). */
function speechArrivals(listener: TestClient): Spoken[] {
  const arrivals: Spoken[] = [];
  listener.ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    const frame = JSON.parse(String(data)) as ServerFrame;
    if (frame.type === 'speech')
      arrivals.push({ id: frame.id, clipId: frame.clipId, last: frame.last, at: performance.now() });
  });
  return arrivals;
}

/** When the first and last sentences' speech of a clip (streamed) or message arrived; waits for the last. */
async function spokenClip(
  arrivals: Spoken[],
  clipId: string,
  messageId: number,
): Promise<{ first: number; last: number }> {
  const deadline = performance.now() + 20_000;
  for (;;) {
    const mine = arrivals.filter((spoken) => spoken.clipId === clipId || spoken.id === messageId);
    const last = mine.find((spoken) => spoken.last);
    if (last) return { first: mine[0]!.at, last: last.at };
    if (performance.now() > deadline) throw new Error(`no last sentence spoken for ${clipId}`);
    await sleep(20);
  }
}

function clipBytes(): Uint8Array {
  const here = join(import.meta.dirname, '..', 'apps', 'server', 'src', 'voice', 'fixtures', 'hello-en.opus');
  return withTranscript(new Uint8Array(readFileSync(here)), 'en', SCRIPT);
}

async function runMode(streaming: boolean, rooms: number, clips: number, log: (line: string) => void) {
  const words = SCRIPT.split(' ').length;
  const bytes = clipBytes();
  const pages = pagesOf(bytes);
  const clipSeconds = 4.17;
  const provider = new FakeProvider({
    deltaLatencyMs: DELTA_MS,
    secondsPerWord: clipSeconds / words,
    latencyMs: DELTA_MS,
    speechLatencyMs: SPEECH_FIRST_BYTE_MS,
    firstChunkDelayMs: FIRST_TOKEN_MS,
    chunkDelayMs: 50,
    streaming,
  });
  const server = await startServer(
    { AI_PROVIDER: 'fake', LANGUAGES: 'en,ja' },
    { provider, meter: { charge: async () => undefined } },
  );
  const samples: number[] = [];
  const firstAudio: number[] = [];
  const lastAudio: number[] = [];
  let earlyChunks = 0;
  try {
    await Promise.all(
      Array.from({ length: rooms }, async (_, room) => {
        const alice = await guestLogin(server.app);
        const bob = await guestLogin(server.app);
        const { roomId } = await joinRoom(server.app, alice.token, null);
        const speaker = await TestClient.join(server, alice, roomId, 'en');
        const listener = await TestClient.join(server, bob, roomId, 'ja', {
          protocolVersion: PROTOCOL_VERSION,
        });
        const spoken = speechArrivals(listener);
        await sleep(room * 300); // rooms out of step, as people are
        for (let n = 0; n < clips; n += 1) {
          const clipId = `speech-${room}-${n}`;
          if (streaming) speaker.send({ type: 'voiceStart', clipId, language: 'en', room: roomId });
          const start = performance.now();
          for (const [index, page] of pages.entries()) {
            // a page is sent once its audio has been recorded (8 pages over the clip's length)
            const due = start + (index / pages.length) * clipSeconds * 1000;
            await sleep(due - performance.now());
            if (streaming) speaker.ws.send(page);
          }
          await sleep(start + clipSeconds * 1000 - performance.now());
          const before = listener.frames.length;
          const end = performance.now();
          if (streaming) speaker.send({ type: 'voiceEnd', clipId });
          else {
            speaker.send({ type: 'voiceClip', clientId: clipId });
            speaker.ws.send(bytes);
          }
          earlyChunks += listener.frames
            .slice(0, before)
            .filter((frame) => frame.type === 'translationChunk' && frame.clipId === clipId).length;
          const message = await listener.next<MessageFrame>(
            (frame) => frame.type === 'message' && frame.clientId === clipId,
            20_000,
          );
          await listener.next(
            (frame: ServerFrame) =>
              frame.type === 'translationChunk' && frame.originalTimestamp === message.id,
            20_000,
          );
          samples.push(performance.now() - end);
          await listener.next(
            (frame: ServerFrame) =>
              frame.type === 'translationComplete' && frame.originalTimestamp === message.id,
            20_000,
          );
          const audio = await spokenClip(spoken, clipId, message.id);
          firstAudio.push(audio.first - end);
          lastAudio.push(audio.last - end);
          await sleep(2_100); // the per-connection clip limit: one every 2 s after a burst of 4
        }
        speaker.close();
        listener.close();
      }),
    );
  } finally {
    await server.close();
  }
  const summary = withP95(samples);
  const audio = { first: withP95(firstAudio), last: withP95(lastAudio) };
  const mode = streaming ? 'streaming' : 'clip mode';
  log(
    `  ${mode}: speech end -> first translated text p50 ${round(summary.p50)} ms, p95 ${round(summary.p95)} ms (n=${samples.length})`,
  );
  log(
    `  ${mode}: speech end -> first translated audio p50 ${round(audio.first.p50)} ms, p95 ${round(audio.first.p95)} ms; -> last sentence's audio p50 ${round(audio.last.p50)} ms, p95 ${round(audio.last.p95)} ms`,
  );
  return { summary, earlyChunks, audio, audioBeforeEnd: firstAudio.filter((ms) => ms < 0).length };
}

export async function runSpeech(log: (line: string) => void = console.log): Promise<SpeechResult> {
  const rooms = Number(process.env.BENCH_SPEECH_ROOMS ?? 6);
  const clips = Number(process.env.BENCH_SPEECH_CLIPS ?? 3);
  log(
    `speech: ${rooms} rooms x ${clips} clips per mode; delta ${DELTA_MS} ms, first token ${FIRST_TOKEN_MS} ms, speech first byte ${SPEECH_FIRST_BYTE_MS} ms`,
  );
  const streamed = await runMode(true, rooms, clips, log);
  const whole = await runMode(false, rooms, clips, log);
  return {
    rooms,
    clipsPerRoom: clips,
    clipSeconds: 4.17,
    latencies: {
      transcriptionDeltaMs: DELTA_MS,
      translationFirstTokenMs: FIRST_TOKEN_MS,
      speechFirstByteMs: SPEECH_FIRST_BYTE_MS,
    },
    streaming: streamed.summary,
    clip: whole.summary,
    streamingFirstAudio: streamed.audio.first,
    clipFirstAudio: whole.audio.first,
    streamingLastSentenceAudio: streamed.audio.last,
    clipLastSentenceAudio: whole.audio.last,
    streamingAudioBeforeEnd: streamed.audioBeforeEnd,
    streamingTranslatedBeforeEnd: streamed.earlyChunks,
  };
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop() ?? '')) {
  const result = await runSpeech();
  console.log(JSON.stringify(result, null, 2));
  process.exit(0);
}
