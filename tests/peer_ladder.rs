//! The ladder reader against Pachi's `t-unit/ladder.t`, read at test time from the peer
//! suites folder (see `common::peer_suites`; the licence forbids copying the file in). Each
//! case is a diagram and `ladder <colour> <vertex> <0|1>`: whether the chain on the vertex,
//! in atari with its owner to move, dies in a ladder when it runs. Cases Pachi itself marks
//! as not passing (`!ladder`), `ladder_any` questions and positions with a ko are skipped.
//!
//! A working ladder read as broken only costs a missed penalty; a broken ladder read as
//! working would make the engine give up a chain that can be saved. The test fails on any
//! such false positive and when fewer cases agree than pinned.

mod common;

use ishi::color::Color;
use ishi::go::rules::board::Board;
use ishi::go::search::board::PlayoutBoard;
use ishi::go::search::ladder::LadderReader;

/// Cases that agree with Pachi's answers (all 22 of the cases read, measured).
const PINNED: usize = 22;

struct Case {
    name: String,
    diagram: String,
    color: Color,
    vertex: String,
    expected: bool,
}

fn parse_cases(text: &str) -> (Vec<Case>, Vec<String>) {
    let mut cases = Vec::new();
    let mut skipped = Vec::new();
    let mut name = String::new();
    let mut diagram = String::new();
    let mut has_ko = false;
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(title) = line.strip_prefix('%') {
            if !title.trim().starts_with("http") {
                name = title.trim().to_string();
            }
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first() {
            None => {}
            Some(&"boardsize") => {
                diagram.clear();
                has_ko = false;
            }
            Some(&"ko") => has_ko = true,
            Some(&"ladder") if words.len() == 4 => {
                if has_ko {
                    skipped.push(format!("{name} (ko)"));
                } else {
                    cases.push(Case {
                        name: name.clone(),
                        diagram: diagram.clone(),
                        color: if words[1] == "b" {
                            Color::Black
                        } else {
                            Color::White
                        },
                        vertex: words[2].to_string(),
                        expected: words[3] == "1",
                    });
                }
            }
            Some(word) if word.starts_with('!') || word.starts_with("ladder_any") => {
                skipped.push(format!("{name} ({word})"));
            }
            Some(_) => {
                diagram.push_str(&line.replace(')', " "));
                diagram.push('\n');
            }
        }
    }
    (cases, skipped)
}

#[test]
fn pachi_ladder_cases() {
    let Some(folder) = common::peer_suites() else {
        return;
    };
    let path = folder.join("pasky/pachi/t-unit/ladder.t");
    let Ok(text) = std::fs::read_to_string(&path) else {
        eprintln!("skipping: {} is absent", path.display());
        return;
    };
    let (cases, skipped) = parse_cases(&text);
    let mut reader = LadderReader::default();
    let mut agreed = 0;
    let mut false_positives = Vec::new();
    for case in &cases {
        let board = Board::from_diagram(&case.diagram).expect("a Pachi diagram");
        let stone = common::point(&case.vertex, board.size()).index();
        let playout_board = PlayoutBoard::from_board(&board, case.color);
        let dies = reader.running_fails(&playout_board, stone, case.color);
        if dies == case.expected {
            agreed += 1;
        } else {
            println!(
                "  mismatch: {} ({} {}): Pachi {}, ishi {}",
                case.name, case.vertex, case.color, case.expected, dies
            );
            if dies {
                false_positives.push(case.name.clone());
            }
        }
    }
    println!(
        "Pachi ladder.t: {agreed} / {} agree, {} skipped: {skipped:?}",
        cases.len(),
        skipped.len()
    );
    assert!(
        false_positives.is_empty(),
        "broken ladders read as working: {false_positives:?}"
    );
    assert!(agreed >= PINNED, "{agreed} agree, fewer than {PINNED}");
}
