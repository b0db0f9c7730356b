import type { Logger } from '../provider.js';

export interface LogLine {
  level: 'info' | 'warn' | 'error' | 'debug';
  msg: string;
  obj: unknown;
}

/** A pino-like logger that records lines, for tests. */
export function recordingLogger(): { logger: Logger; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (objOrMsg: unknown, msg?: string): void => {
      if (typeof objOrMsg === 'string') lines.push({ level, msg: objOrMsg, obj: undefined });
      else lines.push({ level, msg: msg ?? '', obj: objOrMsg });
    };
  const logger = { info: at('info'), warn: at('warn'), error: at('error'), debug: at('debug') };
  return { logger: logger as unknown as Logger, lines };
}
