//! Differential test against abalone-boai (PyPI `abalone-boai`, MIT), an independent Python
//! implementation: seeded random games from all three starts, comparing the marbles and the
//! set of legal moves at every position. The oracle is `tests/abalone_boai/oracle.py` (its
//! header notes what the package's source shows and the protocol).
//!
//! The Python comes from `ISHI_PYTHON`, else `python3`; the test skips with a message when
//! it cannot import the package (`pip install abalone-boai`). `ISHI_BOAI_GAMES` (default 90)
//! and `ISHI_BOAI_PLIES` (default 20) size the run; the package needs about 3.5-6 ms a position.

use ishi::abalone::{Board, Cell, Game, Move, Push, Start};
use ishi::color::Color;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

fn python() -> String {
    std::env::var("ISHI_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

fn setting(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(default)
}

/// The neutral spelling the oracle uses: sorted moving cells, a colon, the direction.
fn neutral(mv: Move) -> String {
    let mut cells: Vec<Cell> = mv.cells().collect();
    cells.sort();
    let names: Vec<String> = cells.iter().map(|cell| cell.to_string()).collect();
    format!("{}:{}", names.join(","), mv.direction().short_name())
}

/// The oracle's request for a game: `{"start": ..., "moves": [[["a1","a2"],"E"], ...]}`.
fn request(start: Start, moves: &[Move]) -> String {
    let moves: Vec<String> = moves
        .iter()
        .map(|&mv| {
            let mut cells: Vec<Cell> = mv.cells().collect();
            cells.sort();
            let cells: Vec<String> = cells.iter().map(|cell| format!("\"{cell}\"")).collect();
            format!(
                "[[{}],\"{}\"]",
                cells.join(","),
                mv.direction().short_name()
            )
        })
        .collect();
    format!(
        "{{\"start\":\"{}\",\"moves\":[{}]}}",
        start.name(),
        moves.join(",")
    )
}

/// Parses the oracle's answer, a JSON list of lists of plain strings (no escapes occur).
fn parse_answer(line: &str) -> Result<Vec<Vec<String>>, String> {
    let line = line.trim();
    if !line.starts_with("[[") {
        return Err(format!("oracle: {line}"));
    }
    let mut positions = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut depth = 0;
    let mut characters = line.chars();
    while let Some(character) = characters.next() {
        match character {
            '[' => depth += 1,
            ']' => {
                if depth == 2 {
                    positions.push(std::mem::take(&mut current));
                }
                depth -= 1;
            }
            '"' => {
                let text: String = characters.by_ref().take_while(|&c| c != '"').collect();
                current.push(text);
            }
            ',' => {}
            other => return Err(format!("unexpected {other:?} in the oracle's answer")),
        }
    }
    Ok(positions)
}

/// What ishi says of a position, in the oracle's form.
fn describe(board: &Board) -> Vec<String> {
    let cells = |color: Color| {
        let mut cells: Vec<Cell> = board.marbles(color).collect();
        cells.sort();
        let names: Vec<String> = cells.iter().map(|cell| cell.to_string()).collect();
        names.join(",")
    };
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    let mut description = vec![
        format!("B:{}", cells(Color::Black)),
        format!("W:{}", cells(Color::White)),
    ];
    let mut spelled: Vec<String> = moves.into_iter().map(neutral).collect();
    spelled.sort();
    description.extend(spelled);
    description
}

#[test]
fn legal_moves_agree_with_abalone_boai() {
    let python = python();
    let probe = Command::new(&python)
        .args(["-c", "import abalone.game, abalone.utils, abalone.enums"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    if !matches!(probe, Ok(status) if status.success()) {
        eprintln!(
            "SKIPPED legal_moves_agree_with_abalone_boai: `{python}` cannot import the \
             abalone-boai package (pip install abalone-boai, or set ISHI_PYTHON)"
        );
        return;
    }
    let oracle = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/abalone_boai/oracle.py");
    let mut child = Command::new(&python)
        .arg(oracle)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the oracle");
    let mut input = child.stdin.take().expect("oracle stdin");
    let mut output = BufReader::new(child.stdout.take().expect("oracle stdout"));

    let games = setting("ISHI_BOAI_GAMES", 90) as u64;
    let max_plies = setting("ISHI_BOAI_PLIES", 20);
    let mut positions = 0;
    let mut ejections = 0;
    let mut moves = Vec::new();
    for seed in 0..games {
        let mut random = SmallRng::seed_from_u64(0xB0A1 + seed);
        let start = Start::ALL[(seed % 3) as usize];
        let mut game = Game::new(start);
        let mut boards = vec![*game.board()];
        let mut played = Vec::new();
        while played.len() < max_plies && !game.is_over() {
            game.legal_moves(&mut moves);
            // Half the time prefer a push, so sumito positions come up often.
            let pushes: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&mv| game.board().push_of(mv) != Push::None)
                .collect();
            let mv = if !pushes.is_empty() && random.gen_bool(0.5) {
                pushes[random.gen_range(0..pushes.len())]
            } else {
                moves[random.gen_range(0..moves.len())]
            };
            if game.board().push_of(mv) == Push::Ejects {
                ejections += 1;
            }
            game.play_unchecked(mv);
            played.push(mv);
            boards.push(*game.board());
        }
        writeln!(input, "{}", request(start, &played)).expect("write to the oracle");
        input.flush().expect("flush the oracle");
        let mut line = String::new();
        output.read_line(&mut line).expect("read the oracle");
        let answer = parse_answer(&line).unwrap_or_else(|error| panic!("seed {seed}: {error}"));
        assert_eq!(answer.len(), boards.len(), "seed {seed}: positions");
        for (ply, (board, theirs)) in boards.iter().zip(answer).enumerate() {
            positions += 1;
            let mut ours = describe(board);
            let mut theirs = theirs.clone();
            if board.is_over() {
                // The package knows no end of the game: compare only the marbles there.
                ours.truncate(2);
                theirs.truncate(2);
            }
            if ours != theirs {
                let ours_set: BTreeSet<&String> = ours.iter().collect();
                let theirs_set: BTreeSet<&String> = theirs.iter().collect();
                let only_ours: Vec<_> = ours_set.difference(&theirs_set).collect();
                let only_theirs: Vec<_> = theirs_set.difference(&ours_set).collect();
                let history: Vec<String> = played[..ply].iter().map(|mv| mv.to_string()).collect();
                panic!(
                    "{} seed {seed} ply {ply}: only ishi {only_ours:?}, only boai {only_theirs:?}\n\
                     moves {}\n{}",
                    start.name(),
                    history.join(" "),
                    board.showboard()
                );
            }
        }
    }
    drop(input);
    let _ = child.wait();
    eprintln!("abalone-boai agreed on {positions} positions ({ejections} ejections played)");
    assert!(positions > 0);
}
