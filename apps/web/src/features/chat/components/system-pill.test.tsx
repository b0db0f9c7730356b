import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '../../../lib/i18n';
import { SystemPill } from './system-pill';

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
});
