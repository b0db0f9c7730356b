import { afterEach, describe, expect, it, vi } from 'vitest';
import page from '../../index.html?raw';
import { applyTheme } from './theme';

/*
 * index.html's inline script applies the stored theme before the body is parsed, and the app applies it
 * again when it starts: both must come to the same class and the same bar colour, or the page changes
 * scheme under the reader when the app starts.
 */

const inlineScript = /<script>([\s\S]*?)<\/script>/.exec(page)![1]!;
const HEAD =
  '<meta name="theme-color" media="(prefers-color-scheme: light)" content="#fff">' +
  '<meta name="theme-color" media="(prefers-color-scheme: dark)" content="#0f172a">';

/** The classes and bar colours `apply` leaves, from a fresh document. */
function applied(apply: () => void) {
  document.head.innerHTML = HEAD;
  document.documentElement.className = '';
  apply();
  return {
    classes: [...document.documentElement.classList],
    colours: [...document.querySelectorAll('meta')].map((meta) => meta.getAttribute('content')),
  };
}

describe("the page's theme before the app starts", () => {
  afterEach(() => {
    document.head.innerHTML = '';
    document.documentElement.className = '';
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it.each([
    ['dark', 'light'],
    ['light', 'dark'],
    ['system', 'dark'],
    ['system', 'light'],
    [undefined, 'dark'],
    ['nonsense', 'light'],
  ] as const)('is the app’s for a stored %s on a %s system', (stored, system) => {
    if (stored !== undefined) localStorage.setItem('ui-theme', stored);
    const matchMedia = (query: string) => ({ matches: query === `(prefers-color-scheme: ${system})` });
    vi.stubGlobal('matchMedia', matchMedia);
    const before = applied(() => new Function(inlineScript)());
    expect(before.classes).toHaveLength(1);
    expect(before).toEqual(applied(() => applyTheme()));
  });

  it('leaves the page to the stylesheet when storage cannot be read', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('denied');
      },
    });
    expect(applied(() => new Function(inlineScript)())).toEqual({
      classes: [],
      colours: ['#fff', '#0f172a'],
    });
  });
});
