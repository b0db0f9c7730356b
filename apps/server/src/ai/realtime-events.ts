import { AiError } from './provider.js';
import type { RealtimeTranscript } from './realtime-transcript.js';

/** The fields of a Realtime server event that the transcription session reads. */
export interface ServerEvent {
  type?: string;
  item_id?: string;
  delta?: string;
  transcript?: string;
  error?: { message?: string; code?: string };
}

/** What an event may read and change of the stream it belongs to. */
export interface EventHooks {
  transcript: RealtimeTranscript;
  ready(): boolean;
  ended(): boolean;
  open(): void;
  commitAnswered(): void;
  update(): void;
  fail(error: Error): void;
  fallBack(why: string): void;
}

/** A WebSocket message as a server event; undefined when it is not JSON. */
export function parseServerEvent(data: unknown): ServerEvent | undefined {
  try {
    return JSON.parse(String(data)) as ServerEvent;
  } catch {
    return undefined;
  }
}

/** One server event of the transcription session. */
export function onServerEvent(event: ServerEvent, hooks: EventHooks): void {
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
