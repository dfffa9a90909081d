//! What every board game of the collection shares on the Bevy side: the
//! [`Playable`] contract a game's rules implement to be presented, the setup
//! of a match, the match being played with its record, the save that
//! 続きから resumes, and the setup screen's draft. The play, setup, result,
//! tutorial and review screens and play through a room are written once
//! over this contract, on top of this module, which names none of them.

use std::fmt::Debug;

use bevy::prelude::*;
use rand::RngExt;
use serde::{Deserialize, Serialize};

use super::art::Art;
use super::board_view::BoardView;
use super::resume::{Resumable, handle_resume};
use crate::rules::board::{BoardGraph, PointId};
use crate::rules::data::{GameId, GamePresets, Strength, Tutorial};
use crate::rules::game::{EndReason, Outcome, Side};
use crate::rules::levels::LevelError;
use crate::rules::record::GameRecord;
use crate::rules::review::Margins;
use crate::rules::rulebook::Rulebook;
use crate::shell::i18n::{Lang, T};
use crate::shell::settings::Settings;
use crate::shell::widgets::Fonts;

/// Who captured what with a move, for the capture animation.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaptureView {
    /// The taken pieces, in the order they are taken.
    pub captured: Vec<PointId>,
    /// The mover's pieces that made the capture (gold frames).
    pub capturers: Vec<PointId>,
}

/// What a piece shows besides its side, in a game with many kinds of
/// piece (中将棋): the name written on the koma, in red once promoted, on a
/// koma sized by rank as on a real set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PieceFace {
    /// One or two kanji, written top to bottom.
    pub name: &'static str,
    pub promoted: bool,
    /// The koma's size relative to the largest (王将).
    pub size: f32,
}

/// One square of a piece's movement diagram: 5×5 squares, the piece in the
/// middle, its forward up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveMark {
    Empty,
    Piece,
    /// One step.
    Step,
    /// Any distance along this line.
    Slide,
    /// A leap to this square over anything.
    Jump,
    /// Lion power: a leap here, or two steps.
    Lion,
}

/// What the play screen says about a selected piece (中将棋's practice
/// help): its name and reading, what it promotes to, its worth, and how it
/// moves.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceInfo {
    pub name: String,
    pub details: String,
    pub diagram: [[MoveMark; 5]; 5],
}

/// A game's rules as the screens present them: everything the shared play,
/// setup, result and tutorial screens need to know about one game.
pub trait Playable:
    Rulebook<Pos: Send + Sync, Move: Send + Sync> + Clone + Send + Sync + 'static
{
    /// Distance between neighbouring points on the play screen.
    const CELL: f32;
    /// Pieces stand in squares (shogi boards) rather than on points.
    const SQUARES: bool;
    /// The top player's pieces are drawn upside down (shogi pieces).
    const TURN_TOP_PIECES: bool;
    /// The board turns round when the player takes the second side (shogi
    /// boards); point boards keep one orientation, which the tutorials use.
    const TURN_BOARD: bool;
    /// Moves can be made of several taps (a multi-jump).
    const MULTI_STEP: bool = false;
    /// The button that ends a move of several taps where the piece stands.
    const STOP_BUTTON: T = T::StopJump;
    /// The game has the 印を出す option.
    const HAS_MARKS: bool = false;
    /// The pieces can be drawn as koma or as symbols (駒のデザイン).
    const PIECE_STYLES: bool = true;
    /// 振り返り: how far the mover's evaluation may fall with one move
    /// before it is called 疑問手 or 悪手, and what a won position counts
    /// (evaluation units: a hundredth of a piece, of a point in 中将棋).
    const REVIEW_MARGINS: Margins = Margins {
        dubious: 60,
        bad: 150,
        cap: 800,
    };
    /// 振り返り reads each position within this many nodes (at most the
    /// strongest level's budget).
    const REVIEW_NODES: u64 = 40_000;

    fn presets() -> Result<GamePresets<Self::Rules>, LevelError>;
    fn tutorial() -> Result<Tutorial, LevelError>;
    /// Every lesson of the game, the tutorial first (中将棋を学ぶ has
    /// several; most games have only the tutorial).
    fn tutorials() -> Result<Vec<Tutorial>, LevelError> {
        Ok(vec![Self::tutorial()?])
    }
    /// The rules a tutorial's diagrams are played under.
    fn tutorial_rules() -> Self::Rules;

    fn graph(&self) -> &BoardGraph;
    /// The side whose piece stands on `p`.
    fn piece_at(&self, pos: &Self::Pos, p: PointId) -> Option<Side>;
    /// The piece's kind on `p`, for games with more than one.
    fn piece_face(&self, _pos: &Self::Pos, _p: PointId) -> Option<PieceFace> {
        None
    }
    /// What the play screen tells about the piece on `p` while it is
    /// selected, for games with many kinds of piece.
    fn piece_info(&self, _pos: &Self::Pos, _p: PointId, _lang: Lang) -> Option<PieceInfo> {
        None
    }
    /// A line the result screen adds under the reason (the point totals
    /// of a cutoff).
    fn result_detail(&self, _pos: &Self::Pos, _outcome: Outcome, _lang: Lang) -> Option<String> {
        None
    }
    /// `mv`, played in `pos`, as the record on the play screen and the
    /// hint write it; `last` is the move before it.
    fn record_move_text(
        &self,
        pos: &Self::Pos,
        mv: Self::Move,
        _last: Option<Self::Move>,
        _settings: &Settings,
    ) -> String {
        self.move_text(pos, mv)
    }
    /// The hint `mv` (in `record`'s current position) in words, for games
    /// whose players read a record; none: the arrows say it.
    fn hint_text(
        &self,
        _record: &GameRecord<Self>,
        _mv: Self::Move,
        _settings: &Settings,
    ) -> Option<String> {
        None
    }
    /// The words on the button that picks `mv` when the taps leave a
    /// choice (成る / 成らない, a pass).
    fn choice_text(&self, pos: &Self::Pos, mv: Self::Move, _lang: Lang) -> String {
        self.move_text(pos, mv)
    }
    /// Pieces `side` has taken (shown on its 駒台), if the side takes any.
    fn taken_by(&self, pos: &Self::Pos, side: Side) -> Option<u32>;
    fn capture_view(&self, pos: &Self::Pos, mv: Self::Move) -> CaptureView;
    /// A line under the turn: captures, the target.
    fn status_line(&self, pos: &Self::Pos, lang: Lang) -> String;
    /// A notice after a move: repetition, a lead about to win.
    fn notice(&self, pos: &Self::Pos, occurrences: u32) -> Option<T>;
    /// The notice after the last move of `record`, where the game so far
    /// tells more than the position (中将棋's 千日手: who must change).
    fn record_notice(&self, record: &GameRecord<Self>) -> Option<T> {
        self.notice(record.current(), record.occurrences_of_current())
    }
    /// 印を出す: after this move the opponent can capture at once.
    fn dangerous(&self, _pos: &Self::Pos, _mv: Self::Move) -> bool {
        false
    }
    /// The position for the bug report.
    fn position_text(&self, pos: &Self::Pos) -> String;
    /// The one-line position text players export and import (局面を書き出す
    /// / 読み込む), for games that have one.
    fn position_code(&self, _pos: &Self::Pos) -> Option<String> {
        None
    }
    /// Reads [`Playable::position_code`]'s text; the message says what is
    /// wrong.
    fn read_position_code(&self, _text: &str) -> Result<Self::Pos, String> {
        Err(format!("{} has no position text", Self::ID.id()))
    }
    /// The forms 局面を書き出す offers as a choice (中将棋: KIF, USI, SFEN),
    /// by their labels; none: it writes [`Playable::game_code`] at once.
    fn export_forms(&self) -> &'static [T] {
        &[]
    }
    /// The game in the form `export_forms()[form]`.
    fn game_code_as(&self, record: &GameRecord<Self>, _form: usize) -> Option<String> {
        self.game_code(record)
    }
    /// The whole game as text to export (中将棋: the USI moves and the
    /// Japanese record); by default the current position's text.
    fn game_code(&self, record: &GameRecord<Self>) -> Option<String> {
        self.position_code(record.current())
    }
    /// Reads an imported text: where the game starts and the moves played
    /// from there (by default a position text, no moves).
    fn read_game_code(&self, text: &str) -> Result<(Self::Pos, Vec<Self::Move>), String> {
        Ok((self.read_position_code(text)?, Vec::new()))
    }

    /// "… to move" and "… wins" for each side.
    fn to_move_text(side: Side) -> T;
    fn wins_text(side: Side) -> T;
    /// The setup screen's question for the player's side, and its answers
    /// for First, Second and random.
    fn side_question() -> (T, [T; 3]);
    /// Words for how a game ended in `pos`.
    fn reason_text(&self, pos: &Self::Pos, reason: EndReason) -> T;
    /// Words for how `record`'s game ended, where the last move tells more
    /// than the final position (中将棋: the king or the 太子 taken last).
    fn record_reason_text(&self, record: &GameRecord<Self>, reason: EndReason) -> T {
        self.reason_text(record.current(), reason)
    }

    /// Draws the board (below everything else).
    fn spawn_board(
        &self,
        commands: &mut Commands,
        view: &BoardView,
        fonts: &Fonts,
        settings: &Settings,
        scope: impl Bundle + Clone,
    );
    /// A piece's look, as children of the piece entity (`face` from
    /// [`Playable::piece_face`]), drawn as `settings` ask.
    fn piece_children(
        parent: &mut ChildSpawnerCommands,
        art: &Art,
        fonts: &Fonts,
        settings: &Settings,
        side: Side,
        face: Option<PieceFace>,
    );
    /// The game's own display settings, on its setup screen (中将棋: the
    /// piece set and the coordinates).
    fn display_settings_ui(
        _parent: &mut ChildSpawnerCommands,
        _fonts: &Fonts,
        _lang: Lang,
        _settings: &Settings,
    ) {
    }
    /// The 自分で決める options, under the preset row of the setup screen.
    fn custom_rules_ui(
        parent: &mut ChildSpawnerCommands,
        fonts: &Fonts,
        lang: Lang,
        rules: &Self::Rules,
    );
}

/// How long a 中将棋 player may be away from a room before losing, unless
/// the setup says otherwise.
pub const GRACE_SECONDS: u32 = 60;

/// Who the opponent is (相手).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Opponent {
    Cpu(Strength),
    /// となりの人: two players on one device.
    Human,
    /// 検討: one person plays both sides from any position while the CPU
    /// reads each one; never saved for 続きから and never a result.
    Analysis,
    /// 離れた人: the other side is played from another device, through a
    /// room on the room server.
    Remote,
}

/// Which side the player takes against the CPU, as chosen on the setup
/// screen (先手 / 後手 for shogi-like games; the fox or the geese).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SideChoice {
    First,
    Second,
    Random,
}

/// The settings of one game, fixed when it starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSetup<R> {
    pub opponent: Opponent,
    /// The side the (bottom) player takes against the CPU.
    pub human_side: Side,
    /// The preset's id, or `custom`.
    pub preset: String,
    pub rules: R,
    /// 待った あり / なし.
    pub undo_allowed: bool,
    /// 印を出す (games that have it).
    #[serde(default)]
    pub marks: bool,
    /// The side was drawn at random: もう一度 draws again.
    #[serde(default)]
    pub random_side: bool,
    /// A room's game watched from this device: both sides are the room's.
    #[serde(default)]
    pub watching: bool,
}

impl<R> MatchSetup<R> {
    pub fn new(opponent: Opponent, human_side: Side, preset: &str, rules: R) -> Self {
        MatchSetup {
            opponent,
            human_side,
            preset: preset.to_string(),
            rules,
            undo_allowed: true,
            marks: false,
            random_side: false,
            watching: false,
        }
    }
    pub fn is_cpu(&self, side: Side) -> bool {
        matches!(self.opponent, Opponent::Cpu(_)) && side != self.human_side
    }
    /// Whether `side` is played from another device.
    pub fn is_remote(&self, side: Side) -> bool {
        self.opponent == Opponent::Remote && (self.watching || side != self.human_side)
    }
    /// The side this device's player holds against someone else (the CPU
    /// or a remote player): "your turn", "you win" rather than a side.
    /// None between two players at one device, in 検討, and for a room's
    /// watcher, who holds neither.
    pub fn own_side(&self) -> Option<Side> {
        let against_another = matches!(self.opponent, Opponent::Cpu(_) | Opponent::Remote);
        (against_another && !self.watching).then_some(self.human_side)
    }
    /// The side drawn at the bottom (検討 keeps the view of the game it
    /// came from).
    pub fn bottom_side(&self) -> Side {
        match self.opponent {
            Opponent::Cpu(_) | Opponent::Analysis | Opponent::Remote => self.human_side,
            Opponent::Human => Side::First,
        }
    }
    /// Whether this is 検討 rather than a game.
    pub fn analysing(&self) -> bool {
        self.opponent == Opponent::Analysis
    }
}

/// What is saved for 続きから: the setup and every move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSave<R, M> {
    pub setup: MatchSetup<R>,
    /// The position text the game started from, when not the usual start
    /// (an imported position).
    #[serde(default)]
    pub start: Option<String>,
    pub moves: Vec<M>,
    /// Seconds played so far (games with a time limit).
    #[serde(default)]
    pub elapsed: f32,
}

/// The game being played.
#[derive(Resource, Clone)]
pub struct Match<G: Playable> {
    pub game: G,
    pub record: GameRecord<G>,
    pub setup: MatchSetup<G::Rules>,
    /// Seconds played so far, for games with a time limit.
    pub elapsed: f32,
}

impl<G: Playable> Match<G> {
    pub fn new(setup: MatchSetup<G::Rules>) -> Result<Self, String> {
        let game = G::create(&setup.rules)?;
        let record = GameRecord::new(&game);
        Ok(Match {
            game,
            record,
            setup,
            elapsed: 0.0,
        })
    }

    /// Rebuilds a saved game by replaying its moves through the rules.
    pub fn from_save(save: GameSave<G::Rules, G::Move>) -> Result<Self, String> {
        if save.setup.analysing() {
            return Err("a 検討 is never saved".to_string());
        }
        let mut m = Self::new(save.setup)?;
        let start = match &save.start {
            Some(text) => m
                .game
                .read_position_code(text)
                .map_err(|e| format!("the start position: {e}"))?,
            None => m.game.start(),
        };
        m.record = GameRecord::replay_from(&m.game, start, &save.moves)
            .map_err(|(i, e)| format!("move {}: {e}", i + 1))?;
        m.elapsed = save.elapsed.max(0.0);
        Ok(m)
    }

    pub fn to_save(&self) -> GameSave<G::Rules, G::Move> {
        GameSave {
            setup: self.setup.clone(),
            start: self.start_code(),
            moves: self.record.moves().to_vec(),
            elapsed: self.elapsed,
        }
    }

    /// The position text of the record's start, if it is not the usual one.
    pub fn start_code(&self) -> Option<String> {
        let first = self.record.positions().first()?;
        (self.game.hash(first) != self.game.hash(&self.game.start()))
            .then(|| self.game.position_code(first))
            .flatten()
    }

    /// Starts over from an imported position or game (same setup); the
    /// match is untouched when the text is refused.
    pub fn restart_from(&mut self, text: &str) -> Result<(), String> {
        let (pos, moves) = self.game.read_game_code(text)?;
        self.record = GameRecord::replay_from(&self.game, pos, &moves)
            .map_err(|(i, e)| format!("move {}: {e}", i + 1))?;
        self.elapsed = 0.0;
        Ok(())
    }

    /// Whether the side to move is played by a person at this device.
    pub fn human_to_move(&self) -> bool {
        let side = self.game.side_to_move(self.record.current());
        !self.setup.is_cpu(side) && !self.setup.is_remote(side)
    }

    /// 待った: against the CPU, takes back the player's last move and the
    /// CPU's reply together; between two players, one move. False if there
    /// is nothing to undo.
    pub fn undo_for_player(&mut self) -> bool {
        match self.setup.opponent {
            // Both devices keep the game the room has.
            Opponent::Remote => false,
            Opponent::Human | Opponent::Analysis => self.record.undo(),
            Opponent::Cpu(_) => {
                let human = self.setup.human_side;
                // The last position where the player was to move and moved
                // from: only then is there a move of theirs to take back.
                let positions = self.record.positions();
                let Some(target) = (0..positions.len() - 1)
                    .rev()
                    .find(|&i| self.game.side_to_move(&positions[i]) == human)
                else {
                    return false;
                };
                while self.record.ply() > target {
                    self.record.undo();
                }
                true
            }
        }
    }

    /// The text for the bug report.
    pub fn bug_text(&self) -> String {
        format!(
            "game: {}\nsetup: {}\nmoves: {}\nposition:\n{}",
            G::ID.id(),
            // RON, as saves keep it (the web build's Debug output prints
            // names only).
            ron::to_string(&self.setup).unwrap_or_default(),
            self.record.ply(),
            self.game.position_text(self.record.current())
        )
    }
}

/// The presets and CPU levels from `levels/presets/<game>.ron`.
#[derive(Resource, Clone)]
pub struct Presets<G: Playable>(pub GamePresets<G::Rules>);

/// The choices on the setup screen (kept between games).
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct SetupDraft<G: Playable> {
    pub opponent_is_cpu: bool,
    /// 離れた人: a room is made for someone on another device (over
    /// `opponent_is_cpu`).
    pub remote: bool,
    /// How long a player of the room may be away before losing (中将棋).
    pub grace_seconds: u32,
    pub strength: Strength,
    pub side: SideChoice,
    /// A preset id, or `custom`.
    pub preset: String,
    pub custom: G::Rules,
    pub undo_allowed: bool,
    /// A room's 待った by consent (off at first in 中将棋).
    pub room_takebacks: bool,
    /// A 中将棋 room's clock (none at first).
    pub room_clock: Option<crate::net::protocol::RoomClock>,
    pub marks: bool,
}

impl<G: Playable> SetupDraft<G> {
    pub fn new(presets: &GamePresets<G::Rules>) -> Self {
        let first = presets.presets.first();
        SetupDraft {
            opponent_is_cpu: true,
            remote: false,
            grace_seconds: GRACE_SECONDS,
            strength: Strength::Easy,
            side: SideChoice::First,
            preset: first.map_or("custom".into(), |p| p.id.clone()),
            custom: first.map_or_else(G::tutorial_rules, |p| p.rules.clone()),
            undo_allowed: true,
            room_takebacks: G::ID != crate::rules::data::GameId::ChuShogi,
            room_clock: None,
            marks: false,
        }
    }

    /// The setup this draft describes (a random side is drawn now).
    pub fn to_setup(
        &self,
        presets: &GamePresets<G::Rules>,
        rng: &mut impl rand::Rng,
    ) -> MatchSetup<G::Rules> {
        let rules = presets
            .preset(&self.preset)
            .map_or_else(|| self.custom.clone(), |p| p.rules.clone());
        let human_side = match self.side {
            SideChoice::First => Side::First,
            SideChoice::Second => Side::Second,
            SideChoice::Random if rng.random_bool(0.5) => Side::First,
            SideChoice::Random => Side::Second,
        };
        let opponent = if self.remote {
            Opponent::Remote
        } else if self.opponent_is_cpu {
            Opponent::Cpu(self.strength)
        } else {
            Opponent::Human
        };
        MatchSetup {
            undo_allowed: self.undo_allowed && !self.remote,
            marks: self.marks,
            random_side: self.side == SideChoice::Random,
            ..MatchSetup::new(opponent, human_side, &self.preset, rules)
        }
    }
}

impl<G: Playable> Resumable for Match<G> {
    const GAME: GameId = G::ID;
    type Save = GameSave<G::Rules, G::Move>;

    fn save(&self) -> impl Serialize + '_ {
        self.to_save()
    }
    fn resume(save: Self::Save) -> Result<Self, String> {
        Self::from_save(save)
    }
    fn kept(&self) -> bool {
        !self.setup.analysing()
    }
}

/// Game `G`'s session: its presets, the setup's draft and 続きから. The
/// screens built on it are put together in `games::screens`.
pub fn plugin<G: Playable>(app: &mut App) {
    let presets = G::presets().unwrap_or_else(|e| panic!("{e}"));
    app.insert_resource(SetupDraft::<G>::new(&presets))
        .insert_resource(Presets::<G>(presets))
        .add_systems(Update, handle_resume::<Match<G>>);
}
