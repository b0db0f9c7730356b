import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { watchIssuedSecrets } from './issued-secrets.js';

/* Debian's Chromium driven by playwright-core, every context watched for what the product must not do. */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Chromium 156 (Debian's) renders its desktop omnibox popups as WebUI pages and warms them up in renderers of
 * their own whenever a page opens, so every page load here runs beside the browser's own UI work (that
 * renderer and its compositing), which on a small machine stretches the page's tasks in wall time.
 * Phones, which Lighthouse's mobile profile stands for, have no such popup; tests never use the omnibox.
 * docs/decisions/0086-measure-the-page-not-the-browser-ui.md
 */
export const BROWSER_UI_FEATURES_OFF = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/*
 * The server sends its Content-Security-Policy in every test: whatever a page, popup or worker does that
 * the policy blocks fails the test it happened in (or, from a beforeAll, the block's first test: the
 * e2e project's setup file takes the violations after each).
 * Chromium reports a violation twice over: a `securitypolicyviolation` event in the document (read by an
 * init script) and a console error (which also covers workers, where init scripts do not run). The other
 * engines report theirs here too (e2e/engines/firefox.ts, webkit.ts).
 */
const cspViolations: string[] = [];
export const CSP_MESSAGE = /Content[- ]Security[- ]Policy|CSP violation/;

/** Run in the page: each violation of the document said as a console error (and kept for a later read). */
export function reportPolicyViolations() {
  const w = window as unknown as { __policyViolations?: string[] };
  if (w.__policyViolations) return;
  const seen: string[] = (w.__policyViolations = []);
  addEventListener(
    'securitypolicyviolation',
    (event) => {
      const where = `${event.sourceFile || location.href}:${event.lineNumber}`;
      const text = `CSP violation: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${where})`;
      seen.push(text);
      console.error(text);
    },
    true,
  );
}

/** A violation an engine reported, for the test it happened in. */
export function notePolicyViolation(text: string): void {
  cspViolations.push(text);
}

export async function watchPolicy(context: BrowserContext): Promise<void> {
  context.on('console', (message) => {
    if (message.type() === 'error' && CSP_MESSAGE.test(message.text())) cspViolations.push(message.text());
  });
  await context.addInitScript(reportPolicyViolations);
}

/** The violations reported since the last call. */
export function takePolicyViolations(): string[] {
  return cspViolations.splice(0);
}

/** How every test's Chromium runs: headless, quiet, a fake microphone that needs no permission prompt. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  `--disable-features=${BROWSER_UI_FEATURES_OFF.join(',')}`,
];

export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
  // every context (browser.newPage makes one too) is watched from its first page on
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await watchPolicy(context);
    watchIssuedSecrets(context);
    return context;
  };
  return browser;
}
