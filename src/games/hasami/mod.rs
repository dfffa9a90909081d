//! はさみ将棋 on the shared screens: how its rules are presented (board,
//! pieces, captures, notices, the 自分で決める options).

mod pieces;

use bevy::prelude::*;

use super::art::Art;
use super::board_view::BoardView;
use super::kit::{choice_group, heading, option};
use super::session::{CaptureView, PieceFace, Playable, SetupDraft};
use crate::rules::board::{BoardGraph, PointId};
use crate::rules::data::{self, GamePresets, Tutorial};
use crate::rules::game::{EndReason, Side};
use crate::rules::hasami::{Enclosure, Hasami, HasamiMove, HasamiPos, HasamiRules};
use crate::rules::levels::LevelError;
use crate::shell::i18n::{Lang, T};
use crate::shell::settings::Settings;
use crate::shell::widgets::{ButtonLook, Fonts};

pub(crate) fn plugin(app: &mut App) {
    app.add_plugins(super::screens::plugin::<Hasami>);
}

impl Playable for Hasami {
    const CELL: f32 = super::art::CELL;
    const SQUARES: bool = true;
    const TURN_TOP_PIECES: bool = true;
    const TURN_BOARD: bool = true;

    fn presets() -> Result<GamePresets<HasamiRules>, LevelError> {
        data::hasami_presets()
    }
    fn tutorial() -> Result<Tutorial, LevelError> {
        data::hasami_tutorial()
    }
    fn tutorial_rules() -> HasamiRules {
        HasamiRules::STANDARD
    }
    fn graph(&self) -> &BoardGraph {
        self.board()
    }
    fn piece_at(&self, pos: &HasamiPos, p: PointId) -> Option<Side> {
        pos.at(p)
    }
    fn taken_by(&self, pos: &HasamiPos, side: Side) -> Option<u32> {
        Some(pos.captured_by(side) as u32)
    }
    fn capture_view(&self, pos: &HasamiPos, mv: HasamiMove) -> CaptureView {
        let report = self.captures(pos, mv);
        CaptureView {
            captured: report.captured,
            capturers: report.capturers,
        }
    }
    fn status_line(&self, pos: &HasamiPos, lang: Lang) -> String {
        format!(
            "{}: 歩 {} · と {}  ({} {})",
            T::Captured.get(lang),
            pos.captured_by(Side::First),
            pos.captured_by(Side::Second),
            lang.pick("目標", "target"),
            self.rules().capture_target
        )
    }
    fn notice(&self, pos: &HasamiPos, occurrences: u32) -> Option<T> {
        match occurrences {
            2 => return Some(T::Repetition2),
            3 => return Some(T::Repetition3),
            _ => {}
        }
        let stm = pos.to_move();
        let lead = self.rules().lead?;
        (pos.captured_by(stm.opponent()) >= pos.captured_by(stm) + lead).then_some(T::LeadWarning)
    }
    fn position_text(&self, pos: &HasamiPos) -> String {
        pos.to_text()
    }

    fn to_move_text(side: Side) -> T {
        match side {
            Side::First => T::FirstToMove,
            Side::Second => T::SecondToMove,
        }
    }
    fn wins_text(side: Side) -> T {
        match side {
            Side::First => T::FirstWins,
            Side::Second => T::SecondWins,
        }
    }
    fn side_question() -> (T, [T; 3]) {
        (T::FirstPlayer, [T::FirstYou, T::FirstCpu, T::FirstRandom])
    }
    fn reason_text(&self, _pos: &HasamiPos, reason: EndReason) -> T {
        match reason {
            EndReason::CaptureTarget => T::ReasonCaptureTarget,
            EndReason::Lead => T::ReasonLead,
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

    fn spawn_board(
        &self,
        commands: &mut Commands,
        view: &BoardView,
        fonts: &Fonts,
        _settings: &Settings,
        scope: impl Bundle + Clone,
    ) {
        pieces::spawn_board(commands, view, fonts, scope);
    }
    fn piece_children(
        parent: &mut ChildSpawnerCommands,
        art: &Art,
        fonts: &Fonts,
        settings: &Settings,
        side: Side,
        _face: Option<PieceFace>,
    ) {
        pieces::piece_children(parent, art, fonts, settings.piece_style, side);
    }

    fn custom_rules_ui(
        root: &mut ChildSpawnerCommands,
        fonts: &Fonts,
        lang: Lang,
        c: &HasamiRules,
    ) {
        type Draft = SetupDraft<Hasami>;
        let tr = |k: T| k.get(lang);
        heading(root, fonts, lang, T::CaptureTarget);
        root.spawn(crate::shell::widgets::row()).with_children(|r| {
            for n in [4u8, 5, 7] {
                let chosen = c.capture_target == n;
                option::<Draft>(
                    r,
                    fonts,
                    &format!("{n}"),
                    ButtonLook::Choice { chosen },
                    move |d| d.custom.capture_target = n,
                );
            }
            option::<Draft>(
                r,
                fonts,
                tr(T::TargetDownToOne),
                ButtonLook::Choice {
                    chosen: c.capture_target == 8,
                },
                |d| d.custom.capture_target = 8,
            );
        });
        choice_group::<Draft, _>(
            root,
            fonts,
            lang,
            T::LeadRule,
            &[
                (None, T::LeadNone),
                (Some(2u8), T::Lead2),
                (Some(3u8), T::Lead3),
            ],
            c.lead,
            |d, v| d.custom.lead = v,
        );
        choice_group::<Draft, _>(
            root,
            fonts,
            lang,
            T::Enclosure,
            &[
                (Enclosure::Corner, T::EnclosureCorner),
                (Enclosure::Edge, T::EnclosureEdge),
                (Enclosure::Anywhere, T::EnclosureAnywhere),
            ],
            c.enclosure,
            |d, v| d.custom.enclosure = v,
        );
        root.spawn(crate::shell::widgets::row()).with_children(|r| {
            let flip_diagonal: fn(&mut Draft) = |d| d.custom.diagonal = !d.custom.diagonal;
            let flip_limit: fn(&mut Draft) = |d| {
                d.custom.move_limit = if d.custom.move_limit.is_some() {
                    None
                } else {
                    Some(300)
                }
            };
            option::<Draft>(
                r,
                fonts,
                tr(T::Diagonal),
                ButtonLook::Toggle { on: c.diagonal },
                flip_diagonal,
            );
            option::<Draft>(
                r,
                fonts,
                tr(T::MoveLimit),
                ButtonLook::Toggle {
                    on: c.move_limit.is_some(),
                },
                flip_limit,
            );
        });
    }
}
