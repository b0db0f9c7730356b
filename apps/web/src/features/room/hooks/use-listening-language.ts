import type { UiLanguage } from '@xtalk/protocol';
import { useCallback, type RefObject } from 'react';
import type { SocketClient } from '#web/lib/socket-client';
import { listeningLanguage, pickListeningLanguage } from '../utils/listening';

/** What the room is told of the language this person listens in. */
export function useListeningLanguage(clientRef: RefObject<SocketClient | null>) {
  /** The interface language changed: the listening language follows it unless one was picked. */
  const sendLanguage = useCallback(
    (language: UiLanguage) => {
      const client = clientRef.current;
      if (client?.roomId && client.isOpen)
        client.send({ type: 'setLanguage', language: listeningLanguage(language), room: client.roomId });
    },
    [clientRef],
  );

  /** A listening language picked from the server's list (more than EN/JA); kept for later visits. */
  const chooseListening = useCallback(
    (language: string) => {
      pickListeningLanguage(language);
      const client = clientRef.current;
      if (client?.roomId && client.isOpen)
        client.send({ type: 'setLanguage', language, room: client.roomId });
    },
    [clientRef],
  );

  return { sendLanguage, chooseListening };
}
