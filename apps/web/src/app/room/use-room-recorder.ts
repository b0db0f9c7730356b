import type { useRoomConnection } from '#web/features/room/hooks/use-room-connection';
import { useRecorder } from '#web/features/voice/hooks/use-recorder';

type Connection = Pick<ReturnType<typeof useRoomConnection>, 'openVoiceStream' | 'sendAudio'>;

/**
 * Voice input for the room: tap to record (playback stops first); the Ogg pages stream while recording
 * (protocol 3), else the clip goes as one binary frame when the recording stops.
 */
export function useRoomRecorder(
  deviceId: string | undefined,
  stopPlayback: () => void,
  connection: Connection,
) {
  return useRecorder({
    deviceId,
    onBeforeStart: stopPlayback,
    openStream: connection.openVoiceStream,
    onClip: (clip, _ms, streamed) => {
      if (!streamed) void connection.sendAudio(clip);
    },
  });
}
