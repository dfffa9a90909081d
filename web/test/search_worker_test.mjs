// The game's CPU worker (dist/search-worker.js, the game's own module) in headless
// Chromium, beside the native program on the same searches: `yorimichi
// bench <game> --worker <file>` writes つよい's searches of positions from
// CPU games, each twice (with the level's time for a move, and to its node
// budget without a clock), with what the native program read through the
// same messages. A page posts each to the worker. The searches to a node
// budget must come back exactly as natively (the same depth, nodes and
// line): the worker is the same search. The timed ones are printed beside
// the native ones (depth reached, nodes, ms), and the worker's nodes per
// second over the native program's: figures of this machine, not checks.
// Usage: node web/test/search_worker_test.mjs <dist> <searches file>...
import { chromium } from "playwright-core";
import { servePage } from "./page_server.mjs";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

const [dist, ...files] = process.argv.slice(2);
if (!dist || !existsSync(path.join(dist, "search-worker.js")) || files.length === 0 || !files.every((f) => existsSync(f))) {
  console.error("usage: node web/test/search_worker_test.mjs <dist> <searches file>...");
  process.exit(2);
}
const root = path.resolve(dist);

let passed = 0;
let failed = 0;
const check = (ok, what) => {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
};

const PAGE = `<!doctype html><meta charset="utf-8"><title>search worker</title><link rel="icon" href="data:,">
<script type="module">
const worker = new Worker("search-worker.js", { type: "module" });
let waiting = null;
worker.onmessage = (event) => { if (waiting) waiting(String(event.data)); };
worker.onerror = (event) => { if (waiting) waiting("broken " + event.message); };
window.ask = (message) => new Promise((reply) => { waiting = reply; worker.postMessage(message); });
</script>`;
const { server, url } = await servePage(root, PAGE);

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-background-networking", "--no-first-run"],
});
const page = await browser.newPage();
page.on("pageerror", (e) => check(false, `no page error (${e.message})`));
await page.goto(url);

// An answer's figures, read from its RON.
const figures = (text) => ({
  depth: Number(/depth:(\d+)/.exec(text)?.[1] ?? -1),
  nodes: Number(/nodes:(\d+)/.exec(text)?.[1] ?? -1),
  ms: Number(/elapsed_ms:([\d.]+)/.exec(text)?.[1] ?? -1),
  pv: /pv:(\[.*\]),elapsed_ms/.exec(text)?.[1] ?? "",
});

try {
  for (const file of files) {
    const blocks = readFileSync(file, "utf8").split("\n%%\n").filter((b) => b.trim());
    const game = /^search \d+ (\S+)/m.exec(blocks[0] ?? "")?.[1] ?? "?";
    console.log(`${game}: ${blocks.length} searches of つよい, native and in the worker`);
    console.log("search  clock     native depth/nodes/ms        worker depth/nodes/ms");
    const budget = { native: { nodes: 0, ms: 0 }, worker: { nodes: 0, ms: 0 } };
    let timed = 0;
    let withinAPly = 0;
    let same = 0;
    let budgetSearches = 0;
    for (const block of blocks) {
      const [head, ...rest] = block.split("\n");
      const [, depth, nodes, ms, pv] = head.split(" ");
      const native = { depth: Number(depth), nodes: Number(nodes), ms: Number(ms), pv };
      const message = rest.join("\n");
      const id = /^search (\d+)/.exec(message)?.[1];
      const clocked = /time_ms:Some/.test(message);
      const reply = await page.evaluate((m) => window.ask(m), message);
      if (!reply.startsWith(`answer ${id}\n`)) {
        check(false, `search ${id} is answered (${reply.slice(0, 120)})`);
        continue;
      }
      const worker = figures(reply);
      console.log(
        `${id.padStart(6)}  ${(clocked ? "clock" : "nodes").padEnd(8)}  ${`${native.depth} / ${native.nodes} / ${native.ms.toFixed(0)}`.padEnd(27)}  ${worker.depth} / ${worker.nodes} / ${worker.ms.toFixed(0)}`,
      );
      if (clocked) {
        timed++;
        if (worker.depth >= native.depth - 1) withinAPly++;
      } else {
        budgetSearches++;
        if (worker.depth === native.depth && worker.nodes === native.nodes && worker.pv === native.pv) same++;
        budget.native.nodes += native.nodes;
        budget.native.ms += native.ms;
        budget.worker.nodes += worker.nodes;
        budget.worker.ms += worker.ms;
      }
    }
    check(budgetSearches > 0 && same === budgetSearches,
      `${game}: every search to the node budget reads in the worker what it reads natively (${same} of ${budgetSearches}: depth, nodes and line)`);
    const rate = (r) => r.nodes / Math.max(r.ms, 1e-3);
    console.log(
      `${game}: nodes per second, worker ${(rate(budget.worker) * 1000).toFixed(0)} / native ${(rate(budget.native) * 1000).toFixed(0)} = ${(rate(budget.worker) / rate(budget.native)).toFixed(2)}; with the level's clock the worker reached the native depth or one ply less in ${withinAPly} of ${timed}`,
    );
  }
} finally {
  await browser.close();
  server.close();
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
