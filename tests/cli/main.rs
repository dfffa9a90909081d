//! The command line: argument parsing, the headless commands, and the
//! 中将棋 engine protocol.

mod chu_xboard;
mod cli_and_text;
