//! `ishi perft` on the command line (games-protocol.md): one count per depth from the start
//! position of the game the flags choose, checked against the rule sheet's figures.

use std::process::Command;

fn perft(arguments: &[&str]) -> (Option<i32>, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_ishi"))
        .args(arguments)
        .output()
        .expect("the binary runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
    )
}

#[test]
fn margo_and_abalone_counts_per_depth() {
    let (status, text) = perft(&["perft", "--game", "margo", "--size", "4", "--depth", "3"]);
    assert_eq!(status, Some(0));
    // Swap is on by default: depth 2 adds one move per first move, depth 3 one per pair.
    assert_eq!(text, "1 16\n2 256\n3 3600\n");
    let (status, text) = perft(&[
        "--game", "margo", "--size", "6", "--param", "swap=off", "perft", "--depth", "3",
    ]);
    assert_eq!(status, Some(0));
    assert_eq!(text, "1 36\n2 1260\n3 42840\n");
    let (status, text) = perft(&[
        "perft", "--game", "abalone", "--start", "german", "--depth", "2",
    ]);
    assert_eq!(status, Some(0));
    assert_eq!(text, "1 80\n2 6244\n");
    let (status, text) = perft(&["perft", "--game", "abalone", "--depth", "3"]);
    assert_eq!(status, Some(0));
    assert_eq!(text, "1 52\n2 2692\n3 149322\n");
}

#[test]
fn go_has_no_perft_command() {
    let (status, text) = perft(&["perft", "--depth", "2"]);
    assert_eq!(status, Some(2));
    assert!(text.is_empty());
}
