//! Runs a search without freezing the screen: on native in a background
//! thread, on the web (one thread) a few milliseconds per frame. Dropping a
//! [`Thinker`] cancels its search (undo, quit, new game).

use crate::rules::game::Game;
use crate::rules::search::{SearchPlan, SearchResult, Searcher};

/// The search a thinker runs: `pos` after the positions `history`, for a
/// move that is not one of `forbidden` (a rule about the game so far).
fn searcher<G: Game>(
    game: &G,
    pos: G::Pos,
    history: &[u64],
    plan: SearchPlan,
    forbidden: &[G::Move],
) -> Searcher<G> {
    Searcher::new(game, pos, history, plan).restrict_root(|m| !forbidden.contains(&m))
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use super::*;
    use crate::rules::search::Step;
    use std::sync::Arc;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc::{Receiver, TryRecvError, channel};

    pub struct Thinker<G: Game> {
        cancel: Arc<AtomicBool>,
        // A Mutex only to make the receiver `Sync` for Bevy resources.
        answer: Mutex<Receiver<Option<SearchResult<G::Move>>>>,
    }

    impl<G> Thinker<G>
    where
        G: Game + Clone + Send + 'static,
        G::Pos: Send,
        G::Move: Send,
    {
        /// Starts [`searcher`] in a background thread.
        pub fn start(
            game: &G,
            pos: G::Pos,
            history: &[u64],
            plan: SearchPlan,
            forbidden: Vec<G::Move>,
        ) -> Self {
            let cancel = Arc::new(AtomicBool::new(false));
            let (tx, rx) = channel();
            let flag = cancel.clone();
            let game = game.clone();
            let history = history.to_vec();
            std::thread::spawn(move || {
                let mut searcher = searcher(&game, pos, &history, plan, &forbidden);
                loop {
                    match searcher.step(&game, &mut || flag.load(Ordering::Relaxed)) {
                        Step::Pending if flag.load(Ordering::Relaxed) => return,
                        Step::Pending => continue,
                        Step::Done(r) => {
                            let _ = tx.send(Some(r));
                            return;
                        }
                        Step::NoMove => {
                            let _ = tx.send(None);
                            return;
                        }
                    }
                }
            });
            Thinker {
                cancel,
                answer: Mutex::new(rx),
            }
        }

        /// `Some(answer)` once the search has finished.
        pub fn poll(&mut self, _game: &G) -> Option<Option<SearchResult<G::Move>>> {
            let Ok(answer) = self.answer.get_mut() else {
                return Some(None);
            };
            match answer.try_recv() {
                Ok(a) => Some(a),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => Some(None),
            }
        }
    }

    impl<G: Game> Drop for Thinker<G> {
        fn drop(&mut self) {
            self.cancel.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use super::*;
    use crate::rules::search::Step;
    use bevy::platform::time::Instant;

    /// Milliseconds of search per frame: the page stays smooth.
    const SLICE_MS: u128 = 8;

    pub struct Thinker<G: Game> {
        searcher: Searcher<G>,
    }

    impl<G: Game + Clone> Thinker<G> {
        pub fn start(
            game: &G,
            pos: G::Pos,
            history: &[u64],
            plan: SearchPlan,
            forbidden: Vec<G::Move>,
        ) -> Self {
            Thinker {
                searcher: searcher(game, pos, history, plan, &forbidden),
            }
        }

        pub fn poll(&mut self, game: &G) -> Option<Option<SearchResult<G::Move>>> {
            let start = Instant::now();
            match self
                .searcher
                .step(game, &mut || start.elapsed().as_millis() >= SLICE_MS)
            {
                Step::Pending => None,
                Step::Done(r) => Some(Some(r)),
                Step::NoMove => Some(None),
            }
        }
    }
}

pub use imp::Thinker;
