//! まわり将棋 played through a room: the setup's seats (a person at this
//! device, the computer, or someone far away) become the room's plan; when
//! everyone is in, every device starts the same race, with its own seats
//! as people and every other seat thrown by the room. A person's drag goes
//! to the server as a gesture; the server adds the seed and sends the
//! throw to every device, which simulates the same fall and plays it.
//!
//! The room stands on the race's play: it reads the throws asked for here
//! and sends them, writes the room's throws as `RoomThrow`s, and sets the
//! panel's `RoomNote`; the play screen never names it.

use bevy::prelude::*;

use super::panel::RoomNote;
use super::scene::{Phase, Shown};
use super::session::{COLOUR_NAMES, MawariDraft, MawariMatch, Seat, TurnOrder};
use super::throw::{RoomThrow, ThrowRequest};
use crate::games::resume;
use crate::net::protocol::{
    ClientMessage, Event, RoomPlan, RoomView, SeatKind, SeatName, SeatPlan,
};
use crate::net::table::{MawariTableRules, hand_text, read_toss};
use crate::rules::data::Strength;
use crate::rules::mawari::dice::Toss;
use crate::rules::mawari::levels::{presets, start_text};
use crate::shell::Screen;
use crate::shell::i18n::{Lang, T};
use crate::shell::rooms::{
    LinkState, NextGameRules, RoomConnection, RoomLink, RoomRulesLine, RoomTicket, TICKET_KEY,
    follows_latest, refusal_text, server_url, stamp_text,
};
use crate::shell::save::Store;
use crate::shell::settings::Settings;

/// The room's number of events when this device last sent a throw: no
/// second throw goes until the room has answered.
#[derive(Resource, Default)]
pub(crate) struct ThrowSent(Option<usize>);

/// The name a seat goes by in the room: as typed, else by its colour (never
/// あなた: every device shows it).
fn plan_name(draft: &MawariDraft, i: usize, lang: Lang) -> String {
    let typed = draft.names.get(i).map_or("", |n| n.trim());
    if !typed.is_empty() {
        return typed.to_string();
    }
    let colour = draft.colours.get(i).map_or(i, |&c| usize::from(c));
    let colour = COLOUR_NAMES[colour.min(COLOUR_NAMES.len() - 1)].get(lang);
    match draft.seats.get(i) {
        Some(Seat::Cpu) => T::MawariCpuName.fill(lang, &[&colour]),
        _ => T::MawariPlayerName.fill(lang, &[&colour]),
    }
}

/// The room a setup makes: its seats as chosen (the people at this device
/// are the host's), its rules and the choices every device must share,
/// from the start or from `position` (a race's text; its number of pieces
/// sets the seats, added seats the CPU's, as in a game on one device).
pub(super) fn room_plan(
    draft: &MawariDraft,
    position: Option<&str>,
    lang: Lang,
) -> Result<RoomPlan, String> {
    let mut draft = draft.clone();
    let mut start = None;
    let mut turn_given = false;
    if let Some(text) = position {
        let (rules, race) = start_text(text)?;
        draft.seats.resize(race.pieces.len(), Seat::Cpu);
        if let Some(rules) = rules {
            draft.rules = rules;
        }
        turn_given = text.split_whitespace().any(|w| w.starts_with("turn="));
        start = Some(race.write());
    }
    let draft = &draft;
    let players = draft.seats.len();
    let rules = MawariTableRules {
        players,
        rules: draft.rules,
        draw_order: draft.order == TurnOrder::Draw && !turn_given,
        places: draft.places,
        colours: draft.colours.iter().take(players).copied().collect(),
        start,
        first: 0,
    };
    let seats = draft
        .seats
        .iter()
        .enumerate()
        .map(|(i, seat)| {
            let kind = match seat {
                Seat::Person => SeatKind::Host,
                Seat::Cpu => SeatKind::Cpu(Strength::Normal),
                Seat::Remote => SeatKind::Remote,
            };
            Ok(SeatPlan {
                kind,
                name: SeatName::new(&plan_name(draft, i, lang))?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(RoomPlan {
        game: crate::rules::data::GameId::Mawari,
        rules: ron::to_string(&rules).map_err(|e| e.to_string())?,
        seats,
        draw_seats: false,
        grace_seconds: crate::games::session::GRACE_SECONDS,
        takebacks: false,
        clock: None,
    })
}

/// Makes the room of the draft and opens the room screen.
pub(super) fn make_room(
    draft: &MawariDraft,
    position: Option<&str>,
    settings: &Settings,
    commands: &mut Commands,
    next: &mut NextState<Screen>,
) -> Result<(), String> {
    let plan = room_plan(draft, position, settings.lang)?;
    let connection = RoomConnection::create(server_url(settings), plan);
    commands.insert_resource(RoomLink(Some(connection)));
    next.set(Screen::Lobby);
    Ok(())
}

/// The race a room's view starts on this device: the seats `mine` are
/// people here, every other seat is thrown by the room.
pub fn room_match(view: &RoomView, mine: &[u8], quick: bool) -> Result<MawariMatch, String> {
    let rules: MawariTableRules =
        ron::from_str(&view.rules).map_err(|e| format!("the room's rules: {e}"))?;
    if view.seats.len() != rules.players {
        return Err("the room's seats do not match its rules".to_string());
    }
    let seats = (0..rules.players)
        .map(|i| {
            if mine.contains(&(i as u8)) {
                Seat::Person
            } else {
                Seat::Remote
            }
        })
        .collect();
    let mut m = MawariMatch::new(seats, rules.rules, quick, None, rand::random())?;
    m.race = rules.race()?;
    m.draw = rules.draw()?;
    m.names = view
        .seats
        .iter()
        .map(|s| s.name.as_str().to_string())
        .collect();
    m.colours = rules.colours;
    m.room_events = Some(0);
    m.room_code = Some(view.room.clone());
    Ok(m)
}

/// The room's rules in words for the room screen: the preset they are (or
/// 自分で決める), the turn order drawn, and who sits where.
pub(super) fn describe_room_rules(
    room: Res<RoomLink>,
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
    let Ok(rules) = ron::from_str::<MawariTableRules>(&view.rules) else {
        return;
    };
    let lang = settings.lang;
    let mut words = vec![
        presets()
            .ok()
            .and_then(|p| p.presets.into_iter().find(|p| p.rules == rules.rules))
            .map_or_else(
                || T::CustomRules.get(lang).to_string(),
                |p| lang.text(&p.name).to_string(),
            ),
    ];
    if rules.draw_order {
        words.push(T::MawariOrderDraw.get(lang).to_string());
    }
    if rules.places {
        words.push(T::MawariPlacesOption.get(lang).to_string());
    }
    RoomRulesLine::set(&mut line, &view.room, words.join(" · "));
}

/// まわり将棋 from the corners as the setup last chose its rules, for the
/// host's choice of a room's next game: for the room's seats, a colour
/// each (the server checks the number).
pub(super) fn offer_next_rules(
    room: Res<RoomLink>,
    draft: Option<Res<MawariDraft>>,
    mut next: ResMut<NextGameRules>,
) {
    let Some(seats) = room
        .0
        .as_ref()
        .and_then(|c| c.view.as_ref())
        .map(|v| v.seats.len())
    else {
        return;
    };
    let Some(draft) = draft else { return };
    let rules = MawariTableRules {
        players: seats,
        rules: draft.rules,
        draw_order: draft.order == TurnOrder::Draw,
        places: draft.places,
        colours: (0..seats as u8).collect(),
        start: None,
        first: 0,
    };
    if let Ok(text) = ron::to_string(&rules) {
        NextGameRules::set(&mut next, crate::rules::data::GameId::Mawari, text);
    }
}

/// Once everyone is in, the race begins here too; and so does each next
/// game of the series.
pub(super) fn begin_room_match(
    mut room: ResMut<RoomLink>,
    draft: Option<Res<MawariDraft>>,
    mut store: ResMut<Store>,
    mut commands: Commands,
    mut next: ResMut<NextState<Screen>>,
) {
    let Some(connection) = room.bypass_change_detection().0.as_mut() else {
        return;
    };
    let Some(view) = connection.view.as_ref() else {
        return;
    };
    if view.game != crate::rules::data::GameId::Mawari
        || !connection.is_started()
        || follows_latest(connection)
    {
        return;
    }
    let start = connection.game_start();
    // The room's link opened again on a device that has this race: it
    // goes on from the throws already played here.
    let kept = resume::load::<MawariMatch>(&mut store).ok().filter(|m| {
        m.room_code.as_ref() == Some(&view.room)
            && m.room_events
                .is_some_and(|n| start <= n && n <= connection.events.len())
    });
    let quick = draft.is_some_and(|d| d.quick);
    let made = match kept {
        Some(m) => Ok(m),
        None => room_match(view, &connection.seats, quick).map(|mut m| {
            m.room_events = Some(start);
            m
        }),
    };
    match made {
        Ok(m) => {
            if !connection.watching {
                resume::keep(&mut store, &m);
            }
            connection.following = Some(connection.game_number());
            commands.insert_resource(m);
            next.set(Screen::Play);
        }
        Err(e) => error!("cannot start the room's race: {e}"),
    }
}

/// The play screen opened from 続きから after the app was closed: the
/// room again, from the ticket.
pub(super) fn reopen_room(
    m: Option<Res<MawariMatch>>,
    mut room: ResMut<RoomLink>,
    mut sent: ResMut<ThrowSent>,
    mut note: ResMut<RoomNote>,
    store: Res<Store>,
) {
    sent.0 = None;
    note.0 = None;
    if m.is_some_and(|m| m.room_events.is_some())
        && room.0.is_none()
        && let Ok(ticket) = store.get::<RoomTicket>(TICKET_KEY)
    {
        room.0 = Some(RoomConnection::resume(ticket));
    }
}

/// Sends this device's throw to the room: the gesture without a seed,
/// once every event of the room is taken in, and once.
fn send_throw(m: &MawariMatch, connection: &mut RoomConnection, toss: &Toss, sent: &mut ThrowSent) {
    let count = connection.events.len();
    if m.room_events != Some(count) || sent.0 == Some(count) {
        return;
    }
    let message = ClientMessage::Move {
        after: count as u64,
        text: hand_text(toss.dir_x, toss.dir_y, toss.speed),
    };
    if connection.send(&message) {
        sent.0 = Some(count);
    }
}

/// The room's events on this device, one throw at a time and only while
/// the board waits (a turn that passes is passed here first, as the
/// server did): the throws to play, greetings, refusals, and a line about
/// the connection and who is away.
#[allow(clippy::too_many_arguments)]
pub(super) fn take_room_events(
    mut m: ResMut<MawariMatch>,
    mut room: ResMut<RoomLink>,
    phase: Res<Phase>,
    mut shown: ResMut<Shown>,
    mut sent: ResMut<ThrowSent>,
    mut note: ResMut<RoomNote>,
    settings: Res<Settings>,
    mut throws: MessageWriter<RoomThrow>,
) {
    let Some(taken) = m.room_events else { return };
    let lang = settings.lang;
    let Some(connection) = room.bypass_change_detection().0.as_mut() else {
        return;
    };
    if connection.view.is_none() {
        return;
    }
    // Back from 続きから: the race on the board is the room's latest.
    let latest = connection.game_number();
    if *connection.following.get_or_insert(latest) != latest {
        // The room moved on to its next game: the room screen starts it.
        return;
    }
    for refusal in std::mem::take(&mut connection.refusals) {
        if refusal.is_of_a_stamp() || refusal.is_of_a_request() {
            // A greeting refused: a throw on its way still stands.
            shown.banner = Some((refusal_text(&refusal, lang), 3.0));
            continue;
        }
        sent.0 = None;
        let text = T::RoomMoveRefused.fill(lang, &[&refusal_text(&refusal, lang)]);
        shown.banner = Some((text, 3.0));
    }
    let mut taken = taken;
    while taken < connection.events.len() {
        let waiting = phase.is_waiting() && (m.drawing() || !m.race.sits_out());
        if !waiting && !m.race.is_over() {
            break;
        }
        match &connection.events[taken] {
            Event::Moved { seat, text } => {
                if m.thrower() != Some(usize::from(*seat)) {
                    warn!("the room's throw by seat {seat} is not its turn here");
                    shown.banner = Some((T::RoomRefusedOther.fill(lang, &[text]), 3.0));
                    taken += 1;
                    continue;
                }
                match read_toss(text) {
                    Some(toss) => {
                        taken += 1;
                        throws.write(RoomThrow(toss));
                        // One throw at a time: the next waits for the
                        // board.
                        break;
                    }
                    None => {
                        warn!("the room's throw {text} cannot be read");
                        shown.banner = Some((T::RoomRefusedOther.fill(lang, &[text]), 3.0));
                        taken += 1;
                    }
                }
            }
            Event::Stamp { seat, stamp } => {
                if !connection.seats.contains(seat) {
                    let from = m.name(usize::from(*seat), lang);
                    shown.banner = Some((
                        T::RoomStampFrom.fill(lang, &[&from, &stamp_text(*stamp).get(lang)]),
                        2.5,
                    ));
                }
                taken += 1;
            }
            Event::Ended { winner, .. } => {
                if m.race.winner.map(|w| w as u8) != *winner {
                    warn!("the room's race ended otherwise than here");
                }
                taken += 1;
            }
            Event::Cheered { stamp } => {
                shown.banner = Some((
                    T::RoomCheerFrom.fill(lang, &[&stamp_text(*stamp).get(lang)]),
                    2.5,
                ));
                taken += 1;
            }
            Event::Rematch { seats, .. } => {
                if let Some(&seat) = seats.first()
                    && !connection.seats.contains(&seat)
                {
                    let from = m.name(usize::from(seat), lang);
                    shown.banner = Some((T::RoomRematchOffered.fill(lang, &[&from]), 3.0));
                }
                taken += 1;
            }
            Event::Seated { .. }
            | Event::Started
            | Event::Resigned { .. }
            | Event::NewGame { .. }
            | Event::TakebackAsked { .. }
            | Event::TakebackDeclined { .. }
            | Event::TakenBack { .. } => taken += 1,
        }
    }
    if m.room_events != Some(taken) {
        m.room_events = Some(taken);
    }
    let away: Vec<String> = connection
        .away
        .iter()
        .filter(|(seat, _)| !connection.seats.contains(seat))
        .map(|(seat, _)| m.name(usize::from(*seat), lang))
        .collect();
    let line = if connection.state != LinkState::Open {
        Some(T::RoomReconnecting.get(lang).to_string())
    } else if !away.is_empty() {
        Some(T::MawariRoomAway.fill(lang, &[&away.join("・")]))
    } else {
        None
    };
    if note.0 != line {
        note.0 = line;
    }
}

/// In a room's race the throws asked for here go to the room rather than
/// being played at once (`throw::start_throw` leaves them): each is sent
/// when a person here is to throw and no throw of the room is arriving.
/// Runs after the room's events are taken in and before the throws are
/// played, so that it sees the room's throws of this frame.
pub(super) fn send_throws(
    mut requests: MessageReader<ThrowRequest>,
    mut from_room: MessageReader<RoomThrow>,
    m: Res<MawariMatch>,
    mut room: ResMut<RoomLink>,
    mut sent: ResMut<ThrowSent>,
) {
    // A gesture made before the room's throw now arriving was made for a
    // turn that throw has taken (a second tap while the first was on its
    // way): it is not sent.
    let room_throw_arriving = !from_room.is_empty();
    from_room.clear();
    if m.room_events.is_none() {
        requests.clear();
        return;
    }
    for request in requests.read() {
        if let Some(connection) = room.bypass_change_detection().0.as_mut()
            && !room_throw_arriving
            && m.person_to_throw()
        {
            send_throw(&m, connection, &request.0, &mut sent);
        }
    }
}
