//! What a device and the room server say to each other: one RON text per
//! WebSocket message, read by both sides from these types. A message is
//! small (at most [`MAX_MESSAGE_BYTES`]); anything longer, unreadable or
//! out of place is refused with a [`Refusal`] and changes nothing.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::rules::data::{GameId, Strength};
use crate::rules::game::EndReason;

/// The version both sides must speak; a device of another version is told
/// so rather than misread.
pub const PROTOCOL_VERSION: u32 = 4;

/// The longest message either side sends or reads, in bytes (a 中将棋
/// game's whole record travels as many messages, never one).
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// The most events one [`ServerMessage::Events`] carries.
pub const EVENTS_PER_MESSAGE: usize = 200;

/// The longest seat name, in characters.
pub const MAX_NAME_CHARS: usize = 12;

/// The longest rules text a room plan may carry, in bytes: every game's
/// rules, a まわり将棋 start position included, take a few hundred, and
/// the room sends them to every device in its welcome.
pub const MAX_RULES_BYTES: usize = 2 * 1024;

/// The most bytes of text a refusal quotes back (a move as sent, or why a
/// message or a plan could not be read): enough to recognise it, and a
/// refusal never grows with what was sent.
pub const MAX_QUOTE_BYTES: usize = 200;

/// The longest web page address a server announces in its welcome.
pub const MAX_PAGE_BYTES: usize = 200;

/// Stamps a seat may send at once; after those, one more each
/// [`STAMP_INTERVAL_MS`]. Stamps are the only events a device can send at
/// will, and every one is stored and sent to every device.
pub const STAMP_BURST: u32 = 3;

/// How often a seat's stamps come back after a burst, in milliseconds.
pub const STAMP_INTERVAL_MS: u64 = 1000;

/// The most stamps a seat sends in one room's game.
pub const MAX_STAMPS_PER_SEAT: usize = 200;

/// 待った requests and rematch offers a seat may make at once; after
/// those, one more each [`REQUEST_INTERVAL_MS`]. Like stamps, each is
/// stored and sent to every device, and a device can send them at will.
pub const REQUEST_BURST: u32 = 2;

/// How often a seat's requests come back after a burst, in milliseconds.
pub const REQUEST_INTERVAL_MS: u64 = 5000;

/// The most 待った requests and rematch offers a seat makes in one game
/// of a room (and between it and the next).
pub const MAX_REQUESTS_PER_SEAT: usize = 50;

/// How long the other side has to answer a 待った request before the
/// server declines it for them, in milliseconds.
pub const TAKEBACK_ANSWER_MS: u64 = 30_000;

/// The most devices that watch one room at once.
pub const MAX_WATCHERS: usize = 32;

/// The most stamps a room's watchers send together in one game.
pub const MAX_WATCHER_STAMPS: usize = 200;

/// The most seats a room has (まわり将棋's four).
pub const MAX_SEATS: usize = 4;

/// The clocks a 中将棋 room's maker may choose (none is the default):
/// 10 minutes then 30 s a move, and 30 minutes then 60 s a move. A server
/// started with `--any-clock` (for tests) takes any clock within
/// [`MAX_CLOCK_SECONDS`] and [`MAX_BYOYOMI_SECONDS`].
pub const CLOCK_CHOICES: [RoomClock; 2] = [
    RoomClock {
        main_seconds: 600,
        byoyomi_seconds: 30,
    },
    RoomClock {
        main_seconds: 1800,
        byoyomi_seconds: 60,
    },
];

/// The longest 持ち時間 a room's clock may have, in seconds: the game is
/// cut off at 60 minutes anyway.
pub const MAX_CLOCK_SECONDS: u32 = 60 * 60;

/// The longest 秒読み a room's clock may have, in seconds.
pub const MAX_BYOYOMI_SECONDS: u32 = 10 * 60;

/// Crockford's base 32: no I, L, O or U, so a code read aloud or copied by
/// hand cannot be mistaken.
const CODE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/// Characters of a room code: 8 × 5 = 40 bits of randomness.
pub const CODE_CHARS: usize = 8;

/// A room's code: what a friend types or opens as a link.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct RoomCode(String);

impl RoomCode {
    /// A code from 40 random bits.
    pub fn from_bits(bits: u64) -> RoomCode {
        let text = (0..CODE_CHARS)
            .map(|i| CODE_ALPHABET[((bits >> (5 * i)) & 31) as usize] as char)
            .collect();
        RoomCode(text)
    }

    /// Reads a code as a person writes it: any case, with spaces or
    /// hyphens, and the letters Crockford reads as digits (O → 0, I/L → 1).
    pub fn parse(text: &str) -> Result<RoomCode, String> {
        let mut code = String::new();
        for c in text.chars().filter(|&c| c != ' ' && c != '-') {
            let letter = RoomCode::letter(c)
                .ok_or_else(|| format!("{c:?} is not a letter of a room code"))?;
            code.push(letter);
        }
        if code.chars().count() != CODE_CHARS {
            return Err(format!(
                "a room code has {CODE_CHARS} letters, not {}",
                code.chars().count()
            ));
        }
        Ok(RoomCode(code))
    }

    /// `c` as a letter of a code (upper case, O read as 0 and I or L as
    /// 1), if it is one.
    pub fn letter(c: char) -> Option<char> {
        let c = match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        };
        (c.is_ascii() && CODE_ALPHABET.contains(&(c as u8))).then_some(c)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The code as shown to people: two groups of four (`7K3M-Q9TB`).
    pub fn display(&self) -> String {
        format!("{}-{}", &self.0[..4], &self.0[4..])
    }
}

impl TryFrom<String> for RoomCode {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        RoomCode::parse(&text)
    }
}

impl From<RoomCode> for String {
    fn from(code: RoomCode) -> String {
        code.0
    }
}

impl fmt::Display for RoomCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.display())
    }
}

/// A device's proof that it holds its seats: 128 random bits, kept on the
/// device and sent again to come back after a dropped connection.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct SeatToken(String);

impl SeatToken {
    pub fn from_bits(bits: u128) -> SeatToken {
        SeatToken(format!("{bits:032x}"))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for SeatToken {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        if text.len() == 32 && text.bytes().all(|b| b.is_ascii_hexdigit()) {
            Ok(SeatToken(text.to_ascii_lowercase()))
        } else {
            Err("a seat token is 32 hexadecimal digits".to_string())
        }
    }
}

impl From<SeatToken> for String {
    fn from(token: SeatToken) -> String {
        token.0
    }
}

/// A name typed for a seat: at most [`MAX_NAME_CHARS`] characters, no
/// control characters, not blank.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct SeatName(String);

impl SeatName {
    pub fn new(text: &str) -> Result<SeatName, String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("a seat name may not be empty".to_string());
        }
        if text.chars().count() > MAX_NAME_CHARS {
            return Err(format!(
                "a seat name has at most {MAX_NAME_CHARS} characters"
            ));
        }
        if text.chars().any(char::is_control) {
            return Err("a seat name may not hold control characters".to_string());
        }
        Ok(SeatName(text.to_string()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for SeatName {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        SeatName::new(&text)
    }
}

impl From<SeatName> for String {
    fn from(name: SeatName) -> String {
        name.0
    }
}

/// Text quoted in a refusal, at most [`MAX_QUOTE_BYTES`] bytes: longer text
/// is cut on a character boundary and ends in "…". Both sides cut it, so a
/// quote read from the wire is bounded too.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub struct Quote(String);

impl Quote {
    pub fn new(text: &str) -> Quote {
        if text.len() <= MAX_QUOTE_BYTES {
            return Quote(text.to_string());
        }
        const CUT: &str = "…";
        let end = text.floor_char_boundary(MAX_QUOTE_BYTES - CUT.len());
        Quote(format!("{}{CUT}", &text[..end]))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Quote {
    fn from(text: &str) -> Quote {
        Quote::new(text)
    }
}

impl From<String> for Quote {
    fn from(text: String) -> Quote {
        if text.len() <= MAX_QUOTE_BYTES {
            Quote(text)
        } else {
            Quote::new(&text)
        }
    }
}

impl From<Quote> for String {
    fn from(quote: Quote) -> String {
        quote.0
    }
}

impl fmt::Display for Quote {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Who plays a seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatKind {
    /// A person at the device that made the room.
    Host,
    /// A person at another device, who joins with the room code.
    Remote,
    /// The computer, played by the server.
    Cpu(Strength),
}

/// A seat as the room's maker plans it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatPlan {
    pub kind: SeatKind,
    pub name: SeatName,
}

/// A 中将棋 room's clock: each side's 持ち時間, then 秒読み, a fresh
/// `byoyomi_seconds` for every move once the 持ち時間 is spent. A side
/// whose clock runs out loses (時間切れ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomClock {
    pub main_seconds: u32,
    pub byoyomi_seconds: u32,
}

impl RoomClock {
    /// Whether the clock is within the limits every server keeps.
    pub fn check(&self) -> Result<(), String> {
        if self.main_seconds > MAX_CLOCK_SECONDS {
            return Err(format!(
                "a clock has at most {MAX_CLOCK_SECONDS} seconds of main time"
            ));
        }
        if self.byoyomi_seconds > MAX_BYOYOMI_SECONDS {
            return Err(format!(
                "a clock has at most {MAX_BYOYOMI_SECONDS} seconds of byoyomi"
            ));
        }
        if self.main_seconds == 0 && self.byoyomi_seconds == 0 {
            return Err("a clock needs main time or byoyomi".to_string());
        }
        Ok(())
    }

    /// Whether a room's maker may choose it on a server that takes only
    /// [`CLOCK_CHOICES`].
    pub fn is_a_choice(&self) -> bool {
        CLOCK_CHOICES.contains(self)
    }
}

/// What a room plays and who sits where. In a two-player game seat 0 is
/// the side that moves first (先手).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomPlan {
    pub game: GameId,
    /// The game's rule options, as RON (the same text as a save's).
    pub rules: String,
    pub seats: Vec<SeatPlan>,
    /// Seats are drawn by lot instead of as planned (a two-player game's
    /// "a draw decides").
    pub draw_seats: bool,
    /// How long a player may be away before the game counts it as lost
    /// (中将棋's 通信切れ); the other games wait for the player.
    pub grace_seconds: u32,
    /// Whether a player may ask for 待った, which the other side accepts
    /// or declines (two-player games only).
    #[serde(default)]
    pub takebacks: bool,
    /// 中将棋's clock ([`RoomClock`]); none: only the 60-minute cutoff.
    /// Kept for every 中将棋 game of the room's series.
    #[serde(default)]
    pub clock: Option<RoomClock>,
}

/// The next game of a room's series as its host asks for it: another
/// game or other rules, for the same seats.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NextGame {
    pub game: GameId,
    /// The game's rule options, as RON (as in [`RoomPlan`]).
    pub rules: String,
}

/// The few fixed greetings players may send: no free text reaches a child.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stamp {
    /// よろしく
    Hello,
    /// ありがとう
    Thanks,
    /// まいった
    Beaten,
    /// もう一回
    Again,
}

impl Stamp {
    pub const ALL: [Stamp; 4] = [Stamp::Hello, Stamp::Thanks, Stamp::Beaten, Stamp::Again];
}

/// What a device asks of the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClientMessage {
    /// Makes a room; the answer is [`ServerMessage::Welcome`] with the
    /// code and this device's token.
    Create { version: u32, plan: RoomPlan },
    /// Takes the next free remote seat of a room.
    Join {
        version: u32,
        room: RoomCode,
        name: SeatName,
    },
    /// Comes back after a dropped connection: `have` events are already
    /// on this device, the rest is sent.
    Resume {
        version: u32,
        room: RoomCode,
        token: SeatToken,
        have: u64,
    },
    /// A move, in the game's notation, by the seat to move, made after the
    /// room's first `after` events. A move sent twice, or made before the
    /// device saw the game's last change, is refused, so nothing is
    /// applied twice.
    Move { after: u64, text: String },
    /// The seat gives the game up (投了).
    Resign { seat: u8 },
    /// A greeting from a seat.
    Stamp { seat: u8, stamp: Stamp },
    /// After the end: the device's seats offer (or accept) the next game
    /// of the series. `next`, the host's only, asks for another game or
    /// other rules; none keeps the terms on offer.
    Rematch { next: Option<NextGame> },
    /// The seat asks to take its last move back (待った).
    Takeback { seat: u8 },
    /// The seat answers the other side's 待った request.
    TakebackAnswer { seat: u8, accept: bool },
    /// Opens the room read-only: the game as it goes, no seat. `room` is
    /// its watch code (a player's [`ServerMessage::Welcome`] tells it),
    /// not the code that takes a seat.
    Watch { version: u32, room: RoomCode },
    /// A greeting from a watcher.
    Cheer { stamp: Stamp },
    /// After the end, 振り返り together: the device shows the position
    /// after `ply` moves, and every other device that follows the room's
    /// review shows it too.
    ReviewAt { ply: u32 },
}

/// One thing that happened in a room, numbered from 1 in the room's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// A person took a remote seat.
    Seated {
        seat: u8,
        name: SeatName,
    },
    /// Every seat is taken: the game begins.
    Started,
    /// A move, in the game's notation.
    Moved {
        seat: u8,
        text: String,
    },
    Resigned {
        seat: u8,
    },
    Stamp {
        seat: u8,
        stamp: Stamp,
    },
    /// The game is over (on the board, by 投了 or by 通信切れ): `winner`
    /// is a seat, none for a draw.
    Ended {
        winner: Option<u8>,
        reason: EndReason,
    },
    /// After the end, `seats` offer or accept the next game; `next` is the
    /// host's new terms (the others' offers before it lapse).
    Rematch {
        seats: Vec<u8>,
        next: Option<NextGame>,
    },
    /// Every player agreed: the next game begins on a fresh board. The
    /// player of old seat `order[i]` now sits at seat `i` (two-player
    /// games swap sides; まわり将棋 keeps its seats and its rules name
    /// who throws first).
    NewGame {
        game: GameId,
        rules: String,
        order: Vec<u8>,
    },
    /// `seat` asks to take its last move back (待った).
    TakebackAsked {
        seat: u8,
    },
    /// `seat` declined the other side's request, or let its time run out.
    TakebackDeclined {
        seat: u8,
        timed_out: bool,
    },
    /// `seat` accepted: the last `plies` moves (the asker's, and the reply
    /// if one was made) are taken back on every device.
    TakenBack {
        seat: u8,
        plies: u8,
    },
    /// A greeting from someone watching.
    Cheered {
        stamp: Stamp,
    },
}

impl Event {
    /// Whether the event changes the game (a move made before it is out
    /// of step), rather than the seats or the greetings.
    pub fn changes_game(&self) -> bool {
        matches!(
            self,
            Event::Started
                | Event::Moved { .. }
                | Event::Resigned { .. }
                | Event::Ended { .. }
                | Event::NewGame { .. }
                | Event::TakenBack { .. }
        )
    }
}

/// A seat as every device sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    pub kind: SeatKind,
    pub name: SeatName,
}

/// The room as a device needs it to set up the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomView {
    pub room: RoomCode,
    pub game: GameId,
    pub rules: String,
    pub seats: Vec<SeatView>,
    pub grace_seconds: u32,
    /// Whether 待った may be asked for ([`RoomPlan::takebacks`]).
    #[serde(default)]
    pub takebacks: bool,
    /// 中将棋's clock ([`RoomPlan::clock`]).
    #[serde(default)]
    pub clock: Option<RoomClock>,
}

/// What the server tells a device.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ServerMessage {
    /// The device is in the room and holds `seats`; keep `token` to come
    /// back. Events follow.
    Welcome {
        view: RoomView,
        token: SeatToken,
        seats: Vec<u8>,
        /// The server's web page as the other devices of its network open
        /// it (`serve --lan`), so that a room's join link and QR code can
        /// be given to them; none where the server was not asked to say.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        page: Option<String>,
        /// The room's watch code, for the link that opens it to watch
        /// ([`ClientMessage::Watch`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        watch: Option<RoomCode>,
    },
    /// The room's events `first`, `first + 1`, …
    Events { first: u64, events: Vec<Event> },
    /// A seat's device went away or came back. `seconds_left`: how long
    /// until an absent player loses (中将棋), none where the game waits.
    Presence {
        seat: u8,
        online: bool,
        seconds_left: Option<u32>,
    },
    /// The game's clock (中将棋's 60 minutes): milliseconds played, and
    /// whether it runs (it stands while a player is away).
    Clock { played_ms: u64, running: bool },
    /// A 中将棋 room's clocks ([`RoomClock`]): each seat's 持ち時間 left,
    /// the 秒読み left in this turn to the seat to move, and whether its
    /// clock runs (it stands while a player is away or a 待った waits).
    Clocks {
        left_ms: Vec<u64>,
        byoyomi_ms: u64,
        running: bool,
    },
    /// The device watches the room (the answer to
    /// [`ClientMessage::Watch`]): no seat; events follow as for a player.
    /// The view names the room by its watch code.
    Watching { view: RoomView },
    /// How many devices watch the room now.
    Watchers { count: u32 },
    /// The room's review (after the end): `seat`'s device shows the
    /// position after `ply` moves; the devices that follow show it too.
    /// Kept in the server's memory only, for devices that come in.
    ReviewAt { seat: u8, ply: u32 },
    /// The last message was not acted on; nothing changed.
    Refused { refusal: Refusal },
}

/// Why a message changed nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Refusal {
    /// Not a message of this protocol (the reader's words, cut short).
    Malformed(Quote),
    /// Longer than [`MAX_MESSAGE_BYTES`].
    TooLong,
    /// The device speaks another version.
    Version { server: u32 },
    /// No room has this code (or it has expired).
    NoSuchRoom,
    /// Every remote seat is taken.
    RoomFull,
    /// The token holds no seat in this room.
    BadToken,
    /// Join, Create or Resume first.
    NotInRoom,
    /// Already in a room on this connection.
    AlreadyInRoom,
    /// The room plan cannot be played (the message says why).
    BadPlan(Quote),
    /// The seats are not all taken yet.
    NotStarted,
    /// The game is over.
    Finished,
    /// It is another seat's turn, or the seat named is not this device's.
    NotYourSeat,
    /// The move was made on an older or newer state of the room than the
    /// server's: `events` is how many the room has.
    OutOfStep { events: u64 },
    /// Not a legal move here (the text as sent, cut short).
    Illegal(Quote),
    /// Too many tries from this address; wait a minute.
    TooManyTries,
    /// The seat has sent its [`STAMP_BURST`] stamps too recently: the next
    /// is taken in `wait_ms` milliseconds.
    StampTooSoon { wait_ms: u32 },
    /// The seat has sent its [`MAX_STAMPS_PER_SEAT`] stamps of the game.
    NoStampsLeft,
    /// The game is still on: a rematch is offered after its end.
    NotOver,
    /// Only the room's maker chooses the next game.
    HostOnly,
    /// These seats have already agreed to the next game on these terms.
    AlreadyAgreed,
    /// This room or game has no 待った.
    NoTakebacks,
    /// The seat has no move of this game to take back.
    NothingToTakeBack,
    /// A 待った request is waiting for its answer.
    TakebackPending,
    /// No 待った request of the other side is waiting.
    NoTakebackAsked,
    /// The seat's requests (待った, rematch offers) come too fast: the next
    /// is taken in `wait_ms` milliseconds.
    RequestTooSoon { wait_ms: u32 },
    /// The seat has made its [`MAX_REQUESTS_PER_SEAT`] requests of the game.
    NoRequestsLeft,
    /// A watcher holds no seat: it may only send stamps.
    Watching,
    /// The room has [`MAX_WATCHERS`] watchers already.
    TooManyWatchers,
}

impl Refusal {
    /// Whether the refusal is of a stamp: the game and any move on its
    /// way are untouched.
    pub fn is_of_a_stamp(&self) -> bool {
        matches!(self, Refusal::StampTooSoon { .. } | Refusal::NoStampsLeft)
    }

    /// Whether the refusal is of a request (待った, a rematch offer): the
    /// game and any move on its way are untouched.
    pub fn is_of_a_request(&self) -> bool {
        matches!(
            self,
            Refusal::NotOver
                | Refusal::HostOnly
                | Refusal::AlreadyAgreed
                | Refusal::NoTakebacks
                | Refusal::NothingToTakeBack
                | Refusal::TakebackPending
                | Refusal::NoTakebackAsked
                | Refusal::RequestTooSoon { .. }
                | Refusal::NoRequestsLeft
        )
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Malformed(why) => write!(f, "malformed message: {why}"),
            Refusal::TooLong => write!(f, "message longer than {MAX_MESSAGE_BYTES} bytes"),
            Refusal::Version { server } => write!(f, "the server speaks protocol {server}"),
            Refusal::NoSuchRoom => write!(f, "no room has this code"),
            Refusal::RoomFull => write!(f, "every seat of the room is taken"),
            Refusal::BadToken => write!(f, "this device holds no seat in the room"),
            Refusal::NotInRoom => write!(f, "not in a room yet"),
            Refusal::AlreadyInRoom => write!(f, "already in a room"),
            Refusal::BadPlan(why) => write!(f, "the room cannot be made: {why}"),
            Refusal::NotStarted => write!(f, "the game has not begun"),
            Refusal::Finished => write!(f, "the game is over"),
            Refusal::NotYourSeat => write!(f, "not this device's seat or turn"),
            Refusal::OutOfStep { events } => {
                write!(f, "out of step: the room has {events} events")
            }
            Refusal::Illegal(text) => write!(f, "illegal move {text}"),
            Refusal::TooManyTries => write!(f, "too many tries; wait a minute"),
            Refusal::StampTooSoon { wait_ms } => write!(
                f,
                "too many stamps: {STAMP_BURST} at once, then one each {STAMP_INTERVAL_MS} ms; \
                 the next in {wait_ms} ms"
            ),
            Refusal::NoStampsLeft => {
                write!(
                    f,
                    "a seat sends at most {MAX_STAMPS_PER_SEAT} stamps a game"
                )
            }
            Refusal::NotOver => write!(f, "the game is not over yet"),
            Refusal::HostOnly => write!(f, "only the room's maker chooses the next game"),
            Refusal::AlreadyAgreed => write!(f, "already agreed to the next game"),
            Refusal::NoTakebacks => write!(f, "this room has no takebacks"),
            Refusal::NothingToTakeBack => write!(f, "no move of this seat to take back"),
            Refusal::TakebackPending => write!(f, "a takeback request waits for its answer"),
            Refusal::NoTakebackAsked => write!(f, "no takeback request to answer"),
            Refusal::RequestTooSoon { wait_ms } => write!(
                f,
                "too many requests: {REQUEST_BURST} at once, then one each \
                 {REQUEST_INTERVAL_MS} ms; the next in {wait_ms} ms"
            ),
            Refusal::NoRequestsLeft => write!(
                f,
                "a seat makes at most {MAX_REQUESTS_PER_SEAT} requests a game"
            ),
            Refusal::Watching => write!(f, "a watcher holds no seat"),
            Refusal::TooManyWatchers => {
                write!(f, "the room has {MAX_WATCHERS} watchers already")
            }
        }
    }
}

/// The events from number `first` on, as [`ServerMessage::Events`]: each
/// message at most [`EVENTS_PER_MESSAGE`] events and [`MAX_MESSAGE_BYTES`]
/// bytes (a まわり将棋 throw's text is longer than a move's).
pub fn events_messages(first: u64, events: &[Event]) -> Vec<ServerMessage> {
    // The message around its events, with the widest number: each event
    // adds its own text and a comma.
    let frame = encode(&ServerMessage::Events {
        first: u64::MAX,
        events: Vec::new(),
    })
    .len();
    let mut messages = Vec::new();
    let mut chunk: Vec<Event> = Vec::new();
    let mut bytes = frame;
    let mut next = first;
    for event in events {
        let size = encode(event).len() + 1;
        if !chunk.is_empty()
            && (chunk.len() == EVENTS_PER_MESSAGE || bytes + size > MAX_MESSAGE_BYTES)
        {
            let taken = std::mem::take(&mut chunk);
            let count = taken.len() as u64;
            messages.push(ServerMessage::Events {
                first: next,
                events: taken,
            });
            next += count;
            bytes = frame;
        }
        chunk.push(event.clone());
        bytes += size;
    }
    if !chunk.is_empty() {
        messages.push(ServerMessage::Events {
            first: next,
            events: chunk,
        });
    }
    messages
}

/// Writes a message as its wire text.
pub fn encode<M: Serialize>(message: &M) -> String {
    // The message types hold only strings, numbers and enums: RON writes
    // every such value.
    ron::to_string(message).unwrap_or_default()
}

/// Reads a wire text, refusing what is too long or not a message.
pub fn decode<M: serde::de::DeserializeOwned>(text: &str) -> Result<M, Refusal> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err(Refusal::TooLong);
    }
    ron::from_str(text).map_err(|e| Refusal::Malformed(e.to_string().into()))
}
