//! はさみ将棋: setup screen, play screen, result screen, tutorial, and the
//! save that 続きから resumes.

mod pieces;
pub mod play;
pub mod setup;
pub mod tutorial;

use bevy::prelude::*;
use rand::RngExt;
use serde::{Deserialize, Serialize};

use crate::app::i18n::T;
use crate::app::save::{LoadError, Store};
use crate::app::screens::ResumeRequest;
use crate::app::{Notice, Screen};
use crate::rules::data::{self, GameId, GamePresets, Strength};
use crate::rules::game::Side;
use crate::rules::hasami::{Hasami, HasamiMove, HasamiRules};
use crate::rules::record::GameRecord;

/// Who the opponent is (相手).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Opponent {
    Cpu(Strength),
    /// となりの人: two players on one device.
    Human,
}

/// Who moves first (先手), as chosen on the setup screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FirstChoice {
    You,
    Cpu,
    Random,
}

/// The settings of one game, fixed when it starts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchSetup {
    pub opponent: Opponent,
    /// The side the (bottom) player takes against the CPU.
    pub human_side: Side,
    /// The preset's id, or `custom`.
    pub preset: String,
    pub rules: HasamiRules,
    /// 待った あり / なし.
    pub undo_allowed: bool,
}

impl MatchSetup {
    pub fn is_cpu(&self, side: Side) -> bool {
        matches!(self.opponent, Opponent::Cpu(_)) && side != self.human_side
    }
    /// The side drawn at the bottom.
    pub fn bottom_side(&self) -> Side {
        match self.opponent {
            Opponent::Cpu(_) => self.human_side,
            Opponent::Human => Side::First,
        }
    }
}

/// What is saved for 続きから: the setup and every move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HasamiSave {
    pub setup: MatchSetup,
    pub moves: Vec<HasamiMove>,
}

/// The game being played.
#[derive(Resource, Clone)]
pub struct HasamiMatch {
    pub game: Hasami,
    pub record: GameRecord<Hasami>,
    pub setup: MatchSetup,
}

impl HasamiMatch {
    pub fn new(setup: MatchSetup) -> Result<Self, String> {
        let board = data::board("shogi9").map_err(|e| e.to_string())?;
        let game = Hasami::new(board, setup.rules)?;
        let record = GameRecord::new(&game);
        Ok(HasamiMatch {
            game,
            record,
            setup,
        })
    }

    /// Rebuilds a saved game by replaying its moves through the rules.
    pub fn from_save(save: HasamiSave) -> Result<Self, String> {
        let mut m = Self::new(save.setup)?;
        m.record = GameRecord::replay(&m.game, &save.moves)
            .map_err(|(i, e)| format!("move {}: {e}", i + 1))?;
        Ok(m)
    }

    pub fn to_save(&self) -> HasamiSave {
        HasamiSave {
            setup: self.setup.clone(),
            moves: self.record.moves().to_vec(),
        }
    }
}

/// The presets and CPU levels from `levels/presets/hasami.ron`.
#[derive(Resource, Clone)]
pub struct HasamiPresets(pub GamePresets<HasamiRules>);

/// The choices on the setup screen (kept between games).
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct SetupDraft {
    pub opponent_is_cpu: bool,
    pub strength: Strength,
    pub first: FirstChoice,
    /// A preset id, or `custom`.
    pub preset: String,
    pub custom: HasamiRules,
    pub undo_allowed: bool,
}

impl Default for SetupDraft {
    fn default() -> Self {
        SetupDraft {
            opponent_is_cpu: true,
            strength: Strength::Easy,
            first: FirstChoice::You,
            preset: "standard".into(),
            custom: HasamiRules::STANDARD,
            undo_allowed: true,
        }
    }
}

impl SetupDraft {
    /// The setup this draft describes (a random first player is drawn now).
    pub fn to_setup(
        &self,
        presets: &GamePresets<HasamiRules>,
        rng: &mut impl rand::Rng,
    ) -> MatchSetup {
        let rules = presets
            .preset(&self.preset)
            .map(|p| p.rules)
            .unwrap_or(self.custom);
        let human_side = match self.first {
            FirstChoice::You => Side::First,
            FirstChoice::Cpu => Side::Second,
            FirstChoice::Random => {
                if rng.random_bool(0.5) {
                    Side::First
                } else {
                    Side::Second
                }
            }
        };
        MatchSetup {
            opponent: if self.opponent_is_cpu {
                Opponent::Cpu(self.strength)
            } else {
                Opponent::Human
            },
            human_side,
            preset: self.preset.clone(),
            rules,
            undo_allowed: self.undo_allowed,
        }
    }
}

/// Loads the save of this game. A corrupt or foreign save is removed and
/// reported; the caller starts a fresh game instead.
pub fn load_save(store: &mut Store) -> Result<HasamiMatch, LoadError> {
    let key = GameId::Hasami.save_key();
    let result = store
        .get::<HasamiSave>(&key)
        .and_then(|s| HasamiMatch::from_save(s).map_err(LoadError::Corrupt));
    if let Err(LoadError::Corrupt(why)) = &result {
        warn!("discarding the はさみ将棋 save: {why}");
        store.remove(&key);
    }
    result
}

pub fn plugin(app: &mut App) {
    let presets = data::hasami_presets().unwrap_or_else(|e| panic!("{e}"));
    app.insert_resource(HasamiPresets(presets))
        .init_resource::<SetupDraft>()
        .add_systems(Update, handle_resume)
        .add_plugins((setup::plugin, play::plugin, tutorial::plugin));
}

fn handle_resume(
    mut requests: MessageReader<ResumeRequest>,
    mut store: ResMut<Store>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
    mut notice: ResMut<Notice>,
) {
    for r in requests.read() {
        if r.0 != GameId::Hasami {
            continue;
        }
        match load_save(&mut store) {
            Ok(m) => {
                commands.insert_resource(m);
                next.set(Screen::Play);
            }
            Err(LoadError::Missing) => next.set(Screen::Setup),
            Err(LoadError::Corrupt(_)) => {
                notice.0 = Some(T::SaveDiscarded);
                next.set(Screen::GameList);
            }
        }
    }
}
