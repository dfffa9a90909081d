//! The 中将棋 engine for a web page's worker (`make engine-web`): the USI
//! session of [`crate::rules::chu::usi`] behind wasm-bindgen. The worker
//! (`web/engine/worker.js`) hands each line posted to it to
//! [`UsiEngine::input`] and, while [`UsiEngine::busy`], calls
//! [`UsiEngine::think`] a slice at a time, yielding to its event loop in
//! between so that a `stop` posted meanwhile is read. Every call returns
//! the lines the engine printed, each ended by a newline.
//!
//! The analysis page (`web/analysis.html`) also asks the rules what the
//! engine does not say: [`read_game`], [`board`] and [`line`], each
//! answering in JSON ([`crate::rules::chu::analysis`]), or
//! `{"error":"…"}`.

use wasm_bindgen::prelude::*;

use crate::rules::chu::Profile;
use crate::rules::chu::analysis;
use crate::rules::chu::usi::{Polled, UsiSession};

#[wasm_bindgen]
extern "C" {
    /// The page's (or worker's) monotonic clock, in milliseconds.
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// One engine: the game so far, its options and its thinking.
#[wasm_bindgen]
pub struct UsiEngine {
    session: UsiSession,
}

#[wasm_bindgen]
impl UsiEngine {
    /// A fresh engine: lishogi's rules, the start position.
    #[wasm_bindgen(constructor)]
    pub fn new() -> UsiEngine {
        UsiEngine {
            session: UsiSession::new(Box::new(performance_now)).in_slices(),
        }
    }

    /// One line of input (a USI command); returns what it printed.
    pub fn input(&mut self, line: &str) -> String {
        let mut out = Vec::new();
        // Writing to memory cannot fail.
        let _ = self.session.input(line, &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Thinks for about `slice_ms` milliseconds, or to the answer; returns
    /// what it printed (`info` lines, `bestmove`, `checkmate`).
    pub fn think(&mut self, slice_ms: f64) -> String {
        let mut out = Vec::new();
        let slice_end = performance_now() + slice_ms;
        // Input comes only between slices, through `input`.
        let _ = self.session.think(
            &mut || Polled::Nothing,
            &mut || performance_now() >= slice_end,
            &mut out,
        );
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Whether a slice of thinking is due.
    pub fn busy(&self) -> bool {
        self.session.busy()
    }

    /// Whether `quit` has come: the worker may close.
    pub fn quit(&self) -> bool {
        self.session.has_quit()
    }
}

impl Default for UsiEngine {
    fn default() -> Self {
        UsiEngine::new()
    }
}

/// The rules named `profile` (`jcsa`, else lishogi's, the engine's own
/// default).
fn profile_of(profile: &str) -> Profile {
    if profile == Profile::Jcsa.id() {
        Profile::Jcsa
    } else {
        Profile::Lishogi
    }
}

/// The page's answer: the JSON of what was read, or the problem.
fn answer(read: Result<String, String>) -> String {
    read.unwrap_or_else(|problem| format!("{{\"error\":{}}}", analysis::json_string(&problem)))
}

/// A game from a KIF, a USI move list or an SFEN, its moves written as
/// the record writes them ([`analysis::read_game`]).
#[wasm_bindgen]
pub fn read_game(text: &str, profile: &str) -> String {
    answer(analysis::read_game(profile_of(profile), text).map(|game| game.json()))
}

/// The board diagram after a USI `position` command ([`analysis::board`]).
#[wasm_bindgen]
pub fn board(command: &str, profile: &str) -> String {
    answer(analysis::board(profile_of(profile), command).map(|board| board.json()))
}

/// An engine's line of USI moves, read from the position `command` sets
/// up, in Japanese notation ([`analysis::line`]).
#[wasm_bindgen]
pub fn line(command: &str, moves: &str, profile: &str) -> String {
    answer(analysis::line(profile_of(profile), command, moves).map(|line| line.json()))
}
