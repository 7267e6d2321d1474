//! Converts between SGF records and games: a record's setup, komi, rules and main line become
//! a [`Game`] (up to a chosen move), and a game becomes a record with its starting stones,
//! moves, komi, rules and result. Knows SGF coordinates (row `a` at the top) and GTP ones
//! (row 1 at the bottom).

use crate::color::Color;
use crate::go::rules::game::Game;
use crate::go::rules::point::{coordinates, point_at, Move, Point};
use crate::go::rules::rules::{Rules, RulesName};
use crate::go::rules::sgf::{SgfEvent, SgfGame, SgfMove, SgfPoint, SgfSetup};
use std::fmt;

/// Why a record could not become a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The board size is outside 2..=25.
    Size(u8),
    /// A move of the main line is illegal; `number` counts moves from 1.
    IllegalMove { number: usize },
    /// Setup stones after the first move, which ishi's games cannot hold.
    SetupAfterMoves,
}

impl fmt::Display for RecordError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Size(size) => write!(formatter, "board size {size} is not supported"),
            RecordError::IllegalMove { number } => write!(formatter, "move {number} is illegal"),
            RecordError::SetupAfterMoves => formatter.write_str("setup stones after moves"),
        }
    }
}

impl std::error::Error for RecordError {}

fn point_from_sgf(point: SgfPoint, size: usize) -> Point {
    point_at(point.column as usize, size - 1 - point.row as usize, size)
}

fn point_to_sgf(point: Point, size: usize) -> SgfPoint {
    let (column, row) = coordinates(point, size);
    SgfPoint::new(column as u8, (size - 1 - row) as u8)
}

/// The rules a record's `RU` names, when ishi knows them.
pub fn rules_from_record(text: &str) -> Option<Rules> {
    let lower = text.to_ascii_lowercase();
    if lower.contains("japan") || lower.contains("korea") {
        return Some(Rules::japanese());
    }
    if lower.contains("chinese") || lower == "cn" {
        return Some(Rules::chinese());
    }
    if lower.contains("aga") {
        return Some(Rules::aga());
    }
    if lower.contains("zealand") || lower == "nz" {
        return Some(Rules::new_zealand());
    }
    if lower.contains("tromp") {
        return Some(Rules::tromp_taylor());
    }
    text.parse().ok()
}

/// The `RU` text for rules.
pub fn rules_to_record(rules: &Rules) -> String {
    match rules.name {
        RulesName::Chinese => "Chinese".to_string(),
        RulesName::Japanese => "Japanese".to_string(),
        RulesName::TrompTaylor => "Tromp-Taylor".to_string(),
        RulesName::Aga => "AGA".to_string(),
        RulesName::NewZealand => "NZ".to_string(),
        RulesName::Capture | RulesName::Custom => rules.to_string(),
    }
}

fn apply_setup(game: &mut Game, setup: &SgfSetup, size: usize) -> Result<(), RecordError> {
    let mut stones: Vec<(Color, Point)> = Vec::new();
    stones.extend(
        setup
            .black
            .iter()
            .map(|&point| (Color::Black, point_from_sgf(point, size))),
    );
    stones.extend(
        setup
            .white
            .iter()
            .map(|&point| (Color::White, point_from_sgf(point, size))),
    );
    let empty: Vec<Point> = setup
        .empty
        .iter()
        .map(|&point| point_from_sgf(point, size))
        .collect();
    if !empty.is_empty() {
        game.setup_empty(&empty)
            .map_err(|_| RecordError::SetupAfterMoves)?;
    }
    if !stones.is_empty() {
        game.setup(&stones)
            .map_err(|_| RecordError::SetupAfterMoves)?;
    }
    Ok(())
}

/// Builds the game of a record up to (not including) move `before_move` (counted from 1),
/// or the whole main line when `None`. Komi and rules come from the record when it has them,
/// from `rules` and `komi` otherwise. Root black stones with `HA` and no white stones are
/// handicap: white moves first then.
///
/// # Errors
/// An unsupported size, an illegal move or setup after moves.
pub fn game_from_record(
    record: &SgfGame,
    before_move: Option<usize>,
    rules: Rules,
    komi: f64,
) -> Result<Game, RecordError> {
    let size = record.size as usize;
    if !Game::size_is_valid(size) {
        return Err(RecordError::Size(record.size));
    }
    let rules = record
        .rules
        .as_deref()
        .and_then(rules_from_record)
        .unwrap_or(rules);
    let mut game = Game::new(size, rules, record.komi.unwrap_or(komi));
    let handicap = record.handicap.unwrap_or(0);
    let is_handicap = handicap >= 2
        && record.setup.white.is_empty()
        && record.setup.black.len() == handicap as usize;
    if is_handicap {
        let points: Vec<Point> = record
            .setup
            .black
            .iter()
            .map(|&point| point_from_sgf(point, size))
            .collect();
        game.place_handicap(&points)
            .map_err(|_| RecordError::SetupAfterMoves)?;
    } else {
        apply_setup(&mut game, &record.setup, size)?;
    }
    if let Some(color) = record.setup.player_to_move {
        game.set_to_move(color);
    } else if !is_handicap {
        if let Some((color, _)) = record.moves().next() {
            game.set_to_move(color);
        }
    }
    let mut number = 0;
    for event in &record.main_line {
        match event {
            SgfEvent::Move(color, chosen) => {
                number += 1;
                if before_move.is_some_and(|limit| number >= limit) {
                    break;
                }
                let chosen = match chosen {
                    SgfMove::Pass => Move::Pass,
                    SgfMove::Place(point) => Move::Place(point_from_sgf(*point, size)),
                };
                game.play_recorded(*color, chosen)
                    .map_err(|_| RecordError::IllegalMove { number })?;
            }
            SgfEvent::Setup(setup) => {
                if game.move_count() > 0 {
                    if setup.is_empty() {
                        continue;
                    }
                    // Only a change of the player to move can follow moves.
                    if setup.black.is_empty() && setup.white.is_empty() && setup.empty.is_empty() {
                        if let Some(color) = setup.player_to_move {
                            game.set_to_move(color);
                        }
                        continue;
                    }
                    return Err(RecordError::SetupAfterMoves);
                }
                apply_setup(&mut game, setup, size)?;
                if let Some(color) = setup.player_to_move {
                    game.set_to_move(color);
                }
            }
        }
    }
    Ok(game)
}

/// A record of `game`: its starting stones, moves, komi, rules and, when given, the result.
pub fn record_from_game(game: &Game, result: Option<String>) -> SgfGame {
    let size = game.size();
    let mut record = SgfGame::new(size as u8);
    record.komi = Some(game.komi());
    record.rules = Some(rules_to_record(game.rules()));
    if game.handicap() > 0 {
        record.handicap = Some(game.handicap());
    }
    record.result = result;
    let start = game.starting_board();
    for point in start.points() {
        match start.stone(point) {
            Some(Color::Black) => record.setup.black.push(point_to_sgf(point, size)),
            Some(Color::White) => record.setup.white.push(point_to_sgf(point, size)),
            None => {}
        }
    }
    // With no moves yet, the side to move now is the one to move at the start.
    let first_mover = game
        .moves()
        .next()
        .map_or_else(|| game.to_move(), |(color, _)| color);
    let natural = if game.handicap() > 0 {
        Color::White
    } else {
        Color::Black
    };
    if first_mover != natural {
        record.setup.player_to_move = Some(first_mover);
    }
    for (color, chosen) in game.moves() {
        let chosen = match chosen {
            Move::Pass => SgfMove::Pass,
            Move::Place(point) => SgfMove::Place(point_to_sgf(point, size)),
        };
        record.main_line.push(SgfEvent::Move(color, chosen));
    }
    record
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::point::parse_move;
    use crate::go::rules::sgf;

    #[test]
    fn a_game_survives_the_round_trip_through_sgf() {
        let mut game = Game::new(9, Rules::japanese(), 6.5);
        let stones: Vec<Point> = ["C3", "G7"]
            .iter()
            .map(|text| match parse_move(text, 9).unwrap() {
                Move::Place(point) => point,
                Move::Pass => unreachable!(),
            })
            .collect();
        game.place_handicap(&stones).unwrap();
        let mut color = Color::White;
        for text in ["E5", "D4", "pass", "F6"] {
            game.play(color, parse_move(text, 9).unwrap()).unwrap();
            color = color.opponent();
        }
        let text = sgf::write(&record_from_game(&game, Some("W+R".to_string())));
        let record = sgf::parse(&text).unwrap();
        assert_eq!(record.result.as_deref(), Some("W+R"));
        let loaded = game_from_record(&record, None, Rules::chinese(), 7.5).unwrap();
        assert_eq!(loaded.board(), game.board());
        assert_eq!(loaded.to_move(), game.to_move());
        assert_eq!(loaded.komi(), 6.5);
        assert_eq!(loaded.rules().name, RulesName::Japanese);
        assert_eq!(loaded.handicap(), 2);
        let partial = game_from_record(&record, Some(3), Rules::chinese(), 7.5).unwrap();
        assert_eq!(partial.move_count(), 2);
        assert_eq!(partial.to_move(), Color::White);
    }

    #[test]
    fn the_side_to_move_of_a_setup_without_moves_survives_the_round_trip() {
        let mut game = Game::new(9, Rules::chinese(), 7.5);
        let stone = match parse_move("E5", 9).unwrap() {
            Move::Place(point) => point,
            Move::Pass => unreachable!(),
        };
        game.setup(&[(Color::Black, stone)]).unwrap();
        game.set_to_move(Color::White);
        let text = sgf::write(&record_from_game(&game, None));
        let loaded =
            game_from_record(&sgf::parse(&text).unwrap(), None, Rules::chinese(), 7.5).unwrap();
        assert_eq!(loaded.to_move(), Color::White, "{text}");
        // The usual side to move needs no PL.
        let empty = Game::new(9, Rules::chinese(), 7.5);
        let record = record_from_game(&empty, None);
        assert_eq!(record.setup.player_to_move, None);
    }

    #[test]
    fn a_record_that_repeats_a_position_loads_under_superko_rules() {
        // B3 C3 A2 D2 B1 C1 pass B2 C2 pass pass, then white retakes at B2 and black at C2:
        // legal under simple ko, a repetition under superko.
        let text =
            "(;SZ[5];B[bc];W[cc];B[ad];W[dd];B[be];W[ce];B[];W[bd];B[cd];W[];B[];W[bd];B[cd])";
        let record = sgf::parse(text).unwrap();
        let game = game_from_record(&record, None, Rules::chinese(), 7.5).unwrap();
        assert_eq!(game.move_count(), 13);
        assert_eq!(game.to_move(), Color::White);
        let occupied = sgf::parse("(;SZ[5];B[bc];W[bc])").unwrap();
        assert_eq!(
            game_from_record(&occupied, None, Rules::chinese(), 7.5).unwrap_err(),
            RecordError::IllegalMove { number: 2 }
        );
    }

    #[test]
    fn coordinates_flip_rows() {
        let point = point_from_sgf(SgfPoint::new(0, 0), 9);
        assert_eq!(crate::go::rules::point::vertex_text(point, 9), "A9");
        assert_eq!(point_to_sgf(point, 9), SgfPoint::new(0, 0));
    }
}
