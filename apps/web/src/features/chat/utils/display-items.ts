import type { ChatItem, ChatMembers, ChatMessage } from './chat-items';

/* The chat log as the list shows it: newest first, runs of arrivals or departures folded into a pill. */

export type DisplayItem =
  | { kind: 'message'; message: ChatMessage }
  | {
      kind: 'system';
      id: string;
      event: 'JOIN' | 'LEAVE';
      names: string[];
      /** A hot room's pill: arrivals beyond `names`, and the room's count. */
      others?: number;
      members?: number;
    };

/**
 * Newest first, without the user's own JOIN/LEAVE, with consecutive JOIN (or LEAVE) events folded into one pill so a burst of arrivals
 * reads '{A and B} have joined the chat'. Names keep arrival order.
 */
export function toDisplayItems(items: readonly ChatItem[], myUsername?: string): DisplayItem[] {
  const out: DisplayItem[] = [];
  for (const item of items) {
    if (item.kind === 'message') {
      out.push({ kind: 'message', message: item });
      continue;
    }
    if (item.kind === 'members') {
      out.push(membersPill(item, myUsername));
      continue;
    }
    if (item.username === myUsername) continue; // one's own arrival, listed in a coalesced JOIN
    const last = out[out.length - 1];
    if (last?.kind === 'system' && last.event === item.event && last.members === undefined) {
      if (!last.names.includes(item.displayUsername)) last.names.push(item.displayUsername);
    } else {
      out.push({ kind: 'system', id: item.id, event: item.event, names: [item.displayUsername] });
    }
  }
  return out.reverse();
}

/** A hot room's count as a pill of its own: the latest arrivals named (not oneself), the rest counted. */
function membersPill(item: ChatMembers, myUsername?: string): DisplayItem {
  const mine = item.usernames.indexOf(myUsername ?? '');
  const names = item.displayUsernames.filter((_, index) => index !== mine);
  const joined = item.joined - (mine >= 0 ? 1 : 0);
  return {
    kind: 'system',
    id: item.id,
    event: 'JOIN',
    names,
    others: joined - names.length,
    members: item.members,
  };
}

/** 'A', 'A and B', 'A, B and C' (the joiner word comes from the dictionary). */
export function joinNames(names: readonly string[], and: string, comma = ', '): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(comma)}${and}${names[names.length - 1]}`;
}
