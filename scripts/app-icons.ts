import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

/*
 * `npx tsx scripts/app-icons.ts`: the web app manifest's icons (apps/web/public/icons/), drawn by
 * Chromium from the favicon's artwork so the installed app and the tab show the same mark. Rerun after
 * changing favicon.svg, then commit the PNGs.
 *
 * The maskable icon fills the whole square with the mark's background and keeps the glyph inside the
 * central circle (40% of the size in radius) that every launcher mask leaves visible.
 */

const publicDir = join(import.meta.dirname, '../apps/web/public');
const favicon = readFileSync(join(publicDir, 'favicon.svg'), 'utf8');

/** The favicon's rounded background square, whose fill is the brand colour. */
const BACKGROUND = /<rect [^>]*fill="(#[0-9a-fA-F]{3,6})"[^>]*\/>/;
/** How much smaller the glyph is drawn on the maskable icon, to leave the launcher's margin. */
const MASKABLE_GLYPH_SCALE = 0.8;

function maskableSvg(svg: string): string {
  const background = BACKGROUND.exec(svg);
  if (!background) throw new Error('favicon.svg: no background <rect> with a fill');
  const [rect, fill] = background;
  const open = svg.slice(0, svg.indexOf('>') + 1);
  const glyph = svg.slice(open.length, svg.lastIndexOf('</svg>')).replace(rect, '');
  const s = MASKABLE_GLYPH_SCALE;
  return (
    `${open}<rect width="64" height="64" fill="${fill}"/>` +
    `<g transform="translate(${32 * (1 - s)} ${32 * (1 - s)}) scale(${s})">${glyph}</g></svg>`
  );
}

const icons = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'icon-maskable-512.png', size: 512, svg: maskableSvg(favicon) },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
});
try {
  for (const { file, size, svg } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(
      `<style>*{margin:0}</style><img src="${src}" width="${size}" height="${size}" style="display:block">`,
    );
    await page.locator('img').evaluate((img: HTMLImageElement) => img.decode());
    await page.screenshot({ path: join(publicDir, 'icons', file), omitBackground: true });
    await page.close();
    console.log(`icons/${file}: ${size}x${size}`);
  }
} finally {
  await browser.close();
}
