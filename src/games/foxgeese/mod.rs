//! きつねとがちょう on the shared screens: the cross board of points and
//! lines, the fox and the geese, the multi-jump (one tap per landing, 跳ぶの
//! をやめる to stop), 印を出す, and the 自分で決める options.

use bevy::prelude::*;

use super::art::{self, Art};
use super::board_view::BoardView;
use super::kit::{choice_group, heading, option};
use super::session::{CaptureView, PieceFace, Playable, SetupDraft};
use crate::rules::board::{BoardGraph, PointId};
use crate::rules::data::{self, GamePresets, Tutorial};
use crate::rules::foxgeese::{FOX, FoxGeese, FoxGeeseMove, FoxGeesePos, FoxGeeseRules, GEESE};
use crate::rules::game::{EndReason, Side};
use crate::rules::levels::LevelError;
use crate::shell::i18n::{Lang, T};
use crate::shell::settings::{PieceStyle, Settings};
use crate::shell::widgets::{self, ButtonLook, Fonts, palette};

pub(crate) fn plugin(app: &mut App) {
    app.add_plugins(super::screens::plugin::<FoxGeese>);
}

impl Playable for FoxGeese {
    /// A goose is 100; the fox wins once seven of 13 are taken.
    const REVIEW_MARGINS: crate::rules::review::Margins = crate::rules::review::Margins {
        dubious: 60,
        bad: 150,
        cap: 1000,
    };
    const CELL: f32 = 78.0;
    const SQUARES: bool = false;
    const TURN_TOP_PIECES: bool = false;
    const TURN_BOARD: bool = false;
    const MULTI_STEP: bool = true;
    const HAS_MARKS: bool = true;

    fn presets() -> Result<GamePresets<FoxGeeseRules>, LevelError> {
        data::foxgeese_presets()
    }
    fn tutorial() -> Result<Tutorial, LevelError> {
        data::foxgeese_tutorial()
    }
    fn tutorial_rules() -> FoxGeeseRules {
        FoxGeeseRules::STANDARD
    }
    fn graph(&self) -> &BoardGraph {
        self.board()
    }
    fn piece_at(&self, pos: &FoxGeesePos, p: PointId) -> Option<Side> {
        if pos.fox() == p {
            Some(FOX)
        } else if pos.has_goose(p) {
            Some(GEESE)
        } else {
            None
        }
    }
    fn taken_by(&self, pos: &FoxGeesePos, side: Side) -> Option<u32> {
        // Only the fox takes; its 駒台 holds the geese it has jumped.
        (side == FOX).then(|| (self.rules().geese as u32).saturating_sub(pos.goose_count()))
    }
    fn capture_view(&self, _pos: &FoxGeesePos, mv: FoxGeeseMove) -> CaptureView {
        let captured = self.captured(mv);
        let capturers = if captured.is_empty() {
            Vec::new()
        } else {
            vec![mv.to()]
        };
        CaptureView {
            captured,
            capturers,
        }
    }
    fn status_line(&self, pos: &FoxGeesePos, lang: Lang) -> String {
        let threshold = self.rules().fox_wins_at;
        match lang {
            Lang::Ja => format!(
                "がちょう {}羽 · 取られた {}羽\n(きつねの勝ち: {}羽以下)",
                pos.goose_count(),
                (self.rules().geese as u32).saturating_sub(pos.goose_count()),
                threshold
            ),
            Lang::En => format!(
                "Geese: {} · taken: {}\n(the fox wins at {} or fewer)",
                pos.goose_count(),
                (self.rules().geese as u32).saturating_sub(pos.goose_count()),
                threshold
            ),
        }
    }
    fn notice(&self, pos: &FoxGeesePos, occurrences: u32) -> Option<T> {
        if occurrences == 2 {
            return Some(T::FoxRepetition2);
        }
        (pos.goose_count() == self.rules().fox_wins_at as u32 + 1).then_some(T::GeeseOneMore)
    }
    fn dangerous(&self, pos: &FoxGeesePos, mv: FoxGeeseMove) -> bool {
        self.move_exposes(pos, mv)
    }
    fn position_text(&self, pos: &FoxGeesePos) -> String {
        let mover = if pos.to_move() == FOX { "fox" } else { "geese" };
        format!("{}\nto move: {mover}", self.to_rows(pos).join("\n"))
    }

    fn to_move_text(side: Side) -> T {
        if side == FOX {
            T::FoxToMove
        } else {
            T::GeeseToMove
        }
    }
    fn wins_text(side: Side) -> T {
        if side == FOX { T::FoxWins } else { T::GeeseWin }
    }
    fn side_question() -> (T, [T; 3]) {
        // Side::First is the geese.
        (T::YourRole, [T::RoleGeese, T::RoleFox, T::FirstRandom])
    }
    fn reason_text(&self, pos: &FoxGeesePos, reason: EndReason) -> T {
        match reason {
            EndReason::CaptureTarget | EndReason::Lead => T::ReasonGeeseTooFew,
            EndReason::NoMoves if pos.to_move() == FOX => T::ReasonFoxTrapped,
            EndReason::NoMoves => T::ReasonGeeseStuck,
            EndReason::Repetition => T::ReasonFoxRepetition,
            EndReason::MoveLimit => T::ReasonFoxMoveLimit,
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
        match (settings.piece_style, side == FOX) {
            (PieceStyle::Koma, true) => art::koma(parent, art, fonts, "狐", palette::VERMILION),
            (PieceStyle::Koma, false) => art::koma(parent, art, fonts, "鵞", palette::INK),
            (PieceStyle::Symbol, true) => {
                parent.spawn(art::piece_shadow(art, true));
                // An orange fox face: two dark ears and a pale muzzle.
                for x in [-12.0, 12.0] {
                    parent.spawn((
                        Mesh2d(art.ear.clone()),
                        MeshMaterial2d(art.ink.clone()),
                        Transform::from_xyz(x, 20.0, 0.05),
                    ));
                }
                parent.spawn((
                    Mesh2d(art.disc.clone()),
                    MeshMaterial2d(art.fox.clone()),
                    Transform::from_xyz(0.0, 0.0, 0.1),
                ));
                parent.spawn((
                    Mesh2d(art.dot.clone()),
                    MeshMaterial2d(art.white.clone()),
                    Transform::from_xyz(0.0, -8.0, 0.2).with_scale(Vec3::new(1.3, 1.0, 1.0)),
                ));
                parent.spawn((
                    Sprite::from_color(palette::INK, Vec2::splat(6.0)),
                    Transform::from_xyz(0.0, -5.0, 0.3),
                ));
            }
            (PieceStyle::Symbol, false) => {
                parent.spawn(art::piece_shadow(art, true));
                // A white goose: an ink ring and an orange beak.
                parent.spawn((
                    Mesh2d(art.disc.clone()),
                    MeshMaterial2d(art.ink.clone()),
                    Transform::from_xyz(0.0, 0.0, 0.05).with_scale(Vec3::splat(1.08)),
                ));
                parent.spawn((
                    Mesh2d(art.disc.clone()),
                    MeshMaterial2d(art.white.clone()),
                    Transform::from_xyz(0.0, 0.0, 0.1),
                ));
                parent.spawn((
                    Mesh2d(art.arrow.clone()),
                    MeshMaterial2d(art.fox.clone()),
                    Transform::from_xyz(0.0, 8.0, 0.2).with_scale(Vec3::splat(1.4)),
                ));
                parent.spawn((
                    Sprite::from_color(palette::INK, Vec2::splat(5.0)),
                    Transform::from_xyz(-7.0, -4.0, 0.3),
                ));
                parent.spawn((
                    Sprite::from_color(palette::INK, Vec2::splat(5.0)),
                    Transform::from_xyz(7.0, -4.0, 0.3),
                ));
            }
        }
    }

    fn custom_rules_ui(
        root: &mut ChildSpawnerCommands,
        fonts: &Fonts,
        lang: Lang,
        c: &FoxGeeseRules,
    ) {
        type Draft = SetupDraft<FoxGeese>;
        heading(root, fonts, lang, T::GeeseCount);
        root.spawn(widgets::row()).with_children(|r| {
            for n in [13u8, 15, 17] {
                let caption = format!("{n}{}", lang.pick("羽", ""));
                let chosen = c.geese == n;
                option::<Draft>(
                    r,
                    fonts,
                    &caption,
                    ButtonLook::Choice { chosen },
                    move |d| d.custom.geese = n,
                );
            }
        });
        choice_group::<Draft, _>(
            root,
            fonts,
            lang,
            T::FoxWinsAt,
            &[
                (6u8, T::GeeseDownTo6),
                (4u8, T::GeeseDownTo4),
                (3u8, T::GeeseCannotTrap),
            ],
            c.fox_wins_at,
            |d, v| d.custom.fox_wins_at = v,
        );
        root.spawn(widgets::row()).with_children(|r| {
            let toggles: [(T, bool, fn(&mut Draft)); 4] = [
                (T::DiagonalLines, c.diagonals, |d| {
                    d.custom.diagonals = !d.custom.diagonals
                }),
                (T::GeeseBack, c.geese_back, |d| {
                    d.custom.geese_back = !d.custom.geese_back
                }),
                (T::MultiJump, c.multi_jump, |d| {
                    d.custom.multi_jump = !d.custom.multi_jump
                }),
                (T::ForcedCapture, c.forced_capture, |d| {
                    d.custom.forced_capture = !d.custom.forced_capture
                }),
            ];
            for (key, on, flip) in toggles {
                option::<Draft>(r, fonts, key.get(lang), ButtonLook::Toggle { on }, flip);
            }
        });
    }
}
