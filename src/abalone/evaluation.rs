//! A static evaluation of Abalone positions for the alpha-beta player, from the side to
//! move's point of view, in centipawn-like integers (one ejected marble is worth
//! [`Weights::material`], 1000 by default). Knows the board and nothing of the search; it
//! does not score finished games (the search does).
//!
//! Terms, each "own minus opposing" unless said otherwise:
//! - **material**: ejections made;
//! - **centre**: per marble, 4 minus its hex distance to `e5` (so it never rewards losing a
//!   marble, unlike a plain sum of distances);
//! - **cohesion**: pairs of adjacent marbles of one colour;
//! - **danger**: marbles on the rim that the other side could eject with its next move; the
//!   side to move's own endangered marbles cost [`Weights::danger`], the opponent's
//!   endangered marbles (the side to move could take one now) earn [`Weights::threat`];
//! - **centre of mass** (AbaPro, optional, 0 by default): with R the weighted mean of both
//!   centres of mass (weight 3 each) and the board centre (weight 1), the opponent's summed
//!   distance to R minus the own one.

use super::board::Board;
use super::geometry::{Cell, Direction};
use crate::color::Color;

/// The weights of the evaluation terms (see the module). `Default` gives the tuned-by-hand
/// defaults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per ejection difference.
    pub material: i32,
    /// Per unit of centrality (4 minus the distance to the centre) per marble.
    pub centre: i32,
    /// Per adjacent pair of one's own marbles.
    pub cohesion: i32,
    /// Per own marble in danger of ejection (the opponent could take it next move).
    pub danger: i32,
    /// Per opposing marble the side to move could eject now.
    pub threat: i32,
    /// The AbaPro centre-of-mass term, per unit of distance (0 switches it off).
    pub centre_of_mass: i32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            material: 1000,
            centre: 12,
            cohesion: 4,
            danger: 90,
            threat: 40,
            centre_of_mass: 0,
        }
    }
}

/// The evaluation of `board` for the side to move (positive: good for the side to move).
pub fn evaluate(board: &Board, weights: &Weights) -> i32 {
    let own = board.to_move();
    let opponent = own.opponent();
    let mut score = weights.material * (board.ejected(own) as i32 - board.ejected(opponent) as i32);
    score += weights.centre * (centrality(board, own) - centrality(board, opponent));
    score += weights.cohesion * (cohesion(board, own) - cohesion(board, opponent));
    if weights.danger != 0 {
        score -= weights.danger * board.marbles_in_danger(own) as i32;
    }
    if weights.threat != 0 {
        score += weights.threat * board.marbles_in_danger(opponent) as i32;
    }
    if weights.centre_of_mass != 0 {
        score += centre_of_mass_term(board, own, weights.centre_of_mass);
    }
    score
}

/// Sum over `color`'s marbles of 4 minus the distance to the centre.
fn centrality(board: &Board, color: Color) -> i32 {
    board
        .marbles(color)
        .map(|cell| 4 - cell.centre_distance() as i32)
        .sum()
}

/// Adjacent pairs of `color`'s marbles (each pair once: three axis directions).
fn cohesion(board: &Board, color: Color) -> i32 {
    let mut pairs = 0;
    for cell in board.marbles(color) {
        for direction in Direction::AXES {
            if cell
                .neighbour(direction)
                .is_some_and(|next| board.at(next) == Some(color))
            {
                pairs += 1;
            }
        }
    }
    pairs
}

/// Axial (row, diagonal) of a cell as floats.
fn coordinates(cell: Cell) -> (f32, f32) {
    (cell.row() as f32, cell.diagonal() as f32 - 1.0)
}

/// Hex distance between fractional axial points.
fn fractional_distance(from: (f32, f32), to: (f32, f32)) -> f32 {
    let rows = from.0 - to.0;
    let columns = from.1 - to.1;
    rows.abs().max(columns.abs()).max((rows - columns).abs())
}

/// The AbaPro term for `own`, times `weight`.
fn centre_of_mass_term(board: &Board, own: Color, weight: i32) -> i32 {
    let mean = |color: Color| {
        let mut sum = (0.0f32, 0.0f32);
        let mut count = 0.0f32;
        for cell in board.marbles(color) {
            let (row, column) = coordinates(cell);
            sum = (sum.0 + row, sum.1 + column);
            count += 1.0;
        }
        if count == 0.0 {
            (4.0, 4.0)
        } else {
            (sum.0 / count, sum.1 / count)
        }
    };
    let (own_mean, opponent_mean) = (mean(own), mean(own.opponent()));
    let reference = (
        (3.0 * own_mean.0 + 3.0 * opponent_mean.0 + 4.0) / 7.0,
        (3.0 * own_mean.1 + 3.0 * opponent_mean.1 + 4.0) / 7.0,
    );
    let spread = |color: Color| -> f32 {
        board
            .marbles(color)
            .map(|cell| fractional_distance(coordinates(cell), reference))
            .sum()
    };
    ((spread(own.opponent()) - spread(own)) * weight as f32).round() as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abalone::board::Start;

    #[test]
    fn symmetric_starts_evaluate_to_zero() {
        let weights = Weights {
            centre_of_mass: 5,
            ..Weights::default()
        };
        for start in Start::ALL {
            assert_eq!(
                evaluate(&Board::new(start), &weights),
                0,
                "{}",
                start.name()
            );
        }
    }

    #[test]
    fn an_ejection_dominates() {
        let board = Board::new(Start::Belgian)
            .with_state(Color::Black, 1, 0, 0)
            .expect("state");
        assert!(evaluate(&board, &Weights::default()) > 500);
    }
}
