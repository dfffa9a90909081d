// The game's CPU in a Web Worker: the page posts a search (a text message,
// src/rules/search_service.rs) and the worker posts its answer back, so
// the page's frames never think. It runs the game's own module (already
// downloaded and cached for the page), whose `main` starts nothing where
// there is no window. One search at a time: a new one replaces the one in
// hand, `cancel <id>` drops it. Like engine/worker.js it thinks in slices
// and yields between them through a MessageChannel, so a cancel or a new
// search is read at once; with no search in hand it solves 十六むさし's
// tables.
import init, { SearchWorker } from "./yorimichi.js";

const SLICE_MS = 20;

let worker = null;
let broken = false;
const early = [];
const wake = new MessageChannel();
let sliceQueued = false;

function guarded(call) {
  let reply;
  try {
    reply = call();
  } catch (error) {
    // A bug (the wasm trapped): the page falls back to thinking itself.
    broken = true;
    postMessage(`broken ${error}`);
    return;
  }
  if (reply !== "") postMessage(reply);
  if (worker.busy() && !sliceQueued) {
    sliceQueued = true;
    wake.port2.postMessage(null);
  }
}

wake.port1.onmessage = () => {
  sliceQueued = false;
  if (!broken && worker.busy()) guarded(() => worker.think(SLICE_MS));
};

self.onmessage = (event) => {
  const message = String(event.data);
  if (broken) postMessage(`broken ${message.split(" ", 2)[1] ?? ""}`);
  else if (worker) guarded(() => worker.input(message));
  else early.push(message);
};

init().then(
  () => {
    worker = new SearchWorker();
    for (const message of early.splice(0)) guarded(() => worker.input(message));
  },
  (error) => {
    broken = true;
    postMessage(`broken ${error}`);
  },
);
