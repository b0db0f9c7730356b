import { languageFromScript, type Logger, type Transcription } from './provider.js';
import { createRealtimeAudio } from './realtime-audio.js';
import {
  connectRealtime,
  type RealtimeConnection,
  type RealtimeSessionSettings,
} from './realtime-connection.js';
import { onServerEvent, type EventHooks } from './realtime-events.js';
import { RealtimeTranscript } from './realtime-transcript.js';
import type { TranscriptionStream, TranscriptionStreamOptions } from './transcription-stream.js';

/*
 * OpenAI Realtime transcription session (WebSocket `/v1/realtime?intent=transcription`): the clip's Opus
 * is decoded to 24 kHz PCM16 as it arrives and appended (`input_audio_buffer.append`); the server's VAD
 * cuts it into items, each transcribed with incremental `conversation.item.input_audio_transcription.delta`
 * events and closed by `...completed`. At the end the rest is committed (`input_audio_buffer.commit`) and
 * the stream waits for every item to complete. A server that offers no Realtime API (the upgrade is
 * refused, or it never says the session exists) hands the clip to the fallback: every piece so far, then
 * the rest, so the speaker loses nothing.
 */

export interface RealtimeStreamOptions extends TranscriptionStreamOptions, RealtimeSessionSettings {
  logger: Logger;
  /** The stream to use when the server offers no Realtime transcription. */
  fallback(): TranscriptionStream;
  /** Called once when this server turned out to offer none (the provider stops trying for a while). */
  onUnavailable(): void;
  /** How long to wait for the session to exist before falling back (ms). */
  connectTimeoutMs?: number;
}

/** One clip's Realtime session, handed to the fallback when the server offers none. */
class RealtimeStream implements TranscriptionStream {
  readonly mode = 'realtime';
  private readonly transcript = new RealtimeTranscript();
  private readonly audio = createRealtimeAudio((audio) =>
    this.connection.send({ type: 'input_audio_buffer.append', audio }),
  );
  private readonly connection: RealtimeConnection;
  private readonly connectTimer: NodeJS.Timeout;
  private fallback: TranscriptionStream | undefined;
  private ready = false;
  private ended = false;
  private commitAnswered = false;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private finished: Promise<Transcription> | undefined;

  constructor(private readonly options: RealtimeStreamOptions) {
    const hooks = this.eventHooks();
    this.connection = connectRealtime(options, {
      refused: (why) => this.fallBack(why),
      error: (error) => (this.ready ? this.fail(error) : this.fallBack(error.message)),
      event: (event) => {
        onServerEvent(event, hooks);
        this.changed();
      },
      closed: () => {
        if (!this.ready) this.fallBack('closed before the session');
        else if (!this.ended || !this.commitAnswered)
          this.fail(new Error('the realtime session closed early'));
      },
    });
    this.connectTimer = setTimeout(() => this.fallBack('no session'), options.connectTimeoutMs ?? 5_000);
  }

  push(pages: Uint8Array): void {
    if (this.fallback) return this.fallback.push(pages);
    this.audio.push(pages);
  }

  finish(signal?: AbortSignal): Promise<Transcription> {
    this.finished ??= this.transcribe(signal);
    return this.finished;
  }

  abort(): void {
    this.fallback?.abort();
    clearTimeout(this.connectTimer);
    this.connection.drop();
    this.audio.stop();
    this.failure ??= new Error('aborted');
    this.changed();
  }

  private changed(): void {
    this.wake?.();
  }

  private eventHooks(): EventHooks {
    return {
      transcript: this.transcript,
      ready: () => this.ready,
      ended: () => this.ended,
      open: () => {
        this.ready = true;
        clearTimeout(this.connectTimer);
        this.audio.start();
      },
      commitAnswered: () => (this.commitAnswered = true),
      update: () => this.options.onUpdate(this.transcript.update()),
      fail: (error) => this.fail(error),
      fallBack: (why) => this.fallBack(why),
    };
  }

  /** No Realtime here: every piece so far goes to the fallback, which takes the clip from now on. */
  private fallBack(why: string): void {
    if (this.ready || this.fallback) return;
    clearTimeout(this.connectTimer);
    this.options.logger.info({ why }, 'realtime transcription not offered; re-transcribing the growing clip');
    this.options.onUnavailable();
    this.fallback = this.options.fallback();
    for (const piece of this.audio.pieces) this.fallback.push(piece);
    this.connection.drop();
    this.audio.stop();
    this.changed();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.changed();
  }

  /** Read through a call: the event handlers set it while `transcribe` awaits. */
  private usingFallback(): TranscriptionStream | undefined {
    return this.fallback;
  }

  /** Commits the rest, waits for every item, and gives the whole text (or the fallback's). */
  private async transcribe(signal?: AbortSignal): Promise<Transcription> {
    await this.audio.decoded();
    while (!this.ready && !this.fallback && !this.failure)
      await new Promise<void>((resolve) => (this.wake = resolve));
    if (this.usingFallback()) return this.usingFallback()!.finish(signal);
    this.ended = true;
    this.connection.send({ type: 'input_audio_buffer.commit' });
    await this.settled(signal);
    if (this.usingFallback()) return this.usingFallback()!.finish(signal);
    if (this.failure) throw this.failure;
    this.connection.close();
    this.audio.stop();
    const final = this.transcript.text();
    return { text: final, language: languageFromScript(final) ?? this.options.languageHint ?? 'en' };
  }

  private async settled(signal?: AbortSignal): Promise<void> {
    while (!this.fallback && !this.failure && !(this.commitAnswered && this.transcript.allDone())) {
      if (signal?.aborted) throw signal.reason;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  }
}

export function createRealtimeStream(options: RealtimeStreamOptions): TranscriptionStream {
  return new RealtimeStream(options);
}
