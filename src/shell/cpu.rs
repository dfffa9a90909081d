//! Runs a search without freezing the screen: on native in a background
//! thread, on the web (one thread) a few milliseconds per frame. Dropping a
//! `Thinker` cancels its search (undo, quit, new game); a `Reading` is a
//! one-off reading that cannot be sliced (the mate solver's), kept off the
//! frame natively and read at once on the web. A level's time
//! for a move (`time_ms`) is kept by the clock here, in wall-clock time
//! from the start of the thinking: what the player waits.

use crate::rules::game::Game;
use crate::rules::search::{SearchPlan, SearchResult, Searcher};
use bevy::prelude::Resource;

/// How hard a native search may use the machine.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum SearchPace {
    /// A whole core: the graphics card draws the frames.
    #[default]
    Full,
    /// The frames are drawn on the CPU too (a software renderer): the
    /// search thinks in short slices with rests between, so that the
    /// renderer's threads find the cores free. The search reads as far as
    /// its node budget, only more slowly — unless the level's time for a
    /// move ends it first.
    ShareWithRenderer,
}

/// How long the thinking done inside frames took at most: a thinker's
/// poll (on the web the search itself runs there, a slice a frame; natively
/// it only looks for an answer) and the endgame tables built a slice a
/// frame. On the web this is what thinking adds to a frame; the browser
/// test reads it as `data-search-slice`.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct ThinkingSlices {
    /// The longest slice so far, in milliseconds.
    pub longest_ms: f64,
    /// All the thinking done in frames so far, in milliseconds.
    pub total_ms: f64,
    pub slices: u64,
}

impl ThinkingSlices {
    /// Runs one slice of thinking and keeps its time.
    pub fn time<T>(&mut self, slice: impl FnOnce() -> T) -> T {
        let started = bevy::platform::time::Instant::now();
        let out = slice();
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        self.slices += 1;
        self.total_ms += ms;
        if ms > self.longest_ms {
            self.longest_ms = ms;
        }
        out
    }
}

/// The search a thinker runs: `pos` after the positions `history`, for a
/// move that is not one of `forbidden` (a rule about the game so far),
/// within the plan's time for a move from now; a single move left is read
/// for its score when `score_single` asks.
fn searcher<G: Game>(
    game: &G,
    pos: G::Pos,
    history: &[u64],
    plan: SearchPlan,
    forbidden: &[G::Move],
    score_single: bool,
) -> Searcher<G> {
    let limit = plan.time_ms.map(std::time::Duration::from_millis);
    let mut searcher =
        Searcher::new(game, pos, history, plan).restrict_root(|m| !forbidden.contains(&m));
    if score_single {
        searcher = searcher.scoring_a_single_move();
    }
    match limit {
        Some(limit) => {
            // Bevy's Instant: the browser's clock on the web.
            let started = bevy::platform::time::Instant::now();
            searcher.with_clock(Box::new(move || started.elapsed() >= limit))
        }
        None => searcher,
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use super::*;
    use crate::rules::search::Step;
    use std::sync::Arc;
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::mpsc::{Receiver, TryRecvError, channel};
    use std::time::{Duration, Instant};

    /// [`SearchPace::ShareWithRenderer`]: think this long, then rest.
    const SHARED_SLICE: Duration = Duration::from_millis(4);
    const SHARED_REST: Duration = Duration::from_millis(4);

    pub(crate) struct Thinker<G: Game> {
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
            pace: SearchPace,
            score_single: bool,
        ) -> Self {
            let cancel = Arc::new(AtomicBool::new(false));
            let (tx, rx) = channel();
            let flag = cancel.clone();
            let game = game.clone();
            let history = history.to_vec();
            std::thread::spawn(move || {
                yield_to_the_screen();
                let mut searcher = searcher(&game, pos, &history, plan, &forbidden, score_single);
                loop {
                    let slice = Instant::now();
                    let step = searcher.step(&game, &mut || {
                        flag.load(Ordering::Relaxed)
                            || (pace == SearchPace::ShareWithRenderer
                                && slice.elapsed() >= SHARED_SLICE)
                    });
                    match step {
                        Step::Pending if flag.load(Ordering::Relaxed) => return,
                        Step::Pending => std::thread::sleep(SHARED_REST),
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
        pub(crate) fn poll(&mut self, _game: &G) -> Option<Option<SearchResult<G::Move>>> {
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

    /// Gives the calling thread the lowest scheduling priority, so that on
    /// a machine with few cores the frames (and a software renderer's own
    /// threads) always run before the search: a search slowed by a frame
    /// costs a few milliseconds of thinking, a frame slowed by the search
    /// is a visible stutter.
    fn yield_to_the_screen() {
        #[cfg(target_os = "linux")]
        // SAFETY: plain system calls on the calling thread's own id; they
        // touch no memory, and a refusal only leaves the priority as it was.
        unsafe {
            let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
            libc::setpriority(libc::PRIO_PROCESS, tid, 19);
        }
    }

    impl<G: Game> Drop for Thinker<G> {
        fn drop(&mut self) {
            self.cancel.store(true, Ordering::Relaxed);
        }
    }

    /// A one-off reading kept off the frame (a mate problem's move off its
    /// line): in a background thread at the lowest priority, told to stop
    /// when dropped.
    pub(crate) struct Reading<T> {
        cancel: Arc<AtomicBool>,
        answer: Mutex<Receiver<T>>,
    }

    impl<T: Send + 'static> Reading<T> {
        /// Starts `work`, which is to stop when the closure it is given
        /// says so.
        pub fn start(work: impl FnOnce(&mut dyn FnMut() -> bool) -> T + Send + 'static) -> Self {
            let cancel = Arc::new(AtomicBool::new(false));
            let (tx, rx) = channel();
            let flag = cancel.clone();
            std::thread::spawn(move || {
                yield_to_the_screen();
                let _ = tx.send(work(&mut || flag.load(Ordering::Relaxed)));
            });
            Reading {
                cancel,
                answer: Mutex::new(rx),
            }
        }

        /// The answer, once the reading has ended.
        pub fn poll(&mut self) -> Option<T> {
            self.answer.get_mut().ok()?.try_recv().ok()
        }
    }

    impl<T> Drop for Reading<T> {
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

    pub(crate) struct Thinker<G: Game> {
        searcher: Searcher<G>,
    }

    impl<G: Game + Clone> Thinker<G> {
        pub fn start(
            game: &G,
            pos: G::Pos,
            history: &[u64],
            plan: SearchPlan,
            forbidden: Vec<G::Move>,
            // The page's search is always sliced (one thread).
            _pace: SearchPace,
            score_single: bool,
        ) -> Self {
            Thinker {
                searcher: searcher(game, pos, history, plan, &forbidden, score_single),
            }
        }

        pub(crate) fn poll(&mut self, game: &G) -> Option<Option<SearchResult<G::Move>>> {
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

    /// A one-off reading (a mate problem's move off its line): the page
    /// has one thread and the reading cannot be sliced, so it is read at
    /// once, within its own clock.
    pub(crate) struct Reading<T> {
        answer: Option<T>,
    }

    impl<T: Send + 'static> Reading<T> {
        pub fn start(work: impl FnOnce(&mut dyn FnMut() -> bool) -> T + Send + 'static) -> Self {
            Reading {
                answer: Some(work(&mut || false)),
            }
        }

        pub fn poll(&mut self) -> Option<T> {
            self.answer.take()
        }
    }
}

pub(crate) use imp::{Reading, Thinker};
