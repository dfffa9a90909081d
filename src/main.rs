//! `yorimichi`: starts the game, or runs one of the headless commands.

use std::process::ExitCode;

use yorimichi::app::{self, StartOptions, shot::ScreenshotJob};
use yorimichi::cli::{self, Command, USAGE};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = match cli::parse(&args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("yorimichi: {e}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match command {
        Command::Help => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Command::Selfplay(args) => match yorimichi::selfplay_cmd::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("yorimichi: {e}");
                ExitCode::from(2)
            }
        },
        Command::Engine => match yorimichi::engine_cmd::run() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("yorimichi: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Match(args) => match yorimichi::match_cmd::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("yorimichi: {e}");
                ExitCode::from(2)
            }
        },
        Command::Perft(args) => {
            yorimichi::perft_cmd::run(&args);
            ExitCode::SUCCESS
        }
        Command::Solve(args) => match yorimichi::solve_cmd::run(&args) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("yorimichi: {e}");
                ExitCode::from(2)
            }
        },
        Command::Play { game, position } => exit_code(app::run(StartOptions {
            game,
            position,
            screenshot: None,
        })),
        Command::Screenshot { scene, out } => exit_code(app::run(StartOptions {
            game: None,
            position: None,
            screenshot: Some(ScreenshotJob::new(&scene, out)),
        })),
    }
}

fn exit_code(exit: bevy::app::AppExit) -> ExitCode {
    if exit.is_success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
