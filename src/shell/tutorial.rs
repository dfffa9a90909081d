//! The tutorial runner shared by every game: which step is shown, whether
//! the player found a step's "try it" move, and the text panel with its
//! buttons. Games draw the step's diagram and report the moves played on it
//! (by point names, as the tutorial files write them).

use super::widgets::type_scale as ty;
use bevy::prelude::*;

use super::Screen;
use super::i18n::{Lang, T};
use super::screens::go_to;
use super::widgets::{self, Fonts, palette};
use crate::rules::data::{Tutorial, TutorialStep};

/// The tutorial being followed.
#[derive(Resource, Clone, Debug)]
pub struct TutorialProgress {
    pub tutorial: Tutorial,
    pub step: usize,
    /// After a "try it" move: found (true) or not (false).
    pub feedback: Option<bool>,
    /// Wrong tries on this step (fewer earn more stars).
    pub misses: u32,
    /// A line step's word on the last move, under the feedback (another
    /// mate found, not a check, the answer shown).
    pub remark: Option<T>,
    /// The steps whose answer was shown (答えを見る): one star at most,
    /// however they are solved after.
    pub shown: Vec<usize>,
}

impl TutorialProgress {
    pub fn new(tutorial: Tutorial) -> Self {
        TutorialProgress {
            tutorial,
            step: 0,
            feedback: None,
            misses: 0,
            remark: None,
            shown: Vec::new(),
        }
    }

    pub fn current(&self) -> &TutorialStep {
        &self.tutorial.steps[self.step]
    }

    /// Moves `delta` steps on or back (within the tutorial).
    pub fn turn(&mut self, delta: i32) {
        let last = self.tutorial.steps.len() as i32 - 1;
        self.step = (self.step as i32 + delta).clamp(0, last) as usize;
        self.feedback = None;
        self.misses = 0;
        self.remark = None;
    }

    /// Whether the step waits for the player's move.
    pub fn awaits_move(&self) -> bool {
        self.current().asks_move() && self.feedback != Some(true)
    }

    /// A line step played to its end: found.
    pub fn line_found(&mut self) {
        self.feedback = Some(true);
    }

    /// 答えを見る on this step.
    pub fn answer_shown(&mut self) {
        if !self.shown.contains(&self.step) {
            self.shown.push(self.step);
        }
    }

    /// The stars the step earns when found now.
    pub fn stars(&self) -> u8 {
        if self.shown.contains(&self.step) {
            1
        } else {
            stars(self.misses)
        }
    }

    /// A line step's move refuted: a wrong try.
    pub fn line_missed(&mut self) {
        self.feedback = Some(false);
        self.misses += 1;
    }

    /// Judges a move played on the diagram (by point names; `via` is the
    /// first step of a two-step move; `promoted`: whether the piece
    /// promoted); true if it is the expected one (or one the step also
    /// takes). An answer that says whether it promotes needs that choice
    /// too.
    pub fn judge(&mut self, from: &str, via: Option<&str>, to: &str, promoted: bool) -> bool {
        let step = self.current();
        let right = step.expect.iter().chain(&step.also).any(|e| {
            e.from == from
                && e.to == to
                && e.via.as_ref().is_none_or(|v| Some(v.as_str()) == via)
                && e.promote.is_none_or(|p| p == promoted)
        });
        self.feedback = Some(right);
        if !right {
            self.misses += 1;
        }
        right
    }

    /// The line under the step's text: the prompt, or the feedback.
    pub(crate) fn feedback_text(&self, lang: Lang) -> String {
        let step = self.current();
        let said = match self.feedback {
            Some(true) => step
                .right
                .as_ref()
                .map(|t| lang.text(t).to_string())
                .unwrap_or_default(),
            Some(false) => step
                .wrong
                .as_ref()
                .map(|t| lang.text(t).to_string())
                .unwrap_or_default(),
            None if step.asks_move() => format!("▶ {}", T::TryIt.get(lang)),
            None => String::new(),
        };
        match self.remark {
            Some(remark) if said.is_empty() => remark.get(lang).to_string(),
            Some(remark) => format!("{said} {}", remark.get(lang)),
            None => said,
        }
    }
}

/// 前へ / 次へ: moves `delta` steps when clicked (an observer of this
/// button only).
fn spawn_step_button(
    parent: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    key: T,
    delta: i32,
) {
    parent
        .spawn(widgets::key_button(fonts, lang, key, delta > 0))
        .observe(
            move |_: On<Pointer<Click>>, mut progress: ResMut<TutorialProgress>| {
                progress.turn(delta)
            },
        );
}

/// Stars for a step found after `misses` wrong tries: 3, 2, then 1.
pub(crate) fn stars(misses: u32) -> u8 {
    3 - misses.min(2) as u8
}

/// A lesson's saved progress: the stars earned on each step (0: not yet).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LessonRecord {
    pub stars: Vec<u8>,
}

impl LessonRecord {
    pub fn key(game: crate::rules::data::GameId, lesson: &str) -> String {
        format!("lessons.{}.{lesson}", game.id())
    }
    /// Keeps the best stars of step `step`.
    pub(crate) fn earn(&mut self, step: usize, stars: u8) {
        if self.stars.len() <= step {
            self.stars.resize(step + 1, 0);
        }
        self.stars[step] = self.stars[step].max(stars);
    }
    pub fn solved(&self) -> usize {
        self.stars.iter().filter(|&&s| s > 0).count()
    }
    pub fn total_stars(&self) -> u32 {
        self.stars.iter().map(|&s| s as u32).sum()
    }
}

/// The panel (`node`: on the right, or below the board in a portrait
/// window): title, step text, `notes` on the diagram, feedback, the
/// game's `actions` for the step (a line step's buttons), 前へ / 次へ,
/// back (to `back`: the list, or the lessons menu).
#[allow(clippy::too_many_arguments)]
pub(crate) fn spawn_panel(
    commands: &mut Commands,
    scope: impl Bundle,
    fonts: &Fonts,
    lang: Lang,
    progress: &TutorialProgress,
    notes: &[String],
    earned: Option<u8>,
    back: Screen,
    node: Node,
    actions: impl FnOnce(&mut ChildSpawnerCommands),
) {
    let step = progress.current();
    let count = progress.tutorial.steps.len();
    commands
        .spawn((scope, node, widgets::ScrollColumn))
        .with_children(|panel| {
            panel.spawn(widgets::text(
                fonts,
                lang.text(&progress.tutorial.title),
                ty::BUTTON,
                palette::INK_SOFT,
            ));
            panel.spawn(widgets::text(
                fonts,
                format!(
                    "{} / {count}  {}{}",
                    progress.step + 1,
                    lang.text(&step.title),
                    earned.map_or(String::new(), |s| format!("  {}", "★".repeat(s as usize)))
                ),
                ty::SUBTITLE,
                palette::INK,
            ));
            panel.spawn(widgets::text(
                fonts,
                lang.text(&step.text),
                ty::BODY,
                palette::INK,
            ));
            for note in notes {
                panel.spawn(widgets::text(
                    fonts,
                    note.clone(),
                    ty::BODY,
                    palette::INK_SOFT,
                ));
            }
            panel.spawn(widgets::text(
                fonts,
                progress.feedback_text(lang),
                ty::BODY,
                palette::VERMILION,
            ));
            actions(panel);
            if progress.step + 1 == count {
                panel.spawn(widgets::label(
                    fonts,
                    lang,
                    T::TutorialDone,
                    ty::BODY,
                    palette::INK_SOFT,
                ));
            }
            panel.spawn(widgets::row()).with_children(|row| {
                spawn_step_button(row, fonts, lang, T::Previous, -1);
                spawn_step_button(row, fonts, lang, T::Next, 1);
            });
            let back_key = if back == Screen::Lessons {
                T::Back
            } else {
                T::BackToList
            };
            panel
                .spawn(widgets::key_button(fonts, lang, back_key, false))
                .observe(go_to(back));
        });
}

pub(crate) fn plugin(app: &mut App) {
    app.add_systems(OnExit(Screen::Tutorial), |mut commands: Commands| {
        commands.remove_resource::<TutorialProgress>();
    });
}
