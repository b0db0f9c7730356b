import type { ServerFrame } from '@xtalk/protocol';
import { summarise } from '../lib/stats.js';

/*
 * What the chat run's clients receive. Every message text carries its id and send time; every receiver in
 * the room (the sender included: the server echoes to everyone) records the delivery latency, and counts
 * the other frames by type. When the server translates, message -> translationComplete per client too.
 */

interface Tracked {
  measured: boolean;
  room: number;
  deliveries: number;
}

const PREFIX = 'bench:';

export class Deliveries {
  /** Set for the measured phase: what is sent then is counted, and its deliveries measured. */
  measuring = false;
  measuredSent = 0;
  deliveries = 0;
  readonly latencies: number[] = [];
  /** Latency of the echo a sender gets of its own message (the "sent" tick). */
  readonly echoLatencies: number[] = [];
  readonly errorFrames: Record<string, number> = {};
  readonly otherFrames: Record<string, number> = {};
  private readonly tracked = new Map<string, Tracked>();
  // server translation, when the app translates: per client, when each message arrived
  private readonly messageSeenAt = new Map<string, number>();
  private readonly toComplete: number[] = [];
  private translationChunks = 0;
  private translationCompletes = 0;

  /** The text of message `id` from a client of `room`, sent now; its deliveries are counted from here. */
  message(id: string, room: number, sender: number): string {
    const sentAt = performance.now();
    this.tracked.set(id, { measured: this.measuring, room, deliveries: 0 });
    if (this.measuring) this.measuredSent += 1;
    return `${PREFIX}${id}:${sentAt.toFixed(3)} hello from client ${sender}`;
  }

  /** The frame handler of client `index`, signed in as `username`. */
  receiver(index: number, username: string) {
    return (frame: ServerFrame, receivedAt: number): void => {
      switch (frame.type) {
        case 'message':
          return this.onMessage(index, username, frame, receivedAt);
        case 'error':
          this.errorFrames[frame.code] = (this.errorFrames[frame.code] ?? 0) + 1;
          return;
        case 'translationChunk':
          this.translationChunks += 1;
          this.count(frame.type);
          return;
        case 'translationComplete': {
          this.translationCompletes += 1;
          this.count(frame.type);
          const seen = this.messageSeenAt.get(`${index}:${frame.originalTimestamp}`);
          if (seen !== undefined && this.measuring) this.toComplete.push(receivedAt - seen);
          return;
        }
        default:
          this.count(frame.type === 'system' ? `system ${frame.message}` : frame.type);
      }
    };
  }

  /** Deliveries the measured messages should have had, with `inRoom` clients connected per room. */
  expected(inRoom: ReadonlyMap<number, number>): number {
    return this.measured().reduce((sum, entry) => sum + (inRoom.get(entry.room) ?? 0), 0);
  }

  /** Deliveries of the measured messages so far. */
  deliveredSoFar(): number {
    return this.measured().reduce((sum, entry) => sum + entry.deliveries, 0);
  }

  /** message -> translationComplete per client, when the server translated anything. */
  serverTranslation() {
    if (this.translationChunks + this.translationCompletes === 0) return undefined;
    return {
      completes: this.translationCompletes,
      chunks: this.translationChunks,
      messageToCompleteMs: summarise(this.toComplete),
    };
  }

  private onMessage(
    index: number,
    username: string,
    frame: Extract<ServerFrame, { type: 'message' }>,
    receivedAt: number,
  ): void {
    if (!frame.message.startsWith(PREFIX)) return;
    const [, id, sentAtText] = frame.message.split(':', 3);
    const sentAt = Number.parseFloat(sentAtText ?? '');
    const entry = id === undefined ? undefined : this.tracked.get(id);
    if (!entry) return; // replayed from before this process (cannot happen on a fresh server)
    entry.deliveries += 1;
    if (!entry.measured) return;
    this.deliveries += 1;
    const latency = receivedAt - sentAt;
    this.latencies.push(latency);
    if (frame.username === username) this.echoLatencies.push(latency);
    this.messageSeenAt.set(`${index}:${frame.id}`, receivedAt);
  }

  private count(key: string): void {
    this.otherFrames[key] = (this.otherFrames[key] ?? 0) + 1;
  }

  private measured(): Tracked[] {
    return [...this.tracked.values()].filter((entry) => entry.measured);
  }
}
