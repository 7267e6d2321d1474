//! Points and moves. Knows how a board of a given size lays its points out in one padded
//! array, and how GTP writes a vertex (`A1` bottom left, no letter `I`); knows nothing of
//! stones.

use std::fmt;

/// The smallest board size ishi plays on.
pub const MIN_SIZE: usize = 2;
/// The largest board size GTP can name (25x25).
pub const MAX_SIZE: usize = 25;
/// The column letters of GTP vertices: A to Z without I.
pub const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A point of a padded board: an index into arrays of length [`array_length`] for the
/// board's size. Rows are `size + 1` wide (one border column shared by both edges) with one
/// border row above and below, so the four neighbours of a point are always valid indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(pub u16);

impl Point {
    /// The index as `usize`, for indexing arrays.
    #[inline(always)]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// Distance between vertically adjacent points on a board of `size`.
#[inline(always)]
pub fn stride(size: usize) -> usize {
    size + 1
}

/// Length of per-point arrays for a board of `size` (border included).
pub fn array_length(size: usize) -> usize {
    (size + 2) * stride(size) + 1
}

/// The point at `column` (0 = A, from the left) and `row` (0 = row 1, from the bottom).
///
/// # Panics
/// In debug builds, when the coordinates are off a board of `size`.
#[inline]
pub fn point_at(column: usize, row: usize, size: usize) -> Point {
    debug_assert!(column < size && row < size);
    Point(((row + 1) * stride(size) + column + 1) as u16)
}

/// `(column, row)` of an on-board point (0-based, row 0 at the bottom).
#[inline]
pub fn coordinates(point: Point, size: usize) -> (usize, usize) {
    let stride = stride(size);
    let index = point.index();
    (index % stride - 1, index / stride - 1)
}

/// A move: a stone on a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Place(Point),
    Pass,
}

/// GTP text of a point, upper case (`D4`).
pub fn vertex_text(point: Point, size: usize) -> String {
    let (column, row) = coordinates(point, size);
    format!("{}{}", COLUMN_LETTERS[column] as char, row + 1)
}

/// GTP text of a move: a vertex in upper case or `pass`.
pub fn move_text(chosen: Move, size: usize) -> String {
    match chosen {
        Move::Place(point) => vertex_text(point, size),
        Move::Pass => "pass".to_string(),
    }
}

/// Why a vertex could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VertexError {
    /// Not of the form letter + number, or the letter `I`.
    Syntax,
    /// Well formed but off the board.
    OffBoard,
}

impl fmt::Display for VertexError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            VertexError::Syntax => "invalid vertex",
            VertexError::OffBoard => "vertex off the board",
        })
    }
}

/// Parses a GTP vertex (`d4`, `D4`, `pass`, `PASS`) for a board of `size`.
///
/// # Errors
/// [`VertexError::Syntax`] for text that is no vertex, [`VertexError::OffBoard`] for a vertex
/// outside the board.
pub fn parse_move(text: &str, size: usize) -> Result<Move, VertexError> {
    if text.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    let bytes = text.as_bytes();
    if bytes.len() < 2 || !bytes[0].is_ascii_alphabetic() {
        return Err(VertexError::Syntax);
    }
    let letter = bytes[0].to_ascii_uppercase();
    let column = COLUMN_LETTERS
        .iter()
        .position(|&candidate| candidate == letter)
        .ok_or(VertexError::Syntax)?;
    let digits = &text[1..];
    if !digits.bytes().all(|byte| byte.is_ascii_digit()) || digits.len() > 3 {
        return Err(VertexError::Syntax);
    }
    let row: usize = digits.parse().map_err(|_| VertexError::Syntax)?;
    if row == 0 || row > size || column >= size {
        return Err(VertexError::OffBoard);
    }
    Ok(Move::Place(point_at(column, row - 1, size)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_round_trip_on_every_size() {
        for size in MIN_SIZE..=MAX_SIZE {
            for row in 0..size {
                for column in 0..size {
                    let point = point_at(column, row, size);
                    assert_eq!(coordinates(point, size), (column, row));
                    let text = vertex_text(point, size);
                    assert_eq!(parse_move(&text, size), Ok(Move::Place(point)));
                    assert_eq!(
                        parse_move(&text.to_lowercase(), size),
                        Ok(Move::Place(point))
                    );
                }
            }
        }
    }

    #[test]
    fn reads_known_vertices() {
        assert_eq!(parse_move("A1", 19), Ok(Move::Place(point_at(0, 0, 19))));
        assert_eq!(parse_move("J1", 19), Ok(Move::Place(point_at(8, 0, 19))));
        assert_eq!(parse_move("T19", 19), Ok(Move::Place(point_at(18, 18, 19))));
        assert_eq!(parse_move("Pass", 9), Ok(Move::Pass));
        assert_eq!(parse_move("I5", 19), Err(VertexError::Syntax));
        assert_eq!(parse_move("K10", 9), Err(VertexError::OffBoard));
        assert_eq!(parse_move("A0", 9), Err(VertexError::OffBoard));
        assert_eq!(parse_move("A", 9), Err(VertexError::Syntax));
        assert_eq!(parse_move("4D", 9), Err(VertexError::Syntax));
        assert_eq!(parse_move("A+1", 9), Err(VertexError::Syntax));
        assert_eq!(parse_move("Z25", 25), Ok(Move::Place(point_at(24, 24, 25))));
    }
}
