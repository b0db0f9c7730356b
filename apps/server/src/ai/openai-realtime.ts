import WebSocket from 'ws';
import { createOpusStreamDecoder } from '../audio/index.js';
import { AiError, languageFromScript, type Logger, type Transcription } from './provider.js';
import {
  committedOfGrowingText,
  type TranscriptionStream,
  type TranscriptionStreamOptions,
  type TranscriptUpdate,
} from './transcription-stream.js';

/*
 * OpenAI Realtime transcription session (WebSocket `/v1/realtime?intent=transcription`): the clip's Opus
 * is decoded to 24 kHz PCM16 as it arrives and appended (`input_audio_buffer.append`); the server's VAD
 * cuts it into items, each transcribed with incremental `conversation.item.input_audio_transcription.delta`
 * events and closed by `...completed`. At the end the rest is committed (`input_audio_buffer.commit`) and
 * the stream waits for every item to complete. A server that offers no Realtime API (the upgrade is
 * refused, or it never says the session exists) hands the clip to the fallback: every piece so far, then
 * the rest, so the speaker loses nothing.
 */

export interface RealtimeStreamOptions extends TranscriptionStreamOptions {
  /** ws(s)://host/v1/realtime?intent=transcription */
  url: string;
  apiKey: string;
  model: string;
  logger: Logger;
  /** The stream to use when the server offers no Realtime transcription. */
  fallback(): TranscriptionStream;
  /** Called once when this server turned out to offer none (the provider stops trying for a while). */
  onUnavailable(): void;
  /** How long to wait for the session to exist before falling back (ms). */
  connectTimeoutMs?: number;
}

const PCM_RATE = 24_000;

function pcm16Base64(samples: Float32Array): string {
  const out = Buffer.alloc(samples.length * 2);
  for (let i = 0; i < samples.length; i += 1) {
    out.writeInt16LE(Math.round(Math.max(-1, Math.min(1, samples[i]!)) * 0x7fff), i * 2);
  }
  return out.toString('base64');
}

interface Item {
  text: string;
  done: boolean;
}

/** The session's items (one per VAD turn) in order: their text so far, and which are complete. */
class RealtimeTranscript {
  private readonly items = new Map<string, Item>();

  item(id: string | undefined): Item {
    const key = id ?? '';
    let found = this.items.get(key);
    if (!found) this.items.set(key, (found = { text: '', done: false }));
    return found;
  }

  allDone(): boolean {
    return [...this.items.values()].every((item) => item.done);
  }

  text(): string {
    return [...this.items.values()]
      .map((item) => item.text.trim())
      .filter(Boolean)
      .join(' ');
  }

  /** Complete items are final; inside the running one, finished sentences followed by more are too. */
  update(): TranscriptUpdate {
    const all = this.text();
    let head = 0;
    for (const item of this.items.values()) {
      if (!item.done) break;
      head += item.text.trim().length + 1;
    }
    return { text: all, committed: Math.max(Math.min(head, all.length), committedOfGrowingText(all)) };
  }
}

interface ServerEvent {
  type?: string;
  item_id?: string;
  delta?: string;
  transcript?: string;
  error?: { message?: string; code?: string };
}

interface EventHooks {
  transcript: RealtimeTranscript;
  ready(): boolean;
  ended(): boolean;
  open(): void;
  commitAnswered(): void;
  update(): void;
  fail(error: Error): void;
  fallBack(why: string): void;
}

/** One server event of the transcription session. */
function onServerEvent(event: ServerEvent, hooks: EventHooks): void {
  const { transcript } = hooks;
  switch (event.type) {
    case 'transcription_session.created':
    case 'transcription_session.updated':
      if (!hooks.ready()) hooks.open();
      break;
    case 'input_audio_buffer.committed':
      transcript.item(event.item_id);
      if (hooks.ended()) hooks.commitAnswered();
      break;
    case 'conversation.item.input_audio_transcription.delta':
      transcript.item(event.item_id).text += event.delta ?? '';
      hooks.update();
      break;
    case 'conversation.item.input_audio_transcription.completed': {
      const done = transcript.item(event.item_id);
      done.text = event.transcript ?? done.text;
      done.done = true;
      hooks.update();
      break;
    }
    case 'conversation.item.input_audio_transcription.failed': {
      const why = event.error?.message ?? 'unknown';
      hooks.fail(new AiError(`realtime transcription failed: ${why}`, { retryable: true }));
      break;
    }
    case 'error':
      // committing after the VAD took everything: nothing is left, which is fine
      if (hooks.ended() && event.error?.code === 'input_audio_buffer_commit_empty') hooks.commitAnswered();
      else if (hooks.ready()) {
        const why = event.error?.message ?? 'error';
        hooks.fail(new AiError(`realtime transcription: ${why}`, { retryable: true }));
      } else hooks.fallBack(event.error?.message ?? 'error');
      break;
  }
}

export function createRealtimeStream(options: RealtimeStreamOptions): TranscriptionStream {
  const pieces: Uint8Array[] = [];
  const transcript = new RealtimeTranscript();
  const decoder = createOpusStreamDecoder(PCM_RATE);
  let fallback: TranscriptionStream | undefined;
  let ready = false;
  let ended = false;
  let commitAnswered = false;
  let failure: Error | undefined;
  /** PCM appends waiting for the session, and the decode chain that keeps pieces in order. */
  const waiting: string[] = [];
  let decoding = Promise.resolve();
  let wake: (() => void) | undefined;
  const changed = () => wake?.();

  const socket = new WebSocket(options.url, {
    headers: { Authorization: `Bearer ${options.apiKey}`, 'OpenAI-Beta': 'realtime=v1' },
  });
  const send = (event: Record<string, unknown>) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(event));
  };
  const connectTimer = setTimeout(() => fallBack('no session'), options.connectTimeoutMs ?? 5_000);

  function fallBack(why: string): void {
    if (ready || fallback) return;
    clearTimeout(connectTimer);
    options.logger.info({ why }, 'realtime transcription not offered; re-transcribing the growing clip');
    options.onUnavailable();
    fallback = options.fallback();
    for (const piece of pieces) fallback.push(piece);
    socket.removeAllListeners();
    socket.on('error', () => undefined);
    socket.terminate();
    decoder.free();
    changed();
  }

  const update = () => options.onUpdate(transcript.update());

  socket.on('unexpected-response', (_request, response) => fallBack(`HTTP ${response.statusCode}`));
  socket.on('error', (error) => (ready ? fail(error) : fallBack(error.message)));
  socket.on('open', () =>
    send({
      type: 'transcription_session.update',
      session: {
        input_audio_format: 'pcm16',
        input_audio_transcription: {
          model: options.model,
          ...(options.languageHint ? { language: options.languageHint.split('-')[0] } : {}),
        },
        turn_detection: { type: 'server_vad', silence_duration_ms: 400 },
      },
    }),
  );
  socket.on('close', () => {
    if (!ready) fallBack('closed before the session');
    else if (!ended || !commitAnswered) fail(new Error('the realtime session closed early'));
  });
  socket.on('message', (data) => {
    let event: ServerEvent;
    try {
      event = JSON.parse(String(data)) as ServerEvent;
    } catch {
      return;
    }
    onServerEvent(event, {
      transcript,
      ready: () => ready,
      ended: () => ended,
      open() {
        ready = true;
        clearTimeout(connectTimer);
        for (const audio of waiting.splice(0)) send({ type: 'input_audio_buffer.append', audio });
      },
      commitAnswered: () => (commitAnswered = true),
      update,
      fail,
      fallBack,
    });
    changed();
  });

  function fail(error: Error): void {
    failure ??= error;
    changed();
  }

  async function settled(signal?: AbortSignal): Promise<void> {
    while (!fallback && !failure && !(commitAnswered && transcript.allDone())) {
      if (signal?.aborted) throw signal.reason;
      await new Promise<void>((resolve) => {
        wake = resolve;
        signal?.addEventListener('abort', () => resolve(), { once: true });
      });
    }
  }

  let finished: Promise<Transcription> | undefined;
  /** Read through a call: the event handlers set it while `finish` awaits. */
  const usingFallback = (): TranscriptionStream | undefined => fallback;
  return {
    mode: 'realtime',
    push(pages) {
      if (fallback) return fallback.push(pages);
      pieces.push(pages);
      decoding = decoding.then(async () => {
        if (fallback) return;
        const audio = pcm16Base64(await decoder.push(pages).catch(() => new Float32Array(0)));
        if (ready) send({ type: 'input_audio_buffer.append', audio });
        else waiting.push(audio);
      });
    },
    finish(signal) {
      finished ??= (async (): Promise<Transcription> => {
        await decoding;
        while (!ready && !fallback && !failure) await new Promise<void>((resolve) => (wake = resolve));
        if (usingFallback()) return usingFallback()!.finish(signal);
        ended = true;
        send({ type: 'input_audio_buffer.commit' });
        await settled(signal);
        if (usingFallback()) return usingFallback()!.finish(signal);
        if (failure) throw failure;
        socket.close();
        decoder.free();
        const final = transcript.text();
        return { text: final, language: languageFromScript(final) ?? options.languageHint ?? 'en' };
      })();
      return finished;
    },
    abort() {
      fallback?.abort();
      clearTimeout(connectTimer);
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
      decoder.free();
      failure ??= new Error('aborted');
      changed();
    },
  };
}
