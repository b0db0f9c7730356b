import { useEffect, useRef } from 'react';

/** What the unread count needs of a chat item: its id and, for a message, its author. */
export interface UnreadItem {
  kind: string;
  id: number | string;
  username?: string;
}

/**
 * While the tab is hidden, the title counts the messages from others that arrived since it was hidden,
 * "(3) XTalk"; back on the tab, the count and the title are cleared. Own messages and presence never count.
 */
export function useUnreadTitle(items: readonly UnreadItem[], me: string): void {
  const seen = useRef<Set<number | string> | undefined>(undefined);
  const latest = useRef(items);

  useEffect(() => {
    const title = document.title;
    const others = () =>
      latest.current.filter((item) => item.kind === 'message' && item.username !== me).map((item) => item.id);
    const reset = () => {
      seen.current = new Set(others());
      document.title = title;
    };
    reset();
    const onVisibility = () => {
      if (!document.hidden) reset();
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      document.title = title;
    };
  }, [me]);

  useEffect(() => {
    latest.current = items;
    if (!seen.current) return;
    if (!document.hidden) {
      for (const item of items) seen.current.add(item.id);
      return;
    }
    const unread = items.filter(
      (item) => item.kind === 'message' && item.username !== me && !seen.current!.has(item.id),
    ).length;
    const base = document.title.replace(/^\(\d+\) /, '');
    document.title = unread > 0 ? `(${unread}) ${base}` : base;
  }, [items, me]);
}
