import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

/*
 * The Realtime transcription endpoint of the fake OpenAI-compatible server (`/v1/realtime?intent=
 * transcription`), over a real WebSocket, with the event shapes of OpenAI's API: transcription_session.
 * created/updated, input_audio_buffer.speech_started/speech_stopped/committed, conversation.item.
 * input_audio_transcription.delta/completed, and error (input_audio_buffer_commit_empty). The transcript
 * is scripted: one word per `secondsPerWord` of PCM16 appended, and a sentence end acts as a VAD pause
 * (its item is committed and completed at once).
 */

export interface FakeRealtime {
  /** False: the upgrade is refused with 404, as on servers without a Realtime API. */
  enabled: boolean;
  transcript: string;
  secondsPerWord: number;
  /** Every client event received, in order. */
  events: Array<{ type: string; [key: string]: unknown }>;
  sessions: number;
}

const PCM_BYTES_PER_SECOND = 24_000 * 2;

export function attachFakeRealtime(server: Server): FakeRealtime {
  const state: FakeRealtime = { enabled: true, transcript: '', secondsPerWord: 0.3, events: [], sessions: 0 };
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    if (
      !state.enabled ||
      url.pathname !== '/v1/realtime' ||
      url.searchParams.get('intent') !== 'transcription'
    ) {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => session(ws));
  });
  server.on('close', () => wss.close());

  function session(ws: WebSocket): void {
    state.sessions += 1;
    let eventCounter = 0;
    const send = (event: Record<string, unknown>) =>
      ws.send(JSON.stringify({ event_id: `event_${(eventCounter += 1)}`, ...event }));
    const words = state.transcript.split(/\s+/u).filter(Boolean);
    let next = 0;
    let audioBytes = 0;
    let itemCounter = 0;
    let item: { id: string; text: string; audio: number } | undefined;
    let previous: string | null = null;

    const openItem = () => {
      item ??= { id: `item_${(itemCounter += 1)}`, text: '', audio: 0 };
      return item;
    };
    const close = () => {
      if (!item) return;
      const done = item;
      item = undefined;
      send({ type: 'input_audio_buffer.committed', previous_item_id: previous, item_id: done.id });
      send({
        type: 'conversation.item.input_audio_transcription.completed',
        item_id: done.id,
        content_index: 0,
        transcript: done.text.trim(),
      });
      previous = done.id;
    };
    const word = () => {
      const current = openItem();
      const text = `${words[next]} `;
      next += 1;
      current.text += text;
      send({
        type: 'conversation.item.input_audio_transcription.delta',
        item_id: current.id,
        content_index: 0,
        delta: text,
      });
      if (/[.!?。！？]$/u.test(text.trim())) {
        send({
          type: 'input_audio_buffer.speech_stopped',
          audio_end_ms: Math.round((audioBytes / PCM_BYTES_PER_SECOND) * 1000),
          item_id: current.id,
        });
        close();
      }
    };

    send({
      type: 'transcription_session.created',
      session: { id: 'sess_fake', object: 'realtime.transcription_session' },
    });
    ws.on('message', (data) => {
      const event = JSON.parse(String(data)) as { type: string; audio?: string; session?: unknown };
      state.events.push(
        event.type === 'input_audio_buffer.append' ? { type: event.type, bytes: event.audio?.length } : event,
      );
      switch (event.type) {
        case 'transcription_session.update':
          send({
            type: 'transcription_session.updated',
            session: { id: 'sess_fake', ...(event.session as object) },
          });
          break;
        case 'input_audio_buffer.append': {
          const bytes = Buffer.from(event.audio ?? '', 'base64').length;
          if (!item && next < words.length) {
            send({
              type: 'input_audio_buffer.speech_started',
              audio_start_ms: Math.round((audioBytes / PCM_BYTES_PER_SECOND) * 1000),
              item_id: openItem().id,
            });
          }
          audioBytes += bytes;
          if (item) item.audio += bytes;
          const due = Math.min(
            words.length,
            Math.floor(audioBytes / PCM_BYTES_PER_SECOND / state.secondsPerWord),
          );
          while (next < due) word();
          break;
        }
        case 'input_audio_buffer.commit':
          if (!item && next >= words.length) {
            send({
              type: 'error',
              error: {
                type: 'invalid_request_error',
                code: 'input_audio_buffer_commit_empty',
                message: 'Error committing input audio buffer: buffer too small.',
                param: null,
                event_id: null,
              },
            });
            break;
          }
          while (next < words.length) word();
          close();
          break;
      }
    });
  }
  return state;
}
