import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SPINNER_DELAY_MS } from '../../../components/ui/spinner';
import { ConnectionOverlays } from './connection-overlays';

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
