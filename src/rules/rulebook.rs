//! How each two-player game is built from its rule options and how its
//! moves are written for another device: what the room server and the
//! remote player share with the app, without Bevy.

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::chu::end::cutoff_winner;
use super::chu::game::{Chu, ChuRules};
use super::data::{self, GameId};
use super::foxgeese::{FoxGeese, FoxGeeseRules};
use super::game::{EndReason, Game, Outcome};
use super::hasami::{Hasami, HasamiRules};
use super::musashi::{Musashi, MusashiRules};

/// A two-player game with rule options (a preset, or 自分で決める).
pub trait Rulebook: Game<Move: Serialize + DeserializeOwned> + Sized {
    /// The rule options a preset or 自分で決める fixes.
    type Rules: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static;

    const ID: GameId;

    /// Seconds of play after which the game is cut off (中将棋: the seed's
    /// 60 minutes from the start).
    const TIME_LIMIT: Option<f32> = None;

    /// The game under `rules`; the message says which option is wrong.
    fn create(rules: &Self::Rules) -> Result<Self, String>;

    /// The result when the time runs out in `pos`.
    fn time_up(&self, _pos: &Self::Pos) -> Outcome {
        Outcome::draw(EndReason::TimeUp)
    }

    /// `mv`, played in `pos`, as it travels between devices: a text that
    /// names exactly one legal move of `pos` (中将棋: USI).
    fn notation(&self, pos: &Self::Pos, mv: Self::Move) -> String {
        self.move_text(pos, mv)
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

impl Rulebook for Hasami {
    type Rules = HasamiRules;
    const ID: GameId = GameId::Hasami;
    fn create(rules: &HasamiRules) -> Result<Self, String> {
        let board = data::board("shogi9").map_err(|e| e.to_string())?;
        Hasami::new(board, *rules)
    }
}

impl Rulebook for FoxGeese {
    type Rules = FoxGeeseRules;
    const ID: GameId = GameId::FoxGeese;
    fn create(rules: &FoxGeeseRules) -> Result<Self, String> {
        let board = data::board(rules.board_name()).map_err(|e| e.to_string())?;
        FoxGeese::new(board, *rules)
    }
}

impl Rulebook for Musashi {
    type Rules = MusashiRules;
    const ID: GameId = GameId::Musashi;
    fn create(rules: &MusashiRules) -> Result<Self, String> {
        let board = data::board(rules.board_name()).map_err(|e| e.to_string())?;
        Musashi::new(board, *rules)
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
    fn notation(&self, _pos: &Self::Pos, mv: Self::Move) -> String {
        mv.usi()
    }
}
