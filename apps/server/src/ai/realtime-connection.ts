import WebSocket from 'ws';
import { parseServerEvent, type ServerEvent } from './realtime-events.js';

/** What the session is opened with: where, as whom, and the transcription it asks for. */
export interface RealtimeSessionSettings {
  /** ws(s)://host/v1/realtime?intent=transcription */
  url: string;
  apiKey: string;
  model: string;
  languageHint?: string;
}

/** What the connection reports, in the order the socket says it. */
export interface ConnectionListeners {
  /** The server answered the upgrade with a plain HTTP response (`HTTP <status>`). */
  refused(why: string): void;
  error(error: Error): void;
  event(event: ServerEvent): void;
  closed(): void;
}

export interface RealtimeConnection {
  /** One client event; nothing while the socket is not open. */
  send(event: Record<string, unknown>): void;
  close(): void;
  /** Ends the socket at once, and hears nothing more from it. */
  drop(): void;
}

/** The configuration the session gets as soon as the socket opens: PCM16 in, the server's VAD. */
function sessionUpdate(settings: RealtimeSessionSettings): Record<string, unknown> {
  return {
    type: 'transcription_session.update',
    session: {
      input_audio_format: 'pcm16',
      input_audio_transcription: {
        model: settings.model,
        ...(settings.languageHint ? { language: settings.languageHint.split('-')[0] } : {}),
      },
      turn_detection: { type: 'server_vad', silence_duration_ms: 400 },
    },
  };
}

/** Opens the Realtime WebSocket, configures the transcription session, and reports what it hears. */
export function connectRealtime(
  settings: RealtimeSessionSettings,
  listeners: ConnectionListeners,
): RealtimeConnection {
  const socket = new WebSocket(settings.url, {
    headers: { Authorization: `Bearer ${settings.apiKey}`, 'OpenAI-Beta': 'realtime=v1' },
  });
  const send = (event: Record<string, unknown>) => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(event));
  };
  socket.on('unexpected-response', (_request, response) => listeners.refused(`HTTP ${response.statusCode}`));
  socket.on('error', (error) => listeners.error(error));
  socket.on('open', () => send(sessionUpdate(settings)));
  socket.on('close', () => listeners.closed());
  socket.on('message', (data) => {
    const event = parseServerEvent(data);
    if (event) listeners.event(event);
  });
  return {
    send,
    close: () => socket.close(),
    drop() {
      socket.removeAllListeners();
      socket.on('error', () => undefined);
      socket.terminate();
    },
  };
}
