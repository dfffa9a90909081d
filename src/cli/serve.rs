//! `yorimichi serve`: the room server that lets family and friends play
//! from their own devices (built with `--features server`).

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Args;

use super::{Failure, Outcome};

/// `yorimichi serve [--lan] [--listen ADDR] [--db FILE] [--web DIR]`.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct ServeArgs {
    /// The address and port to listen on (`0.0.0.0:8787` for other
    /// machines; put it behind TLS as docs/rooms.md shows).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8787")]
    pub listen: SocketAddr,
    /// The SQLite database the rooms are kept in (made if missing).
    #[arg(long, value_name = "FILE", default_value = "yorimichi.sqlite3")]
    pub db: PathBuf,
    /// Also serve this web build (`make web-build` writes dist/).
    #[arg(long, value_name = "DIR")]
    pub web: Option<PathBuf>,
    /// Rooms made, joined or returned to that one address may try a minute.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 60,
        value_parser = super::whole::<u32>(1, Some(1_000_000))
    )]
    pub joins_per_minute: u32,
    /// Print the address devices connect to (ws://ADDR/ws) on standard
    /// output once listening: with `--listen 127.0.0.1:0`, the port the
    /// system gave (`bench-rooms` starts its server so).
    #[arg(long)]
    pub print_address: bool,
    /// For a home: listen on every network of this machine at --listen's
    /// port, serve the web build (--web, by default dist/), and print the
    /// address the other devices open; a room's screen then shows its join
    /// link as a QR code. Without it only this machine can connect.
    #[arg(long)]
    pub lan: bool,
    /// With --lan: the address the other devices reach this machine at,
    /// where the one found is not the home network's (a machine on
    /// several networks).
    #[arg(long, value_name = "IP", requires = "lan")]
    pub lan_address: Option<std::net::IpAddr>,
    /// For tests: take a 中将棋 room's clock of any length (up to 60 min
    /// and 秒読み 10 min), not only the setup screen's choices.
    #[arg(long)]
    pub any_clock: bool,
}

#[cfg(feature = "server")]
pub(crate) fn run(args: &ServeArgs, _out: &mut dyn Write) -> Outcome {
    // The other devices of a home have no program of their own: they play
    // the web build this server serves.
    let web = match (&args.web, args.lan) {
        (None, true) => Some(PathBuf::from("dist")),
        (web, _) => web.clone(),
    };
    if let Some(web) = &web
        && !web.join("index.html").is_file()
    {
        return Err(Failure::Message(format!(
            "{} has no index.html: build it with `make web-build`",
            web.display()
        )));
    }
    crate::server::run(crate::server::ServeOptions {
        listen: args.listen,
        db: args.db.clone(),
        web,
        joins_per_minute: args.joins_per_minute,
        print_address: args.print_address,
        lan: args.lan,
        announce: announced_address(args),
        any_clock: args.any_clock,
    })
    .map_err(Failure::Message)
}

/// The address a `--lan` server tells devices: the one given, or the one
/// its traffic to other networks leaves from.
#[cfg(feature = "server")]
fn announced_address(args: &ServeArgs) -> Option<std::net::IpAddr> {
    if !args.lan {
        return None;
    }
    args.lan_address
        .or_else(crate::server::home_network_address)
}

#[cfg(not(feature = "server"))]
pub(crate) fn run(_args: &ServeArgs, _out: &mut dyn Write) -> Outcome {
    Err(Failure::Message(
        "this build has no room server: build it with `cargo build --release --features server` (or `make serve`)"
            .to_string(),
    ))
}
