// Draws the web app's icons (a 金将 koma on a lacquer-red ground, lettered
// with the game's own koma font) in headless Chromium and writes them as
// PNG into web/icons. Run again only when the design changes, then shrink
// them to palette PNGs:
//   node web/test/make_icons.mjs && python3 tools/quantize_icons.py
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";

const font = readFileSync(new URL("../../assets/fonts/ipaexm-subset.ttf", import.meta.url)).toString("base64");
// `scale` is the koma's height over the icon's: a maskable icon keeps it
// inside the circle every phone's mask leaves.
function svg(scale, rounded) {
  const h = 512 * scale;
  const w = h * 0.82;
  const x = (512 - w) / 2;
  const y = (512 - h) / 2 + h * 0.02;
  const p = (fx, fy) => `${(x + fx * w).toFixed(1)},${(y + fy * h).toFixed(1)}`;
  const koma = [p(0.5, 0), p(0.86, 0.14), p(1, 1), p(0, 1), p(0.14, 0.14)].join(" ");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">
    <rect width="512" height="512" rx="${rounded ? 96 : 0}" fill="#b73a28"/>
    <polygon points="${koma}" transform="translate(6 10)" fill="#000" opacity="0.28"/>
    <polygon points="${koma}" fill="#efd39b" stroke="#5a3b1c" stroke-width="${(h * 0.018).toFixed(1)}" stroke-linejoin="round"/>
    <text x="256" y="${(y + h * 0.47).toFixed(1)}" font-family="koma" font-size="${(h * 0.36).toFixed(1)}" text-anchor="middle" fill="#1d140c">金</text>
    <text x="256" y="${(y + h * 0.88).toFixed(1)}" font-family="koma" font-size="${(h * 0.36).toFixed(1)}" text-anchor="middle" fill="#1d140c">将</text>
  </svg>`;
}
const icons = [
  ["icon-512.png", 512, svg(0.8, true)],
  ["icon-192.png", 192, svg(0.8, true)],
  ["apple-touch-icon-180.png", 180, svg(0.74, false)],
  ["maskable-512.png", 512, svg(0.56, false)],
];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--headless", "--no-sandbox"] });
try {
  for (const [name, size, image] of icons) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(`<html><head><style>
      @font-face { font-family: koma; src: url(data:font/ttf;base64,${font}); }
      html, body { margin: 0; background: transparent; }
      svg { width: ${size}px; height: ${size}px; display: block; }
    </style></head><body>${image}</body></html>`);
    await page.evaluate(() => document.fonts.ready);
    await page.screenshot({ path: new URL(`../icons/${name}`, import.meta.url).pathname, omitBackground: true });
    await page.close();
    console.log(`web/icons/${name}`);
  }
} finally {
  await browser.close();
}
