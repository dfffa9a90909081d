//! 中将棋 moves in XBoard's notation (CECP, as HaChu and XBoard/WinBoard
//! use it for `variant chu`): files `a`–`l` from 先手's left, ranks `1`–`12`
//! from 先手's side, `+` for a promotion, and a two-step move as two legs
//! joined by a comma (`f5f6,f6f7`; 居食い returns: `f5f6,f6f5`). じっと, a
//! pass, is read as a move onto the same square (`f5f5`), as two legs
//! out and back, or as XBoard's null move `@@@@`, which names no piece
//! (any legal じっと: every one leaves the same position); it is written
//! as `@@@@`, as HaChu writes it.
//! A GUI sends both legs in one `usermove`; an engine sends each in a
//! `move` line of its own, the first ending with the comma.
//! XBoard's "white" is the side that moves first (先手, at the bottom).

use super::Profile;
use super::moves::{ChuMove, legal_moves_in};
use super::position::{ChuPosition, FILES, RANKS, Square};

/// `sq` as XBoard names it (USI `7i` is XBoard `f4`).
pub fn square(sq: Square) -> String {
    format!("{}{}", (b'a' + sq.column() as u8) as char, RANKS - sq.row())
}

/// Reads an XBoard square name.
pub fn parse_square(text: &str) -> Option<Square> {
    let mut chars = text.chars();
    let file = chars.next()?;
    let column = (file as u32).checked_sub('a' as u32)? as usize;
    let rank: usize = chars.as_str().parse().ok()?;
    if column >= FILES || !(1..=RANKS).contains(&rank) {
        return None;
    }
    Square::new(RANKS - rank, column)
}

/// `mv`, played in `pos`, in XBoard's notation. A two-step move through an
/// empty square that ends elsewhere is written as the single leap it
/// amounts to (HaChu knows it only so); じっと, a pass, is written as
/// XBoard's null move `@@@@`: HaChu keeps one pass in its list of legal
/// moves, that of whichever piece its generator meets last, and refuses a
/// pass by any other piece named by its square, but takes `@@@@` for the
/// one it has. A move
/// that could promote but does not says so with `=` (HaChu promotes a
/// piece entering the zone unless told otherwise).
pub fn move_text(pos: &ChuPosition, mv: ChuMove) -> String {
    let could_promote = !mv.promote && mv.mid.is_none() && {
        let mut moves = Vec::new();
        legal_moves_in(Profile::Lishogi, pos, &mut moves);
        moves.contains(&ChuMove {
            promote: true,
            ..mv
        })
    };
    let promote = match (mv.promote, could_promote) {
        (true, _) => "+",
        (false, true) => "=",
        (false, false) => "",
    };
    let leap = mv
        .mid
        .is_some_and(|m| pos.at(m).is_none() && mv.to != mv.from);
    let pass = mv.is_jitto(pos);
    match mv.mid {
        None => format!("{}{}{promote}", square(mv.from), square(mv.to)),
        Some(_) if leap => format!("{}{}", square(mv.from), square(mv.to)),
        Some(_) if pass => "@@@@".to_string(),
        Some(mid) => format!(
            "{}{},{}{}",
            square(mv.from),
            square(mid),
            square(mid),
            square(mv.to)
        ),
    }
}

/// Splits `e4e5` into its two squares.
fn leg(text: &str) -> Option<(Square, Square)> {
    // The second square starts at the second letter.
    let split = text
        .char_indices()
        .skip(1)
        .find(|(_, c)| c.is_ascii_lowercase())?
        .0;
    Some((parse_square(&text[..split])?, parse_square(&text[split..])?))
}

/// The `move` lines an engine sends for `text`: one, or one a leg.
pub fn engine_lines(text: &str) -> Vec<String> {
    match text.split_once(',') {
        Some((first, second)) => vec![format!("move {first},"), format!("move {second}")],
        None => vec![format!("move {text}")],
    }
}

/// Reads an XBoard move and finds it among the legal moves of `pos`; the
/// message says what is wrong.
pub fn parse_move(profile: Profile, pos: &ChuPosition, text: &str) -> Result<ChuMove, String> {
    let bad = || format!("\"{text}\" is not an XBoard move (e.g. h4h5, f5f6,f6f7)");
    let body = text.trim();
    if body.ends_with(',') {
        // An engine sends each leg in a `move` line of its own, the first
        // ending with a comma: join them before reading.
        return Err(format!("{text}: the rest of the move is still to come"));
    }
    let mut moves = Vec::new();
    legal_moves_in(profile, pos, &mut moves);
    // A move onto its own square is a じっと, through any empty neighbour.
    let passes = |from: Option<Square>| {
        moves
            .iter()
            .copied()
            .find(move |m| from.is_none_or(|f| m.from == f) && m.is_jitto(pos))
    };
    if body == "@@@@" {
        return passes(None).ok_or_else(|| format!("{text}: a pass, but no piece can pass here"));
    }
    let (body, promote) = match body.strip_suffix('+') {
        Some(b) => (b, true),
        None => (body.strip_suffix('=').unwrap_or(body), false),
    };
    let wanted = match body.split_once(',') {
        None => {
            let (from, to) = leg(body).ok_or_else(bad)?;
            ChuMove {
                from,
                mid: None,
                to,
                promote,
            }
        }
        Some((first, second)) => {
            let (from, mid) = leg(first).ok_or_else(bad)?;
            let (mid2, to) = leg(second).ok_or_else(bad)?;
            if mid != mid2 {
                return Err(format!(
                    "{text}: the second leg must start where the first ends"
                ));
            }
            ChuMove {
                from,
                mid: Some(mid),
                to,
                promote: false,
            }
        }
    };
    if moves.contains(&wanted) {
        return Ok(wanted);
    }
    if wanted.mid.is_none()
        && wanted.to == wanted.from
        && let Some(pass) = passes(Some(wanted.from))
    {
        return Ok(pass);
    }
    // A lion's leap may also be written as its two steps through an empty
    // square.
    if let Some(mid) = wanted.mid
        && pos.at(mid).is_none()
        && wanted.to != wanted.from
    {
        let leap = ChuMove {
            mid: None,
            ..wanted
        };
        if moves.contains(&leap) {
            return Ok(leap);
        }
    }
    Err(format!("{text} is not a legal move here"))
}
