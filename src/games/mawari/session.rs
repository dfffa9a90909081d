//! The match of まわり将棋: who sits where, the race, the log of throws,
//! and its save for 続きから; and the setup's draft a match is made from
//! (the setup screen and a room's plan both read it).

use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use crate::games::resume::Resumable;
use crate::net::protocol::RoomCode;
use crate::rules::data::GameId;
use crate::rules::mawari::dice::{Pose, Throw, ThrowValue, Toss};
use crate::rules::mawari::order::{self, FirstThrow};
use crate::rules::mawari::physics::SplitMix64;
use crate::rules::mawari::race::{Event, MawariRules, Race};
use crate::shell::i18n::{Lang, T};

/// The colours a seat can take, by name: 赤, 青, 緑, 紫, 橙, 茶 (seats take
/// the first four unless chosen otherwise).
pub(crate) const COLOUR_NAMES: [T; 6] = [
    T::MawariRed,
    T::MawariBlue,
    T::MawariGreen,
    T::MawariPurple,
    T::MawariOrange,
    T::MawariBrown,
];

/// A shape for each colour, shown with it wherever a seat is: seats are
/// told apart without telling colours apart. No two are a turn of each
/// other, as the koma of the far seats are turned.
pub(crate) const COLOUR_MARKS: [&str; 6] = ["●", "▲", "■", "◆", "★", "◎"];

/// The name of place `player` among `seats`: `typed` if any, else あなた
/// when one person plays, else by its colour (an index of
/// [`COLOUR_NAMES`]).
pub(crate) fn seat_name(
    seats: &[Seat],
    typed: &str,
    colour: usize,
    player: usize,
    lang: Lang,
) -> String {
    let typed = typed.trim();
    if !typed.is_empty() {
        return typed.to_string();
    }
    let people = seats.iter().filter(|s| **s == Seat::Person).count();
    let colour = COLOUR_NAMES[colour.min(COLOUR_NAMES.len() - 1)].get(lang);
    match seats.get(player) {
        Some(Seat::Person) if people == 1 => T::MawariYou.get(lang).to_string(),
        Some(Seat::Cpu) => T::MawariCpuName.fill(lang, &[&colour]),
        _ => T::MawariPlayerName.fill(lang, &[&colour]),
    }
}

/// Who sits at a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seat {
    /// A person at this device.
    Person,
    /// The computer, on this device.
    Cpu,
    /// Played through a room: on the setup, a person at another device;
    /// in a room's game, every seat this device does not hold (a person
    /// elsewhere, or the computer the server plays), whose throws arrive
    /// from the room.
    Remote,
}

/// One throw in the log: who threw, what came up, and what it did (the
/// square-by-square steps left out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    pub player: usize,
    pub poses: [Pose; 4],
    pub value: ThrowValue,
    pub events: Vec<Event>,
    /// The throw's input and seed, to simulate it again in the replay
    /// (missing from older saves: those show the poses logged).
    #[serde(default)]
    pub toss: Option<Toss>,
}

/// A game of まわり将棋 in progress (what 続きから restores).
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MawariMatch {
    pub race: Race,
    pub seats: Vec<Seat>,
    pub log: Vec<LogEntry>,
    /// The seed source of the next throw.
    pub rng: u64,
    /// 早投げ: the throw is simulated but not shown.
    pub quick: bool,
    /// The setup it came from (for もう一度).
    pub preset: Option<String>,
    /// Each seat's name as typed (empty: named by colour).
    #[serde(default)]
    pub names: Vec<String>,
    /// Each seat's colour, an index of `COLOUR_NAMES` (missing: the
    /// seat's own).
    #[serde(default)]
    pub colours: Vec<u8>,
    /// The draw for who throws first, while it is thrown and after.
    #[serde(default)]
    pub draw: Option<FirstThrow>,
    /// The race as the first throw found it (the replay plays the log
    /// from it; missing from older saves).
    #[serde(default)]
    pub start: Option<Race>,
    /// A game played through a room: how many of the room's events this
    /// device has taken in (none for a game on this device alone).
    #[serde(default)]
    pub room_events: Option<usize>,
    /// The room's code, for a game played through one (its link opened
    /// again goes on with this race).
    #[serde(default)]
    pub room_code: Option<RoomCode>,
}

impl MawariMatch {
    pub(crate) fn new(
        seats: Vec<Seat>,
        rules: MawariRules,
        quick: bool,
        preset: Option<String>,
        seed: u64,
    ) -> Result<Self, String> {
        let race = Race::new(seats.len(), rules).map_err(|e| e.0)?;
        Ok(MawariMatch {
            race,
            seats,
            log: Vec::new(),
            rng: seed,
            quick,
            preset,
            names: Vec::new(),
            colours: Vec::new(),
            draw: None,
            start: None,
            room_events: None,
            room_code: None,
        })
    }

    /// Who plays and how, in a line: the names in seat order (`|` between
    /// them), the rules (as a save writes them), then the draw for the
    /// first throw, if there is one, as its rounds (`seat:score`, rounds
    /// `/` apart) and `first=seat` once decided, e.g.
    /// `Papa|Mama|Ken|Yui rules=(korosu:true,…) draw=0:10,1:4,2:10,3:7/0:5,2:8 first=2`.
    pub fn players_text(&self) -> String {
        let names: Vec<String> = (0..self.race.pieces.len())
            .map(|p| self.name(p, Lang::Ja))
            .collect();
        let mut text = names.join("|");
        if let Ok(rules) = ron::to_string(&self.race.rules) {
            text.push_str(&format!(" rules={rules}"));
        }
        if let Some(draw) = &self.draw {
            let round = |r: &[(usize, u8)]| {
                r.iter()
                    .map(|(p, s)| format!("{p}:{s}"))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let mut rounds: Vec<String> = draw.rounds.iter().map(|r| round(r)).collect();
            if !draw.scores.is_empty() {
                rounds.push(round(&draw.scores));
            }
            text.push_str(&format!(" draw={}", rounds.join("/")));
            if let Some(first) = draw.first {
                text.push_str(&format!(" first={first}"));
            }
        }
        text
    }

    /// Whether the draw for who throws first is still being thrown.
    pub fn drawing(&self) -> bool {
        self.draw.as_ref().is_some_and(|d| d.first.is_none())
    }

    /// Who throws next: in the draw, or in the race.
    pub fn thrower(&self) -> Option<usize> {
        order::next_thrower(&self.race, self.draw.as_ref())
    }

    /// Seat `player`'s colour: an index of `COLOUR_NAMES`.
    pub fn colour(&self, player: usize) -> usize {
        self.colours
            .get(player)
            .map(|&c| usize::from(c))
            .filter(|&c| c < COLOUR_NAMES.len())
            .unwrap_or(player.min(COLOUR_NAMES.len() - 1))
    }

    /// The seed of the next throw (and the source moves on).
    pub(crate) fn next_seed(&mut self) -> u64 {
        let mut r = SplitMix64(self.rng);
        let s = r.next_u64();
        self.rng = r.0;
        s
    }

    /// Whether a person is to throw now (not one who sits the turn out).
    pub fn person_to_throw(&self) -> bool {
        (self.drawing() || !self.race.sits_out())
            && self
                .thrower()
                .is_some_and(|p| self.seats.get(p) == Some(&Seat::Person))
    }

    /// A player's name: as typed, else あなた when one person plays, else
    /// by colour.
    pub fn name(&self, player: usize, lang: Lang) -> String {
        if let Some(name) = self.names.get(player).map(|n| n.trim())
            && !name.is_empty()
        {
            return name.to_string();
        }
        seat_name(&self.seats, "", self.colour(player), player, lang)
    }

    /// Plays a throw: the race moves on and the log grows. Returns the
    /// events for the animation.
    pub(crate) fn play(&mut self, throw: &Throw) -> Vec<Event> {
        if self.drawing() {
            // The draw is not a throw of the race: it is kept in the draw.
            return order::play_value(&mut self.race, self.draw.as_mut(), throw.value);
        }
        let Some(player) = self.race.thrower() else {
            return Vec::new();
        };
        if self.log.is_empty() {
            self.start = Some(self.race.clone());
        }
        let events = order::play_value(&mut self.race, None, throw.value);
        self.log.push(LogEntry {
            player,
            poses: throw.poses,
            value: throw.value,
            events: events
                .iter()
                .filter(|e| !matches!(e, Event::Step { .. }))
                .copied()
                .collect(),
            toss: Some(throw.toss),
        });
        events
    }
}

impl Resumable for MawariMatch {
    const GAME: GameId = GameId::Mawari;
    type Save = MawariMatch;

    fn save(&self) -> impl Serialize + '_ {
        self
    }
    /// A save whose seats and pieces do not agree, or with too few or too
    /// many players, is refused.
    fn resume(save: MawariMatch) -> Result<Self, String> {
        let (seats, pieces) = (save.seats.len(), save.race.pieces.len());
        if seats != pieces || !(2..=4).contains(&seats) {
            return Err(format!("{seats} seats for {pieces} pieces"));
        }
        if save
            .draw
            .as_ref()
            .is_some_and(|d| d.round.iter().any(|&p| p >= seats) || d.scores.len() > d.round.len())
        {
            return Err("the draw names a player who is not there".into());
        }
        Ok(save)
    }
}

/// How the turn order is decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TurnOrder {
    /// The order of the seats as listed (moved up and down on the setup).
    Seated,
    /// Each throws once, the highest goes first (ties throw again).
    Draw,
}

/// The setup screen's choices (the last used are remembered).
#[derive(Resource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MawariDraft {
    pub seats: Vec<Seat>,
    /// Every place's name (four, the seats in play first); empty: named
    /// by colour.
    pub names: Vec<String>,
    /// Every place's colour, an index of the colours (four, all different).
    pub colours: Vec<u8>,
    /// `None`: 自分で決める (or a saved house rule).
    pub preset: Option<String>,
    /// The saved house rule chosen, by name.
    pub house: Option<String>,
    /// The name the rules are saved under.
    pub rule_name: String,
    pub rules: MawariRules,
    pub quick: bool,
    pub order: TurnOrder,
    /// Play on for places after the first is through.
    pub places: bool,
}

impl Default for MawariDraft {
    fn default() -> Self {
        MawariDraft {
            seats: vec![Seat::Person, Seat::Cpu, Seat::Cpu, Seat::Cpu],
            names: vec![String::new(); 4],
            colours: vec![0, 1, 2, 3],
            preset: Some("all".into()),
            house: None,
            rule_name: String::new(),
            rules: MawariRules::ALL,
            quick: false,
            order: TurnOrder::Seated,
            places: false,
        }
    }
}

/// The longest name (in characters).
pub const MAX_NAME: usize = 12;
impl MawariDraft {
    /// The draft made sound: 2–4 seats, four names of at most
    /// [`MAX_NAME`] characters, four different colours.
    pub(super) fn sound(mut self) -> MawariDraft {
        if !(2..=4).contains(&self.seats.len()) {
            self.seats = MawariDraft::default().seats;
        }
        self.names.resize(4, String::new());
        for n in &mut self.names {
            *n = n
                .chars()
                .filter(|c| !c.is_control())
                .take(MAX_NAME)
                .collect();
        }
        self.colours.resize(4, 0);
        let mut seen = Vec::new();
        let ok = self.colours.iter().all(|&c| {
            let fresh = usize::from(c) < COLOUR_NAMES.len() && !seen.contains(&c);
            seen.push(c);
            fresh
        });
        if !ok {
            self.colours = vec![0, 1, 2, 3];
        }
        self.rule_name = self.rule_name.chars().take(MAX_NAME * 2).collect();
        self
    }

    /// Swaps places `a` and `b` (who sits there, the name, the colour).
    pub(super) fn swap(&mut self, a: usize, b: usize) {
        if a.max(b) < self.seats.len() {
            self.seats.swap(a, b);
            self.names.swap(a, b);
            self.colours.swap(a, b);
        }
    }

    /// Place `i` takes the next colour no other place in play has.
    pub(super) fn next_colour(&mut self, i: usize) {
        let Some(&now) = self.colours.get(i) else {
            return;
        };
        let n = COLOUR_NAMES.len() as u8;
        for k in 1..n {
            let c = (now + k) % n;
            let taken = (0..self.seats.len()).any(|j| j != i && self.colours.get(j) == Some(&c));
            if !taken {
                // A place out of play that had it takes this one's.
                if let Some(j) = self.colours.iter().position(|&x| x == c) {
                    self.colours[j] = now;
                }
                self.colours[i] = c;
                return;
            }
        }
    }
}
