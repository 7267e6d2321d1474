//! The value network files on the command line: `--value-network FILE` replaces the shipped
//! networks on every board size, `--value-network-large FILE` the large boards' alone (16x16
//! and more), whichever order they come in; `kata-raw-nn` shows which network judged.

use std::process::{Command, Stdio};

const SMALL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/go-value.bin");
const LARGE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/models/go-value-large.bin");

/// `kata-raw-nn 0` on an empty 9x9 board and on an empty 19x19 board, each after one
/// stone, under `arguments`.
fn raw_answers(arguments: &[&str]) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ishi"))
        .args(arguments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"boardsize 9\nplay b e5\nkata-raw-nn 0\nboardsize 19\nplay b q16\nkata-raw-nn 0\nquit\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = text
        .split("\n\n")
        .filter(|answer| answer.contains("whiteWin"))
        .collect();
    assert_eq!(answers.len(), 2, "{text}");
    (answers[0].to_string(), answers[1].to_string())
}

#[test]
fn each_flag_replaces_the_networks_it_names() {
    let (shipped_9, shipped_19) = raw_answers(&[]);
    assert_ne!(shipped_9, shipped_19);
    // The small boards' file everywhere: 9x9 as shipped, 19x19 judged otherwise.
    let (small_9, small_19) = raw_answers(&["--value-network", SMALL]);
    assert_eq!(small_9, shipped_9);
    assert_ne!(small_19, shipped_19);
    // The same file on the large boards alone.
    assert_eq!(
        raw_answers(&["--value-network-large", SMALL]),
        (shipped_9.clone(), small_19)
    );
    // The large boards' file everywhere: 19x19 as shipped, 9x9 judged otherwise.
    let (large_9, large_19) = raw_answers(&["--value-network", LARGE]);
    assert_ne!(large_9, shipped_9);
    assert_eq!(large_19, shipped_19);
    // Both named, in either order: each board size gets its own.
    for arguments in [
        ["--value-network", SMALL, "--value-network-large", LARGE],
        ["--value-network-large", LARGE, "--value-network", SMALL],
    ] {
        assert_eq!(
            raw_answers(&arguments),
            (shipped_9.clone(), shipped_19.clone())
        );
    }
}

#[test]
fn a_file_that_does_not_read_stops_the_engine_with_a_message() {
    let output = Command::new(env!("CARGO_BIN_EXE_ishi"))
        .args(["--value-network-large", "/nonexistent/network.bin"])
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    let message = String::from_utf8_lossy(&output.stderr);
    assert!(
        message.contains("--value-network-large /nonexistent/network.bin"),
        "{message}"
    );
}
