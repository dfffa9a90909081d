// Finishes the web build in <dist>: stamps the version into the service
// worker's cache name and its list of files, tells the page the wasm's
// size (its download bar counts decompressed bytes), writes each text-like
// file beside itself as .gz and .br for a server that sends precompressed
// files, and prints each file's size raw, with gzip and with brotli, and
// the first visit's total against the budget.
// Usage: node tools/web/pack.mjs <dist>
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync, readdirSync, statSync, existsSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const dist = process.argv[2];
if (!dist || !existsSync(path.join(dist, "index.html"))) {
  console.error("usage: node tools/web/pack.mjs <dist> (a folder with index.html)");
  process.exit(2);
}
// The first visit's budget (docs/web.md, "Sizes"): what a phone on a home
// line waits for before the title.
const BUDGET = { gzip: 4.5 * 1024 * 1024, brotli: 3.1 * 1024 * 1024 };

// What the page and the service worker fetch on a first visit: everything
// but the licence texts and the precompressed copies.
function shipped(dir, prefix = "") {
  const files = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    const rel = prefix + name;
    if (statSync(full).isDirectory()) files.push(...shipped(full, rel + "/"));
    else if (!/\.(gz|br|txt|json)$/.test(name) && name !== "sw.js") files.push(rel);
  }
  return files;
}

const version = /^version = "([^"]+)"/m.exec(readFileSync(new URL("../../Cargo.toml", import.meta.url), "utf8"))[1];
const wasmBytes = statSync(path.join(dist, "yorimichi_bg.wasm")).size;
const indexPath = path.join(dist, "index.html");
writeFileSync(indexPath, readFileSync(indexPath, "utf8").replace("__WASM_BYTES__", String(wasmBytes)));

const files = shipped(dist);
const hash = createHash("sha256");
for (const f of files) hash.update(f).update(readFileSync(path.join(dist, f)));
const cache = `yorimichi-${version}-${hash.digest("hex").slice(0, 10)}`;
const worker = readFileSync(path.join(dist, "sw.js"), "utf8")
  .replace("__CACHE__", cache)
  // The page itself is stored once, as "./": every navigation is answered
  // with it.
  .replace("__FILES__", JSON.stringify(["./", ...files.filter((f) => f !== "index.html").map((f) => "./" + f)]));
writeFileSync(path.join(dist, "sw.js"), worker);

// gzip as zopfli writes it (an ordinary gzip stream that any browser reads,
// some 5% smaller than zlib's best for the wasm), one iteration, which gets
// nearly all of the gain in seconds; zlib's best where zopfli is missing.
const zopfli = spawnSync("zopfli", ["-h"]).error === undefined;
if (!zopfli) console.log("zopfli not found (.ci/deps.sh web installs it): gzip by zlib, level 9");
function gzip(file, raw) {
  if (!zopfli) return zlib.gzipSync(raw, { level: 9 });
  const run = spawnSync("zopfli", ["--i1", "-c", file], { maxBuffer: 1 << 30 });
  if (run.status !== 0) throw new Error(`zopfli failed on ${file}: ${run.stderr}`);
  return run.stdout;
}

// Sounds and pictures are compressed already: sent as they are.
const packable = (f) => !/\.(ogg|png)$/.test(f);
const rows = [];
for (const f of [...files, "sw.js"]) {
  const raw = readFileSync(path.join(dist, f));
  let gz = raw.length;
  let br = raw.length;
  if (packable(f)) {
    const gzBytes = gzip(path.join(dist, f), raw);
    const brBytes = zlib.brotliCompressSync(raw, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        // Brotli's largest standard window: the wasm is far longer than
        // the default 4 MiB, and every browser decodes it.
        [zlib.constants.BROTLI_PARAM_LGWIN]: zlib.constants.BROTLI_MAX_WINDOW_BITS,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      },
    });
    writeFileSync(path.join(dist, f + ".gz"), gzBytes);
    writeFileSync(path.join(dist, f + ".br"), brBytes);
    gz = gzBytes.length;
    br = brBytes.length;
  }
  rows.push({ file: f, raw: raw.length, gzip: gz, brotli: br });
}
const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }), { raw: 0, gzip: 0, brotli: 0 });
writeFileSync(path.join(dist, "sizes.json"), JSON.stringify({ cache, files: rows, total, budget: BUDGET }, null, 1));

const kib = (n) => (n / 1024).toFixed(1).padStart(9);
const mib = (n) => (n / 1048576).toFixed(2);
console.log(`${"file".padEnd(34)}${"raw KiB".padStart(9)}${"gzip".padStart(9)}${"brotli".padStart(9)}`);
for (const r of rows) console.log(`${r.file.padEnd(34)}${kib(r.raw)}${kib(r.gzip)}${kib(r.brotli)}`);
console.log(`${"first visit, all files".padEnd(34)}${kib(total.raw)}${kib(total.gzip)}${kib(total.brotli)}`);
const within = total.gzip <= BUDGET.gzip && total.brotli <= BUDGET.brotli;
console.log(`web download: ${mib(total.gzip)} MiB gzip (budget ${mib(BUDGET.gzip)}), ${mib(total.brotli)} MiB brotli (budget ${mib(BUDGET.brotli)}): ${within ? "within budget" : "OVER BUDGET"}`);
console.log(`service worker cache: ${cache}`);
