//! The two rule profiles of 中将棋 (issue 6): JCSA (the seed's) and lishogi
//! (for games played there). Each difference listed in docs/rules/chushogi.md has a test
//! here; the positions follow lishogi's own chushogi tests where they can.

use yorimichi::rules::chu::Profile;
use yorimichi::rules::chu::end::{ChuEnd, outcome_in};
use yorimichi::rules::chu::moves::{legal_moves_in, parse_usi_in, play};
use yorimichi::rules::chu::position::ChuPosition;
use yorimichi::rules::game::Side;

fn pos(sfen: &str) -> ChuPosition {
    ChuPosition::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn legal(profile: Profile, p: &ChuPosition, usi: &str) -> bool {
    let mut moves = Vec::new();
    legal_moves_in(profile, p, &mut moves);
    moves.iter().any(|m| m.usi() == usi)
}

/// `sfen` after `moves`, each legal under `profile`.
fn after(profile: Profile, sfen: &str, moves: &[&str]) -> ChuPosition {
    moves.iter().fold(pos(sfen), |p, m| {
        let mv = parse_usi_in(profile, &p, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        play(&p, mv)
    })
}

#[test]
fn sakijishi_refuses_protected_lions_under_jcsa_and_every_lion_under_lishogi() {
    // 後手's rook takes 先手's lion on 8j; 後手's lion on 3i has no
    // protector, so JCSA lets 先手's bishop take it, lishogi does not.
    let sfen = "12/12/12/12/12/4r7/12/12/5o3n2/4N7/12/6B5 w - 1";
    for profile in [Profile::Jcsa, Profile::Lishogi] {
        let p = after(profile, sfen, &["8f8j"]);
        assert_eq!(p.lion_taken_at().map(|s| s.name()), Some("8j".into()));
        assert!(
            legal(profile, &p, "6l8j"),
            "{profile:?}: the rook may be taken"
        );
        assert_eq!(
            legal(profile, &p, "6l3i"),
            profile == Profile::Jcsa,
            "{profile:?}: an unprotected lion"
        );
    }
    // A 麒麟 takes the lion and promotes: a 後手 lion now stands on the
    // capture square, protected by the rook. JCSA refuses it (protected);
    // lishogi allows taking on the capture square.
    for profile in [Profile::Jcsa, Profile::Lishogi] {
        let p = after(profile, sfen, &["7i8j+"]);
        assert_eq!(
            legal(profile, &p, "6l8j"),
            profile == Profile::Lishogi,
            "{profile:?}: the new lion on the capture square"
        );
    }
}

#[test]
fn bare_king_counts_differently() {
    // 後手 has its king and a live 歩兵; 先手 a king and a gold, out of
    // reach. JCSA does not count the 歩兵: 先手 has won. lishogi counts
    // every piece that can still move on the bare side: play on.
    let p = pos("12/12/12/6k5/12/3p8/12/12/12/4G7/12/6K5 b - 1");
    assert_eq!(
        outcome_in(Profile::Jcsa, &p),
        Some((Some(Side::First), ChuEnd::BareKing))
    );
    assert_eq!(outcome_in(Profile::Lishogi, &p), None);

    // Taking the last gold leaves 後手 bare in both (lishogi's own case).
    let sfen = "12/12/12/12/6k5/4g7/4G7/6K5/12/12/12/12 b - 1";
    for profile in [Profile::Jcsa, Profile::Lishogi] {
        assert_eq!(outcome_in(profile, &pos(sfen)), None);
        let p = after(profile, sfen, &["8g8f"]);
        assert_eq!(
            outcome_in(profile, &p),
            Some((Some(Side::First), ChuEnd::BareKing)),
            "{profile:?}"
        );
    }

    // Kings side by side, 後手 to move: it can take the king, so nothing
    // is decided yet under either profile. With 先手 to move, JCSA counts
    // 後手 bare; lishogi waits while the bare king attacks the other.
    let sfen = "12/12/12/12/6k5/5K6/12/4G7/12/12/12/12 w - 1";
    for profile in [Profile::Jcsa, Profile::Lishogi] {
        assert_eq!(outcome_in(profile, &pos(sfen)), None, "{profile:?}");
    }
    let black = pos(&sfen.replace(" w ", " b "));
    assert_eq!(
        outcome_in(Profile::Jcsa, &black),
        Some((Some(Side::First), ChuEnd::BareKing))
    );
    assert_eq!(outcome_in(Profile::Lishogi, &black), None);
}

#[test]
fn lishogi_bares_no_king_against_a_king_and_its_prince() {
    // A match's last position (both profiles' referees): 後手 has only its
    // king; 先手 a king, a 太子 and a dozen pieces besides. lishogi counts a
    // bare king only against a side with one royal, so play goes on.
    let sfen = "12/12/12/4+E7/6k5/3+A8/12/12/12/12/2T1S1KT4/1FC1G2GSCF1 w - 394";
    assert_eq!(outcome_in(Profile::Lishogi, &pos(sfen)), None);
    assert_eq!(
        outcome_in(Profile::Jcsa, &pos(sfen)),
        None,
        "JCSA counts 駒枯れ only against one counting piece"
    );
    // Without the 太子, the same 後手 king is bare there.
    let one_royal = sfen.replace("4+E7", "12");
    assert_eq!(
        outcome_in(Profile::Lishogi, &pos(&one_royal)),
        Some((Some(Side::First), ChuEnd::BareKing))
    );
}

#[test]
fn lishogi_draws_when_only_the_kings_can_move() {
    // Dead 歩兵 and 香車 on their last ranks, two kings apart.
    let p = pos("1P3PP3P1/12/12/12/6k5/12/12/6K5/12/12/12/l10l b - 1");
    assert_eq!(
        outcome_in(Profile::Lishogi, &p),
        Some((None, ChuEnd::TooLittleLeft))
    );
    // JCSA has no such rule: the 60-minute cutoff will count the points.
    assert_eq!(outcome_in(Profile::Jcsa, &p), None);
}

/// Found by the differential test against shogiops
/// (`tools/shogiops/diff.mjs`): a lion takes a pawn and then a lion two
/// squares from where it started, the pawn it took being the only piece
/// that protected that lion. Both profiles count the protectors on the
/// board before the move, the pawn included: refused.
#[test]
fn a_pawn_taken_on_the_first_step_still_protects() {
    let p = pos(
        "lfcsgekgscfl/a1b1txot1b1a/mvrhd2dhrvm/ppppp2Npppp/3i2p1i3/6n5/12/3I4I3/PPPPPPPPPPP1/MVRHD1QDHRBM/A1B1TOXT3A/LFCSGKEGSCFL b - 27",
    );
    for profile in Profile::ALL {
        assert!(!legal(profile, &p, "5d6e6f"), "{profile:?}");
        // Taking the pawn alone stays legal.
        assert!(legal(profile, &p, "5d6e"), "{profile:?}");
    }
}

/// The JCSA's 足 is judged in the position the move is made in: a 付け喰い
/// whose first step takes the 仲人 that protects the lion is refused, as
/// lishogi refuses it. Without the 仲人 the lion is free to take.
#[test]
fn a_go_between_taken_on_the_first_step_still_protects() {
    let sfen = "k9n1/10i1/9N2/12/12/12/12/12/12/12/12/K11 b - 1";
    for profile in Profile::ALL {
        assert!(!legal(profile, &pos(sfen), "3c2b2a"), "{profile:?}");
        // Taking the 仲人 alone, or 居食い of it, is no lion capture.
        assert!(legal(profile, &pos(sfen), "3c2b"), "{profile:?}");
        assert!(legal(profile, &pos(sfen), "3c2b3c"), "{profile:?}");
    }
    let unprotected = "k9n1/12/9N2/12/12/12/12/12/12/12/12/K11 b - 1";
    for profile in Profile::ALL {
        assert!(legal(profile, &pos(unprotected), "3c2a"), "{profile:?}");
    }
}

/// Under 先獅子 (後手's lion was just taken on 2k by a rook), 後手's 飛鷲
/// takes 先手's lion on its first step and the gold that protects it on
/// its second. The JCSA counts the gold (the lion was protected when the
/// move was made): refused. lishogi's 先獅子 only forbids ending the move
/// on a lion: allowed.
#[test]
fn under_sakijishi_a_protector_taken_on_the_second_step_still_counts_under_jcsa() {
    let p = pos("k11/12/12/12/5+d6/4N7/3G8/12/12/12/10R1/K11 w 2k 1");
    assert_eq!(p.lion_taken_at().map(|s| s.name()), Some("2k".into()));
    assert!(!legal(Profile::Jcsa, &p, "7e8f9g"));
    assert!(legal(Profile::Lishogi, &p, "7e8f9g"));
    // Without 先獅子 the eagle may take the lion and the gold in either.
    let free = pos("k11/12/12/12/5+d6/4N7/3G8/12/12/12/10R1/K11 w - 1");
    for profile in Profile::ALL {
        assert!(legal(profile, &free, "7e8f9g"), "{profile:?}");
    }
}

/// The positions in which HaChu, to move, sent no move in matches: each
/// side to move there loses its king whatever it plays. A king in check
/// with a square to flee to, and the start, are not mated.
#[test]
fn a_side_whose_every_move_loses_its_king_is_mated() {
    use yorimichi::rules::chu::end::is_mated;
    for sfen in [
        "l1c1gekgs1fl/af1st1xtc2a/1m9m/11+A/12/pp4p1F3/12/12/3+r8/3K8/1+h10/11L b - 315",
        "5k+R5/+D6+P4/3n1g6/12/12/5ts5/12/12/8P3/2M9/1C2T1T2S2/1F1SGKE1GCF1 w - 312",
        "a2sgekgscf1/2f1tx1tmb1a/3m8/pp1p3p3p/3i8/5p2N3/3o5P2/6P4P/PP3P6/MVG9/A3+h7/L1K4+r4 b - 177",
        "4g5k1/5e5l/+V8N1a/2+P5+L3/11p/6p5/7o4/2P4n3P/1P1P2c4M/4CM6/4TK4FA/1F1SG4C1L w - 282",
    ] {
        assert!(is_mated(Profile::Lishogi, &pos(sfen)), "{sfen}");
    }
    // 後手's king on 7a is checked along the rank by 先手's rook on 1a and
    // can step off it.
    let checked = "g4k5R/12/12/12/12/12/12/12/12/12/12/6K5 w - 1";
    assert!(!is_mated(Profile::Lishogi, &pos(checked)));
    let start = ChuPosition::start();
    assert!(!is_mated(Profile::Lishogi, &start));
    assert!(!is_mated(Profile::Jcsa, &start));
}

#[test]
fn against_hachu_a_pawn_or_lance_promotes_only_as_hachu_reads_it() {
    use yorimichi::rules::chu::game::{Chu, ChuRules};
    use yorimichi::rules::chu::moves::ChuMove;
    use yorimichi::rules::game::Game;
    // 先手's 歩兵 on 9e (outside the zone), 8c, 7b, 6c and 5b (inside: they
    // entered unpromoted), 香車 on 2c (inside) and 3l (outside).
    let p = pos("k6g4/5PgP4/4P1P3L1/12/3P8/12/12/12/12/12/12/K8L2 b - 1");
    let lishogi = Chu::new(ChuRules {
        profile: Profile::Lishogi,
    });
    let hachu = Chu {
        hachu_promotions: true,
        ..lishogi.clone()
    };
    let usi = |game: &Chu| {
        let mut moves: Vec<ChuMove> = Vec::new();
        game.legal_moves(&p, &mut moves);
        moves.iter().map(|m| m.usi()).collect::<Vec<_>>()
    };
    let all = usi(&lishogi);
    let kept = usi(&hachu);
    let dropped: Vec<&str> = all
        .iter()
        .filter(|m| !kept.contains(m))
        .map(String::as_str)
        .collect();
    // Onto the last rank without taking, from inside: HaChu promotes only
    // on entering. Taking inside, a pawn that entered unpromoted: not
    // short of the last rank. On the last rank by a take or from outside:
    // a non-promotion that HaChu would read as one.
    assert_eq!(dropped, ["7b7a+", "5b5a", "6c6b+", "2c2a+", "3l3a"]);
    for still in [
        "9e9d", "9e9d+", "7b7a", "6c6b", "5b5a+", "2c2a", "3l3a+", "3l3d", "3l3d+",
    ] {
        assert!(kept.iter().any(|m| m == still), "{still} in {kept:?}");
    }
    // The same in the capture search's moves.
    let mut captures: Vec<ChuMove> = Vec::new();
    hachu.legal_captures(&p, &mut captures);
    let captures: Vec<String> = captures.iter().map(|m| m.usi()).collect();
    assert!(captures.contains(&"5b5a+".to_string()) && captures.contains(&"6c6b".to_string()));
    assert!(!captures.contains(&"5b5a".to_string()) && !captures.contains(&"6c6b+".to_string()));
}
