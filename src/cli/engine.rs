//! `yorimichi engine`: the 中将棋 CPU as an XBoard/CECP engine for
//! `variant chu`, as HaChu speaks it, so it runs in XBoard/WinBoard and can
//! play HaChu. Moves are in XBoard's notation ([`xboard`]); `setboard`
//! takes this project's (lishogi's) SFEN. The rules are the JCSA's
//! unless the GUI sets the `Profile` option to `lishogi`
//! (`option Profile=lishogi`).

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use clap::Args;

use super::Switch;

use crate::rules::chu::Profile;
use crate::rules::chu::game::{Chu, ChuRules};
use crate::rules::chu::mate::{Mate, MateSearch};
use crate::rules::chu::moves::{ChuMove, play};
use crate::rules::chu::position::ChuPosition;
use crate::rules::chu::repetition::ChuHistory;
pub use crate::rules::chu::time::MoveTime;
use crate::rules::chu::xboard;
use crate::rules::game::{Game, Side};
use crate::rules::record::GameRecord;
use crate::rules::search::{SearchPlan, Searcher, Step};

/// How the engine plays beyond the time it is given (`match` takes it as
/// options).
#[derive(Args, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Prune with the null move.
    #[arg(long, value_name = "ON|OFF", default_value = "on")]
    pub null_move: Switch,
    /// Read late moves less deeply (late-move reductions with a
    /// principal-variation search).
    #[arg(long, value_name = "ON|OFF", default_value = "on")]
    pub reductions: Switch,
    /// Leave out the quiet moves near the horizon where the position is
    /// far below what the search already has (futility pruning).
    #[arg(long, value_name = "ON|OFF", default_value = "on")]
    pub futility: Switch,
    /// Score a draw below nothing when ahead, so that a lead is pressed
    /// rather than repeated away.
    #[arg(long, value_name = "ON|OFF", default_value = "on")]
    pub contempt: Switch,
    /// Never make a position seen before in the game while another move is
    /// left, and read every repetition in the search as lost for the side
    /// that makes it (HaChu refuses a move that repeats a position, and
    /// never makes one, where the rules allow it until the fourth
    /// occurrence).
    #[arg(long)]
    pub no_repeats: bool,
    /// Keep to the promotions HaChu reads as sent: a 歩兵 or 香車 promotes
    /// on a move that takes nothing only as it enters the zone, a 歩兵 that
    /// entered unpromoted only by taking onto the last rank, and either
    /// promotes whenever it can on the last rank (lishogi's rules leave
    /// all of these optional).
    #[arg(long)]
    pub hachu_promotions: bool,
    /// Read the match's move cap as the game's end in the search, scored
    /// as the referee scores it: on the JCSA points (a capture on the
    /// last move meets no reply; a larger lead is still worth more).
    #[arg(long, value_name = "ON|OFF", default_value = "off")]
    pub knows_cap: Switch,
    /// What the only lion on the board is worth over its points, in pawns
    /// (a match fades it out as the move cap nears, where points decide).
    #[arg(long, value_name = "PAWNS", default_value_t = 0,
          value_parser = super::whole::<u32>(0, Some(100)))]
    pub lion_alone: u32,
    /// King safety after HaChu's own terms: against an enemy lion the
    /// royal kept on its back rank behind 醉象 and 盲虎, and the friends
    /// beside it that will not promote counted as its shield.
    #[arg(long, value_name = "ON|OFF", default_value = "on")]
    pub king_shelter: Switch,
    /// Spend more time on an unsettled move: where the last iteration
    /// changed the best move or saw its value fall, a new one may be begun
    /// until twice the usual point.
    #[arg(long, value_name = "ON|OFF", default_value = "on")]
    pub unsettled_time: Switch,
    /// Before each move, look for a mate by checks with the mate solver
    /// for a share of the move's time, and play it when one is proved.
    #[arg(long, value_name = "ON|OFF", default_value = "off")]
    pub mate_search: Switch,
    /// In the search, at each position with two plies or more still to read
    /// where the enemy's royal has at most two of its own pieces around it,
    /// ask the mate solver for a few hundred positions, and trust a proved
    /// mate.
    #[arg(long, value_name = "ON|OFF", default_value = "off")]
    pub mate_probes: Switch,
    /// Play on after the opponent's king is left bare, to take the royals,
    /// and claim no bare king: XBoard has no bare-king rule for chu (the
    /// CECP engine's default; a referee such as `match` judges it itself).
    #[arg(skip)]
    pub plays_out_bare_king: bool,
}

impl Style {
    /// How `yorimichi engine` plays, and `match` unless told otherwise: the
    /// null move on, as for つよい, and king safety after HaChu's terms
    /// with more time for an unsettled move (docs/strength.md: each measured in
    /// matches against HaChu).
    pub const ENGINE: Style = Style {
        null_move: Switch::On,
        reductions: Switch::On,
        futility: Switch::On,
        contempt: Switch::On,
        no_repeats: false,
        hachu_promotions: false,
        knows_cap: Switch::Off,
        lion_alone: 0,
        king_shelter: Switch::On,
        unsettled_time: Switch::On,
        mate_search: Switch::Off,
        mate_probes: Switch::Off,
        plays_out_bare_king: false,
    };

    /// The game under `rules`, valued as this style says (the rest of a
    /// style steers the search).
    pub fn game(&self, rules: ChuRules) -> Chu {
        Chu {
            hachu_promotions: self.hachu_promotions,
            king_shelter: self.king_shelter.is_on(),
            plays_out_bare_king: self.plays_out_bare_king,
            mate_probes: self.mate_probes.is_on(),
            ..Chu::new(rules)
        }
    }
}

/// The engine's best move in the time given (`None` if it has no move),
/// never one of `forbidden` (what 千日手 forbids: [`Game::forbidden_moves`]).
/// `history` holds the keys of the game's positions so far.
pub fn think(
    game: &Chu,
    history: &[u64],
    pos: &ChuPosition,
    forbidden: &[ChuMove],
    time: MoveTime,
    style: Style,
) -> Option<ChuMove> {
    // The mate solver's time is taken from the move's.
    let begun = Instant::now();
    // A lone royal being hunted is where a mate by checks ends the game.
    if style.mate_search.is_on() || game.hunts(pos) {
        let budget = (time.aim * MATE_SHARE).min(MATE_MOST_SECONDS);
        if let Some(mv) = mate_at_root(game, history, pos, Duration::from_secs_f64(budget))
            && !forbidden.contains(&mv)
        {
            return Some(mv);
        }
    }
    let spent = begun.elapsed().as_secs_f64();
    let time = MoveTime {
        aim: (time.aim - spent).max(0.0),
        most: (time.most - spent).max(0.01),
    };
    let plan = SearchPlan {
        seed: history.len() as u64,
        null_move: style.null_move.is_on(),
        reductions: style.reductions.is_on(),
        futility: style.futility.is_on(),
        contempt: style.contempt.is_on(),
        no_repeats: style.no_repeats,
        // The game's only exact knowledge is the probes' (`Chu::exact`).
        exact: game.mate_probes,
        ..SearchPlan::fixed(60, u64::MAX)
    };
    let mut searcher = Searcher::new(game, pos.clone(), history, plan)
        .pausing_each_iteration()
        .restrict_root(|mv| !forbidden.contains(&mv));
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(time.most.max(0.01));
    let mut last: Option<(ChuMove, i32)> = None;
    loop {
        match searcher.step(game, &mut || Instant::now() >= deadline) {
            Step::Done(r) => return Some(r.best),
            Step::NoMove => return None,
            Step::Pending => {
                let now = searcher.best_so_far().map(|r| (r.best, r.score));
                let aim = if style.unsettled_time.is_on() {
                    time.aim_after(last, now)
                } else {
                    time.aim
                };
                last = now;
                let elapsed = start.elapsed().as_secs_f64();
                if Instant::now() >= deadline || elapsed >= aim {
                    return now.map(|(best, _)| best);
                }
            }
        }
    }
}

/// The share of a move's time the mate solver is given first
/// ([`Style::mate_search`]), and the most it is given.
const MATE_SHARE: f64 = 0.1;
const MATE_MOST_SECONDS: f64 = 2.0;

/// Table entries of the mate solver at the root: a few megabytes.
const MATE_ENTRIES: usize = 1 << 18;

/// The first move of a mate by checks the solver proves from `pos`
/// within `budget`, unless the game does not offer it or it makes a
/// position the game has seen (the rules on repetition are the search's
/// to judge).
fn mate_at_root(
    game: &Chu,
    history: &[u64],
    pos: &ChuPosition,
    budget: Duration,
) -> Option<ChuMove> {
    let mut solver = MateSearch::with_entries(game.rules.profile, MATE_ENTRIES);
    let start = Instant::now();
    let Mate::Proved(line) = solver.solve(pos, &mut || start.elapsed() >= budget) else {
        return None;
    };
    // The game's own moves: they keep to what the style allows (HaChu's
    // promotions), which the solver's rules do not.
    let first = *line.first()?;
    let mut legal = Vec::new();
    game.legal_moves(pos, &mut legal);
    let after = play(pos, first);
    (legal.contains(&first) && !history.contains(&game.hash(&after))).then_some(first)
}

/// The result line XBoard expects when the game is over in `pos`.
fn result_line(game: &Chu, so_far: &GameRecord<Chu>) -> Option<String> {
    let (winner, why) = match game.end(so_far.current()) {
        Some((winner, why)) => (winner, format!("{why:?}")),
        // 千日手, which looks back over the game.
        None => {
            let ended = game.history_outcome(
                so_far.positions(),
                so_far.moves(),
                so_far.occurrences_of_current(),
            )?;
            (ended.winner, format!("{:?}", ended.reason))
        }
    };
    Some(match winner {
        Some(Side::First) => format!("1-0 {{{why}}}"),
        Some(Side::Second) => format!("0-1 {{{why}}}"),
        None => format!("1/2-1/2 {{{why}}}"),
    })
}

/// A switch of [`Style`] a GUI can set as a CECP option (`feature
/// option`): its name there, and how it reads and sets the style.
struct StyleCheck {
    name: &'static str,
    get: fn(&Style) -> bool,
    set: fn(&mut Style, bool),
}

fn switch(on: bool) -> Switch {
    if on { Switch::On } else { Switch::Off }
}

/// Every switch `match` knows that a game through a GUI can use (the
/// move cap is a match's own: a GUI's game has none).
const STYLE_CHECKS: [StyleCheck; 11] = [
    StyleCheck {
        name: "No repeats",
        get: |s| s.no_repeats,
        set: |s, on| s.no_repeats = on,
    },
    StyleCheck {
        name: "HaChu promotions",
        get: |s| s.hachu_promotions,
        set: |s, on| s.hachu_promotions = on,
    },
    StyleCheck {
        name: "King shelter",
        get: |s| s.king_shelter.is_on(),
        set: |s, on| s.king_shelter = switch(on),
    },
    StyleCheck {
        name: "Unsettled time",
        get: |s| s.unsettled_time.is_on(),
        set: |s, on| s.unsettled_time = switch(on),
    },
    StyleCheck {
        name: "Play out bare king",
        get: |s| s.plays_out_bare_king,
        set: |s, on| s.plays_out_bare_king = on,
    },
    StyleCheck {
        name: "Mate search",
        get: |s| s.mate_search.is_on(),
        set: |s, on| s.mate_search = switch(on),
    },
    StyleCheck {
        name: "Mate probes",
        get: |s| s.mate_probes.is_on(),
        set: |s, on| s.mate_probes = switch(on),
    },
    StyleCheck {
        name: "Contempt",
        get: |s| s.contempt.is_on(),
        set: |s, on| s.contempt = switch(on),
    },
    StyleCheck {
        name: "Null move",
        get: |s| s.null_move.is_on(),
        set: |s, on| s.null_move = switch(on),
    },
    StyleCheck {
        name: "Reductions",
        get: |s| s.reductions.is_on(),
        set: |s, on| s.reductions = switch(on),
    },
    StyleCheck {
        name: "Futility",
        get: |s| s.futility.is_on(),
        set: |s, on| s.futility = switch(on),
    },
];

/// The spin option for [`Style::lion_alone`].
const LION_ALONE: &str = "Lion alone";

/// The options that suit HaChu as an opponent, turned on when XBoard
/// names it (`name`) unless the GUI has set them: HaChu refuses a move
/// that repeats a position and reads some promotions its own way.
const FOR_HACHU: [&str; 2] = ["No repeats", "HaChu promotions"];

/// How the engine plays, as the GUI's options and its opponent leave it.
#[derive(Clone, Debug, PartialEq)]
struct Options {
    style: Style,
    /// The options the GUI set itself: an opponent's name changes none.
    set_by_gui: Vec<&'static str>,
}

impl Options {
    fn new() -> Self {
        Options {
            style: Style {
                plays_out_bare_king: true,
                ..Style::ENGINE
            },
            set_by_gui: Vec::new(),
        }
    }

    /// The `feature` words that offer every option, with today's values.
    fn features(&self, profile: Profile) -> String {
        let mut words = vec![format!(
            "option=\"Profile -combo {}\"",
            Profile::ALL
                .map(|p| if p == profile {
                    format!("*{}", p.id())
                } else {
                    p.id().to_string()
                })
                .join(" /// ")
        )];
        for check in &STYLE_CHECKS {
            words.push(format!(
                "option=\"{} -check {}\"",
                check.name,
                u8::from((check.get)(&self.style))
            ));
        }
        words.push(format!(
            "option=\"{LION_ALONE} -spin {} 0 100\"",
            self.style.lion_alone
        ));
        words.join(" ")
    }

    /// Sets the option `name` to `value` as the GUI asks; `Err` names what
    /// is wrong.
    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name == LION_ALONE {
            let pawns = value
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|&p| p <= 100)
                .ok_or_else(|| format!("{LION_ALONE} is 0 to 100 pawns"))?;
            self.style.lion_alone = pawns;
            self.mark(LION_ALONE);
            return Ok(());
        }
        let check = STYLE_CHECKS
            .iter()
            .find(|c| c.name == name)
            .ok_or("unknown option")?;
        let on = match value.trim() {
            "1" | "true" => true,
            "0" | "false" => false,
            _ => return Err(format!("{} is 1 or 0", check.name)),
        };
        (check.set)(&mut self.style, on);
        self.mark(check.name);
        Ok(())
    }

    fn mark(&mut self, name: &'static str) {
        if !self.set_by_gui.contains(&name) {
            self.set_by_gui.push(name);
        }
    }

    /// XBoard's `name`: against HaChu the options that suit it are on,
    /// against any other opponent as the engine plays by default — each
    /// unless the GUI set it. Returns the options it turned on.
    fn opponent(&mut self, name: &str) -> Vec<&'static str> {
        let hachu = name.to_lowercase().contains("hachu");
        let mut turned_on = Vec::new();
        for check in STYLE_CHECKS.iter().filter(|c| FOR_HACHU.contains(&c.name)) {
            if self.set_by_gui.contains(&check.name) {
                continue;
            }
            let on = hachu || (check.get)(&Style::ENGINE);
            if on && !(check.get)(&self.style) {
                turned_on.push(check.name);
            }
            (check.set)(&mut self.style, on);
        }
        turned_on
    }
}

/// How XBoard times the game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Timing {
    /// `st`: this many seconds a move (also the time without a clock).
    PerMove(f64),
    /// `level MOVES BASE INC`: BASE seconds for every MOVES moves (0: for
    /// the whole game), INC seconds added after each move.
    Level { moves: u32, base: f64, inc: f64 },
}

impl Timing {
    /// `level MOVES BASE INC`, BASE in minutes or minutes:seconds.
    pub fn from_level(words: &[&str]) -> Option<Timing> {
        let [moves, base, inc] = words else {
            return None;
        };
        let moves: u32 = moves.parse().ok()?;
        let mut parts = base.split(':');
        let minutes: f64 = parts.next()?.parse().ok()?;
        let seconds: f64 = parts.next().map_or(Some(0.0), |s| s.parse().ok())?;
        let inc: f64 = inc.parse().ok()?;
        let base = minutes * 60.0 + seconds;
        (base.is_finite() && inc.is_finite() && base >= 0.0 && inc >= 0.0 && base + inc > 0.0)
            .then_some(Timing::Level { moves, base, inc })
    }

    /// The time for a move with `left` seconds on the engine's clock (if
    /// XBoard told it) after `made` moves of its own: the clock shared
    /// over the moves still to make before it is filled again, as `match`
    /// shares it, a little kept back for the answer to travel.
    pub fn move_time(self, left: Option<f64>, made: u32) -> MoveTime {
        match (self, left) {
            (Timing::PerMove(seconds), _) => MoveTime::fixed(seconds),
            (Timing::Level { moves, base, inc }, None) => {
                MoveTime::fixed(base / if moves > 0 { moves as f64 } else { 40.0 } + inc)
            }
            (Timing::Level { moves, inc, .. }, Some(left)) => {
                let left = (left - ANSWER_MARGIN).max(0.01);
                let to_go = if moves > 0 {
                    moves - made % moves
                } else {
                    // One clock for the whole game: a game of chu runs to
                    // a few hundred moves, and the clock must last to the
                    // end of it.
                    GAME_MOVES.saturating_sub(made).max(LAST_MOVES)
                };
                let share = (left / (to_go as f64 + 1.0)).min(left * 0.5) * 0.95 + inc * 0.8;
                MoveTime::from_clock(share.max(0.01), left)
            }
        }
    }
}

/// Seconds kept back from the clock for the move to reach XBoard.
const ANSWER_MARGIN: f64 = 0.1;

/// With one clock for the whole game, the moves a side is planned to make:
/// until then the clock is shared evenly, after it as if this many
/// ([`LAST_MOVES`]) were still to come.
const GAME_MOVES: u32 = 150;
const LAST_MOVES: u32 = 50;

struct Engine {
    game: Chu,
    options: Options,
    /// The game since `new` or `setboard`, the current position last.
    so_far: GameRecord<Chu>,
    /// In force mode the engine only records moves.
    force: bool,
    side: Side,
    /// How XBoard times the game (`st`, `level`).
    timing: Timing,
    /// The engine's own clock, from `time` (centiseconds).
    clock_cs: Option<u64>,
    /// The side to move where the game's record begins (`new`, `setboard`):
    /// with the plies since, it says how many moves each side has made.
    first_to_move: Side,
}

impl Engine {
    fn new() -> Self {
        let options = Options::new();
        let game = options.style.game(ChuRules::JCSA);
        Engine {
            so_far: GameRecord::new(&game),
            game,
            options,
            force: false,
            side: Side::Second,
            timing: Timing::PerMove(2.0),
            clock_cs: None,
            first_to_move: Side::First,
        }
    }

    fn apply(&mut self, mv: ChuMove) -> Result<(), String> {
        self.so_far
            .play(&self.judge(), mv)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }

    fn pos(&self) -> &ChuPosition {
        self.so_far.current()
    }

    /// How many moves `side` has made since the record began.
    fn moves_made(&self, side: Side) -> u32 {
        let plies = self.so_far.ply() as u32;
        if side == self.first_to_move {
            plies.div_ceil(2)
        } else {
            plies / 2
        }
    }

    /// The game valued as the options now say, under the same rules.
    fn restyle(&mut self) {
        self.game = self.options.style.game(self.game.rules);
    }

    /// The game that keeps the record: the rules and how the game ends as
    /// the options say (a bare king played out), every legal move allowed
    /// (the opponent's promotions are not HaChu's to choose).
    fn judge(&self) -> Chu {
        Chu {
            hachu_promotions: false,
            ..self.game.clone()
        }
    }

    /// Why 千日手 refuses `mv` here (JCSA), if it does.
    fn refusal(&self, mv: ChuMove) -> Option<String> {
        if !self.so_far.forbidden_moves(&self.judge()).contains(&mv) {
            return None;
        }
        ChuHistory::from_game(
            self.game.rules.profile,
            self.so_far.positions(),
            self.so_far.moves(),
        )
        .refusal(mv)
    }

    /// The game so far read again under the rules now in force (a new
    /// profile judges 千日手 its own way); a move they refuse ends it there.
    fn rejudge(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let start = self.so_far.positions()[0].clone();
        let moves = self.so_far.moves().to_vec();
        self.so_far = GameRecord::from_position(&self.judge(), start);
        for mv in moves {
            if let Err(e) = self.apply(mv) {
                writeln!(out, "tellusererror The game so far breaks these rules: {e}")?;
                break;
            }
        }
        Ok(())
    }

    /// Thinks and moves if it is the engine's turn.
    fn maybe_move(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        if self.force
            || self.pos().to_move() != self.side
            || result_line(&self.game, &self.so_far).is_some()
        {
            return Ok(());
        }
        let time = self.timing.move_time(
            self.clock_cs.map(|cs| cs as f64 / 100.0),
            self.moves_made(self.side),
        );
        let forbidden = self.so_far.forbidden_moves(&self.judge());
        match think(
            &self.game,
            self.so_far.hashes(),
            self.pos(),
            &forbidden,
            time,
            self.options.style,
        ) {
            Some(mv) => {
                for line in xboard::engine_lines(&xboard::move_text(self.pos(), mv)) {
                    writeln!(out, "{line}")?;
                }
                if let Err(e) = self.apply(mv) {
                    writeln!(out, "Error ({e}): the engine's own move")?;
                }
                if let Some(line) = result_line(&self.game, &self.so_far) {
                    writeln!(out, "{line}")?;
                }
            }
            None => writeln!(out, "resign")?,
        }
        Ok(())
    }

    /// Handles one command; `false` on `quit`.
    fn command(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<bool> {
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else {
            return Ok(true);
        };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "quit" => return Ok(false),
            "protover" => {
                writeln!(
                    out,
                    "feature myname=\"Yorimichi\" variants=\"chu\" usermove=1 setboard=1 ping=1 colors=0 memory=1 name=1 sigint=0 sigterm=0 {} done=1",
                    self.options.features(self.game.rules.profile)
                )?;
            }
            "new" => {
                *self = Engine {
                    timing: self.timing,
                    game: self.game.clone(),
                    options: self.options.clone(),
                    ..Engine::new()
                };
            }
            "option" => {
                let text = rest.join(" ");
                match text.split_once('=') {
                    Some(("Profile", value)) => {
                        match Profile::ALL.into_iter().find(|p| p.id() == value.trim()) {
                            Some(profile) => {
                                self.game.rules.profile = profile;
                                self.rejudge(out)?;
                            }
                            None => writeln!(out, "Error (Profile is jcsa or lishogi): {line}")?,
                        }
                    }
                    Some((name, value)) => match self.options.set(name.trim(), value) {
                        Ok(()) => self.restyle(),
                        Err(why) => writeln!(out, "Error ({why}): {line}")?,
                    },
                    None => writeln!(out, "Error (unknown option): {line}")?,
                }
            }
            "variant" => {
                if rest.first() != Some(&"chu") {
                    writeln!(out, "Error (only variant chu): {line}")?;
                }
            }
            "force" => self.force = true,
            "go" => {
                self.force = false;
                self.side = self.pos().to_move();
                self.maybe_move(out)?;
            }
            "playother" => {
                self.force = false;
                self.side = self.pos().to_move().opponent();
            }
            "usermove" => {
                let text = rest.join(" ");
                match xboard::parse_move(self.game.rules.profile, self.pos(), &text) {
                    Ok(mv) => match self.refusal(mv) {
                        Some(why) => writeln!(out, "Illegal move ({why}): {text}")?,
                        None => {
                            if let Err(e) = self.apply(mv) {
                                writeln!(out, "Illegal move ({e}): {text}")?;
                            } else if let Some(result) = result_line(&self.game, &self.so_far) {
                                writeln!(out, "{result}")?;
                            } else {
                                self.maybe_move(out)?;
                            }
                        }
                    },
                    Err(_) => writeln!(out, "Illegal move: {text}")?,
                }
            }
            "setboard" => match ChuPosition::from_sfen_start(&rest.join(" ")) {
                Ok(pos) => {
                    self.first_to_move = pos.to_move();
                    self.so_far = GameRecord::from_position(&self.game, pos);
                }
                Err(e) => writeln!(out, "tellusererror Illegal position: {e}")?,
            },
            "st" => match rest.first().and_then(|s| s.parse::<f64>().ok()) {
                Some(s) if s > 0.0 => self.timing = Timing::PerMove(s),
                _ => writeln!(out, "Error (st needs seconds): {line}")?,
            },
            "level" => match Timing::from_level(&rest) {
                Some(timing) => self.timing = timing,
                None => writeln!(
                    out,
                    "Error (level MOVES MINUTES[:SECONDS] INCREMENT): {line}"
                )?,
            },
            "time" => self.clock_cs = rest.first().and_then(|s| s.parse().ok()),
            "ping" => writeln!(out, "pong {}", rest.first().unwrap_or(&""))?,
            // Known, and nothing to do.
            "xboard" | "memory" | "otim" | "accepted" | "rejected" | "random" | "post"
            | "nopost" | "hard" | "easy" | "computer" | "result" | "?" | "cores" => {}
            "name" => {
                let turned_on = self.options.opponent(&rest.join(" "));
                self.restyle();
                if !turned_on.is_empty() {
                    // A comment line: XBoard shows it in its debug log.
                    writeln!(
                        out,
                        "# against {}: {} on",
                        rest.join(" "),
                        turned_on.join(", ")
                    )?;
                }
            }
            _ => writeln!(out, "Error (unknown command): {line}")?,
        }
        Ok(true)
    }
}

/// Runs the CECP loop on standard input, answering on `out`.
pub(crate) fn run(out: &mut dyn Write) -> super::Outcome {
    let stdin = std::io::stdin();
    let mut engine = Engine::new();
    for line in stdin.lock().lines() {
        let line = line?;
        let go_on = engine.command(line.trim(), out)?;
        out.flush()?;
        if !go_on {
            break;
        }
    }
    Ok(())
}

/// Feeds `input` (one command a line) to a fresh engine and returns what it
/// printed: for tests.
pub fn run_script(input: &str) -> String {
    let mut engine = Engine::new();
    let mut out = Vec::new();
    for line in input.lines() {
        match engine.command(line.trim(), &mut out) {
            Ok(true) => {}
            _ => break,
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}
