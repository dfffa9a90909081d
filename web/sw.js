// The offline copy: on install, every file of this version is stored in a
// cache named after the version and the files' hash (filled in by
// tools/web/pack.mjs); on activation the caches of other versions are
// dropped. Requests are answered from the cache first, the network second;
// a page opened with ?game=… or #… is the same cached index.html, and
// another page (analysis.html) itself.
const CACHE = "__CACHE__";
const FILES = __FILES__;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: "no-cache" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith("yorimichi-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const page = request.mode === "navigate" && /\/(index\.html)?$/.test(new URL(request.url).pathname);
      const key = page ? "./" : request;
      const hit = await cache.match(key, { ignoreSearch: true });
      return hit || fetch(request);
    }),
  );
});
