//! まわり将棋's setup screen: how many play, who throws (a person or the
//! CPU), the rules (a preset, or each special rule 自分で決める), 早投げ;
//! and the match its はじめる starts.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::session::{COLOUR_NAMES, MawariMatch, Seat};
use crate::games::kit::{SetupRoot, clear_if_changed, heading, option, setup_screen};
use crate::games::resume;
use crate::rules::data::GameId;
use crate::rules::mawari::race::{BabaRule, KeimaPush, MawariRules};
use crate::shell::audio::Sfx;
use crate::shell::i18n::{Lang, T};
use crate::shell::save::Store;
use crate::shell::screens::go_to;
use crate::shell::settings::Settings;
use crate::shell::widgets::{self, Fonts};
use crate::shell::{PendingPosition, Screen};

/// The setup screen's choices.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct MawariDraft {
    pub seats: Vec<Seat>,
    /// `None`: 自分で決める.
    pub preset: Option<String>,
    pub rules: MawariRules,
    pub quick: bool,
}

impl Default for MawariDraft {
    fn default() -> Self {
        MawariDraft {
            seats: vec![Seat::Person, Seat::Cpu, Seat::Cpu, Seat::Cpu],
            preset: Some("all".into()),
            rules: MawariRules::ALL,
            quick: false,
        }
    }
}

/// The setup screen's start button (tests click it).
#[derive(Component)]
pub struct MawariBegin;

/// Each special rule's setting: its name and how it is read and set.
type RuleFlag = (T, fn(&MawariRules) -> bool, fn(&mut MawariRules, bool));
const RULE_FLAGS: [RuleFlag; 11] = [
    (T::MawariKorosu, |r| r.korosu, |r, v| r.korosu = v),
    (
        T::MawariKeimaDouble,
        |r| r.keima_double,
        |r, v| r.keima_double = v,
    ),
    (T::MawariYaitoRule, |r| r.yaito, |r, v| r.yaito = v),
    (
        T::MawariShinigamiRule,
        |r| r.shinigami,
        |r, v| r.shinigami = v,
    ),
    (
        T::MawariNakayoshiRule,
        |r| r.nakayoshi,
        |r, v| r.nakayoshi = v,
    ),
    (T::MawariSensoRule, |r| r.senso, |r, v| r.senso = v),
    (T::MawariPussunRule, |r| r.pussun, |r, v| r.pussun = v),
    (T::MawariOnbuRule, |r| r.onbu, |r, v| r.onbu = v),
    (
        T::MawariFuDemotion,
        |r| r.fu_demotion,
        |r, v| r.fu_demotion = v,
    ),
    // The local rules.
    (
        T::MawariKeimaPushTwo,
        |r| r.keima_push == KeimaPush::Two,
        |r, v| r.keima_push = if v { KeimaPush::Two } else { KeimaPush::One },
    ),
    (
        T::MawariBabaBack,
        |r| r.baba == BabaRule::Back,
        |r, v| r.baba = if v { BabaRule::Back } else { BabaRule::Zero },
    ),
];

pub(super) fn spawn(
    mut commands: Commands,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    draft: Option<Res<MawariDraft>>,
) {
    let draft = match draft {
        Some(d) => d.clone(),
        None => {
            commands.insert_resource(MawariDraft::default());
            MawariDraft::default()
        }
    };
    spawn_setup_ui(&mut commands, &fonts, settings.lang, &draft);
}

fn spawn_setup_ui(commands: &mut Commands, fonts: &Fonts, lang: Lang, d: &MawariDraft) {
    setup_screen(commands, fonts, lang, GameId::Mawari, |root| {
        heading(root, fonts, lang, T::MawariPlayers);
        root.spawn(widgets::row()).with_children(|r| {
            for n in 2..=4usize {
                option::<MawariDraft>(
                    r,
                    fonts,
                    &T::MawariPlayerCount.fill(lang, &[&n]),
                    d.seats.len() == n,
                    move |d| {
                        d.seats.resize(n, Seat::Cpu);
                    },
                );
            }
        });
        heading(root, fonts, lang, T::MawariWhoThrows);
        root.spawn(widgets::row()).with_children(|r| {
            for (i, seat) in d.seats.iter().enumerate() {
                let who = match seat {
                    Seat::Person => T::MawariPerson,
                    Seat::Cpu => T::OpponentCpu,
                };
                let caption = format!("{}: {}", COLOUR_NAMES[i].get(lang), who.get(lang));
                option::<MawariDraft>(r, fonts, &caption, *seat == Seat::Person, move |d| {
                    if let Some(s) = d.seats.get_mut(i) {
                        *s = if *s == Seat::Person {
                            Seat::Cpu
                        } else {
                            Seat::Person
                        };
                    }
                });
            }
        });
        heading(root, fonts, lang, T::Rules);
        root.spawn(widgets::row()).with_children(|r| {
            match crate::rules::mawari::levels::presets() {
                Ok(presets) => {
                    for p in presets.presets {
                        let rules = p.rules;
                        let id = p.id.clone();
                        option::<MawariDraft>(
                            r,
                            fonts,
                            lang.text(&p.name),
                            d.preset.as_deref() == Some(&p.id),
                            move |d| {
                                d.preset = Some(id.clone());
                                d.rules = rules;
                            },
                        );
                    }
                }
                Err(e) => error!("{e}"),
            }
            option::<MawariDraft>(
                r,
                fonts,
                T::CustomRules.get(lang),
                d.preset.is_none(),
                |d| {
                    d.preset = None;
                },
            );
        });
        if d.preset.is_none() {
            root.spawn(widgets::row()).with_children(|r| {
                for (name, get, set) in RULE_FLAGS {
                    let on = get(&d.rules);
                    option::<MawariDraft>(r, fonts, name.get(lang), on, move |d| {
                        set(&mut d.rules, !on)
                    });
                }
            });
        }
        root.spawn(widgets::row()).with_children(|r| {
            let quick = d.quick;
            option::<MawariDraft>(r, fonts, T::MawariQuickOption.get(lang), quick, move |d| {
                d.quick = !quick
            });
        });
        root.spawn(widgets::row()).with_children(|r| {
            r.spawn((
                widgets::key_button(fonts, lang, T::Start, true),
                MawariBegin,
            ))
            .observe(begin);
            r.spawn(widgets::key_button(fonts, lang, T::Back, false))
                .observe(go_to(Screen::GameList));
        });
    });
}

pub(super) fn rebuild(
    mut commands: Commands,
    draft: Option<Res<MawariDraft>>,
    fonts: Res<Fonts>,
    settings: Res<Settings>,
    roots: Query<Entity, With<SetupRoot>>,
) {
    if let Some(draft) = draft
        && clear_if_changed(&mut commands, &draft, &settings, &roots)
    {
        spawn_setup_ui(&mut commands, &fonts, settings.lang, &draft);
    }
}

fn begin(_: On<Pointer<Click>>, mut starter: MatchStarter, mut sfx: MessageWriter<Sfx>) {
    sfx.write(Sfx::Button);
    starter.start();
}

/// Enter starts the game too.
pub(super) fn begin_on_enter(keys: Res<ButtonInput<KeyCode>>, mut starter: MatchStarter) {
    if keys.just_pressed(KeyCode::Enter) {
        starter.start();
    }
}

/// A message for the play screen about how the game started (a position
/// from the command line or the page, or why it could not be used).
#[derive(Resource, Clone, Debug, Default)]
pub(crate) struct StartNotice(pub Option<String>);

/// The match a draft starts: from the start, or from a pending position
/// (the seats follow its number of pieces: the draft's first, then CPUs).
fn new_match(
    draft: &MawariDraft,
    position: Option<&str>,
    seed: u64,
) -> Result<MawariMatch, String> {
    let mut m = MawariMatch::new(
        draft.seats.clone(),
        draft.rules,
        draft.quick,
        draft.preset.clone(),
        seed,
    )?;
    if let Some(text) = position {
        let (rules, start) = crate::rules::mawari::levels::start_text(text)?;
        let mut seats = draft.seats.clone();
        seats.resize(start.pieces.len(), Seat::Cpu);
        m.race = start.race(rules.unwrap_or(draft.rules));
        m.seats = seats;
    }
    Ok(m)
}

/// What starting the draft's match needs (by the button or the Enter
/// key).
#[derive(SystemParam)]
pub(crate) struct MatchStarter<'w, 's> {
    commands: Commands<'w, 's>,
    draft: Option<Res<'w, MawariDraft>>,
    next: ResMut<'w, NextState<Screen>>,
    store: ResMut<'w, Store>,
    pending: ResMut<'w, PendingPosition>,
    notice: ResMut<'w, StartNotice>,
}

impl MatchStarter<'_, '_> {
    /// Starts the draft's match (from the pending position, if there is
    /// one), saves it and opens the play screen.
    fn start(&mut self) {
        let Some(draft) = &self.draft else { return };
        let seed = rand::random::<u64>();
        let position = self.pending.0.take();
        let made = match new_match(draft, position.as_deref(), seed) {
            Ok(m) => {
                self.notice.0 = position.map(|_| "position".into());
                Ok(m)
            }
            Err(e) => {
                // A bad position is explained; the game starts as usual.
                self.notice.0 = Some(e);
                new_match(draft, None, seed)
            }
        };
        match made {
            Ok(m) => {
                resume::keep(&mut self.store, &m);
                self.commands.insert_resource(m);
                self.next.set(Screen::Play);
            }
            Err(e) => error!("{e}"),
        }
    }
}
