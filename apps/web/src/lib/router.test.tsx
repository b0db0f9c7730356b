import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Link, MemoryRouter, Routes, matchPath, useLocation, useParams } from './router';

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
});
