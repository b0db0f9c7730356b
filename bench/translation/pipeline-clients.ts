import WebSocket from 'ws';
import type { ServerFrame } from '@xtalk/protocol';
import { mapLimit } from '../lib/guest.js';
import { translationKey, type TimedProvider } from './timed-provider.js';

/*
 * The clients of the in-process translation run and what they time: a message frame from its broadcast, a
 * translation chunk from the moment the engine yielded it, translationComplete from the broadcast (against
 * the nominal engine time here, against its measured time once the run is over).
 */

export interface SentMessage {
  roomId: string;
  text: string;
  language: string;
  broadcastAt: number;
}

export class PipelineTimings {
  /** Messages broadcast, by id. */
  readonly sent = new Map<number, SentMessage>();
  readonly messageFanOut: number[] = [];
  readonly chunkFanOut: number[] = [];
  readonly toComplete: number[] = [];
  readonly overheadNominal: number[] = [];
  readonly pendingComplete: Array<{ id: number; target: string; receivedAt: number }> = [];
  chunkFrames = 0;
  audioFrames = 0;
  audioBytes = 0;

  constructor(
    private readonly provider: TimedProvider,
    /** The engine's fixed time per translation: chunks x chunk delay. */
    private readonly nominal: number,
  ) {}

  /** The frame handler of one client. */
  receiver() {
    const chunkIndex = new Map<string, number>();
    return (frame: ServerFrame, receivedAt: number): void => {
      const message = 'originalTimestamp' in frame ? this.sent.get(frame.originalTimestamp) : undefined;
      if (frame.type === 'message') {
        const own = this.sent.get(frame.id);
        if (own) this.messageFanOut.push(receivedAt - own.broadcastAt);
      } else if (frame.type === 'translationChunk' && message) {
        this.chunkFrames += 1;
        const key = `${frame.originalTimestamp}:${frame.targetLanguage}`;
        const index = chunkIndex.get(key) ?? 0;
        chunkIndex.set(key, index + 1);
        const emitted = this.provider.chunkTimes.get(translationKey(message.text, frame.targetLanguage))?.[
          index
        ];
        if (emitted !== undefined) this.chunkFanOut.push(receivedAt - emitted);
      } else if (frame.type === 'translationComplete' && message) {
        const total = receivedAt - message.broadcastAt;
        this.toComplete.push(total);
        this.overheadNominal.push(total - this.nominal);
        this.pendingComplete.push({ id: frame.originalTimestamp, target: frame.targetLanguage, receivedAt });
      }
    };
  }

  /** broadcast -> translationComplete minus what the engine itself took for that translation. */
  overheadVsMeasured(): number[] {
    const overhead: number[] = [];
    for (const { id, target, receivedAt } of this.pendingComplete) {
      const message = this.sent.get(id);
      const spent = message && this.provider.providerTimes.get(translationKey(message.text, target));
      if (message && spent !== undefined) overhead.push(receivedAt - message.broadcastAt - spent);
    }
    return overhead;
  }
}

interface Seating {
  rooms: number;
  clientsPerRoom: number;
  languages: string[];
}

/** One client per seat, the languages taken in turn; each resolves once the hub has attached it. */
export async function connectClients(port: number, timings: PipelineTimings, seating: Seating) {
  const clients: WebSocket[] = [];
  const specs = Array.from({ length: seating.rooms * seating.clientsPerRoom }, (_, index) => ({
    index,
    room: `ROOM${Math.floor(index / seating.clientsPerRoom)}`,
    language: seating.languages[index % seating.languages.length] ?? 'en',
  }));
  await mapLimit(specs, 32, async (spec) => {
    const ws = new WebSocket(
      `ws://127.0.0.1:${port}/?room=${spec.room}&user=u${spec.index}&lang=${spec.language}`,
      { perMessageDeflate: false },
    );
    const receive = timings.receiver();
    await new Promise<void>((resolve, reject) => {
      ws.once('error', reject);
      ws.on('message', (data, isBinary) => {
        const receivedAt = performance.now();
        if (isBinary) {
          timings.audioFrames += 1;
          timings.audioBytes += (data as Buffer).length;
          return;
        }
        const text = data.toString();
        if (text === 'attached') return resolve();
        receive(JSON.parse(text) as ServerFrame, receivedAt);
      });
    });
    clients.push(ws);
  });
  return clients;
}
