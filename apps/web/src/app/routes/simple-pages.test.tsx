import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '#web/lib/i18n';
import { MemoryRouter } from '#web/lib/router';
import { ErrorPage } from './simple-pages';

/* /error, where a refused Google sign-in lands: the code in the page's language, else the message. */

const at = (entry: string) =>
  render(
    <MemoryRouter initialEntries={[entry]}>
      <ErrorPage />
    </MemoryRouter>,
  );

describe('the error page', () => {
  afterEach(() => setLanguage('en'));

  it("words a known code in the page's language, not the server's English", () => {
    setLanguage('ja');
    at('/error?message=This%20sign-in%20expired%20or%20was%20already%20used&code=sign_in_failed');
    expect(screen.getByRole('alert').textContent).toBe(
      'ログインが完了しませんでした。もう一度ログインしてください。',
    );
  });

  it('shows the message of an unknown code as given, and a default without one', () => {
    const { unmount } = at('/error?message=Something%20broke&code=nonsense');
    expect(screen.getByRole('alert').textContent).toBe('Something broke');
    unmount();
    at('/error');
    expect(screen.getByRole('alert').textContent).toBe('Unknown error occurred');
  });
});
