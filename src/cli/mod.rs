//! The command line (native only): [`Cli`] and its [`Command`]s, parsed by
//! clap from the types below, whose doc comments are the help. Each
//! command's arguments and body live in its own file. Bad arguments give
//! the message and the usage, and exit 2.

pub mod bench;
pub mod bench_rooms;
pub mod check;
pub mod convert;
pub mod dice;
pub mod engine;
pub mod help_page;
pub mod mawari_games;
pub mod moves;
pub mod perft;
pub mod problems;
pub mod referee;
pub mod screenshot;
pub mod selfplay;
pub mod serve;
pub mod solve;
pub mod usi;

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser, Subcommand};

use crate::rules::data::GameId;
use crate::shell::StartOptions;

/// よりみち盤遊び: five traditional board games with their real rules.
///
/// Without a command it starts the game.
#[derive(Parser, Clone, Debug, PartialEq)]
#[command(name = "yorimichi", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// Start with this game's setup screen open: hasami, musashi,
    /// foxgeese, chushogi or mawari.
    #[arg(long, value_name = "ID", value_parser = playable)]
    pub game: Option<GameId>,
    /// Start the next game from this position (musashi, chushogi: an SFEN
    /// or a USI game, mawari: e.g. "rules=basic hisha@6 fu@14 turn=0").
    #[arg(long, value_name = "TEXT", requires = "game")]
    pub position: Option<String>,
    /// Open the review of the finished game in this file (what 共有 on a
    /// review writes, e.g. ~/yorimichi-review.txt).
    #[arg(
        long,
        value_name = "FILE",
        requires = "game",
        conflicts_with = "position"
    )]
    pub review: Option<std::path::PathBuf>,
    /// Join the room with this code (another device's 部屋を作る shows
    /// it), e.g. 7K3M-Q9TB.
    #[arg(long, value_name = "CODE", value_parser = room_code, conflicts_with_all = ["game", "review"])]
    pub join: Option<String>,
    /// Watch a room, without a seat, by its watch code (the room screen's
    /// second link, 見るだけのリンク, carries it), e.g. M2WQ-8JXA.
    #[arg(long, value_name = "CODE", value_parser = room_code, conflicts_with_all = ["game", "review", "join"])]
    pub watch: Option<String>,
    /// The room server to use from now on (saved in the settings), e.g.
    /// wss://example.org/ws; by default ws://127.0.0.1:8787/ws.
    #[arg(long, value_name = "URL", value_parser = server_url)]
    pub server: Option<String>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

fn room_code(text: &str) -> Result<String, String> {
    crate::net::protocol::RoomCode::parse(text).map(|c| c.as_str().to_string())
}

fn server_url(text: &str) -> Result<String, String> {
    if text.starts_with("ws://") || text.starts_with("wss://") {
        Ok(text.to_string())
    } else {
        Err("a room server's address starts with ws:// or wss://".to_string())
    }
}

#[derive(Subcommand, Clone, Debug, PartialEq)]
pub enum Command {
    /// CPU against CPU, alternating sides; the last line is `score A: NN.N%`.
    Selfplay(selfplay::SelfplayArgs),
    /// Solve every 十六むさし position exactly and print the table, or
    /// the exact value and a best line of one position; or find a 中将棋
    /// mate (詰め中将棋) for one SFEN or every problem of a collection.
    Solve(solve::SolveArgs),
    /// Count the 中将棋 move tree (pseudo-legal moves).
    Perft(perft::PerftArgs),
    /// For each 中将棋 SFEN on standard input, the game's end and every
    /// legal move in USI (for comparing with other rules programs).
    Moves(moves::MovesArgs),
    /// Read one 中将棋 game on stdin (KIF, a USI game or a bare SFEN) and
    /// write it as KIF, as USI, as the SFEN of its final position, or as each
    /// side's points there (the 60-minute cutoff's count).
    Convert(convert::ConvertArgs),
    /// Find 中将棋 problems in CPU games (a third each of 3 levels), and
    /// lion and king-capture problems in set-up skirmishes; print them as RON.
    Problems(problems::ProblemsArgs),
    /// The 中将棋 CPU as an XBoard/CECP engine (variant chu).
    Engine,
    /// The 中将棋 CPU as a USI engine in lishogi's dialect (lishogi's
    /// rules unless `setoption name Profile value jcsa`).
    Usi,
    /// Referee 中将棋 games against another engine, speaking CECP (e.g.
    /// hachu) or USI (`--protocol usi`).
    Match(referee::MatchArgs),
    /// The CPU's move time at each level over positions from CPU games
    /// (median and worst).
    Bench(bench::BenchArgs),
    /// Throw the まわり将棋 koma-dice in the simulation and print how
    /// often each pose and each result came up.
    Dice(dice::DiceArgs),
    /// The room server: family and friends play from their own devices
    /// (`--features server` builds it).
    Serve(serve::ServeArgs),
    /// The room server under load: starts `serve` on a loopback port,
    /// plays はさみ将棋 in many rooms at once and prints each move's time
    /// to the other device (p50, p99, max), the server's peak memory and
    /// CPU time (`--features server` builds it).
    BenchRooms(bench_rooms::BenchRoomsArgs),
    /// Check every level file against the rules: prints `checked N files,
    /// M items`, or one `file: item: reason` line per problem and exits 1.
    Check(check::CheckArgs),
    /// Render a scene into a PNG file and exit, or list the scenes.
    #[command(after_help = screenshot::scene_help())]
    Screenshot(screenshot::ScreenshotArgs),
    /// Run a scene and print its frame times (median, 99th percentile,
    /// longest) and the time to the first title frame.
    #[command(after_help = screenshot::scene_help())]
    Frames(screenshot::FramesArgs),
}

/// Parses the whole command line (the program name first). What clap
/// cannot see alone is checked here too: a `--position` text must be one
/// the chosen game reads.
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let cli = Cli::try_parse_from(&args).map_err(|e| with_usage(e, &args))?;
    if let (Some(game), Some(text)) = (cli.game, &cli.position) {
        position_text(game, text)
            .map_err(|e| Cli::command().error(ErrorKind::ValueValidation, e))?;
    }
    Ok(cli)
}

/// Adds the usage of the command that `args` name to a refusal that lacks it
/// (clap leaves it out when a value parser refuses a value).
fn with_usage(mut e: clap::Error, args: &[OsString]) -> clap::Error {
    if !e.use_stderr() || e.get(ContextKind::Usage).is_some() {
        return e;
    }
    let mut cli = Cli::command();
    cli.build();
    // A command comes first: the top-level options exclude commands.
    let name = args.get(1).and_then(|a| a.to_str()).unwrap_or_default();
    let usage = match cli.find_subcommand_mut(name) {
        Some(command) => command.render_usage(),
        None => cli.render_usage(),
    };
    e.insert(ContextKind::Usage, ContextValue::StyledStr(usage));
    e
}

/// Checks `text` as `game`'s position text.
fn position_text(game: GameId, text: &str) -> Result<(), String> {
    match game {
        GameId::Musashi => crate::rules::data::musashi_position(text).map(|_| ()),
        GameId::ChuShogi => crate::rules::chu::record::ChuGameText::parse(text)
            .map(|_| ())
            .map_err(|e| format!("--position: {e}")),
        GameId::Mawari => crate::rules::mawari::levels::start_text(text)
            .map(|_| ())
            .map_err(|e| format!("--position: {e}")),
        _ => Err(format!("{} has no position text", game.id())),
    }
}

/// Parses the process's arguments and runs what they ask for.
pub fn main() -> ExitCode {
    let cli = match parse(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => {
            // `--help` and `--version` print to stdout and exit 0; errors
            // print the message and the usage to stderr and exit 2.
            let _ = e.print();
            return ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    let Some(command) = cli.command else {
        let review = match &cli.review {
            Some(path) => match std::fs::read_to_string(path) {
                Ok(text) => Some(text),
                Err(e) => {
                    eprintln!("yorimichi: --review {}: {e}", path.display());
                    return ExitCode::from(2);
                }
            },
            None => None,
        };
        return app_exit(crate::run(StartOptions {
            game: cli.game,
            position: cli.position,
            review,
            capture: None,
            join: cli.join,
            watch: cli.watch,
            server: cli.server,
        }));
    };
    // Not locked for the whole command: the app's threads print too.
    let out = &mut io::stdout();
    let (result, failure) = match command {
        Command::Selfplay(args) => (selfplay::run(&args, out), 2),
        Command::Solve(args) => (solve::run(&args, out), 2),
        Command::Perft(args) => (perft::run(&args, out), 2),
        Command::Moves(args) => (moves::run(&args, out), 2),
        Command::Convert(args) => (convert::run(&args, out), 1),
        Command::Problems(args) => (problems::run(&args, out), 2),
        Command::Engine => (engine::run(out), 1),
        Command::Usi => (usi::run(out), 1),
        Command::Match(args) => (referee::run(&args, out), 2),
        Command::Bench(args) => (bench::run(&args, out), 2),
        Command::Dice(args) => (dice::run(&args, out), 2),
        Command::Serve(args) => (serve::run(&args, out), 1),
        Command::BenchRooms(args) => (bench_rooms::run(&args, out), 1),
        Command::Check(args) => (check::command(&args, out), 1),
        Command::Screenshot(args) => match args.picture() {
            Some(job) => return capture(job),
            None => (screenshot::list(args.smoke, out), 2),
        },
        Command::Frames(args) => return capture(args.timing()),
    };
    let flushed = result.and_then(|()| out.flush().map_err(Failure::from));
    match flushed {
        Ok(()) | Err(Failure::Closed) => ExitCode::SUCCESS,
        // The problems are printed already.
        Err(Failure::Problems) => ExitCode::from(failure),
        Err(Failure::Message(e)) => {
            eprintln!("yorimichi: {e}");
            ExitCode::from(failure)
        }
    }
}

/// Runs the app on `job`'s scene.
fn capture(job: crate::shell::capture::ScreenshotJob) -> ExitCode {
    app_exit(crate::run(StartOptions {
        game: None,
        position: None,
        review: None,
        capture: Some(job),
        join: None,
        watch: None,
        server: None,
    }))
}

fn app_exit(exit: bevy::app::AppExit) -> ExitCode {
    if exit.is_success() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Why a command stopped early: a message for the user, standard output
/// closed under it (`yorimichi perft … | head`), which ends it quietly, or
/// problems it has reported.
#[derive(Debug)]
pub(crate) enum Failure {
    Closed,
    Message(String),
    /// The command found what it looks for wrong and has said so (`check`).
    Problems,
}

/// What a command returns. Its report goes to the writer it is handed with
/// `writeln!(out, …)?`: a closed pipe becomes [`Failure::Closed`].
pub(crate) type Outcome = Result<(), Failure>;

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::Closed
        } else {
            Failure::Message(format!("cannot write the output: {e}"))
        }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Self {
        Failure::Message(message)
    }
}

impl From<&str> for Failure {
    fn from(message: &str) -> Self {
        Failure::Message(message.to_string())
    }
}

/// A game that can be played (`--game`).
fn playable(id: &str) -> Result<GameId, String> {
    match GameId::from_id(id) {
        Some(g) if g.is_playable() => Ok(g),
        Some(g) => Err(format!("{} is not built yet", g.id())),
        None => Err(unknown_game(id)),
    }
}

/// A game with CPU levels to compare (`selfplay`, `bench`).
pub(crate) fn with_engine(id: &str) -> Result<GameId, String> {
    match GameId::from_id(id) {
        Some(g) if g.has_engine() => Ok(g),
        Some(GameId::Mawari) => Err(
            "mawari has no CPU levels to compare: a throw of the koma-dice leaves no choice to make"
                .into(),
        ),
        Some(g) => Err(format!("{} is not built yet", g.id())),
        None => Err(unknown_game(id)),
    }
}

/// The one game a command knows (`perft chushogi`, `solve musashi`).
fn only(game: GameId) -> impl Fn(&str) -> Result<GameId, String> + Clone + Send + Sync + 'static {
    move |id: &str| {
        if id == game.id() {
            Ok(game)
        } else {
            Err(format!(
                "the command knows only {}, not \"{id}\"",
                game.id()
            ))
        }
    }
}

fn unknown_game(id: &str) -> String {
    let ids: Vec<&str> = GameId::ALL.iter().map(|g| g.id()).collect();
    format!("unknown game id \"{id}\" ({})", ids.join(", "))
}

/// A whole number from `min` to `max` (`None`: no limit). Counts are
/// never read as real numbers: `--games 0.5` is refused, not cut to 0.
fn whole<T>(
    min: u64,
    max: Option<u64>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: TryFrom<u64> + Clone + Send + Sync + 'static,
{
    move |text: &str| {
        text.parse::<u64>()
            .ok()
            .filter(|&n| n >= min && max.is_none_or(|max| n <= max))
            .and_then(|n| T::try_from(n).ok())
            .ok_or_else(|| match (min, max) {
                (_, Some(max)) => format!("needs a whole number from {min} to {max}"),
                (0, None) => "needs a whole number".to_string(),
                (1, None) => "needs a positive whole number".to_string(),
                (_, None) => format!("needs a whole number of at least {min}"),
            })
    }
}

/// A seed for the random choices: any whole number.
fn seed() -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    whole(0, None)
}

/// A value named by one of `all`'s ids; the help and the errors list them.
fn one_of<T, const N: usize>(
    all: [T; N],
    id: fn(T) -> &'static str,
) -> impl TypedValueParser<Value = T>
where
    T: Copy + Send + Sync + 'static,
{
    PossibleValuesParser::new(all.map(id)).map(move |name| {
        all.into_iter()
            .find(|&t| id(t) == name)
            .expect("clap accepts only the listed names")
    })
}

/// An option that turns a part of the search `on` or `off` (a value, not a
/// flag, so that either can be said whatever the default).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    On,
    Off,
}

impl Switch {
    pub fn is_on(self) -> bool {
        self == Switch::On
    }
}

/// A 中将棋 rule profile: `jcsa` or `lishogi`.
fn profile() -> impl TypedValueParser<Value = crate::rules::chu::Profile> {
    use crate::rules::chu::Profile;
    one_of(Profile::ALL, Profile::id)
}
