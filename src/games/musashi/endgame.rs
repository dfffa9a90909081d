//! つよい's exact endgame tables for 十六むさし, solved in the background
//! while a game against it is played: on native in a thread, on the web by
//! the search worker for its own searches (the page solves them a few
//! milliseconds per frame only where it has no worker). Once solved they
//! are handed to the game, and the CPU's search trusts them
//! (`Game::exact`).

use std::sync::Arc;

use bevy::prelude::*;

use crate::games::resume::chosen;
use crate::games::review::Review;
use crate::games::session::{Match, Opponent, Presets};
use crate::rules::data::GameId;
use crate::rules::musashi::Musashi;
use crate::rules::musashi::solve::{self, Solver, Tables, TablesKey, tables_key};
use crate::shell::Screen;
use crate::shell::cpu::ThinkingSlices;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<EndgameTables>()
        .add_systems(
            Update,
            build_and_attach
                .run_if(in_state(Screen::Play))
                .run_if(chosen(GameId::Musashi))
                .run_if(resource_exists::<Match<Musashi>>),
        )
        .add_systems(
            Update,
            attach_to_review
                .run_if(in_state(Screen::Review))
                .run_if(chosen(GameId::Musashi))
                .run_if(resource_exists::<Review<Musashi>>),
        );
}

/// The tables solved so far (kept between games; `None` where not even
/// one layer fits the budget, so that is decided once) and the one being
/// solved.
#[derive(Resource, Default)]
pub struct EndgameTables {
    solved: Vec<(TablesKey, Option<Arc<Tables>>)>,
    building: Option<(TablesKey, imp::Build)>,
}

impl EndgameTables {
    /// Whether tables for these rules are ready (tests, the HUD).
    pub fn ready_for(&self, game: &Musashi) -> bool {
        self.solved
            .iter()
            .any(|(k, t)| *k == tables_key(game) && t.is_some())
    }
}

fn build_and_attach(
    mut m: ResMut<Match<Musashi>>,
    presets: Res<Presets<Musashi>>,
    mut tables: ResMut<EndgameTables>,
    mut slices: ResMut<ThinkingSlices>,
) {
    let Opponent::Cpu(strength) = m.setup.opponent else {
        return;
    };
    if !presets.0.cpu.get(strength).endgame_tables || m.game.endgame_reach() > 0 {
        return;
    }
    // The page's worker solves the tables its searches read.
    #[cfg(target_arch = "wasm32")]
    if crate::shell::cpu::worker_works() {
        return;
    }
    match tables.solve(&m.game, &mut slices) {
        Solving::Ready(t) => {
            if let Err(e) = m.game.set_endgame(t) {
                warn!("endgame tables: {e}");
            }
        }
        Solving::Pending | Solving::None => {}
    }
}

/// Where the tables for a game's rules stand.
enum Solving {
    Ready(Arc<Tables>),
    Pending,
    /// Not even one layer fits the budget.
    None,
}

impl EndgameTables {
    /// The tables for `game`'s rules: solved, or solving on (started now
    /// if they were not).
    fn solve(&mut self, game: &Musashi, slices: &mut ThinkingSlices) -> Solving {
        let key = tables_key(game);
        if let Some((_, solved)) = self.solved.iter().find(|(k, _)| *k == key) {
            return match solved {
                Some(t) => Solving::Ready(t.clone()),
                None => Solving::None,
            };
        }
        match self.building.as_mut() {
            Some((k, build)) if *k == key => {
                if let Some(done) = slices.time(|| build.poll()) {
                    self.building = None;
                    let done = Arc::new(done);
                    self.solved.push((key, Some(done.clone())));
                    return Solving::Ready(done);
                }
            }
            _ => match Solver::for_game(game, imp::BUDGET) {
                Some(solver) => self.building = Some((key, imp::Build::start(solver))),
                None => {
                    self.solved.push((key, None));
                    return Solving::None;
                }
            },
        }
        Solving::Pending
    }
}

/// 振り返り reads every position with the exact tables where they reach,
/// and tells the exact verdict of each: the reading waits for them (solved
/// for this game's rules if no game against つよい has solved them yet),
/// then starts again with them. On the web the search worker solves them
/// and judges the positions; the page solves them in its frames only
/// where it has no worker.
fn attach_to_review(
    mut review: ResMut<Review<Musashi>>,
    mut tables: ResMut<EndgameTables>,
    mut slices: ResMut<ThinkingSlices>,
    mut asked: Local<Asked>,
) {
    if review.is_added() {
        *asked = Asked::default();
    }
    if review.exact.is_some() || asked.given_up {
        if review.exact_pending {
            review.exact_pending = false;
        }
        return;
    }
    if review.game.endgame_reach() > 0 {
        // The game came with its tables.
        review.exact = Some(verdicts_of(&review));
        return;
    }
    if asked.ask_the_worker(&mut review) {
        return;
    }
    match tables.solve(&review.game, &mut slices) {
        Solving::Ready(t) => {
            match review.game.set_endgame(t) {
                Ok(()) => {
                    review.exact = Some(verdicts_of(&review));
                    review.read_again();
                }
                // Tables for other rules: the review reads without them
                // (and asks no more).
                Err(e) => {
                    warn!("endgame tables: {e}");
                    asked.given_up = true;
                }
            }
            review.exact_pending = false;
        }
        Solving::Pending => {
            if !review.exact_pending {
                review.exact_pending = true;
            }
        }
        Solving::None => {
            asked.given_up = true;
            review.exact_pending = false;
        }
    }
}

/// The tables' verdict on each of the review's positions (its game holds
/// them).
fn verdicts_of(review: &Review<Musashi>) -> Vec<Option<crate::rules::game::Exact>> {
    use crate::rules::game::Game;
    let positions = review.record.positions();
    positions.iter().map(|p| review.game.exact(p)).collect()
}

/// Where the review's wait for its tables stands.
#[derive(Default)]
struct Asked {
    /// No tables for these rules: the review reads without them.
    given_up: bool,
    /// The page's worker was asked for the verdicts (the web).
    #[cfg(target_arch = "wasm32")]
    worker: Option<crate::shell::cpu::WorkerRequest<crate::rules::search_service::Verdicts>>,
    /// The worker could not answer: the page solves the tables itself.
    #[cfg(target_arch = "wasm32")]
    worker_failed: bool,
}

impl Asked {
    /// Has the page's worker solve the tables and judge the review's
    /// positions; whether it does (false natively, or where the page has
    /// no worker that works: the page then solves them).
    #[cfg(target_arch = "wasm32")]
    fn ask_the_worker(&mut self, review: &mut Review<Musashi>) -> bool {
        use crate::rules::search_service::{VerdictsRequest, verdicts_message};
        if self.worker_failed {
            return false;
        }
        let Some(request) = self.worker.as_mut() else {
            let question = VerdictsRequest {
                rules: *review.game.rules(),
                positions: review.record.positions().to_vec(),
            };
            self.worker =
                crate::shell::cpu::WorkerRequest::post(|id| verdicts_message(id, &question));
            self.worker_failed = self.worker.is_none();
            if self.worker.is_some() {
                review.exact_pending = true;
            }
            return self.worker.is_some();
        };
        match request.poll() {
            None => {}
            Some(Ok(Some(verdicts))) => {
                self.worker = None;
                review.exact = Some(verdicts);
                review.read_again();
                review.exact_pending = false;
            }
            Some(Ok(None)) => {
                self.worker = None;
                self.given_up = true;
                review.exact_pending = false;
            }
            Some(Err(())) => {
                self.worker = None;
                self.worker_failed = true;
                return false;
            }
        }
        true
    }

    #[cfg(not(target_arch = "wasm32"))]
    fn ask_the_worker(&mut self, _review: &mut Review<Musashi>) -> bool {
        false
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod imp {
    use std::sync::Mutex;
    use std::sync::mpsc::{Receiver, channel};

    use super::*;

    pub(crate) const BUDGET: u64 = solve::NATIVE_BUDGET;

    /// A thread solving the tables. (A Mutex only to make the receiver
    /// `Sync` for Bevy resources.)
    pub(crate) struct Build(Mutex<Receiver<Tables>>);

    impl Build {
        pub fn start(solver: Solver) -> Self {
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                let _ = tx.send(solver.finish());
            });
            Build(Mutex::new(rx))
        }

        pub(crate) fn poll(&mut self) -> Option<Tables> {
            // Empty: still solving. (Disconnected cannot happen unless the
            // thread died; the game then plays on without tables.)
            self.0.get_mut().ok()?.try_recv().ok()
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod imp {
    use bevy::platform::time::Instant;

    use super::*;

    pub(crate) const BUDGET: u64 = solve::WEB_BUDGET;
    /// Milliseconds of solving per frame: the page stays smooth.
    const SLICE_MS: u128 = 5;
    /// Positions between two looks at the clock.
    const CHUNK: usize = 20_000;

    /// The solver, advanced a slice each frame.
    pub(crate) struct Build(Option<Solver>);

    impl Build {
        pub fn start(solver: Solver) -> Self {
            Build(Some(solver))
        }

        pub(crate) fn poll(&mut self) -> Option<Tables> {
            let start = Instant::now();
            let solver = self.0.as_mut()?;
            while start.elapsed().as_millis() < SLICE_MS {
                if solver.work(CHUNK) {
                    return self.0.take().and_then(Solver::into_tables);
                }
            }
            None
        }
    }
}
