import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  PROTOCOL_VERSION,
  type ErrorFrame,
  type GuestLoginResponse,
  type MessageFrame,
  type ServerFrame,
  type TranslationCompleteFrame,
} from '@xtalk/protocol';
import {
  isNoteRequest,
  startFakeOpenAiServer,
  type FakeOpenAiServer,
} from '../ai/testing/fake-openai-server.js';
import { dbOf, expectBalancesEqualSumOfRows, ledgerOf } from '../testing/credits.js';
import { guestLogin, joinRoom, startServer, TestClient, type TestServer } from '../testing/harness.js';
import { memberLogin } from '../testing/members.js';
import { GUEST_LIMIT_NOTICE, NO_CREDITS_NOTICE } from './meter.js';

/*
 * "Try again" is paid as any translation by its author: refused up front, with the notice a chat without
 * credits gets, when the author cannot pay (nothing queued, nothing stored), and paid once per request
 * however often its frame comes. Real server and ledger, the fake OpenAI-compatible server over HTTP
 * failing with 500 and then recovering.
 */

const SECRET = 'retranslate-credits-test-secret-long-enough';
const hello = { protocolVersion: PROTOCOL_VERSION };
let server: TestServer;
let engine: FakeOpenAiServer;
let failing = true;

const isNotice = (f: ServerFrame): f is ErrorFrame => f.type === 'error' && f.code === 'notice';
const isComplete = (f: ServerFrame): f is TranslationCompleteFrame => f.type === 'translationComplete';
const translationCalls = () => engine.chatRequests().filter((r) => !isNoteRequest(r.body.messages as never));
const spendsOf = async (userId: string) =>
  (await ledgerOf(server).list(userId, { limit: 100, page: 0 })).filter((t) => t.kind === 'spend');

beforeAll(async () => {
  engine = await startFakeOpenAiServer();
  engine.onChat = () => (failing ? { kind: 'status', status: 500, message: 'engine down' } : undefined);
  server = await startServer({
    AUTH_SECRET: SECRET,
    LANGUAGES: 'en,ja',
    AI_PROVIDER: 'openai',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: engine.baseURL,
    CREDITS_DAILY_FREE: '100',
    CREDITS_GUEST_DAILY: '100',
  });
});
afterAll(async () => {
  await server.close();
  await engine.close();
});
afterEach(async () => {
  await expectBalancesEqualSumOfRows(dbOf(server));
});

/** An author's message whose Japanese translation failed for good, seen by a Japanese listener. */
async function failedMessage(author: GuestLoginResponse, listener: GuestLoginResponse, text: string) {
  failing = true;
  const { roomId } = await joinRoom(server.app, author.token, null);
  const a = await TestClient.join(server, author, roomId, 'en', hello);
  const b = await TestClient.join(server, listener, roomId, 'ja', hello);
  a.send({ type: 'chat', language: 'en', message: text, room: roomId });
  const message = await b.next<MessageFrame>((f) => f.type === 'message' && f.message === text);
  await b.next((f) => f.type === 'translationFailed' && f.originalTimestamp === message.id, 20_000);
  failing = false;
  return { roomId, a, b, message };
}

/** The author's balance spent to nothing. */
async function drain(userId: string) {
  const { free, premium } = await ledgerOf(server).balance(userId);
  await ledgerOf(server).spend({ userId, key: 'drain', cause: 'test', amount: free + premium });
}

describe('Try again and credits', () => {
  it.each([
    {
      who: 'a guest',
      login: () => guestLogin(server.app),
      reason: 'guest_allowance',
      says: GUEST_LIMIT_NOTICE,
    },
    {
      who: 'a user',
      login: () => memberLogin(server, SECRET, 'rt-user'),
      reason: 'no_credits',
      says: NO_CREDITS_NOTICE,
    },
  ])('refuses $who without credits at once, queues and stores nothing', async ({ login, reason, says }) => {
    const author = await login();
    const { roomId, a, b, message } = await failedMessage(
      author,
      await guestLogin(server.app),
      `ask ${reason}`,
    );
    await drain(author.user.userId);
    const rows = (await ledgerOf(server).list(author.user.userId, { limit: 100, page: 0 })).length;
    const calls = translationCalls().length;

    a.send({ type: 'retranslate', id: message.id, requestId: 'broke-1' });
    const refusal = await a.nextNew<ErrorFrame>((f) => f.type === 'error');
    expect(refusal).toMatchObject({
      code: 'notice',
      message: says,
      notice: { kind: 'credits_paused', params: { reason } },
    });
    expect((await ledgerOf(server).list(author.user.userId, { limit: 100, page: 0 })).length).toBe(rows);
    const late = await TestClient.join(server, author, roomId, 'en', hello);
    const stored = late.messages().find((m) => m.id === message.id);
    expect(stored?.failedTranslations).toEqual(['ja']);

    // once they can pay, one ask makes exactly one translation: the refused one left no work behind
    await ledgerOf(server).credit({
      userId: author.user.userId,
      key: 'top-up',
      cause: 'test',
      amount: 100,
      part: 'free',
    });
    a.send({ type: 'retranslate', id: message.id, requestId: 'paid-1' });
    await b.nextNew((f) => isComplete(f) && f.originalTimestamp === message.id, 10_000);
    expect(translationCalls().length - calls).toBe(1);
    expect(b.frames.filter(isNotice).filter((n) => n.notice?.kind === 'translation_paused')).toEqual([]);
    for (const client of [a, b, late]) client.close();
  });

  it('charges the author once per request, under its own key, however often the frame comes', async () => {
    const author = await memberLogin(server, SECRET, 'rt-payer');
    const { roomId, a, b, message } = await failedMessage(author, await guestLogin(server.app), 'pay once');
    const calls = translationCalls().length;

    const ask = { type: 'retranslate', id: message.id, requestId: 'again-1' };
    a.send(ask);
    a.send(ask);
    const done = await b.nextNew<TranslationCompleteFrame>(
      (f) => isComplete(f) && f.originalTimestamp === message.id,
      10_000,
    );
    expect(done.fullText).toContain('pay once');
    a.send(ask);
    // frames are handled in order: this answer comes after both of the first two were
    expect(await a.nextNew<ErrorFrame>((f) => f.type === 'error')).toMatchObject({ code: 'not_failed' });

    expect(translationCalls().length - calls).toBe(1);
    const userId = author.user.userId;
    const key = `spend:retranslate:${roomId}/${message.id}/again-1/translation/ja`;
    const charged = await ledgerOf(server).findByKey(userId, key);
    expect(charged).toMatchObject({ kind: 'spend', cause: 'translation', status: 'completed' });
    const reference = `${roomId}/${message.id}/ja`;
    const translations = (await spendsOf(userId)).filter(
      (t) => t.cause === 'translation' && t.reference === reference,
    );
    // the first attempt's charge was refunded when the engine failed; the retry's stands, once
    expect(translations.map((t) => t.status).sort()).toEqual(['completed', 'reversed']);
    a.close();
    b.close();
  });
});
