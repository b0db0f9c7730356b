import type { ServerFrame } from '@xtalk/protocol';

/*
 * What the clients of the translation run through the server receive, timed from each client's own message
 * frame: the first chunk, the gaps between chunks and translationComplete. The fake engine streams
 * `[xx] <text>` one word per chunk, so its own time is words x chunk delay and the rest is overhead.
 */

const PREFIX = 'tr:';

interface PerClient {
  /** message id -> when the message frame arrived */
  messageAt: Map<number, number>;
  lastChunkAt: Map<number, number>;
  firstChunkSeen: Set<number>;
}

export class E2eTimings {
  /** Set for the measured phase: only the messages sent in it are timed. */
  measuring = false;
  messages = 0;
  completesReceived = 0;
  audioFrames = 0;
  readonly errors: Record<string, number> = {};
  readonly toComplete: number[] = [];
  readonly overhead: number[] = [];
  readonly toFirstChunk: number[] = [];
  readonly gapExcess: number[] = [];
  readonly messageLatency: number[] = [];
  private readonly words = new Map<number, number>();
  private readonly sentAt = new Map<string, number>();
  private readonly measuredIds = new Set<number>();
  private readonly measuredKeys = new Set<string>();
  private sequence = 0;

  constructor(private readonly chunkDelayMs: number) {}

  /** The text of the next message, sent now. */
  message(): string {
    const key = `${PREFIX}${this.sequence++}`;
    this.sentAt.set(key, performance.now());
    if (this.measuring) {
      this.messages += 1;
      this.measuredKeys.add(key);
    }
    return `${key} a short sentence of about ten words for the fake translator`;
  }

  /** Words per translation, as the fake engine chunks them (one of the messages: they are alike). */
  chunksPerTranslation(): number {
    return this.words.values().next().value ?? 0;
  }

  /** The frame handler of one client. */
  receiver() {
    const state: PerClient = { messageAt: new Map(), lastChunkAt: new Map(), firstChunkSeen: new Set() };
    return (frame: ServerFrame, receivedAt: number): void => {
      if (frame.type === 'message') this.onMessage(state, frame, receivedAt);
      else if (frame.type === 'translationChunk') this.onChunk(state, frame.originalTimestamp, receivedAt);
      else if (frame.type === 'translationComplete')
        this.onComplete(state, frame.originalTimestamp, receivedAt);
      else if (frame.type === 'error') this.errors[frame.code] = (this.errors[frame.code] ?? 0) + 1;
    };
  }

  private onMessage(state: PerClient, frame: Extract<ServerFrame, { type: 'message' }>, receivedAt: number) {
    if (!frame.message.startsWith(PREFIX)) return;
    const key = frame.message.split(' ', 1)[0] ?? '';
    const sent = this.sentAt.get(key);
    if (sent === undefined) return;
    if (this.measuredKeys.has(key)) this.measuredIds.add(frame.id);
    // the fake provider streams `[xx] <text>` one word per chunk
    this.words.set(frame.id, `[xx] ${frame.message}`.match(/\S+\s*/gu)?.length ?? 1);
    state.messageAt.set(frame.id, receivedAt);
    if (this.measuredIds.has(frame.id)) this.messageLatency.push(receivedAt - sent);
  }

  private onChunk(state: PerClient, id: number, receivedAt: number) {
    const messageAt = state.messageAt.get(id);
    if (messageAt === undefined || !this.measuredIds.has(id)) return;
    if (!state.firstChunkSeen.has(id)) {
      state.firstChunkSeen.add(id);
      this.toFirstChunk.push(receivedAt - messageAt);
    } else {
      const last = state.lastChunkAt.get(id);
      if (last !== undefined) this.gapExcess.push(receivedAt - last - this.chunkDelayMs);
    }
    state.lastChunkAt.set(id, receivedAt);
  }

  private onComplete(state: PerClient, id: number, receivedAt: number) {
    const messageAt = state.messageAt.get(id);
    if (messageAt === undefined || !this.measuredIds.has(id)) return;
    this.completesReceived += 1;
    const took = receivedAt - messageAt;
    this.toComplete.push(took);
    this.overhead.push(took - (this.words.get(id) ?? 0) * this.chunkDelayMs);
  }
}
