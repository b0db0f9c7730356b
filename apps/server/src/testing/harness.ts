import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import type { FastifyInstance } from 'fastify';
import WebSocket from 'ws';
import type { GuestLoginResponse, JoinRoomResponse, ResumePosition, ServerFrame } from '@xtalk/protocol';
import { checkAnswers } from '@xtalk/service-base';
import { buildApp, type AppOptions } from '../app.js';
import { loadConfig } from '../config.js';
import { onFreePort } from './free-port.js';
import { migratedSnapshot } from './migrated-database.js';
import type { ChatNode } from './resuming-client.js';

/*
 * Test harness: the real app on a real port, with its database in memory (or in a temp DATA_DIR when a
 * test restarts the server), and helpers that talk to it the way the browser does.
 */

/**
 * Limits high enough that tests, all from one address and often one user joining many rooms, do not meet
 * them by accident. The limits' own tests set them back down.
 */
export const GENEROUS_LIMITS = {
  ROOM_JOINS_PER_MINUTE_PER_USER: '10000',
  RATE_LIMIT_BOTCHECK_PER_MINUTE: '10000',
  GUESTS_PER_MINUTE_PER_IP: '10000',
  RATE_LIMIT_SIGN_IN_PER_MINUTE: '10000',
  RATE_LIMIT_API_PER_MINUTE_PER_IP: '10000',
  MAX_SOCKETS_PER_IP: '10000',
} as const;

export interface TestServer {
  app: FastifyInstance;
  baseUrl: string;
  wsBase: string;
  dataDir: string;
  close(): Promise<void>;
}

export async function startServer(
  env: Record<string, string> = {},
  options: Partial<Omit<AppOptions, 'config'>> & { dataDir?: string; port?: number } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'xtalk-test-'));
  const config = loadConfig({
    // not production: PUBLIC_URL defaults to http://localhost:PORT and TEST MODE checkout is on
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    ALTCHA_COST: '20',
    LOG_LEVEL: 'silent',
    AI_PROVIDER: 'fake',
    // LEAVE at once, as the tests of leaving expect; the grace's own tests (departures.test.ts) set it
    LEAVE_GRACE_SECONDS: '0',
    // every test signs in from 127.0.0.1; the limits' own tests set these back down
    ...GENEROUS_LIMITS,
    ...env,
  });
  const app = await buildApp({
    config,
    inMemoryDb: options.dataDir === undefined && !env.DATABASE_URL,
    // a new embedded database starts migrated (testing/migrated-database.ts)
    databaseSnapshot: config.DATABASE_URL ? undefined : await migratedSnapshot(),
    logger: false,
    webRoot: join(dataDir, 'no-web'),
    ...options,
    // every answer of every test is checked against its schema and its compiled writer (decision 0253)
    onRoute: (route) => {
      checkAnswers(route);
      options.onRoute?.(route);
    },
  });
  try {
    await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  } catch (error) {
    // a port taken before the listen: nothing of this start outlives it, the caller may try another
    await app.close();
    if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    app,
    baseUrl: `http://127.0.0.1:${port}`,
    wsBase: `ws://127.0.0.1:${port}`,
    dataDir,
    async close() {
      await app.close();
      if (options.dataDir === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A server whose PUBLIC_URL is its own address, for the flows that send a browser back to it (the OIDC
 * callback): the server writes every absolute URL from PUBLIC_URL, never from the request.
 */
export async function startServerAtPublicUrl(
  env: Record<string, string> = {},
  options: Parameters<typeof startServer>[1] = {},
): Promise<TestServer> {
  return onFreePort((port) =>
    startServer({ PUBLIC_URL: `http://127.0.0.1:${port}`, ...env }, { ...options, port }),
  );
}

/** Solves the ALTCHA challenge as the browser widget does and returns the payload it would post. */
export async function solveBotcheck(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/auth/botcheck' });
  const { challenge } = response.json() as { challenge: Parameters<typeof solveChallenge>[0]['challenge'] };
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve the bot check');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

export async function guestLogin(app: FastifyInstance): Promise<GuestLoginResponse> {
  const botcheck = await solveBotcheck(app);
  const response = await app.inject({ method: 'POST', url: '/api/auth/guest', payload: { botcheck } });
  if (response.statusCode !== 200) throw new Error(`guest login failed: ${response.body}`);
  return response.json();
}

/** An in-process server as a node a ResumingClient reconnects to. */
export const chatNodeOf = (server: TestServer): ChatNode => ({
  wsBase: server.wsBase,
  join: (token, roomId) => joinRoom(server.app, token, roomId),
});

export async function joinRoom(
  app: FastifyInstance,
  token: string,
  roomId: string | null,
): Promise<JoinRoomResponse> {
  const response = await app.inject({
    method: 'POST',
    url: '/xtalk',
    headers: { authorization: `Bearer ${token}` },
    payload: { action: 'join', roomId },
  });
  if (response.statusCode !== 200) throw new Error(`join failed: ${response.statusCode} ${response.body}`);
  return response.json();
}

/** A JOIN or LEAVE naming `username` (coalesced ones list several). */
export const presenceOf = (event: 'JOIN' | 'LEAVE', username: string) => (frame: ServerFrame) =>
  frame.type === 'system' &&
  frame.message === event &&
  (frame.username === username || (frame.usernames ?? []).includes(username));

let barriers = 0;

/**
 * The "following frame" of a negative check: `sender` posts a marker message and each receiver waits for it.
 * A room's frames and audio fan out through the bus in order, so everything broadcast to a receiver before
 * the marker has arrived when this resolves; check what must not have come with `framesBefore(marker)` (or
 * the binary frames received so far). Returns each receiver's marker frame, in order.
 */
export async function roomBarrier(
  sender: TestClient,
  roomId: string,
  receivers: TestClient[],
): Promise<ServerFrame[]> {
  barriers += 1;
  const text = `barrier ${barriers}`;
  sender.send({ type: 'chat', language: 'en', message: text, room: roomId });
  return Promise.all(
    receivers.map((client) => client.next((frame) => frame.type === 'message' && frame.message === text)),
  );
}

let autoClientIds = 0;

/** A WebSocket client that records every frame and lets a test wait for the one it expects. */
export class TestClient {
  readonly frames: ServerFrame[] = [];
  readonly binary: Buffer[] = [];
  closeCode: number | undefined;
  private waiters: { match: (frame: ServerFrame) => boolean; resolve: (frame: ServerFrame) => void }[] = [];
  private closeWaiters: ((code: number) => void)[] = [];

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        this.binary.push(Buffer.from(data as Buffer));
        return;
      }
      const frame = JSON.parse(data.toString()) as ServerFrame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((waiter) => {
        if (!waiter.match(frame)) return true;
        waiter.resolve(frame);
        return false;
      });
    });
    ws.on('close', (code) => {
      this.closeCode = code;
      for (const waiter of this.closeWaiters) waiter(code);
    });
  }

  static open(url: string, options: WebSocket.ClientOptions = {}): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options);
      const client = new TestClient(ws);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_request, response) =>
        reject(
          Object.assign(new Error(`refused with ${response.statusCode}`), {
            statusCode: response.statusCode,
          }),
        ),
      );
      ws.once('error', reject);
    });
  }

  /**
   * Opens a socket for a fresh session in `roomId` and joins it; resolves after READY. Without a
   * `protocolVersion` it joins as a version-1 client (a setUsername without the field).
   */
  static async join(
    server: TestServer,
    login: GuestLoginResponse,
    roomId: string,
    language = 'en',
    hello: { protocolVersion?: number; resume?: ResumePosition } = {},
  ): Promise<TestClient> {
    const session = await joinRoom(server.app, login.token, roomId);
    const client = await TestClient.open(`${server.wsBase}/xtalk_ws/${session.sessionId}?t=${login.token}`);
    client.send({
      type: 'setUsername',
      username: login.user.username,
      language,
      room: session.roomId,
      ...hello,
    });
    await client.next((frame) => frame.type === 'system' && frame.message === 'READY');
    return client;
  }

  /**
   * Sends a frame. A chat frame without a clientId gets one when READY said clientIdRequired, as every
   * client of that protocol does; `ws.send` sends a frame exactly as given.
   */
  send(frame: unknown) {
    if (typeof frame === 'string') return this.ws.send(frame);
    this.ws.send(
      JSON.stringify(
        this.mustCarryClientId(frame) ? { ...frame, clientId: `auto-${++autoClientIds}` } : frame,
      ),
    );
  }

  private mustCarryClientId(frame: unknown): frame is object {
    if (!frame || typeof frame !== 'object' || !('type' in frame) || frame.type !== 'chat') return false;
    if ('clientId' in frame) return false;
    return this.frames.some(
      (seen) => seen.type === 'system' && seen.message === 'READY' && seen.clientIdRequired,
    );
  }

  /** The first frame (already received or coming) that matches. */
  next<T extends ServerFrame = ServerFrame>(
    match: (frame: ServerFrame) => boolean,
    timeoutMs = 5000,
  ): Promise<T> {
    const seen = this.frames.find(match);
    if (seen) return Promise.resolve(seen as T);
    // made here, so that a timeout's stack names the line that waited, and says what came instead
    const timeout = new Error(`no matching frame within ${timeoutMs} ms`);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        const shown = (frames: ServerFrame[]) =>
          frames.map((frame) => JSON.stringify(frame).slice(0, 200)).join('\n') || '(none)';
        const errors = this.frames.filter((frame) => frame.type === 'error');
        timeout.message += `; errors received:\n${shown(errors)}\nthe last frames:\n${shown(this.frames.slice(-5))}`;
        reject(timeout);
      }, timeoutMs);
      this.waiters.push({
        match,
        resolve: (frame) => {
          clearTimeout(timer);
          resolve(frame as T);
        },
      });
    });
  }

  /** Waits for a frame that arrives from now on (ignores ones already received). */
  nextNew<T extends ServerFrame = ServerFrame>(
    match: (frame: ServerFrame) => boolean,
    timeoutMs = 5000,
  ): Promise<T> {
    const already = new Set(this.frames);
    return this.next<T>((frame) => !already.has(frame) && match(frame), timeoutMs);
  }

  closed(timeoutMs = 5000): Promise<number> {
    if (this.closeCode !== undefined) return Promise.resolve(this.closeCode);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('socket did not close')), timeoutMs);
      this.closeWaiters.push((code) => {
        clearTimeout(timer);
        resolve(code);
      });
    });
  }

  messages() {
    return this.frames.filter((frame) => frame.type === 'message');
  }

  /** What arrived before `frame` (a barrier's marker): the frames a negative check looks at. */
  framesBefore(frame: ServerFrame): ServerFrame[] {
    const index = this.frames.indexOf(frame);
    if (index < 0) throw new Error('framesBefore: that frame was not received by this client');
    return this.frames.slice(0, index);
  }

  close(code = 1000) {
    this.ws.close(code);
  }
}

/**
 * The two people most room tests start with: Alice creates a room and joins it as the speaker, Bob joins
 * it as the listener, each with their language and the same hello options (protocol version).
 */
export async function speakerAndListener(
  server: TestServer,
  languages: { speaker?: string; listener?: string } = {},
  hello: { protocolVersion?: number } = {},
) {
  const alice = await guestLogin(server.app);
  const bob = await guestLogin(server.app);
  const { roomId } = await joinRoom(server.app, alice.token, null);
  const speaker = await TestClient.join(server, alice, roomId, languages.speaker ?? 'en', hello);
  const listener = await TestClient.join(server, bob, roomId, languages.listener ?? 'ja', hello);
  return { alice, bob, roomId, speaker, listener };
}

export { userIdOf } from './seed/index.js';
