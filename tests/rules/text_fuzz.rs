//! Fuzzing the text readers (issue 9) without extra crates: valid texts are
//! mutated at random (characters deleted, inserted, replaced, swapped,
//! fields cut) and fed to each reader. No reader may panic, and whatever a
//! reader accepts must write back to text that reads as the same thing.
//!
//! `make test` runs a few thousand cases a reader; for longer runs
//! `YORIMICHI_FUZZ_CASES` sets the count and `YORIMICHI_FUZZ_SECONDS` the
//! least time a reader is fuzzed (`make soak`: two minutes each). Each
//! reader prints how many texts it tried, in how long, and how many it
//! accepted.

use rand::{Rng, RngExt, SeedableRng, rngs::StdRng};
use yorimichi::rules::chu::game::Chu;
use yorimichi::rules::chu::moves::{ChuMove, legal_moves, parse_usi};
use yorimichi::rules::chu::position::ChuPosition;
use yorimichi::rules::chu::record::ChuGameText;
use yorimichi::rules::data;
use yorimichi::rules::game::Game;

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|v| v.parse().ok())
}

/// Runs `case` (one mutated text; true when the reader accepted it) at
/// least the set number of times and for at least the set time, then
/// prints the figures.
fn fuzz(reader: &str, mut case: impl FnMut(usize) -> bool) {
    let least_cases = env_number("YORIMICHI_FUZZ_CASES").unwrap_or(4000) as usize;
    let least_time =
        std::time::Duration::from_secs(env_number("YORIMICHI_FUZZ_SECONDS").unwrap_or(0));
    let started = std::time::Instant::now();
    let (mut tried, mut accepted) = (0usize, 0usize);
    while tried < least_cases || started.elapsed() < least_time {
        accepted += usize::from(case(tried));
        tried += 1;
    }
    println!(
        "{reader}: {tried} mutated texts in {:.1} s, {accepted} accepted and read back the same",
        started.elapsed().as_secs_f64()
    );
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
    fuzz("中将棋 SFEN", |i| {
        let text = mutate(&seeds[i % seeds.len()], &mut rng);
        let Ok(pos) = ChuPosition::from_sfen(&text) else {
            return false;
        };
        let again = ChuPosition::from_sfen(&pos.to_sfen())
            .unwrap_or_else(|e| panic!("{text:?} read, but its SFEN does not: {e}"));
        assert_eq!(again, pos, "{text:?}");
        true
    });
}

#[test]
fn usi_moves_survive_mutation_and_round_trip() {
    let mut rng = StdRng::seed_from_u64(2);
    let positions = chu_positions(&mut rng);
    fuzz("中将棋 USI moves", |i| {
        let pos = &positions[i % positions.len()];
        let mut moves = Vec::new();
        legal_moves(pos, &mut moves);
        let Some(&base) = moves.get(rng.random_range(0..moves.len().max(1))) else {
            return false;
        };
        let text = mutate(&base.usi(), &mut rng);
        let Ok(mv) = parse_usi(pos, &text) else {
            return false;
        };
        assert!(moves.contains(&mv), "{text:?} read as an illegal move");
        assert_eq!(parse_usi(pos, &mv.usi()), Ok(mv));
        true
    });
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
    fuzz("中将棋 game texts", |i| {
        let text = mutate(&texts[i % texts.len()], &mut rng);
        let Ok(read) = ChuGameText::parse(&text) else {
            return false;
        };
        assert_eq!(
            ChuGameText::parse(&read.usi()).as_ref(),
            Ok(&read),
            "{text:?}"
        );
        true
    });
}

#[test]
fn kif_texts_survive_mutation_and_round_trip() {
    use yorimichi::rules::chu::Profile;
    use yorimichi::rules::chu::kif::ChuKif;
    let mut rng = StdRng::seed_from_u64(5);
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/kif");
    let mut texts: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .map(|entry| std::fs::read_to_string(entry.unwrap().path()).unwrap())
        .collect();
    texts.sort();
    assert!(texts.len() >= 6, "{}", folder.display());
    fuzz("中将棋 KIF", |i| {
        let text = mutate(&texts[i % texts.len()], &mut rng);
        let Ok(kif) = ChuKif::read(Profile::Jcsa, &text) else {
            return false;
        };
        let written = kif.write();
        let again = ChuKif::read(Profile::Jcsa, &written)
            .unwrap_or_else(|e| panic!("{text:?} read, but its KIF does not: {e}\n{written}"));
        assert_eq!(again, kif, "{text:?}");
        true
    });
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
    fuzz("十六むさし positions", |i| {
        let text = mutate(&seeds[i % seeds.len()], &mut rng);
        let Ok((game, pos)) = data::musashi_position(&text) else {
            return false;
        };
        let written = game.to_text(&pos);
        let (_, again) = data::musashi_position(&written)
            .unwrap_or_else(|e| panic!("{text:?} read, but {written:?} does not: {e}"));
        assert_eq!(again, pos, "{text:?}");
        true
    });
}

#[test]
fn mawari_race_texts_survive_mutation_and_round_trip() {
    use yorimichi::rules::mawari::race::RaceText;
    let mut rng = StdRng::seed_from_u64(5);
    let seeds = [
        "hisha@6 fu@14/1 tokin@22! osho@30+12 turn=0",
        "fu@0 fu@16 turn=1",
        "rules=basic hisha@6 hisha@14 hisha@22 hisha@30 turn=0",
        "kaku@3 kyosha@17/2 turn=1 winner=0",
    ];
    fuzz("まわり将棋 race texts", |i| {
        let text = mutate(seeds[i % seeds.len()], &mut rng);
        let Ok(parsed) = RaceText::parse(&text) else {
            return false;
        };
        assert_eq!(RaceText::parse(&parsed.write()), Ok(parsed), "{text}");
        true
    });
}

/// Saves are read back from storage a player (or a broken disk) may have
/// changed: a mutated save of a 中将棋 game 40 moves in, or of a はさみ将棋
/// game, is refused or resumes a game whose save is itself.
#[test]
fn saves_survive_mutation_and_round_trip() {
    use yorimichi::games::session::{GameSave, Match, MatchSetup, Opponent, Playable};
    use yorimichi::rules::game::Side;
    use yorimichi::shell::save::{decode, encode};
    fn saved<G: Playable>(rules: G::Rules, plies: usize, rng: &mut StdRng) -> String {
        let setup = MatchSetup::new(Opponent::Human, Side::First, "custom", rules);
        let mut m = Match::<G>::new(setup).expect("a match");
        for _ in 0..plies {
            let mut moves = Vec::new();
            m.game.legal_moves(m.record.current(), &mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.random_range(0..moves.len())];
            if m.record.play(&m.game, mv).is_err() || m.record.outcome(&m.game).is_some() {
                break;
            }
        }
        encode(&G::ID.save_key(), &m.to_save()).expect("encodes")
    }
    fn resumes<G: Playable>(text: &str) -> bool {
        let key = G::ID.save_key();
        let Ok(save) = decode::<GameSave<G::Rules, G::Move>>(&key, text) else {
            return false;
        };
        let Ok(m) = Match::<G>::from_save(save) else {
            return false;
        };
        let again = encode(&key, &m.to_save()).expect("encodes");
        let back = decode::<GameSave<G::Rules, G::Move>>(&key, &again)
            .unwrap_or_else(|e| panic!("{text:?} resumed, but its own save does not read: {e:?}"));
        let m2 = Match::<G>::from_save(back).expect("its own save resumes");
        assert_eq!(m2.record.moves(), m.record.moves(), "{text:?}");
        true
    }
    let mut rng = StdRng::seed_from_u64(6);
    let chu = saved::<Chu>(yorimichi::rules::chu::game::ChuRules::JCSA, 40, &mut rng);
    let hasami = saved::<yorimichi::rules::hasami::Hasami>(
        yorimichi::rules::hasami::HasamiRules::STANDARD,
        20,
        &mut rng,
    );
    fuzz("saves (中将棋, はさみ将棋)", |i| {
        if i % 2 == 0 {
            resumes::<Chu>(&mutate(&chu, &mut rng))
        } else {
            resumes::<yorimichi::rules::hasami::Hasami>(&mutate(&hasami, &mut rng))
        }
    });
}
