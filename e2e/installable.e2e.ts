import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';
import { CHROMIUM, CHROMIUM_ARGS, watchPolicy } from './lib/browser.js';
import { enterAsGuest, newPerson } from './lib/people.js';
import { watchIssuedSecrets } from './lib/issued-secrets.js';

/*
 * The app as something to install: a manifest Chromium accepts with icons that load at their stated
 * sizes, no installability error, and a service worker that takes over the page and, with the network gone,
 * still opens a room's address as the app's own "Connecting..." screen, while nothing from the API and no
 * audio ever lands in Cache Storage.
 */

const artifacts = resolve(import.meta.dirname, 'artifacts');

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/** Width and height from a PNG's header chunk. */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

/**
 * A browser profile on disk: Chromium refuses to install from an incognito profile, which is what every
 * other test's contexts are. Removed when closed.
 */
async function profileOnDisk(baseURL: string): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'xtalk-profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    baseURL,
  });
  await watchPolicy(context);
  watchIssuedSecrets(context);
  const close = async () => {
    await context.close();
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  };
  return { context, close };
}

/** Every URL in the page's Cache Storage, by cache. */
function cachedUrls(page: Page): Promise<Record<string, string[]>> {
  return page.evaluate(async () => {
    const all: Record<string, string[]> = {};
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      all[name] = (await cache.keys()).map((request) => new URL(request.url).pathname);
    }
    return all;
  });
}

/** The room header's background and the theme-color in force for the page's scheme, as RGB. */
function barColours(page: Page): Promise<[number[], number[]]> {
  return page.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d', { willReadFrequently: true })!;
    const rgb = (colour: string) => {
      context.fillStyle = colour;
      context.fillRect(0, 0, 1, 1);
      return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
    };
    const meta = [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].find(
      (tag) => matchMedia(tag.media).matches,
    );
    return [rgb(getComputedStyle(document.querySelector('header')!).backgroundColor), rgb(meta!.content)] as [
      number[],
      number[],
    ];
  });
}

describe('the installable app', () => {
  const product = productInBrowser();

  it('links a manifest with the fields an install needs, and icons that load at their sizes', async () => {
    const profile = await profileOnDisk(product.server.url);
    const context = profile.context;
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/login');
    await page.getByTestId('login').waitFor();
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');

    const answer = await fetch(`${product.server.url}${href}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/manifest\+json/);
    const manifest = (await answer.json()) as Record<string, unknown> & { icons: ManifestIcon[] };
    expect(manifest).toMatchObject({
      name: 'XTalk',
      short_name: 'XTalk',
      start_url: '/',
      scope: '/',
      display: 'standalone',
    });
    for (const field of ['description', 'background_color', 'theme_color']) {
      expect(typeof manifest[field], field).toBe('string');
    }
    const purposes = manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`);
    expect(purposes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
    for (const icon of manifest.icons) {
      const image = await fetch(new URL(icon.src, product.server.url));
      expect(image.status, icon.src).toBe(200);
      expect(image.headers.get('content-type'), icon.src).toBe(icon.type);
      expect(pngSize(Buffer.from(await image.arrayBuffer())), icon.src).toBe(icon.sizes);
    }

    // Chromium's own reading of it: parsed without errors, and nothing standing in the way of an install
    const cdp = await context.newCDPSession(page);
    const parsed = await cdp.send('Page.getAppManifest');
    expect(parsed.errors).toEqual([]);
    expect(parsed.url).toBe(`${product.server.url}/manifest.webmanifest`);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors).toEqual([]);
    await profile.close();
  });

  it('opens a room offline from the worker’s shell, with no API answer or audio cached', async () => {
    mkdirSync(artifacts, { recursive: true });
    const { context, page } = await newPerson(product.browser, product.server.url, {
      viewport: { width: 390, height: 844 },
    });
    await enterAsGuest(page);
    const room = page.url();

    // registered by the room screen once idle, then in control of the page after a reload
    const scope = await page.evaluate(async () => (await navigator.serviceWorker.ready).scope);
    expect(scope).toBe(`${product.server.url}/`);
    await page.reload();
    await page.getByTestId('message-list').waitFor();
    await page.getByTestId('connecting-overlay').waitFor({ state: 'detached', timeout: 20_000 });
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(
      `${product.server.url}/sw.js`,
    );
    // an API answer asked for while the worker is in control (the room's own requests are others)
    expect(await page.evaluate(async () => (await fetch('/api/health')).status)).toBe(200);

    // the browser's bar in the header's colour, in both schemes
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      const [header, bar] = await barColours(page);
      header.forEach((channel, i) =>
        expect(Math.abs(channel - bar[i]!), `${theme}: ${header} ${bar}`).toBeLessThan(3),
      );
    }

    // no network and no server: only the worker can answer
    await product.server.stop();
    await context.setOffline(true);
    const viewports = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } };
    const connectingText = { en: 'Connecting...', ja: '接続中...' };
    for (const language of ['en', 'ja'] as const) {
      await page.evaluate((lang) => localStorage.setItem('lang', lang), language);
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        for (const [device, viewport] of Object.entries(viewports)) {
          await page.setViewportSize(viewport);
          await page.goto(room);
          const connecting = page.getByTestId('connecting-overlay');
          await connecting.waitFor();
          expect(await connecting.textContent()).toContain(connectingText[language]);
          await page.screenshot({ path: join(artifacts, `offline-room-${device}-${language}-${theme}.png`) });
        }
      }
    }

    const cached = await cachedUrls(page);
    const names = Object.keys(cached);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/^xtalk-shell-[0-9a-f]{16}$/);
    const urls = Object.values(cached).flat();
    expect(urls).toContain('/index.html');
    expect(urls.some((url) => /^\/assets\/index-.+\.js$/.test(url))).toBe(true);
    expect(urls.some((url) => /^\/assets\/translate-route-.+\.js$/.test(url))).toBe(true);
    const forbidden = urls.filter((url) =>
      /^\/(api|auth|xtalk|ws|audio)\b|\.(ogg|opus|mp3|wav|m4a)$/.test(url),
    );
    expect(forbidden).toEqual([]);
    await context.close();
  });
});
