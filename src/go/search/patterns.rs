//! 3x3 patterns around an empty point: MoGo's hand-made shapes (hane, cuts, edge moves)
//! expanded once, over all rotations, reflections and both colours, into a bit table indexed
//! by the 16-bit code of the eight neighbours. Used by the heavy playouts and the priors.
//! Knows the playout board's cell codes and nothing else.

use crate::go::search::board::{PlayoutBoard, BLACK, BORDER, EMPTY, WHITE};
use std::sync::OnceLock;

/// The shapes, top row first, centre always the empty point to play. `X` and `O` are stones
/// of either colour (swapped in the colour-mirrored copies), `.` empty, ` ` off board, `?`
/// anything, `x` anything but an `X` stone, `o` anything but an `O` stone.
const SHAPES: [[&str; 3]; 13] = [
    // Hane: enclosing hane, non-cutting hane, magari, katatsuke.
    ["XOX", "...", "???"],
    ["XO.", "...", "?.?"],
    ["XO?", "X..", "x.?"],
    [".O.", "X..", "..."],
    // Cut 1: unprotected cut, peeped cut.
    ["XO?", "O.o", "?o?"],
    ["XO?", "O.X", "???"],
    // Cut 2.
    ["?X?", "O.O", "ooo"],
    // Keima cut.
    ["OX?", "o.O", "???"],
    // Edge: chase, block the side cut, block the connection, sagari, cut.
    ["X.?", "O.?", "   "],
    ["OX?", "X.O", "   "],
    ["?X?", "x.O", "   "],
    ["?XO", "x.x", "   "],
    ["?OX", "X.O", "   "],
];

/// The 16-bit code of the eight neighbours of `point`, in [`PlayoutBoard::ring`] order
/// (kept by the board as stones come and go).
#[inline(always)]
pub fn code_at(board: &PlayoutBoard, point: usize) -> u32 {
    board.code(point)
}

/// The table of matching codes.
pub struct PatternTable {
    bits: Vec<u64>,
}

impl PatternTable {
    /// Whether the neighbourhood code matches a shape.
    #[inline(always)]
    pub fn matches_code(&self, code: u32) -> bool {
        let code = code as usize & 0xffff;
        (self.bits[code >> 6] >> (code & 63)) & 1 != 0
    }

    /// Whether playing on the empty `point` matches a shape.
    #[inline(always)]
    pub fn matches(&self, board: &PlayoutBoard, point: usize) -> bool {
        self.matches_code(code_at(board, point))
    }

    fn build() -> PatternTable {
        let mut table = PatternTable {
            bits: vec![0; 1 << 10],
        };
        for shape in SHAPES {
            let grid: Vec<Vec<char>> = shape.iter().map(|row| row.chars().collect()).collect();
            for variant in symmetries(&grid) {
                for swap in [false, true] {
                    let ring = ring_symbols(&variant, swap);
                    table.add_expanded(&ring, 0, 0);
                }
            }
        }
        table
    }

    fn add_expanded(&mut self, ring: &[char; 8], position: usize, code: u32) {
        if position == 8 {
            let code = code as usize;
            self.bits[code >> 6] |= 1 << (code & 63);
            return;
        }
        // Allowed 2-bit values: empty 0, black 1, white 2, border 3; X is black here.
        let allowed: &[u32] = match ring[position] {
            '.' => &[0],
            'X' => &[1],
            'O' => &[2],
            ' ' => &[3],
            'x' => &[0, 2, 3],
            'o' => &[0, 1, 3],
            _ => &[0, 1, 2, 3],
        };
        for &value in allowed {
            self.add_expanded(ring, position + 1, code | value << (2 * position));
        }
    }
}

/// The eight rotations and reflections of a 3x3 grid.
fn symmetries(grid: &[Vec<char>]) -> Vec<Vec<Vec<char>>> {
    let rotate = |g: &Vec<Vec<char>>| -> Vec<Vec<char>> {
        (0..3)
            .map(|row| (0..3).map(|column| g[2 - column][row]).collect())
            .collect()
    };
    let mirror = |g: &Vec<Vec<char>>| -> Vec<Vec<char>> {
        g.iter()
            .map(|row| row.iter().rev().copied().collect())
            .collect()
    };
    let mut result = Vec::new();
    let mut current: Vec<Vec<char>> = grid.to_vec();
    for _ in 0..4 {
        result.push(current.clone());
        result.push(mirror(&current));
        current = rotate(&current);
    }
    result
}

/// The grid's eight outer symbols in ring order (row below the centre first, as the board
/// stores rows bottom up; the top row of the grid is the row above), colours swapped on
/// request.
fn ring_symbols(grid: &[Vec<char>], swap: bool) -> [char; 8] {
    let at = |row: usize, column: usize| -> char {
        let symbol = grid[row][column];
        if !swap {
            return symbol;
        }
        match symbol {
            'X' => 'O',
            'O' => 'X',
            'x' => 'o',
            'o' => 'x',
            other => other,
        }
    };
    [
        at(2, 0),
        at(2, 1),
        at(2, 2),
        at(1, 2),
        at(0, 2),
        at(0, 1),
        at(0, 0),
        at(1, 0),
    ]
}

/// The shared table, built on first use.
pub fn table() -> &'static PatternTable {
    static TABLE: OnceLock<PatternTable> = OnceLock::new();
    TABLE.get_or_init(PatternTable::build)
}

// The cell codes the bit mapping relies on.
const _: () = assert!(EMPTY >> 1 == 0 && BLACK >> 1 == 1 && WHITE >> 1 == 2 && BORDER >> 1 == 3);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::color::Color;
    use crate::go::rules::board::Board;
    use crate::go::rules::point::{parse_move, Move};

    fn matches(diagram: &str, vertex: &str) -> bool {
        let rules_board = Board::from_diagram(diagram).unwrap();
        let board = PlayoutBoard::from_board(&rules_board, Color::Black);
        let point = match parse_move(vertex, rules_board.size()) {
            Ok(Move::Place(point)) => point.index(),
            other => panic!("bad vertex {other:?}"),
        };
        table().matches(&board, point)
    }

    #[test]
    fn hane_matches_in_every_orientation() {
        // Enclosing hane at C3 (X O X above it).
        let diagram = ". . . . .
                       . X O X .
                       . . . . .
                       . . . . .
                       . . . . .";
        assert!(matches(diagram, "C3"));
        // The same shape turned sideways, colours swapped.
        let turned = ". . . . .
                      . O . . .
                      . X . . .
                      . O . . .
                      . . . . .";
        assert!(matches(turned, "C3"));
    }

    #[test]
    fn empty_surroundings_do_not_match() {
        let diagram = ". . . . .
                       . . . . .
                       . . . . .
                       . . . . .
                       . . . . .";
        assert!(!matches(diagram, "C3"));
    }

    #[test]
    fn edge_patterns_need_the_edge() {
        // Side "block the connection": ?X? / x.O on the first line, at C1.
        let diagram = ". . . . .
                       . . . . .
                       . . . . .
                       . . X . .
                       . . . O .";
        assert!(matches(diagram, "C1"));
        // A lone stone next to the point is no shape.
        let lone = ". . . . .
                    . . . . .
                    . . X . .
                    . . . . .
                    . . . . .";
        assert!(!matches(lone, "C2"));
    }
}
