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

  it('speaks Japanese when the interface does', () => {
    setLanguage('ja');
    render(<SystemPill event="JOIN" names={['BraveOtter', 'CalmPanda']} />);
    expect(screen.getByTestId('system-pill').textContent).toBe(
      'BraveOtter、CalmPandaさんがチャットに参加しました',
    );
    setLanguage('en');
  });
});
