/*
 * The words of a protocol refusal (close 4400, docs/decisions/0060): the server names the versions it
 * speaks, and a newer client reads them back to speak the newest of those instead of stopping (a rolling
 * deploy; docs/decisions/0146). Every server since version 2 words it this way, so the reading below also
 * fits nodes older than this file.
 */

/** The refusal a server sends when `version` (undefined: a version-1 client) is outside [min, max]. */
export function protocolRefusal(version: number | undefined, min: number, max: number): string {
  const range = min === max ? `${min}` : `${min} to ${max}`;
  return `Protocol version ${version ?? 'missing (1)'} is not supported (this server speaks ${range}); please reload.`;
}

/** The versions a refusal names, or undefined when it is not one. */
export function versionsOfRefusal(reason: string): { min: number; max: number } | undefined {
  const match = /this server speaks (\d+)(?: to (\d+))?\)/.exec(reason);
  if (!match) return undefined;
  const min = Number(match[1]);
  return { min, max: match[2] === undefined ? min : Number(match[2]) };
}
