import type { ServerResponse } from 'node:http';
import { sineWav } from '../../audio/index.js';
import { sendJson } from './fake-http.js';

/*
 * The fake's audio endpoints: real audio for /v1/audio/speech (raw PCM or WAV, as asked) and a scripted
 * transcript for /v1/audio/transcriptions.
 */

/** How the audio endpoints answer; each test sets what it needs. */
export interface FakeAudioScript {
  /** Status to answer /v1/audio/speech with instead of a WAV (e.g. 500). */
  speechStatus: number | undefined;
  /** The speech formats offered (default pcm and wav); another is answered 400, as OpenAI does. */
  speechFormats: string[];
  /** Seconds of audio per speech answer. */
  speechSeconds: number;
  transcription: { text: string; language?: string };
}

/** A sine tone in the format asked for: OpenAI's `pcm` (24 kHz PCM16, no header) or a WAV. */
function speechAudio(format: string, seconds: number): { bytes: Uint8Array; type: string } {
  const wav = sineWav(seconds, 440, 24_000);
  if (format === 'wav') return { bytes: wav, type: 'audio/wav' };
  return { bytes: wav.subarray(44), type: 'audio/pcm' };
}

export function answerSpeech(
  response: ServerResponse,
  body: Record<string, unknown>,
  script: FakeAudioScript,
): void {
  if (script.speechStatus) {
    sendJson(response, script.speechStatus, { error: { message: 'speech failed' } });
    return;
  }
  const format = typeof body.response_format === 'string' ? body.response_format : 'mp3';
  if (!script.speechFormats.includes(format)) {
    sendJson(response, 400, { error: { message: `response_format ${format} is not supported` } });
    return;
  }
  const { bytes, type } = speechAudio(format, script.speechSeconds);
  response.writeHead(200, { 'content-type': type, 'content-length': String(bytes.length) });
  response.end(Buffer.from(bytes));
}

export function answerTranscription(
  response: ServerResponse,
  body: Record<string, unknown>,
  script: FakeAudioScript,
): void {
  const { text, language } = script.transcription;
  const verbose = body.response_format === 'verbose_json';
  sendJson(response, 200, verbose ? { text, language, duration: 1.2 } : { text });
}
