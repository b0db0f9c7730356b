/*
 * A room's member list in pages (protocol 9's `members`). Two kinds of cursor, both opaque to clients:
 * `u` and a username (base64url): the next page starts after it, in username order, for a list read
 * whole (one node's roster, or a Redis hash small enough that a scan returns it whole); `s` and a Redis
 * HSCAN cursor, for a hash too large for that. Someone present from the first page to the last is listed
 * at least once either way.
 */

export type PageCursor = { after: string | undefined } | { scan: string };

/** What a cursor says; undefined for a string no page gave. */
export function readCursor(cursor: string | undefined): PageCursor | undefined {
  if (cursor === undefined) return { after: undefined };
  const rest = cursor.slice(1);
  if (cursor.startsWith('s') && /^[1-9]\d{0,19}$/.test(rest)) return { scan: rest };
  if (!cursor.startsWith('u') || rest === '') return undefined;
  const after = Buffer.from(rest, 'base64url').toString();
  return Buffer.from(after).toString('base64url') === rest ? { after } : undefined;
}

export const scanCursor = (scan: string) => (scan === '0' ? undefined : `s${scan}`);

/** The page of `usernames` (in any order) after `after`, in username order, and the cursor past it. */
export function sortedPage(usernames: Iterable<string>, after: string | undefined, limit: number) {
  const rest = [...usernames].sort().filter((name) => after === undefined || name > after);
  const page = rest.slice(0, limit);
  const last = page.at(-1);
  const cursor =
    rest.length > limit && last !== undefined ? `u${Buffer.from(last).toString('base64url')}` : undefined;
  return { usernames: page, ...(cursor ? { cursor } : {}) };
}
