import { performance } from 'node:perf_hooks';
import type { AiProvider, AiTask, Logger } from '../ai/index.js';
import { AiTimeoutError, isRetryable } from '../ai/index.js';
import type { MetricsReport } from '../metrics/index.js';
import type { TranslationServiceOptions } from './options.js';
import type { Charge, Meter, Usage } from './ports.js';
import { SupersededError } from './supersede.js';

/*
 * Every engine call: Meter.charge (may refuse), then the call under a timeout, retried with bounded
 * exponential backoff when retrying can help. A call that still fails is refunded.
 */

export class ShutdownError extends Error {
  constructor() {
    super('translation service is shutting down');
    this.name = 'ShutdownError';
  }
}

export type EngineCall = <T>(
  task: AiTask,
  usage: Usage,
  call: (signal: AbortSignal, attempt: number) => Promise<T>,
  /** Aborted when the work is superseded by a correction (its job's `stop`). */
  stop?: AbortSignal,
) => Promise<T>;

export interface EngineCallDeps {
  meter: Meter;
  logger: Logger;
  options: TranslationServiceOptions;
  /** Aborted when the service gives up on running work at shutdown. */
  shutdown: AbortSignal;
  /** Where engine time and failures are counted (/metrics); nowhere without. */
  metrics?: Pick<MetricsReport, 'aiCall'> | undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ShutdownError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ShutdownError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export function createEngineCall(deps: EngineCallDeps): EngineCall {
  const { meter, logger, options, shutdown, metrics } = deps;
  async function refund(charge: Charge, usage: Usage): Promise<void> {
    try {
      await charge.refund();
    } catch (error) {
      logger.error({ err: error, userId: usage.userId, task: usage.task }, 'translation: refund failed');
    }
  }

  async function attemptCall<T>(
    task: AiTask,
    usage: Usage,
    call: (signal: AbortSignal, attempt: number) => Promise<T>,
    stop: AbortSignal | undefined,
  ): Promise<T> {
    let lastError: unknown;
    for (let attempt = 1; attempt <= options.attempts; attempt += 1) {
      if (shutdown.aborted) throw new ShutdownError();
      if (stop?.aborted) throw new SupersededError();
      const controller = new AbortController();
      const onShutdown = () => controller.abort(new ShutdownError());
      const onStop = () => controller.abort(new SupersededError());
      shutdown.addEventListener('abort', onShutdown, { once: true });
      stop?.addEventListener('abort', onStop, { once: true });
      const timer = setTimeout(
        () => controller.abort(new AiTimeoutError(task, options.callTimeoutMs)),
        options.callTimeoutMs,
      );
      // Engines that ignore the signal still lose the race; the work they finish later is discarded.
      const aborted = new Promise<never>((_, reject) => {
        controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
      });
      aborted.catch(() => undefined);
      const startedAt = performance.now();
      try {
        const result = await Promise.race([call(controller.signal, attempt), aborted]);
        metrics?.aiCall(task, (performance.now() - startedAt) / 1000, false);
        return result;
      } catch (caught) {
        const error = controller.signal.aborted ? controller.signal.reason : caught;
        lastError = error;
        if (error instanceof ShutdownError || error instanceof SupersededError) throw error;
        // work given up (a correction, a shutdown) is not the engine failing
        metrics?.aiCall(task, (performance.now() - startedAt) / 1000, true);
        const retry = isRetryable(error) && attempt < options.attempts;
        logger.warn(
          { err: error, task, attempt, attempts: options.attempts, roomId: usage.roomId, retry },
          `AI ${task} call failed${retry ? '; retrying' : ''}`,
        );
        if (!retry) throw error;
        const backoff = Math.min(options.retryMaxDelayMs, options.retryBaseDelayMs * 2 ** (attempt - 1));
        await sleep(backoff / 2 + Math.random() * (backoff / 2), shutdown);
      } finally {
        clearTimeout(timer);
        shutdown.removeEventListener('abort', onShutdown);
        stop?.removeEventListener('abort', onStop);
      }
    }
    throw lastError;
  }

  /** Charge, then run `call` under a timeout with bounded retries. */
  return async function callEngine<T>(
    task: AiTask,
    usage: Usage,
    call: (signal: AbortSignal, attempt: number) => Promise<T>,
    stop?: AbortSignal,
  ): Promise<T> {
    if (shutdown.aborted) throw new ShutdownError();
    // work on a text that was corrected meanwhile is not started, so not charged
    if (stop?.aborted) throw new SupersededError();
    // one charge per engine call; retries of a failed call are not charged again
    const charge = await meter.charge(usage);
    try {
      return await attemptCall(task, usage, call, stop);
    } catch (error) {
      // nothing is charged for work that failed (or was abandoned at shutdown)
      if (charge) await refund(charge, usage);
      throw error;
    }
  };
}

/** Whether the provider has an engine for `task` in `language`; says so once per pair when it has not. */
export function createSupportCheck(provider: AiProvider, logger: Logger) {
  const loggedUnsupported = new Set<string>();
  return function supported(task: AiTask, language: string): boolean {
    if (provider.supports(task, language)) return true;
    const key = `${task}:${language}`;
    if (!loggedUnsupported.has(key)) {
      loggedUnsupported.add(key);
      // listeners of a language without a server voice hear it from their browser (noServerVoice)
      const instead = task === 'speech' ? 'listeners hear it from their browser' : 'skipping it';
      logger.info(
        { provider: provider.name, task, language },
        `AI provider '${provider.name}' has no engine for ${task} (${language}); ${instead}`,
      );
    }
    return false;
  };
}
