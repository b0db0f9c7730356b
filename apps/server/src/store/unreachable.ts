/*
 * Whether an error says the database cannot be reached (it is down, restarting or the link to it was
 * cut), not that a statement was wrong: a frame that fails so is refused as `unavailable`, to be sent
 * again, rather than as an internal error.
 */

/** Socket errors of a connection that cannot be opened or was lost. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'EPIPE']);
/** PostgreSQL's connection exceptions (class 08) and a server shutting down or starting (57P01–57P03). */
const SQLSTATE = /^(08...|57P0[123])$/;
/** node-postgres's own words for a link that ended or a connect that timed out. */
const LOST_LINK = /^Connection terminated/;

export function isDatabaseUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || SQLSTATE.test(code))) return true;
  return LOST_LINK.test(error.message);
}

/** The refusal of a frame whose work the database was needed for. */
export const DATABASE_REFUSAL = {
  code: 'unavailable',
  message: 'The database cannot be reached right now, so this was not stored; please try again.',
} as const;
