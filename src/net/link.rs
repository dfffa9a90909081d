//! A device's connection to the room server, on the desktop and in the
//! browser alike (`ewebsock`: a WebSocket on a thread of its own natively,
//! the browser's own in the page). It is polled, never awaited, so a frame
//! or a test reads whatever has arrived.

use std::ops::ControlFlow;
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use ewebsock::{Options, WsEvent, WsMessage, WsSender};

use super::protocol::{ClientMessage, MAX_MESSAGE_BYTES, Refusal, ServerMessage, decode, encode};

/// The server's address when none is set: a server started on this
/// computer with `yorimichi serve` (the web page served by it uses its
/// own address instead).
pub const DEFAULT_SERVER: &str = "ws://127.0.0.1:8787/ws";

/// How long a native connection's thread waits on its socket before it
/// looks for a message to send (ewebsock's default): a message sent waits
/// up to this long before it leaves, rounded up to the kernel's clock
/// ticks. The browser's WebSocket has no such wait. docs/rooms.md
/// measures what it costs.
pub const READ_TIMEOUT: Duration = Duration::from_millis(10);

/// What happened on a connection since the last poll.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkEvent {
    /// The connection is open: messages may be sent.
    Opened,
    Message(ServerMessage),
    /// The server sent something this version cannot read.
    Unreadable(Refusal),
    /// The connection is over (the reason, where one was given).
    Closed(Option<String>),
}

/// An open (or opening) connection.
pub struct Link {
    sender: WsSender,
    receiver: Receiver<WsEvent>,
    open: bool,
    closed: bool,
}

impl Link {
    /// Starts connecting to `url` (`ws://…` or `wss://…`); [`Link::poll`]
    /// says when it is open.
    pub fn open(url: &str) -> Result<Link, String> {
        Link::open_with(url, READ_TIMEOUT, || {})
    }

    /// [`Link::open`] with another read timeout (natively: how long a
    /// message sent may wait before it leaves), and `wake_up` called from
    /// the connection's thread whenever something has arrived, so that a
    /// caller can sleep until then instead of polling (`bench-rooms`).
    pub fn open_with(
        url: &str,
        read_timeout: Duration,
        wake_up: impl Fn() + Send + 'static,
    ) -> Result<Link, String> {
        let options = Options {
            // A server's message is small; a larger one is refused before
            // it is read into memory.
            max_incoming_frame_size: 4 * MAX_MESSAGE_BYTES,
            read_timeout: Some(read_timeout),
            ..Options::default()
        };
        // ewebsock's own wake-up comes before the event is handed over, so
        // a caller woken by it could find nothing yet: here the event is
        // handed over first.
        let (events, receiver) = mpsc::channel();
        let sender = ewebsock::ws_connect(
            url.to_string(),
            options,
            Box::new(move |event| {
                let handed = events.send(event).is_ok();
                wake_up();
                if handed {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            }),
        )?;
        Ok(Link {
            sender,
            receiver,
            open: false,
            closed: false,
        })
    }

    pub fn is_open(&self) -> bool {
        self.open && !self.closed
    }

    pub fn is_closed(&self) -> bool {
        self.closed
    }

    pub fn send(&mut self, message: &ClientMessage) {
        self.send_text(encode(message));
    }

    /// Sends a text as it is (the tests send broken ones).
    pub fn send_text(&mut self, text: String) {
        if !self.closed {
            self.sender.send(WsMessage::Text(text));
        }
    }

    /// Everything that arrived since the last call.
    pub fn poll(&mut self) -> Vec<LinkEvent> {
        let mut events = Vec::new();
        while let Ok(event) = self.receiver.try_recv() {
            match event {
                WsEvent::Opened => {
                    self.open = true;
                    events.push(LinkEvent::Opened);
                }
                WsEvent::Message(WsMessage::Text(text)) => match decode(&text) {
                    Ok(message) => events.push(LinkEvent::Message(message)),
                    Err(refusal) => events.push(LinkEvent::Unreadable(refusal)),
                },
                WsEvent::Message(WsMessage::Binary(_) | WsMessage::Unknown(_)) => events.push(
                    LinkEvent::Unreadable(Refusal::Malformed("not a text message".into())),
                ),
                WsEvent::Message(WsMessage::Ping(_) | WsMessage::Pong(_)) => {}
                WsEvent::Error(why) => {
                    if !self.closed {
                        self.closed = true;
                        events.push(LinkEvent::Closed(Some(why)));
                    }
                }
                WsEvent::Closed => {
                    if !self.closed {
                        self.closed = true;
                        events.push(LinkEvent::Closed(None));
                    }
                }
            }
        }
        events
    }

    /// Closes the connection (the server sees the seats go away).
    pub fn close(&mut self) {
        self.sender.close();
        self.closed = true;
    }
}
