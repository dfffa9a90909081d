//! Fuzzing the text readers (issue 9) without extra crates: valid texts are
//! mutated at random (characters deleted, inserted, replaced, swapped,
//! fields cut) and fed to each reader. No reader may panic, and whatever a
//! reader accepts must write back to text that reads as the same thing.
//!
//! `make test` runs a few thousand cases a reader; `YORIMICHI_FUZZ_CASES`
//! sets the count for longer runs (`make soak`).

use rand::{Rng, RngExt, SeedableRng, rngs::StdRng};
use yorimichi::rules::chu::game::Chu;
use yorimichi::rules::chu::moves::{ChuMove, legal_moves, parse_usi};
use yorimichi::rules::chu::position::ChuPosition;
use yorimichi::rules::chu::record::ChuGameText;
use yorimichi::rules::data;
use yorimichi::rules::game::Game;

fn cases() -> usize {
    std::env::var("YORIMICHI_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4000)
}

/// Characters the readers care about, and some they should refuse.
const ALPHABET: &[char] = &[
    '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i',
    'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', 'v', 'w', 'x', 'A', 'K', 'N', 'P', 'O',
    '+', '-', '/', '.', ' ', '\n', '*', '親', '子', '王', '\u{0}',
];

fn pick(rng: &mut impl Rng) -> char {
    ALPHABET[rng.random_range(0..ALPHABET.len())]
}

/// One random change to `text`.
fn mutate(text: &str, rng: &mut impl Rng) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.random_range(1..4) {
        let len = chars.len();
        match rng.random_range(0..6) {
            0 if len > 0 => {
                chars.remove(rng.random_range(0..len));
            }
            1 => {
                let c = pick(rng);
                chars.insert(rng.random_range(0..=len), c);
            }
            2 if len > 0 => {
                let c = pick(rng);
                chars[rng.random_range(0..len)] = c;
            }
            3 if len > 1 => {
                let (i, j) = (rng.random_range(0..len), rng.random_range(0..len));
                chars.swap(i, j);
            }
            4 if len > 0 => chars.truncate(rng.random_range(0..len)),
            _ => {
                // Repeat a slice: long rows, doubled fields.
                if len > 0 {
                    let i = rng.random_range(0..len);
                    let j = rng.random_range(i..len);
                    let slice: Vec<char> = chars[i..=j].to_vec();
                    chars.splice(i..i, slice);
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// Positions from a few random games: the texts to mutate.
fn chu_positions(rng: &mut impl Rng) -> Vec<ChuPosition> {
    let chu = Chu::default();
    let mut out = vec![chu.start()];
    let mut pos = chu.start();
    for _ in 0..120 {
        let mut moves: Vec<ChuMove> = Vec::new();
        legal_moves(&pos, &mut moves);
        if moves.is_empty() || chu.outcome(&pos).is_some() {
            break;
        }
        pos = chu.play(&pos, moves[rng.random_range(0..moves.len())]);
        out.push(pos.clone());
    }
    out
}

#[test]
fn sfen_survives_mutation_and_round_trips_what_it_accepts() {
    let mut rng = StdRng::seed_from_u64(1);
    let seeds: Vec<String> = chu_positions(&mut rng)
        .iter()
        .map(|p| p.to_sfen())
        .collect();
    let mut accepted = 0;
    for i in 0..cases() {
        let text = mutate(&seeds[i % seeds.len()], &mut rng);
        if let Ok(pos) = ChuPosition::from_sfen(&text) {
            accepted += 1;
            let again = ChuPosition::from_sfen(&pos.to_sfen())
                .unwrap_or_else(|e| panic!("{text:?} read, but its SFEN does not: {e}"));
            assert_eq!(again, pos, "{text:?}");
        }
    }
    println!("{accepted} of {} mutated SFENs read", cases());
}

#[test]
fn usi_moves_survive_mutation_and_round_trip() {
    let mut rng = StdRng::seed_from_u64(2);
    let positions = chu_positions(&mut rng);
    let mut accepted = 0;
    for i in 0..cases() {
        let pos = &positions[i % positions.len()];
        let mut moves = Vec::new();
        legal_moves(pos, &mut moves);
        let Some(&base) = moves.get(rng.random_range(0..moves.len().max(1))) else {
            continue;
        };
        let text = mutate(&base.usi(), &mut rng);
        if let Ok(mv) = parse_usi(pos, &text) {
            accepted += 1;
            assert!(moves.contains(&mv), "{text:?} read as an illegal move");
            assert_eq!(parse_usi(pos, &mv.usi()), Ok(mv));
        }
    }
    println!("{accepted} of {} mutated moves read", cases());
}

#[test]
fn game_texts_survive_mutation_and_round_trip() {
    let mut rng = StdRng::seed_from_u64(3);
    let chu = Chu::default();
    let mut pos = chu.start();
    let mut played = Vec::new();
    for _ in 0..30 {
        let mut moves = Vec::new();
        legal_moves(&pos, &mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        played.push(mv);
        pos = chu.play(&pos, mv);
    }
    let game = ChuGameText {
        start: chu.start(),
        moves: played,
    };
    let texts = [
        game.usi(),
        game.usi()
            .replace("startpos", &format!("sfen {}", chu.start().to_sfen())),
    ];
    for i in 0..cases() {
        let text = mutate(&texts[i % texts.len()], &mut rng);
        if let Ok(read) = ChuGameText::parse(&text) {
            assert_eq!(
                ChuGameText::parse(&read.usi()).as_ref(),
                Ok(&read),
                "{text:?}"
            );
        }
    }
}

#[test]
fn musashi_position_texts_survive_mutation_and_round_trip() {
    let mut rng = StdRng::seed_from_u64(4);
    // The start on both boards, and positions from random games.
    let mut seeds = Vec::new();
    for setchin in [true, false] {
        let game = data::musashi_standard(setchin).unwrap();
        let mut pos = game.start();
        for _ in 0..40 {
            seeds.push(game.to_text(&pos));
            let mut moves = Vec::new();
            game.legal_moves(&pos, &mut moves);
            if moves.is_empty() || game.outcome(&pos).is_some() {
                break;
            }
            pos = game.play(&pos, moves[rng.random_range(0..moves.len())]);
        }
    }
    let mut accepted = 0;
    for i in 0..cases() {
        let text = mutate(&seeds[i % seeds.len()], &mut rng);
        if let Ok((game, pos)) = data::musashi_position(&text) {
            accepted += 1;
            let written = game.to_text(&pos);
            let (_, again) = data::musashi_position(&written)
                .unwrap_or_else(|e| panic!("{text:?} read, but {written:?} does not: {e}"));
            assert_eq!(again, pos, "{text:?}");
        }
    }
    println!("{accepted} of {} mutated position texts read", cases());
}
