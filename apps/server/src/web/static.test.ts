import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webRoutes } from './static.js';

/*
 * The built web app as a browser gets it: the build's .br/.gz twins (apps/web/build/precompress.ts) to
 * browsers that accept them, the plain file to others, and index.html for client routes.
 */

describe('the web app files', () => {
  const root = mkdtempSync(join(tmpdir(), 'xtalk-web-'));
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;
  const worker = `self.addEventListener('fetch', () => ${JSON.stringify('y'.repeat(2000))});`;
  const manifest = JSON.stringify({ name: 'XTalk', start_url: '/', display: 'standalone' });
  const app = Fastify();

  beforeAll(async () => {
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><div id="root"></div>');
    // a page of its own for one path, as the build writes (apps/web/build/route-preload.ts)
    mkdirSync(join(root, 'routes'));
    const preloading =
      '<!doctype html><link rel="modulepreload" href="/assets/room-1.js"><div id="root"></div>';
    writeFileSync(join(root, 'routes/translate.html'), preloading);
    writeFileSync(join(root, 'routes/translate.html.br'), brotliCompressSync(preloading));
    // each page again for a lazily loaded language, its words preloaded too
    mkdirSync(join(root, 'lang/ja/routes'), { recursive: true });
    const words = '<link rel="modulepreload" href="/assets/ja-1.js">';
    writeFileSync(join(root, 'lang/ja/index.html'), `<!doctype html><html lang="ja">${words}`);
    const jaRoom = `<!doctype html><html lang="ja">${words}<link rel="modulepreload" href="/assets/room-1.js">`;
    writeFileSync(join(root, 'lang/ja/routes/translate.html'), jaRoom);
    writeFileSync(join(root, 'lang/ja/routes/translate.html.br'), brotliCompressSync(jaRoom));
    writeFileSync(join(root, 'assets/app-1.js'), script);
    writeFileSync(join(root, 'assets/app-1.js.br'), brotliCompressSync(script));
    writeFileSync(join(root, 'assets/app-1.js.gz'), gzipSync(script));
    // the service worker and the web app manifest, as the build writes them
    writeFileSync(join(root, 'sw.js'), worker);
    writeFileSync(join(root, 'sw.js.br'), brotliCompressSync(worker));
    writeFileSync(join(root, 'manifest.webmanifest'), manifest);
    await app.register(webRoutes, { root });
  });
  afterAll(() => app.close());

  const get = (url: string, encoding?: string, cookie?: string) =>
    app.inject({
      url,
      headers: { ...(encoding ? { 'accept-encoding': encoding } : {}), ...(cookie ? { cookie } : {}) },
    });

  it('sends the brotli or gzip twin to a browser that accepts it, the plain file otherwise', async () => {
    const br = await get('/assets/app-1.js', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.rawPayload.length).toBeLessThan(script.length / 10);

    const gz = await get('/assets/app-1.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/app-1.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers a client route with index.html (always revalidated), and an API path with a JSON 404', async () => {
    const page = await get('/guest-login');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.body).not.toContain('modulepreload');
    const api = await get('/api/nothing-here');
    expect([api.statusCode, api.json().code]).toEqual([404, 'not_found']);
  });

  it('answers a path with a page of its own with that page, compressed like every file', async () => {
    const room = await get('/translate?r=ABCDEFG', 'br');
    expect(room.statusCode).toBe(200);
    expect(room.headers['content-encoding']).toBe('br');
    expect(room.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(room.rawPayload).toString()).toContain('href="/assets/room-1.js"');
    // a path under it is not that page
    expect((await get('/translate/other')).body).not.toContain('modulepreload');
  });

  it('sends the service worker always revalidated, and the manifest as a manifest', async () => {
    // a worker kept in a cache would hold a deploy's shell back after the next deploy
    const sw = await get('/sw.js', 'br');
    expect(sw.statusCode).toBe(200);
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.headers['content-type']).toMatch(/^(text|application)\/javascript/);
    expect(sw.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(sw.rawPayload).toString()).toBe(worker);
    expect((await get('/sw.js')).body).toBe(worker);

    const answer = await get('/manifest.webmanifest');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(answer.headers['cache-control']).toBe('no-cache');
    expect(answer.json()).toMatchObject({ name: 'XTalk', display: 'standalone' });
  });

  it("answers a reader whose language cookie names a lazy language with that language's page", async () => {
    const room = await get('/translate?r=ABCDEFG', 'br', 'theme=dark; lang=ja');
    expect(room.headers['content-encoding']).toBe('br');
    expect(room.headers.vary).toMatch(/cookie/i);
    expect(room.headers.vary).toMatch(/accept-encoding/i);
    const html = brotliDecompressSync(room.rawPayload).toString();
    expect(html).toContain('<html lang="ja">');
    expect(html).toContain('href="/assets/ja-1.js"');
    expect(html).toContain('href="/assets/room-1.js"');
    const home = await get('/', undefined, 'lang=ja');
    expect([home.statusCode, home.body]).toEqual([200, expect.stringContaining('href="/assets/ja-1.js"')]);
    expect(home.headers['cache-control']).toBe('no-cache');
    // English (in the entry), a language without pages, or anything else: the page as it is
    for (const cookie of ['lang=en', 'lang=fr', 'lang=../routes', 'xlang=ja', 'lang=jaa']) {
      const page = await get('/translate?r=ABCDEFG', undefined, cookie);
      expect(page.statusCode).toBe(200);
      expect(page.body, cookie).not.toContain('ja-1.js');
      expect(page.body, cookie).toContain('room-1.js');
    }
  });
});
