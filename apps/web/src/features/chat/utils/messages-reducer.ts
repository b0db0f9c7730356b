import { generatedDisplayName, type MessageFrame, type ServerFrame, type SystemFrame } from '@xtalk/protocol';

/*
 * The room's chat log as a pure reducer over server frames (spec sections 3 and 4), kept oldest first;
 * the list renders it newest first. Messages are keyed by id (= server timestamp), which is also the
 * `originalTimestamp` that translation and note frames refer to.
 */

export interface ChatMessage {
  kind: 'message';
  id: number;
  username: string;
  displayUsername: string;
  message: string;
  language: string;
  timestamp: number;
  /** Complete translations by language. */
  translations: Record<string, string>;
  /** Translations still streaming in, by language; replaced once complete. */
  partial: Record<string, string>;
  isTutorial: boolean;
  note?: string | undefined;
  /** When its author last corrected it (server ms); shown as an 'edited' mark. */
  editedAt?: number | undefined;
  /** The languages its translation failed into for good (a lasting mark; cleared by a later one). */
  failed?: string[] | undefined;
}

export interface ChatSystemEvent {
  kind: 'system';
  id: string;
  event: 'JOIN' | 'LEAVE';
  username: string;
  displayUsername: string;
  timestamp: number;
}

/**
 * A hot room's count (protocol 7 MEMBERS): how many are in the room, how many came since the last one and
 * the latest few of them by name; the server names no one else there.
 */
export interface ChatMembers {
  kind: 'members';
  id: string;
  usernames: string[];
  displayUsernames: string[];
  joined: number;
  members: number;
  timestamp: number;
}

export type ChatItem = ChatMessage | ChatSystemEvent | ChatMembers;

/** A streamed voice clip still being spoken (protocol 3): provisional, replaced by its message. */
export interface LiveCaption {
  clipId: string;
  username: string;
  displayUsername: string;
  language: string;
  text: string;
  /** Translations of its committed sentences so far, by language. */
  translations: Record<string, string>;
}

export interface ChatState {
  items: ChatItem[];
  /** Live captions by clip id (absent until the first one). */
  captions?: Record<string, LiveCaption>;
}

export type ChatAction = { type: 'reset' } | { type: 'frame'; frame: ServerFrame };

export const initialChatState: ChatState = { items: [] };

function fromFrame(frame: MessageFrame): ChatMessage {
  return {
    kind: 'message',
    id: frame.id,
    username: frame.username,
    displayUsername: frame.displayUsername ?? generatedDisplayName(frame.username),
    message: frame.message,
    language: frame.language,
    timestamp: frame.timestamp,
    translations: { ...frame.translations },
    partial: {},
    isTutorial: frame.isTutorial,
    note: frame.note,
    editedAt: frame.editedAt,
    failed: frame.failedTranslations,
  };
}

/** `languages` without `language`; undefined once none is left. */
function without(languages: string[] | undefined, language: string): string[] | undefined {
  const rest = languages?.filter((l) => l !== language);
  return rest?.length ? rest : undefined;
}

function updateMessage(
  state: ChatState,
  id: number,
  update: (message: ChatMessage) => ChatMessage,
): ChatState {
  const index = state.items.findIndex((item) => item.kind === 'message' && item.id === id);
  if (index < 0) return state;
  const updated = update(state.items[index] as ChatMessage);
  if (updated === state.items[index]) return state; // nothing changed: no new state, no render
  const items = state.items.slice();
  items[index] = updated;
  return { ...state, items };
}

function withCaption(
  state: ChatState,
  clipId: string,
  update: (caption: LiveCaption) => LiveCaption | undefined,
): ChatState {
  const captions = { ...state.captions };
  const current = captions[clipId] ?? {
    clipId,
    username: '',
    displayUsername: '',
    language: '',
    text: '',
    translations: {},
  };
  const next = update(current);
  if (next) captions[clipId] = next;
  else delete captions[clipId];
  return { ...state, captions };
}

function upsertMessage(state: ChatState, frame: MessageFrame): ChatState {
  const caption = frame.clipId ? state.captions?.[frame.clipId] : undefined;
  if (frame.clipId && caption) {
    // the clip's message replaces its caption and takes over the translations streamed so far
    const rest = withCaption(state, frame.clipId, () => undefined);
    const partial = Object.fromEntries(
      Object.entries(caption.translations).filter(([language]) => frame.translations[language] === undefined),
    );
    const next = upsertMessage(rest, { ...frame, clipId: undefined });
    return updateMessage(next, frame.id, (message) => ({
      ...message,
      partial: { ...partial, ...message.partial },
    }));
  }
  const incoming = fromFrame(frame);
  const index = state.items.findIndex((item) => item.kind === 'message' && item.id === incoming.id);
  if (index >= 0) {
    // A replayed copy of a message we already hold: keep what streamed in, take what is stored.
    const existing = state.items[index] as ChatMessage;
    const items = state.items.slice();
    // A copy of another text (the stored message was corrected meanwhile) keeps nothing of the old one.
    const sameText = existing.message === incoming.message;
    items[index] = sameText
      ? {
          ...incoming,
          translations: { ...existing.translations, ...incoming.translations },
          partial: existing.partial,
          note: incoming.note ?? existing.note,
          editedAt: incoming.editedAt ?? existing.editedAt,
        }
      : incoming;
    return { ...state, items };
  }
  // Usually the newest; a late replay is slotted in by time so the order stays chronological.
  const items = state.items.slice();
  let at = items.length;
  while (at > 0 && items[at - 1]!.timestamp > incoming.timestamp) at--;
  items.splice(at, 0, incoming);
  return { ...state, items };
}

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

export function chatReducer(state: ChatState, action: ChatAction): ChatState {
  if (action.type === 'reset') return initialChatState;
  const frame = action.frame;
  switch (frame.type) {
    case 'message':
      return upsertMessage(state, frame);
    case 'system': {
      // the resume could not be honoured: the recent window follows, the list starts over
      if (frame.message === 'RESYNC') return initialChatState;
      if (frame.message === 'MEMBERS') return { ...state, items: [...state.items, membersOf(frame)] };
      if (frame.message !== 'JOIN' && frame.message !== 'LEAVE') return state;
      // a burst of arrivals comes as one frame listing everyone (the receiver may be among them)
      const usernames = frame.usernames ?? [frame.username ?? ''];
      const events = usernames.map((username, index): ChatSystemEvent => ({
        kind: 'system',
        id: `${frame.timestamp}-${frame.message}-${username}`,
        event: frame.message as 'JOIN' | 'LEAVE',
        username,
        displayUsername:
          (frame.usernames ? frame.displayUsernames?.[index] : frame.displayUsername) ??
          generatedDisplayName(username),
        timestamp: frame.timestamp,
      }));
      return { ...state, items: [...state.items, ...events] };
    }
    case 'captionPartial':
      return withCaption(state, frame.clipId, (caption) =>
        frame.text === ''
          ? undefined
          : {
              ...caption,
              username: frame.username,
              displayUsername: frame.displayUsername,
              language: frame.language,
              text: frame.text,
            },
      );
    case 'translationChunk':
      if (frame.originalTimestamp === 0 && frame.clipId) {
        const target = frame.targetLanguage;
        return withCaption(state, frame.clipId, (caption) => ({
          ...caption,
          translations: {
            ...caption.translations,
            [target]: (caption.translations[target] ?? '') + frame.chunk,
          },
        }));
      }
      return updateMessage(state, frame.originalTimestamp, (message) => {
        // A chunk arriving after the complete text (reordering, replay) must not append to it.
        if (message.translations[frame.targetLanguage] !== undefined) return message;
        const sofar = message.partial[frame.targetLanguage] ?? '';
        // Only a chunk that continues what is shown (0136): joined mid-stream, the start is missing; a late
        // chunk of a text a correction replaced belongs to another stream. translationComplete comes anyway.
        if (frame.at !== undefined && frame.at !== sofar.length) return message;
        return { ...message, partial: { ...message.partial, [frame.targetLanguage]: sofar + frame.chunk } };
      });
    case 'translationComplete':
      return updateMessage(state, frame.originalTimestamp, (message) => {
        const { [frame.targetLanguage]: _done, ...partial } = message.partial;
        return {
          ...message,
          translations: { ...message.translations, [frame.targetLanguage]: frame.fullText },
          partial,
          failed: without(message.failed, frame.targetLanguage),
        };
      });
    case 'translationFailed':
      // The engine gave up: its chunks go, the message shows as written and keeps a mark for the language
      // (a room notice says why). A complete translation, if one came first, stays.
      return updateMessage(state, frame.originalTimestamp, (message) => {
        const language = frame.targetLanguage;
        if (message.translations[language] !== undefined) return message;
        if (message.failed?.includes(language) && message.partial[language] === undefined) return message;
        const { [frame.targetLanguage]: _failed, ...partial } = message.partial;
        const failed = [...(without(message.failed, frame.targetLanguage) ?? []), frame.targetLanguage];
        return { ...message, partial, failed };
      });
    case 'messageEdited':
      // The text was corrected: its translations and hint are void; the new ones follow for the same id.
      return updateMessage(state, frame.id, (message) =>
        message.editedAt !== undefined && message.editedAt > frame.editedAt
          ? message
          : {
              ...message,
              message: frame.message,
              editedAt: frame.editedAt,
              translations: {},
              partial: {},
              note: undefined,
              failed: undefined,
            },
      );
    case 'noteComplete':
      return updateMessage(state, frame.originalTimestamp, (message) => ({ ...message, note: frame.note }));
    case 'usernameUpdate': {
      // The frame names the new username; earlier items still carry the old one, so they are found by the
      // display name they were shown under (spec section 7: username, displayUsername, oldDisplayUsername).
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
    default:
      return state;
  }
}

/**
 * The translations to show above the original: every language but the message's own, the listener's
 * language first (a room may translate into more than two), then the others alphabetically.
 */
export function visibleTranslations(
  message: ChatMessage,
  listening?: string,
): Array<{ language: string; text: string; done: boolean }> {
  const languages = new Set([...Object.keys(message.translations), ...Object.keys(message.partial)]);
  languages.delete(message.language);
  const order = (language: string) => (language === listening ? 0 : 1);
  const sorted = [...languages].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  return sorted.map((language) => {
    const complete = message.translations[language];
    return complete !== undefined
      ? { language, text: complete, done: true }
      : { language, text: message.partial[language] ?? '', done: false };
  });
}

const QUOTES = `"'\`“”‘’「」『』«»`;

/** The note without the quote characters models like to wrap it in (spec section 2). */
export function stripQuotes(note: string): string {
  const text = note.trim();
  let start = 0;
  let end = text.length;
  while (start < end && QUOTES.includes(text[start]!)) start++;
  while (end > start && QUOTES.includes(text[end - 1]!)) end--;
  return text.slice(start, end).trim();
}

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
