import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setLanguage } from '#web/lib/i18n';
import type { ChatMessage } from '../utils/chat-items';
import { MessageItem } from './message-item';

const base: ChatMessage = {
  kind: 'message',
  id: 1000,
  username: 'bob',
  displayUsername: 'CalmPanda',
  message: 'おはようございます',
  language: 'ja',
  timestamp: 1000,
  translations: { en: 'Good morning' },
  partial: {},
  isTutorial: false,
  note: '"A polite morning greeting"',
};

describe('MessageItem', () => {
  it('marks a translation that failed into the listener language, with Try again for the author only', () => {
    const failed: ChatMessage = { ...base, translations: {}, failed: ['en'] };
    const { unmount } = render(<MessageItem message={failed} isMe={false} now={2000} listening="en" />);
    const mark = screen.getByRole('button', { name: 'Not translated' });
    expect(mark.title).toMatch(/translation engine failed/);
    fireEvent.click(mark);
    expect(screen.getByRole('note').textContent).toMatch(/shown as written/);
    expect(screen.queryByTestId('retranslate')).toBeNull();
    unmount();

    // another listener's language failed: nothing to mark for this one
    const other = render(<MessageItem message={failed} isMe={false} now={2000} listening="fr" />);
    expect(screen.queryByTestId('translation-failed')).toBeNull();
    other.unmount();

    const asked: number[] = [];
    render(
      <MessageItem
        message={{ ...failed, username: 'me' }}
        isMe
        now={2000}
        listening="ja"
        onRetranslate={(id) => asked.push(id)}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(asked).toEqual([1000]);
    // one ask per tap: the button waits for the outcome
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(asked).toEqual([1000]);
  });

  it('lets the author correct a message from the keyboard, and shows the edited mark', () => {
    const edits: Array<[number, string]> = [];
    const mine: ChatMessage = { ...base, username: 'me', editedAt: 1500 };
    render(
      <MessageItem
        message={mine}
        isMe
        now={2000}
        onEdit={(id, text) => {
          edits.push([id, text]);
          return true;
        }}
      />,
    );
    expect(screen.getByTestId('edited-mark').textContent).toBe('edited');
    fireEvent.click(screen.getByRole('button', { name: 'Edit your message' }));
    const field = screen.getByRole('textbox', { name: 'Edit your message' }) as HTMLTextAreaElement;
    expect(document.activeElement).toBe(field);
    // Escape leaves it as it was
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(screen.queryByTestId('message-editor')).toBeNull();
    expect(edits).toEqual([]);
    fireEvent.click(screen.getByTestId('edit-button'));
    fireEvent.change(screen.getByTestId('edit-input'), { target: { value: ' おはよう！ ' } });
    fireEvent.keyDown(screen.getByTestId('edit-input'), { key: 'Enter' });
    expect(edits).toEqual([[1000, 'おはよう！']]);
    expect(screen.queryByTestId('message-editor')).toBeNull();
  });

  it('offers no Edit without onEdit (others’ messages, or the window closed)', () => {
    render(<MessageItem message={base} isMe={false} now={2000} />);
    expect(screen.queryByTestId('edit-button')).toBeNull();
    expect(screen.queryByTestId('edited-mark')).toBeNull();
  });

  it('shows the translation above the original', () => {
    render(<MessageItem message={base} isMe={false} now={2000} />);
    const translation = screen.getByTestId('translation');
    const original = screen.getByTestId('original');
    expect(translation.textContent).toBe('Good morning');
    expect(translation.dataset.lang).toBe('en');
    expect(original.textContent).toBe('おはようございます');
    // DOCUMENT_POSITION_FOLLOWING: the original comes after the translation.
    expect(translation.compareDocumentPosition(original) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByText('CalmPanda')).toBeTruthy();
    expect(screen.getByText('Just now')).toBeTruthy();
  });

  it('offers a Hint on others’ messages with a note, revealing it without quotes', () => {
    render(<MessageItem message={base} isMe={false} now={2000} />);
    expect(screen.queryByTestId('note')).toBeNull();
    fireEvent.click(screen.getByTestId('hint-toggle'));
    expect(screen.getByTestId('note').textContent).toBe('A polite morning greeting');
  });

  it('has no Hint on my own messages, and marks them (You)', () => {
    render(<MessageItem message={base} isMe now={2000} />);
    expect(screen.queryByTestId('hint-toggle')).toBeNull();
    expect(screen.getByText('(You)')).toBeTruthy();
  });

  it('has no Hint when the note has not arrived (yet)', () => {
    render(<MessageItem message={{ ...base, note: undefined }} isMe={false} now={2000} />);
    expect(screen.queryByTestId('hint-toggle')).toBeNull();
  });

  it('shows a streaming translation as it grows', () => {
    render(
      <MessageItem
        message={{ ...base, translations: {}, partial: { en: 'Good mor' } }}
        isMe={false}
        now={2000}
      />,
    );
    const translation = screen.getByTestId('translation');
    expect(translation.textContent).toContain('Good mor');
    expect(translation.dataset.complete).toBeUndefined();
  });

  it('isolates bidi controls in the name and the texts', () => {
    const rlo = '\u202E';
    render(
      <MessageItem
        message={{ ...base, displayUsername: `${rlo}evil`, message: `${rlo}gnp.exe`, translations: {} }}
        isMe={false}
        now={2000}
      />,
    );
    const author = screen.getByTestId('author');
    expect(author.tagName).toBe('BDI');
    expect(author.textContent).toBe(`${rlo}evil`);
    expect(screen.getByTestId('original').getAttribute('dir')).toBe('auto');
  });

  it('shows a deleted author as a deleted user, with no name and no avatar, in the interface language', () => {
    const gone: ChatMessage = { ...base, username: '', displayUsername: 'deleted user', authorDeleted: true };
    const { unmount } = render(<MessageItem message={gone} isMe={false} now={2000} listening="en" />);
    expect(screen.getByTestId('author').textContent).toBe('deleted user');
    expect(screen.getByTestId('deleted-avatar').textContent).toBe('');
    unmount();
    act(() => setLanguage('ja'));
    render(<MessageItem message={gone} isMe={false} now={2000} listening="en" />);
    expect(screen.getByTestId('author').textContent).toBe('削除されたユーザー');
    act(() => setLanguage('en'));
  });
});
