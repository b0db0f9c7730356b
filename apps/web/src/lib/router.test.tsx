import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  Link,
  MemoryRouter,
  Routes,
  lazyScreen,
  loadScreenOf,
  matchPath,
  useLocation,
  useParams,
} from './router';

function Where() {
  const location = useLocation();
  const { token } = useParams();
  return <p data-testid="where">{`${location.pathname}${location.search}|${token ?? '-'}`}</p>;
}

describe('router', () => {
  it('matches fixed, optional and catch-all paths', () => {
    expect(matchPath('/translate', '/translate')).toEqual({});
    expect(matchPath('/translate', '/translate/npc')).toBeUndefined();
    expect(matchPath('/auth/:token?', '/auth')).toEqual({ token: undefined });
    expect(matchPath('/auth/:token?', '/auth/a%20b')).toEqual({ token: 'a b' });
    expect(matchPath('/auth/:token', '/auth')).toBeUndefined();
    expect(matchPath('*', '/anything/else')).toEqual({});
  });

  it('renders the first matching route with its params, and links navigate', () => {
    render(
      <MemoryRouter initialEntries={['/auth/abc?provider=ggl']}>
        <Routes
          routes={[
            { path: '/auth/:token?', element: <Where /> },
            {
              path: '*',
              element: (
                <>
                  <Where />
                  <Link to="/auth/xyz">go</Link>
                </>
              ),
            },
          ]}
        />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('where').textContent).toBe('/auth/abc?provider=ggl|abc');
  });

  it('follows a Link in place', () => {
    render(
      <MemoryRouter initialEntries={['/login']}>
        <Routes
          routes={[
            { path: '/signup', element: <Where /> },
            { path: '*', element: <Link to="/signup?x=1">sign up</Link> },
          ]}
        />
      </MemoryRouter>,
    );
    fireEvent.click(screen.getByText('sign up'));
    expect(screen.getByTestId('where').textContent).toBe('/signup?x=1|-');
  });

  it('renders a screen whose code was loaded ahead at once, with no fallback in between', async () => {
    const screenCode = lazyScreen(async () => Where);
    const routes = [{ path: '/guest-login', lazy: screenCode }];
    await loadScreenOf(routes, '/guest-login');
    render(
      <MemoryRouter initialEntries={['/guest-login']}>
        <Routes routes={routes} fallback={<p data-testid="fallback">Loading...</p>} />
      </MemoryRouter>,
    );
    // the first commit already holds the screen: the fallback was never shown
    expect(screen.getByTestId('where').textContent).toBe('/guest-login|-');
    expect(screen.queryByTestId('fallback')).toBeNull();
  });

  it('shows the fallback while a screen not loaded ahead loads, then the screen', async () => {
    const routes = [{ path: '*', lazy: lazyScreen(async () => Where) }];
    render(
      <MemoryRouter initialEntries={['/elsewhere']}>
        <Routes routes={routes} fallback={<p data-testid="fallback">Loading...</p>} />
      </MemoryRouter>,
    );
    expect(screen.getByTestId('fallback')).toBeDefined();
    expect((await screen.findByTestId('where')).textContent).toBe('/elsewhere|-');
  });
});
