import type OpenAI from 'openai';
import {
  noteMessages,
  parseNote,
  summaryMessages,
  translationMessages,
  type ChatMessage,
} from './prompts.js';
import type {
  Logger,
  AiProvider,
  AiTask,
  NoteRequest,
  SpeechRequest,
  SummaryRequest,
  TranscribeOptions,
  Transcription,
  TranslateRequest,
} from './provider.js';
import { AiError, languageFromScript, normaliseLanguage } from './provider.js';
import { encodeWav, isWav } from '../audio/index.js';
import { createRealtimeStream } from './openai-realtime.js';
import { createRescanStream } from './rescan-stream.js';
import { lazyModule } from '../lazy-module.js';
import type { TranscriptionStream, TranscriptionStreamOptions } from './transcription-stream.js';

/*
 * Any OpenAI-compatible API through the official SDK: streaming chat completions for translation and
 * hints, audio.speech (PCM, else WAV) for speech, audio.transcriptions for voice input. The SDK's own retries are
 * off: the translation service retries with its own bounded backoff and timeout for every provider alike.
 */

export interface OpenAiProviderOptions {
  apiKey: string;
  baseURL?: string;
  translationModel: string;
  ttsModel: string;
  ttsVoice: string;
  transcriptionModel: string;
  /** A hard ceiling per HTTP request; the service's per-call timeout is normally shorter. */
  requestTimeoutMs?: number;
  /** Try the Realtime API for streamed clips (default true); without it, or where the server has none,
   * the growing clip is re-transcribed every `rescanIntervalMs`. */
  realtimeTranscription?: boolean;
  rescanIntervalMs?: number;
  /** For the realtime fallback's log line. */
  logger?: Logger;
}

/** After a server refused the Realtime API, streamed clips go straight to re-transcription this long. */
const REALTIME_RETRY_MS = 10 * 60_000;

export class OpenAiProvider implements AiProvider {
  readonly name = 'openai' as const;
  /**
   * The SDK is loaded only when this provider is in use (decision 0116), and from its construction on, so
   * the first call does not wait for the import.
   */
  private readonly sdk = lazyModule(() => import('openai'));
  private readonly client = lazyModule(
    async (): Promise<OpenAI> =>
      new (await this.sdk()).default({
        apiKey: this.options.apiKey,
        baseURL: this.options.baseURL,
        maxRetries: 0,
        timeout: this.options.requestTimeoutMs ?? 120_000,
      }),
  );
  private realtimeRefusedAt = -Infinity;

  constructor(private readonly options: OpenAiProviderOptions) {
    // a failed load is reported by the first call, which tries again
    this.client().catch(() => undefined);
  }

  supports(_task: AiTask): boolean {
    return true;
  }

  streamingTranscription() {
    return this.realtimeOffered() ? ('realtime' as const) : ('rescan' as const);
  }

  private realtimeOffered(): boolean {
    return (
      this.options.realtimeTranscription !== false &&
      performance.now() - this.realtimeRefusedAt > REALTIME_RETRY_MS
    );
  }

  startTranscription(options: TranscriptionStreamOptions): TranscriptionStream {
    const rescan = () =>
      createRescanStream({
        ...options,
        mode: 'rescan',
        intervalMs: this.options.rescanIntervalMs ?? 1_500,
        transcribe: (audio, signal) =>
          this.transcribe(audio, { languageHint: options.languageHint, mimeType: 'audio/ogg', signal }),
      });
    if (!this.realtimeOffered()) return rescan();
    const base = (this.options.baseURL ?? 'https://api.openai.com/v1').replace(/\/+$/u, '');
    return createRealtimeStream({
      ...options,
      url: `${base.replace(/^http/u, 'ws')}/realtime?intent=transcription`,
      apiKey: this.options.apiKey,
      model: this.options.transcriptionModel,
      logger: this.options.logger ?? { info() {}, warn() {}, error() {}, debug() {} },
      fallback: rescan,
      onUnavailable: () => {
        this.realtimeRefusedAt = performance.now();
      },
    });
  }

  translate(request: TranslateRequest): AsyncIterable<string> {
    return this.streamChat(translationMessages(request), request.signal);
  }

  summarize(request: SummaryRequest): AsyncIterable<string> {
    return this.streamChat(summaryMessages(request), request.signal);
  }

  private async *streamChat(messages: ChatMessage[], signal: AbortSignal | undefined): AsyncIterable<string> {
    const stream = await (
      await this.client()
    ).chat.completions.create(
      { model: this.options.translationModel, messages, stream: true, temperature: 0.2 },
      { signal },
    );
    for await (const part of stream) {
      const piece = part.choices[0]?.delta?.content;
      if (piece) yield piece;
    }
  }

  async note(request: NoteRequest): Promise<string | null> {
    const stream = await (
      await this.client()
    ).chat.completions.create(
      {
        model: this.options.translationModel,
        messages: noteMessages(request),
        stream: true,
        temperature: 0.2,
      },
      { signal: request.signal },
    );
    let answer = '';
    for await (const part of stream) answer += part.choices[0]?.delta?.content ?? '';
    return parseNote(answer);
  }

  /** `pcm` until the server refuses it; then `wav` for the life of the provider. */
  private speechFormat: 'pcm' | 'wav' = 'pcm';

  /**
   * Raw PCM where the server offers it (decision 0168): the pipeline encodes it as Ogg/Opus for current
   * clients and keeps it as WAV for older ones, so asking for PCM spares a decode and a second header.
   */
  async synthesize(request: SpeechRequest): Promise<Uint8Array> {
    const format = this.speechFormat;
    let response: Response;
    try {
      response = await (
        await this.client()
      ).audio.speech.create(
        {
          model: this.options.ttsModel,
          voice: this.options.ttsVoice,
          input: request.text,
          response_format: format,
        },
        { signal: request.signal },
      );
    } catch (error) {
      if (format !== 'pcm' || !refusesFormat(error)) throw error;
      this.speechFormat = 'wav';
      return this.synthesize(request);
    }
    const type = response.headers.get('content-type') ?? '';
    return speechAsWav(new Uint8Array(await response.arrayBuffer()), format, type);
  }

  async transcribe(audio: Uint8Array, options: TranscribeOptions = {}): Promise<Transcription> {
    const mimeType = options.mimeType ?? 'audio/ogg';
    const extension = mimeType.includes('wav') ? 'wav' : mimeType.includes('webm') ? 'webm' : 'ogg';
    const file = await (await this.sdk()).toFile(audio, `speech.${extension}`, { type: mimeType });
    // whisper-1 reports the detected language only in verbose_json; the gpt-4o transcribers answer json.
    const verbose = /whisper/i.test(this.options.transcriptionModel);
    const result = (await (
      await this.client()
    ).audio.transcriptions.create(
      {
        file,
        model: this.options.transcriptionModel,
        response_format: verbose ? 'verbose_json' : 'json',
        ...(options.languageHint ? { language: options.languageHint.split('-')[0] } : {}),
      },
      { signal: options.signal },
    )) as { text: string; language?: string };
    const text = result.text.trim();
    const language =
      normaliseLanguage(result.language) ?? languageFromScript(text) ?? options.languageHint ?? 'en';
    return { text, language };
  }
}

/** OpenAI's `pcm`: 16-bit little-endian mono samples at 24 kHz, without a header. */
const PCM_RATE = 24_000;

/** A 400 or 422 to the speech request: the server does not offer the format asked for. */
function refusesFormat(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 400 || status === 422;
}

/** The speech engine's body as WAV: a WAV as it is (some servers answer WAV whatever is asked), PCM wrapped. */
function speechAsWav(body: Uint8Array, format: 'pcm' | 'wav', contentType: string): Uint8Array {
  if (isWav(body)) return body;
  const audio = !/json|text/.test(contentType) && body.length >= 2 && body.length % 2 === 0;
  if (format === 'pcm' && audio) {
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
    const samples = new Int16Array(body.length / 2);
    for (let i = 0; i < samples.length; i += 1) samples[i] = view.getInt16(i * 2, true);
    return encodeWav(samples, PCM_RATE);
  }
  throw new AiError(
    `speech engine returned ${body.length} bytes that are not ${format.toUpperCase()} audio`,
    {
      retryable: true,
    },
  );
}
