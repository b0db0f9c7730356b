import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ErrorFrame,
  GuestLoginResponse,
  MessageFrame,
  ServerFrame,
  SummaryCompleteFrame,
} from '@xtalk/protocol';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../ai/testing/fake-openai-server.js';
import { dbOf, expectBalancesEqualSumOfRows, ledgerOf } from '../testing/credits.js';
import {
  guestLogin,
  joinRoom,
  roomBarrier,
  startServer,
  TestClient,
  type TestServer,
} from '../testing/harness.js';
import { memberLogin } from '../testing/members.js';

/*
 * "Catch me up" on real sockets against a fake OpenAI-compatible server over real HTTP/SSE: the summary
 * request covers exactly the messages after the asker's last visit, streams to the asker alone, is charged
 * to them once, and is refused with its codes.
 */

const SECRET = 'summary-test-secret-long-enough-for-hs256';
let ai: FakeOpenAiServer;
let server: TestServer;
const V6 = { protocolVersion: 6 };

const isSummaryRequest = (messages: { role: string; content: string }[]) =>
  (messages.find((m) => m.role === 'system')?.content ?? '').includes('catch up');
const summaryRequests = () =>
  ai
    .chatRequests()
    .map((r) => r.body.messages as { role: string; content: string }[])
    .filter(isSummaryRequest);
const isError = (code: string) => (f: ServerFrame) => f.type === 'error' && f.code === code;

async function post(client: TestClient, roomId: string, texts: string[]): Promise<MessageFrame[]> {
  const stored: MessageFrame[] = [];
  for (const text of texts) {
    const echo = client.nextNew<MessageFrame>((f) => f.type === 'message' && f.message === text);
    client.send({ type: 'chat', language: 'en', message: text, room: roomId });
    stored.push(await echo);
  }
  return stored;
}

beforeAll(async () => {
  ai = await startFakeOpenAiServer();
  ai.onChat = (body) =>
    isSummaryRequest(body.messages)
      ? { kind: 'stream', pieces: ['Alice ', 'talked ', 'about ', 'the Kite.'], delayMs: 20 }
      : undefined;
  server = await startServer({
    AUTH_SECRET: SECRET,
    AI_PROVIDER: 'openai',
    OPENAI_BASE_URL: ai.baseURL,
    OPENAI_API_KEY: 'test-key',
    CREDITS_DAILY_FREE: '100000',
    CREDITS_GUEST_DAILY: '0',
    // the speaker posts eight messages and, a moment later, a barrier: with the default burst the barrier
    // is refused (rate_limited) whenever it comes before the speaker's chat bucket has refilled, as it
    // does on a quick machine
    WS_CHAT_BURST: '100',
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await ai?.close();
});

describe('catch me up', () => {
  let alice: GuestLoginResponse;
  let bob: GuestLoginResponse;
  let roomId: string;
  let speaker: TestClient;
  let stored: MessageFrame[];

  beforeAll(async () => {
    alice = await memberLogin(server, SECRET, 'summary-alice', 'Alice');
    bob = await memberLogin(server, SECRET, 'summary-bob', 'Bob');
    ({ roomId } = await joinRoom(server.app, alice.token, null));
    speaker = await TestClient.join(server, alice, roomId, 'en', V6);
    stored = await post(
      speaker,
      roomId,
      Array.from({ length: 8 }, (_, i) => `message number ${i + 1} about the plan`),
    );
  }, 60_000);

  it('covers exactly the missed messages, streams to the asker alone and charges them once', async () => {
    const late = await TestClient.join(server, bob, roomId, 'ja', V6);
    const before = summaryRequests().length;
    // Bob last saw the second message
    late.send({ type: 'summarize', room: roomId, language: 'ja', since: stored[1]!.id });
    const complete = await late.next<SummaryCompleteFrame>((f) => f.type === 'summaryComplete', 10_000);
    expect(complete).toMatchObject({
      text: 'Alice talked about the Kite.',
      from: stored[2]!.id,
      to: stored[7]!.id,
    });
    const chunks = late.frames.filter((f) => f.type === 'summaryChunk');
    expect(chunks.map((f) => f.chunk).join('')).toBe('Alice talked about the Kite.');
    expect(chunks.every((f) => f.requestId === complete.requestId)).toBe(true);

    const requests = summaryRequests().slice(before);
    expect(requests).toHaveLength(1);
    const [system, user] = requests[0]!;
    expect(system!.content).toMatch(/in Japanese \(ja\)/);
    for (const message of stored.slice(2)) expect(user!.content).toContain(message.message);
    for (const message of stored.slice(0, 2)) expect(user!.content).not.toContain(`${message.message}\n`);
    expect(user!.content).not.toMatch(/message number 1 about|message number 2 about/);
    expect(user!.content).toContain(`${stored[2]!.displayUsername} [en]: message number 3`);

    // the speaker saw none of it
    const [marker] = await roomBarrier(speaker, roomId, [speaker]);
    expect(speaker.framesBefore(marker!).some((f) => f.type.startsWith('summary'))).toBe(false);

    const spends = (await ledgerOf(server).list(bob.user.userId, { limit: 100, page: 0 })).filter(
      (t) => t.kind === 'spend',
    );
    expect(spends.map((t) => t.cause)).toEqual(['summary']);
    await expectBalancesEqualSumOfRows(dbOf(server));
    late.close();
  });

  it('refuses fewer than five messages, a guest without credits, and a client below protocol 6', async () => {
    const asker = await TestClient.join(server, bob, roomId, 'ja', V6);
    const before = summaryRequests().length;
    asker.send({ type: 'summarize', room: roomId, language: 'ja', since: stored[4]!.id });
    const few = await asker.next<ErrorFrame>(isError('too_few_messages'));
    // three of the first ones, and any barrier an earlier test posted
    const after = speaker.messages().filter((m) => m.id > stored[4]!.id).length;
    expect(after).toBeLessThan(5);
    expect(few.message).toContain(`There are ${after} messages`);

    const guest = await guestLogin(server.app);
    const poor = await TestClient.join(server, guest, roomId, 'ja', V6);
    poor.send({ type: 'summarize', room: roomId, language: 'ja' });
    const refused = await poor.next<ErrorFrame>(isError('insufficient_credits'));
    expect(refused.message).toMatch(/credits/);

    const old = await TestClient.join(server, bob, roomId, 'ja', { protocolVersion: 5 });
    old.send({ type: 'summarize', room: roomId, language: 'ja' });
    expect((await old.next<ErrorFrame>(isError('bad_frame'))).message).toMatch(/protocol 6/);

    expect(summaryRequests().length).toBe(before);
    const spends = (await ledgerOf(server).list(guest.user.userId, { limit: 100, page: 0 })).filter(
      (t) => t.kind === 'spend',
    );
    expect(spends).toEqual([]);
    for (const client of [asker, poor, old]) client.close();
  });
});
