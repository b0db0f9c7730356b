import { CloseCode, PROTOCOL_VERSION } from '@xtalk/protocol';
import { act, renderHook, waitFor } from '@testing-library/react';
import { toast } from 'sonner';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore } from '#web/lib/auth-session';
import { setLanguage } from '#web/lib/i18n';
import { FakeSocket, last } from '#web/test/fake-room-socket';
import { testUser } from '#web/test/fixtures';
import { toastSaying } from '#web/test/toast-said';
import { useRoomConnection } from './use-room-connection';
import { READY_TOAST } from './use-room-socket';

// The web's files share their worker's modules (vitest.config.ts): this file's mocks must reach the
// modules it imports, and must not reach the next file's, so it starts and ends with a fresh graph.
vi.hoisted(() => vi.resetModules());
afterAll(() => {
  vi.doUnmock('sonner');
  vi.resetModules();
});
vi.mock('sonner', () => ({
  toast: Object.assign(vi.fn(), { success: vi.fn(), error: vi.fn(), dismiss: vi.fn() }),
}));

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
    onSignedOut: vi.fn(),
    onJoinFailed: vi.fn(),
    createSocket: vi.fn(),
  };
}

/** Every request (the join, POST /xtalk) gets `body` back with `status`. */
function answerJoinsWith(body: unknown, status = 200) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify(body), { status })),
  );
}

/** The last socket opens and its room says READY (with `extra` fields). */
function openAndReady(extra: { clientIdRequired?: boolean } = {}) {
  act(() => {
    last().open();
    last().receive({
      type: 'system',
      message: 'READY',
      timestamp: 1,
      roomId: 'ABC2345',
      protocolVersion: PROTOCOL_VERSION,
      ...extra,
    });
  });
}

beforeEach(() => {
  setLanguage('en');
  authStore.reset();
});
afterEach(() => vi.unstubAllGlobals());

describe('useRoomConnection without a user', () => {
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

describe("useRoomConnection's 'Ready!' toast", () => {
  it('says it on every READY, the first join included, and takes it away when lost', async () => {
    authStore.set({ token: 'tok', user: testUser() });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {}); // the dropped socket's error
    const session = { sessionId: 's1', roomId: 'ABC2345', protocolVersion: PROTOCOL_VERSION };
    answerJoinsWith(session);
    FakeSocket.all = [];
    const props = { ...options(), createSocket: (url: string) => new FakeSocket(url) };
    const { result, unmount } = renderHook(() => useRoomConnection(props));
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    vi.mocked(toast.dismiss).mockClear(); // the tests before unmounted their room screens
    vi.mocked(toast.success).mockClear();
    const saidReady = () =>
      waitFor(() =>
        expect(toast.success).toHaveBeenCalledWith(toastSaying('Ready!'), {
          id: READY_TOAST,
          duration: 1500,
        }),
      );
    // the first join
    openAndReady();
    expect(result.current.state).toBe('ready');
    await saidReady();
    expect(toast.dismiss).not.toHaveBeenCalled();

    act(() => last().drop(1006));
    expect(result.current.state).toBe('reconnecting');
    expect(toast.dismiss).toHaveBeenCalledWith(READY_TOAST);
    vi.mocked(toast.dismiss).mockClear();
    vi.mocked(toast.success).mockClear();
    await waitFor(() => expect(FakeSocket.all).toHaveLength(2), { timeout: 3000 });
    openAndReady();
    expect(result.current.state).toBe('ready');
    await saidReady();
    expect(toast.dismiss).not.toHaveBeenCalled();

    // a connection lost before the frame that shows it: no 'Ready!' over the reconnecting line
    vi.mocked(toast.success).mockClear();
    act(() => last().drop(1006));
    await waitFor(() => expect(FakeSocket.all).toHaveLength(3), { timeout: 3000 });
    openAndReady();
    act(() => last().drop(1006));
    await waitFor(() => expect(FakeSocket.all).toHaveLength(4), { timeout: 3000 });
    openAndReady();
    await saidReady();
    expect(toast.success).toHaveBeenCalledTimes(1);

    // and when the room screen goes (to the login page, say)
    unmount();
    expect(toast.dismiss).toHaveBeenCalledWith(READY_TOAST);
    authStore.clear();
    warn.mockRestore();
  });
});

describe('useRoomConnection signed out on the server', () => {
  it('stops on SignedOut: no reconnect, the page signs the person out', async () => {
    authStore.set({ token: 'tok', user: testUser() });
    answerJoinsWith({ sessionId: 's1', roomId: 'ABC2345', protocolVersion: PROTOCOL_VERSION });
    FakeSocket.all = [];
    const props = { ...options(), createSocket: (url: string) => new FakeSocket(url) };
    const { result, unmount } = renderHook(() => useRoomConnection(props));
    await waitFor(() => expect(FakeSocket.all).toHaveLength(1));
    openAndReady();
    act(() => last().drop(CloseCode.SignedOut, 'You are signed out.'));
    expect(props.onSignedOut).toHaveBeenCalledTimes(1);
    expect(props.onUnauthorized).not.toHaveBeenCalled();
    // idle: nothing is scheduled, so no session is asked for again
    expect(result.current.state).toBe('idle');
    expect(fetch).toHaveBeenCalledTimes(1);
    unmount();
    authStore.clear();
  });
});

describe("useRoomConnection's outbox without a room", () => {
  it('keeps nothing for a room that does not exist, and says so', async () => {
    authStore.set({ token: 'tok', user: testUser() });
    const notFound = {
      statusCode: 404,
      error: 'Not Found',
      message: 'No such room.',
      code: 'room_not_found',
    };
    answerJoinsWith(notFound, 404);
    const props = { ...options(), routeRoom: 'ZZZZZZ9' };
    const { result } = renderHook(() => useRoomConnection(props));
    await waitFor(() => expect(props.onJoinFailed).toHaveBeenCalledTimes(1));
    expect(result.current.state).toBe('idle');
    vi.mocked(toast.error).mockClear();

    let sent = true;
    act(() => {
      sent = result.current.sendChat('Is anyone here?');
    });
    // refused (the composer keeps the text) rather than kept for a socket that will never open
    expect(sent).toBe(false);
    expect(toast.error).toHaveBeenCalledWith(toastSaying('Not connected.'), { duration: 2000 });
    expect(localStorage.getItem('outbox') ?? '[]').not.toContain('Is anyone here?');
    authStore.clear();
  });
});

describe('every chat and voice frame the room sends carries its client id (protocol 7)', () => {
  it('sends a clientId with a chat, its resend after a drop, a voice clip and a clipId with a stream', async () => {
    authStore.set({ token: 'tok', user: testUser() });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {}); // the dropped socket's error
    answerJoinsWith({ sessionId: 's1', roomId: 'ABC2345', protocolVersion: PROTOCOL_VERSION });
    FakeSocket.all = [];
    const props = { ...options(), createSocket: (url: string) => new FakeSocket(url) };
    const { result, unmount } = renderHook(() => useRoomConnection(props));
    const ready = async (count: number) => {
      await waitFor(() => expect(FakeSocket.all).toHaveLength(count));
      openAndReady({ clientIdRequired: true });
      await waitFor(() => expect(result.current.state).toBe('ready'));
    };
    await ready(1);
    act(() => {
      result.current.sendChat('hello');
      result.current.sendAudio(new Uint8Array([1, 2, 3]));
      result.current.openVoiceStream();
    });
    // the chat is not acknowledged: after a drop the outbox sends it again on the next socket
    act(() => last().drop(1006));
    await ready(2);
    const frames = FakeSocket.all
      .flatMap((socket) => socket.sent)
      .filter((data) => typeof data === 'string' && data.startsWith('{')) // not the clip's bytes
      .map((data) => JSON.parse(data) as { type: string; clientId?: string; clipId?: string });
    const chats = frames.filter((frame) => frame.type === 'chat');
    expect(chats).toHaveLength(2);
    expect(chats.every((frame) => typeof frame.clientId === 'string' && frame.clientId.length > 0)).toBe(
      true,
    );
    expect(chats[1]!.clientId).toBe(chats[0]!.clientId);
    expect(frames.find((frame) => frame.type === 'voiceClip')?.clientId).toMatch(/.+/);
    expect(frames.find((frame) => frame.type === 'voiceStart')?.clipId).toMatch(/.+/);
    unmount();
    authStore.clear();
    warn.mockRestore();
  });
});
