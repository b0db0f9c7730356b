import type { ServerFrame } from '@xtalk/protocol';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { useTypingIndicator } from '#web/features/chat/hooks/use-typing-indicator';
import { setLanguage } from '#web/lib/i18n';
import { toast } from '#web/lib/toast';
import { AppProviders } from '../providers';
import { useRoomFrames } from './use-room-frames';

const typing = { clear: () => undefined } as unknown as ReturnType<typeof useTypingIndicator>;

/** The room's frames as the page feeds them, under the app's real toaster. */
function roomFrames(): (frame: ServerFrame) => void {
  let onFrame: ((frame: ServerFrame) => void) | undefined;
  function Room() {
    onFrame = useRoomFrames(typing).onFrame;
    return null;
  }
  render(
    <AppProviders>
      <Room />
    </AppProviders>,
  );
  return (frame) => act(() => onFrame!(frame));
}

const refused = (clientId: string): ServerFrame => ({
  type: 'error',
  code: 'rate_limited',
  message: 'Too fast.',
  clientId,
});

const failed = (task: string): ServerFrame => ({
  type: 'error',
  code: 'notice',
  message: 'server words',
  notice: { kind: 'engine_failed', params: { task, language: 'ja', cause: 'unreachable' } },
});

const SAID_TOO_FAST = 'You are sending messages too fast. Wait a moment.';

afterEach(() => {
  act(() => setLanguage('en'));
  act(() => {
    toast.dismiss();
  });
});

describe("the room's toasts", () => {
  it('show one toast for the same refusal of several messages', async () => {
    const feed = roomFrames();
    feed(refused('a'));
    feed(refused('b'));
    feed(refused('c'));
    await screen.findByText(SAID_TOO_FAST);
    // the next toast is the proof that the three refusals have all reached the toaster
    act(() => void toast('after'));
    await screen.findByText('after');
    expect(screen.getAllByText(SAID_TOO_FAST)).toHaveLength(1);
  });

  it('reword the engine failures of one event after a language switch', async () => {
    const feed = roomFrames();
    feed(failed('translation'));
    feed(failed('speech'));
    expect(
      await screen.findByText(
        'The AI engine is unreachable. Translation into Japanese failed. The message is shown as written. Spoken translation into Japanese failed.',
      ),
    ).toBeTruthy();

    act(() => setLanguage('ja'));
    expect(
      await screen.findByText(
        'AIエンジンに接続できません。日本語への翻訳に失敗しました。メッセージは原文のまま表示されます。日本語の音声翻訳に失敗しました。',
      ),
    ).toBeTruthy();
  });
});
