import { randomUUID } from 'node:crypto';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import WebSocket from 'ws';
import {
  ApiPath,
  HELLO_IN_URL_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  type GuestLoginResponse,
  type JoinRoomResponse,
  type ServerFrame,
} from '@xtalk/protocol';

/* Talks to the server the way the browser does: ALTCHA guest login, POST /xtalk, then the socket. */

async function postJson<T>(url: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${new URL(url).pathname} -> ${response.status}: ${text}`);
  return JSON.parse(text) as T;
}

/** Solves the ALTCHA proof-of-work in-process (cheap at ALTCHA_COST=20) and signs in as a new guest. */
export async function guestLogin(baseUrl: string): Promise<GuestLoginResponse> {
  const response = await fetch(`${baseUrl}${ApiPath.botcheck}`, { signal: AbortSignal.timeout(15_000) });
  if (!response.ok) throw new Error(`GET botcheck -> ${response.status}`);
  const body = (await response.json()) as {
    provider: string;
    challenge: Parameters<typeof solveChallenge>[0]['challenge'];
  };
  if (body.provider !== 'altcha') throw new Error(`bot check is ${body.provider}, not altcha`);
  const solution = await solveChallenge({ challenge: body.challenge, deriveKey });
  if (!solution) throw new Error('could not solve the ALTCHA challenge');
  const botcheck = Buffer.from(JSON.stringify({ challenge: body.challenge, solution })).toString('base64');
  return postJson<GuestLoginResponse>(`${baseUrl}${ApiPath.guest}`, { botcheck });
}

/** Creates a room (roomId null) or joins one; returns the socket session. */
export function joinRoom(baseUrl: string, token: string, roomId: string | null): Promise<JoinRoomResponse> {
  return postJson<JoinRoomResponse>(`${baseUrl}${ApiPath.join}`, { action: 'join', roomId }, token);
}

/**
 * Where an XTalk socket opens, with its hello as the web client sends it: in the current protocol (a client
 * below 3 gets a coalesced JOIN one person per frame, gateway/legacy-frames.ts, so a room of those fills
 * in n²/2 frames), in the URL when the join says the server reads it there (decision 0141), else as
 * `helloFrame`, to send once the socket is open.
 */
export function socketTarget(
  wsBase: string,
  token: string,
  session: JoinRoomResponse,
  username: string,
  language: string,
): { url: string; helloFrame?: string } {
  const hello = JSON.stringify({
    type: 'setUsername',
    username,
    language,
    room: session.roomId,
    protocolVersion: PROTOCOL_VERSION,
  });
  const url = `${wsBase}${ApiPath.socket(session.sessionId)}?t=${encodeURIComponent(token)}`;
  return (session.protocolVersion ?? 0) >= HELLO_IN_URL_PROTOCOL_VERSION
    ? { url: `${url}&hello=${encodeURIComponent(hello)}` }
    : { url, helloFrame: hello };
}

/** Opens the socket with its hello (socketTarget) and resolves once the server says READY. */
export function openSocket(
  wsBase: string,
  login: GuestLoginResponse,
  session: JoinRoomResponse,
  language: string,
  onFrame: (frame: ServerFrame, receivedAt: number) => void,
  timeoutMs = 15_000,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const { url, helloFrame } = socketTarget(wsBase, login.token, session, login.user.username, language);
    const ws = new WebSocket(url, { perMessageDeflate: false });
    let ready = false;
    const timer = setTimeout(() => {
      ws.terminate();
      reject(new Error('no READY within the timeout'));
    }, timeoutMs);
    ws.on('message', (data, isBinary) => {
      const receivedAt = performance.now();
      if (isBinary) return;
      const frame = JSON.parse(data.toString()) as ServerFrame;
      if (!ready && frame.type === 'system' && frame.message === 'READY') {
        ready = true;
        clearTimeout(timer);
        resolve(ws);
      }
      onFrame(frame, receivedAt);
    });
    ws.once('open', () => {
      if (helloFrame) ws.send(helloFrame);
    });
    ws.once('unexpected-response', (_request, response) => {
      clearTimeout(timer);
      reject(new Error(`socket refused with HTTP ${response.statusCode}`));
    });
    ws.on('error', (error) => {
      if (ready) return;
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** A chat frame as the web client sends it, each with a fresh clientId. */
export function chatFrame(room: string | undefined, language: string, message: string): string {
  return JSON.stringify({ type: 'chat', language, room, message, clientId: randomUUID() });
}

/** Runs `task` over `items` with at most `limit` at once; collects results in order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    for (;;) {
      const index = next++;
      if (index >= items.length) return;
      results[index] = await task(items[index] as T, index);
    }
  });
  await Promise.all(workers);
  return results;
}
