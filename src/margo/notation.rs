//! The designer's Margo notation, board diagrams and game records.
//!
//! Knows vertices on the (2n-1) x (2n-1) grid (letters from the left including I, numbers
//! from the bottom; level-h point (r,c) is letter 2c+h and number 2r+h+1), how a vertex (a
//! column) resolves to a point of a position, `swap`/`swap-pieces`, the text of `showboard`
//! and the listing `1 C5* 2 E5 ...`. Knows nothing of legality beyond resolving a column.
//!
//! Resolving a column: the lowest empty point of the column. When that point is supported it
//! is the column's one playable point; when it is not, the move still parses to it and the game
//! answers `no_platform`. A column whose every point is occupied parses to its top point, so the
//! game answers `occupied`.

use std::fmt;

use crate::margo::game::PlayedMove;
use crate::margo::geometry::{Geometry, Point};
use crate::margo::position::Position;
use crate::margo::Move;

/// Why a text is not a Margo move on this board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    /// Not a letter followed by a number, nor `swap`.
    Malformed(String),
    /// The letter or number lies beyond this board's grid.
    OffGrid(String),
    /// Letter and number of different parity: a grid vertex with no point.
    NoPoint(String),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Malformed(text) => write!(formatter, "not a margo move: {text:?}"),
            ParseMoveError::OffGrid(text) => write!(formatter, "off the board: {text:?}"),
            ParseMoveError::NoPoint(text) => write!(formatter, "no point at {text:?}"),
        }
    }
}

impl std::error::Error for ParseMoveError {}

/// Reads a vertex (`c5`, `K11`) into its grid cell (letter index, number - 1), checking it
/// lies on this board's grid.
///
/// # Errors
/// [`ParseMoveError::Malformed`] or [`ParseMoveError::OffGrid`].
pub fn parse_vertex(geometry: &Geometry, text: &str) -> Result<(usize, usize), ParseMoveError> {
    let trimmed = text.trim();
    let mut characters = trimmed.chars();
    let letter = characters
        .next()
        .filter(char::is_ascii_alphabetic)
        .ok_or_else(|| ParseMoveError::Malformed(trimmed.to_string()))?;
    let digits = characters.as_str();
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(ParseMoveError::Malformed(trimmed.to_string()));
    }
    let number: usize = digits
        .parse()
        .map_err(|_| ParseMoveError::OffGrid(trimmed.to_string()))?;
    let x = (letter.to_ascii_lowercase() as u8 - b'a') as usize;
    if number == 0 || number > geometry.grid_width() || x >= geometry.grid_width() {
        return Err(ParseMoveError::OffGrid(trimmed.to_string()));
    }
    Ok((x, number - 1))
}

/// Reads a move: `swap` or `swap-pieces` (any case), or a vertex resolved against the position
/// as the module header says.
///
/// # Errors
/// [`ParseMoveError`] when the text names no column of this board.
pub fn parse_move(position: &Position, text: &str) -> Result<Move, ParseMoveError> {
    let trimmed = text.trim();
    let lower = trimmed.to_ascii_lowercase();
    if lower == "swap" || lower == "swap-pieces" {
        return Ok(Move::Swap);
    }
    let geometry = position.geometry();
    let (x, y) = parse_vertex(geometry, trimmed)?;
    let column = geometry.column(x, y);
    let Some(&top) = column.last() else {
        return Err(ParseMoveError::NoPoint(trimmed.to_string()));
    };
    let lowest_empty = column
        .iter()
        .map(|&point| Point(point))
        .find(|&point| position.get(point).is_none());
    Ok(Move::Place(lowest_empty.unwrap_or(Point(top))))
}

/// The vertex of a point, upper case (`C5`).
pub fn format_point(geometry: &Geometry, point: Point) -> String {
    let (x, y) = geometry.vertex(point);
    format!("{}{}", (b'A' + x as u8) as char, y + 1)
}

/// The canonical spelling of a move: its vertex, or `swap`.
pub fn format_move(geometry: &Geometry, mv: Move) -> String {
    match mv {
        Move::Place(point) => format_point(geometry, point),
        Move::Swap => "swap".to_string(),
    }
}

/// The `showboard` text: one grid per level with the designer's letters above and numbers on
/// the left, level 0 first, then every higher level that holds a ball or a playable point.
/// `X` is a black ball, `O` a white one; lower case `x`/`o` marks a zombie (an unburied ball
/// whose group has no freedom); `#` is a buried black ball and `@` a buried white one; `.` is
/// an empty point. [`Position::from_diagram`] reads these symbols (without the labels).
pub fn board_text(position: &Position) -> String {
    let geometry = position.geometry();
    let zombies = position.zombies();
    let mut text = String::new();
    for level in 0..geometry.size() {
        let range = geometry.level_range(level);
        let used = range.clone().any(|index| {
            let point = Point(index as u16);
            position.get(point).is_some() || position.is_playable(point)
        });
        if level > 0 && !used {
            break;
        }
        let width = geometry.size() - level;
        text.push_str(&format!("level {level}\n   "));
        for column in 0..width {
            text.push(' ');
            text.push((b'A' + (2 * column + level) as u8) as char);
        }
        text.push('\n');
        for row in (0..width).rev() {
            text.push_str(&format!("{:>3}", 2 * row + level + 1));
            for column in 0..width {
                let Some(point) = geometry.point(level, row, column) else {
                    continue;
                };
                let symbol = match position.get(point) {
                    None => '.',
                    Some(color) => {
                        let (plain, zombie, buried) = match color {
                            crate::color::Color::Black => ('X', 'x', '#'),
                            crate::color::Color::White => ('O', 'o', '@'),
                        };
                        if position.is_buried(point) {
                            buried
                        } else if zombies[point.index()] {
                            zombie
                        } else {
                            plain
                        }
                    }
                };
                text.push(' ');
                text.push(symbol);
            }
            text.push('\n');
        }
    }
    let [black, white] = position.ball_counts();
    text.push_str(&format!("balls: black (X) {black}, white (O) {white}\n"));
    text
}

/// The designer-style listing of a game: `1 C5* 2 E5 3 D4 ...`. Placements are numbered; a
/// swap is not, it puts `*` after move 1. Colours are not written (the first move is the first
/// player's, then they alternate).
pub fn format_record(geometry: &Geometry, history: &[PlayedMove]) -> String {
    let mut text = String::new();
    let mut number = 0;
    for played in history {
        match played.mv {
            Move::Swap => text.push('*'),
            Move::Place(point) => {
                number += 1;
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(&format!("{number} {}", format_point(geometry, point)));
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::margo::{MAX_SIZE, MIN_SIZE};

    #[test]
    fn corners_and_levels_spell_as_the_designer() {
        let geometry = Geometry::of(6).expect("size");
        let spell = |level, row, column| {
            format_point(geometry, geometry.point(level, row, column).expect("point"))
        };
        assert_eq!(spell(0, 0, 0), "A1");
        assert_eq!(spell(0, 5, 5), "K11");
        assert_eq!(spell(1, 0, 0), "B2");
        assert_eq!(spell(2, 0, 0), "C3");
        assert_eq!(spell(0, 2, 4), "I5");
        let big = Geometry::of(9).expect("size");
        assert_eq!(format_point(big, big.point(0, 8, 8).expect("point")), "Q17");
    }

    #[test]
    fn every_point_round_trips_when_its_column_is_filled_below() {
        for size in MIN_SIZE..=MAX_SIZE {
            let geometry = Geometry::of(size).expect("size");
            let empty = Position::new(size).expect("size");
            for index in 0..geometry.point_count() {
                let point = Point(index as u16);
                let text = format_point(geometry, point);
                let (x, y) = parse_vertex(geometry, &text.to_ascii_lowercase()).expect("vertex");
                assert_eq!(geometry.vertex(point), (x, y));
                let column = geometry.column(x, y);
                assert_eq!(parse_move(&empty, &text), Ok(Move::Place(Point(column[0]))));
            }
        }
    }

    #[test]
    fn bad_text_is_refused() {
        let position = Position::new(4).expect("size");
        for text in [
            "",
            "5",
            "C",
            "C0",
            "H1",
            "A8",
            "Cx",
            "C-1",
            "Z99999999999999999999",
        ] {
            assert!(parse_move(&position, text).is_err(), "{text}");
        }
        assert!(matches!(
            parse_move(&position, "A2"),
            Err(ParseMoveError::NoPoint(_))
        ));
        assert_eq!(parse_move(&position, "SWAP"), Ok(Move::Swap));
        assert_eq!(parse_move(&position, "swap-pieces"), Ok(Move::Swap));
    }

    #[test]
    fn a_column_resolves_upwards() {
        let mut position = Position::new(4).expect("size");
        let geometry = position.geometry();
        let hole = geometry.point(0, 1, 1).expect("point");
        let upper = geometry.point(2, 0, 0).expect("point");
        assert_eq!(parse_move(&position, "c3"), Ok(Move::Place(hole)));
        position.play_unchecked(Color::White, hole);
        // The level-2 point over C3 has no platform yet: it still parses, for no_platform.
        assert_eq!(parse_move(&position, "c3"), Ok(Move::Place(upper)));
        assert_eq!(
            position.check_placement(Color::Black, upper),
            Err(crate::margo::IllegalMove::NoPlatform)
        );
    }

    #[test]
    fn record_marks_a_swap() {
        let geometry = Geometry::of(6).expect("size");
        let history = [
            PlayedMove {
                color: Color::White,
                mv: Move::Place(Point(0)),
            },
            PlayedMove {
                color: Color::Black,
                mv: Move::Swap,
            },
            PlayedMove {
                color: Color::White,
                mv: Move::Place(Point(1)),
            },
        ];
        assert_eq!(format_record(geometry, &history), "1 A1* 2 C1");
    }
}
