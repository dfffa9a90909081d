// Finishes the 中将棋 analysis page in <dist> (`make engine-web`, after the
// engine package is in <dist>/engine): stamps its service worker
// (analysis-sw.js) with the page's files and a cache named after their
// hash, writes each file beside itself as .gz and .br for a server that
// sends precompressed files (tools/web/serve.mjs), and prints what a first
// visit to the page downloads, raw, with gzip and with brotli, failing
// over the engine's own budget of 1 MiB brotli. None of it is in the
// game's first visit: the game's offline copy lists only what `make
// web-build` wrote.
// Usage: node tools/web/analysis_pack.mjs <dist>
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const dist = process.argv[2];
const PAGE = ["analysis.html", "analysis.js", "analysis-worker.js", "engine/worker.js", "engine/yorimichi_engine.js", "engine/yorimichi_engine_bg.wasm"];
if (!dist || PAGE.some((f) => !existsSync(path.join(dist, f))) || !existsSync(path.join(dist, "analysis-sw.js"))) {
  console.error(`usage: node tools/web/analysis_pack.mjs <dist> (a folder with analysis-sw.js and ${PAGE.join(", ")})`);
  process.exit(2);
}
const BUDGET_BROTLI = 1024 * 1024;

const hash = createHash("sha256");
for (const f of PAGE) hash.update(f).update(readFileSync(path.join(dist, f)));
const cache = `chu-analysis-${hash.digest("hex").slice(0, 10)}`;
const workerPath = path.join(dist, "analysis-sw.js");
writeFileSync(
  workerPath,
  readFileSync(workerPath, "utf8")
    .replace("__CACHE__", cache)
    .replace("__FILES__", JSON.stringify(PAGE.map((f) => "./" + f))),
);

const rows = [...PAGE, "analysis-sw.js"].map((file) => {
  const raw = readFileSync(path.join(dist, file));
  const gzip = zlib.gzipSync(raw, { level: 9 });
  const brotli = zlib.brotliCompressSync(raw, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  });
  writeFileSync(path.join(dist, file + ".gz"), gzip);
  writeFileSync(path.join(dist, file + ".br"), brotli);
  return { file, raw: raw.length, gzip: gzip.length, brotli: brotli.length };
});
const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }), {
  raw: 0,
  gzip: 0,
  brotli: 0,
});
writeFileSync(path.join(dist, "analysis-sizes.json"), JSON.stringify({ cache, files: rows, total }, null, 1) + "\n");

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log("the analysis page (analysis.html), a first visit:");
console.log("| file | raw | gzip | brotli |\n|---|---|---|---|");
for (const r of rows) console.log(`| \`${r.file}\` | ${kib(r.raw)} | ${kib(r.gzip)} | ${kib(r.brotli)} |`);
console.log(`| all | ${kib(total.raw)} | ${kib(total.gzip)} | **${kib(total.brotli)}** |`);
const within = total.brotli <= BUDGET_BROTLI;
console.log(`analysis page download: ${kib(total.brotli)} brotli (budget ${kib(BUDGET_BROTLI)}): ${within ? "within budget" : "OVER BUDGET"}; offline cache ${cache}`);
process.exit(within ? 0 : 1);
