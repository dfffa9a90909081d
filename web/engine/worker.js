// Yorimichi's 中将棋 engine as a Web Worker that speaks USI (lishogi's
// dialect): post it one command a message (a string; several lines in one
// string are read in order), and it posts back each line it prints, one a
// message. Start it as a module worker:
//
//   const engine = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
//
// A worker has one thread, so the engine thinks in slices of SLICE_MS and
// yields to the event loop between them (through a MessageChannel, which
// unlike setTimeout is never throttled): a `stop`, `isready` or
// `ponderhit` posted while it thinks is read before the next slice.
// Commands posted before the wasm has loaded wait for it. After `quit`
// the worker closes itself.
import init, { UsiEngine } from "./yorimichi_engine.js";

// Long enough that yielding costs little, short enough that `stop` is
// heard at once for a person.
const SLICE_MS = 20;

let engine = null;
let broken = false;
const early = [];
const wake = new MessageChannel();
let sliceQueued = false;

function post(text) {
  for (const line of text.split("\n")) if (line !== "") postMessage(line);
}

// Runs one call into the engine; a failure inside it (a bug: the wasm
// traps) is said as an info string, and the engine takes no more input.
function guarded(call) {
  try {
    post(call());
  } catch (error) {
    broken = true;
    postMessage(`info string the engine stopped: ${error}`);
    return;
  }
  if (engine.quit()) {
    close();
  } else if (engine.busy() && !sliceQueued) {
    sliceQueued = true;
    wake.port2.postMessage(null);
  }
}

wake.port1.onmessage = () => {
  sliceQueued = false;
  if (!broken && engine.busy()) guarded(() => engine.think(SLICE_MS));
};

function feed(line) {
  if (!broken) guarded(() => engine.input(line));
}

self.onmessage = (event) => {
  for (const line of String(event.data).split(/\r?\n/)) {
    if (engine) feed(line);
    else early.push(line);
  }
};

init().then(
  () => {
    engine = new UsiEngine();
    for (const line of early.splice(0)) feed(line);
  },
  (error) => {
    broken = true;
    postMessage(`info string the engine could not load: ${error}`);
  },
);
