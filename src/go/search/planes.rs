//! Go's input planes for the network ([`crate::go::search::value`]): stones, chains by their
//! liberties, the last two moves, the ko point and the edge, [`INPUT_PLANES`]
//! values a point, points row by row from the bottom-left as the playout board stores them;
//! the softmax of one logit a point over the moves the search lists
//! ([`candidate_probabilities`]); and the eight symmetries of the square board as point
//! permutations ([`symmetries`]), which training draws from and `kata-raw-nn` evaluates
//! under.
//!
//! Knows the playout board and the network library's softmax; nothing of the tree.

use crate::color::Color;
use crate::go::search::board::{stone_code, PlayoutBoard, BORDER, CAPACITY, EMPTY, NO_POINT};
use crate::nn::inference;

/// Feature planes per point: own stones, opponent stones, own chains with 1, 2 and 3+
/// liberties, the same for the opponent, the last move, the move before it, the ko point,
/// an empty plane (the retired policy network marked the search's candidates there; the
/// weight files keep its place) and a plane of ones (which, zero-padded, marks the edge).
pub const INPUT_PLANES: usize = 13;

/// Writes the feature planes of `board` with `color` to move into `planes`
/// (`[point][INPUT_PLANES]`, points row by row).
pub fn encode(board: &PlayoutBoard, color: Color, planes: &mut [f32]) {
    let size = board.size();
    let stride = board.stride();
    planes[..size * size * INPUT_PLANES].fill(0.0);
    let own = stone_code(color);
    let mut liberties = [0usize; 3];
    let mut chain_liberties = [0u8; CAPACITY];
    let index = |point: usize| (point / stride - 1) * size + point % stride - 1;
    for row in 0..size {
        for column in 0..size {
            let point = (row + 1) * stride + column + 1;
            let plane = &mut planes[(row * size + column) * INPUT_PLANES..];
            plane[12] = 1.0;
            let cell = board.cell(point);
            if cell == EMPTY || cell == BORDER {
                continue;
            }
            let head = board.chain(point);
            if chain_liberties[head] == 0 {
                chain_liberties[head] = board.liberties_into(point, NO_POINT, &mut liberties) as u8;
            }
            let count = chain_liberties[head].clamp(1, 3) as usize;
            let side = if cell == own { 0 } else { 1 };
            plane[side] = 1.0;
            plane[2 + 3 * side + count - 1] = 1.0;
        }
    }
    for (point, plane_index) in [
        (board.last_move(), 8),
        (board.second_last_move(), 9),
        (board.ko_point(), 10),
    ] {
        if point != NO_POINT && board.cell(point) != BORDER {
            planes[index(point) * INPUT_PLANES + plane_index] = 1.0;
        }
    }
}

/// The eight symmetries of a square board of `size` as point permutations (row by row).
pub fn symmetries(size: usize) -> Vec<Vec<u16>> {
    (0..8)
        .map(|symmetry| {
            let mut permutation = Vec::with_capacity(size * size);
            for row in 0..size {
                for column in 0..size {
                    let (mut r, mut c) = (row, column);
                    if symmetry & 1 != 0 {
                        c = size - 1 - c;
                    }
                    if symmetry & 2 != 0 {
                        r = size - 1 - r;
                    }
                    if symmetry & 4 != 0 {
                        std::mem::swap(&mut r, &mut c);
                    }
                    permutation.push((r * size + c) as u16);
                }
            }
            permutation
        })
        .collect()
}

/// The probability of each of `points` from one logit a board point (`logits`, points row
/// by row from the bottom-left): the softmax over the board points among them; pass
/// ([`NO_POINT`]) gets 0.
pub fn candidate_probabilities(
    board: &PlayoutBoard,
    logits: &[f32],
    points: &[u16],
    probabilities: &mut Vec<f32>,
) {
    let size = board.size();
    let stride = board.stride();
    probabilities.clear();
    probabilities.extend(points.iter().map(|&point| {
        let point = point as usize;
        if point == NO_POINT {
            f32::NEG_INFINITY
        } else {
            logits[(point / stride - 1) * size + point % stride - 1]
        }
    }));
    inference::softmax(probabilities);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::board::Board;
    use crate::go::search::board::vertex_index as at;

    #[test]
    fn encodes_stones_liberties_and_the_last_move() {
        let rules_board = Board::from_diagram(
            ". . . . .
             . . . . .
             . . X O .
             . . . . .
             . . . . .",
        )
        .unwrap();
        let mut board = PlayoutBoard::from_board(&rules_board, Color::Black);
        board.play(at(5, "C2"), Color::Black);
        let mut planes = vec![0.0; 25 * INPUT_PLANES];
        encode(&board, Color::White, &mut planes);
        let plane = |vertex: &str, plane: usize| {
            let point = at(5, vertex);
            let stride = board.stride();
            planes[((point / stride - 1) * 5 + point % stride - 1) * INPUT_PLANES + plane]
        };
        // White to move: D3 is own with three liberties, C3 and C2 opponent stones with
        // five liberties together (3+), C2 the last move.
        assert_eq!(plane("D3", 0), 1.0);
        assert_eq!(plane("D3", 4), 1.0);
        assert_eq!(plane("C3", 1), 1.0);
        assert_eq!(plane("C3", 7), 1.0);
        assert_eq!(plane("C2", 8), 1.0);
        assert!(["A1", "C2", "D3", "E5"]
            .iter()
            .all(|&vertex| plane(vertex, 11) == 0.0));
        assert_eq!(plane("E5", 12), 1.0);
        assert_eq!(plane("E5", 0) + plane("E5", 1), 0.0);
    }
}
