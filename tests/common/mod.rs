//! Helpers shared by the integration tests of the rules core: reading vertices, building a
//! game from a board diagram, playing a line of moves, and finding the peer suites of other
//! Go programs (read at test time, never copied into the repository). Each test file uses
//! some of them, so unused ones are not warnings.
#![allow(dead_code)]

use std::path::PathBuf;

use ishi::color::Color;
use ishi::go::rules::board::Board;
use ishi::go::rules::game::Game;
use ishi::go::rules::point::{parse_move, Move, Point};
use ishi::go::rules::rules::Rules;

/// The point of a GTP vertex (`C3`) on a board of `size`.
///
/// # Panics
/// When the text is not an on-board vertex.
pub fn point(text: &str, size: usize) -> Point {
    match parse_move(text, size) {
        Ok(Move::Place(point)) => point,
        other => panic!("{text} is not a vertex of a {size}x{size} board: {other:?}"),
    }
}

/// The move of a GTP vertex or `pass`.
///
/// # Panics
/// When the text is neither.
pub fn parse(text: &str, size: usize) -> Move {
    parse_move(text, size).unwrap_or_else(|error| panic!("{text}: {error}"))
}

/// A game whose starting position is the diagram (see [`Board::from_diagram`]), with
/// `to_move` to play.
///
/// # Panics
/// When the diagram is not a square board.
pub fn game_from_diagram(diagram: &str, rules: Rules, to_move: Color) -> Game {
    let board = Board::from_diagram(diagram).unwrap_or_else(|error| panic!("{error}"));
    let stones: Vec<(Color, Point)> = board
        .points()
        .filter_map(|point| board.stone(point).map(|color| (color, point)))
        .collect();
    let mut game = Game::new(board.size(), rules, rules.default_komi());
    game.setup(&stones).expect("setup before any move");
    game.set_to_move(to_move);
    game
}

/// Plays the moves of `line` (vertices or `pass`, separated by spaces), colours alternating
/// from the side to move.
///
/// # Panics
/// When a move is illegal, naming it.
pub fn play_line(game: &mut Game, line: &str) {
    for text in line.split_whitespace() {
        let color = game.to_move();
        let chosen = parse(text, game.size());
        game.play(color, chosen)
            .unwrap_or_else(|error| panic!("{color} {text} is illegal: {error}\n{}", game.board()));
    }
}

/// The board as rows of `X`, `O` and `.`, top row first (for comparing with diagrams).
pub fn stones_text(board: &Board) -> String {
    let size = board.size();
    let mut text = String::new();
    for row in (0..size).rev() {
        for column in 0..size {
            let point = ishi::go::rules::point::point_at(column, row, size);
            text.push(match board.stone(point) {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            });
        }
        text.push('\n');
    }
    text
}

/// The folder of other programs' test suites: `$ISHI_PEER_SUITES` when set, else
/// `../shared/peer-suites` beside the repository. `None` (after saying so on stderr) when it
/// does not exist, so the caller can skip.
pub fn peer_suites() -> Option<PathBuf> {
    let folder = std::env::var_os("ISHI_PEER_SUITES").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/peer-suites"),
        PathBuf::from,
    );
    if folder.is_dir() {
        Some(folder)
    } else {
        eprintln!(
            "skipping: peer suites folder {} is absent (set ISHI_PEER_SUITES to use another)",
            folder.display()
        );
        None
    }
}
