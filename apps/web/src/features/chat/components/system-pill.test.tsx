import { render, screen } from '@testing-library/react';
import type { ServerFrame } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '#web/lib/i18n';
import { initialChatState } from '../utils/chat-items';
import { toDisplayItems } from '../utils/display-items';
import { chatReducer } from '../utils/messages-reducer';
import { SystemPill } from './system-pill';

/** The pills a member named `me` sees after these frames, newest first, as the list renders them. */
function pillsAfter(frames: ServerFrame[]): string[] {
  const state = frames.reduce((s, frame) => chatReducer(s, { type: 'frame', frame }), initialChatState);
  const items = toDisplayItems(state.items, 'me').flatMap((item) => (item.kind === 'system' ? [item] : []));
  const { container, unmount } = render(
    <>
      {items.map((item) => (
        <SystemPill key={item.id} {...item} />
      ))}
    </>,
  );
  const texts = [...container.querySelectorAll('[data-testid=system-pill]')].map((pill) => pill.textContent!);
  unmount();
  return texts;
}

describe('SystemPill', () => {
  it('reads naturally for one, two and three people', () => {
    setLanguage('en');
    const { rerender } = render(<SystemPill event="JOIN" names={['BraveOtter']} />);
    expect(screen.getByTestId('system-pill').textContent).toBe('BraveOtter has joined the chat');
    rerender(<SystemPill event="JOIN" names={['BraveOtter', 'CalmPanda']} />);
    expect(screen.getByTestId('system-pill').textContent).toBe(
      'BraveOtter and CalmPanda have joined the chat',
    );
    rerender(<SystemPill event="LEAVE" names={['A', 'B', 'C']} />);
    expect(screen.getByTestId('system-pill').textContent).toBe('A, B and C have left the chat');
  });

  it('spells out three names and counts the rest, all of them in its title', () => {
    setLanguage('en');
    const names = Array.from({ length: 250 }, (_, i) => `Person${i}`);
    const { rerender } = render(<SystemPill event="JOIN" names={names} />);
    const pill = screen.getByTestId('system-pill');
    expect(pill.textContent).toBe('Person0, Person1, Person2 and 247 others have joined the chat');
    expect(pill.getAttribute('title')).toBe(names.join(', '));
    rerender(<SystemPill event="LEAVE" names={names.slice(0, 5)} />);
    expect(pill.textContent).toBe('Person0, Person1, Person2 and 2 others have left the chat');
    // four are named rather than 'and 1 other'
    rerender(<SystemPill event="JOIN" names={names.slice(0, 4)} />);
    expect(pill.textContent).toBe('Person0, Person1, Person2 and Person3 have joined the chat');
    expect(pill.getAttribute('title')).toBeNull();
    setLanguage('ja');
    rerender(<SystemPill event="JOIN" names={names.slice(0, 30)} />);
    expect(pill.textContent).toBe('Person0、Person1、Person2さんほか27人がチャットに参加しました');
    setLanguage('en');
  });

  it('speaks Japanese when the interface does', () => {
    setLanguage('ja');
    render(<SystemPill event="JOIN" names={['BraveOtter', 'CalmPanda']} />);
    expect(screen.getByTestId('system-pill').textContent).toBe(
      'BraveOtter、CalmPandaさんがチャットに参加しました',
    );
    setLanguage('en');
  });

  it('names arrivals in a small room and counts a hot one (protocol 7)', () => {
    setLanguage('en');
    const join = (timestamp: number, username: string, members: number): ServerFrame => ({
      type: 'system',
      message: 'JOIN',
      timestamp,
      username,
      displayUsername: username.toUpperCase(),
      members,
    });
    expect(pillsAfter([join(1, 'ann', 2), join(2, 'bob', 3)])).toEqual(['ANN and BOB have joined the chat']);

    const hot: ServerFrame[] = [
      // what a joiner of a hot room is sent first: the count alone
      { type: 'system', message: 'MEMBERS', timestamp: 3, members: 9500, joined: 0, left: 0 },
      {
        type: 'system',
        message: 'MEMBERS',
        timestamp: 4,
        members: 10_000,
        joined: 502,
        left: 2,
        usernames: ['me', 'x1', 'x2'],
        displayUsernames: ['Me', 'X1', 'X2'],
      },
      { type: 'system', message: 'MEMBERS', timestamp: 5, members: 10_004, joined: 4, left: 0 },
    ];
    expect(pillsAfter(hot)).toEqual([
      '4 people have joined the chat · 10,004 people in the room',
      'X1, X2 and 499 others have joined the chat · 10,000 people in the room',
      '9,500 people in the room',
    ]);
    setLanguage('ja');
    expect(pillsAfter(hot.slice(1, 2))).toEqual([
      'X1、X2さんほか499人がチャットに参加しました · ルームには10,000人います',
    ]);
    setLanguage('en');
  });
});
