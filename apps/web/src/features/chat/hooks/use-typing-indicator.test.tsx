import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useTypingIndicator } from './use-typing-indicator';

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('useTypingIndicator', () => {
  it('is set after sending and clears itself after 5 s', () => {
    const { result } = renderHook(() => useTypingIndicator());
    expect(result.current.isTyping).toBe(false);
    act(() => result.current.start());
    expect(result.current.isTyping).toBe(true);
    act(() => {
      vi.advanceTimersByTime(4999);
    });
    expect(result.current.isTyping).toBe(true);
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(result.current.isTyping).toBe(false);
  });

  it('clears at once on an incoming message', () => {
    const { result } = renderHook(() => useTypingIndicator());
    act(() => result.current.start());
    act(() => result.current.clear());
    expect(result.current.isTyping).toBe(false);
  });

  it('restarts the 5 s on a second send', () => {
    const { result } = renderHook(() => useTypingIndicator());
    act(() => result.current.start());
    act(() => {
      vi.advanceTimersByTime(4000);
    });
    act(() => result.current.start());
    act(() => {
      vi.advanceTimersByTime(4000);
    });
    expect(result.current.isTyping).toBe(true);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(result.current.isTyping).toBe(false);
  });
});
