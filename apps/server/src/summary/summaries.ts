import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import {
  SUMMARY_MAX_MESSAGES,
  SUMMARY_MIN_MESSAGES,
  SUMMARY_WINDOW_MS,
  type ErrorCode,
  type MessageFrame,
  type ServerFrame,
  type SummarizeFrame,
} from '@xtalk/protocol';
import {
  AiError,
  type AiProvider,
  type ContextMessage,
  type Logger,
  type SummaryRequest,
} from '../ai/index.js';
import type { Clock } from '../clock.js';
import {
  createEngineCall,
  isInsufficientCredits,
  resolveOptions,
  roomGlossary,
  termsOf,
  type GlossaryPort,
  type Meter,
} from '../translation/index.js';

/*
 * "Catch me up": a summary of what someone missed, in their language, to their connection alone. It covers
 * the room's messages after their last visit, of the last 30 minutes and at most the last 200, whichever
 * are fewest; follows the room glossary; and is paid from the asker's credits like any AI work (the
 * translation service's engine path: one charge, a timeout, bounded retries, a refund when it fails).
 */

export interface Asker {
  readonly roomId: string;
  readonly userId: string;
  username(): string;
  sendFrame(frame: ServerFrame): void;
}

export interface SummaryDeps {
  provider: AiProvider;
  meter: Meter;
  messages: { messagesAfter(roomId: string, afterId: number, limit: number): Promise<MessageFrame[]> };
  glossary?: GlossaryPort;
  languages: readonly string[];
  clock: Clock;
  logger: Logger;
  /** Per-call timeout of the engine (ms); the translation service's default otherwise. */
  timeoutMs?: number;
}

export const SUMMARY_NO_CREDITS =
  'You do not have enough credits for a summary. Free credits are topped up at midnight Tokyo time, or buy more from your balance.';

const contextOf = (message: MessageFrame): ContextMessage => ({
  username: message.displayUsername ?? message.username,
  language: message.language,
  text: message.message,
});

/** What a summary is metered as: the characters of the messages it reads. */
function usageOf(asker: Asker, context: ContextMessage[], language: string) {
  return {
    userId: asker.userId,
    username: asker.username(),
    roomId: asker.roomId,
    task: 'summary' as const,
    characters: context.reduce((sum, message) => sum + [...message.text].length, 0),
    language,
  };
}

/** The engine's summary, each piece shown as it comes when `show` is given; an empty one is a failure. */
async function streamSummary(
  provider: AiProvider,
  request: SummaryRequest & { signal: AbortSignal },
  show: ((chunk: string) => void) | undefined,
): Promise<string> {
  let text = '';
  for await (const chunk of provider.summarize(request)) {
    if (request.signal.aborted) throw request.signal.reason;
    text += chunk;
    if (chunk) show?.(chunk);
  }
  if (text.trim() === '') throw new AiError('the AI engine returned an empty summary', { retryable: true });
  return text.trim();
}

export function createSummaries(deps: SummaryDeps) {
  const { provider, clock, logger } = deps;
  const shutdown = new AbortController();
  setMaxListeners(0, shutdown.signal);
  const options = resolveOptions(
    { LANGUAGES: [...deps.languages], ...(deps.timeoutMs ? { AI_TIMEOUT_MS: deps.timeoutMs } : {}) },
    undefined,
  );
  const callEngine = createEngineCall({ meter: deps.meter, logger, options, shutdown: shutdown.signal });
  /** One summary at a time per asker and room: a second ask while one is written is refused. */
  const running = new Set<string>();

  async function write(asker: Asker, frame: SummarizeFrame, requestId: string): Promise<void> {
    const refuse = (code: ErrorCode, message: string) =>
      asker.sendFrame({ type: 'error', code, message, requestId });
    if (!deps.languages.includes(frame.language))
      return refuse(
        'unsupported_language',
        `Language ${frame.language} is not one of this room's languages.`,
      );
    if (!provider.supports('summary', frame.language))
      return refuse(
        'engine_unsupported',
        `Summaries are not available with the '${provider.name}' AI engine.`,
      );
    const after = Math.max(frame.since ?? 0, clock.now() - SUMMARY_WINDOW_MS);
    const messages = (await deps.messages.messagesAfter(asker.roomId, after, SUMMARY_MAX_MESSAGES)).filter(
      (message) => !message.isTutorial,
    );
    if (messages.length < SUMMARY_MIN_MESSAGES)
      return refuse(
        'too_few_messages',
        `There are ${messages.length} messages to catch up on; a summary needs at least ${SUMMARY_MIN_MESSAGES}.`,
      );
    const context = messages.map(contextOf);
    const glossary = await roomGlossary(deps.glossary, asker.roomId, logger);
    const terms = termsOf(glossary, context.map((message) => message.text).join('\n'), frame.language);
    const usage = usageOf(asker, context, frame.language);
    let streamed = false;
    try {
      const text = await callEngine('summary', usage, (signal) => {
        // a retry after pieces were shown is not streamed again: summaryComplete carries the whole
        const live = !streamed;
        const show = (chunk: string) => {
          streamed = true;
          asker.sendFrame({ type: 'summaryChunk', requestId, chunk });
        };
        const request = { messages: context, language: frame.language, glossary: terms, signal };
        return streamSummary(provider, request, live ? show : undefined);
      });
      asker.sendFrame({
        type: 'summaryComplete',
        requestId,
        text,
        from: messages[0]!.id,
        to: messages[messages.length - 1]!.id,
      });
    } catch (error) {
      if (isInsufficientCredits(error)) return refuse('insufficient_credits', SUMMARY_NO_CREDITS);
      logger.warn({ err: error, roomId: asker.roomId }, 'summary failed');
      refuse('internal', 'The summary could not be written; please try again.');
    }
  }

  return {
    /** Answers one summarize frame; never throws (a refusal or failure is an error frame to the asker). */
    async summarize(asker: Asker, frame: SummarizeFrame): Promise<void> {
      const requestId = randomUUID();
      const key = `${asker.roomId}\n${asker.userId}`;
      if (running.has(key)) {
        asker.sendFrame({
          type: 'error',
          code: 'rate_limited',
          message: 'A summary is already being written for you; wait for it.',
          requestId,
        });
        return;
      }
      running.add(key);
      try {
        await write(asker, frame, requestId);
      } catch (error) {
        logger.error({ err: error, roomId: asker.roomId }, 'summary failed');
        asker.sendFrame({
          type: 'error',
          code: 'internal',
          message: 'The summary could not be written.',
          requestId,
        });
      } finally {
        running.delete(key);
      }
    },
    close() {
      shutdown.abort();
    },
  };
}
export type Summaries = ReturnType<typeof createSummaries>;
