//! `yorimichi moves chushogi`: for each SFEN read on standard input, the
//! game's end (if it is over) and every legal move in USI, one line each.
//! The differential test against lishogi's rules library
//! (`tools/shogiops/diff.mjs`) reads it.

use std::io::{BufRead, Write};

use clap::Args;

use super::Outcome;
use crate::rules::chu::Profile;
use crate::rules::chu::end::outcome_in;
use crate::rules::chu::moves::legal_moves_in;
use crate::rules::chu::position::ChuPosition;
use crate::rules::data::GameId;
use crate::rules::game::Side;

/// `yorimichi moves chushogi [--profile P]`, SFENs on standard input.
#[derive(Args, Clone, Debug, PartialEq)]
pub struct MovesArgs {
    /// The game: chushogi.
    #[arg(value_name = "ID", value_parser = super::only(GameId::ChuShogi))]
    pub game: GameId,
    /// The rules' profile.
    #[arg(long, value_name = "P", default_value = "lishogi", value_parser = super::profile())]
    pub profile: Profile,
}

/// One answer line: `ongoing|sente|gote|draw <why>`, a tab, the moves
/// (sorted, space-separated; none once the game is over); or `error`, a
/// tab, the reason.
pub fn answer(profile: Profile, sfen: &str) -> String {
    let pos = match ChuPosition::from_sfen(sfen) {
        Ok(pos) => pos,
        Err(e) => return format!("error\t{e}"),
    };
    let outcome = outcome_in(profile, &pos);
    let end = match outcome {
        None => "ongoing".to_string(),
        Some((Some(Side::First), why)) => format!("sente {why:?}"),
        Some((Some(Side::Second), why)) => format!("gote {why:?}"),
        Some((None, why)) => format!("draw {why:?}"),
    };
    // Nothing moves once the game is over.
    let mut moves = Vec::new();
    if outcome.is_none() {
        legal_moves_in(profile, &pos, &mut moves);
    }
    let mut texts: Vec<String> = moves.iter().map(|m| m.usi()).collect();
    texts.sort();
    format!("{end}\t{}", texts.join(" "))
}

pub(crate) fn run(args: &MovesArgs, out: &mut dyn Write) -> Outcome {
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        let sfen = line.trim();
        if sfen.is_empty() {
            continue;
        }
        writeln!(out, "{}", answer(args.profile, sfen))?;
    }
    Ok(())
}
