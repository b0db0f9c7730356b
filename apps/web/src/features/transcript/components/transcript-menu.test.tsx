import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '#web/lib/i18n';
import type { TranscriptItem } from '../utils/transcript';
import { toastSaying } from '#web/test/toast-said';
import { TranscriptMenu } from './transcript-menu';

// The web's files share their worker's modules (vitest.config.ts): this file's mocks must reach the
// modules it imports, and must not reach the next file's, so it starts and ends with a fresh graph.
vi.hoisted(() => vi.resetModules());
afterAll(() => {
  vi.doUnmock('sonner');
  vi.doUnmock('#web/lib/clipboard');
  vi.resetModules();
});
const toast = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('sonner', () => ({ toast }));
const clipboard = vi.hoisted(() => ({ copyText: vi.fn<(text: string) => Promise<void>>() }));
vi.mock('#web/lib/clipboard', () => ({
  COPY_REFUSED: 'Copy command was unsuccessful.',
  copyText: clipboard.copyText,
}));

const items: TranscriptItem[] = [
  {
    kind: 'message',
    timestamp: Date.UTC(2026, 4, 4, 12, 0),
    displayUsername: 'BraveOtter',
    message: 'Hello',
    language: 'en',
    translations: { ja: 'こんにちは' },
  },
];
const link = 'http://localhost/translate?r=ABC2345';

async function openMenu() {
  render(<TranscriptMenu roomId="ABC2345" items={items} link={link} />);
  // Radix's menu replaces the light trigger once the pointer comes over it (components/ui/menu.tsx)
  fireEvent.pointerEnter(screen.getByTestId('transcript-menu'));
  await waitFor(
    () => expect(screen.getByTestId('transcript-menu').hasAttribute('data-light-trigger')).toBe(false),
    { timeout: 10_000 },
  );
  // Radix opens its menu on pointer-down or Enter, not on click
  fireEvent.keyDown(screen.getByTestId('transcript-menu'), { key: 'Enter' });
}

beforeEach(() => setLanguage('en'));
afterEach(() => {
  vi.clearAllMocks();
  vi.restoreAllMocks();
});

describe('TranscriptMenu', () => {
  it('opens at once when its trigger is clicked before Radix’s menu has replaced it', async () => {
    render(<TranscriptMenu roomId="ABC2345" items={items} link={link} />);
    const trigger = screen.getByTestId('transcript-menu');
    expect(trigger.hasAttribute('data-light-trigger')).toBe(true);
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(trigger);
    // the menu's module loads on this first use: on a busy machine that can take a while
    const copy = await screen.findByTestId('transcript-copy', {}, { timeout: 10_000 });
    expect(copy.textContent).toBe('Copy Chat to Clipboard');
    expect(screen.getByTestId('transcript-menu').getAttribute('aria-expanded')).toBe('true');
  });

  it('offers the three exports', async () => {
    await openMenu();
    expect(screen.getByTestId('transcript-copy').textContent).toBe('Copy Chat to Clipboard');
    expect(screen.getByTestId('transcript-email').textContent).toBe('Send via Email');
    expect(screen.getByTestId('transcript-download').textContent).toBe('Download as Markdown');
  });

  it('copies the markdown and says so', async () => {
    clipboard.copyText.mockResolvedValue();
    await openMenu();
    fireEvent.click(screen.getByTestId('transcript-copy'));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(
        toastSaying('Chat transcript has been copied to clipboard!'),
      ),
    );
    const text = clipboard.copyText.mock.calls[0]![0];
    expect(text).toMatch(/^# Transcript for XTalk Chat\n/);
    expect(text).toContain(`[Open Chat](${link})`);
    expect(text).toContain('BraveOtter: "Hello" → JA: "こんにちは"');
  });

  it('reports a refused fallback copy in the fixed wording', async () => {
    clipboard.copyText.mockRejectedValue(new Error('Copy command was unsuccessful.'));
    await openMenu();
    fireEvent.click(screen.getByTestId('transcript-copy'));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(toastSaying('Copy command was unsuccessful.')),
    );
  });

  it('downloads xtalk-{room}-{timestamp}.md as utf-8 markdown', async () => {
    let blob: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((object) => {
      blob = object as Blob;
      return 'blob:transcript';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    const clicked: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this);
    });
    vi.spyOn(Date, 'now').mockReturnValue(1_777_000_000_000);
    await openMenu();
    fireEvent.click(screen.getByTestId('transcript-download'));
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.download).toBe('xtalk-ABC2345-1777000000000.md');
    expect(blob?.type).toBe('text/markdown;charset=utf-8');
    expect(await blob!.text()).toContain('# Transcript for XTalk Chat');
  });

  it('hands a mailto: with subject and body to the mail client', async () => {
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    await openMenu();
    fireEvent.click(screen.getByTestId('transcript-email'));
    expect(clicked).toHaveLength(1);
    const href = clicked[0]!;
    expect(href.startsWith('mailto:?subject=')).toBe(true);
    const params = new URLSearchParams(href.slice('mailto:'.length));
    expect(params.get('subject')).toBe('XTalk chat transcript (room ABC2345)');
    expect(params.get('body')).toContain('# Transcript for XTalk Chat\r\n');
  });
});
