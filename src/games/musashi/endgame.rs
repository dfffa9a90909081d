//! つよい's exact endgame tables for 十六むさし, solved in the background
//! while a game against it is played: on native in a thread, on the web a
//! few milliseconds per frame. Once solved they are handed to the game, and
//! the CPU's search trusts them (`Game::exact`).

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

/// 振り返り reads every position with the exact tables where they reach:
/// the reading waits for them (solved for this game's rules if no game
/// against つよい has solved them yet), then starts again with them.
fn attach_to_review(
    mut review: ResMut<Review<Musashi>>,
    mut tables: ResMut<EndgameTables>,
    mut slices: ResMut<ThinkingSlices>,
    mut refused: Local<bool>,
) {
    if review.game.endgame_reach() > 0 || *refused {
        if review.exact_pending {
            review.exact_pending = false;
        }
        return;
    }
    match tables.solve(&review.game, &mut slices) {
        Solving::Ready(t) => {
            match review.game.set_endgame(t) {
                Ok(()) => review.read_again(),
                // Tables for other rules: the review reads without them
                // (and asks no more).
                Err(e) => {
                    warn!("endgame tables: {e}");
                    *refused = true;
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
            if review.exact_pending {
                review.exact_pending = false;
            }
        }
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
