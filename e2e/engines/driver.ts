/*
 * The few things a cross-engine flow asks of a browser, so that the flows are written once and each engine
 * runs the same steps: Chromium through playwright-core, Firefox ESR over WebDriver BiDi (puppeteer-core),
 * WebKitGTK over classic WebDriver (the `webdriver` client). Everything a flow reads of the page it reads
 * by running a function in it, so no engine's own locator semantics leak into a flow.
 */

export type EngineName = 'chromium' | 'firefox' | 'webkit';

export interface Viewport {
  width: number;
  height: number;
}

/** A function run in the page with one serialisable argument. */
export type PageFunction<A, R> = (arg: A) => R | Promise<R>;

/** One person's page in one engine: a context (or browser) of its own, so storage is theirs alone. */
export interface EnginePage {
  readonly engine: EngineName;
  /** The origin this person opens, e.g. `http://127.0.0.1:PORT`; `goto` paths are relative to it. */
  readonly baseUrl: string;
  goto(path: string): Promise<void>;
  reload(): Promise<void>;
  url(): Promise<string>;
  evaluate<A, R>(fn: PageFunction<A, R>, arg: A): Promise<R>;
  /** Runs a script's text in the page as the engine's own (a library such as axe, which no eval may load). */
  inject(source: string): Promise<void>;
  /** A click through the engine's own input (a user gesture, as a tap is). */
  click(selector: string): Promise<void>;
  /** Replaces the text of an input with `text`, typed through the engine's own input. */
  fill(selector: string, text: string): Promise<void>;
  screenshot(path: string): Promise<void>;
  close(): Promise<void>;
}

export interface PageOptions {
  baseUrl: string;
  viewport?: Viewport;
}

/** An engine, launched once for a describe block; each person gets a page of their own. */
export interface Engine {
  readonly name: EngineName;
  newPage(options: PageOptions): Promise<EnginePage>;
  close(): Promise<void>;
}

export const DESKTOP: Viewport = { width: 1100, height: 800 };
