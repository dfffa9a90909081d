//! `yorimichi usi`: the 中将棋 CPU as a USI engine in lishogi's dialect, so
//! that a USI GUI or a lishogi-style bot can run it. The protocol is
//! [`crate::rules::chu::usi`], which the web worker shares; here standard
//! input is read on a thread of its own, so `stop`, `ponderhit`, `isready`
//! and `quit` are answered while the engine thinks.

use std::io::{BufRead, Write};
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Instant;

pub use crate::rules::chu::usi::clock_time;
use crate::rules::chu::usi::{Polled, UsiSession};

/// Serves the lines of `input` until `quit` or its end. The thinking is
/// never cut into slices here: only the input and the clock end it.
fn serve(input: &Receiver<String>, out: &mut dyn Write) -> std::io::Result<()> {
    let origin = Instant::now();
    let mut session = UsiSession::new(Box::new(move || origin.elapsed().as_secs_f64() * 1000.0));
    let mut poll = || match input.try_recv() {
        Ok(line) => Polled::Line(line),
        Err(TryRecvError::Empty) => Polled::Nothing,
        Err(TryRecvError::Disconnected) => Polled::Ended,
    };
    while !session.has_quit() {
        if session.busy() {
            session.think(&mut poll, &mut || false, out)?;
        } else {
            match input.recv() {
                Ok(line) => session.input(&line, out)?,
                Err(_) if session.idle() => return Ok(()),
                Err(_) => session.input_ended(out)?,
            }
        }
        out.flush()?;
    }
    Ok(())
}

/// Runs the USI loop on standard input, answering on `out`.
pub(crate) fn run(out: &mut dyn Write) -> super::Outcome {
    let (lines, input) = channel();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    serve(&input, out)?;
    Ok(())
}

/// Feeds `input` (one command a line, all available at once, as a GUI that
/// writes ahead) to a fresh engine and returns what it printed: for tests.
pub fn run_script(input: &str) -> String {
    let (lines, rx) = channel();
    for line in input.lines() {
        let _ = lines.send(line.to_string());
    }
    drop(lines);
    let mut out = Vec::new();
    let _ = serve(&rx, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}
