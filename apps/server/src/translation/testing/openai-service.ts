import type { MessageFrame } from '@xtalk/protocol';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { openAiProviderFor } from '../../ai/testing/openai-provider.js';
import {
  isNoteRequest,
  startFakeOpenAiServer,
  type FakeOpenAiServer,
} from '../../ai/testing/fake-openai-server.js';
import { recordingLogger } from '../../ai/testing/logger.js';
import {
  createTranslationService,
  type TranslationService,
  type TranslationServiceDeps,
} from '../service.js';
import type { TranslationServiceOptions } from '../options.js';
import { MemoryMeter, MemoryRoomOutput, MemoryTranslationStore } from './memory-ports.js';
import { messageFrame } from './message-frame.js';

/*
 * The translation service end to end against a fake OpenAI-compatible server over real HTTP/SSE, through
 * the real `openai` SDK, with in-memory ports: the server and the ports are made anew before every test of
 * the file that calls `openAiServiceTest`, and the service and the server are closed after it.
 */

export class OpenAiServiceTest {
  server!: FakeOpenAiServer;
  output!: MemoryRoomOutput;
  store!: MemoryTranslationStore;
  meter!: MemoryMeter;
  log!: ReturnType<typeof recordingLogger>;
  /** The service the test started; a test that closes it for good sets this back to undefined. */
  service: TranslationService | undefined;
  private nextId = 1_700_000_000_000;

  /** alice's message, with an id (and timestamp) of its own. */
  message(text: string, overrides: Partial<MessageFrame> = {}): MessageFrame {
    this.nextId += 1000;
    return messageFrame(this.nextId, text, 'en', { displayUsername: 'BraveOtter', ...overrides });
  }

  /** `ports`: the ports a test brings itself (a room glossary). */
  start(
    options: Partial<TranslationServiceOptions> = {},
    languages = ['en', 'ja'],
    ports: Pick<TranslationServiceDeps, 'glossary'> = {},
  ): TranslationService {
    this.service = createTranslationService({
      ...ports,
      config: { LANGUAGES: languages },
      provider: openAiProviderFor(this.server),
      output: this.output,
      store: this.store,
      meter: this.meter,
      logger: this.log.logger,
      options: { retryBaseDelayMs: 10, retryMaxDelayMs: 40, callTimeoutMs: 2_000, ...options },
    });
    return this.service;
  }

  /** Post a message the way the rooms service does: store it, then hand it over. */
  post(svc: TranslationService, roomId: string, m: MessageFrame, userId = 'user-alice'): void {
    this.store.add(roomId, m);
    svc.onMessage(roomId, m, { userId });
  }

  notices() {
    return this.output.framesOf('error').filter((f) => f.code === 'notice');
  }

  translationRequests() {
    return this.server.chatRequests().filter((r) => !isNoteRequest(r.body.messages as never));
  }

  noteRequests() {
    return this.server.chatRequests().filter((r) => isNoteRequest(r.body.messages as never));
  }
}

/** The file's service, server and ports, made before each of its tests and closed after. */
export function openAiServiceTest(): OpenAiServiceTest {
  const t = new OpenAiServiceTest();
  // A server constructs its provider, which starts loading the SDK (decision 0116), long before the first
  // message; here the first test posts at once, so the SDK is loaded first, outside what the tests time.
  beforeAll(() => import('openai'));
  beforeEach(async () => {
    t.server = await startFakeOpenAiServer();
    t.output = new MemoryRoomOutput();
    t.store = new MemoryTranslationStore();
    t.meter = new MemoryMeter();
    t.log = recordingLogger();
  });
  afterEach(async () => {
    await t.service?.close();
    t.service = undefined;
    await t.server.close();
  });
  return t;
}
