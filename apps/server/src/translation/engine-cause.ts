import { AiTimeoutError } from '../ai/index.js';

/*
 * Why an engine call failed, as the person is told it: the engine could not be reached, did not answer in
 * time, or answered with an error status. A message's tasks fail together when the engine is down, and the
 * cause is the one thing worth saying about all of them (decision 0187).
 */

export type EngineCause =
  { cause: 'unreachable' } | { cause: 'timeout' } | { cause: 'status'; status: number };

/** Codes of a link that never reached the engine (Node's sockets and DNS). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

type Failure = { name?: unknown; code?: unknown; status?: unknown; cause?: unknown };

/** The cause of `error`, looking through its `cause` chain (SDK errors wrap the socket's); undefined if unknown. */
export function engineCause(error: unknown): EngineCause | undefined {
  let current = error as Failure | null | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth += 1) {
    if (current instanceof AiTimeoutError || current.name === 'APIConnectionTimeoutError')
      return { cause: 'timeout' };
    if (typeof current.status === 'number') return { cause: 'status', status: current.status };
    if (current.name === 'APIConnectionError') return { cause: 'unreachable' };
    if (typeof current.code === 'string' && UNREACHABLE_CODES.has(current.code))
      return { cause: 'unreachable' };
    current = current.cause as Failure | undefined;
  }
  return undefined;
}

/** The cause in English, for the notice's `message` (older clients, logs). */
export function describeCause(cause: EngineCause): string {
  if (cause.cause === 'unreachable') return 'the AI engine cannot be reached';
  if (cause.cause === 'timeout') return 'the AI engine did not answer in time';
  return `the AI engine answered HTTP ${cause.status}`;
}
