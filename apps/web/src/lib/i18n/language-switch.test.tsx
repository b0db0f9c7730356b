import { act, render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

/*
 * A fresh copy of the i18n modules for each test: the test setup loads the Japanese catalogue for every
 * other test, and here it must start where the app starts, with English only.
 */
async function freshI18n() {
  vi.resetModules();
  return {
    i18n: await import('./index'),
    catalogues: await import('./catalogues'),
  };
}

describe('a language switch', () => {
  beforeEach(() => {
    document.documentElement.lang = 'en';
  });

  it('loads the other catalogue, then re-renders in it', async () => {
    const { i18n, catalogues } = await freshI18n();
    expect(catalogues.catalogueOf('ja')).toBeUndefined();
    const renders: string[] = [];
    function Title() {
      const { t } = i18n.useI18n();
      const text = t('login.title');
      renders.push(text);
      return <h1>{text}</h1>;
    }
    render(<Title />);
    expect(screen.getByRole('heading').textContent).toBe('Welcome to XTalk');

    act(() => i18n.setLanguage('ja'));
    expect(await screen.findByText('XTalkへようこそ')).toBeTruthy();
    expect(catalogues.catalogueOf('ja')).toBeDefined();
    expect(i18n.getLanguage()).toBe('ja');
    expect(document.documentElement.lang).toBe('ja');
    expect(localStorage.getItem('lang')).toBe('ja');
    // never a Japanese key read from a catalogue that was not there: English, then Japanese
    expect(new Set(renders)).toEqual(new Set(['Welcome to XTalk', 'XTalkへようこそ']));

    act(() => i18n.setLanguage('en'));
    expect(screen.getByRole('heading').textContent).toBe('Welcome to XTalk');
  });

  it('keeps the language asked for last when a switch back comes before the catalogue', async () => {
    const { i18n, catalogues } = await freshI18n();
    i18n.setLanguage('ja');
    i18n.setLanguage('en');
    await catalogues.loadCatalogue('ja');
    expect(i18n.getLanguage()).toBe('en');
    expect(localStorage.getItem('lang')).not.toBe('ja');
  });

  it('translates into a language once its catalogue is loaded, into English before', async () => {
    const { i18n, catalogues } = await freshI18n();
    expect(i18n.translate('ja', 'common.close')).toBe('Close');
    await catalogues.loadCatalogue('ja');
    expect(i18n.translate('ja', 'common.close')).toBe('閉じる');
  });
});
