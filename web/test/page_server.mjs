// A static server for the worker tests: `page` (an HTML text) at `/` and
// the files of `root` beside it, on a free port of 127.0.0.1. Resolves to
// the server and the page's address.
import { createServer } from "node:http";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
};

export async function servePage(root, page) {
  const server = createServer((req, res) => {
    const name = decodeURIComponent(new URL(req.url, "http://host").pathname);
    if (name === "/") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(page);
      return;
    }
    const file = path.join(root, name);
    if (!file.startsWith(root + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": TYPES[path.extname(file)] || "application/octet-stream" });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}
