import type { FastifyBaseLogger } from 'fastify';
import type { MessageFrame } from '@xtalk/protocol';
import { describe, expect, it, vi } from 'vitest';
import { createChatService, type PostMessage } from './chat-service.js';
import type { NewMessage, StoredMessage } from '../rooms/index.js';

/*
 * A room's batch leaves for the bus at once (decision 0268): a room's turn waits for one bus round trip,
 * not one per message, and the room is still told its messages in their offsets' order.
 */

const quiet = { error: () => undefined } as unknown as FastifyBaseLogger;

const stored = (message: NewMessage, offset: number): StoredMessage => ({
  message: {
    type: 'message',
    id: offset,
    username: message.username,
    message: message.text,
    language: message.language,
    timestamp: 0,
    translations: {},
    isTutorial: false,
    offset,
  },
  duplicate: false,
  roomId: message.roomId,
});

const post = (text: string): PostMessage => ({
  roomId: 'ROOM',
  userId: 'u',
  username: 'ann',
  displayUsername: 'Ann',
  language: 'en',
  text,
  clientId: text,
});

/** A bus whose answers come only when the test gives them, one per broadcast, in the order sent. */
function heldBroadcasts() {
  const sent: number[] = [];
  const answers: Array<() => void> = [];
  const broadcast = (_roomId: string, frame: { offset?: number }) => {
    sent.push(frame.offset!);
    return new Promise<void>((resolve) => answers.push(resolve));
  };
  return { sent, answers, broadcast };
}

describe('chat service, a batch', () => {
  it('sends every message of a stored batch before the first is answered, in offset order', async () => {
    const bus = heldBroadcasts();
    const told: string[] = [];
    const chat = createChatService(
      {
        insertMessage: vi.fn(),
        findByClientId: vi.fn(),
        editMessage: vi.fn(),
        insertMessages: async (messages) =>
          messages.map((message, i) => ({ status: 'fulfilled', value: stored(message, i + 1) }) as const),
      },
      {
        broadcast: bus.broadcast,
        onStored: (_roomId: string, message: MessageFrame) => told.push(message.message),
      },
      quiet,
    );
    const posting = chat.postMany(['a', 'b', 'c'].map(post));
    // one bus round trip for the batch: the third leaves while the first is still unanswered
    await vi.waitFor(() => expect(bus.sent).toEqual([1, 2, 3]));
    expect(told).toEqual([]);
    for (const answer of bus.answers) answer();
    const results = await posting;
    expect(results.map((result) => result.status === 'fulfilled' && result.value.message.offset)).toEqual([
      1, 2, 3,
    ]);
    // translation hears of each message once it is out, in the room's order
    expect(told).toEqual(['a', 'b', 'c']);
  });

  it('answers a message the batch did not store in its place, and passes on the rest', async () => {
    const bus = heldBroadcasts();
    const refused = new Error('no room');
    const chat = createChatService(
      {
        insertMessage: vi.fn(),
        findByClientId: vi.fn(),
        editMessage: vi.fn(),
        insertMessages: async ([first, , third]) => [
          { status: 'fulfilled', value: stored(first!, 1) },
          { status: 'rejected', reason: refused },
          { status: 'fulfilled', value: stored(third!, 2) },
        ],
      },
      { broadcast: bus.broadcast },
      quiet,
    );
    const posting = chat.postMany(['a', 'b', 'c'].map(post));
    await vi.waitFor(() => expect(bus.sent).toEqual([1, 2]));
    for (const answer of bus.answers) answer();
    const results = await posting;
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(results[1]).toEqual({ status: 'rejected', reason: refused });
  });
});
