import { useCallback, useEffect, useState } from 'react';
import { StorageKey, readString, writeString } from '#web/lib/storage';

export interface Microphone {
  deviceId: string;
  label: string;
}

/**
 * The audio inputs of this device and the chosen one (client state micInput, storage key `mic`). Labels are
 * only given once the page has microphone permission; until then inputs are numbered.
 */
export function useMicrophones() {
  const [devices, setDevices] = useState<Microphone[]>([]);
  const [selected, setSelected] = useState<string | undefined>(() => readString(StorageKey.mic) || undefined);
  const [listed, setListed] = useState(false);

  const refresh = useCallback(async () => {
    if (!navigator.mediaDevices?.enumerateDevices) return;
    setListed(true);
    try {
      const all = await navigator.mediaDevices.enumerateDevices();
      const inputs = all.filter((device) => device.kind === 'audioinput');
      setDevices(
        inputs.map((device, index) => ({
          deviceId: device.deviceId,
          label: device.label || `Microphone ${index + 1}`,
        })),
      );
    } catch (error) {
      console.warn('[mic] could not list devices', error);
    }
  }, []);

  // Listed when the picker opens (it calls `refresh`), and from then on again whenever a device comes or
  // goes. Not watched before: a `devicechange` listener makes Chromium enumerate every capture device,
  // cameras included, and start its video capture service process, a heavy start in the middle of the
  // room screen's first layout for a list nobody has asked to see yet (decision 0122).
  useEffect(() => {
    const media = navigator.mediaDevices;
    if (!listed || !media?.addEventListener) return;
    const onChange = () => void refresh();
    media.addEventListener('devicechange', onChange);
    return () => media.removeEventListener('devicechange', onChange);
  }, [listed, refresh]);

  const choose = useCallback((deviceId: string) => {
    setSelected(deviceId);
    writeString(StorageKey.mic, deviceId);
  }, []);

  return { devices, selected, choose, refresh };
}
