import { describe, expect, it } from 'vitest';
import { productInBrowser } from './block-hooks.js';

/*
 * The API reference page in Chromium against the built product: Swagger UI, served from this origin,
 * renders the OpenAPI document under the product's Content-Security-Policy (a violation fails the test by
 * itself: e2e/lib/browser.ts) and logs no error. The web app's own first load fetches none of it.
 */
describe('the API reference page', () => {
  const product = productInBrowser();

  it('renders every area of the document within the policy and without console errors', async () => {
    const context = await product.browser.newContext({ baseURL: product.server.url });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));

    await page.goto('/api/docs');
    await page.locator('.swagger-ui .info .title').waitFor();
    await expect.poll(() => page.locator('.swagger-ui .info .title').textContent()).toContain('XTalk API');
    for (const tag of [
      'Guests and rooms',
      'Accounts',
      'Players',
      'Credits',
      'Payments',
      'Glossary',
      'Health',
    ]) {
      await page.locator(`.opblock-tag[data-tag="${tag}"]`).waitFor();
    }
    // an operation opens with its schema
    await page.locator('#operations-Guests_and_rooms-post_xtalk .opblock-summary').click();
    await page.locator('#operations-Guests_and_rooms-post_xtalk .opblock-body').waitFor();
    // with the example the document gives for its body and its answer
    await expect
      .poll(() => page.locator('#operations-Guests_and_rooms-post_xtalk .opblock-body').textContent())
      .toContain('R7KQ2MX');
    expect(errors).toEqual([]);
    // nothing but this origin: no CDN, no validator badge
    const origin = new URL(product.server.url).origin;
    expect(requested.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
    await context.close();
  });

  it('is not part of the web app: its first load fetches no reference-page file', async () => {
    const context = await product.browser.newContext({ baseURL: product.server.url });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(new URL(request.url()).pathname));
    await page.goto('/login');
    await page.getByTestId('login').waitFor();
    expect(requested.filter((path) => path.startsWith('/api/docs') || path.includes('swagger'))).toEqual([]);
    await context.close();
  });
});
