// The analysis page's engine: the package's worker (engine/worker.js),
// started from here because Chromium gives a worker the offline copy whose
// scope holds the worker's own address, and the page's copy
// (analysis-sw.js) holds ./analysis* alone.
import "./engine/worker.js";
