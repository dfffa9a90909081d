//! 局面を書き出す / 読み込む in 十六むさし: the position text goes to a file
//! the player can edit, comes back in as a fresh game from that position,
//! survives 続きから, and a broken text is explained without losing the
//! game. (HOME points at a temporary folder: `common::test_home`.)

use crate::common;

use bevy::prelude::*;
use common::settle;
use yorimichi::games::play::{PlayCommand, PlayUi};
use yorimichi::games::session::{GameSave, Match, MatchSetup, Opponent};
use yorimichi::headless;
use yorimichi::rules::game::{Game, Side};
use yorimichi::rules::musashi::{KO, Musashi, MusashiMove, MusashiRules};
use yorimichi::shell::save::Store;

type MusashiMatch = Match<Musashi>;

fn command(app: &mut App, cmd: PlayCommand) {
    app.world_mut().write_message(cmd);
    app.update();
}

fn message(app: &App) -> String {
    app.world()
        .resource::<PlayUi<Musashi>>()
        .message
        .clone()
        .unwrap_or_default()
}

#[test]
fn a_position_is_exported_edited_imported_saved_and_resumed() {
    let (_turn, home) = common::test_home();
    let file = home.join("yorimichi-position.txt");

    let mut app = headless::app(Store::new(None));
    app.update();
    let setup = MatchSetup::new(
        Opponent::Human,
        Side::First,
        "standard",
        MusashiRules::STANDARD,
    );
    common::open_play(&mut app, MusashiMatch::new(setup).unwrap());
    settle::<Musashi>(&mut app);

    // Export: the start's text, in the file the message names.
    command(&mut app, PlayCommand::ExportPosition);
    let text = std::fs::read_to_string(&file).expect("the position file");
    assert_eq!(text, "KKKKK-./K...K../K.O.K../K...K../KKKKK-. oya");
    assert!(
        message(&app).contains("~/yorimichi-position.txt"),
        "{}",
        message(&app)
    );

    // A broken file: explained, and the game is untouched.
    std::fs::write(&file, "KKKKK-./K...K../K.X.K../K...K../KKKKK-. oya").unwrap();
    command(&mut app, PlayCommand::ImportPosition);
    assert!(message(&app).contains("unknown mark"), "{}", message(&app));
    let m = app.world().resource::<MusashiMatch>();
    assert_eq!(m.game.to_text(m.record.current()), text);

    // An edited file: seven 子 left, 子 to move; the game restarts there.
    let edited = "KK..K-./K....../..O.K../......./K.K..-. ko";
    std::fs::write(&file, format!("{edited}\n")).unwrap();
    command(&mut app, PlayCommand::ImportPosition);
    settle::<Musashi>(&mut app);
    let m = app.world().resource::<MusashiMatch>();
    assert_eq!(m.game.to_text(m.record.current()), edited);
    assert_eq!(m.record.ply(), 0);
    assert_eq!(m.game.side_to_move(m.record.current()), KO);
    common::assert_view_matches_rules::<Musashi>(&mut app);

    // A move from there, then 続きから rebuilds the same game.
    let m = app.world().resource::<MusashiMatch>();
    let e5 = m.game.board().find("e5").unwrap() as u8;
    let d5 = m.game.board().find("d5").unwrap() as u8;
    let mut mv = MusashiMove { from: e5, to: d5 };
    let mut legal = Vec::new();
    m.game.legal_moves(m.record.current(), &mut legal);
    assert!(legal.contains(&mv));
    let mut m = m.clone();
    m.record.play(&m.game, mv).unwrap();
    let save: GameSave<MusashiRules, MusashiMove> = m.to_save();
    assert_eq!(save.start.as_deref(), Some(edited));
    let back = MusashiMatch::from_save(save.clone()).unwrap();
    assert_eq!(
        back.game.to_text(back.record.current()),
        m.game.to_text(m.record.current())
    );
    // A save whose start text is broken is refused with a message.
    let mut broken = save;
    broken.start = Some("nonsense".into());
    let err = MusashiMatch::from_save(broken).err().expect("refused");
    assert!(err.contains("start position"), "{err}");
    // A game from the usual start saves no start text.
    mv = MusashiMove {
        from: m.game.board().find("c3").unwrap() as u8,
        to: m.game.board().find("c4").unwrap() as u8,
    };
    let mut fresh = MusashiMatch::new(m.setup.clone()).unwrap();
    fresh.setup.rules = MusashiRules::STANDARD;
    fresh.record.play(&fresh.game, mv).unwrap();
    assert_eq!(fresh.to_save().start, None);
}

/// A shared link's fragment carries any position text unchanged: every
/// byte but the URL-unreserved ones is percent-encoded (so `&`, `=`, `+`,
/// `#`, spaces, line breaks and kanji survive the page's URLSearchParams).
#[test]
fn a_share_link_fragment_encodes_every_reserved_byte() {
    use yorimichi::rules::data::GameId;
    use yorimichi::shell::files::share_fragment;
    assert_eq!(
        share_fragment(GameId::Musashi, "KK..K-./K...... oya"),
        "game=musashi&position=KK..K-.%2FK......%20oya"
    );
    assert_eq!(
        share_fragment(GameId::ChuShogi, "a&b=c+d#e\n歩~_"),
        "game=chushogi&position=a%26b%3Dc%2Bd%23e%0A%E6%AD%A9~_"
    );
    // Decoding gives the text back, byte for byte.
    let text = "手合割：平手\n1 ７八歩兵（←７九）";
    let fragment = share_fragment(GameId::ChuShogi, text);
    let encoded = fragment.strip_prefix("game=chushogi&position=").unwrap();
    let mut bytes = Vec::new();
    let mut rest = encoded.as_bytes();
    while let [first, tail @ ..] = rest {
        if *first == b'%' {
            let hex = std::str::from_utf8(&tail[..2]).unwrap();
            bytes.push(u8::from_str_radix(hex, 16).unwrap());
            rest = &tail[2..];
        } else {
            assert!(first.is_ascii_alphanumeric() || b"-_.~".contains(first));
            bytes.push(*first);
            rest = tail;
        }
    }
    assert_eq!(String::from_utf8(bytes).unwrap(), text);
}
