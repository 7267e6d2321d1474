//! The referee's territory map (`go::rules::territory`) against lightvector's goscorer: its
//! 91 expected test outputs (`lightvector/goscorer/python/expected_test_output/*.txt` in the
//! peer suites folder, read in place, never copied; skipped with a message when absent). Each
//! file holds a board (`x`/`o` stones, `b`/`w` stones marked dead, `.` empty) and goscorer's
//! maps of it: territory, seki, false eyes, unscorable false eyes, dame and eye values. The
//! marked dead stones are fed to ishi and every map is compared point by point.

mod common;

use ishi::color::Color;
use ishi::go::rules::territory::{territory_verdicts, MarkedGrid, PointVerdict};
use std::path::Path;

/// The sections of an expected output, in the order the files write them.
const SECTIONS: [&str; 7] = [
    "BOARD",
    "TERRITORY",
    "SEKI",
    "FALSE EYES",
    "UNSCORABLE FALSE EYES",
    "DAME",
    "EYEVALUE",
];

/// One test file split into its sections, each a list of rows.
fn sections(text: &str) -> Vec<(String, Vec<String>)> {
    let mut result: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines().map(str::trim).filter(|line| !line.is_empty()) {
        if let Some(name) = line.strip_suffix(':') {
            result.push((name.to_string(), Vec::new()));
        } else if let Some((_, rows)) = result.last_mut() {
            rows.push(line.to_string());
        }
    }
    result
}

fn grid_of(rows: &[String]) -> MarkedGrid {
    let mut grid = MarkedGrid::new(rows[0].len(), rows.len());
    for (y, row) in rows.iter().enumerate() {
        for (x, symbol) in row.chars().enumerate() {
            let (stone, dead) = match symbol {
                'x' => (Some(Color::Black), false),
                'o' => (Some(Color::White), false),
                'b' => (Some(Color::Black), true),
                'w' => (Some(Color::White), true),
                _ => (None, false),
            };
            grid.set(x, y, stone, dead);
        }
    }
    grid
}

/// ishi's map of one section, written the way goscorer's test prints it.
fn render(section: &str, board: &[String], verdicts: &[PointVerdict], width: usize) -> Vec<String> {
    board
        .iter()
        .enumerate()
        .map(|(y, row)| {
            row.chars()
                .enumerate()
                .map(|(x, symbol)| {
                    let verdict = verdicts[y * width + x];
                    let stone = symbol != '.';
                    match section {
                        "TERRITORY" => match verdict.territory {
                            Some(Color::Black) => 'z',
                            Some(Color::White) => 'a',
                            None => symbol,
                        },
                        "SEKI" => match (verdict.seki, stone) {
                            (Some(Color::Black), true) => 'x',
                            (Some(Color::White), true) => 'o',
                            (Some(Color::Black), false) => 'z',
                            (Some(Color::White), false) => 'a',
                            (None, _) => '.',
                        },
                        "FALSE EYES" if verdict.false_eye => 'F',
                        "UNSCORABLE FALSE EYES" if verdict.unscorable_false_eye => 'F',
                        "DAME" if verdict.dame => '1',
                        "EYEVALUE" if verdict.eye_value > 0 => char::from(b'0' + verdict.eye_value),
                        _ => symbol,
                    }
                })
                .collect()
        })
        .collect()
}

/// The points where ishi's map differs, per section, as `SECTION (x,y) expected/got`.
fn differences(text: &str) -> Vec<String> {
    let parts = sections(text);
    let board = &parts
        .iter()
        .find(|(name, _)| name == "BOARD")
        .expect("a BOARD section")
        .1;
    let grid = grid_of(board);
    let verdicts = territory_verdicts(&grid);
    let mut found = Vec::new();
    for (name, expected) in &parts {
        if name == "BOARD" {
            continue;
        }
        assert!(SECTIONS.contains(&name.as_str()), "unknown section {name}");
        let got = render(name, board, &verdicts, grid.width());
        for (y, (expected_row, got_row)) in expected.iter().zip(&got).enumerate() {
            for (x, (want, have)) in expected_row.chars().zip(got_row.chars()).enumerate() {
                if want != have {
                    found.push(format!("{name} ({x},{y}) expected {want} got {have}"));
                }
            }
        }
    }
    found
}

#[test]
fn goscorer_territory_maps_agree_point_by_point() {
    let Some(suites) = common::peer_suites() else {
        return;
    };
    let folder = suites.join("lightvector/goscorer/python/expected_test_output");
    if !folder.is_dir() {
        eprintln!("skipping: {} is absent", folder.display());
        return;
    }
    let mut files: Vec<_> = std::fs::read_dir(&folder)
        .expect("readable folder")
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|extension| extension == "txt"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable file");
        let found = differences(&text);
        if !found.is_empty() {
            failures.push(format!(
                "{}: {} points differ, first {}",
                name_of(path),
                found.len(),
                found[..found.len().min(6)].join("; ")
            ));
        }
    }
    eprintln!(
        "goscorer maps: {}/{} agree point for point",
        files.len() - failures.len(),
        files.len()
    );
    assert!(
        failures.is_empty(),
        "{} maps differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn name_of(path: &Path) -> String {
    path.file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default()
}
