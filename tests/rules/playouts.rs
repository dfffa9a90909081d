//! Random playouts of every two-player game through its game record (issue
//! 9), checking at every position what the screens and the search rely on:
//! - the record accepts exactly the legal moves: each move it is offered
//!   that was legal a move ago but is not now is refused, and leaves the
//!   record as it was;
//! - taking a move back restores the position and its hash exactly
//!   (positions are copy-made: the undo is the kept copy);
//! - pieces add up: the mover keeps all of its pieces, the opponent loses
//!   exactly the pieces the move's capture view names, and those points no
//!   longer hold the opponent's pieces;
//! - an outcome is final: the record refuses every move after it.
//!
//! `make test` plays 20 000 moves a game; `YORIMICHI_PLAYOUT_MOVES` sets
//! the total for longer runs (`make soak`: a million a game).

use rand::{RngExt, SeedableRng, rngs::StdRng};
use yorimichi::games::session::Playable;
use yorimichi::rules::game::Side;
use yorimichi::rules::record::{GameRecord, RecordError};
use yorimichi::rules::rulebook::Rulebook;

fn moves_per_game() -> usize {
    std::env::var("YORIMICHI_PLAYOUT_MOVES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_000)
}

/// Each side's pieces on the board, point by point.
fn board<G: Playable>(game: &G, pos: &G::Pos) -> Vec<Option<Side>> {
    (0..game.graph().len())
        .map(|p| game.piece_at(pos, p))
        .collect()
}

fn count(board: &[Option<Side>], side: Side) -> usize {
    board.iter().filter(|&&s| s == Some(side)).count()
}

fn playouts<G: Playable>(name: &str, game: &G, seed: u64) {
    let mut rng = StdRng::seed_from_u64(seed);
    let started = std::time::Instant::now();
    let (mut moves_played, mut games, mut refused) = (0usize, 0usize, 0usize);
    while moves_played < moves_per_game() {
        games += 1;
        let mut record = GameRecord::new(game);
        let mut previous_legal: Vec<G::Move> = Vec::new();
        loop {
            let pos = record.current().clone();
            let before = board(game, &pos);
            let hash = game.hash(&pos);
            let legal = record.legal_moves(game);
            if record.outcome(game).is_some() {
                for &mv in legal.iter().chain(&previous_legal).take(6) {
                    assert!(
                        matches!(record.play(game, mv), Err(RecordError::Finished)),
                        "{name}: a move was taken after the end"
                    );
                    refused += 1;
                }
                break;
            }
            assert!(
                !legal.is_empty(),
                "{name}: no legal move and no outcome at ply {}: {pos:?}",
                record.ply()
            );
            for &mv in previous_legal.iter().filter(|m| !legal.contains(m)).take(6) {
                assert!(
                    matches!(record.play(game, mv), Err(RecordError::Illegal(_))),
                    "{name}: an illegal move {mv:?} was taken at ply {}",
                    record.ply()
                );
                refused += 1;
            }
            assert_eq!(record.hashes().last().copied(), Some(hash), "{name}");
            assert_eq!(
                board(game, record.current()),
                before,
                "{name}: a refusal changed the position"
            );

            let mv = legal[rng.random_range(0..legal.len())];
            let mover = game.side_to_move(&pos);
            let view = game.capture_view(&pos, mv);
            record
                .play(game, mv)
                .unwrap_or_else(|e| panic!("{name}: legal {mv:?} refused: {e:?}"));
            moves_played += 1;
            let after = board(game, record.current());
            assert_eq!(
                count(&after, mover),
                count(&before, mover),
                "{name}: the mover lost a piece with {mv:?}"
            );
            assert_eq!(
                count(&after, mover.opponent()),
                count(&before, mover.opponent()) - view.captured.len(),
                "{name}: {mv:?} took other pieces than its capture view names ({:?})",
                view.captured
            );
            for &p in &view.captured {
                assert_eq!(
                    before[p],
                    Some(mover.opponent()),
                    "{name}: {mv:?} 'took' an empty point"
                );
                assert_ne!(
                    after[p],
                    Some(mover.opponent()),
                    "{name}: {mv:?} left a taken piece"
                );
            }
            // Undo, and the same move again.
            let hashes = record.hashes().to_vec();
            assert!(record.undo());
            assert_eq!(
                board(game, record.current()),
                before,
                "{name}: undo did not restore the board"
            );
            assert_eq!(
                game.hash(record.current()),
                hash,
                "{name}: undo did not restore the hash"
            );
            assert_eq!(record.hashes().len() + 1, hashes.len());
            record.play(game, mv).expect("the same move again");
            assert_eq!(
                record.hashes(),
                &hashes[..],
                "{name}: replaying gave another hash"
            );
            previous_legal = legal;
        }
    }
    println!(
        "{name}: {moves_played} random moves in {games} games, {refused} moves refused as they should be, {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn hasami_shogi_playouts_keep_the_invariants() {
    let game = <yorimichi::rules::hasami::Hasami as Rulebook>::create(
        &yorimichi::rules::hasami::HasamiRules::STANDARD,
    )
    .expect("the standard rules");
    playouts("はさみ将棋", &game, 1);
}

#[test]
fn fox_and_geese_playouts_keep_the_invariants() {
    let presets = yorimichi::rules::data::foxgeese_presets().expect("presets");
    for (i, preset) in presets.presets.iter().enumerate() {
        let game = <yorimichi::rules::foxgeese::FoxGeese as Rulebook>::create(&preset.rules)
            .expect("the preset's game");
        playouts(
            &format!("きつねとがちょう {}", preset.id),
            &game,
            10 + i as u64,
        );
    }
}

#[test]
fn juroku_musashi_playouts_keep_the_invariants() {
    let presets = yorimichi::rules::data::musashi_presets().expect("presets");
    for (i, preset) in presets.presets.iter().enumerate() {
        let game = <yorimichi::rules::musashi::Musashi as Rulebook>::create(&preset.rules)
            .expect("the preset's game");
        playouts(&format!("十六むさし {}", preset.id), &game, 20 + i as u64);
    }
}

#[test]
fn chu_shogi_playouts_keep_the_invariants() {
    use yorimichi::rules::chu::Profile;
    use yorimichi::rules::chu::game::ChuRules;
    for (name, profile) in [
        ("中将棋 JCSA", Profile::Jcsa),
        ("中将棋 lishogi", Profile::Lishogi),
    ] {
        let rules = ChuRules { profile };
        let game =
            <yorimichi::rules::chu::game::Chu as Rulebook>::create(&rules).expect("the rules");
        playouts(name, &game, 30);
    }
}
