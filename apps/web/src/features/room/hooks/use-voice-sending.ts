import { useCallback, type RefObject } from 'react';
import { getLanguage } from '#web/lib/i18n';
import type { SocketClient } from '#web/lib/socket-client';
import { newClientId } from '../utils/outbox';
import { toastNotConnected } from '../utils/room-toasts';

/** How a recorded voice goes to the room: a whole clip, or a stream of pages while it is spoken. */
export function useVoiceSending(clientRef: RefObject<SocketClient | null>) {
  /** A voice clip; 'Not connected.' (2 s) when the socket is not open. */
  const sendAudio = useCallback(
    (clip: Uint8Array): boolean => {
      const client = clientRef.current;
      // the clip's client id goes just before it, so a resent clip is stored (and transcribed) once
      const sent =
        (client?.state === 'ready' &&
          client.send({ type: 'voiceClip', clientId: newClientId() }) &&
          client.sendBinary(clip)) ||
        false;
      if (!sent) toastNotConnected();
      return sent;
    },
    [clientRef],
  );

  /**
   * Streaming voice (protocol 3): announces a clip and returns where its pages go; undefined when the server
   * speaks an older protocol or the socket is not ready (the recorder then sends the whole clip).
   */
  const openVoiceStream = useCallback(() => {
    const language = getLanguage();
    const client = clientRef.current;
    const room = client?.roomId;
    if (!client || !room || client.state !== 'ready' || client.serverProtocolVersion < 3) return undefined;
    const clipId = newClientId();
    if (!client.send({ type: 'voiceStart', clipId, language, room })) return undefined;
    // after a reconnect the pages would reach a server that never saw voiceStart: the stream is broken
    const connection = client.readyCount;
    const same = () => client.state === 'ready' && client.readyCount === connection;
    return {
      send: (pages: Uint8Array) => same() && client.sendBinary(pages),
      end: () => same() && client.send({ type: 'voiceEnd', clipId }),
    };
  }, [clientRef]);

  return { sendAudio, openVoiceStream };
}
