import { StorageKey, readJson, writeJson } from '#web/lib/storage';

/*
 * The outbox: every message typed goes here first, under a client id of its own, and leaves only when the
 * server's `message` frame with that id comes back (the acknowledgement). It is kept in localStorage, so
 * a message typed while offline survives a reload, and it is sent again on every READY: the server
 * stores a client id once, so a resend never doubles a message.
 */

export interface OutboxEntry {
  clientId: string;
  roomId: string;
  text: string;
  language: string;
  createdAt: number;
  /** sending: waiting for the socket or the acknowledgement; failed: the server refused it. */
  status: 'sending' | 'failed';
  /** Why it was refused (shown with the Retry button). */
  error?: string | undefined;
}

/** How long a message may wait in the outbox; older ones are dropped on load (stale after a day). */
const MAX_AGE_MS = 24 * 60 * 60 * 1000;
const MAX_ENTRIES = 100;

function isEntry(value: unknown): value is OutboxEntry {
  const entry = value as Partial<OutboxEntry> | null;
  return (
    typeof entry?.clientId === 'string' &&
    typeof entry.roomId === 'string' &&
    typeof entry.text === 'string' &&
    typeof entry.language === 'string' &&
    typeof entry.createdAt === 'number' &&
    (entry.status === 'sending' || entry.status === 'failed')
  );
}

export function loadOutbox(now = Date.now()): OutboxEntry[] {
  const stored = readJson<unknown>(StorageKey.outbox);
  if (!Array.isArray(stored)) return [];
  return stored.filter(isEntry).filter((entry) => now - entry.createdAt < MAX_AGE_MS);
}

export function saveOutbox(entries: readonly OutboxEntry[]): void {
  writeJson(StorageKey.outbox, entries.slice(-MAX_ENTRIES));
}

export function newClientId(): string {
  const crypto = globalThis.crypto;
  if (typeof crypto?.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/** The entries of `roomId` still to be sent, oldest first. */
export function toSend(entries: readonly OutboxEntry[], roomId: string): OutboxEntry[] {
  return entries
    .filter((entry) => entry.roomId === roomId && entry.status === 'sending')
    .sort((a, b) => a.createdAt - b.createdAt);
}
