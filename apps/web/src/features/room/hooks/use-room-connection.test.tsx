import { renderHook, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '../../../lib/auth-session';
import { setLanguage } from '../../../lib/i18n';
import { testUser } from '../../../test/fixtures';
import { useRoomConnection } from './use-room-connection';

vi.mock('sonner', () => ({ toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn() }) }));

function options() {
  return {
    routeRoom: 'ABC2345',
    token: 'tok',
    username: 'g_abc',
    onFrame: vi.fn(),
    onBinary: vi.fn(),
    onNewSession: vi.fn(),
    onRoom: vi.fn(),
    onUnauthorized: vi.fn(),
    onJoinFailed: vi.fn(),
    createSocket: vi.fn(),
  };
}

beforeEach(() => {
  setLanguage('en');
  authStore.reset();
});
afterEach(() => vi.unstubAllGlobals());

describe('useRoomConnection without a user (spec section 5)', () => {
  it("alerts 'Not logged in', asks for no session and sends the visitor to log in", async () => {
    const alert = vi.fn();
    const fetch = vi.fn();
    vi.stubGlobal('alert', alert);
    vi.stubGlobal('fetch', fetch);
    const props = options();
    const { result } = renderHook(() => useRoomConnection(props));
    await waitFor(() => expect(props.onUnauthorized).toHaveBeenCalledTimes(1));
    expect(alert).toHaveBeenCalledWith('Not logged in');
    expect(alert).toHaveBeenCalledTimes(1);
    expect(fetch).not.toHaveBeenCalled();
    expect(props.createSocket).not.toHaveBeenCalled();
    expect(result.current.state).toBe('idle');
  });

  it('asks for a session without any alert when someone is logged in', async () => {
    authStore.set({ token: 'tok', user: testUser() });
    const alert = vi.fn();
    const fetch = vi.fn(() => new Promise<Response>(() => {}));
    vi.stubGlobal('alert', alert);
    vi.stubGlobal('fetch', fetch);
    const props = options();
    renderHook(() => useRoomConnection(props));
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(alert).not.toHaveBeenCalled();
    authStore.clear();
  });
});
