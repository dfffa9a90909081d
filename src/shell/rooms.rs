//! Rooms on the app's side: the connection to the room server (made,
//! joined or come back to), kept open across screens and reopened when it
//! drops, and the room screen (部屋) that shows the code and waits for
//! everyone, or takes the code of a room to join; and the row of greetings
//! every game's play screen shows in a room. The games turn the room's
//! events into moves; this module knows none of them.
//!
//! Long because: the room's connection and every part of its screen live
//! together (the code pad, the seats, a series' score and next game,
//! watchers, the greetings' and 待った's rows), all on one connection.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;
use serde::{Deserialize, Serialize};

use super::i18n::{Lang, T};
use super::qr::QrCache;
use super::save::Store;
use super::screens::localized_game_name;
use super::settings::Settings;
use super::widgets::type_scale as ty;
use super::widgets::{self, Fonts, palette};
use super::{ChosenGame, Screen};
use crate::net::link::{DEFAULT_SERVER, Link, LinkEvent};
use crate::net::protocol::{
    ClientMessage, Event, MAX_PAGE_BYTES, NextGame, PROTOCOL_VERSION, Refusal, RoomCode, RoomPlan,
    RoomView, SeatKind, SeatName, SeatToken, ServerMessage, Stamp,
};
use crate::net::room::{game_number, game_start, rematch_terms, series, takeback_asked};
use crate::rules::data::GameId;

/// The store key of the room this device is in (for 続きから).
pub const TICKET_KEY: &str = "room";

/// Seconds between tries to reconnect.
const RETRY_SECONDS: f64 = 2.0;

pub(crate) fn plugin(app: &mut App) {
    app.init_resource::<RoomLink>()
        .init_non_send::<RoomSocket>()
        .init_resource::<JoinDraft>()
        .init_resource::<RoomRulesLine>()
        .init_resource::<NextGameRules>()
        .init_resource::<QrCache>()
        .add_systems(Update, pump_room)
        .add_systems(
            Update,
            follow_next_game.run_if(
                in_state(Screen::Play)
                    .or_else(in_state(Screen::Result))
                    .or_else(in_state(Screen::Review)),
            ),
        )
        .add_systems(Update, show_takeback_buttons.run_if(in_state(Screen::Play)))
        .add_systems(OnEnter(Screen::GameList), leave_finished_room)
        .add_systems(OnEnter(Screen::Lobby), spawn_lobby)
        .add_systems(
            Update,
            (type_code, redraw_lobby, leave_on_escape, follow_room_game)
                .run_if(in_state(Screen::Lobby)),
        );
}

/// What a device keeps to come back to its room.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomTicket {
    pub server: String,
    pub room: RoomCode,
    pub token: SeatToken,
}

/// The server's address: the setting, or the page's own server on the
/// web, or a server on this computer.
pub fn server_url(settings: &Settings) -> String {
    if let Some(url) = settings.server.as_ref().filter(|u| !u.trim().is_empty()) {
        return url.trim().to_string();
    }
    #[cfg(target_arch = "wasm32")]
    if let Some(url) = super::web::page_room_server() {
        return url;
    }
    DEFAULT_SERVER.to_string()
}

/// What to say when the connection opens.
#[derive(Clone, Debug)]
enum Hello {
    Create(RoomPlan),
    Join(RoomCode, SeatName),
    /// Come back with the token (after a drop, or from 続きから).
    Resume(RoomCode, SeatToken),
    /// Watch the room, read-only.
    Watch(RoomCode),
}

/// The state of the connection, as the screens tell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkState {
    Connecting,
    Open,
    /// Dropped: trying again.
    Lost,
}

/// The socket of the room connection: a browser's WebSocket cannot leave
/// the page's thread, so it is kept apart from the room's state and read
/// by one system on the main thread.
#[derive(Default)]
pub struct RoomSocket(Option<Link>);

/// The room this device is in, and the state of its connection.
pub struct RoomConnection {
    url: String,
    hello: Hello,
    /// Messages for the socket to send (while it is open).
    outbox: Vec<ClientMessage>,
    /// The socket is to be (re)opened / closed.
    reopen: bool,
    closing: bool,
    pub state: LinkState,
    retry_at: f64,
    /// Whether the server ever answered (a server that never does is
    /// unreachable rather than dropped).
    pub reached: bool,
    pub view: Option<RoomView>,
    pub token: Option<SeatToken>,
    pub seats: Vec<u8>,
    /// Every event of the room, in order.
    pub events: Vec<Event>,
    /// Seats whose device is away, with the time (app seconds) an absent
    /// 中将棋 player loses.
    pub away: Vec<(u8, Option<f64>)>,
    /// Refusals not yet shown.
    pub refusals: Vec<Refusal>,
    /// The app time (seconds) of the last read, for countdowns.
    pub now: f64,
    /// The game's clock as the server last told it: milliseconds played,
    /// whether it runs, and the app time it was told at.
    pub game_clock: Option<(u64, bool, f64)>,
    /// A 中将棋 room's clocks as the server last told them (each seat's
    /// 持ち時間 left, the 秒読み left to the seat to move, whether it
    /// runs), and the app time they were told at.
    pub side_clocks: Option<(Vec<u64>, u64, bool, f64)>,
    /// This device only watches: no seat.
    pub watching: bool,
    /// How many devices watch the room.
    pub watchers: u32,
    /// The game of the series (counted from 0) the play screen shows; a
    /// later one takes every screen of the room to it.
    pub following: Option<usize>,
    /// The server's web page as the other devices of its home network
    /// open it (`serve --lan`), from its welcome.
    pub page: Option<String>,
    /// The code that opens the room to watch it, from a player's welcome
    /// (a watcher's room is named by it).
    pub watch_code: Option<RoomCode>,
    /// The room's review as another device leads it: the seat and the
    /// position's ply, and how many such leads have come (a follower
    /// moves with each new one).
    pub review_lead: Option<(u8, u32)>,
    pub review_leads: u64,
}

impl RoomConnection {
    /// Seconds played on the game's clock now, as the server keeps it.
    pub fn played_seconds(&self) -> Option<f32> {
        let (played_ms, running, at) = self.game_clock?;
        let since = if running {
            (self.now - at).max(0.0)
        } else {
            0.0
        };
        Some((played_ms as f64 / 1000.0 + since) as f32)
    }

    /// A 中将棋 room's clocks now, as a line (`☗ 9:41 ・ ☖ 秒読み 25`):
    /// the seat to move's runs down from the server's last word; none
    /// where the room has no clock.
    pub fn clocks_line(&self, lang: Lang) -> Option<String> {
        let (left_ms, byoyomi_ms, running, at) = self.side_clocks.as_ref()?;
        let full_byoyomi = self.view.as_ref()?.clock?.byoyomi_seconds;
        let to_move = crate::net::room::game_ply(&self.events[self.game_start()..]) % 2;
        let mut gone = if *running {
            ((self.now - at).max(0.0) * 1000.0) as u64
        } else {
            0
        };
        let byoyomi = T::Byoyomi.get(lang);
        let sides = left_ms.iter().enumerate().map(|(seat, &left)| {
            let mut left = left;
            let mut byoyomi_left = u64::from(full_byoyomi) * 1000;
            if seat == to_move {
                let from_main = gone.min(left);
                left -= from_main;
                gone -= from_main;
                byoyomi_left = byoyomi_ms.saturating_sub(gone);
            }
            let mark = if seat == 0 { '☗' } else { '☖' };
            if left > 0 {
                let s = left.div_ceil(1000);
                format!("{mark} {}:{:02}", s / 60, s % 60)
            } else {
                format!("{mark} {byoyomi} {}", byoyomi_left.div_ceil(1000))
            }
        });
        Some(sides.collect::<Vec<_>>().join(" ・ "))
    }
}

impl RoomConnection {
    fn open(url: String, hello: Hello) -> RoomConnection {
        RoomConnection {
            state: LinkState::Connecting,
            url,
            hello,
            outbox: Vec::new(),
            reopen: true,
            closing: false,
            retry_at: 0.0,
            reached: false,
            view: None,
            token: None,
            seats: Vec::new(),
            events: Vec::new(),
            away: Vec::new(),
            refusals: Vec::new(),
            now: 0.0,
            game_clock: None,
            side_clocks: None,
            watching: false,
            watchers: 0,
            following: None,
            page: None,
            watch_code: None,
            review_lead: None,
            review_leads: 0,
        }
    }

    /// Makes a room on the server at `url`.
    pub fn create(url: String, plan: RoomPlan) -> RoomConnection {
        RoomConnection::open(url, Hello::Create(plan))
    }

    /// Joins the room `code`.
    pub fn join(url: String, code: RoomCode, name: SeatName) -> RoomConnection {
        RoomConnection::open(url, Hello::Join(code, name))
    }

    /// Comes back to a room after the app was closed.
    pub fn resume(ticket: RoomTicket) -> RoomConnection {
        RoomConnection::open(ticket.server, Hello::Resume(ticket.room, ticket.token))
    }

    pub fn ticket(&self) -> Option<RoomTicket> {
        Some(RoomTicket {
            server: self.url.clone(),
            room: self.view.as_ref()?.room.clone(),
            token: self.token.clone()?,
        })
    }

    /// Watches the room `code`.
    pub fn watch(url: String, code: RoomCode) -> RoomConnection {
        RoomConnection::open(url, Hello::Watch(code))
    }

    pub fn is_started(&self) -> bool {
        self.events.contains(&Event::Started)
    }

    /// Where the series' latest game begins among the events.
    pub fn game_start(&self) -> usize {
        game_start(&self.events)
    }

    /// The events of the series' latest game.
    pub fn game_events(&self) -> &[Event] {
        &self.events[self.game_start()..]
    }

    /// The latest game of the series, counted from 0.
    pub fn game_number(&self) -> usize {
        game_number(&self.events)
    }

    /// Whether the latest game is over (a rematch may be offered).
    pub fn game_over(&self) -> bool {
        self.game_events()
            .iter()
            .any(|e| matches!(e, Event::Ended { .. }))
    }

    /// The seat whose 待った waits for an answer.
    pub fn takeback_asked(&self) -> Option<u8> {
        takeback_asked(self.game_events())
    }

    /// Offers (or accepts) the next game; `next` (the host's) changes it.
    pub fn offer_rematch(&mut self, next: Option<NextGame>) -> bool {
        self.send(&ClientMessage::Rematch { next })
    }

    /// Whether this device has agreed to the next game on offer.
    pub fn agreed(&self) -> bool {
        let Some(view) = &self.view else {
            return false;
        };
        let (_, agreed) = rematch_terms(&self.events, view);
        !self.seats.is_empty() && self.seats.iter().all(|s| agreed.contains(s))
    }

    /// Asks to take this device's last move back (待った).
    pub fn ask_takeback(&mut self) {
        if let Some(&seat) = self.seats.first() {
            self.send(&ClientMessage::Takeback { seat });
        }
    }

    /// Answers the other side's 待った.
    pub fn answer_takeback(&mut self, accept: bool) {
        if let Some(&seat) = self.seats.first()
            && self.takeback_asked().is_some_and(|s| s != seat)
        {
            self.send(&ClientMessage::TakebackAnswer { seat, accept });
        }
    }

    /// Sends a message if the connection is open; false if it is down
    /// (the game screens then wait for it to come back).
    pub fn send(&mut self, message: &ClientMessage) -> bool {
        if self.state == LinkState::Open && self.view.is_some() {
            self.outbox.push(message.clone());
            true
        } else {
            false
        }
    }

    /// A greeting from the first seat this device holds, or from a
    /// watcher.
    pub fn send_stamp(&mut self, stamp: Stamp) {
        if self.watching {
            self.send(&ClientMessage::Cheer { stamp });
        } else if let Some(&seat) = self.seats.first() {
            self.send(&ClientMessage::Stamp { seat, stamp });
        }
    }

    /// Reads what arrived on `socket` and sends what is waiting; reopens
    /// a dropped connection. Returns whether anything changed.
    fn pump(&mut self, socket: &mut RoomSocket, now: f64) -> bool {
        self.now = now;
        if self.closing {
            if let Some(link) = socket.0.as_mut() {
                link.close();
            }
            socket.0 = None;
            return false;
        }
        let mut changed = false;
        let dropped = socket.0.as_ref().is_none_or(Link::is_closed);
        if (self.reopen || dropped) && now >= self.retry_at {
            // After a Welcome the device comes back with its token.
            if !self.watching
                && let (Some(view), Some(token)) = (&self.view, &self.token)
            {
                self.hello = Hello::Resume(view.room.clone(), token.clone());
            }
            socket.0 = Link::open(&self.url).ok();
            self.reopen = false;
            self.retry_at = now + RETRY_SECONDS;
            if socket.0.is_none() {
                self.state = LinkState::Lost;
                changed = true;
            }
        }
        let Some(link) = socket.0.as_mut() else {
            return changed;
        };
        for event in link.poll() {
            changed = true;
            match event {
                LinkEvent::Opened => {
                    self.state = LinkState::Open;
                    let have = self.events.len() as u64;
                    let hello = match &self.hello {
                        Hello::Create(plan) => ClientMessage::Create {
                            version: PROTOCOL_VERSION,
                            plan: plan.clone(),
                        },
                        Hello::Join(room, name) => ClientMessage::Join {
                            version: PROTOCOL_VERSION,
                            room: room.clone(),
                            name: name.clone(),
                        },
                        Hello::Resume(room, token) => ClientMessage::Resume {
                            version: PROTOCOL_VERSION,
                            room: room.clone(),
                            token: token.clone(),
                            have,
                        },
                        // A watcher is sent the whole room each time.
                        Hello::Watch(room) => {
                            self.events.clear();
                            ClientMessage::Watch {
                                version: PROTOCOL_VERSION,
                                room: room.clone(),
                            }
                        }
                    };
                    link.send(&hello);
                }
                LinkEvent::Message(message) => {
                    self.reached = true;
                    if let Some(gap) = self.take(message, now) {
                        warn!("{gap}: asking again");
                        link.close();
                    }
                }
                LinkEvent::Unreadable(refusal) => {
                    warn!("room server: {refusal}");
                    self.refusals.push(refusal);
                }
                LinkEvent::Closed(why) => {
                    if let Some(why) = why {
                        warn!("room connection closed: {why}");
                    }
                    self.state = LinkState::Lost;
                    self.retry_at = now + RETRY_SECONDS;
                }
            }
        }
        if link.is_open() {
            for message in self.outbox.drain(..) {
                link.send(&message);
            }
        }
        changed
    }

    /// Takes one message in; a gap in the events is returned (the
    /// connection is then reopened to be sent them again).
    fn take(&mut self, message: ServerMessage, now: f64) -> Option<String> {
        match message {
            ServerMessage::Welcome {
                view,
                token,
                seats,
                page,
                watch,
            } => {
                self.view = Some(view);
                self.watch_code = watch;
                self.token = Some(token);
                self.seats = seats;
                self.away.clear();
                // A welcome starts each game of the series: its review is
                // another's.
                self.review_lead = None;
                // Only a web address is shown and drawn as a QR code.
                self.page = page.filter(|p| {
                    p.len() <= MAX_PAGE_BYTES
                        && (p.starts_with("http://") || p.starts_with("https://"))
                });
            }
            ServerMessage::Watching { view } => {
                self.view = Some(view);
                self.watching = true;
                self.seats.clear();
                self.away.clear();
            }
            ServerMessage::Watchers { count } => self.watchers = count,
            ServerMessage::ReviewAt { seat, ply } => {
                self.review_lead = Some((seat, ply));
                self.review_leads += 1;
            }
            ServerMessage::Events { first, events } => {
                let have = self.events.len() as u64;
                if first == 1 && have > 0 {
                    // The whole room again (the server did not know what
                    // this device had).
                    self.events.clear();
                    self.events.extend(events);
                } else if first <= have + 1 {
                    let skip = (have + 1 - first) as usize;
                    self.events.extend(events.into_iter().skip(skip));
                } else {
                    return Some(format!("room events from {first} with {have} here"));
                }
            }
            ServerMessage::Presence {
                seat,
                online,
                seconds_left,
            } => {
                self.away.retain(|(s, _)| *s != seat);
                if !online {
                    let deadline = seconds_left.map(|s| now + f64::from(s));
                    self.away.push((seat, deadline));
                }
            }
            ServerMessage::Clock { played_ms, running } => {
                self.game_clock = Some((played_ms, running, now));
            }
            ServerMessage::Clocks {
                left_ms,
                byoyomi_ms,
                running,
            } => {
                self.side_clocks = Some((left_ms, byoyomi_ms, running, now));
            }
            ServerMessage::Refused { refusal } => {
                warn!("room server refused: {refusal}");
                // A room that is gone or a token it no longer knows ends the
                // tries to come back.
                if matches!(refusal, Refusal::NoSuchRoom | Refusal::BadToken) && self.view.is_some()
                {
                    self.view = None;
                    self.token = None;
                }
                self.refusals.push(refusal);
            }
        }
        None
    }
}

/// The room connection, if this device is in a room.
#[derive(Resource, Default)]
pub struct RoomLink(pub Option<RoomConnection>);

/// Reads the connection every frame on every screen; the room's ticket is
/// kept for 続きから once the server has given it.
fn pump_room(
    mut room: ResMut<RoomLink>,
    mut socket: NonSendMut<RoomSocket>,
    time: Res<Time<Real>>,
    mut store: ResMut<Store>,
) {
    let now = time.elapsed_secs_f64();
    let Some(connection) = room.bypass_change_detection().0.as_mut() else {
        // Out of the room: the socket goes too.
        if let Some(mut link) = socket.0.take() {
            link.close();
        }
        return;
    };
    let had_ticket = connection.token.is_some();
    if connection.pump(&mut socket, now) {
        if !had_ticket && let Some(ticket) = connection.ticket() {
            store.put(TICKET_KEY, &ticket);
        }
        room.set_changed();
    }
}

/// Leaves the room on this device (the others see it go away).
pub fn leave_room(room: &mut RoomLink, store: &mut Store) {
    room.0 = None;
    store.remove(TICKET_KEY);
}

/// The room's rules in words, for the room screen, with the room they
/// are of (a line left from another room is not shown): written by the
/// game whose room it is (the shell cannot read a game's rules).
#[derive(Resource, Default, Debug, PartialEq)]
pub struct RoomRulesLine(pub Option<(RoomCode, String)>);

impl RoomRulesLine {
    /// Sets the line of `room`, touching the resource only on a change.
    pub fn set(line: &mut ResMut<RoomRulesLine>, room: &RoomCode, text: String) {
        if line.0.as_ref().is_none_or(|(r, t)| r != room || *t != text) {
            line.0 = Some((room.clone(), text));
        }
    }
}

/// The rules each game would be played by as a room's next game (the
/// game's setup as last chosen on this device), for the host's choice on
/// the room screen: written by the games, which alone read their rules.
#[derive(Resource, Default, Debug, PartialEq)]
pub struct NextGameRules(pub Vec<NextGame>);

impl NextGameRules {
    /// Sets `game`'s rules, touching the resource only on a change.
    pub fn set(rules: &mut ResMut<NextGameRules>, game: GameId, text: String) {
        let next = NextGame { game, rules: text };
        match rules.0.iter().position(|n| n.game == game) {
            Some(i) if rules.0[i] == next => {}
            Some(i) => rules.0[i] = next,
            None => rules.0.push(next),
        }
    }
}

/// The code being typed on the room screen, before there is a room.
#[derive(Resource, Default, Debug, PartialEq)]
pub struct JoinDraft {
    pub code: String,
}

#[derive(Component)]
struct LobbyRoot;

/// A letter key of the on-screen code pad (tests press them).
#[derive(Component, Clone, Copy, Debug)]
pub struct CodeKey(pub char);

/// The room screen's join button.
#[derive(Component)]
pub struct JoinButton;

/// The letters of a room code, in the pad's order.
const PAD: &str = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// What the room screen is drawn from.
#[derive(SystemParam)]
struct LobbyData<'w> {
    fonts: Res<'w, Fonts>,
    settings: Res<'w, Settings>,
    room: Res<'w, RoomLink>,
    draft: Res<'w, JoinDraft>,
    rules: Res<'w, RoomRulesLine>,
    next_rules: Res<'w, NextGameRules>,
    images: ResMut<'w, Assets<Image>>,
    qr: ResMut<'w, QrCache>,
}

fn spawn_lobby(mut commands: Commands, data: LobbyData) {
    let LobbyData {
        fonts,
        settings,
        room,
        draft,
        rules,
        next_rules,
        mut images,
        mut qr,
    } = data;
    let lang = settings.lang;
    // The join link as a QR code where it is a web address.
    let qr_code = room.0.as_ref().and_then(|connection| {
        let view = connection.view.as_ref()?;
        // A watcher's room has no link that takes a seat.
        if connection.watching {
            return None;
        }
        let link = room_link(connection, &view.room);
        link.starts_with("http")
            .then(|| qr.image(&link, &mut images))
            .flatten()
    });
    commands
        .spawn((
            DespawnOnExit(Screen::Lobby),
            LobbyRoot,
            widgets::screen_root(),
        ))
        .with_children(|root| {
            root.spawn(widgets::label(
                &fonts,
                lang,
                T::RoomTitle,
                ty::TITLE,
                palette::INK,
            ));
            match room.0.as_ref() {
                None => code_entry(root, &fonts, lang, &draft),
                Some(connection) => room_status(
                    root,
                    &fonts,
                    lang,
                    connection,
                    (&rules, &next_rules),
                    qr_code,
                ),
            }
            root.spawn(widgets::row()).with_children(|row| {
                row.spawn(widgets::key_button(&fonts, lang, T::LeaveRoom, false))
                    .observe(leave_to_list);
            });
        });
}

/// The code pad: what is typed so far, a key per letter, and 入る.
fn code_entry(root: &mut ChildSpawnerCommands, fonts: &Fonts, lang: Lang, draft: &JoinDraft) {
    root.spawn(widgets::label(
        fonts,
        lang,
        T::RoomEnterCode,
        ty::BODY,
        palette::INK_SOFT,
    ));
    let mut shown: String = draft
        .code
        .chars()
        .chain(std::iter::repeat('_'))
        .take(8)
        .collect();
    shown.insert(4, '-');
    root.spawn(widgets::text(fonts, shown, ty::TITLE, palette::INK));
    root.spawn(Node {
        display: Display::Grid,
        grid_template_columns: RepeatedGridTrack::flex(8, 1.0),
        column_gap: px(4),
        row_gap: px(4),
        ..default()
    })
    .with_children(|pad| {
        for c in PAD.chars() {
            pad.spawn((widgets::button(fonts, c.to_string(), false), CodeKey(c)))
                .observe(move |_: On<Pointer<Click>>, mut draft: ResMut<JoinDraft>| {
                    if draft.code.len() < 8 {
                        draft.code.push(c);
                    }
                });
        }
    });
    root.spawn(widgets::row()).with_children(|row| {
        row.spawn(widgets::button(fonts, "←".to_string(), false))
            .observe(|_: On<Pointer<Click>>, mut draft: ResMut<JoinDraft>| {
                draft.code.pop();
            });
        row.spawn((
            widgets::key_button(fonts, lang, T::JoinRoomGo, true),
            JoinButton,
        ))
        .observe(join_typed);
    });
}

/// The room: its code and link, who is here, how the connection is.
fn room_status(
    root: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    connection: &RoomConnection,
    (rules, next_rules): (&RoomRulesLine, &NextGameRules),
    qr_code: Option<(Handle<Image>, f32)>,
) {
    let status = match connection.state {
        LinkState::Connecting => T::RoomConnecting.get(lang).to_string(),
        LinkState::Lost if !connection.reached => T::RoomNoServer.fill(lang, &[&connection.url]),
        LinkState::Lost => T::RoomReconnecting.get(lang).to_string(),
        LinkState::Open if connection.view.is_none() => T::RoomConnecting.get(lang).to_string(),
        LinkState::Open if connection.watching => T::RoomWatching.get(lang).to_string(),
        LinkState::Open if connection.game_over() => T::RoomRematchWaiting.get(lang).to_string(),
        LinkState::Open => T::RoomWaiting.get(lang).to_string(),
    };
    if let Some(refusal) = connection.refusals.last() {
        root.spawn(widgets::text(
            fonts,
            refusal_text(refusal, lang),
            ty::LEAD,
            palette::VERMILION,
        ));
    }
    let Some(view) = connection.view.as_ref() else {
        root.spawn(widgets::text(fonts, status, ty::BODY, palette::INK_SOFT));
        return;
    };
    root.spawn(widgets::text(
        fonts,
        localized_game_name(view.game, lang),
        ty::HEADING,
        palette::INK,
    ));
    if let Some((_, line)) = rules.0.as_ref().filter(|(room, _)| *room == view.room) {
        root.spawn((
            widgets::text(
                fonts,
                T::RoomRules.fill(lang, &[line]),
                ty::BODY,
                palette::INK_SOFT,
            ),
            RoomRulesText,
        ));
    }
    // The code and the link that take a seat are the players' only: a
    // watcher's room is named by its watch code.
    if !connection.watching {
        join_details(root, fonts, lang, connection, view, qr_code);
    }
    if let Some(link) = watch_link(connection) {
        root.spawn(widgets::text(
            fonts,
            T::RoomWatchLink.fill(lang, &[&link]),
            ty::SMALL,
            palette::INK_SOFT,
        ));
    }
    for (i, seat) in view.seats.iter().enumerate() {
        let i = i as u8;
        // After the first game every seat has been taken (a series goes
        // on only when all agreed), whatever seat its player has now.
        let taken = seat.kind != SeatKind::Remote
            || connection.game_number() > 0
            || connection
                .events
                .iter()
                .any(|e| matches!(e, Event::Seated { seat, .. } if *seat == i));
        let away = connection.away.iter().any(|(s, _)| *s == i);
        let key = match (taken, away) {
            (false, _) => T::RoomSeatWaiting,
            (true, true) => T::RoomSeatAway,
            (true, false) => T::RoomSeatHere,
        };
        root.spawn(widgets::text(
            fonts,
            key.fill(lang, &[&seat.name.as_str()]),
            ty::BODY,
            palette::INK,
        ));
    }
    if connection.game_number() > 0 || connection.game_over() {
        root.spawn((
            widgets::text(
                fonts,
                T::RoomSeries.fill(lang, &[&series_line(connection, view, lang)]),
                ty::LEAD,
                palette::INK,
            ),
            SeriesText,
        ));
    }
    if connection.watchers > 0 {
        root.spawn(widgets::text(
            fonts,
            T::RoomWatchers.fill(lang, &[&connection.watchers]),
            ty::BODY,
            palette::INK_SOFT,
        ));
    }
    if connection.game_over() && !connection.watching {
        rematch_choice(root, fonts, lang, connection, view, next_rules);
    }
    root.spawn(widgets::text(fonts, status, ty::BODY, palette::INK_SOFT));
}

/// The players' way in: the room's code, the join link and its QR code.
fn join_details(
    root: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    connection: &RoomConnection,
    view: &RoomView,
    qr_code: Option<(Handle<Image>, f32)>,
) {
    root.spawn(widgets::label(
        fonts,
        lang,
        T::RoomCodeLabel,
        ty::BODY,
        palette::INK_SOFT,
    ));
    root.spawn((
        widgets::text(
            fonts,
            view.room.display(),
            ty::TITLE * 1.4,
            palette::VERMILION,
        ),
        RoomCodeText,
    ));
    root.spawn(widgets::label(
        fonts,
        lang,
        T::RoomTellCode,
        ty::SMALL,
        palette::INK_SOFT,
    ));
    root.spawn(widgets::text(
        fonts,
        T::RoomLinkLabel.fill(lang, &[&room_link(connection, &view.room)]),
        ty::SMALL,
        palette::INK_SOFT,
    ));
    if let Some((image, side)) = qr_code {
        root.spawn(widgets::label(
            fonts,
            lang,
            T::RoomScanToJoin,
            ty::SMALL,
            palette::INK_SOFT,
        ));
        root.spawn((
            ImageNode::new(image),
            Node {
                width: px(side),
                height: px(side),
                margin: UiRect::vertical(px(4)),
                ..default()
            },
            RoomQrCode,
        ));
    }
}

/// The series' score by the players' names: `はな 2 – 1 たろう`, draws
/// after.
pub fn series_line(connection: &RoomConnection, view: &RoomView, lang: Lang) -> String {
    let score = series(&connection.events, view.seats.len());
    let names = (0..view.seats.len() as u8).map(|first| {
        // The seat the first game's seat `first` has now.
        let now = score
            .first_seats
            .iter()
            .position(|&f| f == first)
            .unwrap_or(usize::from(first));
        view.seats
            .get(now)
            .map_or_else(|| "?".to_string(), |s| s.name.as_str().to_string())
    });
    let parts: Vec<String> = names
        .zip(&score.wins)
        .map(|(name, wins)| format!("{name} {wins}"))
        .collect();
    let mut line = parts.join(" – ");
    if score.draws > 0 {
        line.push_str(&format!(" ({} {})", T::RoomDraws.get(lang), score.draws));
    }
    line
}

/// After the end: who agreed to the next game and on what, もう一回, and
/// for the host the games the seats could play next.
fn rematch_choice(
    root: &mut ChildSpawnerCommands,
    fonts: &Fonts,
    lang: Lang,
    connection: &RoomConnection,
    view: &RoomView,
    next_rules: &NextGameRules,
) {
    let (terms, agreed) = rematch_terms(&connection.events, view);
    root.spawn(widgets::text(
        fonts,
        T::RoomNextGame.fill(lang, &[&localized_game_name(terms.game, lang)]),
        ty::BODY,
        palette::INK,
    ));
    for seat in agreed {
        if let Some(s) = view.seats.get(usize::from(seat)) {
            root.spawn(widgets::text(
                fonts,
                T::RoomAgreed.fill(lang, &[&s.name.as_str()]),
                ty::BODY,
                palette::INK_SOFT,
            ));
        }
    }
    root.spawn(widgets::row()).with_children(|row| {
        if !connection.agreed() {
            row.spawn((
                widgets::key_button(fonts, lang, T::RoomRematch, true),
                RematchButton(None),
            ))
            .observe(|_: On<Pointer<Click>>, mut room: ResMut<RoomLink>| {
                if let Some(connection) = room.0.as_mut() {
                    connection.offer_rematch(None);
                }
            });
        }
    });
    // The host (who holds the first member's seats) picks another game.
    let host = view
        .seats
        .iter()
        .enumerate()
        .any(|(i, s)| s.kind == SeatKind::Host && connection.seats.contains(&(i as u8)));
    if !host {
        return;
    }
    root.spawn(widgets::row()).with_children(|row| {
        for next in &next_rules.0 {
            if next.game == terms.game && next.rules == terms.rules {
                continue;
            }
            if !crate::net::table::seat_range(next.game).contains(&view.seats.len()) {
                continue;
            }
            let choice = next.clone();
            row.spawn((
                widgets::button(fonts, localized_game_name(next.game, lang), false),
                RematchButton(Some(next.game)),
            ))
            .observe(move |_: On<Pointer<Click>>, mut room: ResMut<RoomLink>| {
                if let Some(connection) = room.0.as_mut() {
                    connection.offer_rematch(Some(choice.clone()));
                }
            });
        }
    });
}

/// The room screen's もう一回 (none) and the host's next-game buttons (the
/// game); tests press them.
#[derive(Component, Clone, Copy, Debug)]
pub struct RematchButton(pub Option<GameId>);

/// The series' score on the room screen (tests read it).
#[derive(Component)]
pub struct SeriesText;

/// The room's rules on the room screen (tests read it).
#[derive(Component)]
pub struct RoomRulesText;

/// The room code on the room screen (tests read it).
#[derive(Component)]
pub struct RoomCodeText;

/// The join link's QR code on the room screen (tests read it).
#[derive(Component)]
pub struct RoomQrCode;

/// The web page a room's links open: the server's page on its home
/// network where it said one (`serve --lan`), else on the web the page's
/// own address; none on the desktop.
fn room_page(connection: &RoomConnection) -> Option<String> {
    if connection.page.is_some() {
        return connection.page.clone();
    }
    #[cfg(target_arch = "wasm32")]
    if let Some(page) = super::web::page_address() {
        return Some(page);
    }
    None
}

/// The link that opens the room: a web address where there is a page,
/// the command on the desktop.
pub fn room_link(connection: &RoomConnection, code: &RoomCode) -> String {
    match room_page(connection) {
        Some(page) => format!("{page}#room={}", code.as_str()),
        None => format!("yorimichi --join {}", code.display()),
    }
}

/// The link that opens the room to watch it: by its watch code, which a
/// watcher's room is named by; none before the server has said it.
pub fn watch_link(connection: &RoomConnection) -> Option<String> {
    let code = if connection.watching {
        &connection.view.as_ref()?.room
    } else {
        connection.watch_code.as_ref()?
    };
    Some(match room_page(connection) {
        Some(page) => format!("{page}#watch={}", code.as_str()),
        None => format!("yorimichi --watch {}", code.display()),
    })
}

/// A refusal in the player's words.
pub fn refusal_text(refusal: &Refusal, lang: Lang) -> String {
    match refusal {
        Refusal::NoSuchRoom => T::RoomRefusedNoRoom.get(lang).to_string(),
        Refusal::RoomFull => T::RoomRefusedFull.get(lang).to_string(),
        Refusal::TooManyTries => T::RoomRefusedTries.get(lang).to_string(),
        Refusal::StampTooSoon { .. } => T::RoomRefusedStampSoon.get(lang).to_string(),
        Refusal::NoStampsLeft => T::RoomRefusedNoStamps.get(lang).to_string(),
        Refusal::RequestTooSoon { .. } | Refusal::NoRequestsLeft => {
            T::RoomRefusedRequests.get(lang).to_string()
        }
        other => T::RoomRefusedOther.fill(lang, &[other]),
    }
}

fn redraw_lobby(mut commands: Commands, data: LobbyData, roots: Query<Entity, With<LobbyRoot>>) {
    if !(data.room.is_changed()
        || data.draft.is_changed()
        || data.settings.is_changed()
        || data.rules.is_changed()
        || data.next_rules.is_changed())
    {
        return;
    }
    for root in &roots {
        commands.entity(root).despawn();
    }
    spawn_lobby(commands, data);
}

/// Letters typed on a keyboard go into the code; Enter joins.
fn type_code(
    mut keys: MessageReader<bevy::input::keyboard::KeyboardInput>,
    mut draft: ResMut<JoinDraft>,
    room: Res<RoomLink>,
    commands: Commands,
    settings: Res<Settings>,
) {
    use bevy::input::ButtonState;
    use bevy::input::keyboard::Key;
    if room.0.is_some() {
        keys.clear();
        return;
    }
    let mut join = false;
    for key in keys.read() {
        if key.state != ButtonState::Pressed {
            continue;
        }
        match &key.logical_key {
            Key::Character(text) => {
                for letter in text.chars().filter_map(RoomCode::letter) {
                    if draft.code.len() < 8 {
                        draft.code.push(letter);
                    }
                }
            }
            Key::Backspace => {
                draft.code.pop();
            }
            Key::Enter => join = true,
            _ => {}
        }
    }
    if join {
        join_code(draft, commands, settings);
    }
}

fn join_typed(
    _: On<Pointer<Click>>,
    draft: ResMut<JoinDraft>,
    commands: Commands,
    settings: Res<Settings>,
) {
    join_code(draft, commands, settings);
}

/// Joins the room whose code is typed, if it is a whole code.
fn join_code(mut draft: ResMut<JoinDraft>, mut commands: Commands, settings: Res<Settings>) {
    let Ok(code) = RoomCode::parse(&draft.code) else {
        return;
    };
    draft.code.clear();
    commands.insert_resource(join_now(code, &settings));
}

/// Opens the room screen to watch `code` (a watch link or `--watch`).
pub fn watch_now(code: RoomCode, settings: &Settings) -> RoomLink {
    RoomLink(Some(RoomConnection::watch(server_url(settings), code)))
}

/// Opens the room screen to join `code` (a link or `--join`).
pub fn join_now(code: RoomCode, settings: &Settings) -> RoomLink {
    let name = SeatName::new(T::RoomGuestName.get(settings.lang))
        .unwrap_or_else(|_| SeatName::new("?").expect("a plain name"));
    RoomLink(Some(RoomConnection::join(server_url(settings), code, name)))
}

fn leave_to_list(
    _: On<Pointer<Click>>,
    mut room: ResMut<RoomLink>,
    mut store: ResMut<Store>,
    mut next: ResMut<NextState<Screen>>,
) {
    leave_room(&mut room, &mut store);
    next.set(Screen::GameList);
}

fn leave_on_escape(
    keys: Res<ButtonInput<KeyCode>>,
    mut room: ResMut<RoomLink>,
    mut store: ResMut<Store>,
    mut next: ResMut<NextState<Screen>>,
) {
    if keys.just_pressed(KeyCode::Escape) {
        leave_room(&mut room, &mut store);
        next.set(Screen::GameList);
    }
}

/// Sets the chosen game to the room's once the server has said which.
pub(crate) fn follow_room_game(room: Res<RoomLink>, mut chosen: ResMut<ChosenGame>) {
    if let Some(view) = room.0.as_ref().and_then(|c| c.view.as_ref())
        && chosen.0 != view.game
    {
        chosen.0 = view.game;
    }
}

/// A new game of the series began: every screen of the room goes to it
/// (the room screen starts it, as it started the first).
fn follow_next_game(room: Res<RoomLink>, mut next: ResMut<NextState<Screen>>) {
    if let Some(connection) = room.0.as_ref()
        && connection.view.is_some()
        && connection
            .following
            .is_some_and(|f| f < connection.game_number())
    {
        next.set(Screen::Lobby);
    }
}

/// A finished game's room is left for the game list (an unfinished one
/// stays, for 続きから; a finished one stays while its result, 振り返り and
/// the room screen offer the next game).
fn leave_finished_room(mut room: ResMut<RoomLink>, mut store: ResMut<Store>) {
    let over = room.0.as_ref().is_some_and(|c| c.game_over() || c.watching);
    if over {
        leave_room(&mut room, &mut store);
    }
}

/// Whether the play screen's game is the room's latest and the room has
/// not moved on: the games begin one when it is not.
pub fn follows_latest(connection: &RoomConnection) -> bool {
    connection.following == Some(connection.game_number())
}

/// The words for a stamp.
pub fn stamp_text(stamp: Stamp) -> T {
    match stamp {
        Stamp::Hello => T::StampHello,
        Stamp::Thanks => T::StampThanks,
        Stamp::Beaten => T::StampBeaten,
        Stamp::Again => T::StampAgain,
    }
}

/// The greetings a player in a room can send, in a row (under the play
/// screen's buttons, in every game).
pub fn stamp_row(panel: &mut ChildSpawnerCommands, fonts: &Fonts, lang: Lang) {
    panel.spawn(widgets::row()).with_children(|row| {
        for stamp in Stamp::ALL {
            row.spawn((
                widgets::button(fonts, stamp_text(stamp).get(lang), false),
                StampButton(stamp),
            ))
            .observe(move |_: On<Pointer<Click>>, mut room: ResMut<RoomLink>| {
                if let Some(connection) = room.0.as_mut() {
                    connection.send_stamp(stamp);
                }
            });
        }
    });
}

/// A greeting button (tests press them).
#[derive(Component, Clone, Copy, Debug)]
pub struct StampButton(pub Stamp);

/// 待った in a room that allows it: ask to take the last move back, or
/// answer the other side's request (under the greetings).
pub fn takeback_row(panel: &mut ChildSpawnerCommands, fonts: &Fonts, lang: Lang) {
    panel.spawn(widgets::row()).with_children(|row| {
        for (key, button) in [
            (T::TakebackAsk, TakebackButton::Ask),
            (T::TakebackAccept, TakebackButton::Accept),
            (T::TakebackDecline, TakebackButton::Decline),
        ] {
            row.spawn((widgets::key_button(fonts, lang, key, false), button))
                .observe(move |_: On<Pointer<Click>>, mut room: ResMut<RoomLink>| {
                    if let Some(connection) = room.0.as_mut() {
                        match button {
                            TakebackButton::Ask => connection.ask_takeback(),
                            TakebackButton::Accept => connection.answer_takeback(true),
                            TakebackButton::Decline => connection.answer_takeback(false),
                        }
                    }
                });
        }
    });
}

/// Shows the 待った buttons that mean something now: 待ったをたのむ while no
/// request waits, 待ったを受ける and 待ったはだめ while the other side's does
/// (none while one's own waits for its answer).
fn show_takeback_buttons(
    room: Res<RoomLink>,
    mut buttons: Query<(&TakebackButton, &mut Node)>,
    new: Query<(), Added<TakebackButton>>,
) {
    if !room.is_changed() && new.is_empty() {
        return;
    }
    let Some(connection) = room.0.as_ref() else {
        return;
    };
    let asked = connection.takeback_asked();
    let asked_of_me = asked.is_some_and(|seat| !connection.seats.contains(&seat));
    for (button, mut node) in &mut buttons {
        let shown = match button {
            TakebackButton::Ask => asked.is_none(),
            TakebackButton::Accept | TakebackButton::Decline => asked_of_me,
        };
        let display = if shown { Display::Flex } else { Display::None };
        if node.display != display {
            node.display = display;
        }
    }
}

/// A 待った button (tests press them).
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TakebackButton {
    Ask,
    Accept,
    Decline,
}
