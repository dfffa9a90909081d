//! 十六むさし on the shared screens: the square with its diagonals and
//! diamond and the 雪隠, 親 and 子, 印を出す, 雪隠詰め on the result, and the
//! 自分で決める options.

use bevy::prelude::*;

use super::art::{self, Art};
use super::board_view::BoardView;
use super::kit::choice_group;
use super::session::{CaptureView, PieceFace, Playable, SetupDraft};
use crate::rules::board::{BoardGraph, PointId};
use crate::rules::data::{self, GamePresets, Tutorial};
use crate::rules::game::{EndReason, Side};
use crate::rules::levels::LevelError;
use crate::rules::musashi::{KO, Musashi, MusashiMove, MusashiPos, MusashiRules, OYA};
use crate::shell::i18n::{Lang, T};
use crate::shell::settings::{PieceStyle, Settings};
use crate::shell::widgets::{Fonts, palette};

mod endgame;

pub use endgame::EndgameTables;

pub(crate) fn plugin(app: &mut App) {
    app.add_plugins((super::screens::plugin::<Musashi>, endgame::plugin));
}

/// The 子 at the start.
const KO_AT_START: u32 = 16;

impl Playable for Musashi {
    /// A 子 is 100; 親 wins once eleven of 16 are taken.
    const REVIEW_MARGINS: crate::rules::review::Margins = crate::rules::review::Margins {
        dubious: 60,
        bad: 150,
        cap: 1200,
    };
    const CELL: f32 = 78.0;
    const SQUARES: bool = false;
    const TURN_TOP_PIECES: bool = false;
    const TURN_BOARD: bool = false;
    const HAS_MARKS: bool = true;

    fn presets() -> Result<GamePresets<MusashiRules>, LevelError> {
        data::musashi_presets()
    }
    fn tutorial() -> Result<Tutorial, LevelError> {
        data::musashi_tutorial()
    }
    fn tutorial_rules() -> MusashiRules {
        MusashiRules::STANDARD
    }
    fn graph(&self) -> &BoardGraph {
        self.board()
    }
    fn piece_at(&self, pos: &MusashiPos, p: PointId) -> Option<Side> {
        if pos.oya() == p {
            Some(OYA)
        } else if pos.has_ko(p) {
            Some(KO)
        } else {
            None
        }
    }
    fn taken_by(&self, pos: &MusashiPos, side: Side) -> Option<u32> {
        // Only 親 takes; its 駒台 holds the 子 it has taken.
        (side == OYA).then(|| KO_AT_START.saturating_sub(pos.ko_count()))
    }
    fn capture_view(&self, pos: &MusashiPos, mv: MusashiMove) -> CaptureView {
        let captured = self.captured(pos, mv);
        let capturers = if captured.is_empty() {
            Vec::new()
        } else {
            vec![mv.to as PointId]
        };
        CaptureView {
            captured,
            capturers,
        }
    }
    fn status_line(&self, pos: &MusashiPos, lang: Lang) -> String {
        let (left, taken) = (pos.ko_count(), KO_AT_START.saturating_sub(pos.ko_count()));
        let at = self.rules().oya_wins_at;
        // 子 go in pairs: a threshold of one is reached only when all are taken.
        match (lang, at) {
            (Lang::Ja, 1) => format!("子 {left}個 · 取られた {taken}個\n(親の勝ち: 全部取ったら)"),
            (Lang::En, 1) => {
                format!("Ko: {left} · taken: {taken}\n(the oya wins when all are taken)")
            }
            (Lang::Ja, _) => format!("子 {left}個 · 取られた {taken}個\n(親の勝ち: {at}個以下)"),
            (Lang::En, _) => {
                format!("Ko: {left} · taken: {taken}\n(the oya wins at {at} or fewer)")
            }
        }
    }
    fn notice(&self, pos: &MusashiPos, occurrences: u32) -> Option<T> {
        if occurrences == 2 {
            return Some(T::OyaRepetition2);
        }
        let at = self.rules().oya_wins_at as u32;
        (pos.ko_count() > at && pos.ko_count() <= at + 2).then_some(T::KoOnePairMore)
    }
    fn dangerous(&self, pos: &MusashiPos, mv: MusashiMove) -> bool {
        self.move_exposes(pos, mv)
    }
    fn position_code(&self, pos: &MusashiPos) -> Option<String> {
        Some(self.to_text(pos))
    }
    fn read_position_code(&self, text: &str) -> Result<MusashiPos, String> {
        self.position_from_text(text)
    }
    fn position_text(&self, pos: &MusashiPos) -> String {
        let mover = if pos.to_move() == OYA { "oya" } else { "ko" };
        format!(
            "{}\nto move: {mover}\ntext: {}",
            self.to_rows(pos).join("\n"),
            self.to_text(pos)
        )
    }

    fn to_move_text(side: Side) -> T {
        if side == OYA {
            T::OyaToMove
        } else {
            T::KoToMove
        }
    }
    fn wins_text(side: Side) -> T {
        if side == OYA { T::OyaWins } else { T::KoWin }
    }
    fn side_question() -> (T, [T; 3]) {
        // Side::First is 親.
        (T::YourRole, [T::RoleOya, T::RoleKo, T::FirstRandom])
    }
    fn reason_text(&self, pos: &MusashiPos, reason: EndReason) -> T {
        match reason {
            EndReason::CaptureTarget | EndReason::Lead => T::ReasonKoTooFew,
            EndReason::NoMoves if pos.to_move() == OYA && self.in_setchin(pos) => {
                T::ReasonSetchinZume
            }
            EndReason::NoMoves if pos.to_move() == OYA => T::ReasonOyaTrapped,
            EndReason::NoMoves => T::ReasonKoStuck,
            EndReason::Repetition => T::ReasonFoxRepetition,
            EndReason::MoveLimit => T::ReasonOyaMoveLimit,
            EndReason::Resignation => T::ReasonResignation,
            EndReason::TimeUp => T::ReasonTimeUp,
            EndReason::Disconnected => T::ReasonDisconnected,
            EndReason::OutOfTime => T::ReasonOutOfTime,
            EndReason::RaceWon => T::ReasonRaceWon,
        }
    }

    fn spawn_board(
        &self,
        commands: &mut Commands,
        view: &BoardView,
        fonts: &Fonts,
        _settings: &Settings,
        scope: impl Bundle + Clone,
    ) {
        art::spawn_line_board(commands, view, self.board(), fonts, scope);
    }

    fn piece_children(
        parent: &mut ChildSpawnerCommands,
        art: &Art,
        fonts: &Fonts,
        settings: &Settings,
        side: Side,
        _face: Option<PieceFace>,
    ) {
        match (settings.piece_style, side == OYA) {
            (PieceStyle::Koma, true) => {
                parent
                    .spawn((
                        Transform::from_scale(Vec3::splat(1.12)),
                        Visibility::default(),
                    ))
                    .with_children(|big| art::koma(big, art, fonts, "親", palette::VERMILION));
            }
            (PieceStyle::Koma, false) => art::koma(parent, art, fonts, "子", palette::INK),
            (PieceStyle::Symbol, true) => {
                parent.spawn(art::piece_shadow(art, true));
                parent.spawn((
                    Mesh2d(art.disc.clone()),
                    MeshMaterial2d(art.vermilion.clone()),
                    Transform::from_xyz(0.0, 0.0, 0.1).with_scale(Vec3::splat(1.1)),
                ));
                parent.spawn((
                    Mesh2d(art.ring.clone()),
                    MeshMaterial2d(art.white.clone()),
                    Transform::from_xyz(0.0, 0.0, 0.2),
                ));
            }
            (PieceStyle::Symbol, false) => {
                parent.spawn(art::piece_shadow(art, true));
                parent.spawn((
                    Mesh2d(art.disc.clone()),
                    MeshMaterial2d(art.ink.clone()),
                    Transform::from_xyz(0.0, 0.0, 0.1).with_scale(Vec3::splat(0.85)),
                ));
            }
        }
    }

    fn custom_rules_ui(
        root: &mut ChildSpawnerCommands,
        fonts: &Fonts,
        lang: Lang,
        c: &MusashiRules,
    ) {
        type Draft = SetupDraft<Musashi>;
        let set_board: fn(&mut Draft, bool) = |d, v| d.custom.setchin = v;
        choice_group::<Draft, _>(
            root,
            fonts,
            lang,
            T::BoardShape,
            &[(true, T::Board33), (false, T::Board25)],
            c.setchin,
            set_board,
        );
        choice_group::<Draft, _>(
            root,
            fonts,
            lang,
            T::WhoMovesFirst,
            &[(false, T::RoleOya), (true, T::RoleKo)],
            c.ko_first,
            |d, v| d.custom.ko_first = v,
        );
        choice_group::<Draft, _>(
            root,
            fonts,
            lang,
            T::OyaWinsAt,
            &[
                (5u8, T::Ko5),
                (4u8, T::Ko4),
                (6u8, T::Ko6),
                (1u8, T::KoToOne),
            ],
            c.oya_wins_at,
            |d, v| d.custom.oya_wins_at = v,
        );
    }
}
