import { NEW_ROOM } from '@xtalk/protocol';

/**
 * Share link rule: the current page address without a trailing /new segment and without a
 * trailing slash; when the room id is present and not 'new' it is added as ?r=. The page's own query and
 * hash are dropped so the link never carries a stale room.
 */
export function shareLink(pageUrl: string, roomId: string | null | undefined): string {
  const url = new URL(pageUrl);
  // Slashes first too, so '/translate/new/' also loses its /new segment.
  const path = url.pathname
    .replace(/\/+$/, '')
    .replace(/\/new$/, '')
    .replace(/\/+$/, '');
  const base = `${url.origin}${path}`;
  if (!roomId || roomId === NEW_ROOM) return base;
  return `${base}?r=${encodeURIComponent(roomId)}`;
}
