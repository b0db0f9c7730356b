import { useCallback, useState } from 'react';

export type MicPermission = 'unknown' | 'requesting' | 'granted' | 'denied';

/** Ask for the microphone once; the stream is released at once (recording asks again when it starts). */
export function useMicPermission() {
  const [permission, setPermission] = useState<MicPermission>('unknown');
  const request = useCallback(async () => {
    setPermission('requesting');
    try {
      if (!navigator.mediaDevices?.getUserMedia) throw new Error('getUserMedia is not available');
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      for (const track of stream.getTracks()) track.stop();
      setPermission('granted');
      return 'granted' as const;
    } catch (error) {
      console.warn('[mic] permission', error);
      setPermission('denied');
      return 'denied' as const;
    }
  }, []);
  return { permission, request };
}
