//! `yorimichi`: starts the game, or (natively) runs one of the headless
//! commands ([`yorimichi::cli`]).

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    yorimichi::cli::main()
}

/// The web page says which game to open; the shell reads it. The same
/// module loaded in the page's search worker has no window, and starts
/// nothing: the worker only calls [`search_worker::SearchWorker`].
#[cfg(target_arch = "wasm32")]
fn main() {
    if web_sys::window().is_some() {
        yorimichi::run(yorimichi::shell::StartOptions::default());
    }
}

/// The CPU's searches in the page's Web Worker (`web/search-worker.js`):
/// the messages of [`yorimichi::rules::search_service`], thought in slices
/// between the worker's messages. The game's own module, so the worker
/// costs no download of its own. (Defined in the program itself: what
/// wasm-bindgen exports is what the final crate keeps.)
#[cfg(target_arch = "wasm32")]
mod search_worker {
    use wasm_bindgen::prelude::*;
    use yorimichi::rules::search_service::SearchService;

    #[wasm_bindgen]
    extern "C" {
        /// The worker's monotonic clock, in milliseconds.
        #[wasm_bindgen(js_namespace = performance, js_name = now)]
        fn performance_now() -> f64;
    }

    #[wasm_bindgen]
    pub struct SearchWorker {
        service: SearchService,
    }

    #[wasm_bindgen]
    impl SearchWorker {
        #[wasm_bindgen(constructor)]
        pub fn new() -> SearchWorker {
            SearchWorker {
                service: SearchService::new(performance_now),
            }
        }

        /// One message from the page; returns a reply to post at once (a
        /// refusal), or an empty string.
        pub fn input(&mut self, message: &str) -> String {
            self.service.input(message).unwrap_or_default()
        }

        /// Thinks for about `slice_ms` milliseconds, or to the answer;
        /// returns the answer message, or an empty string.
        pub fn think(&mut self, slice_ms: f64) -> String {
            let slice_end = performance_now() + slice_ms;
            self.service
                .think(&mut || performance_now() >= slice_end)
                .unwrap_or_default()
        }

        /// Whether a slice of thinking is due (a search, or tables to
        /// solve).
        pub fn busy(&self) -> bool {
            self.service.busy()
        }
    }

    impl Default for SearchWorker {
        fn default() -> Self {
            SearchWorker::new()
        }
    }
}
