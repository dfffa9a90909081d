// Serves the web build the way it is meant to be served: each file from
// its precompressed copy (.br, else .gz) when the browser accepts it, with
// the right Content-Type and Content-Encoding, and revalidation by ETag
// (so the service worker's first fill costs no second download).
// Usage: node tools/web/serve.mjs <dist> [port] [--log]
// With --log, one line per response: "sent <status> <bytes> <encoding> <path>".
import { createServer } from "node:http";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const args = process.argv.slice(2);
const log = args.includes("--log");
const [dist, portArg] = args.filter((a) => a !== "--log");
if (!dist || !existsSync(path.join(dist, "index.html"))) {
  console.error("usage: node tools/web/serve.mjs <dist> [port] [--log]");
  process.exit(2);
}
const port = Number(portArg || 8080);
const root = path.resolve(dist);
const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".ttf": "font/ttf",
  ".ogg": "audio/ogg",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".webmanifest": "application/manifest+json",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

const server = createServer((req, res) => {
  let pathname;
  try {
    pathname = decodeURIComponent(new URL(req.url, "http://host").pathname);
  } catch {
    res.writeHead(400).end("bad path");
    return;
  }
  if (pathname.endsWith("/")) pathname += "index.html";
  const file = path.join(root, pathname);
  if (!file.startsWith(root + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
    if (log) console.log(`sent 404 0 - ${pathname}`);
    return;
  }
  const accepts = String(req.headers["accept-encoding"] || "");
  let body = file;
  let encoding = null;
  for (const [name, ext] of [["br", ".br"], ["gzip", ".gz"]]) {
    if (accepts.includes(name) && existsSync(file + ext)) {
      body = file + ext;
      encoding = name;
      break;
    }
  }
  const bytes = readFileSync(body);
  const etag = `"${createHash("sha1").update(bytes).digest("hex").slice(0, 16)}"`;
  const headers = {
    "Content-Type": types[path.extname(file)] || "application/octet-stream",
    "Cache-Control": "no-cache",
    ETag: etag,
    Vary: "Accept-Encoding",
  };
  if (encoding) headers["Content-Encoding"] = encoding;
  if (req.headers["if-none-match"] === etag) {
    res.writeHead(304, headers).end();
    if (log) console.log(`sent 304 0 ${encoding || "-"} ${pathname}`);
    return;
  }
  headers["Content-Length"] = bytes.length;
  res.writeHead(200, headers);
  res.end(req.method === "HEAD" ? undefined : bytes);
  if (log) console.log(`sent 200 ${bytes.length} ${encoding || "-"} ${pathname}`);
});
server.on("error", (e) => {
  console.error(`cannot serve on port ${port}: ${e.message}`);
  process.exit(1);
});
server.listen(port, "127.0.0.1", () => {
  if (!log) console.log(`serving ${dist} on http://127.0.0.1:${port} (Ctrl+C to stop)`);
});
