import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useMicrophones } from './use-microphones';

/** navigator.mediaDevices as the hook uses it: an event target that lists devices. */
class FakeMediaDevices extends EventTarget {
  devices: Partial<MediaDeviceInfo>[] = [{ deviceId: 'a', kind: 'audioinput', label: 'Built-in' }];
  readonly added: string[] = [];
  enumerateDevices = vi.fn(async () => this.devices as MediaDeviceInfo[]);
  override addEventListener(...args: Parameters<EventTarget['addEventListener']>) {
    this.added.push(args[0]);
    super.addEventListener(...args);
  }
}

function install(): FakeMediaDevices {
  const media = new FakeMediaDevices();
  Object.defineProperty(navigator, 'mediaDevices', { value: media, configurable: true });
  return media;
}

afterEach(() => {
  Reflect.deleteProperty(navigator, 'mediaDevices');
});

describe('useMicrophones', () => {
  it('neither lists nor watches devices until the list is asked for', async () => {
    const media = install();
    const { result, rerender } = renderHook(() => useMicrophones());
    rerender();
    expect(media.enumerateDevices).not.toHaveBeenCalled();
    // a devicechange listener alone makes Chromium start its capture services
    expect(media.added).not.toContain('devicechange');
    expect(result.current.devices).toEqual([]);
  });

  it('lists the audio inputs when asked, then follows devices that come and go', async () => {
    const media = install();
    media.devices.push({ deviceId: 'cam', kind: 'videoinput', label: 'Camera' });
    const { result } = renderHook(() => useMicrophones());
    await act(() => result.current.refresh());
    expect(result.current.devices).toEqual([{ deviceId: 'a', label: 'Built-in' }]);
    await waitFor(() => expect(media.added).toContain('devicechange'));

    media.devices.push({ deviceId: 'b', kind: 'audioinput', label: '' });
    act(() => {
      media.dispatchEvent(new Event('devicechange'));
    });
    await waitFor(() =>
      expect(result.current.devices).toEqual([
        { deviceId: 'a', label: 'Built-in' },
        { deviceId: 'b', label: 'Microphone 2' },
      ]),
    );
  });
});
