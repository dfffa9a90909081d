//! The room server (`yorimichi serve`, built with the `server` feature):
//! WebSockets on axum and tokio, every room kept in SQLite. It is the
//! authority: each move is checked by the game's rules for the seat that
//! sends it before any other device sees it. The rooms themselves are
//! [`crate::net::room`]; this module only carries their messages.

pub mod store;

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::serve::ListenerExt;
use tokio::sync::{mpsc, oneshot};

use crate::net::protocol::{
    ClientMessage, MAX_MESSAGE_BYTES, PROTOCOL_VERSION, Refusal, RoomCode, SeatToken,
    ServerMessage, decode, encode, events_messages,
};
use crate::net::room::{Clocks, Presence, Room};
use store::Store;

/// How the server is started.
#[derive(Clone, Debug)]
pub struct ServeOptions {
    /// The address to listen on (port 0: any free port).
    pub listen: SocketAddr,
    /// The SQLite database the rooms are kept in.
    pub db: PathBuf,
    /// A web build to serve beside the rooms (`make web-build`'s `dist/`).
    pub web: Option<PathBuf>,
    /// Room makings, joins and returns one address may try a minute.
    pub joins_per_minute: u32,
    /// [`run`] prints the address devices connect to (`ws://ADDR/ws`) on
    /// standard output once it listens: with port 0, the port it was given.
    pub print_address: bool,
    /// Listen on every network of the machine (`serve --lan`), not only
    /// on `listen`'s address.
    pub lan: bool,
    /// The address the other devices of the home network reach this
    /// machine at: devices are told the web page there (`http://IP:PORT/`)
    /// for their rooms' join links and QR codes.
    pub announce: Option<IpAddr>,
    /// Takes a 中将棋 room's clock of any length within the protocol's
    /// limits, not only [`crate::net::protocol::CLOCK_CHOICES`] (for
    /// tests, which need a clock of seconds).
    pub any_clock: bool,
}

/// A server running on its own thread (the tests start and stop them).
pub struct Running {
    pub addr: SocketAddr,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Running {
    /// The address devices connect to.
    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    /// Stops the server: every connection is dropped, as in a crash; what
    /// was stored stays.
    pub fn stop(mut self) {
        self.halt();
    }

    fn halt(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.halt();
    }
}

/// Starts a server on a thread of its own and returns once it listens.
pub fn start(options: ServeOptions) -> Result<Running, String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let (ready_tx, ready_rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = oneshot::channel();
    let thread = std::thread::spawn(move || {
        runtime.block_on(async move {
            match bind(&options).await {
                Ok((listener, app, _)) => {
                    let _ = ready_tx.send(listener.local_addr().map_err(|e| e.to_string()));
                    let served = axum::serve(
                        listener.tap_io(no_delay),
                        app.into_make_service_with_connect_info::<SocketAddr>(),
                    )
                    .with_graceful_shutdown(async move {
                        let _ = stop_rx.await;
                    });
                    let _ = served.await;
                }
                Err(why) => {
                    let _ = ready_tx.send(Err(why));
                }
            }
        });
        // Open connections end with the runtime, as if the machine went away.
        runtime.shutdown_timeout(Duration::from_millis(200));
    });
    let addr = ready_rx
        .recv()
        .map_err(|_| "the server thread ended".to_string())??;
    Ok(Running {
        addr,
        stop: Some(stop_tx),
        thread: Some(thread),
    })
}

/// Runs the server until the process is stopped.
pub fn run(options: ServeOptions) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async move {
        let (listener, app, page) = bind(&options).await?;
        let addr = listener.local_addr().map_err(|e| e.to_string())?;
        if options.print_address {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            writeln!(out, "ws://{addr}/ws")
                .and_then(|()| out.flush())
                .map_err(|e| format!("cannot print the address: {e}"))?;
        }
        eprintln!(
            "yorimichi serve: rooms at ws://{addr}/ws, kept in {}",
            options.db.display()
        );
        if let Some(web) = &options.web {
            eprintln!(
                "yorimichi serve: the web build in {} at http://{addr}/",
                web.display()
            );
        }
        if options.lan {
            match &page {
                Some(page) => eprintln!(
                    "yorimichi serve: on the other devices of this home network open {page} (a room's QR code opens the room itself)"
                ),
                None => eprintln!(
                    "yorimichi serve: listening on every network at port {}, but this machine's address on the home network was not found (no network route): open http://<this machine's address>:{}/ on the other devices",
                    addr.port(),
                    addr.port()
                ),
            }
        }
        axum::serve(
            listener.tap_io(no_delay),
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .map_err(|e| e.to_string())
    })
}

/// The listener, the routes, and the page's address on the home network
/// (`--lan` only).
async fn bind(
    options: &ServeOptions,
) -> Result<(tokio::net::TcpListener, Router, Option<String>), String> {
    let listen = if options.lan {
        SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), options.listen.port())
    } else {
        options.listen
    };
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("{listen}: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let page = options.announce.map(|ip| page_address(ip, port));
    let mut store = Store::open(&options.db)?;
    let (rooms, problems) = store.load()?;
    // The clocks are charged up to the last beat of the server before:
    // the time it was down is nobody's.
    let alive = store.alive_ms();
    for problem in problems {
        eprintln!("yorimichi serve: left unread: {problem}");
    }
    let now = now_ms();
    let mut table: HashMap<RoomCode, Entry> = HashMap::new();
    for mut room in rooms {
        room.restarted(now, alive);
        room.draw_lots_with(rand::random);
        table.insert(
            room.code().clone(),
            Entry {
                room,
                outboxes: HashMap::new(),
                review: None,
            },
        );
    }
    // Rooms kept before watch codes were drawn get one now.
    let unwatched: Vec<RoomCode> = table
        .values()
        .filter(|e| e.room.watch_code().is_none())
        .map(|e| e.room.code().clone())
        .collect();
    for code in unwatched {
        let watch = free_code(&table, None);
        if let Some(entry) = table.get_mut(&code) {
            entry.room.set_watch_code(watch);
            let count = entry.room.event_count();
            if let Err(e) = store.save(&entry.room, count + 1) {
                eprintln!("yorimichi serve: room {}: {e}", code.as_str());
            }
        }
    }
    let hub = Arc::new(Hub {
        rooms: Mutex::new(table),
        store: Mutex::new(store),
        tries: Mutex::new(HashMap::new()),
        joins_per_minute: options.joins_per_minute,
        any_clock: options.any_clock,
        next_connection: AtomicU64::new(1),
        page: page.clone(),
    });
    tokio::spawn(keep_time(hub.clone()));
    let mut app = Router::new().route("/ws", get(upgrade)).with_state(hub);
    if let Some(web) = &options.web {
        let files = tower_http::services::ServeDir::new(web)
            .precompressed_br()
            .precompressed_gzip();
        app = app.fallback_service(files);
    }
    Ok((listener, app, page))
}

/// This machine's address on the network its traffic leaves by: a UDP
/// socket "connected" to an outside address sends nothing but is given the
/// local address the system would send from. None without such a route
/// (no network), or where that is only the loopback.
pub fn home_network_address() -> Option<IpAddr> {
    let socket = std::net::UdpSocket::bind((Ipv4Addr::UNSPECIFIED, 0)).ok()?;
    // A documentation address (RFC 5737): never reached, only routed.
    socket.connect((Ipv4Addr::new(192, 0, 2, 1), 9)).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

/// The web page's address at `ip` and `port`, as another device opens it.
pub fn page_address(ip: IpAddr, port: u16) -> String {
    format!("http://{}/", SocketAddr::new(ip, port))
}

/// Sends each message at once. Without it, a message written while the
/// device has not yet acknowledged the one before (a move's echo, then the
/// other side's move) waits for that acknowledgement, which devices delay
/// (docs/rooms.md has what `bench-rooms` measured).
fn no_delay(tcp: &mut tokio::net::TcpStream) {
    if let Err(why) = tcp.set_nodelay(true) {
        eprintln!("yorimichi serve: TCP_NODELAY not set: {why}");
    }
}

/// Milliseconds since the epoch: what deadlines are kept in.
fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

type Outbox = mpsc::UnboundedSender<String>;

/// A message's wire text; none, and a line in the log, for one past the
/// protocol's limit, which no device would read. The limits on what a
/// room keeps and on what a refusal quotes keep every message within it.
fn wire(message: &ServerMessage) -> Option<String> {
    let text = encode(message);
    if text.len() <= MAX_MESSAGE_BYTES {
        return Some(text);
    }
    let head: String = text.chars().take(60).collect();
    eprintln!(
        "yorimichi serve: not sent, {} bytes past the limit: {head}…",
        text.len() - MAX_MESSAGE_BYTES
    );
    None
}

/// Sends `message` on one connection.
fn send_to(outbox: &Outbox, message: &ServerMessage) {
    if let Some(text) = wire(message) {
        let _ = outbox.send(text);
    }
}

/// A connection in a room: a player's device with its token, or a
/// watcher's with none.
struct Conn {
    outbox: Outbox,
    token: Option<SeatToken>,
}

struct Entry {
    room: Room,
    /// The connections in the room, by number.
    outboxes: HashMap<u64, Conn>,
    /// The room's review after a game (memory only): the game's number,
    /// the leading seat and the position it shows.
    review: Option<(usize, u8, u32)>,
}

impl Entry {
    /// Where the room's review of its last game stands, for a device that
    /// comes in; none once another game began.
    fn review_now(&self) -> Option<ServerMessage> {
        let (game, seat, ply) = self.review?;
        (game == self.room.game_number()).then_some(ServerMessage::ReviewAt { seat, ply })
    }

    /// `token`'s device leads the review of the game just ended to the
    /// position after `ply` moves: every device but connection `id` is
    /// told.
    fn lead_review(&mut self, token: &SeatToken, id: u64, ply: u32) -> Result<(), Refusal> {
        let seat = *self
            .room
            .seats_of(token)
            .and_then(|s| s.first())
            .ok_or(Refusal::BadToken)?;
        if !self.room.is_finished() {
            return Err(Refusal::NotOver);
        }
        self.review = Some((self.room.game_number(), seat, ply));
        if let Some(text) = wire(&ServerMessage::ReviewAt { seat, ply }) {
            for (other, conn) in &self.outboxes {
                if *other != id {
                    let _ = conn.outbox.send(text.clone());
                }
            }
        }
        Ok(())
    }

    fn send_all(&self, message: &ServerMessage) {
        let Some(text) = wire(message) else {
            return;
        };
        for conn in self.outboxes.values() {
            let _ = conn.outbox.send(text.clone());
        }
    }

    fn send_watchers(&self) {
        self.send_all(&ServerMessage::Watchers {
            count: self.room.watchers(),
        });
    }

    /// A new game of the series: every device is welcomed to it again
    /// (the seats it now holds, the game and rules), before its events.
    fn welcome_again(&self, page: Option<&str>) {
        for conn in self.outboxes.values() {
            send_to(
                &conn.outbox,
                &welcome(&self.room, conn.token.as_ref(), page),
            );
            for message in absent(&self.room, conn.token.as_ref(), now_ms()) {
                send_to(&conn.outbox, &message);
            }
        }
    }

    /// Sends the events from number `from` on to every device in the
    /// room, then the clock.
    fn send_events(&self, from: u64) {
        self.send_events_only(from);
        self.send_clock();
    }

    fn send_events_only(&self, from: u64) {
        for message in events_from(&self.room, from) {
            self.send_all(&message);
        }
    }

    /// The game's clocks, for a game that has them.
    fn send_clock(&self) {
        for message in clock_messages(&self.room, now_ms()) {
            self.send_all(&message);
        }
    }

    fn send_presence(&self, presence: &[Presence]) {
        self.send_clock();
        for p in presence {
            self.send_all(&ServerMessage::Presence {
                seat: p.seat,
                online: p.online,
                seconds_left: p.seconds_left,
            });
        }
    }
}

/// The game's clock (中将棋's 60 minutes) and the room's clocks, where
/// the game has them.
fn clock_messages(room: &Room, now: u64) -> Vec<ServerMessage> {
    let cutoff = room
        .clock(now)
        .map(|(played_ms, running)| ServerMessage::Clock { played_ms, running });
    let sides = room.clocks(now).map(
        |Clocks {
             left_ms,
             byoyomi_ms,
             running,
         }| ServerMessage::Clocks {
            left_ms,
            byoyomi_ms,
            running,
        },
    );
    cutoff.into_iter().chain(sides).collect()
}

/// How a device is welcomed: a player with its token and seats, a watcher
/// with the room alone.
fn welcome(room: &Room, token: Option<&SeatToken>, page: Option<&str>) -> ServerMessage {
    match token {
        Some(token) => ServerMessage::Welcome {
            view: room.view().clone(),
            token: token.clone(),
            seats: room.seats_of(token).unwrap_or_default().to_vec(),
            page: page.map(str::to_string),
            watch: room.watch_code().cloned(),
        },
        None => ServerMessage::Watching {
            view: room.watcher_view(),
        },
    }
}

/// Who is away, for a device that comes in: every seat but its own whose
/// player is not here.
fn absent(room: &Room, token: Option<&SeatToken>, now: u64) -> Vec<ServerMessage> {
    let seats = token
        .and_then(|t| room.seats_of(t))
        .unwrap_or_default()
        .to_vec();
    (0..room.view().seats.len() as u8)
        .filter(|&s| !seats.contains(&s) && !room.is_online(s))
        .map(|seat| ServerMessage::Presence {
            seat,
            online: false,
            seconds_left: room.seconds_left(seat, now),
        })
        .collect()
}

/// The room's events from number `from` (1: all), as messages within the
/// limit.
fn events_from(room: &Room, from: u64) -> Vec<ServerMessage> {
    let from = from.max(1);
    let events = room.events();
    let start = usize::try_from(from - 1).unwrap_or(usize::MAX);
    match events.get(start..) {
        Some(rest) => events_messages(from, rest),
        None => Vec::new(),
    }
}

struct Hub {
    rooms: Mutex<HashMap<RoomCode, Entry>>,
    store: Mutex<Store>,
    /// Per address: when its minute began and how many tries since.
    tries: Mutex<HashMap<IpAddr, (Instant, u32)>>,
    joins_per_minute: u32,
    any_clock: bool,
    next_connection: AtomicU64,
    /// The web page as other devices on the home network open it.
    page: Option<String>,
}

/// A code no room has, as its code or its watch code, nor `besides`.
fn free_code(rooms: &HashMap<RoomCode, Entry>, besides: Option<&RoomCode>) -> RoomCode {
    loop {
        let code = RoomCode::from_bits(rand::random());
        let taken = rooms.contains_key(&code)
            || rooms.values().any(|e| e.room.watch_code() == Some(&code))
            || besides == Some(&code);
        if !taken {
            return code;
        }
    }
}

/// A lock, even after another thread panicked holding it: every change
/// under these locks is made whole or not at all.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Who a connection is in its room.
#[derive(Clone)]
enum Who {
    /// A player's device, by its token.
    Player(SeatToken),
    /// A device that watches.
    Watcher,
}

/// One connection's place: the room it is in and who it is there.
#[derive(Default)]
struct Place {
    room: Option<(RoomCode, Who)>,
}

impl Hub {
    fn save(&self, room: &Room, from: u64) {
        if let Err(why) = lock(&self.store).save(room, from) {
            eprintln!("yorimichi serve: room {} not saved: {why}", room.code());
        }
    }

    fn allow_try(&self, ip: IpAddr) -> bool {
        let mut tries = lock(&self.tries);
        let now = Instant::now();
        let entry = tries.entry(ip).or_insert((now, 0));
        if now.duration_since(entry.0) >= Duration::from_secs(60) {
            *entry = (now, 0);
        }
        entry.1 += 1;
        entry.1 <= self.joins_per_minute
    }

    /// Handles one message of connection `id`; what it answers goes to
    /// `outbox`, what the room hears to every connection in it.
    fn handle(&self, id: u64, ip: IpAddr, place: &mut Place, outbox: &Outbox, text: &str) {
        let reply = |message: &ServerMessage| send_to(outbox, message);
        let refuse = |refusal: Refusal| {
            let room = place
                .room
                .as_ref()
                .map_or("-".to_string(), |(code, _)| code.to_string());
            eprintln!("yorimichi serve: room {room}, connection {id}: refused: {refusal}");
            reply(&ServerMessage::Refused { refusal });
        };
        let message: ClientMessage = match decode(text) {
            Ok(message) => message,
            Err(refusal) => return refuse(refusal),
        };
        let now = now_ms();
        match message {
            ClientMessage::Create { version, .. }
            | ClientMessage::Join { version, .. }
            | ClientMessage::Resume { version, .. }
            | ClientMessage::Watch { version, .. }
                if version != PROTOCOL_VERSION =>
            {
                refuse(Refusal::Version {
                    server: PROTOCOL_VERSION,
                })
            }
            ClientMessage::Create { .. }
            | ClientMessage::Join { .. }
            | ClientMessage::Resume { .. }
            | ClientMessage::Watch { .. }
                if place.room.is_some() =>
            {
                refuse(Refusal::AlreadyInRoom)
            }
            ClientMessage::Create { .. }
            | ClientMessage::Join { .. }
            | ClientMessage::Resume { .. }
            | ClientMessage::Watch { .. }
                if !self.allow_try(ip) =>
            {
                refuse(Refusal::TooManyTries)
            }
            ClientMessage::Create { plan, .. }
                if plan.clock.is_some_and(|c| !c.is_a_choice()) && !self.any_clock =>
            {
                refuse(Refusal::BadPlan(
                    "a clock is 10 min + 30 s or 30 min + 60 s a move".into(),
                ))
            }
            ClientMessage::Create { plan, .. } => {
                let token = SeatToken::from_bits(rand::random());
                let mut rooms = lock(&self.rooms);
                let code = free_code(&rooms, None);
                match Room::create(code.clone(), plan, token.clone(), rand::random(), now) {
                    Ok(mut room) => {
                        room.draw_lots_with(rand::random);
                        // The new room is not in the map yet: its own
                        // code is ruled out by name.
                        room.set_watch_code(free_code(&rooms, Some(&code)));
                        self.save(&room, 1);
                        let mut entry = Entry {
                            room,
                            outboxes: HashMap::new(),
                            review: None,
                        };
                        self.enter(&mut entry, id, outbox, &token, 0);
                        rooms.insert(code.clone(), entry);
                        place.room = Some((code, Who::Player(token)));
                    }
                    Err(refusal) => refuse(refusal),
                }
            }
            ClientMessage::Join { room, name, .. } => {
                let mut rooms = lock(&self.rooms);
                let Some(entry) = rooms.get_mut(&room) else {
                    return refuse(Refusal::NoSuchRoom);
                };
                let token = SeatToken::from_bits(rand::random());
                let had = entry.room.event_count();
                match entry.room.join(token.clone(), name, now) {
                    Ok(_) => {
                        self.save(&entry.room, had + 1);
                        // The devices already in the room hear the new
                        // events; the new one is sent them all after its
                        // welcome, each once. Everyone hears the clock
                        // once the new seat is here.
                        entry.send_events_only(had + 1);
                        self.enter(entry, id, outbox, &token, 0);
                        place.room = Some((room, Who::Player(token)));
                    }
                    Err(refusal) => refuse(refusal),
                }
            }
            ClientMessage::Resume {
                room, token, have, ..
            } => {
                let mut rooms = lock(&self.rooms);
                let Some(entry) = rooms.get_mut(&room) else {
                    return refuse(Refusal::NoSuchRoom);
                };
                if entry.room.seats_of(&token).is_none() {
                    return refuse(Refusal::BadToken);
                }
                let have = if have > entry.room.event_count() {
                    0
                } else {
                    have
                };
                self.enter(entry, id, outbox, &token, have);
                place.room = Some((room, Who::Player(token)));
            }
            ClientMessage::Watch { room: watch, .. } => {
                let mut rooms = lock(&self.rooms);
                // Only the watch code opens a room to watch (the players'
                // code is refused as unknown, as a wrong code is).
                let Some((room, entry)) = rooms
                    .iter_mut()
                    .find(|(_, e)| e.room.watch_code() == Some(&watch))
                else {
                    return refuse(Refusal::NoSuchRoom);
                };
                let room = room.clone();
                if let Err(refusal) = entry.room.watch() {
                    return refuse(refusal);
                }
                // The whole game so far, then who is away and the clock.
                send_to(outbox, &welcome(&entry.room, None, None));
                for message in events_from(&entry.room, 1) {
                    send_to(outbox, &message);
                }
                for message in absent(&entry.room, None, now) {
                    send_to(outbox, &message);
                }
                for message in clock_messages(&entry.room, now) {
                    send_to(outbox, &message);
                }
                if let Some(review) = entry.review_now() {
                    send_to(outbox, &review);
                }
                entry.outboxes.insert(
                    id,
                    Conn {
                        outbox: outbox.clone(),
                        token: None,
                    },
                );
                entry.send_watchers();
                place.room = Some((room, Who::Watcher));
            }
            ClientMessage::Move { after, text } => self.in_room(place, refuse, |room, token| {
                room.play(token, after, &text, now)
            }),
            ClientMessage::Resign { seat } => {
                self.in_room(place, refuse, |room, token| room.resign(token, seat, now))
            }
            ClientMessage::Stamp { seat, stamp } => self.in_room(place, refuse, |room, token| {
                room.stamp(token, seat, stamp, now)
            }),
            ClientMessage::Rematch { next } => {
                self.in_room(place, refuse, |room, token| room.rematch(token, next, now))
            }
            ClientMessage::Takeback { seat } => self.in_room(place, refuse, |room, token| {
                room.ask_takeback(token, seat, now)
            }),
            ClientMessage::TakebackAnswer { seat, accept } => {
                self.in_room(place, refuse, |room, token| {
                    room.answer_takeback(token, seat, accept, now)
                })
            }
            ClientMessage::Cheer { stamp } => {
                self.as_watcher(place, refuse, |room| room.cheer(stamp, now))
            }
            ClientMessage::ReviewAt { ply } => self.lead_review(place, id, ply, refuse),
        }
    }

    /// A player's device leads the room's review to the position after
    /// `ply` moves: every other device is told (not stored: a review is
    /// only a view of the game kept).
    fn lead_review(&self, place: &Place, id: u64, ply: u32, refuse: impl Fn(Refusal)) {
        self.as_player(place, &refuse, |entry, token| {
            if let Err(refusal) = entry.lead_review(token, id, ply) {
                refuse(refusal);
            }
        });
    }

    /// Runs `act` on the room of a player's connection; a connection in no
    /// room, a watcher's, or one whose room is gone is refused.
    fn as_player(
        &self,
        place: &Place,
        refuse: impl Fn(Refusal),
        act: impl FnOnce(&mut Entry, &SeatToken),
    ) {
        let Some((code, who)) = &place.room else {
            return refuse(Refusal::NotInRoom);
        };
        let Who::Player(token) = who else {
            return refuse(Refusal::Watching);
        };
        let mut rooms = lock(&self.rooms);
        let Some(entry) = rooms.get_mut(code) else {
            return refuse(Refusal::NoSuchRoom);
        };
        act(entry, token);
    }

    /// Connection `id` of `token` joins `entry`: it is welcomed, sent the
    /// events after its first `have`, told who is away and how the game's
    /// clock stands; the others hear its seats are back.
    fn enter(&self, entry: &mut Entry, id: u64, outbox: &Outbox, token: &SeatToken, have: u64) {
        send_to(
            outbox,
            &welcome(&entry.room, Some(token), self.page.as_deref()),
        );
        for message in events_from(&entry.room, have + 1) {
            send_to(outbox, &message);
        }
        let now = now_ms();
        for message in absent(&entry.room, Some(token), now) {
            send_to(outbox, &message);
        }
        let back = entry.room.connected(token, now);
        entry.send_presence(&back);
        // The clock as this device's return left it (it may run again now).
        for message in clock_messages(&entry.room, now) {
            send_to(outbox, &message);
        }
        if entry.room.watchers() > 0 {
            let count = entry.room.watchers();
            send_to(outbox, &ServerMessage::Watchers { count });
        }
        if let Some(review) = entry.review_now() {
            send_to(outbox, &review);
        }
        entry.outboxes.insert(
            id,
            Conn {
                outbox: outbox.clone(),
                token: Some(token.clone()),
            },
        );
        self.save(&entry.room, entry.room.event_count() + 1);
    }

    /// A move, 投了 or stamp from a connection in a room: on success the
    /// new events go to every device.
    fn in_room(
        &self,
        place: &Place,
        refuse: impl Fn(Refusal),
        act: impl FnOnce(&mut Room, &SeatToken) -> Result<(), Refusal>,
    ) {
        self.as_player(place, &refuse, |entry, token| {
            // A clock that ran out before the message came ends the game
            // first: a move after it is too late.
            Hub::keep_time_of(entry, now_ms(), |room, from| self.save(room, from));
            let had = entry.room.event_count();
            let game = entry.room.game_number();
            match act(&mut entry.room, token) {
                Ok(()) => {
                    self.save(&entry.room, had + 1);
                    if entry.room.game_number() != game {
                        entry.welcome_again(self.page.as_deref());
                    }
                    entry.send_events(had + 1);
                }
                Err(refusal) => refuse(refusal),
            }
        });
    }

    /// A stamp from a watching connection.
    fn as_watcher(
        &self,
        place: &Place,
        refuse: impl Fn(Refusal),
        act: impl FnOnce(&mut Room) -> Result<(), Refusal>,
    ) {
        let Some((code, who)) = &place.room else {
            return refuse(Refusal::NotInRoom);
        };
        if !matches!(who, Who::Watcher) {
            // A player greets with its seat's stamps.
            return refuse(Refusal::NotYourSeat);
        }
        let mut rooms = lock(&self.rooms);
        let Some(entry) = rooms.get_mut(code) else {
            return refuse(Refusal::NoSuchRoom);
        };
        let had = entry.room.event_count();
        match act(&mut entry.room) {
            Ok(()) => {
                self.save(&entry.room, had + 1);
                entry.send_events_only(had + 1);
            }
            Err(refusal) => refuse(refusal),
        }
    }

    /// Connection `id` closed.
    fn left(&self, id: u64, place: &Place) {
        let Some((code, who)) = &place.room else {
            return;
        };
        let mut rooms = lock(&self.rooms);
        let Some(entry) = rooms.get_mut(code) else {
            return;
        };
        entry.outboxes.remove(&id);
        let Who::Player(token) = who else {
            entry.room.unwatch();
            entry.send_watchers();
            return;
        };
        let away = entry.room.disconnected(token, now_ms());
        entry.send_presence(&away);
        self.save(&entry.room, entry.room.event_count() + 1);
    }

    /// Ends the games whose absent player's time is up.
    fn tick(&self) {
        let now = now_ms();
        let mut rooms = lock(&self.rooms);
        for entry in rooms.values_mut() {
            Hub::keep_time_of(entry, now, |room, from| self.save(room, from));
        }
    }

    /// Ends `entry`'s game where a deadline has passed at `now` (通信切れ,
    /// 時間切れ, the cutoff), saving with `save` and telling every device.
    fn keep_time_of(entry: &mut Entry, now: u64, save: impl Fn(&Room, u64)) {
        if entry.room.next_deadline().is_some_and(|d| d <= now) {
            let had = entry.room.event_count();
            if entry.room.tick(now) {
                save(&entry.room, had + 1);
                entry.send_events(had + 1);
            }
        }
    }

    /// Notes in the database that the server runs at `now`.
    fn beat(&self, now: u64) {
        if let Err(why) = lock(&self.store).beat(now) {
            eprintln!("yorimichi serve: the beat was not saved: {why}");
        }
    }

    /// Forgets the rooms past their time, on disk and here.
    fn expire(&self) {
        let mut rooms = lock(&self.rooms);
        match lock(&self.store).expire(now_ms()) {
            Ok(codes) => {
                for code in codes {
                    if let Ok(code) = RoomCode::parse(&code) {
                        rooms.remove(&code);
                    }
                }
            }
            Err(why) => eprintln!("yorimichi serve: expiry failed: {why}"),
        }
    }
}

/// Checks the absent players' deadlines five times a second and the rooms'
/// expiry once a minute.
async fn keep_time(hub: Arc<Hub>) {
    let mut beat = tokio::time::interval(Duration::from_millis(200));
    let mut beats = 0u32;
    loop {
        beat.tick().await;
        hub.tick();
        beats = beats.wrapping_add(1);
        if beats % 5 == 1 {
            hub.beat(now_ms());
        }
        if beats % 300 == 1 {
            hub.expire();
        }
    }
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(hub): State<Arc<Hub>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> impl IntoResponse {
    // A message a little over the limit is still read, to be refused with
    // a reason; far over it the connection is closed.
    ws.max_message_size(4 * MAX_MESSAGE_BYTES)
        .on_upgrade(move |socket| connection(hub, socket, peer.ip()))
}

async fn connection(hub: Arc<Hub>, mut socket: WebSocket, ip: IpAddr) {
    let id = hub.next_connection.fetch_add(1, Ordering::Relaxed);
    let (outbox, mut mail) = mpsc::unbounded_channel::<String>();
    let mut place = Place::default();
    // A ping now and then finds a connection whose other end is gone.
    let mut ping = tokio::time::interval(Duration::from_secs(15));
    loop {
        tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => hub.handle(id, ip, &mut place, &outbox, text.as_str()),
                Some(Ok(Message::Binary(_))) => {
                    let refusal = Refusal::Malformed("only text messages are read".into());
                    send_to(&outbox, &ServerMessage::Refused { refusal });
                }
                Some(Ok(Message::Ping(_) | Message::Pong(_))) => {}
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
            },
            Some(text) = mail.recv() => {
                if socket.send(Message::Text(text.into())).await.is_err() {
                    break;
                }
            }
            _ = ping.tick() => {
                if socket.send(Message::Ping(Vec::new().into())).await.is_err() {
                    break;
                }
            }
        }
    }
    hub.left(id, &place);
}
