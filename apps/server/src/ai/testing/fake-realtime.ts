import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { ScriptedTranscription } from './fake-realtime-session.js';

/*
 * The Realtime transcription endpoint of the fake OpenAI-compatible server (`/v1/realtime?intent=
 * transcription`), over a real WebSocket, with the event shapes of OpenAI's API: transcription_session.
 * created/updated, input_audio_buffer.speech_started/speech_stopped/committed, conversation.item.
 * input_audio_transcription.delta/completed, and error (input_audio_buffer_commit_empty). The transcript
 * is scripted (fake-realtime-session.ts).
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

/** The one path the fake upgrades: the Realtime API's transcription intent. */
function isTranscriptionUpgrade(request: IncomingMessage): boolean {
  const url = new URL(request.url ?? '/', 'http://fake');
  return url.pathname === '/v1/realtime' && url.searchParams.get('intent') === 'transcription';
}

export function attachFakeRealtime(server: Server): FakeRealtime {
  const state: FakeRealtime = { enabled: true, transcript: '', secondsPerWord: 0.3, events: [], sessions: 0 };
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!state.enabled || !isTranscriptionUpgrade(request)) {
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => session(ws, state));
  });
  server.on('close', () => wss.close());
  return state;
}

/** One transcription session: the client's events recorded and answered, the transcript as scripted. */
function session(ws: WebSocket, state: FakeRealtime): void {
  state.sessions += 1;
  let eventCounter = 0;
  const send = (event: Record<string, unknown>) =>
    ws.send(JSON.stringify({ event_id: `event_${(eventCounter += 1)}`, ...event }));
  const words = state.transcript.split(/\s+/u).filter(Boolean);
  const transcription = new ScriptedTranscription(words, () => state.secondsPerWord, send);

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
      case 'input_audio_buffer.append':
        transcription.append(Buffer.from(event.audio ?? '', 'base64').length);
        break;
      case 'input_audio_buffer.commit':
        transcription.commit();
        break;
    }
  });
}
