import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SPINNER_DELAY_MS } from '#web/components/ui/spinner';
import { ConnectionOverlays, ReconnectBanner } from './connection-overlays';

afterEach(() => {
  vi.useRealTimers();
});

describe('ConnectionOverlays', () => {
  it('says it is connecting at once, and turns a spinner only once the wait is long', () => {
    vi.useFakeTimers();
    const { container } = render(<ConnectionOverlays state="connecting" />);
    expect(screen.getByTestId('connecting-overlay').textContent).toContain('Connecting');
    expect(container.querySelector('.animate-spin')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(SPINNER_DELAY_MS - 1);
    });
    expect(container.querySelector('.animate-spin')).toBeNull();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(container.querySelector('.animate-spin')).not.toBeNull();
  });

  it('shows nothing once connected', () => {
    render(<ConnectionOverlays state="connected" />);
    expect(screen.queryByTestId('connecting-overlay')).toBeNull();
  });
});

describe('ReconnectBanner', () => {
  it('says one thing at a time: a thin line while retrying, Disconnected with the button once given up', () => {
    const onReconnect = vi.fn();
    const { rerender } = render(<ReconnectBanner state="reconnecting" onReconnect={onReconnect} />);
    expect(screen.getByTestId('reconnecting-banner').textContent).toBe('Reconnecting...');
    expect(screen.queryByTestId('reconnect-button')).toBeNull();
    rerender(<ReconnectBanner state="disconnected" onReconnect={onReconnect} />);
    expect(screen.queryByTestId('reconnecting-banner')).toBeNull();
    expect(screen.getByTestId('disconnected-banner').textContent).toContain('Disconnected.');
    screen.getByTestId('reconnect-button').click();
    expect(onReconnect).toHaveBeenCalledOnce();
    rerender(<ReconnectBanner state="ready" onReconnect={onReconnect} />);
    expect(screen.queryByTestId('disconnected-banner')).toBeNull();
  });
});
