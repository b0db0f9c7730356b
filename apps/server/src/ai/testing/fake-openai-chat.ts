import type { ServerResponse } from 'node:http';
import { sendJson } from './fake-http.js';

/*
 * The fake's chat completions: a scripted behaviour per request, answered as OpenAI does, with real SSE
 * streaming of chat.completion.chunk events.
 */

export interface ChatMessageBody {
  role: string;
  content: string;
}

export type ChatRequestBody = { model: string; messages: ChatMessageBody[]; stream?: boolean };

/** What to do with one chat request: stream these pieces, fail with a status, or never answer. */
export type ChatBehaviour =
  | { kind: 'stream'; pieces: string[]; delayMs?: number; failAfter?: number }
  | { kind: 'status'; status: number; message?: string }
  | { kind: 'hang' };

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

/** Unscripted: a note explains an idiom (and is NONE otherwise); a translation is the default one. */
export function defaultChatBehaviour(chat: ChatRequestBody): ChatBehaviour {
  if (!isNoteRequest(chat.messages)) return { kind: 'stream', pieces: defaultTranslation(chat.messages) };
  const user = chat.messages.find((m) => m.role === 'user')?.content ?? '';
  return {
    kind: 'stream',
    pieces: /idiom/i.test(user.split('Message (').pop() ?? '')
      ? ['This uses ', 'an idiom: ', 'it means "good luck".']
      : ['NONE'],
  };
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

/**
 * Answers one chat request as `behaviour` says. `open` holds the answers still streaming or hanging, which
 * the server destroys when it closes.
 */
export async function answerChat(
  response: ServerResponse,
  model: string,
  behaviour: ChatBehaviour,
  open: Set<ServerResponse>,
): Promise<void> {
  if (behaviour.kind === 'hang') {
    open.add(response);
    return;
  }
  if (behaviour.kind === 'status') {
    const message = behaviour.message ?? 'fake failure';
    sendJson(response, behaviour.status, { error: { message, type: 'server_error' } });
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
    response.write(chunkEvent(model, piece, null));
  }
  response.write(chunkEvent(model, undefined, 'stop'));
  response.write('data: [DONE]\n\n');
  response.end();
  open.delete(response);
}
