import { launchChromium } from './chromium.js';
import type { Engine, EngineName } from './driver.js';
import { launchFirefox } from './firefox.js';
import { launchWebKit } from './webkit.js';

export type { Engine, EngineName, EnginePage, Viewport } from './driver.js';
export { DESKTOP } from './driver.js';

/* The three engines people use; `E2E_ENGINES=firefox,webkit` runs some of them. */

export const ENGINES: readonly EngineName[] = (process.env.E2E_ENGINES ?? 'chromium,firefox,webkit')
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is EngineName => ['chromium', 'firefox', 'webkit'].includes(name));

/** `chromiumArgs`: extra switches for Chromium (its fake microphone's file); the others have none. */
export function launchEngine(name: EngineName, chromiumArgs: string[] = []): Promise<Engine> {
  if (name === 'firefox') return launchFirefox();
  if (name === 'webkit') return launchWebKit();
  return launchChromium(chromiumArgs);
}
