import {
  DELETED_USER_NAME,
  generatedDisplayName,
  type SystemFrame,
  type UsernameUpdateFrame,
} from '@xtalk/protocol';
import { initialChatState, type ChatMembers, type ChatState, type ChatSystemEvent } from './chat-items';

/* How the chat log takes the room's own frames: who came and went, a hot room's counts, a new name. */

function membersOf(frame: SystemFrame): ChatMembers {
  const usernames = frame.usernames ?? [];
  return {
    kind: 'members',
    id: `${frame.timestamp}-MEMBERS-${frame.members ?? 0}`,
    usernames,
    displayUsernames: usernames.map(
      (name, index) => frame.displayUsernames?.[index] ?? generatedDisplayName(name),
    ),
    joined: frame.joined ?? 0,
    members: frame.members ?? 0,
    timestamp: frame.timestamp,
  };
}

/** JOIN or LEAVE as one event per person: a burst of arrivals comes as one frame listing everyone. */
function eventsOf(frame: SystemFrame, event: 'JOIN' | 'LEAVE'): ChatSystemEvent[] {
  // the receiver may be among them
  const usernames = frame.usernames ?? [frame.username ?? ''];
  return usernames.map((username, index): ChatSystemEvent => ({
    kind: 'system',
    id: `${frame.timestamp}-${event}-${username}`,
    event,
    username,
    displayUsername:
      (frame.usernames ? frame.displayUsernames?.[index] : frame.displayUsername) ??
      generatedDisplayName(username),
    timestamp: frame.timestamp,
  }));
}

export function onSystem(state: ChatState, frame: SystemFrame): ChatState {
  // the resume could not be honoured: the recent window follows, the list starts over
  if (frame.message === 'RESYNC') return initialChatState;
  if (frame.message === 'MEMBERS') return { ...state, items: [...state.items, membersOf(frame)] };
  if (frame.message !== 'JOIN' && frame.message !== 'LEAVE') return state;
  return { ...state, items: [...state.items, ...eventsOf(frame, frame.message)] };
}

/**
 * The frame names the new username; earlier items still carry the old one, so they are found by the
 * display name they were shown under (username, displayUsername, oldDisplayUsername).
 */
export function onUsernameUpdate(state: ChatState, frame: UsernameUpdateFrame): ChatState {
  if (frame.authorDeleted) return onAuthorDeleted(state, new Set(frame.messageIds));
  // the rename of an author who deleted their account: the log kept its place, without a name
  if (frame.username === '') return state;
  let changed = false;
  const items = state.items.map((item) => {
    if (item.kind === 'members') return item; // names the latest arrivals as they were then
    const renamed = item.username === frame.username || item.displayUsername === frame.oldDisplayUsername;
    if (!renamed) return item;
    changed = true;
    return { ...item, username: frame.username, displayUsername: frame.displayUsername };
  });
  return changed ? { ...state, items } : state;
}

/** The author of these messages deleted their account: they stay, shown as from a deleted user, as on a join. */
function onAuthorDeleted(state: ChatState, ids: ReadonlySet<number>): ChatState {
  let changed = false;
  const items = state.items.map((item) => {
    if (item.kind !== 'message' || !ids.has(item.id)) return item;
    changed = true;
    return { ...item, username: '', displayUsername: DELETED_USER_NAME.en, authorDeleted: true as const };
  });
  return changed ? { ...state, items } : state;
}
