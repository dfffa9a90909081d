//! `yorimichi convert chushogi --to kif|usi|sfen|points`: reads one 中将棋
//! game on standard input — a KIF, a USI game (`position startpos|sfen …
//! moves …`) or a bare SFEN — and writes it as KIF, as USI, as the SFEN of
//! its final position, or as each side's points there as the 60-minute
//! cutoff counts them.

use std::io::{Read, Write};

use clap::Args;

use super::Outcome;
use crate::rules::chu::Profile;
use crate::rules::chu::end::cutoff_points;
use crate::rules::chu::kif::ChuKif;
use crate::rules::data::GameId;

/// What `convert` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    Kif,
    Usi,
    Sfen,
    Points,
}

impl Form {
    pub const ALL: [Form; 4] = [Form::Kif, Form::Usi, Form::Sfen, Form::Points];

    pub fn id(self) -> &'static str {
        match self {
            Form::Kif => "kif",
            Form::Usi => "usi",
            Form::Sfen => "sfen",
            Form::Points => "points",
        }
    }
}

/// `yorimichi convert chushogi --to kif|usi|sfen|points [--profile P]`, the
/// game on standard input.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct ConvertArgs {
    /// The game: chushogi.
    #[arg(value_name = "ID", value_parser = super::only(GameId::ChuShogi))]
    pub game: GameId,
    /// What to write: kif, usi (`position … moves …`), sfen (the final
    /// position) or points (each side's there, as the 60-minute cutoff
    /// counts them: `先手 67.4 後手 71.5`).
    #[arg(long, value_name = "FORM", value_parser = super::one_of(Form::ALL, Form::id))]
    pub to: Form,
    /// The rules every move is checked under.
    #[arg(long, value_name = "P", default_value = "jcsa", value_parser = super::profile())]
    pub profile: Profile,
}

/// Reads a game in any of the forms ([`ChuKif::read_any`]).
pub fn read_game(profile: Profile, text: &str) -> Result<ChuKif, String> {
    ChuKif::read_any(profile, text)
}

/// The game in the asked form, ending with a newline.
pub fn convert(args: &ConvertArgs, text: &str) -> Result<String, String> {
    let kif = read_game(args.profile, text)?;
    Ok(match args.to {
        Form::Kif => kif.write(),
        Form::Usi => format!("{}\n", kif.game.usi()),
        Form::Sfen => format!("{}\n", kif.game.end().to_sfen()),
        Form::Points => {
            let [first, second] = cutoff_points(&kif.game.end());
            let tenths = |t: i32| format!("{}.{}", t / 10, t % 10);
            format!("先手 {} 後手 {}\n", tenths(first), tenths(second))
        }
    })
}

pub(crate) fn run(args: &ConvertArgs, out: &mut dyn Write) -> Outcome {
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read standard input: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| {
        "standard input is not UTF-8 (a KIF in Shift_JIS can be converted first: iconv -f SHIFT_JIS -t UTF-8)"
    })?;
    write!(out, "{}", convert(args, &text)?)?;
    Ok(())
}
