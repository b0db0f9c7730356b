import { describe, expect, it, vi } from 'vitest';
import { FakeProvider, type SpeechRequest } from '../ai/index.js';
import { recordingLogger } from '../ai/testing/logger.js';
import {
  messageFrame as message,
  MemoryMeter,
  MemoryRoomOutput,
  MemoryTranslationStore,
} from './testing/index.js';
import { createTranslationService } from './service.js';

/*
 * One long message, or several busy rooms, cannot hold the speech engine: its sentences are synthesised at
 * most `speechPerRoom` at a time for a room and `speechPerNode` for the process, and all of them are spoken.
 */

/** A speech engine that counts the calls it runs at once, in all and per room (the room's word is in each sentence). */
class CountingVoice extends FakeProvider {
  running = 0;
  most = 0;
  readonly rooms = new Map<string, { running: number; most: number }>();

  override async synthesize(request: SpeechRequest): Promise<Uint8Array> {
    const room = /room(\w)/.exec(request.text)?.[1] ?? '?';
    const counts = this.rooms.get(room) ?? { running: 0, most: 0 };
    this.rooms.set(room, counts);
    this.most = Math.max(this.most, ++this.running);
    counts.most = Math.max(counts.most, ++counts.running);
    try {
      return await super.synthesize(request);
    } finally {
      this.running--;
      counts.running--;
    }
  }
}

const long = (room: string) =>
  Array.from({ length: 12 }, (_, i) => `room${room} sentence number ${i} is here.`).join(' ');

function setup(options: { speechPerRoom: number; speechPerNode: number }) {
  const provider = new CountingVoice({ speechLatencyMs: 15 });
  const output = new MemoryRoomOutput();
  const store = new MemoryTranslationStore();
  const service = createTranslationService({
    config: { LANGUAGES: ['en', 'ja'] },
    provider,
    output,
    store,
    meter: new MemoryMeter(),
    logger: recordingLogger().logger,
    options: { retryBaseDelayMs: 5, maxConcurrentPerRoom: 4, ...options },
  });
  return { provider, store, service };
}

const spoken = (provider: FakeProvider) => provider.calls.filter((call) => call.task === 'speech').length;

describe('speech slots', () => {
  it("synthesises one long message's sentences at most speechPerRoom at a time", async () => {
    const { provider, store, service } = setup({ speechPerRoom: 2, speechPerNode: 4 });
    service.onMessage('R', message(1, long('A')), { userId: 'u' });
    await vi.waitFor(() => expect(store.translations).toHaveLength(1));
    await service.close(); // waits for the speech
    expect(spoken(provider)).toBe(12);
    expect(provider.most).toBe(2);
  });

  it('holds the whole process to speechPerNode, each room to speechPerRoom', async () => {
    const { provider, store, service } = setup({ speechPerRoom: 2, speechPerNode: 3 });
    for (const room of ['A', 'B', 'C']) service.onMessage(room, message(1, long(room)), { userId: room });
    await vi.waitFor(() => expect(store.translations).toHaveLength(3));
    await service.close();
    expect(spoken(provider)).toBe(36);
    expect(provider.most).toBe(3);
    for (const room of ['A', 'B', 'C']) expect(provider.rooms.get(room)?.most).toBeLessThanOrEqual(2);
  });
});
