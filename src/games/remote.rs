//! A two-player game played through a room: the setup screen makes the
//! room, the room screen starts the game when the other player is in, and
//! on the play screen the room's events become moves on the board (shown
//! as the CPU's are) while this device's own moves go to the server. The
//! server is the authority: a move it refuses is taken back here, and a
//! game it ends (投了, or a player away too long) ends here.
//!
//! Room play stands on the play screen: it joins the screen's frame at
//! `PlayStep::Arrive` and `PlayStep::Depart`, and the play screen never
//! names it.

use bevy::prelude::*;

use super::play::{Animating, PlayMove, PlayStep, PlayUi};
use super::resume::{self, chosen};
use super::session::{Match, MatchSetup, Opponent, Playable, Presets, SetupDraft};
use crate::net::protocol::{
    ClientMessage, Event, Refusal, RoomClock, RoomPlan, SeatKind, SeatName, SeatPlan,
};
use crate::net::room::game_ply;
use crate::net::table::side_of;
use crate::rules::game::{EndReason, Outcome};
use crate::shell::Screen;
use crate::shell::i18n::{Lang, T};
use crate::shell::rooms::{
    LinkState, NextGameRules, RoomConnection, RoomLink, RoomRulesLine, RoomTicket, TICKET_KEY,
    follows_latest, refusal_text, server_url, stamp_text,
};
use crate::shell::save::Store;
use crate::shell::settings::Settings;

pub fn plugin<G: Playable>(app: &mut App) {
    app.init_resource::<RemoteSync<G>>()
        .add_systems(
            Update,
            (describe_room_rules::<G>, begin_remote_match::<G>)
                .run_if(in_state(Screen::Lobby))
                .run_if(chosen(G::ID)),
        )
        .add_systems(
            OnEnter(Screen::Play),
            follow_from_start::<G>.run_if(chosen(G::ID)),
        )
        .add_systems(
            Update,
            offer_next_rules::<G>.run_if(in_state(Screen::Lobby)),
        )
        .add_systems(
            Update,
            (
                sync_remote::<G>.in_set(PlayStep::Arrive),
                send_remote::<G>.in_set(PlayStep::Depart),
            )
                .run_if(chosen(G::ID))
                .run_if(resource_exists::<Match<G>>),
        );
}

/// How far the play screen has followed the room.
#[derive(Resource)]
pub struct RemoteSync<G: Playable> {
    /// Events of the room taken in so far.
    applied: usize,
    /// The ply of this device's move sent and not yet confirmed.
    pending: Option<usize>,
    resign_sent: bool,
    /// The connection line last shown.
    shown: Option<String>,
    /// The number of watchers last told.
    watchers: u32,
    game: std::marker::PhantomData<G>,
}

impl<G: Playable> Default for RemoteSync<G> {
    fn default() -> Self {
        RemoteSync {
            applied: 0,
            pending: None,
            resign_sent: false,
            shown: None,
            watchers: 0,
            game: std::marker::PhantomData,
        }
    }
}

/// The room a setup makes: the player's seat on the side chosen (drawn
/// already where the player asked for a draw), the other for a remote
/// player.
pub fn room_plan<G: Playable>(
    setup: &MatchSetup<G::Rules>,
    grace_seconds: u32,
    takebacks: bool,
    clock: Option<RoomClock>,
    lang: Lang,
) -> Result<RoomPlan, String> {
    let rules = ron::to_string(&setup.rules).map_err(|e| e.to_string())?;
    let host = SeatPlan {
        kind: SeatKind::Host,
        name: SeatName::new(T::RoomHostName.get(lang))?,
    };
    let guest = SeatPlan {
        kind: SeatKind::Remote,
        name: SeatName::new(T::RoomGuestName.get(lang))?,
    };
    let seats = if setup.human_side.index() == 0 {
        vec![host, guest]
    } else {
        vec![guest, host]
    };
    Ok(RoomPlan {
        game: G::ID,
        rules,
        seats,
        draw_seats: false,
        grace_seconds,
        takebacks,
        clock,
    })
}

/// The setup screen's make-a-room button: opens the room screen, which shows the
/// code while the server makes the room.
pub fn make_room<G: Playable>(
    draft: &SetupDraft<G>,
    presets: &Presets<G>,
    settings: &Settings,
    commands: &mut Commands,
    next: &mut NextState<Screen>,
) {
    let setup = draft.to_setup(&presets.0, &mut rand::rng());
    match room_plan::<G>(
        &setup,
        draft.grace_seconds,
        draft.room_takebacks,
        draft.room_clock,
        settings.lang,
    ) {
        Ok(plan) => {
            let connection = RoomConnection::create(server_url(settings), plan);
            commands.insert_resource(RoomLink(Some(connection)));
            next.set(Screen::Lobby);
        }
        Err(e) => error!("cannot make a room for {}: {e}", G::ID.id()),
    }
}

/// The room's rules in words for the room screen: the preset they are,
/// or 自分で決める.
fn describe_room_rules<G: Playable>(
    room: Res<RoomLink>,
    presets: Res<Presets<G>>,
    settings: Res<Settings>,
    mut line: ResMut<RoomRulesLine>,
) {
    // The line changes only with the room or the language.
    if !room.is_changed() && !settings.is_changed() {
        return;
    }
    let Some(view) = room.0.as_ref().and_then(|c| c.view.as_ref()) else {
        return;
    };
    let Ok(rules) = ron::from_str::<G::Rules>(&view.rules) else {
        return;
    };
    let lang = settings.lang;
    let name = presets
        .0
        .presets
        .iter()
        .find(|p| p.rules == rules)
        .map_or_else(
            || T::CustomRules.get(lang).to_string(),
            |p| lang.text(&p.name).to_string(),
        );
    RoomRulesLine::set(&mut line, &view.room, name);
}

/// This game's rules as the setup screen last chose them, for the host's
/// choice of a room's next game.
fn offer_next_rules<G: Playable>(
    draft: Res<SetupDraft<G>>,
    presets: Res<Presets<G>>,
    mut next: ResMut<NextGameRules>,
) {
    if !draft.is_changed() && !next.is_added() && next.0.iter().any(|n| n.game == G::ID) {
        return;
    }
    let setup = draft.to_setup(&presets.0, &mut rand::rng());
    if let Ok(text) = ron::to_string(&setup.rules) {
        NextGameRules::set(&mut next, G::ID, text);
    }
}

/// Once everyone is in, the game begins on this device under the room's
/// rules, with this device's seat at the bottom (a watcher's: 先手's); and
/// so does each next game of the series.
fn begin_remote_match<G: Playable>(
    mut room: ResMut<RoomLink>,
    draft: Res<SetupDraft<G>>,
    mut sync: ResMut<RemoteSync<G>>,
    mut store: ResMut<Store>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(connection) = room.bypass_change_detection().0.as_mut() else {
        return;
    };
    let Some(view) = connection.view.as_ref().filter(|v| v.game == G::ID) else {
        return;
    };
    // A game this device already plays (its result shown, the next not
    // yet agreed) is not begun again.
    if !connection.is_started() || follows_latest(connection) {
        return;
    }
    let watching = connection.watching;
    let seat = if watching {
        Some(0)
    } else {
        connection.seats.first().copied()
    };
    let Some(side) = seat.and_then(side_of) else {
        return;
    };
    let rules: G::Rules = match ron::from_str(&view.rules) {
        Ok(rules) => rules,
        Err(e) => {
            error!("the room's rules cannot be read: {e}");
            return;
        }
    };
    // In a room the play screen's 待った asks the other side.
    let setup = MatchSetup {
        undo_allowed: view.takebacks && !watching,
        marks: draft.marks,
        watching,
        ..MatchSetup::new(Opponent::Remote, side, "room", rules)
    };
    match Match::<G>::new(setup) {
        Ok(m) => {
            *sync = RemoteSync::default();
            // A watcher has nothing to come back to.
            if !watching {
                resume::keep(&mut store, &m);
            }
            connection.following = Some(connection.game_number());
            commands.insert_resource(m);
            next.set(Screen::Play);
        }
        Err(e) => error!("cannot start the room's game: {e}"),
    }
}

/// The play screen (opened anew, or from 続きから after the app was
/// closed) reads the room from its first event: the moves already on the
/// board are passed over, those made meanwhile are played.
fn follow_from_start<G: Playable>(
    m: Option<Res<Match<G>>>,
    mut sync: ResMut<RemoteSync<G>>,
    mut room: ResMut<RoomLink>,
    store: Res<Store>,
) {
    *sync = RemoteSync::default();
    // Back from 続きから after the app was closed: the room again.
    if m.is_some_and(|m| m.setup.opponent == Opponent::Remote)
        && room.0.is_none()
        && let Ok(ticket) = store.get::<RoomTicket>(TICKET_KEY)
    {
        room.0 = Some(RoomConnection::resume(ticket));
    }
}

/// The room's events on the board: the other player's moves (one at a
/// time, shown as they are made), 待った taken back, the end, greetings
/// and requests; a refused move of this device's is taken back. Only the
/// series' latest game is read.
#[allow(clippy::too_many_arguments)]
fn sync_remote<G: Playable>(
    mut m: ResMut<Match<G>>,
    mut room: ResMut<RoomLink>,
    mut sync: ResMut<RemoteSync<G>>,
    mut ui: ResMut<PlayUi<G>>,
    mut store: ResMut<Store>,
    settings: Res<Settings>,
    animating: Animating,
    mut moves: MessageWriter<PlayMove<G>>,
) {
    if m.setup.opponent != Opponent::Remote {
        return;
    }
    let lang = settings.lang;
    let Some(connection) = room.bypass_change_detection().0.as_mut() else {
        return;
    };
    if connection.view.is_none() {
        return;
    }
    // Back from 続きから: the game on the board is the room's latest.
    let latest = connection.game_number();
    if *connection.following.get_or_insert(latest) != latest {
        // The room moved on to its next game: the room screen starts it.
        return;
    }
    for refusal in std::mem::take(&mut connection.refusals) {
        let our_move = sync.pending.filter(|&ply| m.record.ply() == ply + 1);
        if let Some(ply) = our_move
            && matches!(
                refusal,
                Refusal::Illegal(_)
                    | Refusal::OutOfStep { .. }
                    | Refusal::NotYourSeat
                    | Refusal::Finished
                    | Refusal::TakebackPending
            )
        {
            m.record.undo();
            ui.record_replaced(m.record.moves().last().copied());
            sync.pending = None;
            debug!("move {} refused", ply + 1);
            ui.message = Some(T::RoomMoveRefused.fill(lang, &[&refusal_text(&refusal, lang)]));
        } else {
            ui.message = Some(refusal_text(&refusal, lang));
        }
    }
    let start = connection.game_start();
    let name_of = |connection: &RoomConnection, seat: u8| {
        connection
            .view
            .as_ref()
            .and_then(|v| v.seats.get(usize::from(seat)))
            .map_or_else(|| "?".to_string(), |s| s.name.as_str().to_string())
    };
    while start + sync.applied < connection.events.len() {
        if !animating.is_empty() || ui.is_settling() {
            break;
        }
        let game = &connection.events[start..];
        let event = game[sync.applied].clone();
        let mine = |seat: u8| connection.seats.contains(&seat);
        match event {
            Event::Moved { seat: _, text } => {
                let before = game_ply(&game[..sync.applied]);
                if before < m.record.ply() {
                    // This device's own move, already on the board.
                    let mv = m.record.moves()[before];
                    let pos = &m.record.positions()[before];
                    if m.game.notation(pos, mv) == text {
                        sync.applied += 1;
                        if sync.pending == Some(before) {
                            sync.pending = None;
                        }
                        continue;
                    }
                    // The room's game differs: the room's stands.
                    while m.record.ply() > before {
                        m.record.undo();
                    }
                    ui.record_replaced(m.record.moves().last().copied());
                    sync.pending = None;
                }
                let legal = m.record.legal_moves(&m.game);
                sync.applied += 1;
                match m.game.read_notation(m.record.current(), &legal, &text) {
                    Some(mv) => {
                        moves.write(PlayMove(mv));
                        // One move a frame: the next is read on the board
                        // this one makes.
                        break;
                    }
                    None => {
                        warn!("the room's move {text} is not legal here");
                        ui.message = Some(T::RoomRefusedOther.fill(lang, &[&text]));
                    }
                }
            }
            Event::TakenBack { .. } => {
                sync.applied += 1;
                // The board as the room has it after the 待った.
                let target = game_ply(&game[..sync.applied]);
                while m.record.ply() > target {
                    m.record.undo();
                }
                ui.record_replaced(m.record.moves().last().copied());
                ui.clear_selection();
                sync.pending = None;
                ui.message = Some(T::TakebackDone.get(lang).to_string());
                if !m.setup.watching {
                    resume::keep(&mut store, &*m);
                }
            }
            Event::TakebackAsked { seat } => {
                sync.applied += 1;
                ui.message = Some(if mine(seat) {
                    T::TakebackWaiting.get(lang).to_string()
                } else {
                    T::TakebackAsked.fill(lang, &[&name_of(connection, seat)])
                });
            }
            Event::TakebackDeclined { seat, .. } => {
                sync.applied += 1;
                if !mine(seat) {
                    ui.message = Some(T::TakebackRefused.get(lang).to_string());
                }
            }
            Event::Ended { winner, reason } => {
                sync.applied += 1;
                if m.record.outcome(&m.game).is_none() {
                    let outcome = match winner.and_then(side_of) {
                        Some(side) => Outcome::win(side, reason),
                        None => Outcome::draw(reason),
                    };
                    m.record.end(outcome);
                    ui.clear_selection();
                    ui.pending_sync = true;
                    resume::forget(&mut store, &*m);
                }
            }
            Event::Stamp { seat, stamp } => {
                sync.applied += 1;
                if !mine(seat) {
                    ui.message = Some(T::RoomStampFrom.fill(
                        lang,
                        &[&name_of(connection, seat), &stamp_text(stamp).get(lang)],
                    ));
                }
            }
            Event::Cheered { stamp } => {
                sync.applied += 1;
                ui.message = Some(T::RoomCheerFrom.fill(lang, &[&stamp_text(stamp).get(lang)]));
            }
            Event::Rematch { seats, .. } => {
                sync.applied += 1;
                if let Some(&seat) = seats.first()
                    && !mine(seat)
                {
                    let name = name_of(connection, seat);
                    ui.message = Some(T::RoomRematchOffered.fill(lang, &[&name]));
                }
            }
            Event::Seated { .. }
            | Event::Started
            | Event::Resigned { .. }
            | Event::NewGame { .. } => {
                sync.applied += 1;
            }
        }
    }
    if connection.watchers != sync.watchers {
        sync.watchers = connection.watchers;
        ui.message = Some(T::RoomWatchers.fill(lang, &[&connection.watchers]));
    }
    show_connection(connection, &mut sync, &mut ui, lang);
}

/// Says on the play screen when the connection is down or the other
/// player is away (with the seconds left in 中将棋), and when all is well
/// again.
fn show_connection<G: Playable>(
    connection: &RoomConnection,
    sync: &mut RemoteSync<G>,
    ui: &mut PlayUi<G>,
    lang: Lang,
) {
    let away = connection
        .away
        .iter()
        .find(|(seat, _)| !connection.seats.contains(seat));
    let line = if connection.state != LinkState::Open {
        Some(T::RoomReconnecting.get(lang).to_string())
    } else if let Some((_, deadline)) = away {
        Some(match deadline {
            Some(at) => {
                let left = (*at - connection_now(connection)).max(0.0).ceil() as u32;
                T::OpponentAwayCountdown.fill(lang, &[&left])
            }
            None => T::OpponentAway.get(lang).to_string(),
        })
    } else {
        None
    };
    if line != sync.shown {
        match &line {
            Some(text) => ui.message = Some(text.clone()),
            None if sync.shown.is_some() => {
                ui.message = Some(T::OpponentBack.get(lang).to_string())
            }
            None => {}
        }
        sync.shown = line;
    }
}

/// The app time the connection last read, for countdowns.
fn connection_now(connection: &RoomConnection) -> f64 {
    connection.now
}

/// This device's moves and 投了 to the server, once the room's events are
/// all taken in. A watcher sends none.
fn send_remote<G: Playable>(
    m: Res<Match<G>>,
    mut room: ResMut<RoomLink>,
    mut sync: ResMut<RemoteSync<G>>,
) {
    if m.setup.opponent != Opponent::Remote || m.setup.watching {
        return;
    }
    let Some(connection) = room.bypass_change_detection().0.as_mut() else {
        return;
    };
    if connection
        .following
        .is_some_and(|f| f != connection.game_number())
    {
        return;
    }
    // 投了 goes at once, whatever the board is still showing: the server
    // refuses it only if the game is already over.
    let ended_here = m
        .record
        .outcome(&m.game)
        .filter(|o| o.reason == EndReason::Resignation && o.winner != Some(m.setup.human_side));
    let ended_there = connection.game_over();
    if ended_here.is_some()
        && !ended_there
        && !sync.resign_sent
        && let Some(&seat) = connection.seats.first()
        && connection.send(&ClientMessage::Resign { seat })
    {
        sync.resign_sent = true;
    }
    let game = connection.game_events();
    if sync.applied != game.len() {
        return;
    }
    let moved = game_ply(game);
    let ply = m.record.ply();
    if ply == moved + 1 && sync.pending != Some(moved) {
        let pos = &m.record.positions()[moved];
        let mv = m.record.moves()[moved];
        if m.game.side_to_move(pos) == m.setup.human_side {
            let message = ClientMessage::Move {
                after: connection.events.len() as u64,
                text: m.game.notation(pos, mv),
            };
            if connection.send(&message) {
                sync.pending = Some(moved);
            }
        }
    }
}
