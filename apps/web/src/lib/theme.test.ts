import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyTheme, setTheme } from './theme';

/*
 * index.html carries two theme-color tags, one per system scheme; a theme chosen in the app sets both to
 * its header colour, so the browser's bar matches the page whatever the system says.
 */

const colours = () =>
  [...document.querySelectorAll('meta[name="theme-color"]')].map((meta) => meta.getAttribute('content'));

describe('the browser bar colour', () => {
  beforeEach(() => {
    document.head.innerHTML =
      '<meta name="theme-color" media="(prefers-color-scheme: light)" content="#fff">' +
      '<meta name="theme-color" media="(prefers-color-scheme: dark)" content="#0f172a">';
  });
  afterEach(() => {
    document.head.innerHTML = '';
    document.documentElement.className = '';
  });

  it('follows a theme chosen in the app, for either system scheme', () => {
    setTheme('dark');
    expect(colours()).toEqual(['#0f172a', '#0f172a']);
    expect([...document.documentElement.classList]).toEqual(['dark']);
    setTheme('light');
    expect(colours()).toEqual(['#fff', '#fff']);
    expect([...document.documentElement.classList]).toEqual(['light']);
  });

  it('takes the stored theme at start', () => {
    localStorage.setItem('ui-theme', 'dark');
    applyTheme();
    expect(colours()).toEqual(['#0f172a', '#0f172a']);
  });
});
