import { NEW_ROOM, type ChatFrame, type ServerFrame, type UiLanguage } from '@xtalk/protocol';
import { useCallback, useRef, useState, type RefObject } from 'react';
import { getLanguage } from '#web/lib/i18n';
import type { SocketClient } from '#web/lib/socket-client';
import { loadOutbox, newClientId, saveOutbox, toSend, type OutboxEntry } from '../utils/outbox';
import { toastNotConnected } from '../utils/room-toasts';

/** A message refused as too fast is sent again after this long. */
const RATE_LIMIT_RETRY_MS = 1000;

/** The outbox as stored: saved on every change, in a ref for the socket's callbacks, in state to render. */
function useStoredOutbox() {
  const [outbox, setOutbox] = useState<OutboxEntry[]>(loadOutbox);
  const outboxRef = useRef<OutboxEntry[]>(outbox);
  const updateOutbox = useCallback((update: (entries: OutboxEntry[]) => OutboxEntry[]) => {
    outboxRef.current = update(outboxRef.current);
    saveOutbox(outboxRef.current);
    setOutbox(outboxRef.current);
  }, []);
  return { outbox, outboxRef, updateOutbox };
}

/** The chat frame an outbox entry goes out as; its client id makes a resend stored once. */
function chatFrameOf(entry: OutboxEntry): ChatFrame {
  return {
    type: 'chat',
    language: entry.language as UiLanguage,
    message: entry.text,
    room: entry.roomId,
    clientId: entry.clientId,
  };
}

/**
 * The room's outbox (utils/outbox.ts): typed messages until the server acknowledges them, stored across
 * reloads, sent through the room's client in `clientRef`. Kept in a ref for the client's callbacks,
 * mirrored in state to render.
 */
export function useOutbox(clientRef: RefObject<SocketClient | null>) {
  const { outbox, outboxRef, updateOutbox } = useStoredOutbox();
  const transmit = useCallback(
    (entry: OutboxEntry): boolean => clientRef.current?.send(chatFrameOf(entry)) ?? false,
    [clientRef],
  );

  /** The acknowledgement (our message came back) or the refusal of an outbox entry. */
  const settle = useCallback(
    (frame: ServerFrame) => {
      const clientId = frame.type === 'message' || frame.type === 'error' ? frame.clientId : undefined;
      const entry = clientId && outboxRef.current.find((candidate) => candidate.clientId === clientId);
      if (!entry) return;
      if (frame.type === 'message') {
        updateOutbox((entries) => entries.filter((candidate) => candidate !== entry));
      } else if (frame.type === 'error' && frame.code === 'rate_limited') {
        window.setTimeout(() => {
          const current = outboxRef.current.find((candidate) => candidate.clientId === entry.clientId);
          if (current?.status === 'sending') transmit(current);
        }, RATE_LIMIT_RETRY_MS);
      } else if (frame.type === 'error') {
        const failed = { ...entry, status: 'failed' as const, error: frame.message };
        updateOutbox((entries) => entries.map((candidate) => (candidate === entry ? failed : candidate)));
      }
    },
    [outboxRef, transmit, updateOutbox],
  );

  /**
   * On READY: everything typed meanwhile (or before a reload) goes out now, in order; resends are stored
   * once.
   */
  const flush = useCallback(
    (roomId: string) => {
      for (const entry of toSend(outboxRef.current, roomId)) transmit(entry);
    },
    [outboxRef, transmit],
  );

  /**
   * A typed message goes to the outbox and out at once when the socket is open. While it is not, the
   * message waits, its bubble says 'Will send when connected', and it goes out on the next READY: no
   * error, since nothing failed.
   */
  const sendChat = useCallback(
    (message: string): boolean => {
      const room = clientRef.current?.roomId;
      // idle: the join failed for good (a room that does not exist) or the room was left; no socket
      // will come back to send a waiting message, so it stays in the input instead
      if (!room || room === NEW_ROOM || clientRef.current?.state === 'idle') {
        toastNotConnected();
        return false;
      }
      const entry: OutboxEntry = {
        clientId: newClientId(),
        roomId: room,
        text: message,
        language: getLanguage(),
        createdAt: Date.now(),
        status: 'sending',
      };
      updateOutbox((entries) => [...entries, entry]);
      if (clientRef.current?.state === 'ready') transmit(entry);
      return true;
    },
    [clientRef, transmit, updateOutbox],
  );

  /** 'Retry' on a refused message: the same client id again, so it is still stored at most once. */
  const retry = useCallback(
    (clientId: string) => {
      const entry = outboxRef.current.find((candidate) => candidate.clientId === clientId);
      if (!entry) return;
      const again: OutboxEntry = { ...entry, status: 'sending', error: undefined };
      updateOutbox((entries) => entries.map((candidate) => (candidate === entry ? again : candidate)));
      if (clientRef.current?.state === 'ready') transmit(again);
    },
    [clientRef, outboxRef, transmit, updateOutbox],
  );

  /** Gives up on a refused message. */
  const discard = useCallback(
    (clientId: string) =>
      updateOutbox((entries) => entries.filter((candidate) => candidate.clientId !== clientId)),
    [updateOutbox],
  );

  return { outbox, settle, flush, sendChat, retry, discard };
}
