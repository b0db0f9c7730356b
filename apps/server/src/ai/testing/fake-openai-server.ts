import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sineWav } from '../../audio/index.js';
import { attachFakeRealtime, type FakeRealtime } from './fake-realtime.js';

/*
 * A fake OpenAI-compatible HTTP server for tests: real HTTP on 127.0.0.1, real SSE streaming of
 * chat.completion.chunk events, real audio for /v1/audio/speech (raw PCM or WAV, as asked) and
 * real multipart parsing for
 * /v1/audio/transcriptions. Every request is recorded for assertions; behaviour is scripted per test.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body (chat, speech) or multipart fields (transcriptions; files as {name,type,size,text}). */
  body: Record<string, unknown>;
}

export interface ChatMessageBody {
  role: string;
  content: string;
}

/** What to do with one chat request: stream these pieces, fail with a status, or never answer. */
export type ChatBehaviour =
  | { kind: 'stream'; pieces: string[]; delayMs?: number; failAfter?: number }
  | { kind: 'status'; status: number; message?: string }
  | { kind: 'hang' };

export interface FakeOpenAiServer {
  url: string;
  baseURL: string;
  requests: RecordedRequest[];
  chatRequests(): RecordedRequest[];
  /** Override the default chat behaviour (decided per request; return undefined for the default). */
  onChat:
    | ((body: { model: string; messages: ChatMessageBody[]; stream?: boolean }) => ChatBehaviour | undefined)
    | undefined;
  /** Status to answer /v1/audio/speech with instead of a WAV (e.g. 500). */
  speechStatus: number | undefined;
  /** The speech formats offered (default pcm and wav); another is answered 400, as OpenAI does. */
  speechFormats: string[];
  /** Seconds of audio per speech answer. */
  speechSeconds: number;
  transcription: { text: string; language?: string };
  /** The Realtime transcription WebSocket (fake-realtime.ts). */
  realtime: FakeRealtime;
  close(): Promise<void>;
}

/** The default translation: `<target>:` then the source text, streamed word by word. */
export function defaultTranslation(messages: ChatMessageBody[]): string[] {
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  const target = /into [^(]+\(([a-z-]+)\)/.exec(system)?.[1] ?? '??';
  const text = user.split(':\n').pop() ?? '';
  return `${target}: ${text}`.match(/\S+\s*/g) ?? [];
}

export function isNoteRequest(messages: ChatMessageBody[]): boolean {
  return (messages.find((m) => m.role === 'system')?.content ?? '').includes('reply with exactly NONE');
}

function chunkEvent(model: string, content: string | undefined, finish: string | null): string {
  return `data: ${JSON.stringify({
    id: 'chatcmpl-fake',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }],
  })}\n\n`;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of request) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const requests: RecordedRequest[] = [];
  const open = new Set<ServerResponse>();

  const state: FakeOpenAiServer = {
    url: '',
    baseURL: '',
    requests,
    chatRequests: () => requests.filter((r) => r.path === '/v1/chat/completions'),
    onChat: undefined,
    speechStatus: undefined,
    speechFormats: ['pcm', 'wav'],
    speechSeconds: 0.25,
    transcription: { text: 'hello there', language: 'english' },
    realtime: undefined as unknown as FakeRealtime,
    close: async () => undefined,
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const raw = await readBody(request);
      const path = (request.url ?? '').split('?')[0] ?? '';
      const contentType = request.headers['content-type'] ?? '';
      let body: Record<string, unknown> = {};
      if (contentType.startsWith('multipart/form-data')) {
        // Real multipart parsing, by the platform's fetch implementation.
        const form = await new Request('http://fake/', {
          method: 'POST',
          headers: { 'content-type': contentType },
          body: new Uint8Array(raw),
        }).formData();
        for (const [name, value] of form.entries()) {
          body[name] =
            typeof value === 'string'
              ? value
              : { name: value.name, type: value.type, size: value.size, text: await value.text() };
        }
      } else if (raw.length > 0) {
        body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      }
      requests.push({ method: request.method ?? '', path, headers: request.headers, body });

      if (path === '/v1/chat/completions') {
        const chat = body as { model: string; messages: ChatMessageBody[]; stream?: boolean };
        let behaviour = state.onChat?.(chat);
        if (!behaviour) {
          if (isNoteRequest(chat.messages)) {
            const user = chat.messages.find((m) => m.role === 'user')?.content ?? '';
            behaviour = {
              kind: 'stream',
              pieces: /idiom/i.test(user.split('Message (').pop() ?? '')
                ? ['This uses ', 'an idiom: ', 'it means "good luck".']
                : ['NONE'],
            };
          } else {
            behaviour = { kind: 'stream', pieces: defaultTranslation(chat.messages) };
          }
        }
        if (behaviour.kind === 'hang') {
          open.add(response);
          return;
        }
        if (behaviour.kind === 'status') {
          response.writeHead(behaviour.status, { 'content-type': 'application/json' });
          response.end(
            JSON.stringify({ error: { message: behaviour.message ?? 'fake failure', type: 'server_error' } }),
          );
          return;
        }
        response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        open.add(response);
        for (const [index, piece] of behaviour.pieces.entries()) {
          if (behaviour.failAfter !== undefined && index >= behaviour.failAfter) {
            await new Promise((resolve) => setTimeout(resolve, 50)); // let the pieces sent so far arrive
            response.destroy(); // the connection drops mid-stream
            open.delete(response);
            return;
          }
          if (behaviour.delayMs) await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
          response.write(chunkEvent(chat.model, piece, null));
        }
        response.write(chunkEvent(chat.model, undefined, 'stop'));
        response.write('data: [DONE]\n\n');
        response.end();
        open.delete(response);
        return;
      }
      if (path === '/v1/audio/speech') {
        if (state.speechStatus) {
          response.writeHead(state.speechStatus, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: 'speech failed' } }));
          return;
        }
        const format = typeof body.response_format === 'string' ? body.response_format : 'mp3';
        if (!state.speechFormats.includes(format)) {
          response.writeHead(400, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: `response_format ${format} is not supported` } }));
          return;
        }
        const { bytes, type } = speechAudio(format, state.speechSeconds);
        response.writeHead(200, { 'content-type': type, 'content-length': String(bytes.length) });
        response.end(Buffer.from(bytes));
        return;
      }
      if (path === '/v1/audio/transcriptions') {
        response.writeHead(200, { 'content-type': 'application/json' });
        const verbose = body.response_format === 'verbose_json';
        response.end(
          JSON.stringify(
            verbose
              ? { text: state.transcription.text, language: state.transcription.language, duration: 1.2 }
              : { text: state.transcription.text },
          ),
        );
        return;
      }
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no route ${path}` } }));
    })().catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });

  state.realtime = attachFakeRealtime(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.baseURL = `${state.url}/v1`;
  state.close = async () => {
    for (const response of open) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

/** A sine tone in the format asked for: OpenAI's `pcm` (24 kHz PCM16, no header) or a WAV. */
function speechAudio(format: string, seconds: number): { bytes: Uint8Array; type: string } {
  const wav = sineWav(seconds, 440, 24_000);
  if (format === 'wav') return { bytes: wav, type: 'audio/wav' };
  return { bytes: wav.subarray(44), type: 'audio/pcm' };
}
