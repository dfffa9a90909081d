//! まわり将棋's replay: a race played from its log of throws is the race
//! as played (every rule on, the turns sat out between throws passed as
//! the play screen passes them), a log that does not agree stops the
//! replay there, and each player's ranks follow the throws.

use yorimichi::rules::mawari::dice::ThrowValue;
use yorimichi::rules::mawari::physics::SplitMix64;
use yorimichi::rules::mawari::race::{Event, MawariRules, Race, Rank};
use yorimichi::rules::mawari::replay::{Logged, TOP, height, ranks, replay};

/// A throw log as the play screen keeps it: who threw, what came up, the
/// named events.
type Log = Vec<(usize, ThrowValue, Vec<Event>)>;

/// A race played to its end (or `limit` throws) with seeded throws, as
/// the play screen plays it: dead players' turns passed before a throw.
fn played(players: usize, rules: MawariRules, seed: u64, limit: usize) -> (Race, Race, Log) {
    let start = Race::new(players, rules).expect("a race");
    let mut race = start.clone();
    let mut rng = SplitMix64(seed);
    let mut log = Vec::new();
    let values = ThrowValue::possible_moves();
    while !race.is_over() && log.len() < limit {
        if race.sits_out() {
            race.skip_turn();
            continue;
        }
        let r = rng.next_u64();
        let value = match r % 40 {
            0 => ThrowValue::Senko,
            1 => ThrowValue::OffBoard,
            2 => ThrowValue::Baba { counted: 1 },
            _ => ThrowValue::Move(values[(r >> 8) as usize % values.len()]),
        };
        let Some(player) = race.thrower() else { break };
        let events = race.apply(value);
        let named = events
            .into_iter()
            .filter(|e| !matches!(e, Event::Step { .. }))
            .collect();
        log.push((player, value, named));
    }
    (start, race, log)
}

fn logged(log: &Log) -> impl Iterator<Item = Logged<'_>> {
    log.iter().map(|(player, value, events)| Logged {
        player: *player,
        value: *value,
        events,
    })
}

#[test]
fn a_race_replayed_from_its_log_is_the_race_played() {
    let (mut sat_out, mut ended) = (0, 0);
    for seed in 1..=12 {
        for players in 2..=4 {
            let (start, end, log) = played(players, MawariRules::ALL, seed, 600);
            let r = replay(&start, logged(&log));
            assert_eq!(r.throws(), log.len(), "seed {seed}, {players} players");
            ended += usize::from(end.is_over());
            sat_out += r
                .events
                .iter()
                .flatten()
                .filter(|e| matches!(e, Event::Skip { .. }))
                .count();
            assert_eq!(r.races.len(), log.len() + 1);
            assert_eq!(r.races[0], start);
            // The end matches up to the turns sat out after the last throw.
            let mut last = end.clone();
            while !last.is_over() && last.sits_out() {
                last.skip_turn();
            }
            assert_eq!(r.races[log.len()], last, "seed {seed}");
            // Each throw's events, steps and all, name what the log named.
            for (k, (did, (_, _, named))) in r.events.iter().zip(&log).enumerate() {
                let shown: Vec<Event> = did
                    .iter()
                    .filter(|e| !matches!(e, Event::Step { .. } | Event::Skip { .. }))
                    .copied()
                    .collect();
                let named: Vec<Event> = named
                    .iter()
                    .filter(|e| !matches!(e, Event::Skip { .. }))
                    .copied()
                    .collect();
                assert_eq!(shown, named, "seed {seed}, throw {}", k + 1);
            }
            let ranks = ranks(&r);
            assert_eq!(ranks.len(), players);
            for (p, line) in ranks.iter().enumerate() {
                assert_eq!(line.len(), log.len());
                for (k, rank) in line.iter().enumerate() {
                    assert_eq!(*rank, r.races[k + 1].pieces[p].rank);
                }
            }
        }
    }
    // The seeds reach the ends of races and turns sat out.
    assert!(ended > 20, "{ended} races ended");
    assert!(sat_out > 0, "no turn was sat out");
}

#[test]
fn a_log_that_does_not_agree_stops_the_replay_there() {
    let (start, _, log) = played(4, MawariRules::ALL, 5, 40);
    assert!(log.len() > 10);
    // A throw by someone whose turn it was not.
    let mut wrong = log.clone();
    wrong[7].0 = (wrong[7].0 + 1) % 4;
    assert_eq!(replay(&start, logged(&wrong)).throws(), 7);
    // A throw that did something else than logged.
    let mut wrong = log.clone();
    wrong[9].2.push(Event::Win { piece: 0 });
    let r = replay(&start, logged(&wrong));
    assert_eq!(r.throws(), 9);
    assert_eq!(r.races.len(), 10);
    assert_eq!(ranks(&r)[0].len(), 9);
}

#[test]
fn heights_climb_the_ladder() {
    assert_eq!(height(Rank::SenkoStand), 0);
    assert_eq!(height(Rank::Fu), 4);
    assert_eq!(height(Rank::Osho), TOP);
    assert!(height(Rank::Kyosha) < height(Rank::Keima));
}
