import type { FastifyBaseLogger } from 'fastify';
import { systemClock } from './clock.js';

/**
 * Log lines for events a client can cause at will (refused frames and sockets, slow readers, a full
 * translation backlog, refused voice clips): per kind and per subject (a connection, user, address or
 * room), the first few of each interval are written and the rest counted; the next line written after the
 * interval carries how many were left out (`suppressed`). A kind is also bounded as a whole, so that a
 * flood from many subjects stays as bounded as one from a single subject.
 */
export interface LogSamplerSettings {
  intervalMs: number;
  /** Lines per kind and subject per interval. */
  perSubject: number;
  /** Lines per kind per interval, all subjects together. */
  perKind: number;
}

const DEFAULTS: LogSamplerSettings = { intervalMs: 10_000, perSubject: 3, perKind: 20 };
/** Past this many tracked keys, those whose interval is over are forgotten. */
const PRUNE_ABOVE = 10_000;

interface Window {
  startedAt: number;
  written: number;
  suppressed: number;
}

type Level = 'info' | 'warn';

export function createLogSampler(
  logger: Pick<FastifyBaseLogger, Level>,
  clock: { now(): number } = systemClock,
  settings: Partial<LogSamplerSettings> = {},
) {
  const { intervalMs, perSubject, perKind } = { ...DEFAULTS, ...settings };
  const windows = new Map<string, Window>();

  /** The key's window now, a fresh one once the interval is over (carrying what was left out). */
  function windowOf(key: string, now: number): Window & { carried: number } {
    const current = windows.get(key);
    if (current && now - current.startedAt < intervalMs) return { ...current, carried: 0 };
    if (windows.size > PRUNE_ABOVE) prune(now);
    const fresh = { startedAt: now, written: 0, suppressed: 0 };
    windows.set(key, fresh);
    return { ...fresh, carried: current?.suppressed ?? 0 };
  }

  function prune(now: number) {
    for (const [key, window] of windows) if (now - window.startedAt >= intervalMs) windows.delete(key);
  }

  function write(level: Level, kind: string, fields: object, message: string, subject?: string) {
    const now = clock.now();
    const byKind = windowOf(kind, now);
    const bySubject = subject === undefined ? byKind : windowOf(`${kind}\u0000${subject}`, now);
    const keys = subject === undefined ? [kind] : [kind, `${kind}\u0000${subject}`];
    const full = byKind.written >= perKind || bySubject.written >= perSubject;
    for (const key of keys) {
      const window = windows.get(key)!;
      if (full) window.suppressed++;
      else window.written++;
    }
    if (full) return;
    const suppressed = Math.max(byKind.carried, bySubject.carried);
    logger[level]({ ...fields, ...(suppressed > 0 ? { suppressed } : {}) }, message);
  }

  return {
    info(kind: string, fields: object, message: string, subject?: string): void {
      write('info', kind, fields, message, subject);
    },
    warn(kind: string, fields: object, message: string, subject?: string): void {
      write('warn', kind, fields, message, subject);
    },
  };
}
export type LogSampler = ReturnType<typeof createLogSampler>;
