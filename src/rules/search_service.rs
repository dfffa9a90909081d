//! The CPU's searches behind text messages, for a web page whose frames
//! must never think: the page posts a [`SearchRequest`] to a worker (the
//! Bevy-free wasm build of `make engine-web`), the worker runs it here a
//! slice at a time between reading its messages, and posts the answer
//! back. Natively the same messages run in tests, so what the worker
//! answers is checked against the search the desktop runs in a thread.
//!
//! Messages are text. To the worker: `search <id> <game>` and, on the
//! lines after it, a [`SearchRequest`] in RON; `offline <id> <game>` and an
//! [`OffLineRequest`] (a move off a problem's line, judged by the mate
//! solver); `verdicts <id> musashi` and a [`VerdictsRequest`] (十六むさし
//! positions judged by the exact tables, solved first where they are not
//! yet); `cancel <id>`. From it: `answer <id>` and the answer in RON (a
//! search's `Option<SearchAnswer>`, `None`: no move; a judgement's
//! `Option<OffLine>`; the verdicts' `Option<Vec<Option<Exact>>>`, `None`:
//! no tables fit), or `refused <id> <why>` for a request it could not
//! read.

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::rules::chu::game::Chu;
use crate::rules::data::GameId;
use crate::rules::foxgeese::FoxGeese;
use crate::rules::game::{Exact, Game};
use crate::rules::hasami::Hasami;
use crate::rules::musashi::solve::{NATIVE_BUDGET, Solver, Tables, TablesKey, tables_key};
use crate::rules::musashi::{Musashi, MusashiPos, MusashiRules};
use crate::rules::rulebook::{OffLine, Rulebook};
use crate::rules::search::{SearchPlan, SearchResult, Searcher, Step};

/// One search, as the page's thinker would run it in a thread.
#[derive(Serialize, Deserialize)]
#[serde(bound(
    serialize = "G::Pos: Serialize",
    deserialize = "G::Pos: DeserializeOwned"
))]
pub struct SearchRequest<G: Rulebook> {
    /// The game's rules ([`Rulebook::create`] makes the game of them).
    pub rules: G::Rules,
    pub pos: G::Pos,
    /// [`Searcher::new`]'s `history`.
    pub history: Vec<u64>,
    pub plan: SearchPlan,
    /// Root moves a rule about the game so far forbids.
    pub forbidden: Vec<G::Move>,
    /// Read a single legal move for its score all the same.
    pub score_single: bool,
}

/// A move off a problem's line, for the game to judge
/// ([`Rulebook::off_line`]) within at most `most_asks` of the reading's
/// asks whether to stop and `most_ms` milliseconds.
#[derive(Serialize, Deserialize)]
#[serde(bound(
    serialize = "G::Pos: Serialize",
    deserialize = "G::Pos: DeserializeOwned"
))]
pub struct OffLineRequest<G: Rulebook> {
    pub rules: G::Rules,
    pub pos: G::Pos,
    pub mv: G::Move,
    pub most_asks: u32,
    pub most_ms: f64,
}

impl<G: Rulebook> OffLineRequest<G> {
    /// The judgement, as the desktop reads it in a thread; `now` is the
    /// clock `most_ms` counts on, and the reading also stops when
    /// `cancelled` says so.
    pub fn judge(
        &self,
        now: &dyn Fn() -> f64,
        cancelled: &mut dyn FnMut() -> bool,
    ) -> Result<Option<OffLine<G::Move>>, String> {
        let game = G::create(&self.rules)?;
        let started = now();
        let mut asks = 0;
        Ok(game.off_line(&self.pos, self.mv, &mut || {
            asks += 1;
            cancelled() || asks > self.most_asks || now() - started >= self.most_ms
        }))
    }
}

/// The `offline` message for `request`.
pub fn off_line_message<G: Rulebook>(
    id: u64,
    request: &OffLineRequest<G>,
) -> Result<String, String> {
    let body = ron::to_string(request).map_err(|e| e.to_string())?;
    Ok(format!("offline {id} {}\n{body}", G::ID.id()))
}

/// 十六むさし positions (a game under review) for the exact tables of
/// their rules to judge.
#[derive(Serialize, Deserialize)]
pub struct VerdictsRequest {
    pub rules: MusashiRules,
    pub positions: Vec<MusashiPos>,
}

/// The `verdicts` message for `request`.
pub fn verdicts_message(id: u64, request: &VerdictsRequest) -> Result<String, String> {
    let body = ron::to_string(request).map_err(|e| e.to_string())?;
    Ok(format!("verdicts {id} {}\n{body}", GameId::Musashi.id()))
}

/// What the tables say of each position: `None` where they cannot be
/// built for these rules, and inside, `None` for a position they do not
/// reach.
pub type Verdicts = Option<Vec<Option<Exact>>>;

/// A finished search, with what the worker spent on it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SearchAnswer<M> {
    pub best: M,
    pub score: i32,
    pub depth: u8,
    pub nodes: u64,
    pub pv: Vec<M>,
    /// Milliseconds from the request's arrival to its answer.
    pub elapsed_ms: f64,
}

impl<M> SearchAnswer<M> {
    pub fn into_result(self) -> SearchResult<M> {
        SearchResult {
            best: self.best,
            score: self.score,
            depth: self.depth,
            nodes: self.nodes,
            pv: self.pv,
        }
    }
}

/// The `search` message for `request`.
pub fn search_message<G: Rulebook>(id: u64, request: &SearchRequest<G>) -> Result<String, String>
where
    G::Pos: Serialize,
{
    let body = ron::to_string(request).map_err(|e| e.to_string())?;
    Ok(format!("search {id} {}\n{body}", G::ID.id()))
}

/// What a message from the worker says about the request `id`.
#[derive(Debug, PartialEq)]
pub enum Reply<A> {
    /// The answer (a search's `Option<SearchAnswer>`, a judgement's
    /// `Option<OffLine>`).
    Answer(A),
    /// The worker could not run the request.
    Refused(String),
}

/// Reads a message from the worker: the request it answers and what it
/// says; an error for a message that is not a reply.
pub fn read_reply<A: DeserializeOwned>(message: &str) -> Result<(u64, Reply<A>), String> {
    let (head, body) = message.split_once('\n').unwrap_or((message, ""));
    let mut words = head.splitn(3, ' ');
    let kind = words.next().unwrap_or("");
    let id = words
        .next()
        .and_then(|w| w.parse::<u64>().ok())
        .ok_or_else(|| format!("a reply without a request number: {head:?}"))?;
    match kind {
        "answer" => ron::from_str(body)
            .map(|a| (id, Reply::Answer(a)))
            .map_err(|e| format!("the answer to request {id} does not read: {e}")),
        "refused" => Ok((id, Reply::Refused(words.next().unwrap_or("").to_string()))),
        _ => Err(format!("not a reply: {head:?}")),
    }
}

/// The worker's side: the search in hand and the tables solved so far.
pub struct SearchService {
    /// The worker's clock, in milliseconds.
    now: fn() -> f64,
    job: Option<Job>,
    /// 十六むさし's exact tables solved so far (`None`: not even one layer
    /// fits the budget), kept between games.
    musashi_tables: Vec<(TablesKey, Option<Arc<Tables>>)>,
    /// The tables being solved while no search is in hand: as on the
    /// desktop, the CPU plays without them until they are ready.
    solving: Option<(TablesKey, Box<Solver>)>,
    /// How many positions the tables may hold.
    tables_budget: u64,
}

struct Job {
    id: u64,
    started_ms: f64,
    work: Work,
}

/// A search under way, of one game.
enum Work {
    Hasami(Running<Hasami>),
    FoxGeese(Running<FoxGeese>),
    Chu(Running<Chu>),
    Musashi(Running<Musashi>),
    /// A judgement, read in one go when its turn comes (the mate solver
    /// cannot stop and go on): its answer's RON.
    OffLine(Option<Box<dyn FnOnce() -> String>>),
    /// Positions waiting for the exact tables of their game's rules.
    Verdicts(Box<(Musashi, Vec<MusashiPos>)>),
}

struct Running<G: Rulebook> {
    game: G,
    searcher: Searcher<G>,
}

/// Positions the 十六むさし solver takes between two looks at the stop.
const TABLE_CHUNK: usize = 20_000;

impl SearchService {
    /// A service on the clock `now`; 十六むさし's tables are solved to the
    /// desktop's budget (the worker has a thread of its own).
    pub fn new(now: fn() -> f64) -> Self {
        Self::with_tables_budget(now, NATIVE_BUDGET)
    }

    /// The same with tables of at most `positions` positions.
    pub fn with_tables_budget(now: fn() -> f64, positions: u64) -> Self {
        SearchService {
            now,
            job: None,
            musashi_tables: Vec::new(),
            solving: None,
            tables_budget: positions,
        }
    }

    /// Whether there is work to do ([`SearchService::think`] is due): a
    /// search in hand, or tables being solved.
    pub fn busy(&self) -> bool {
        self.job.is_some() || self.solving.is_some()
    }

    /// Whether the exact tables of `rules` are solved.
    pub fn has_tables_for(&self, rules: &crate::rules::musashi::MusashiRules) -> bool {
        Musashi::create(rules).is_ok_and(|game| {
            let key = tables_key(&game);
            self.musashi_tables
                .iter()
                .any(|(k, t)| *k == key && t.is_some())
        })
    }

    /// Reads one message; returns a reply to post at once (a refusal), if
    /// any. A new search replaces the one in hand, which is dropped
    /// unanswered (the page has moved on).
    pub fn input(&mut self, message: &str) -> Option<String> {
        let (head, body) = message.split_once('\n').unwrap_or((message, ""));
        let words: Vec<&str> = head.split_whitespace().collect();
        match words.as_slice() {
            ["cancel", id] => {
                if self.job.as_ref().is_some_and(|j| j.id.to_string() == *id) {
                    self.job = None;
                }
                None
            }
            [kind @ ("search" | "offline" | "verdicts"), id, game] => {
                let Ok(id) = id.parse::<u64>() else {
                    return Some(format!(
                        "refused 0 the request number {id:?} is not a number"
                    ));
                };
                self.job = None;
                let work = match *kind {
                    "search" => self.search(game, body),
                    "offline" => self.off_line(game, body),
                    _ => verdicts(game, body),
                };
                match work {
                    Ok(work) => {
                        self.job = Some(Job {
                            id,
                            started_ms: (self.now)(),
                            work,
                        });
                        None
                    }
                    Err(why) => Some(format!("refused {id} {why}")),
                }
            }
            _ => Some(format!(
                "refused 0 not a message to the search worker: {head:?}"
            )),
        }
    }

    fn search(&mut self, game: &str, body: &str) -> Result<Work, String> {
        Ok(match game_id(game)? {
            GameId::Hasami => Work::Hasami(Running::read(body, self.now)?.0),
            GameId::FoxGeese => Work::FoxGeese(Running::read(body, self.now)?.0),
            GameId::ChuShogi => Work::Chu(Running::read(body, self.now)?.0),
            GameId::Musashi => self.musashi(body)?,
            GameId::Mawari => return Err("まわり将棋's CPU does not search".into()),
        })
    }

    fn off_line(&self, game: &str, body: &str) -> Result<Work, String> {
        fn judged<G: Rulebook + 'static>(body: &str, now: fn() -> f64) -> Result<Work, String> {
            let request: OffLineRequest<G> =
                ron::from_str(body).map_err(|e| format!("the request does not read: {e}"))?;
            Ok(Work::OffLine(Some(Box::new(move || {
                let answer = request.judge(&now, &mut || false).ok().flatten();
                // The game's own moves always write.
                ron::to_string(&answer).unwrap_or_default()
            }))))
        }
        match game_id(game)? {
            GameId::Hasami => judged::<Hasami>(body, self.now),
            GameId::FoxGeese => judged::<FoxGeese>(body, self.now),
            GameId::ChuShogi => judged::<Chu>(body, self.now),
            GameId::Musashi => judged::<Musashi>(body, self.now),
            GameId::Mawari => Err("まわり将棋 has no problems played as a line".into()),
        }
    }

    /// A 十六むさし search, with the exact tables its plan reads where they
    /// are solved; where not, they begin to be solved (after the search).
    fn musashi(&mut self, body: &str) -> Result<Work, String> {
        let (mut running, exact) = Running::<Musashi>::read(body, self.now)?;
        if exact && let Some(Some(tables)) = self.tables_for(&running.game) {
            running.game.set_endgame(tables)?;
        }
        Ok(Work::Musashi(running))
    }

    /// The exact tables of `game`'s rules: `Some(None)` where none fit the
    /// budget, `None` while they are still to be solved (begun now, in
    /// place of any other tables being solved, if they were not).
    fn tables_for(&mut self, game: &Musashi) -> Option<Option<Arc<Tables>>> {
        let key = tables_key(game);
        if let Some((_, solved)) = self.musashi_tables.iter().find(|(k, _)| *k == key) {
            return Some(solved.clone());
        }
        if self.solving.as_ref().is_none_or(|(k, _)| *k != key) {
            match Solver::for_game(game, self.tables_budget) {
                Some(solver) => self.solving = Some((key, Box::new(solver))),
                None => {
                    self.musashi_tables.push((key, None));
                    return Some(None);
                }
            }
        }
        None
    }

    /// Solves the tables the positions wait for until `stop`; their
    /// verdicts' RON once the tables are ready.
    fn verdicts_step(
        &mut self,
        waiting: &mut (Musashi, Vec<MusashiPos>),
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<String> {
        let (game, positions) = waiting;
        let verdicts: Verdicts = match self.tables_for(game) {
            None => {
                self.solve_tables(stop);
                return None;
            }
            Some(None) => None,
            Some(Some(tables)) => {
                // Tables solved for this very key always fit.
                game.set_endgame(tables).ok()?;
                Some(positions.iter().map(|p| game.exact(p)).collect())
            }
        };
        Some(ron::to_string(&verdicts).unwrap_or_default())
    }

    /// Thinks until `stop` says so or the search ends; returns the answer
    /// message when it has ended. With no search in hand it solves tables.
    pub fn think(&mut self, stop: &mut dyn FnMut() -> bool) -> Option<String> {
        let Some(mut job) = self.job.take() else {
            self.solve_tables(stop);
            return None;
        };
        let (now, started) = (self.now, job.started_ms);
        let spent = || now() - started;
        let answer = match &mut job.work {
            Work::Hasami(r) => r.step(stop, spent),
            Work::FoxGeese(r) => r.step(stop, spent),
            Work::Chu(r) => r.step(stop, spent),
            Work::Musashi(r) => r.step(stop, spent),
            Work::OffLine(judge) => judge.take().map(|judge| judge()),
            Work::Verdicts(waiting) => self.verdicts_step(waiting, stop),
        };
        match answer {
            Some(text) => Some(format!("answer {}\n{text}", job.id)),
            None => {
                self.job = Some(job);
                None
            }
        }
    }

    fn solve_tables(&mut self, stop: &mut dyn FnMut() -> bool) {
        let Some((key, solver)) = self.solving.as_mut() else {
            return;
        };
        let mut solved = false;
        while !solved && !stop() {
            solved = solver.work(TABLE_CHUNK);
        }
        if solved {
            let key = *key;
            if let Some((_, solver)) = self.solving.take() {
                self.musashi_tables
                    .push((key, solver.into_tables().map(Arc::new)));
            }
        }
    }
}

/// A `verdicts` request's work: its game made, to wait for its tables.
fn verdicts(game: &str, body: &str) -> Result<Work, String> {
    if game_id(game)? != GameId::Musashi {
        return Err("only 十六むさし has exact tables".into());
    }
    let request: VerdictsRequest =
        ron::from_str(body).map_err(|e| format!("the request does not read: {e}"))?;
    let game = Musashi::create(&request.rules)?;
    Ok(Work::Verdicts(Box::new((game, request.positions))))
}

fn game_id(name: &str) -> Result<GameId, String> {
    GameId::ALL
        .into_iter()
        .find(|g| g.id() == name)
        .ok_or_else(|| format!("no game {name:?}"))
}

impl<G: Rulebook + 'static> Running<G>
where
    G::Pos: DeserializeOwned,
{
    /// The search a request asks for, and whether it reads exact tables
    /// (the searcher reads them through the game, at every node); its
    /// time for a move counts on `now` from here.
    fn read(body: &str, now: fn() -> f64) -> Result<(Self, bool), String> {
        let request: SearchRequest<G> =
            ron::from_str(body).map_err(|e| format!("the request does not read: {e}"))?;
        let game = G::create(&request.rules)?;
        let forbidden = request.forbidden;
        let exact = request.plan.exact;
        let request_time = request.plan.time_ms.map(|ms| ms as f64);
        let mut searcher = Searcher::new(&game, request.pos, &request.history, request.plan)
            .restrict_root(|m| !forbidden.contains(&m))
            .resuming_slices();
        if request.score_single {
            searcher = searcher.scoring_a_single_move();
        }
        if let Some(limit) = request_time {
            let started = now();
            searcher = searcher.with_clock(Box::new(move || now() - started >= limit));
        }
        Ok((Running { game, searcher }, exact))
    }

    /// One slice; the answer's RON once the search has ended, with the
    /// milliseconds `spent` says.
    fn step(&mut self, stop: &mut dyn FnMut() -> bool, spent: impl Fn() -> f64) -> Option<String> {
        let answer = match self.searcher.step(&self.game, stop) {
            Step::Pending => return None,
            Step::Done(r) => Some(r),
            Step::NoMove => None,
        };
        let answer = answer.map(|r| SearchAnswer {
            best: r.best,
            score: r.score,
            depth: r.depth,
            nodes: r.nodes,
            pv: r.pv,
            elapsed_ms: spent(),
        });
        // A search's own moves and numbers always write.
        Some(ron::to_string(&answer).unwrap_or_default())
    }
}
