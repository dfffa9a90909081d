//! How each two-player game is built from its rule options and how its
//! moves are written for another device: what the room server and the
//! remote player share with the app, without Bevy.

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::chu::end::{cutoff_winner, is_royal, royal_in_danger};
use super::chu::game::{Chu, ChuRules};
use super::chu::mate::{Defence, MateSearch};
use super::chu::moves::ChuMove;
use super::chu::position::ChuPosition;
use super::data::{self, GameId};
use super::foxgeese::FoxGeesePos;
use super::foxgeese::{FoxGeese, FoxGeeseRules};
use super::game::{EndReason, Game, Outcome, Side};
use super::hasami::HasamiPos;
use super::hasami::{Hasami, HasamiRules};
use super::musashi::MusashiPos;
use super::musashi::{Musashi, MusashiRules};

/// A two-player game with rule options (a preset, or 自分で決める).
pub trait Rulebook:
    Game<Move: Serialize + DeserializeOwned, Pos: Serialize + DeserializeOwned> + Sized
{
    /// The rule options a preset or 自分で決める fixes.
    type Rules: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;

    const ID: GameId;

    /// Seconds of play after which the game is cut off (中将棋: the JCSA
    /// rules' 60 minutes from the start).
    const TIME_LIMIT: Option<f32> = None;

    /// The game under `rules`; the message says which option is wrong.
    fn create(rules: &Self::Rules) -> Result<Self, String>;

    /// The rules the game was made of.
    fn rules(&self) -> &Self::Rules;

    /// The result when the time runs out in `pos`.
    fn time_up(&self, _pos: &Self::Pos) -> Outcome {
        Outcome::draw(EndReason::TimeUp)
    }

    /// `mv`, played in `pos`, as it travels between devices: a text that
    /// names exactly one legal move of `pos` (中将棋: USI).
    fn notation(&self, pos: &Self::Pos, mv: Self::Move) -> String {
        self.move_text(pos, mv)
    }

    /// A level file's diagram (rows of its board, as the game's files write
    /// them), with the captures so far: only はさみ将棋 keeps such counts,
    /// and another game's diagram carrying them is refused.
    fn diagram(&self, rows: &[&str], to_move: Side, captured: [u8; 2])
    -> Result<Self::Pos, String>;

    /// A problem played as a line (詰め中将棋): what the opponent makes of
    /// the player's move `mv` in `pos` when it is not the line's, read
    /// until `stop` says so. `None`: the game has no such judge, and only
    /// the line's moves are right.
    fn off_line(
        &self,
        _pos: &Self::Pos,
        _mv: Self::Move,
        _stop: &mut dyn FnMut() -> bool,
    ) -> Option<OffLine<Self::Move>> {
        None
    }

    /// Moves written in [`Rulebook::notation`] (a problem's line), read
    /// one after another from `pos`: the moves, or the index of the first
    /// that cannot be read there and why.
    fn read_line(
        &self,
        pos: &Self::Pos,
        texts: &[String],
    ) -> Result<Vec<Self::Move>, (usize, String)> {
        let mut at = pos.clone();
        let mut moves = Vec::with_capacity(texts.len());
        for (i, text) in texts.iter().enumerate() {
            if self.outcome(&at).is_some() {
                return Err((i, "the game is already over before this move".to_string()));
            }
            let mut legal = Vec::new();
            self.legal_moves(&at, &mut legal);
            let mv = self
                .read_notation(&at, &legal, text)
                .ok_or_else(|| (i, format!("\"{text}\" is not one legal move here")))?;
            moves.push(mv);
            at = self.play(&at, mv);
        }
        Ok(moves)
    }

    /// The legal move of `pos` that [`Rulebook::notation`] writes as
    /// `text` among `legal`, if exactly one does.
    fn read_notation(
        &self,
        pos: &Self::Pos,
        legal: &[Self::Move],
        text: &str,
    ) -> Option<Self::Move> {
        let mut found = legal.iter().filter(|&&mv| self.notation(pos, mv) == text);
        let first = *found.next()?;
        found.next().is_none().then_some(first)
    }
}

/// What the opponent makes of a move off a problem's line
/// ([`Rulebook::off_line`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OffLine<M> {
    /// The move wins all the same: the rest of a win, the opponent's reply
    /// first (its longest resistance).
    Wins(Vec<M>),
    /// The win is gone: after this reply there is none.
    Refuted(M),
    /// The move breaks the problem's rule that every move is a check.
    NotACheck,
    /// Not settled in the time.
    Unsettled,
}

/// Table entries of the mate solver that judges a move off a problem's
/// line: small, for a reading of a second or so.
const OFF_LINE_ENTRIES: usize = 1 << 17;

impl Rulebook for Hasami {
    type Rules = HasamiRules;
    const ID: GameId = GameId::Hasami;
    fn create(rules: &HasamiRules) -> Result<Self, String> {
        let board = data::board("shogi9").map_err(|e| e.to_string())?;
        Hasami::new(board, *rules)
    }
    fn rules(&self) -> &Self::Rules {
        Hasami::rules(self)
    }
    fn diagram(
        &self,
        rows: &[&str],
        to_move: Side,
        captured: [u8; 2],
    ) -> Result<HasamiPos, String> {
        HasamiPos::from_rows(rows, to_move, captured)
    }
}

impl Rulebook for FoxGeese {
    type Rules = FoxGeeseRules;
    const ID: GameId = GameId::FoxGeese;
    fn create(rules: &FoxGeeseRules) -> Result<Self, String> {
        let board = data::board(rules.board_name()).map_err(|e| e.to_string())?;
        FoxGeese::new(board, *rules)
    }
    fn rules(&self) -> &Self::Rules {
        FoxGeese::rules(self)
    }
    fn diagram(
        &self,
        rows: &[&str],
        to_move: Side,
        captured: [u8; 2],
    ) -> Result<FoxGeesePos, String> {
        no_counts(captured)?;
        self.position_from_rows(rows, to_move)
    }
}

impl Rulebook for Musashi {
    type Rules = MusashiRules;
    const ID: GameId = GameId::Musashi;
    fn create(rules: &MusashiRules) -> Result<Self, String> {
        let board = data::board(rules.board_name()).map_err(|e| e.to_string())?;
        Musashi::new(board, *rules)
    }
    fn rules(&self) -> &Self::Rules {
        Musashi::rules(self)
    }
    fn diagram(
        &self,
        rows: &[&str],
        to_move: Side,
        captured: [u8; 2],
    ) -> Result<MusashiPos, String> {
        no_counts(captured)?;
        self.position_from_rows(rows, to_move)
    }
}

impl Rulebook for Chu {
    type Rules = ChuRules;
    const ID: GameId = GameId::ChuShogi;
    const TIME_LIMIT: Option<f32> = Some(3600.0);
    fn time_up(&self, pos: &Self::Pos) -> Outcome {
        Outcome {
            winner: cutoff_winner(pos),
            reason: EndReason::TimeUp,
        }
    }
    fn create(rules: &ChuRules) -> Result<Self, String> {
        rules.validate()?;
        Ok(Chu::new(*rules))
    }
    fn rules(&self) -> &Self::Rules {
        &self.rules
    }
    fn notation(&self, _pos: &Self::Pos, mv: Self::Move) -> String {
        mv.usi()
    }
    fn diagram(
        &self,
        rows: &[&str],
        to_move: Side,
        captured: [u8; 2],
    ) -> Result<ChuPosition, String> {
        no_counts(captured)?;
        // A side without royals is a mate problem's attacker.
        ChuPosition::from_rows(rows, to_move).map(ChuPosition::read_start)
    }
    /// A move that is not a check is wrong in a mate problem, whatever
    /// would follow; otherwise the defender answers by the mate solver: a
    /// reply after which there is no mate by checks refutes the move.
    fn off_line(
        &self,
        pos: &ChuPosition,
        mv: ChuMove,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<OffLine<ChuMove>> {
        let attacker = pos.to_move();
        let takes_royal = mv.taken(pos).any(|(_, p)| is_royal(p));
        let after = self.play(pos, mv);
        if !takes_royal && !royal_in_danger(&after, attacker.opponent()) {
            return Some(OffLine::NotACheck);
        }
        let mut solver = MateSearch::with_entries(self.rules.profile, OFF_LINE_ENTRIES);
        Some(match solver.defend(&after, stop) {
            Defence::Mated(rest) => OffLine::Wins(rest),
            Defence::Escapes(reply) => OffLine::Refuted(reply),
            Defence::Unknown => OffLine::Unsettled,
        })
    }
}

/// A diagram of a game without capture counts: it must carry none.
fn no_counts(captured: [u8; 2]) -> Result<(), String> {
    if captured == [0, 0] {
        Ok(())
    } else {
        Err("only はさみ将棋's diagrams carry captures (`captured`): here what a side has lost is what is missing from the board".to_string())
    }
}
