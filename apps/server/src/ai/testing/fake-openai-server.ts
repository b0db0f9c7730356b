import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerSpeech, answerTranscription, type FakeAudioScript } from './fake-openai-audio.js';
import {
  answerChat,
  defaultChatBehaviour,
  type ChatBehaviour,
  type ChatRequestBody,
} from './fake-openai-chat.js';
import { readRequestBody, sendJson } from './fake-http.js';
import { attachFakeRealtime, type FakeRealtime } from './fake-realtime.js';

/*
 * A fake OpenAI-compatible HTTP server for tests: real HTTP on 127.0.0.1, chat completions streamed as
 * real SSE (fake-openai-chat.ts), real audio and multipart parsing (fake-openai-audio.ts) and the Realtime
 * WebSocket (fake-realtime.ts). Every request is recorded for assertions; behaviour is scripted per test.
 */

export { defaultTranslation, isNoteRequest } from './fake-openai-chat.js';
export type { ChatBehaviour, ChatMessageBody } from './fake-openai-chat.js';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  /** Parsed JSON body (chat, speech) or multipart fields (transcriptions; files as {name,type,size,text}). */
  body: Record<string, unknown>;
}

export interface FakeOpenAiServer extends FakeAudioScript {
  url: string;
  baseURL: string;
  requests: RecordedRequest[];
  chatRequests(): RecordedRequest[];
  /** Override the default chat behaviour (decided per request; return undefined for the default). */
  onChat: ((body: ChatRequestBody) => ChatBehaviour | undefined) | undefined;
  /** The Realtime transcription WebSocket (fake-realtime.ts). */
  realtime: FakeRealtime;
  close(): Promise<void>;
}

/** Records one request and answers it from its route. */
async function answer(
  request: IncomingMessage,
  response: ServerResponse,
  state: FakeOpenAiServer,
  open: Set<ServerResponse>,
): Promise<void> {
  const body = await readRequestBody(request);
  const path = (request.url ?? '').split('?')[0] ?? '';
  state.requests.push({ method: request.method ?? '', path, headers: request.headers, body });
  switch (path) {
    case '/v1/chat/completions': {
      const chat = body as ChatRequestBody;
      return answerChat(response, chat.model, state.onChat?.(chat) ?? defaultChatBehaviour(chat), open);
    }
    case '/v1/audio/speech':
      return answerSpeech(response, body, state);
    case '/v1/audio/transcriptions':
      return answerTranscription(response, body, state);
    default:
      sendJson(response, 404, { error: { message: `no route ${path}` } });
  }
}

export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const requests: RecordedRequest[] = [];
  /** Answers still streaming or hanging: a close ends them rather than waiting. */
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
    answer(request, response, state, open).catch((error: unknown) => {
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
