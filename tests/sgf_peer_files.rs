//! Reads the SGF files of other Go programs' test suites (GoGui, GNU Go, KataGo) found under
//! `/work/shared/peer-suites` (or `$ISHI_PEER_SUITES`), without copying them: none may make the
//! reader panic, every file that parses must survive write -> parse unchanged, and the odd
//! files of GoGui's suite must give the answers decided for them. Skips, saying so on stderr,
//! when the folders are absent. `cargo test --test sgf_peer_files -- --nocapture` prints the
//! counts and the reason each failing file fails.

use std::fs;
use std::panic;
use std::path::{Path, PathBuf};

use ishi::color::Color;
use ishi::go::rules::sgf::{self, SgfErrorKind, SgfMove, SgfPoint};

const SUITES: [&str; 3] = [
    "Remi-Coulom/gogui/test/junit/src/net/sf/gogui/sgf",
    "runningskull/gnugo/regression/games",
    "lightvector/KataGo/cpp/tests/data",
];

fn peer_suites() -> PathBuf {
    std::env::var_os("ISHI_PEER_SUITES")
        .map_or_else(|| PathBuf::from("/work/shared/peer-suites"), PathBuf::from)
}

fn collect_sgf_files(folder: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_sgf_files(&path, files);
        } else if path
            .extension()
            .is_some_and(|extension| extension.eq_ignore_ascii_case("sgf"))
        {
            files.push(path);
        }
    }
}

/// The file as text; bytes that are not UTF-8 (older files in Latin-1) become U+FFFD.
fn read_text(path: &Path) -> String {
    String::from_utf8_lossy(&fs::read(path).unwrap_or_default()).into_owned()
}

#[test]
fn peer_sgf_files_parse_without_panic_and_round_trip() {
    let root = peer_suites();
    let mut total_files = 0;
    let mut problems = Vec::new();
    for suite in SUITES {
        let folder = root.join(suite);
        if !folder.is_dir() {
            eprintln!("skipping {}: folder absent", folder.display());
            continue;
        }
        let mut files = Vec::new();
        collect_sgf_files(&folder, &mut files);
        files.sort();
        let mut parsed = 0;
        let mut failures = Vec::new();
        for path in &files {
            let text = read_text(path);
            let name = path
                .strip_prefix(&folder)
                .unwrap_or(path)
                .display()
                .to_string();
            match panic::catch_unwind(|| sgf::parse(&text)) {
                Err(_) => problems.push(format!("{name}: parse panicked")),
                Ok(Err(error)) => failures.push(format!("{name}: {error}")),
                Ok(Ok(game)) => {
                    parsed += 1;
                    let written = sgf::write(&game);
                    match sgf::parse(&written) {
                        Ok(again) if again == game => {}
                        Ok(_) => problems.push(format!("{name}: round trip changed the game")),
                        Err(error) => problems.push(format!("{name}: round trip: {error}")),
                    }
                }
            }
        }
        total_files += files.len();
        println!("{suite}: {parsed} of {} files parse", files.len());
        for failure in &failures {
            println!("    {failure}");
        }
    }
    if total_files == 0 {
        eprintln!(
            "no peer SGF files found under {}: nothing checked",
            root.display()
        );
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// The decisions for GoGui's odd files, one by one.
#[test]
fn gogui_odd_files_give_the_decided_answers() {
    let folder = peer_suites().join(SUITES[0]);
    if !folder.is_dir() {
        eprintln!("skipping {}: folder absent", folder.display());
        return;
    }
    let parse = |name: &str| sgf::parse(&read_text(&folder.join(name)));

    // The official FF[4] example: the main line is the first variation, 11 moves then the
    // passes W[] and B[tt].
    let game = parse("ff4_ex.sgf").expect("ff4_ex.sgf");
    assert_eq!(game.size, 19);
    let moves: Vec<_> = game.moves().collect();
    assert_eq!(moves.len(), 13);
    assert_eq!(
        moves[0],
        (Color::Black, SgfMove::Place(SgfPoint::new(15, 3)))
    );
    assert_eq!(moves[11], (Color::White, SgfMove::Pass));
    assert_eq!(moves[12], (Color::Black, SgfMove::Pass));
    assert!(!game.has_setup_after_root());

    // Game information in a node below the root (FF[4] allows it) is taken.
    let game = parse("ff4_ex.2.sgf").expect("ff4_ex.2.sgf");
    assert_eq!(game.player_white.as_deref(), Some("W. Hite"));
    assert_eq!(game.result.as_deref(), Some("W+3.5"));
    assert_eq!(game.moves().count(), 2);
    assert!(game
        .comment
        .is_some_and(|comment| comment.contains("node where the game")));

    // B[rs] on a 9x9 board.
    assert!(matches!(
        parse("invalidmove.sgf").map_err(|error| error.kind),
        Err(SgfErrorKind::PointOffBoard { size: 9, .. })
    ));
    // SZ after the setup it governs: pp is off a 9x9 board, on a 19x19 one.
    assert!(matches!(
        parse("size-after-invalid-points.sgf").map_err(|error| error.kind),
        Err(SgfErrorKind::PointOffBoard { size: 9, .. })
    ));
    let game = parse("size-after-valid-points.sgf").expect("size-after-valid-points.sgf");
    assert_eq!(game.setup.black, vec![SgfPoint::new(15, 15)]);
    assert_eq!(game.setup.white, vec![SgfPoint::new(2, 15)]);
    // GTP-style vertices such as B[R16] are not SGF.
    assert!(matches!(
        parse("human-readable.sgf").map_err(|error| error.kind),
        Err(SgfErrorKind::InvalidPoint { .. })
    ));
    // FF[3] long names read by their capitals.
    let game = parse("verbose-property-names.sgf").expect("verbose-property-names.sgf");
    assert_eq!(game.player_black.as_deref(), Some("Robin Upton"));
    assert_eq!(game.player_white.as_deref(), Some("J. Chin"));
    assert_eq!(game.komi, Some(6.0));
    assert_eq!(game.handicap, Some(0));
    assert_eq!(game.result.as_deref(), Some("B+Resign"));
    assert_eq!(game.setup.player_to_move, Some(Color::Black));
    assert_eq!(
        game.moves().next(),
        Some((Color::Black, SgfMove::Place(SgfPoint::new(16, 2))))
    );
    // An unknown overtime format is not our business.
    assert!(parse("time-settings-unknown-ot.sgf").is_ok());
}

/// The decisions for GNU Go's regression games that break FF[4].
#[test]
fn gnugo_odd_files_give_the_decided_answers() {
    let folder = peer_suites().join(SUITES[1]);
    if !folder.is_dir() {
        eprintln!("skipping {}: folder absent", folder.display());
        return;
    }
    let parse = |name: &str| sgf::parse(&read_text(&folder.join(name)));

    // B[tt]W[tt] in one node: two passes in file order.
    let game = parse("buzco1.sgf").expect("buzco1.sgf");
    let moves: Vec<_> = game.moves().collect();
    assert_eq!(
        moves[moves.len() - 2..],
        [(Color::Black, SgfMove::Pass), (Color::White, SgfMove::Pass)]
    );
    // Cgoban 1 writes PL[1] and PL[2] for black and white.
    let game = parse("arend/constructed3.sgf").expect("constructed3.sgf");
    assert_eq!(game.setup.player_to_move, Some(Color::Black));
    assert!(game.has_setup_after_root());
    // PW[White][White]: a text property takes its first value.
    let game = parse("trevor/trevor_31.sgf").expect("trevor_31.sgf");
    assert_eq!(game.player_white.as_deref(), Some("White"));
    // `---` after the game tree is ignored.
    assert!(parse("gunnar/rbm-bobk-200303111815.sgf").is_ok());
    // The game tree is never closed: an unbalanced parenthesis.
    assert!(matches!(
        parse("owl42.sgf").map_err(|error| error.kind),
        Err(SgfErrorKind::UnexpectedEnd { .. })
    ));
}
