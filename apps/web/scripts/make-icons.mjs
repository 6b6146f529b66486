// Draws the installable app's icons (public/icons/*.png, committed) from the favicon's shapes with Chromium:
// `node apps/web/scripts/make-icons.mjs` after changing a shape or a colour.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const outDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
const cards =
  '<rect x="4" y="7" width="22" height="16" rx="3" fill="#4f46e5"/>' +
  '<rect x="8" y="10" width="20" height="15" rx="3" fill="#fff" stroke="#4f46e5" stroke-width="2"/>';
// A maskable icon is cropped to a circle of 80 % of its side by some launchers: the shapes stay inside it.
const maskable =
  '<rect width="32" height="32" fill="#4f46e5"/><g transform="translate(6.4 6.4) scale(0.6)">' +
  '<rect x="4" y="7" width="22" height="16" rx="3" fill="#c7d2fe"/>' +
  '<rect x="8" y="10" width="20" height="15" rx="3" fill="#fff" stroke="#c7d2fe" stroke-width="2"/></g>';
const icons = [
  { file: 'icon-192.png', size: 192, shapes: cards },
  { file: 'icon-512.png', size: 512, shapes: cards },
  { file: 'icon-maskable-512.png', size: 512, shapes: maskable },
];

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
try {
  for (const { file, size, shapes } of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(
      `<body style="margin:0;background:transparent"><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="${size}" height="${size}">${shapes}</svg></body>`,
    );
    await page.screenshot({ path: path.join(outDir, file), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
