// The analysis page's offline copy: on install, the page and the engine
// (filled in by tools/web/analysis_pack.mjs) are stored in a cache named
// after their hash; on activation the copies of other builds are dropped.
// Its scope is the page alone (./analysis), so the game's own offline copy
// (sw.js, at ./) is untouched, and the game's first visit stores nothing
// of this page. Requests are answered from the cache first, the network
// second. The name does not begin "yorimichi-": the game's worker drops
// every such cache but its own.
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
      .then((names) => Promise.all(names.filter((n) => n.startsWith("chu-analysis-") && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => (await cache.match(request, { ignoreSearch: true })) || fetch(request)),
  );
});
