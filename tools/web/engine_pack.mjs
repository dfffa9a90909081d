// Finishes the 中将棋 engine package in <dir> (`make engine-web`): writes
// its package.json from web/engine/package.json with the version of
// Cargo.toml, measures each file raw, with gzip and with brotli, puts that
// table into the package's README.md (between its `<!-- sizes -->` marks)
// and prints it, and fails if the download is over its budget.
// Usage: node tools/web/engine_pack.mjs <dir>
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const dir = process.argv[2];
if (!dir || !existsSync(path.join(dir, "yorimichi_engine_bg.wasm"))) {
  console.error("usage: node tools/web/engine_pack.mjs <dir> (a folder with yorimichi_engine_bg.wasm)");
  process.exit(2);
}
const BUDGET_BROTLI = 1024 * 1024;
const root = new URL("../../", import.meta.url);

const version = /^version = "([^"]+)"/m.exec(readFileSync(new URL("Cargo.toml", root), "utf8"))[1];
const pkg = JSON.parse(readFileSync(new URL("web/engine/package.json", root), "utf8"));
pkg.version = version;
writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2) + "\n");

// What a page downloads to run the engine.
const files = ["worker.js", "yorimichi_engine.js", "yorimichi_engine_bg.wasm"];
const rows = files.map((file) => {
  const raw = readFileSync(path.join(dir, file));
  const gzip = zlib.gzipSync(raw, { level: 9 }).length;
  const brotli = zlib.brotliCompressSync(raw, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  }).length;
  return { file, raw: raw.length, gzip, brotli };
});
const total = rows.reduce((t, r) => ({ raw: t.raw + r.raw, gzip: t.gzip + r.gzip, brotli: t.brotli + r.brotli }), {
  raw: 0,
  gzip: 0,
  brotli: 0,
});
writeFileSync(path.join(dir, "sizes.json"), JSON.stringify({ version, files: rows, total }, null, 1) + "\n");

const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
const table = [
  "| file | raw | gzip | brotli |",
  "|---|---|---|---|",
  ...rows.map((r) => `| \`${r.file}\` | ${kib(r.raw)} | ${kib(r.gzip)} | ${kib(r.brotli)} |`),
  `| all three | ${kib(total.raw)} | ${kib(total.gzip)} | **${kib(total.brotli)}** |`,
].join("\n");
const readme = path.join(dir, "README.md");
const text = readFileSync(readme, "utf8");
const marked = /<!-- sizes -->[\s\S]*?<!-- \/sizes -->/;
if (!marked.test(text)) {
  console.error(`${readme}: no <!-- sizes --> … <!-- /sizes --> marks`);
  process.exit(2);
}
writeFileSync(readme, text.replace(marked, `<!-- sizes -->\n${table}\n<!-- /sizes -->`));

console.log(`yorimichi-chushogi-engine ${version} in ${dir}:`);
console.log(table);
const within = total.brotli <= BUDGET_BROTLI;
console.log(`engine download: ${kib(total.brotli)} brotli (budget ${kib(BUDGET_BROTLI)}): ${within ? "within budget" : "OVER BUDGET"}`);
process.exit(within ? 0 : 1);
