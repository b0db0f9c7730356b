import {
  Suspense,
  createContext,
  createElement,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  lazy,
  type AnchorHTMLAttributes,
  type ComponentType,
  type MouseEvent,
  type ReactNode,
} from 'react';

/*
 * A small router for a dozen flat routes (decision 0081): react-router was a large share of the first load for
 * what the app uses of it, which is the names below. Same names and semantics as react-router's, so a
 * component reads the same either way: useNavigate, useLocation, useSearchParams, useParams, Link,
 * Navigate, and MemoryRouter for tests.
 */

export interface RouterLocation {
  pathname: string;
  search: string;
  /** The history entry's state (navigate's or Link's `state`). */
  state: unknown;
}

export interface NavigateOptions {
  replace?: boolean;
  /** Kept in the history entry (history.state), as react-router's `state`. */
  state?: unknown;
}

type Navigator = (to: string, options?: NavigateOptions) => void;

interface RouterState {
  location: RouterLocation;
  navigate: Navigator;
  params: Record<string, string | undefined>;
}

const RouterContext = createContext<RouterState | null>(null);

function useRouter(): RouterState {
  const state = useContext(RouterContext);
  if (!state) throw new Error('Router hooks need a <BrowserRouter> or <MemoryRouter> above them.');
  return state;
}

function split(to: string, state: unknown = null): RouterLocation {
  const url = new URL(to, 'http://x');
  return { pathname: url.pathname, search: url.search, state };
}

// ------------------------------------------------------------------------------------- browser history

const listeners = new Set<() => void>();
const notify = () => {
  for (const listener of listeners) listener();
};
let snapshot: RouterLocation | undefined;

function browserLocation(): RouterLocation {
  const { pathname, search } = window.location;
  const state: unknown = window.history.state;
  if (!snapshot || snapshot.pathname !== pathname || snapshot.search !== search || snapshot.state !== state)
    snapshot = { pathname, search, state };
  return snapshot;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (listeners.size === 1) window.addEventListener('popstate', notify);
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) window.removeEventListener('popstate', notify);
  };
}

const browserNavigate: Navigator = (to, options) => {
  if (options?.replace) window.history.replaceState(options.state ?? null, '', to);
  else window.history.pushState(options?.state ?? null, '', to);
  notify();
};

export function BrowserRouter({ children }: { children: ReactNode }) {
  const location = useSyncExternalStore(subscribe, browserLocation, browserLocation);
  const value = useMemo(() => ({ location, navigate: browserNavigate, params: {} }), [location]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** Tests: the location lives in state. */
export function MemoryRouter({
  initialEntries = ['/'],
  children,
}: {
  initialEntries?: string[];
  children: ReactNode;
}) {
  const [location, setLocation] = useState(() => split(initialEntries.at(-1) ?? '/'));
  const value = useMemo(
    () => ({
      location,
      navigate: ((to, options) => setLocation(split(to, options?.state))) as Navigator,
      params: {},
    }),
    [location],
  );
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

// --------------------------------------------------------------------------------------------- hooks

export function useNavigate(): Navigator {
  return useRouter().navigate;
}

export function useLocation(): RouterLocation {
  return useRouter().location;
}

export function useSearchParams(): [URLSearchParams] {
  const { search } = useRouter().location;
  return [useMemo(() => new URLSearchParams(search), [search])];
}

export function useParams(): Record<string, string | undefined> {
  return useRouter().params;
}

export function Link({
  to,
  state,
  onClick,
  ...props
}: { to: string; state?: unknown } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const navigate = useNavigate();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0) return;
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || props.target) return;
    event.preventDefault();
    navigate(to, { state });
  };
  return <a href={to} onClick={follow} {...props} />;
}

export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

// -------------------------------------------------------------------------------------------- routes

export interface RouteDefinition {
  /** '/a/b', '/a/:name', '/a/:name?' or '*'. */
  path: string;
  element?: ReactNode;
  /** A screen loaded on demand (`lazyScreen`, made once at module level); `fallback` shows meanwhile. */
  lazy?: LazyScreen;
}

/** A screen whose code loads on demand: it suspends until its code is here, which `load` fetches ahead. */
export interface LazyScreen {
  (): ReactNode;
  load: () => Promise<unknown>;
}

/**
 * As React.lazy, but a screen whose code `load` has fetched renders at once. React.lazy suspends on its
 * first render even when its module is already here, and its boundary then commits the fallback and
 * waits out React's reveal throttle before showing the screen: for a page that came with the screen's
 * markup, that is the markup replaced by 'Loading...' and back.
 */
export function lazyScreen(importScreen: () => Promise<ComponentType>): LazyScreen {
  let screen: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const load = () => (loading ??= importScreen().then((loaded) => (screen = loaded)));
  const Suspending = lazy(async () => ({ default: await load() }));
  const Screen = () => createElement(screen ?? Suspending);
  return Object.assign(Screen, { load });
}

/** Fetches the code of the screen the first route matching `pathname` loads on demand, if any. */
export function loadScreenOf(routes: RouteDefinition[], pathname: string): Promise<unknown> {
  const route = routes.find((candidate) => matchPath(candidate.path, pathname));
  return route?.lazy?.load() ?? Promise.resolve();
}

/** The params of `path` in `pathname`, or undefined when it does not match. */
export function matchPath(path: string, pathname: string): Record<string, string | undefined> | undefined {
  if (path === '*') return {};
  const want = path.split('/').filter(Boolean);
  const have = pathname.split('/').filter(Boolean);
  const params: Record<string, string | undefined> = {};
  if (have.length > want.length) return undefined;
  for (let i = 0; i < want.length; i++) {
    const segment = want[i]!;
    const actual = have[i];
    if (segment.startsWith(':')) {
      const optional = segment.endsWith('?');
      const name = segment.slice(1, optional ? -1 : undefined);
      if (actual === undefined && !optional) return undefined;
      params[name] = actual === undefined ? undefined : decodeURIComponent(actual);
    } else if (segment !== actual) {
      return undefined;
    }
  }
  return params;
}

/** Renders the first route matching the location. */
export function Routes({ routes, fallback = null }: { routes: RouteDefinition[]; fallback?: ReactNode }) {
  const router = useRouter();
  const { pathname } = router.location;
  for (const route of routes) {
    const params = matchPath(route.path, pathname);
    if (!params) continue;
    return (
      <RouterContext.Provider value={{ ...router, params }}>
        {route.lazy ? <Suspense fallback={fallback}>{createElement(route.lazy)}</Suspense> : route.element}
      </RouterContext.Provider>
    );
  }
  return null;
}
