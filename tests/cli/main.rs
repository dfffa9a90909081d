//! The command line: argument parsing, the headless commands, the binary
//! as a shell runs it, and the 中将棋 engine protocol.

mod chu_xboard;
mod cli_and_text;
mod process;
