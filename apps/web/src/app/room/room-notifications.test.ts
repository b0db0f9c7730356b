import type { MessageFrame, ServerFrame } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import { initialChatState, type ChatState } from '#web/features/chat/utils/chat-items';
import { chatReducer } from '#web/features/chat/utils/messages-reducer';
import { NotificationLedger } from '#web/features/notifications/utils/notification-ledger';
import { messageNotification } from '#web/features/notifications/utils/notify-rules';

const ready: ServerFrame = {
  type: 'system',
  message: 'READY',
  roomId: 'ABC2345',
  timestamp: 1,
} as ServerFrame;
const frame = (id: number, username = 'alice', text = `hello ${id}`): MessageFrame => ({
  type: 'message',
  id,
  timestamp: id,
  username,
  displayUsername: username === 'alice' ? 'Alice' : 'Bob',
  message: text,
  language: 'en',
  translations: {},
  isTutorial: false,
});

/** The room as the page runs it: each frame to the ledger, then to the chat list. */
function room(hidden = true) {
  const ledger = new NotificationLedger();
  let chat: ChatState = initialChatState;
  const state = { hidden };
  const feed = (...frames: ServerFrame[]) => {
    for (const f of frames) {
      ledger.onFrame(f, { hidden: state.hidden, me: 'bob' });
      chat = chatReducer(chat, { type: 'frame', frame: f });
    }
  };
  const due = () =>
    ledger.due(chat.items, (message, roomId) =>
      messageNotification(message, { roomId, listening: 'ja', title: (name, r) => `${name} @ ${r}` }),
    );
  return { ledger, feed, due, state };
}

/* The notification ledger over the room's real chat list: what notifies as frames arrive. */
describe('the notification ledger', () => {
  it('notifies a live message from someone else while hidden, tagged by its room and id', () => {
    const r = room();
    r.feed(ready, frame(10));
    expect(r.due()).toEqual([
      { notification: { tag: 'xtalk-ABC2345-10', title: 'Alice @ ABC2345', body: 'hello 10' }, first: true },
    ]);
    // nothing changed: nothing to show again
    expect(r.due()).toEqual([]);
  });

  it('never notifies the history a join replays before READY, nor one’s own message', () => {
    const r = room();
    r.feed(frame(5), frame(6), ready, frame(7, 'bob'));
    expect(r.due()).toEqual([]);
    expect(r.ledger.pending).toBe(false);
  });

  it('never notifies a message that came while the page was seen, nor its later copy', () => {
    const r = room(false);
    r.feed(ready, frame(10));
    r.state.hidden = true;
    r.feed(frame(10));
    expect(r.due()).toEqual([]);
  });

  it('shows the translation, then a correction, under the same tag, as replacements', () => {
    const r = room();
    r.feed(ready, frame(10));
    expect(r.due()).toHaveLength(1);
    r.feed({
      type: 'translationChunk',
      originalTimestamp: 10,
      targetLanguage: 'ja',
      chunk: '[ja] hel',
    } as ServerFrame);
    // a translation still streaming changes nothing shown
    expect(r.due()).toEqual([]);
    r.feed({
      type: 'translationComplete',
      originalTimestamp: 10,
      targetLanguage: 'ja',
      fullText: '[ja] hello 10',
    } as ServerFrame);
    expect(r.due()).toEqual([
      {
        notification: { tag: 'xtalk-ABC2345-10', title: 'Alice @ ABC2345', body: '[ja] hello 10' },
        first: false,
      },
    ]);
    r.feed({ type: 'messageEdited', id: 10, message: 'hello again', editedAt: 20 } as ServerFrame);
    expect(r.due().map((d) => [d.notification.tag, d.notification.body, d.first])).toEqual([
      ['xtalk-ABC2345-10', 'hello again', false],
    ]);
  });

  it('forgets what it showed once the page is seen, and history again after a new session', () => {
    const r = room();
    r.feed(ready, frame(10));
    r.ledger.seen();
    r.feed({
      type: 'translationComplete',
      originalTimestamp: 10,
      targetLanguage: 'ja',
      fullText: 'x',
    } as ServerFrame);
    expect(r.due()).toEqual([]);
    r.ledger.newSession();
    r.feed(frame(11));
    expect(r.due()).toEqual([]);
    r.feed(ready, frame(12));
    expect(r.due().map((d) => d.notification.tag)).toEqual(['xtalk-ABC2345-12']);
  });
});
