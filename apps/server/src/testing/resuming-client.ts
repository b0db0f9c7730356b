import WebSocket from 'ws';
import type { GuestLoginResponse, MessageFrame, ServerFrame, SystemFrame } from '@xtalk/protocol';
import { PROTOCOL_VERSION } from '@xtalk/protocol';

/** A node a client can (re)connect to: in-process (testing/harness.ts) or a server process (the chaos run). */
export interface ChatNode {
  wsBase: string;
  /** POST /xtalk for this user and room: the session its socket opens. */
  join(token: string, roomId: string): Promise<{ sessionId: string; roomEndpoints?: readonly string[] }>;
}

/**
 * Where a client connects: a fixed list of endpoints (the nodes' addresses, as a deployment lists them),
 * or the nodes up now (a test whose restarted nodes come back on new ports).
 */
export type Endpoints = readonly ChatNode[] | (() => readonly ChatNode[]);

/** Refusals after which a chat is sent again: nothing was stored. */
const RETRIED = new Set(['rate_limited', 'unavailable', 'internal']);

/*
 * A client that behaves like the web app's socket client, for fault tests: it remembers {epoch, offset},
 * resumes with it on every reconnect, keeps an outbox of unacknowledged messages (by clientId) and sends
 * them again once READY, and checks what it receives: every logged frame exactly at the next offset.
 * Given several endpoints it starts at one of them and, when a connection fails or ends without a close
 * from this side, goes on to the next in the list, as the web client does. When the join names the room's
 * order of endpoints (roomEndpoints, decision 0237) it goes by that instead: the room's home first, and
 * back to the home a while after settling elsewhere, resumed by offset like any reconnect.
 */
export class ResumingClient {
  /** Message texts in the order received, each once. */
  readonly received: MessageFrame[] = [];
  /** When each of `received` arrived (performance.now()). */
  readonly receivedAt: number[] = [];
  /** The JOIN and LEAVE frames received, in order. */
  readonly presence: SystemFrame[] = [];
  /** The endpoint each socket opened on, in order. */
  readonly openedOn: ChatNode[] = [];
  readonly outbox = new Map<string, string>();
  readonly acknowledged = new Set<string>();
  /** Logged frames at an offset already seen that were not the answer to a resend. */
  duplicates = 0;
  /** Logged frames past the next offset (something in between never came). */
  gaps = 0;
  resyncs = 0;
  connects = 0;
  /** The error frames received, in order (a refused chat names its clientId). */
  readonly errors: ServerFrame[] = [];
  private epoch: string | undefined;
  private offset = 0;
  private ws: WebSocket | undefined;
  private resent = new Set<string>();
  private stopped = false;
  private counter = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Which endpoint the next connection goes to (modulo the list's length). */
  private at: number;
  /** The room's endpoints (their ws origins) in the room's order, once a join named them. */
  private roomOrder: readonly string[] | undefined;
  /** How long after settling away from the room's home it is tried again (jittered by half either way). */
  homeAfterMs = 1000;
  private homeTimer: ReturnType<typeof setTimeout> | undefined;
  private movingHome = false;

  constructor(
    readonly login: GuestLoginResponse,
    readonly roomId: string,
    private readonly endpoints: Endpoints,
    private readonly random: () => number,
    /** The endpoint tried first; a random one by default, so clients spread over the list. */
    first?: number,
  ) {
    this.at = first ?? Math.floor(random() * 1_000_000);
  }

  private endpoint(): ChatNode | undefined {
    const list = typeof this.endpoints === 'function' ? this.endpoints() : this.endpoints;
    const wanted = this.roomOrder?.[this.at % this.roomOrder.length];
    return list.find((node) => node.wsBase === wanted) ?? list[this.at % list.length];
  }

  /** Whether the socket is on the room's home (or the client knows no order). */
  get atHome(): boolean {
    return !this.roomOrder || this.at % this.roomOrder.length === 0;
  }

  /** Settled away from the room's home: tries the home again after a while, at a random moment. */
  private planHomecoming() {
    if (this.atHome || this.homeTimer) return;
    this.homeTimer = setTimeout(
      () => {
        this.homeTimer = undefined;
        if (this.stopped || this.atHome || !this.isReady) return;
        this.movingHome = true;
        this.ws?.close(1000);
      },
      this.homeAfterMs * (0.5 + this.random()),
    );
  }

  get lastOffset() {
    return this.offset;
  }
  get isReady() {
    return this.ws?.readyState === WebSocket.OPEN && this.ready;
  }
  private ready = false;

  async connect(): Promise<void> {
    while (!this.stopped) {
      const node = this.endpoint();
      if (node) {
        try {
          await this.open(node);
          return;
        } catch {
          // the node is gone: the next endpoint
          this.at++;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  private async open(joinedOn: ChatNode): Promise<void> {
    const session = await joinedOn.join(this.login.token, this.roomId);
    if (session.roomEndpoints && !this.roomOrder) {
      this.roomOrder = session.roomEndpoints;
      this.at = 0;
    }
    // the session is in the shared database: its socket opens on any node, the room's first
    const node = this.endpoint() ?? joinedOn;
    const ws = new WebSocket(`${node.wsBase}/xtalk_ws/${session.sessionId}?t=${this.login.token}`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
      ws.once('unexpected-response', () => reject(new Error('refused')));
    });
    this.ws = ws;
    this.ready = false;
    this.connects++;
    this.openedOn.push(node);
    this.resent.clear();
    ws.on('error', () => undefined);
    ws.on('message', (data, isBinary) => {
      if (!isBinary) this.receive(JSON.parse(data.toString()) as ServerFrame);
    });
    ws.on('close', () => {
      if (this.ws !== ws) return;
      this.ws = undefined;
      this.ready = false;
      if (this.movingHome) this.at = 0;
      else this.at++;
      this.movingHome = false;
      if (!this.stopped) setTimeout(() => void this.connect(), this.random() * 100);
    });
    ws.send(
      JSON.stringify({
        type: 'setUsername',
        username: this.login.user.username,
        language: 'en',
        room: this.roomId,
        protocolVersion: PROTOCOL_VERSION,
        ...(this.epoch ? { resume: { epoch: this.epoch, offset: this.offset } } : {}),
      }),
    );
  }

  private receive(frame: ServerFrame) {
    if (frame.type === 'error') {
      this.errors.push(frame);
      // too fast, or not stored (its database is away, or it failed): the outbox goes out again in a moment (what is
      // stored meanwhile is answered once)
      if (RETRIED.has(frame.code) && !this.retryTimer) {
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          if (!this.isReady) return;
          for (const [clientId, text] of this.outbox) {
            this.resent.add(clientId);
            this.sendChat(clientId, text);
          }
        }, 600);
      }
      return;
    }
    if (frame.type === 'system') {
      if (frame.message === 'RESYNC') this.resyncs++;
      if (frame.message === 'JOIN' || frame.message === 'LEAVE') this.presence.push(frame);
      if (frame.message === 'READY') {
        this.epoch = frame.epoch;
        this.ready = true;
        this.planHomecoming();
        // the outbox goes out again: the server stores each clientId once
        for (const [clientId, text] of this.outbox) {
          this.resent.add(clientId);
          this.sendChat(clientId, text);
        }
      }
      return;
    }
    const offset = (frame as { offset?: number }).offset;
    if (offset === undefined) return;
    if (frame.type === 'message' && frame.clientId && frame.username === this.login.user.username) {
      this.outbox.delete(frame.clientId);
      this.acknowledged.add(frame.clientId);
    }
    if (offset <= this.offset) {
      const isAnswer = frame.type === 'message' && frame.clientId && this.resent.has(frame.clientId);
      if (!isAnswer) this.duplicates++;
      return;
    }
    if (offset > this.offset + 1) this.gaps++;
    this.offset = offset;
    if (frame.type === 'message') {
      this.received.push(frame);
      this.receivedAt.push(performance.now());
    }
  }

  private sendChat(clientId: string, text: string) {
    this.ws?.send(
      JSON.stringify({ type: 'chat', language: 'en', message: text, room: this.roomId, clientId }),
    );
  }

  /** Puts a message in the outbox and sends it if connected. */
  say(text: string) {
    const clientId = `${this.login.user.username}-${++this.counter}`;
    this.outbox.set(clientId, text);
    if (this.isReady) this.sendChat(clientId, text);
  }

  /** A slow reader: the socket is not read for `ms` (the server's sends pile up meanwhile). */
  stall(ms: number) {
    const ws = this.ws;
    if (!ws) return;
    ws.pause();
    setTimeout(() => ws.resume(), ms);
  }

  /** The network drops: no close handshake. */
  drop() {
    this.ws?.terminate();
  }

  /** Someone who closes the tab for good as the network dies: no close, no reconnect. */
  abandon() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    clearTimeout(this.homeTimer);
    this.ws?.close(1000);
  }
}
