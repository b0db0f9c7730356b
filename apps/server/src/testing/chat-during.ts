import type { ServerFrame } from '@xtalk/protocol';
import type { TestClient } from './harness.js';

/**
 * Chats while `during` runs, as a person would who does not know a backup is being taken: one message
 * at a time, each waiting for its acknowledgement. `during` starts once three are acknowledged, and the
 * chat goes on until it ends. Returns the texts acknowledged before it started, and all of them.
 */
export async function chatDuring(
  client: TestClient,
  roomId: string,
  prefix: string,
  during: () => Promise<void>,
  waitMs?: number,
): Promise<{ before: string[]; acknowledged: string[] }> {
  const acknowledged: string[] = [];
  let chatting = true;
  let threeAcknowledged: () => void;
  const three = new Promise<void>((resolve) => (threeAcknowledged = resolve));
  const chat = (async () => {
    for (let n = 1; chatting || n <= 3; n += 1) {
      const text = `${prefix} ${n}`;
      const clientId = `${prefix}-${n}`;
      client.send({ type: 'chat', language: 'en', message: text, room: roomId, clientId });
      const isAck = (frame: ServerFrame) => frame.type === 'message' && frame.clientId === clientId;
      await client.next(isAck, waitMs);
      acknowledged.push(text);
      if (n === 3) threeAcknowledged!();
    }
  })();
  await three;
  const before = [...acknowledged];
  try {
    await during();
  } finally {
    chatting = false;
    await chat;
  }
  return { before, acknowledged };
}
