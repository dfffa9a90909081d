//! The command line: argument parsing, the headless commands, the binary
//! as a shell runs it, and the 中将棋 engine protocols (CECP and USI).

mod chu_xboard;
mod cli_and_text;
mod convert;
mod mate;
mod process;
mod repetition;
#[cfg(feature = "server")]
mod room_limits;
#[cfg(feature = "server")]
mod rooms;
#[cfg(feature = "server")]
mod rooms_clocks;
mod usi;
