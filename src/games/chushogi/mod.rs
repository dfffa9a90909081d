//! 中将棋 on the shared screens: the 12×12 board with its promotion zones
//! and the coordinates players choose, 92 koma in the chosen piece set
//! (koma.rs; promoted in red, sized by rank), the 獅子's two-step moves
//! made by tapping each step, 成る / 成らない and じっと offered as a choice,
//! the record as chu players write it, KIF, USI and SFEN import and export,
//! and the rule profile to choose.

pub mod koma;

pub use koma::one_kanji;

use std::sync::LazyLock;

use bevy::prelude::*;

use super::art::{self, Art, GridLabels};
use super::board_view::BoardView;
use super::kit::choice_group;
use super::session::{CaptureView, MoveMark, PieceFace, PieceInfo, Playable, SetupDraft};
use crate::rules::board::{BoardGraph, PointId};
use crate::rules::chu::Profile;
use crate::rules::chu::end::{self, ChuEnd};
use crate::rules::chu::game::{Chu, ChuRules};
use crate::rules::chu::kif::{ChuKif, KifEnd};
use crate::rules::chu::moves::ChuMove;
use crate::rules::chu::notation::{Coords, screen_move};
use crate::rules::chu::pieces::{Base, DIRECTIONS, Kind, Piece, Reach};
use crate::rules::chu::position::{ChuPosition, FILES, Square};
use crate::rules::chu::record::ChuGameText;
use crate::rules::chu::repetition::{ChuHistory, Cycle};
use crate::rules::data::{self, GamePresets, Tutorial};
use crate::rules::game::{EndReason, Outcome, Side};
use crate::rules::levels::LevelError;
use crate::rules::record::GameRecord;
use crate::shell::i18n::{Lang, T};
use crate::shell::settings::{ChuPieceSet, Settings, coords_text};
use crate::shell::widgets::Fonts;

pub(crate) fn plugin(app: &mut App) {
    app.add_plugins(super::screens::plugin::<Chu>);
}

/// The board's points are the engine's squares: row by row from rank 一,
/// file 12 first (`levels/boards/chu12.ron`).
static BOARD: LazyLock<BoardGraph> = LazyLock::new(|| {
    data::board("chu12").unwrap_or_else(|e| {
        // The file is built in and tested; a plain grid is the same shape.
        error!("{e}");
        BoardGraph::grid(FILES as u32, FILES as u32)
    })
});

/// Ranks of each side's promotion zone.
const ZONE_RANKS: usize = 4;

fn square(p: PointId) -> Square {
    Square(p as u8)
}

/// A koma's size on a real set: the king largest, pawns smallest.
fn koma_size(base: Base) -> f32 {
    match base {
        Base::King => 1.0,
        Base::Lion | Base::FreeKing | Base::DragonKing | Base::DragonHorse => 0.97,
        Base::Rook | Base::Bishop | Base::SideMover | Base::VerticalMover => 0.94,
        Base::Kirin | Base::Phoenix | Base::DrunkElephant | Base::BlindTiger => 0.92,
        Base::Gold | Base::Silver | Base::Copper | Base::Leopard => 0.90,
        Base::Lance | Base::ReverseChariot | Base::GoBetween | Base::Pawn => 0.86,
    }
}

fn profile_text(profile: Profile) -> T {
    match profile {
        Profile::Jcsa => T::ChuProfileJcsa,
        Profile::Lishogi => T::ChuProfileLishogi,
    }
}

/// A record's game as the 中将棋 texts take it: its start and its moves.
fn game_text(record: &GameRecord<Chu>) -> Option<ChuGameText> {
    Some(ChuGameText {
        start: record.positions().first()?.clone(),
        moves: record.moves().to_vec(),
    })
}

impl Playable for Chu {
    const CELL: f32 = 56.0;
    const SQUARES: bool = true;
    const TURN_TOP_PIECES: bool = true;
    const TURN_BOARD: bool = true;
    const MULTI_STEP: bool = true;
    const STOP_BUTTON: T = T::StopHere;
    const PIECE_STYLES: bool = false;
    /// A pawn is 100: 1.5 pawns is doubtful, a minor piece thrown away
    /// (4 points) is bad; a won game counts as a lion and more ahead.
    const REVIEW_MARGINS: crate::rules::review::Margins = crate::rules::review::Margins {
        dubious: 150,
        bad: 400,
        cap: 2000,
    };
    /// A 12×12 board's positions are slow to read: a game of 150 moves
    /// must still be read in a minute or two.
    const REVIEW_NODES: u64 = 25_000;

    fn presets() -> Result<GamePresets<ChuRules>, LevelError> {
        data::chushogi_presets()
    }
    fn tutorial() -> Result<Tutorial, LevelError> {
        data::chushogi_tutorial()
    }
    fn tutorials() -> Result<Vec<Tutorial>, LevelError> {
        data::chushogi_lessons()
    }
    fn tutorial_rules() -> ChuRules {
        ChuRules::JCSA
    }
    fn graph(&self) -> &BoardGraph {
        &BOARD
    }
    fn piece_at(&self, pos: &ChuPosition, p: PointId) -> Option<Side> {
        pos.at(square(p)).map(|(side, _)| side)
    }
    fn piece_face(&self, pos: &ChuPosition, p: PointId) -> Option<PieceFace> {
        let (side, piece) = pos.at(square(p))?;
        // 先手's king is 王将, 後手's 玉将.
        let name = piece.kind().name_for(side).0;
        Some(PieceFace {
            name,
            promoted: piece.promoted,
            size: koma_size(piece.base),
        })
    }
    fn taken_by(&self, _pos: &ChuPosition, _side: Side) -> Option<u32> {
        // No drops: captured pieces leave the game.
        None
    }
    fn capture_view(&self, pos: &ChuPosition, mv: ChuMove) -> CaptureView {
        let captured: Vec<PointId> = mv.taken(pos).map(|(sq, _)| sq.0 as PointId).collect();
        let capturers = if captured.is_empty() {
            Vec::new()
        } else {
            vec![mv.to.0 as PointId]
        };
        CaptureView {
            captured,
            capturers,
        }
    }
    fn status_line(&self, pos: &ChuPosition, lang: Lang) -> String {
        // The cutoff table counts in tenths.
        let [first, second] = end::cutoff_points(pos).map(|t| t as f32 / 10.0);
        format!(
            "{}: ☗ {first:.1} · ☖ {second:.1}\n{}",
            T::Points.get(lang),
            profile_text(self.rules.profile).get(lang)
        )
    }
    fn notice(&self, _pos: &ChuPosition, occurrences: u32) -> Option<T> {
        match occurrences {
            2 => Some(T::Repetition2),
            3 => Some(T::ChuRepetition3),
            _ => None,
        }
    }
    fn record_notice(&self, record: &GameRecord<Chu>) -> Option<T> {
        let occurrences = record.occurrences_of_current();
        let pos = record.current();
        match self.rules.profile {
            Profile::Lishogi if occurrences == 3 => Some(T::ChuLishogiRepetition3),
            Profile::Lishogi => self.notice(pos, occurrences),
            Profile::Jcsa => {
                // 千日手: who must change, and whose move would repeat.
                if !record.forbidden_moves(self).is_empty() {
                    return Some(must_change_text(pos.to_move()));
                }
                if occurrences < 3 {
                    return self.notice(pos, occurrences);
                }
                let history =
                    ChuHistory::from_game(self.rules.profile, record.positions(), record.moves());
                Some(match history.cycle_ahead() {
                    Some(Cycle {
                        must_change,
                        fourth_by,
                    }) if fourth_by == must_change => must_change_text(must_change),
                    Some(Cycle { must_change, .. }) => match must_change {
                        Side::First => T::ChuDrawUnlessSenteChanges,
                        Side::Second => T::ChuDrawUnlessGoteChanges,
                    },
                    None => T::ChuRepetition3,
                })
            }
        }
    }
    fn piece_info(&self, pos: &ChuPosition, p: PointId, lang: Lang) -> Option<PieceInfo> {
        let (side, piece) = pos.at(square(p))?;
        Some(piece_info(piece, side, lang))
    }
    fn result_detail(&self, pos: &ChuPosition, _outcome: Outcome, lang: Lang) -> Option<String> {
        // Every ending shows where the points stood; the cutoff was decided
        // by them.
        Some(self.status_line(pos, lang).lines().next()?.to_string())
    }
    fn record_move_text(
        &self,
        pos: &ChuPosition,
        mv: ChuMove,
        last: Option<ChuMove>,
        settings: &Settings,
    ) -> String {
        screen_move(pos, mv, last.map(|m| m.to), settings.chu_coords)
    }
    fn hint_text(
        &self,
        record: &GameRecord<Chu>,
        mv: ChuMove,
        settings: &Settings,
    ) -> Option<String> {
        let last = record.moves().last().copied();
        Some(self.record_move_text(record.current(), mv, last, settings))
    }
    fn choice_text(&self, pos: &ChuPosition, mv: ChuMove, lang: Lang) -> String {
        let key = if mv.is_jitto(pos) {
            T::Pass
        } else if mv.promote {
            T::Promote
        } else {
            T::DontPromote
        };
        key.get(lang).to_string()
    }
    fn position_text(&self, pos: &ChuPosition) -> String {
        format!(
            "profile: {}\nsfen: {}",
            self.rules.profile.id(),
            pos.to_sfen()
        )
    }
    fn position_code(&self, pos: &ChuPosition) -> Option<String> {
        Some(pos.to_sfen())
    }
    fn read_position_code(&self, text: &str) -> Result<ChuPosition, String> {
        ChuPosition::from_sfen_start(text.trim())
    }
    fn game_code(&self, record: &GameRecord<Chu>) -> Option<String> {
        let game = game_text(record)?;
        // The USI line first: it is what an import reads back.
        Some(format!("{}\n\n{}", game.usi(), game.japanese()))
    }
    /// In the order of [`Playable::game_code_as`]'s forms.
    fn export_forms(&self) -> &'static [T] {
        &[T::ExportKif, T::ExportUsi, T::ExportSfen]
    }
    fn game_code_as(&self, record: &GameRecord<Chu>, form: usize) -> Option<String> {
        match form {
            0 => {
                let end = record
                    .outcome(self)
                    .map(|o| KifEnd::from_outcome(o, record.current()));
                let kif = ChuKif {
                    end,
                    ..ChuKif::new(game_text(record)?)
                };
                Some(kif.write())
            }
            1 => self.game_code(record),
            _ => self.position_code(record.current()),
        }
    }
    fn read_game_code(&self, text: &str) -> Result<(ChuPosition, Vec<ChuMove>), String> {
        // An exported game (its USI line first; the Japanese record below
        // it is for people), a USI or SFEN text, or a KIF.
        let game = ChuKif::read_any(self.rules.profile, text)?.game;
        Ok((game.start, game.moves))
    }

    fn to_move_text(side: Side) -> T {
        match side {
            Side::First => T::ChuSenteToMove,
            Side::Second => T::ChuGoteToMove,
        }
    }
    fn wins_text(side: Side) -> T {
        match side {
            Side::First => T::ChuSenteWins,
            Side::Second => T::ChuGoteWins,
        }
    }
    fn side_question() -> (T, [T; 3]) {
        (T::ChuYourSide, [T::ChuSente, T::ChuGote, T::FirstRandom])
    }
    fn reason_text(&self, pos: &ChuPosition, reason: EndReason) -> T {
        match reason {
            EndReason::CaptureTarget | EndReason::Lead => {
                match end::outcome_in(self.rules.profile, pos) {
                    Some((_, ChuEnd::BareKing)) => T::ReasonBareKing,
                    Some((_, ChuEnd::TooLittleLeft)) => T::ReasonTooLittleLeft,
                    _ => T::ReasonRoyalsTaken,
                }
            }
            EndReason::NoMoves => T::ReasonNoMoves,
            EndReason::Repetition => T::ReasonRepetition,
            EndReason::MoveLimit => T::ReasonMoveLimit,
            EndReason::Resignation => T::ReasonResignation,
            EndReason::TimeUp => T::ReasonTimeUp,
            EndReason::Disconnected => T::ReasonDisconnected,
            EndReason::OutOfTime => T::ReasonOutOfTime,
            EndReason::RaceWon => T::ReasonRaceWon,
        }
    }

    fn record_reason_text(&self, record: &GameRecord<Chu>, reason: EndReason) -> T {
        if reason == EndReason::Repetition && self.rules.profile == Profile::Jcsa {
            // The fourth occurrence was made by the last move; else the
            // side to move had no move but the forbidden ones.
            let to_move = record.current().to_move();
            return match (record.occurrences_of_current() >= 4, to_move) {
                (true, Side::First) => T::ChuReasonFourthByGote,
                (true, Side::Second) => T::ChuReasonFourthBySente,
                (false, Side::First) => T::ChuReasonOnlyRepeatSente,
                (false, Side::Second) => T::ChuReasonOnlyRepeatGote,
            };
        }
        let generic = self.reason_text(record.current(), reason);
        if generic != T::ReasonRoyalsTaken {
            return generic;
        }
        // The game ends when the last royal falls: the last move took it.
        let (Some(before), Some(&mv)) = (
            record
                .positions()
                .len()
                .checked_sub(2)
                .map(|i| &record.positions()[i]),
            record.moves().last(),
        ) else {
            return generic;
        };
        let mut reason = generic;
        for (_, piece) in mv.taken(before) {
            match piece.kind() {
                Kind::Prince => reason = T::ReasonPrinceTaken,
                Kind::King if reason == generic => reason = T::ReasonKingTaken,
                _ => {}
            }
        }
        reason
    }

    fn spawn_board(
        &self,
        commands: &mut Commands,
        view: &BoardView,
        fonts: &Fonts,
        settings: &Settings,
        scope: impl Bundle + Clone,
    ) {
        let coords = settings.chu_coords;
        let labels = GridLabels {
            files: (0..FILES).map(|c| coords.file_label(c)).collect(),
            ranks: (0..FILES).map(|r| coords.rank_label(r)).collect(),
        };
        art::spawn_grid_board(
            commands,
            view,
            fonts,
            scope,
            FILES,
            ZONE_RANKS,
            // The zones' wood a shade warmer: what a vermilion wash of
            // 16% over the kaya gives.
            Some(Color::linear_rgb(0.97, 0.885, 0.858)),
            &labels,
        );
    }

    fn piece_children(
        parent: &mut ChildSpawnerCommands,
        art: &Art,
        fonts: &Fonts,
        settings: &Settings,
        side: Side,
        face: Option<PieceFace>,
    ) {
        koma::koma_children(
            parent,
            art,
            fonts,
            settings.chu_pieces,
            side,
            face,
            Self::CELL,
        );
    }

    fn display_settings_ui(
        parent: &mut ChildSpawnerCommands,
        fonts: &Fonts,
        lang: Lang,
        settings: &Settings,
    ) {
        choice_group::<Settings, _>(
            parent,
            fonts,
            lang,
            T::ChuPieceSetHeading,
            &ChuPieceSet::ALL.map(|p| (p, p.text())),
            settings.chu_pieces,
            |s, v| s.chu_pieces = v,
        );
        choice_group::<Settings, _>(
            parent,
            fonts,
            lang,
            T::ChuCoordsHeading,
            &Coords::ALL.map(|c| (c, coords_text(c))),
            settings.chu_coords,
            |s, v| s.chu_coords = v,
        );
    }

    fn custom_rules_ui(
        root: &mut ChildSpawnerCommands,
        fonts: &Fonts,
        lang: Lang,
        rules: &ChuRules,
    ) {
        choice_group::<SetupDraft<Chu>, _>(
            root,
            fonts,
            lang,
            T::ChuRuleProfile,
            &Profile::ALL.map(|p| (p, profile_text(p))),
            rules.profile,
            |d, v| d.custom.profile = v,
        );
    }
}

/// 千日手's notice naming the side that may not make the fourth occurrence.
fn must_change_text(side: Side) -> T {
    match side {
        Side::First => T::ChuMustChangeSente,
        Side::Second => T::ChuMustChangeGote,
    }
}

/// Name, reading, promotion, worth and movement diagram of `piece`.
pub fn piece_info(piece: Piece, side: Side, lang: Lang) -> PieceInfo {
    let kind = piece.kind();
    let (kanji, reading) = kind.name_for(side);
    let name = match lang {
        Lang::Ja => format!("{kanji}({reading})"),
        Lang::En => format!("{} ({kanji}, {reading})", kind.names().1),
    };
    let promotion = match (piece.promoted, piece.base.promotes_to()) {
        (true, _) => {
            let from = piece.base.kind().names();
            match lang {
                Lang::Ja => format!("{}が成った駒", from.0),
                Lang::En => format!("a promoted {}", from.1),
            }
        }
        (false, Some(to)) => match lang {
            Lang::Ja => format!("成ると{}", to.names().0),
            Lang::En => format!("promotes to {} ({})", to.names().1, to.names().0),
        },
        (false, None) => lang.pick("成らない", "does not promote").to_string(),
    };
    let worth = match kind {
        Kind::King => lang.pick("点数なし", "no points").to_string(),
        _ => match lang {
            Lang::Ja => format!("{:.1}点", piece.points()),
            Lang::En => format!("{:.1} points", piece.points()),
        },
    };
    PieceInfo {
        name,
        details: format!("{promotion} · {worth}"),
        diagram: move_diagram(kind),
    }
}

/// The 5×5 movement diagram of a kind, forward up.
pub fn move_diagram(kind: Kind) -> [[MoveMark; 5]; 5] {
    let mut grid = [[MoveMark::Empty; 5]; 5];
    let movement = kind.movement();
    let mut mark = |right: i32, forward: i32, m: MoveMark| {
        grid[(2 - forward) as usize][(2 + right) as usize] = m;
    };
    if movement.lion {
        for forward in -2..=2 {
            for right in -2..=2 {
                mark(right, forward, MoveMark::Lion);
            }
        }
    }
    for (i, dir) in DIRECTIONS.iter().enumerate() {
        let (right, forward) = dir.delta();
        match movement.reach[i] {
            Reach::No => {}
            Reach::Step => mark(right, forward, MoveMark::Step),
            Reach::Slide => {
                mark(right, forward, MoveMark::Slide);
                mark(2 * right, 2 * forward, MoveMark::Slide);
            }
            Reach::Jump => mark(2 * right, 2 * forward, MoveMark::Jump),
            Reach::LionLine => {
                mark(right, forward, MoveMark::Lion);
                mark(2 * right, 2 * forward, MoveMark::Lion);
            }
        }
    }
    mark(0, 0, MoveMark::Piece);
    grid
}
