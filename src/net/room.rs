//! One room as the server keeps it: who holds which seat, the game on its
//! table, and the numbered events every device replays. Nothing here does
//! input or output: the server feeds it messages with the time, stores
//! what [`Room::stored`] gives and sends what the methods return, so the
//! same logic is tested without a network.
//!
//! Long because: a room's every rule lives here in one place (seats, moves,
//! 投了, stamps, 通信切れ and the clock, a series' next game, 待った by
//! consent and watchers), with the functions devices share to read its
//! events.

use serde::{Deserialize, Serialize};

use super::protocol::{
    Event, MAX_REQUESTS_PER_SEAT, MAX_RULES_BYTES, MAX_STAMPS_PER_SEAT, MAX_WATCHER_STAMPS,
    MAX_WATCHERS, NextGame, REQUEST_BURST, REQUEST_INTERVAL_MS, Refusal, RoomClock, RoomCode,
    RoomPlan, RoomView, STAMP_BURST, STAMP_INTERVAL_MS, SeatKind, SeatName, SeatToken, SeatView,
    Stamp, TAKEBACK_ANSWER_MS,
};
use super::table::{
    Table, TableError, TableResult, next_game_rules, open_table, seat_of, seat_range, side_of,
};
use crate::rules::data::GameId;
use crate::rules::game::EndReason;
use crate::rules::mawari::physics::SplitMix64;

/// The longest grace period a room may ask for (a day).
pub const MAX_GRACE_SECONDS: u32 = 24 * 60 * 60;

/// A device's hold on seats.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub token: SeatToken,
    pub seats: Vec<u8>,
}

/// Everything the database keeps of a room: the table is rebuilt from the
/// events, so a restarted server resumes every game at the same move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredRoom {
    pub view: RoomView,
    pub members: Vec<Member>,
    /// Per seat: when (ms since the epoch) an absent player loses.
    pub deadlines: Vec<Option<u64>>,
    pub events: Vec<Event>,
    pub created_ms: u64,
    pub touched_ms: u64,
    /// The game's clock (中将棋's 60 minutes): milliseconds played while
    /// every player was here, and since when it has been running.
    #[serde(default)]
    pub clock_ms: u64,
    #[serde(default)]
    pub clock_since: Option<u64>,
    /// When (ms since the epoch) a waiting 待った request is declined.
    #[serde(default)]
    pub takeback_until: Option<u64>,
    /// A 中将棋 room's clocks ([`RoomClock`]): each seat's 持ち時間 left,
    /// the 秒読み the seat to move has spent in this turn, and since when
    /// its clock has been running, all as of the last change.
    #[serde(default)]
    pub clocks_left: Vec<u64>,
    #[serde(default)]
    pub byoyomi_spent: u64,
    #[serde(default)]
    pub turn_since: Option<u64>,
    /// The code that opens the room to watch it ([`Room::watch_code`]);
    /// rooms kept before there was one get one when they are read.
    #[serde(default)]
    pub watch: Option<RoomCode>,
}

/// A 中将棋 room's clocks at a moment: each seat's 持ち時間 left, the
/// 秒読み left in this turn to the seat to move, and whether its clock
/// runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    pub left_ms: Vec<u64>,
    pub byoyomi_ms: u64,
    pub running: bool,
}

/// A room being played.
pub struct Room {
    view: RoomView,
    members: Vec<Member>,
    /// Open connections per member.
    connections: Vec<u32>,
    deadlines: Vec<Option<u64>>,
    events: Vec<Event>,
    table: Box<dyn Table>,
    created_ms: u64,
    touched_ms: u64,
    clock_ms: u64,
    clock_since: Option<u64>,
    lots: Lots,
    /// Per seat: when (ms since the epoch) its stamps are all back. Kept
    /// in memory only: after a restart every seat has its burst again.
    stamps_due: Vec<u64>,
    /// The same for each seat's requests (待った, rematch offers).
    requests_due: Vec<u64>,
    takeback_until: Option<u64>,
    /// Devices watching, and when their stamps (shared) are all back:
    /// memory only, as the connections are.
    watchers: u32,
    cheers_due: u64,
    clocks_left: Vec<u64>,
    byoyomi_spent: u64,
    turn_since: Option<u64>,
    watch: Option<RoomCode>,
}

/// Where a room's random numbers come from (the seed of each throw of
/// まわり将棋's koma): the server's own randomness, so that nobody can
/// foresee a throw from the ones before; a seeded sequence until the
/// server gives one (and in tests).
enum Lots {
    Seeded(SplitMix64),
    Drawn(fn() -> u64),
}

impl Lots {
    fn next(&mut self) -> u64 {
        match self {
            Lots::Seeded(rng) => rng.next_u64(),
            Lots::Drawn(draw) => draw(),
        }
    }
}

/// The most moves the server makes for computer seats in a row.
const MAX_COMPUTER_MOVES: usize = 10_000;

/// A change to a seat's presence, for the other devices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presence {
    pub seat: u8,
    pub online: bool,
    pub seconds_left: Option<u32>,
}

impl Room {
    /// Makes a room from a plan; `host` is the making device's token and
    /// `lot` a random number that draws the seats where the plan asks.
    pub fn create(
        code: RoomCode,
        plan: RoomPlan,
        host: SeatToken,
        lot: u64,
        now_ms: u64,
    ) -> Result<Room, Refusal> {
        let bad = |why: &str| Refusal::BadPlan(why.into());
        // Checked before the rules are read: they go to every device as sent.
        if plan.rules.len() > MAX_RULES_BYTES {
            return Err(bad(&format!(
                "the rules are longer than {MAX_RULES_BYTES} bytes"
            )));
        }
        if !seat_range(plan.game).contains(&plan.seats.len()) {
            return Err(bad("wrong number of seats for the game"));
        }
        if !plan.seats.iter().any(|s| s.kind == SeatKind::Remote) {
            return Err(bad("a room needs a seat for a player on another device"));
        }
        if !plan.seats.iter().any(|s| s.kind == SeatKind::Host) {
            return Err(bad("a room needs a seat for its maker"));
        }
        if plan.game != GameId::Mawari
            && plan
                .seats
                .iter()
                .any(|s| matches!(s.kind, SeatKind::Cpu(_)))
        {
            return Err(bad("play the computer on your own device"));
        }
        if plan.takebacks && plan.game == GameId::Mawari {
            return Err(bad("待った is for the two-player games"));
        }
        if plan.grace_seconds == 0 || plan.grace_seconds > MAX_GRACE_SECONDS {
            return Err(bad("the grace period must be between 1 second and a day"));
        }
        if let Some(clock) = plan.clock {
            if plan.game != GameId::ChuShogi {
                return Err(bad("a clock is for 中将棋 rooms"));
            }
            clock.check().map_err(|why| bad(&why))?;
        }
        let table =
            open_table(plan.game, &plan.rules).map_err(|why| Refusal::BadPlan(why.into()))?;
        if table.seats() != plan.seats.len() {
            return Err(bad("the rules are for another number of players"));
        }
        let mut seats: Vec<SeatView> = plan
            .seats
            .into_iter()
            .map(|s| SeatView {
                kind: s.kind,
                name: s.name,
            })
            .collect();
        if plan.draw_seats {
            let n = seats.len() as u64;
            // Fisher–Yates from the one random number.
            let mut bits = lot;
            for i in (1..seats.len()).rev() {
                let j = (bits % (i as u64 + 1)) as usize;
                bits /= n.max(2);
                seats.swap(i, j);
            }
        }
        let host_seats = seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind == SeatKind::Host)
            .map(|(i, _)| i as u8)
            .collect();
        let seat_count = seats.len();
        Ok(Room {
            view: RoomView {
                room: code,
                game: plan.game,
                rules: plan.rules,
                seats,
                grace_seconds: plan.grace_seconds,
                takebacks: plan.takebacks,
                clock: plan.clock,
            },
            members: vec![Member {
                token: host,
                seats: host_seats,
            }],
            connections: vec![0],
            deadlines: vec![None; seat_count],
            events: Vec::new(),
            table,
            created_ms: now_ms,
            touched_ms: now_ms,
            clock_ms: 0,
            clock_since: None,
            lots: Lots::Seeded(SplitMix64(lot)),
            stamps_due: vec![0; seat_count],
            requests_due: vec![0; seat_count],
            takeback_until: None,
            watchers: 0,
            cheers_due: 0,
            clocks_left: Vec::new(),
            byoyomi_spent: 0,
            turn_since: None,
            watch: None,
        }
        .with_fresh_clocks())
    }

    /// The room with its clocks full, as at a game's start (none where
    /// the game has no clock).
    fn with_fresh_clocks(mut self) -> Room {
        self.clocks_left = match self.room_clock() {
            Some(clock) => vec![u64::from(clock.main_seconds) * 1000; self.view.seats.len()],
            None => Vec::new(),
        };
        self.byoyomi_spent = 0;
        self.turn_since = None;
        self
    }

    /// The room's clock, where the game being played keeps it (中将棋).
    pub fn room_clock(&self) -> Option<RoomClock> {
        self.view
            .clock
            .filter(|_| self.view.game == GameId::ChuShogi)
    }

    /// Rebuilds a stored room, replaying its events through the rules.
    pub fn restore(stored: StoredRoom) -> Result<Room, String> {
        // The view is the series' latest game: its table is rebuilt from
        // the events since that game began.
        let mut table = open_table(stored.view.game, &stored.view.rules)?;
        let start = game_start(&stored.events);
        for (i, event) in stored.events.iter().enumerate().skip(start) {
            apply(table.as_mut(), event).map_err(|e| format!("event {}: {e:?}", i + 1))?;
        }
        let seat_count = stored.view.seats.len();
        if stored.deadlines.len() != seat_count {
            return Err("the deadlines do not match the seats".to_string());
        }
        let clocked = stored.view.clock.is_some() && stored.view.game == GameId::ChuShogi;
        if clocked && stored.clocks_left.len() != seat_count {
            return Err("the clocks do not match the seats".to_string());
        }
        Ok(Room {
            connections: vec![0; stored.members.len()],
            view: stored.view,
            members: stored.members,
            deadlines: stored.deadlines,
            events: stored.events,
            table,
            created_ms: stored.created_ms,
            touched_ms: stored.touched_ms,
            clock_ms: stored.clock_ms,
            clock_since: stored.clock_since,
            lots: Lots::Seeded(SplitMix64(stored.created_ms ^ stored.touched_ms)),
            stamps_due: vec![0; seat_count],
            requests_due: vec![0; seat_count],
            takeback_until: stored.takeback_until,
            watchers: 0,
            cheers_due: 0,
            clocks_left: stored.clocks_left,
            byoyomi_spent: stored.byoyomi_spent,
            turn_since: stored.turn_since,
            watch: stored.watch,
        })
    }

    /// The server's source of random numbers for this room.
    pub fn draw_lots_with(&mut self, draw: fn() -> u64) {
        self.lots = Lots::Drawn(draw);
    }

    /// What the database keeps.
    pub fn stored(&self) -> StoredRoom {
        StoredRoom {
            view: self.view.clone(),
            members: self.members.clone(),
            deadlines: self.deadlines.clone(),
            events: self.events.clone(),
            created_ms: self.created_ms,
            touched_ms: self.touched_ms,
            clock_ms: self.clock_ms,
            clock_since: self.clock_since,
            takeback_until: self.takeback_until,
            clocks_left: self.clocks_left.clone(),
            byoyomi_spent: self.byoyomi_spent,
            turn_since: self.turn_since,
            watch: self.watch.clone(),
        }
    }

    /// The code that opens the room to watch it: a second code, so that
    /// the link given to watchers cannot take a seat (the server draws
    /// it; none until it has).
    pub fn watch_code(&self) -> Option<&RoomCode> {
        self.watch.as_ref()
    }

    pub fn set_watch_code(&mut self, code: RoomCode) {
        self.watch = Some(code);
    }

    /// The room as a watcher sees it: named by its watch code, never by
    /// the code that takes a seat.
    pub fn watcher_view(&self) -> RoomView {
        let mut view = self.view.clone();
        if let Some(code) = &self.watch {
            view.room = code.clone();
        }
        view
    }

    pub fn view(&self) -> &RoomView {
        &self.view
    }
    pub fn code(&self) -> &RoomCode {
        &self.view.room
    }
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// The events of the series' latest game.
    fn game_events(&self) -> &[Event] {
        &self.events[game_start(&self.events)..]
    }
    /// How many games of the series began before the latest (0 in the
    /// first game).
    pub fn game_number(&self) -> usize {
        game_number(&self.events)
    }
    /// How many devices watch.
    pub fn watchers(&self) -> u32 {
        self.watchers
    }
    pub fn event_count(&self) -> u64 {
        self.events.len() as u64
    }
    pub fn touched_ms(&self) -> u64 {
        self.touched_ms
    }
    pub fn is_finished(&self) -> bool {
        self.table.result().is_some()
    }
    pub fn is_started(&self) -> bool {
        self.events.contains(&Event::Started)
    }
    /// The seats `token` holds, if it is a member.
    pub fn seats_of(&self, token: &SeatToken) -> Option<&[u8]> {
        self.member(token).map(|m| self.members[m].seats.as_slice())
    }

    fn member(&self, token: &SeatToken) -> Option<usize> {
        self.members.iter().position(|m| &m.token == token)
    }

    fn holds(&self, token: &SeatToken, seat: u8) -> bool {
        self.seats_of(token).is_some_and(|s| s.contains(&seat))
    }

    fn push(&mut self, event: Event, now_ms: u64) -> Result<(), TableError> {
        apply(self.table.as_mut(), &event)?;
        self.events.push(event);
        self.touched_ms = now_ms;
        Ok(())
    }

    /// The remote seats nobody holds yet.
    fn free_seats(&self) -> Vec<u8> {
        (0..self.view.seats.len() as u8)
            .filter(|&s| {
                self.view.seats[s as usize].kind == SeatKind::Remote
                    && !self.members.iter().any(|m| m.seats.contains(&s))
            })
            .collect()
    }

    /// A new device takes the next free remote seat under `name` (まわり
    /// 将棋's seats keep the names the room's maker gave them); the game
    /// starts when the last is taken. Returns the seat.
    pub fn join(&mut self, token: SeatToken, name: SeatName, now_ms: u64) -> Result<u8, Refusal> {
        let Some(&seat) = self.free_seats().first() else {
            return Err(Refusal::RoomFull);
        };
        let name = if self.view.game == GameId::Mawari {
            self.view.seats[seat as usize].name.clone()
        } else {
            name
        };
        self.view.seats[seat as usize].name = name.clone();
        self.members.push(Member {
            token,
            seats: vec![seat],
        });
        self.connections.push(0);
        self.push_unchecked(Event::Seated { seat, name }, now_ms);
        if self.free_seats().is_empty() {
            self.push_unchecked(Event::Started, now_ms);
            self.computer_moves(now_ms);
        }
        self.run_clock(now_ms);
        Ok(seat)
    }

    /// The server's moves for the computer's seats, while one is to move.
    fn computer_moves(&mut self, now_ms: u64) {
        for _ in 0..MAX_COMPUTER_MOVES {
            let Some(seat) = self.table.seat_to_move() else {
                break;
            };
            if !matches!(self.view.seats[seat as usize].kind, SeatKind::Cpu(_)) {
                break;
            }
            let lot = self.lots.next();
            let Some(text) = self.table.computer_move(lot) else {
                break;
            };
            if self.push(Event::Moved { seat, text }, now_ms).is_err() {
                break;
            }
            self.close_if_over(now_ms);
        }
    }

    /// Events that touch no rule (seats, the start, stamps).
    fn push_unchecked(&mut self, event: Event, now_ms: u64) {
        self.events.push(event);
        self.touched_ms = now_ms;
    }

    /// A move by the seat to move, which `token` must hold, made after the
    /// room's first `after` events.
    pub fn play(
        &mut self,
        token: &SeatToken,
        after: u64,
        text: &str,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.member(token).ok_or(Refusal::BadToken)?;
        if !self.is_started() {
            return Err(Refusal::NotStarted);
        }
        let Some(seat) = self.table.seat_to_move() else {
            return Err(Refusal::Finished);
        };
        // Seats taken and stamps do not change the game: a move made
        // while a greeting was on its way still stands.
        let seen = usize::try_from(after).unwrap_or(usize::MAX);
        if seen > self.events.len() || self.events[seen..].iter().any(Event::changes_game) {
            return Err(Refusal::OutOfStep {
                events: self.event_count(),
            });
        }
        if !self.holds(token, seat) {
            return Err(Refusal::NotYourSeat);
        }
        // The asker waits for the answer: the move it asks back stays the
        // last but the reply.
        if takeback_asked(self.game_events()) == Some(seat) {
            return Err(Refusal::TakebackPending);
        }
        let refused = |e: TableError| match e {
            TableError::Finished => Refusal::Finished,
            TableError::NotYourTurn => Refusal::NotYourSeat,
            TableError::Illegal => Refusal::Illegal(text.into()),
        };
        // A move that comes after its side's time ran out is too late:
        // the server's tick writes the 時間切れ.
        if self.out_of_time(now_ms).is_some() {
            return Err(Refusal::Finished);
        }
        let lot = self.lots.next();
        let settled = self.table.settle(seat, text, lot).map_err(refused)?;
        let moved = Event::Moved {
            seat,
            text: settled,
        };
        // The mover's clock, up to the move's arrival on the server.
        self.run_clock(now_ms);
        self.push(moved, now_ms).map_err(refused)?;
        self.byoyomi_spent = 0;
        self.close_if_over(now_ms);
        self.computer_moves(now_ms);
        self.run_clock(now_ms);
        Ok(())
    }

    /// Writes the end the board reached as an event, once.
    fn close_if_over(&mut self, now_ms: u64) {
        if let Some(result) = self.table.result()
            && !self
                .game_events()
                .iter()
                .any(|e| matches!(e, Event::Ended { .. }))
        {
            self.takeback_until = None;
            self.push_unchecked(
                Event::Ended {
                    winner: result.winner,
                    reason: result.reason,
                },
                now_ms,
            );
        }
    }

    /// `token` holds `seat` in a game begun and not over: the first check
    /// of what a seat does in play.
    fn seat_in_play(&self, token: &SeatToken, seat: u8) -> Result<(), Refusal> {
        self.member(token).ok_or(Refusal::BadToken)?;
        if !self.holds(token, seat) {
            return Err(Refusal::NotYourSeat);
        }
        if !self.is_started() {
            return Err(Refusal::NotStarted);
        }
        if self.is_finished() {
            return Err(Refusal::Finished);
        }
        Ok(())
    }

    /// Seat `seat`, held by `token`, gives up.
    pub fn resign(&mut self, token: &SeatToken, seat: u8, now_ms: u64) -> Result<(), Refusal> {
        self.seat_in_play(token, seat)?;
        if !self.table.resignable() {
            return Err(Refusal::Illegal("resign".into()));
        }
        self.push(Event::Resigned { seat }, now_ms)
            .map_err(|_| Refusal::Finished)?;
        self.takeback_until = None;
        self.close_if_over(now_ms);
        self.run_clock(now_ms);
        Ok(())
    }

    /// A greeting from `seat`, held by `token`: [`STAMP_BURST`] at once,
    /// then one each [`STAMP_INTERVAL_MS`], and [`MAX_STAMPS_PER_SEAT`] a
    /// game. A stamp refused is neither kept nor sent.
    pub fn stamp(
        &mut self,
        token: &SeatToken,
        seat: u8,
        stamp: Stamp,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.member(token).ok_or(Refusal::BadToken)?;
        if !self.holds(token, seat) {
            return Err(Refusal::NotYourSeat);
        }
        let sent = self
            .game_events()
            .iter()
            .filter(|e| matches!(e, Event::Stamp { seat: s, .. } if *s == seat))
            .count();
        if sent >= MAX_STAMPS_PER_SEAT {
            return Err(Refusal::NoStampsLeft);
        }
        let Some(due) = self.stamps_due.get_mut(usize::from(seat)) else {
            return Err(Refusal::NotYourSeat);
        };
        if let Some(wait_ms) = bucket(due, now_ms, STAMP_BURST, STAMP_INTERVAL_MS) {
            return Err(Refusal::StampTooSoon { wait_ms });
        }
        self.push_unchecked(Event::Stamp { seat, stamp }, now_ms);
        Ok(())
    }

    /// Takes one of `seat`'s requests (待った, rematch offers) from its
    /// allowance: [`REQUEST_BURST`] at once, then one each
    /// [`REQUEST_INTERVAL_MS`], and [`MAX_REQUESTS_PER_SEAT`] a game.
    fn take_request(&mut self, seat: u8, now_ms: u64) -> Result<(), Refusal> {
        let made = self
            .game_events()
            .iter()
            .filter(|e| match e {
                Event::TakebackAsked { seat: s } => *s == seat,
                Event::Rematch { seats, .. } => seats.contains(&seat),
                _ => false,
            })
            .count();
        if made >= MAX_REQUESTS_PER_SEAT {
            return Err(Refusal::NoRequestsLeft);
        }
        let Some(due) = self.requests_due.get_mut(usize::from(seat)) else {
            return Err(Refusal::NotYourSeat);
        };
        let wait = bucket(due, now_ms, REQUEST_BURST, REQUEST_INTERVAL_MS)
            .map(|wait_ms| Refusal::RequestTooSoon { wait_ms });
        wait.map_or(Ok(()), Err)
    }

    /// After the end, the seats `token` holds offer (or accept) the next
    /// game; `next` is the host's alone, for another game or other rules.
    /// When every person's seat has agreed to the same terms the next game
    /// begins, sides swapped.
    pub fn rematch(
        &mut self,
        token: &SeatToken,
        next: Option<NextGame>,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        let m = self.member(token).ok_or(Refusal::BadToken)?;
        if !self.is_started() {
            return Err(Refusal::NotStarted);
        }
        if !self.is_finished() {
            return Err(Refusal::NotOver);
        }
        // The first member is the device that made the room.
        if next.is_some() && m != 0 {
            return Err(Refusal::HostOnly);
        }
        let seats = self.members[m].seats.clone();
        let Some(&first) = seats.first() else {
            return Err(Refusal::NotYourSeat);
        };
        let (terms, agreed) = rematch_terms(&self.events, &self.view);
        let next = next.filter(|n| *n != terms);
        if let Some(n) = &next {
            self.check_next(n)?;
        } else if seats.iter().all(|s| agreed.contains(s)) {
            return Err(Refusal::AlreadyAgreed);
        }
        self.take_request(first, now_ms)?;
        self.push_unchecked(Event::Rematch { seats, next }, now_ms);
        let (terms, agreed) = rematch_terms(&self.events, &self.view);
        let everyone = (0..self.view.seats.len() as u8)
            .filter(|&s| !matches!(self.view.seats[usize::from(s)].kind, SeatKind::Cpu(_)))
            .all(|s| agreed.contains(&s));
        if everyone {
            self.begin_next(terms, now_ms);
        }
        Ok(())
    }

    /// Whether the room's seats can play `next`.
    fn check_next(&self, next: &NextGame) -> Result<(), Refusal> {
        let bad = |why: &str| Refusal::BadPlan(why.into());
        if next.rules.len() > MAX_RULES_BYTES {
            return Err(bad(&format!(
                "the rules are longer than {MAX_RULES_BYTES} bytes"
            )));
        }
        if !seat_range(next.game).contains(&self.view.seats.len()) {
            return Err(bad("the room has another number of seats than the game"));
        }
        if next.game != GameId::Mawari
            && self
                .view
                .seats
                .iter()
                .any(|s| matches!(s.kind, SeatKind::Cpu(_)))
        {
            return Err(bad("play the computer on your own device"));
        }
        let table =
            open_table(next.game, &next.rules).map_err(|why| Refusal::BadPlan(why.into()))?;
        if table.seats() != self.view.seats.len() {
            return Err(bad("the rules are for another number of players"));
        }
        Ok(())
    }

    /// The next game of the series on `terms`: a two-player game's sides
    /// swap; まわり将棋 keeps its seats and passes the first throw on.
    fn begin_next(&mut self, terms: NextGame, now_ms: u64) {
        let number = self.game_number() + 1;
        let Ok(rules) = next_game_rules(terms.game, &terms.rules, number) else {
            return;
        };
        let Ok(table) = open_table(terms.game, &rules) else {
            return;
        };
        let n = self.view.seats.len();
        let order: Vec<u8> = if terms.game == GameId::Mawari {
            (0..n as u8).collect()
        } else {
            (0..n as u8).rev().collect()
        };
        let seats = order
            .iter()
            .map(|&o| self.view.seats[usize::from(o)].clone())
            .collect();
        self.view.seats = seats;
        for member in &mut self.members {
            for seat in &mut member.seats {
                if let Some(i) = order.iter().position(|o| o == seat) {
                    *seat = i as u8;
                }
            }
            member.seats.sort_unstable();
        }
        self.view.game = terms.game;
        self.view.rules = rules.clone();
        self.table = table;
        self.deadlines = vec![None; n];
        self.clock_ms = 0;
        self.clock_since = None;
        self.takeback_until = None;
        self.clocks_left = match self.view.clock.filter(|_| terms.game == GameId::ChuShogi) {
            Some(clock) => vec![u64::from(clock.main_seconds) * 1000; n],
            None => Vec::new(),
        };
        self.byoyomi_spent = 0;
        self.turn_since = None;
        self.stamps_due = vec![0; n];
        self.requests_due = vec![0; n];
        self.push_unchecked(
            Event::NewGame {
                game: terms.game,
                rules,
                order,
            },
            now_ms,
        );
        self.computer_moves(now_ms);
        self.run_clock(now_ms);
    }

    /// `seat`, held by `token`, asks to take its last move back (and the
    /// reply, if one was made); the other side has
    /// [`TAKEBACK_ANSWER_MS`] to answer.
    pub fn ask_takeback(
        &mut self,
        token: &SeatToken,
        seat: u8,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.seat_in_play(token, seat)?;
        if !self.view.takebacks || !self.table.takes_back() {
            return Err(Refusal::NoTakebacks);
        }
        if takeback_asked(self.game_events()).is_some() {
            return Err(Refusal::TakebackPending);
        }
        if takeback_plies(self.game_events(), seat) == 0 {
            return Err(Refusal::NothingToTakeBack);
        }
        self.take_request(seat, now_ms)?;
        // The clocks stand while the request waits.
        self.run_clock(now_ms);
        self.push_unchecked(Event::TakebackAsked { seat }, now_ms);
        self.takeback_until = Some(now_ms + TAKEBACK_ANSWER_MS);
        self.run_clock(now_ms);
        Ok(())
    }

    /// `seat`, held by `token`, answers the other side's 待った: accepted,
    /// the moves go back on the server and on every device.
    pub fn answer_takeback(
        &mut self,
        token: &SeatToken,
        seat: u8,
        accept: bool,
        now_ms: u64,
    ) -> Result<(), Refusal> {
        self.member(token).ok_or(Refusal::BadToken)?;
        if !self.holds(token, seat) {
            return Err(Refusal::NotYourSeat);
        }
        let Some(asker) = takeback_asked(self.game_events()) else {
            return Err(Refusal::NoTakebackAsked);
        };
        if asker == seat {
            return Err(Refusal::NotYourSeat);
        }
        let event = if accept {
            let plies = takeback_plies(self.game_events(), asker);
            Event::TakenBack { seat, plies }
        } else {
            Event::TakebackDeclined {
                seat,
                timed_out: false,
            }
        };
        let taken_back = matches!(event, Event::TakenBack { .. });
        self.push(event, now_ms).map_err(|_| Refusal::Finished)?;
        self.takeback_until = None;
        // Time spent stays spent; the side to move after a 待った starts
        // a fresh 秒読み.
        if taken_back {
            self.byoyomi_spent = 0;
        }
        self.run_clock(now_ms);
        Ok(())
    }

    /// A device opens the room to watch; the number watching now.
    pub fn watch(&mut self) -> Result<u32, Refusal> {
        if self.watchers as usize >= MAX_WATCHERS {
            return Err(Refusal::TooManyWatchers);
        }
        self.watchers += 1;
        Ok(self.watchers)
    }

    /// A watching device went; the number watching now.
    pub fn unwatch(&mut self) -> u32 {
        self.watchers = self.watchers.saturating_sub(1);
        self.watchers
    }

    /// A greeting from a watcher: the watchers together send stamps at a
    /// seat's rate, and [`MAX_WATCHER_STAMPS`] a game.
    pub fn cheer(&mut self, stamp: Stamp, now_ms: u64) -> Result<(), Refusal> {
        let sent = self
            .game_events()
            .iter()
            .filter(|e| matches!(e, Event::Cheered { .. }))
            .count();
        if sent >= MAX_WATCHER_STAMPS {
            return Err(Refusal::NoStampsLeft);
        }
        if let Some(wait_ms) = bucket(&mut self.cheers_due, now_ms, STAMP_BURST, STAMP_INTERVAL_MS)
        {
            return Err(Refusal::StampTooSoon { wait_ms });
        }
        self.push_unchecked(Event::Cheered { stamp }, now_ms);
        Ok(())
    }

    /// Whether an absent player of this room loses when its grace ends.
    fn absence_loses(&self) -> bool {
        self.view.game == GameId::ChuShogi
    }

    /// A connection of `token` opened; the seats it holds are back.
    pub fn connected(&mut self, token: &SeatToken, now_ms: u64) -> Vec<Presence> {
        let Some(m) = self.member(token) else {
            return Vec::new();
        };
        self.connections[m] += 1;
        let mut back = Vec::new();
        for &seat in &self.members[m].seats {
            self.deadlines[seat as usize] = None;
            back.push(Presence {
                seat,
                online: true,
                seconds_left: None,
            });
        }
        self.run_clock(now_ms);
        back
    }

    /// A connection of `token` closed; where it was the member's last, its
    /// seats are away, and in 中将棋 their grace period begins.
    pub fn disconnected(&mut self, token: &SeatToken, now_ms: u64) -> Vec<Presence> {
        let Some(m) = self.member(token) else {
            return Vec::new();
        };
        self.connections[m] = self.connections[m].saturating_sub(1);
        if self.connections[m] > 0 {
            return Vec::new();
        }
        let timed = self.absence_loses() && self.is_started() && !self.is_finished();
        let grace = self.view.grace_seconds;
        let mut away = Vec::new();
        for &seat in &self.members[m].seats {
            if timed {
                self.deadlines[seat as usize] = Some(now_ms + u64::from(grace) * 1000);
            }
            away.push(Presence {
                seat,
                online: false,
                seconds_left: timed.then_some(grace),
            });
        }
        self.run_clock(now_ms);
        away
    }

    /// After a restart nobody is connected: every seat of a running
    /// 中将棋 game gets a full grace period from now, except those whose
    /// deadline was already running.
    /// `alive_ms`: when the server last said it was running (none from
    /// a database that never kept it): the clocks are charged up to then,
    /// never for the time the server was down.
    pub fn restarted(&mut self, now_ms: u64, alive_ms: Option<u64>) {
        // The clocks stood while the server did; they run again once
        // every player is back.
        if let Some(alive) = alive_ms {
            if let Some(since) = self.clock_since {
                self.clock_ms += alive.saturating_sub(since);
            }
            if let Some(since) = self.turn_since {
                self.charge(alive.saturating_sub(since));
            }
        }
        self.clock_since = None;
        self.turn_since = None;
        if !(self.absence_loses() && self.is_started() && !self.is_finished()) {
            return;
        }
        let grace = u64::from(self.view.grace_seconds) * 1000;
        for deadline in &mut self.deadlines {
            deadline.get_or_insert(now_ms + grace);
        }
    }

    /// The seats a person is playing from a device that is connected.
    fn online_seats(&self) -> Vec<u8> {
        self.members
            .iter()
            .zip(&self.connections)
            .filter(|(_, n)| **n > 0)
            .flat_map(|(m, _)| m.seats.iter().copied())
            .collect()
    }

    /// The earliest moment the room must be looked at again: an absent
    /// player's deadline or the end of the game's time.
    pub fn next_deadline(&self) -> Option<u64> {
        let time_up = match (self.table.time_limit_ms(), self.clock_since) {
            (Some(limit), Some(since)) => Some(since + limit.saturating_sub(self.clock_ms)),
            _ => None,
        };
        self.deadlines
            .iter()
            .flatten()
            .copied()
            .chain(time_up)
            .chain(self.flag_falls())
            .chain(self.takeback_until)
            .min()
    }

    /// Ends the game where an absent player's grace is over while the
    /// opponent is here to claim the win: 通信切れ. Returns whether it did.
    pub fn tick(&mut self, now_ms: u64) -> bool {
        if self.is_finished() {
            return false;
        }
        if self.takeback_until.is_some_and(|t| t <= now_ms) {
            self.takeback_until = None;
            if let Some(asker) = takeback_asked(self.game_events()) {
                let seat = other_seat(asker);
                let declined = Event::TakebackDeclined {
                    seat,
                    timed_out: true,
                };
                self.push_unchecked(declined, now_ms);
                self.run_clock(now_ms);
                return true;
            }
        }
        self.run_clock(now_ms);
        if let Some(loser) = self.out_of_time(now_ms) {
            let event = Event::Ended {
                winner: Some(other_seat(loser)),
                reason: EndReason::OutOfTime,
            };
            if self.push(event, now_ms).is_ok() {
                self.takeback_until = None;
                self.deadlines.iter_mut().for_each(|d| *d = None);
                self.run_clock(now_ms);
                return true;
            }
        }
        if let (Some(limit), Some((played, _))) = (self.table.time_limit_ms(), self.clock(now_ms))
            && played >= limit
        {
            let result = self.table.time_up();
            let event = Event::Ended {
                winner: result.winner,
                reason: result.reason,
            };
            if self.push(event, now_ms).is_ok() {
                self.run_clock(now_ms);
                return true;
            }
        }
        if !self.absence_loses() {
            return false;
        }
        let online = self.online_seats();
        let expired = (0..self.deadlines.len() as u8)
            .filter(|&s| self.deadlines[s as usize].is_some_and(|d| d <= now_ms))
            .min_by_key(|&s| self.deadlines[s as usize]);
        let Some(loser) = expired else {
            return false;
        };
        let Some(winner) = side_of(loser).map(|s| seat_of(s.opponent())) else {
            return false;
        };
        if !online.contains(&winner) {
            return false;
        }
        let event = Event::Ended {
            winner: Some(winner),
            reason: EndReason::Disconnected,
        };
        if self.push(event, now_ms).is_err() {
            return false;
        }
        self.deadlines.iter_mut().for_each(|d| *d = None);
        true
    }

    /// Whether the game's clock runs: a game with a time limit, begun and
    /// not over, every player here.
    fn clock_runs(&self) -> bool {
        self.table.time_limit_ms().is_some()
            && self.is_started()
            && !self.is_finished()
            && (0..self.view.seats.len() as u8).all(|s| self.is_online(s))
    }

    /// Brings the clock up to `now_ms` and starts or stops it as the room
    /// now is. Called after every change.
    pub fn run_clock(&mut self, now_ms: u64) {
        if let Some(since) = self.clock_since {
            self.clock_ms += now_ms.saturating_sub(since);
        }
        self.clock_since = self.clock_runs().then_some(now_ms);
        if let Some(since) = self.turn_since {
            self.charge(now_ms.saturating_sub(since));
        }
        let turn_runs = self.clock_runs() && takeback_asked(self.game_events()).is_none();
        self.turn_since = (turn_runs && !self.clocks_left.is_empty()).then_some(now_ms);
    }

    /// Charges `ms` to the seat to move: its 持ち時間 first, then this
    /// turn's 秒読み.
    fn charge(&mut self, ms: u64) {
        let Some(left) = self
            .table
            .seat_to_move()
            .and_then(|seat| self.clocks_left.get_mut(usize::from(seat)))
        else {
            return;
        };
        let from_main = ms.min(*left);
        *left -= from_main;
        self.byoyomi_spent += ms - from_main;
    }

    /// A 中将棋 room's clocks at `now_ms`; none where the game has no
    /// clock.
    pub fn clocks(&self, now_ms: u64) -> Option<Clocks> {
        let clock = self.room_clock()?;
        let mut left_ms = self.clocks_left.clone();
        let mut spent = self.byoyomi_spent;
        if let (Some(since), Some(seat)) = (self.turn_since, self.table.seat_to_move())
            && let Some(left) = left_ms.get_mut(usize::from(seat))
        {
            let ms = now_ms.saturating_sub(since);
            let from_main = ms.min(*left);
            *left -= from_main;
            spent += ms - from_main;
        }
        Some(Clocks {
            left_ms,
            byoyomi_ms: (u64::from(clock.byoyomi_seconds) * 1000).saturating_sub(spent),
            running: self.turn_since.is_some(),
        })
    }

    /// The seat to move, if its 持ち時間 and this turn's 秒読み are both
    /// spent at `now_ms`.
    pub fn out_of_time(&self, now_ms: u64) -> Option<u8> {
        if self.is_finished() || !self.is_started() {
            return None;
        }
        let seat = self.table.seat_to_move()?;
        let clocks = self.clocks(now_ms)?;
        let spent = clocks.left_ms.get(usize::from(seat)) == Some(&0) && clocks.byoyomi_ms == 0;
        spent.then_some(seat)
    }

    /// When the flag of the seat to move falls if it does not move: the
    /// clock running, or now where it is spent already.
    fn flag_falls(&self) -> Option<u64> {
        let clock = self.room_clock()?;
        if self.is_finished() {
            return None;
        }
        let seat = self.table.seat_to_move()?;
        let left = *self.clocks_left.get(usize::from(seat))?;
        let byoyomi = (u64::from(clock.byoyomi_seconds) * 1000).saturating_sub(self.byoyomi_spent);
        match self.turn_since {
            Some(since) => Some(since + left + byoyomi),
            None => (left == 0 && byoyomi == 0).then_some(0),
        }
    }

    /// Milliseconds played on the game's clock at `now_ms`, and whether it
    /// runs; none for a game without one.
    pub fn clock(&self, now_ms: u64) -> Option<(u64, bool)> {
        self.table.time_limit_ms()?;
        let running = self.clock_since.map(|since| now_ms.saturating_sub(since));
        Some((self.clock_ms + running.unwrap_or(0), running.is_some()))
    }

    /// Seconds left to an absent seat, for a device that comes back.
    pub fn seconds_left(&self, seat: u8, now_ms: u64) -> Option<u32> {
        let deadline = self.deadlines.get(seat as usize).copied().flatten()?;
        Some((deadline.saturating_sub(now_ms).div_ceil(1000)) as u32)
    }

    /// Whether `seat` is played from a connected device (or by the server).
    pub fn is_online(&self, seat: u8) -> bool {
        matches!(
            self.view.seats.get(seat as usize).map(|s| s.kind),
            Some(SeatKind::Cpu(_))
        ) || self.online_seats().contains(&seat)
    }
}

/// A token bucket kept as one time (GCRA): everything is back at `due`,
/// and one more may go while at most a burst's worth of intervals is still
/// to run. Takes one and returns none, or returns the milliseconds to wait.
fn bucket(due: &mut u64, now_ms: u64, burst: u32, interval_ms: u64) -> Option<u32> {
    let burst_ms = u64::from(burst.saturating_sub(1)) * interval_ms;
    let allowed_from = due.saturating_sub(burst_ms);
    if now_ms < allowed_from {
        return Some(u32::try_from(allowed_from - now_ms).unwrap_or(u32::MAX));
    }
    *due = (*due).max(now_ms) + interval_ms;
    None
}

/// The other seat of a two-player game.
fn other_seat(seat: u8) -> u8 {
    1 - seat.min(1)
}

/// Where the series' latest game begins among a room's events: just after
/// its [`Event::NewGame`] (0 in the first game).
pub fn game_start(events: &[Event]) -> usize {
    events
        .iter()
        .rposition(|e| matches!(e, Event::NewGame { .. }))
        .map_or(0, |i| i + 1)
}

/// How many games of the series began before the latest.
pub fn game_number(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::NewGame { .. }))
        .count()
}

/// The seats that made the moves on the board, in order, from a game's
/// events (moves taken back are gone).
fn movers(game: &[Event]) -> Vec<u8> {
    let mut movers = Vec::new();
    for event in game {
        match event {
            Event::Moved { seat, .. } => movers.push(*seat),
            Event::TakenBack { plies, .. } => {
                movers.truncate(movers.len().saturating_sub(usize::from(*plies)));
            }
            _ => {}
        }
    }
    movers
}

/// The moves on the board after a game's events (`game`: from
/// [`game_start`] on).
pub fn game_ply(game: &[Event]) -> usize {
    movers(game).len()
}

/// The seat whose 待った waits for its answer in a game's events.
pub fn takeback_asked(game: &[Event]) -> Option<u8> {
    let mut asked = None;
    for event in game {
        match event {
            Event::TakebackAsked { seat } => asked = Some(*seat),
            Event::TakebackDeclined { .. } | Event::TakenBack { .. } | Event::Ended { .. } => {
                asked = None
            }
            _ => {}
        }
    }
    asked
}

/// How many moves a 待った of `seat` takes back now: its last move, and
/// the reply if one was made; 0 if it has none there.
fn takeback_plies(game: &[Event], seat: u8) -> u8 {
    let movers = movers(game);
    match movers[..] {
        [.., last] if last == seat => 1,
        [.., mine, _] if mine == seat => 2,
        _ => 0,
    }
}

/// The next game on offer after the latest game's end, and the seats
/// that agreed to it: the host's latest terms (or the game just played),
/// and the offers made since those terms.
pub fn rematch_terms(events: &[Event], view: &RoomView) -> (NextGame, Vec<u8>) {
    let mut terms = NextGame {
        game: view.game,
        rules: view.rules.clone(),
    };
    let mut agreed: Vec<u8> = Vec::new();
    for event in &events[game_start(events)..] {
        if let Event::Rematch { seats, next } = event {
            if let Some(next) = next {
                terms = next.clone();
                agreed.clear();
            }
            for seat in seats {
                if !agreed.contains(seat) {
                    agreed.push(*seat);
                }
            }
        }
    }
    (terms, agreed)
}

/// A room's series so far: for each seat of the first game, the games it
/// won, and where its player sits now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Series {
    /// By seat of the first game: games won.
    pub wins: Vec<u32>,
    /// By seat now: the seat its player had in the first game.
    pub first_seats: Vec<u8>,
    /// Games ended without a winner.
    pub draws: u32,
}

/// The score of the series of `seats` seats in `events`.
pub fn series(events: &[Event], seats: usize) -> Series {
    let mut series = Series {
        wins: vec![0; seats],
        first_seats: (0..seats as u8).collect(),
        draws: 0,
    };
    for event in events {
        match event {
            Event::Ended { winner, .. } => {
                match winner.and_then(|w| series.first_seats.get(usize::from(w))) {
                    Some(&first) => {
                        if let Some(wins) = series.wins.get_mut(usize::from(first)) {
                            *wins += 1;
                        }
                    }
                    None => series.draws += 1,
                }
            }
            Event::NewGame { order, .. } => {
                let before = series.first_seats.clone();
                series.first_seats = order
                    .iter()
                    .map(|&o| before.get(usize::from(o)).copied().unwrap_or(o))
                    .collect();
            }
            _ => {}
        }
    }
    series
}

/// Applies one event to a device's table, starting a fresh one at a new
/// game of the series (what every device does with the room's events).
pub fn follow(table: &mut Box<dyn Table>, event: &Event) -> Result<(), TableError> {
    match event {
        Event::NewGame { game, rules, .. } => {
            *table = open_table(*game, rules).map_err(|_| TableError::Illegal)?;
            Ok(())
        }
        other => apply(table.as_mut(), other),
    }
}

/// Applies one event to a table (what the server does on a restart, from
/// the latest game's start). A new game needs a new table: [`follow`].
pub fn apply(table: &mut dyn Table, event: &Event) -> Result<(), TableError> {
    match event {
        Event::Moved { seat, text } => table.play(*seat, text),
        Event::Resigned { seat } => {
            if table.result().is_some() {
                return Err(TableError::Finished);
            }
            if !table.resignable() {
                return Err(TableError::Illegal);
            }
            let Some(side) = side_of(*seat) else {
                return Err(TableError::NotYourTurn);
            };
            table.end(TableResult {
                winner: Some(seat_of(side.opponent())),
                reason: EndReason::Resignation,
            });
            Ok(())
        }
        Event::Ended { winner, reason } => {
            if winner.is_some_and(|seat| usize::from(seat) >= table.seats()) {
                return Err(TableError::NotYourTurn);
            }
            table.end(TableResult {
                winner: *winner,
                reason: *reason,
            });
            Ok(())
        }
        Event::TakenBack { plies, .. } => table.take_back(usize::from(*plies)),
        Event::NewGame { .. } => Err(TableError::Illegal),
        Event::Seated { .. }
        | Event::Started
        | Event::Stamp { .. }
        | Event::Rematch { .. }
        | Event::TakebackAsked { .. }
        | Event::TakebackDeclined { .. }
        | Event::Cheered { .. } => Ok(()),
    }
}

/// Applies a run of events of one game in order; the error names the
/// event (from 0) that did not apply.
pub fn replay(table: &mut dyn Table, events: &[Event]) -> Result<(), (usize, TableError)> {
    for (i, event) in events.iter().enumerate() {
        apply(table, event).map_err(|e| (i, e))?;
    }
    Ok(())
}

/// [`replay`] across the games of a series: a new game starts a fresh
/// table.
pub fn replay_series(
    table: &mut Box<dyn Table>,
    events: &[Event],
) -> Result<(), (usize, TableError)> {
    for (i, event) in events.iter().enumerate() {
        follow(table, event).map_err(|e| (i, e))?;
    }
    Ok(())
}
