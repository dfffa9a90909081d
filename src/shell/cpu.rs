//! Runs a search (`Thinker`), or the mate solver's judgement of a move
//! off a problem's line (`LineJudge`), without freezing the screen: on
//! native in a background thread, on the web in a Web Worker
//! (`web/search-worker.js`, running the game's own module) — or, where the
//! page cannot start one, a search a few milliseconds per frame and a
//! judgement at once. Dropping either cancels it (undo, quit, new game). A
//! level's time for a move (`time_ms`) is kept by the clock here, in
//! wall-clock time from the start of the thinking: what the player waits.

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

/// How long the thinking done inside frames took at most: a search on a
/// page that cannot start its worker (a slice a frame) and the endgame
/// tables built a slice a frame. A look for an answer from a thread or a
/// worker is not thinking. On the web this is what thinking adds to a
/// frame; the browser test reads it as `data-search-slice`.
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
    use crate::rules::rulebook::{OffLine, Rulebook};
    use crate::rules::search::Step;
    use crate::rules::search_service::OffLineRequest;
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

        /// `Some(answer)` once the search has finished (the thread thinks,
        /// not the frame: nothing goes into `_slices`).
        pub(crate) fn poll(
            &mut self,
            _game: &G,
            _slices: &mut ThinkingSlices,
        ) -> Option<Option<SearchResult<G::Move>>> {
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

    /// A move off a problem's line, judged off the frame: in a background
    /// thread at the lowest priority, told to stop when dropped.
    pub(crate) struct LineJudge<G: Rulebook> {
        cancel: Arc<AtomicBool>,
        answer: Mutex<Receiver<Option<OffLine<G::Move>>>>,
    }

    impl<G> LineJudge<G>
    where
        G: Rulebook + Send + 'static,
        G::Pos: Send,
        G::Move: Send,
    {
        pub fn start(request: OffLineRequest<G>) -> Self {
            let cancel = Arc::new(AtomicBool::new(false));
            let (tx, rx) = channel();
            let flag = cancel.clone();
            std::thread::spawn(move || {
                yield_to_the_screen();
                let started = Instant::now();
                let now = move || started.elapsed().as_secs_f64() * 1000.0;
                let answer = request.judge(&now, &mut || flag.load(Ordering::Relaxed));
                let _ = tx.send(answer.ok().flatten());
            });
            LineJudge {
                cancel,
                answer: Mutex::new(rx),
            }
        }

        /// The judgement, once it has been read.
        pub fn poll(&mut self) -> Option<Option<OffLine<G::Move>>> {
            self.answer.get_mut().ok()?.try_recv().ok()
        }
    }

    impl<G: Rulebook> Drop for LineJudge<G> {
        fn drop(&mut self) {
            self.cancel.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::rc::Rc;

    use bevy::platform::time::Instant;
    use wasm_bindgen::JsCast;
    use wasm_bindgen::prelude::Closure;
    use web_sys::{Event, MessageEvent, Worker, WorkerOptions, WorkerType};

    use super::*;
    use crate::rules::rulebook::{OffLine, Rulebook};
    use crate::rules::search::Step;
    use crate::rules::search_service::{
        OffLineRequest, Reply, SearchAnswer, SearchRequest, off_line_message, read_reply,
        search_message,
    };

    /// Milliseconds of search per frame where the page must think itself
    /// (no worker): the page stays smooth.
    const SLICE_MS: u128 = 8;

    /// The search worker's script, beside the page (`make web-build`).
    const WORKER_SCRIPT: &str = "search-worker.js";

    /// What the worker has posted: each answer by its search's number,
    /// and whether it is broken (its script did not load, or it failed).
    #[derive(Default)]
    struct Replies {
        by_search: HashMap<u64, String>,
        broken: bool,
    }

    /// The page's one search worker.
    struct Link {
        worker: Worker,
        replies: Rc<RefCell<Replies>>,
        next_search: u64,
        // Kept alive as long as the worker may call them.
        _on_message: Closure<dyn FnMut(MessageEvent)>,
        _on_error: Closure<dyn FnMut(Event)>,
    }

    impl Link {
        fn open() -> Option<Link> {
            // `?cpu=frames`: think in the frames as before there were
            // workers (the browser test compares the two).
            let query = web_sys::window()?.location().search().ok()?;
            if query.contains("cpu=frames") {
                return None;
            }
            let options = WorkerOptions::new();
            options.set_type(WorkerType::Module);
            let worker = Worker::new_with_options(WORKER_SCRIPT, &options).ok()?;
            let replies = Rc::new(RefCell::new(Replies::default()));
            let sink = replies.clone();
            let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                let Some(text) = event.data().as_string() else {
                    return;
                };
                let mut replies = sink.borrow_mut();
                if text.starts_with("broken") {
                    replies.broken = true;
                } else if let Some(id) = search_number(&text) {
                    replies.by_search.insert(id, text);
                }
            });
            let sink = replies.clone();
            let on_error = Closure::<dyn FnMut(Event)>::new(move |_: Event| {
                sink.borrow_mut().broken = true;
            });
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            Some(Link {
                worker,
                replies,
                next_search: 1,
                _on_message: on_message,
                _on_error: on_error,
            })
        }

        fn broken(&self) -> bool {
            self.replies.borrow().broken
        }
    }

    /// The number of the search a reply is about.
    fn search_number(reply: &str) -> Option<u64> {
        reply.split([' ', '\n']).nth(1)?.parse().ok()
    }

    thread_local! {
        /// Opened at the first search; `None` inside where the page cannot
        /// start workers.
        static LINK: RefCell<Option<Option<Link>>> = const { RefCell::new(None) };
    }

    /// Runs `f` on the worker, if the page has one that works.
    fn with_link<T>(f: impl FnOnce(&mut Link) -> T) -> Option<T> {
        LINK.with(|cell| {
            let mut cell = cell.borrow_mut();
            let link = cell.get_or_insert_with(Link::open).as_mut()?;
            (!link.broken()).then(|| f(link))
        })
    }

    /// Whether the page has a search worker that works (it is started
    /// now if it was not).
    pub(crate) fn worker_works() -> bool {
        with_link(|_| ()).is_some()
    }

    /// A request posted to the worker, answered by a message that reads
    /// as an `A`; dropped unanswered, it is cancelled there.
    pub(crate) struct WorkerRequest<A> {
        id: u64,
        answered: bool,
        _answer: std::marker::PhantomData<fn() -> A>,
    }

    impl<A: serde::de::DeserializeOwned> WorkerRequest<A> {
        /// Posts the message `write` makes for the request's number;
        /// `None` where the page has no worker that works.
        pub(crate) fn post(write: impl FnOnce(u64) -> Result<String, String>) -> Option<Self> {
            with_link(|link| {
                let id = link.next_search;
                let message = write(id).ok()?;
                link.worker.post_message(&message.into()).ok()?;
                link.next_search += 1;
                Some(WorkerRequest {
                    id,
                    answered: false,
                    _answer: std::marker::PhantomData,
                })
            })
            .flatten()
        }

        /// The answer, once it has come; an error if the worker cannot
        /// give one (it broke, or refused the request).
        pub(crate) fn poll(&mut self) -> Option<Result<A, ()>> {
            let reply = posted_reply::<A>(self.id)?;
            self.answered = true;
            Some(reply)
        }
    }

    impl<A> Drop for WorkerRequest<A> {
        fn drop(&mut self) {
            if !self.answered {
                let id = self.id;
                with_link(|link| {
                    let _ = link.worker.post_message(&format!("cancel {id}").into());
                });
            }
        }
    }

    /// A search on the worker, or in the page's frames where it has none.
    pub(crate) struct Thinker<G: Game> {
        /// The search on the worker, while it thinks there.
        remote: Option<WorkerRequest<Option<SearchAnswer<G::Move>>>>,
        /// The search in the frames: no worker, or it failed.
        local: Option<Searcher<G>>,
        /// Makes the search for the frames, if the worker fails.
        fallback: Option<Box<dyn FnOnce() -> Searcher<G> + Send + Sync>>,
    }

    impl<G> Thinker<G>
    where
        G: Rulebook + Clone + Send + Sync + 'static,
        G::Pos: Send + Sync,
        G::Move: Send + Sync,
    {
        pub fn start(
            game: &G,
            pos: G::Pos,
            history: &[u64],
            plan: SearchPlan,
            forbidden: Vec<G::Move>,
            // The worker always thinks at full pace.
            _pace: SearchPace,
            score_single: bool,
        ) -> Self {
            let request = SearchRequest::<G> {
                rules: game.rules().clone(),
                pos: pos.clone(),
                history: history.to_vec(),
                plan: plan.clone(),
                forbidden: forbidden.clone(),
                score_single,
            };
            let remote = WorkerRequest::post(|id| search_message(id, &request));
            let game = game.clone();
            let history = history.to_vec();
            let fallback = move || searcher(&game, pos, &history, plan, &forbidden, score_single);
            match remote {
                Some(remote) => Thinker {
                    remote: Some(remote),
                    local: None,
                    fallback: Some(Box::new(fallback)),
                },
                None => Thinker {
                    remote: None,
                    local: Some(fallback()),
                    fallback: None,
                },
            }
        }

        /// `Some(answer)` once the search has finished; a slice of the
        /// search where the page thinks itself (kept in `slices`).
        pub(crate) fn poll(
            &mut self,
            game: &G,
            slices: &mut ThinkingSlices,
        ) -> Option<Option<SearchResult<G::Move>>> {
            if let Some(remote) = self.remote.as_mut() {
                match remote.poll() {
                    Some(Ok(answer)) => {
                        self.remote = None;
                        if let Some(a) = &answer {
                            mirror_answer(a.depth, a.nodes, a.elapsed_ms);
                        }
                        return Some(answer.map(SearchAnswer::into_result));
                    }
                    // Thinking on the worker still.
                    None => return None,
                    // The page thinks itself.
                    Some(Err(())) => {
                        self.remote = None;
                        self.local = self.fallback.take().map(|make| make());
                    }
                }
            }
            let searcher = self.local.as_mut()?;
            let step = slices.time(|| {
                let start = Instant::now();
                searcher.step(game, &mut || start.elapsed().as_millis() >= SLICE_MS)
            });
            match step {
                Step::Pending => None,
                Step::Done(r) => Some(Some(r)),
                Step::NoMove => Some(None),
            }
        }
    }

    /// The worker's answer to request `id`, read, if it has come; an error
    /// if the worker cannot give one.
    fn posted_reply<A: serde::de::DeserializeOwned>(id: u64) -> Option<Result<A, ()>> {
        let posted = LINK.with(|cell| {
            let cell = cell.borrow();
            let Some(Some(link)) = cell.as_ref() else {
                return Some(Err(()));
            };
            let mut replies = link.replies.borrow_mut();
            if replies.broken {
                return Some(Err(()));
            }
            replies.by_search.remove(&id).map(Ok)
        })?;
        let Ok(text) = posted else {
            return Some(Err(()));
        };
        Some(match read_reply::<A>(&text) {
            Ok((_, Reply::Answer(answer))) => Ok(answer),
            Ok((_, Reply::Refused(why))) => {
                bevy::log::warn!("the search worker refused a request: {why}");
                Err(())
            }
            Err(why) => {
                bevy::log::warn!("the search worker's answer: {why}");
                Err(())
            }
        })
    }

    /// `data-worker-searches`, `-depth`, `-nodes` and `-ms`: how many
    /// answers the worker has given, and the last one's deepest finished
    /// reading, nodes and time (the browser test reads them).
    fn mirror_answer(depth: u8, nodes: u64, ms: f64) {
        let Some(body) = crate::shell::web::page_body() else {
            return;
        };
        let searches = body
            .get_attribute("data-worker-searches")
            .and_then(|n| n.parse::<u64>().ok())
            .unwrap_or(0);
        let _ = body.set_attribute("data-worker-searches", &(searches + 1).to_string());
        let _ = body.set_attribute("data-worker-depth", &depth.to_string());
        let _ = body.set_attribute("data-worker-nodes", &nodes.to_string());
        let _ = body.set_attribute("data-worker-ms", &format!("{ms:.0}"));
    }

    /// The longest a judgement read at once may hold the page, where it
    /// has no worker.
    const AT_ONCE_MOST_MS: f64 = 1500.0;

    /// A move off a problem's line, judged by the worker; where the page
    /// has none, read at once within [`AT_ONCE_MOST_MS`].
    pub(crate) struct LineJudge<G: Rulebook> {
        remote: Option<WorkerRequest<Option<OffLine<G::Move>>>>,
        request: OffLineRequest<G>,
    }

    impl<G: Rulebook> LineJudge<G> {
        pub fn start(request: OffLineRequest<G>) -> Self {
            let remote = WorkerRequest::post(|id| off_line_message(id, &request));
            LineJudge { remote, request }
        }

        /// The judgement, once it has been read.
        pub fn poll(&mut self) -> Option<Option<OffLine<G::Move>>> {
            if let Some(remote) = self.remote.as_mut() {
                let reply = remote.poll()?;
                self.remote = None;
                if let Ok(answer) = reply {
                    return Some(answer);
                }
            }
            let request = &self.request;
            let at_once = OffLineRequest::<G> {
                rules: request.rules.clone(),
                pos: request.pos.clone(),
                mv: request.mv,
                most_asks: request.most_asks,
                most_ms: request.most_ms.min(AT_ONCE_MOST_MS),
            };
            let started = Instant::now();
            let now = move || started.elapsed().as_secs_f64() * 1000.0;
            Some(at_once.judge(&now, &mut || false).ok().flatten())
        }
    }
}

pub(crate) use imp::{LineJudge, Thinker};
#[cfg(target_arch = "wasm32")]
pub(crate) use imp::{WorkerRequest, worker_works};
