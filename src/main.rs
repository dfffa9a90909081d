//! `yorimichi`: starts the game, or runs one of the headless commands.

use std::process::ExitCode;

use yorimichi::cli::{self, Command, USAGE};
use yorimichi::shell::StartOptions;

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
        Command::Selfplay(args) => finished(yorimichi::selfplay_cmd::run(&args), ExitCode::from(2)),
        Command::Engine => finished(yorimichi::engine_cmd::run(), ExitCode::FAILURE),
        Command::Match(args) => finished(yorimichi::match_cmd::run(&args), ExitCode::from(2)),
        Command::Perft(args) => {
            yorimichi::perft_cmd::run(&args);
            ExitCode::SUCCESS
        }
        Command::Problems { wanted, seed } => finished(
            yorimichi::problems_cmd::run(wanted, seed),
            ExitCode::from(2),
        ),
        Command::Bench(args) => finished(yorimichi::bench_cmd::run(&args), ExitCode::from(2)),
        Command::Dice(args) => {
            yorimichi::dice_cmd::run(&args);
            ExitCode::SUCCESS
        }
        Command::Solve(args) => finished(yorimichi::solve_cmd::run(&args), ExitCode::from(2)),
        Command::Play { game, position } => exit_code(yorimichi::run(StartOptions {
            game,
            position,
            capture: None,
        })),
        Command::Frames { scene, seconds } => exit_code(yorimichi::run(StartOptions {
            game: None,
            position: None,
            capture: Some(scene.timing(seconds)),
        })),
        Command::Screenshot { scene, out } => exit_code(yorimichi::run(StartOptions {
            game: None,
            position: None,
            capture: Some(scene.picture(out)),
        })),
    }
}

/// A headless command's exit: success, or its message and `failure`.
fn finished<E: std::fmt::Display>(result: Result<(), E>, failure: ExitCode) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("yorimichi: {e}");
            failure
        }
    }
}

fn exit_code(exit: bevy::app::AppExit) -> ExitCode {
    if exit.is_success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
