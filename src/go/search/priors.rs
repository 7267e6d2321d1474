//! Prior knowledge for new tree children, as equivalent experience (virtual visits and wins)
//! added to each child: an even prior, bonuses for captures, atari escapes, MoGo shapes and
//! closeness to the last move (common-fate-graph distance, a chain counting as one point),
//! penalties for self-atari, eye-shape filling, low moves in empty areas, early passes and
//! running from atari into a ladder that dies.
//! Knows the playout board, patterns and tactics; nothing of the tree's layout.

use crate::color::Color;
use crate::go::search::board::{stone_code, PlayoutBoard, BORDER, CAPACITY, EMPTY, NO_POINT};
use crate::go::search::ladder::LadderReader;
use crate::go::search::patterns::PatternTable;
use crate::go::search::playout::{new_liberties, self_atari_size};
use crate::search::domain::Prior;
use crate::search::params::SearchParams;
use crate::search::tree::RESULT_SCALE;

/// Scratch space reused between expansions.
pub struct PriorScratch {
    distances: Vec<u8>,
    queue: Vec<u16>,
    ladder: LadderReader,
}

impl Default for PriorScratch {
    fn default() -> PriorScratch {
        PriorScratch {
            distances: vec![u8::MAX; CAPACITY],
            queue: Vec::with_capacity(CAPACITY),
            ladder: LadderReader::default(),
        }
    }
}

const FAR: u8 = u8::MAX;

impl PriorScratch {
    /// Common-fate-graph distances (up to 3) from the last move; every point farther away
    /// (or every point when the last move was a pass) gets [`FAR`].
    fn compute_distances(&mut self, board: &PlayoutBoard) {
        let length = board.length();
        self.distances[..length].fill(FAR);
        self.queue.clear();
        let last = board.last_move();
        if last == NO_POINT || board.cell(last) == EMPTY {
            return;
        }
        let mark_chain = |distances: &mut Vec<u8>, queue: &mut Vec<u16>, point: usize, d: u8| {
            let mut stone = point;
            loop {
                if distances[stone] == FAR {
                    distances[stone] = d;
                    queue.push(stone as u16);
                }
                stone = board.next_stone(stone);
                if stone == point {
                    break;
                }
            }
        };
        mark_chain(&mut self.distances, &mut self.queue, last, 0);
        let mut cursor = 0;
        while cursor < self.queue.len() {
            let point = self.queue[cursor] as usize;
            cursor += 1;
            let distance = self.distances[point];
            if distance >= 3 {
                continue;
            }
            for neighbour in board.neighbours(point) {
                let cell = board.cell(neighbour);
                if cell == BORDER || self.distances[neighbour] != FAR {
                    continue;
                }
                if cell == EMPTY {
                    self.distances[neighbour] = distance + 1;
                    self.queue.push(neighbour as u16);
                } else {
                    mark_chain(
                        &mut self.distances,
                        &mut self.queue,
                        neighbour,
                        distance + 1,
                    );
                }
            }
        }
    }
}

/// Computes the priors of every candidate in `points` (pass is [`NO_POINT`]) for `color`
/// to move on `board`, writing them to `priors` (same order).
pub fn compute_priors(
    board: &PlayoutBoard,
    color: Color,
    params: &SearchParams,
    table: &PatternTable,
    scratch: &mut PriorScratch,
    points: &[u16],
    priors: &mut Vec<Prior>,
) {
    priors.clear();
    let knowledge = params.priors;
    if knowledge {
        scratch.compute_distances(board);
    }
    let own = stone_code(color);
    let opponent = own ^ BORDER;
    let size = board.size();
    for &point in points {
        let point = point as usize;
        let mut prior = Prior::default();
        prior.add(params.prior_even, false);
        prior.wins += params.prior_even * RESULT_SCALE / 2;
        if !knowledge {
            priors.push(prior);
            continue;
        }
        if point == NO_POINT {
            if board.empty_count() * 3 > size * size {
                prior.add(params.prior_pass, false);
            }
            priors.push(prior);
            continue;
        }
        if board.is_eyeish(point, color) {
            prior.add(params.prior_eye, false);
        }
        let mut captures = false;
        let mut saved = NO_POINT;
        for neighbour in board.neighbours(point) {
            let cell = board.cell(neighbour);
            if cell == opponent && board.in_atari(neighbour) {
                captures = true;
            } else if cell == own && board.in_atari(neighbour) {
                saved = neighbour;
            }
        }
        if captures {
            prior.add(params.prior_capture, true);
        }
        if saved != NO_POINT {
            let gained = if captures {
                3
            } else {
                new_liberties(board, point, color)
            };
            // Running with two liberties may only extend a ladder that dies.
            let dead_ladder = gained == 2
                && params.prior_ladder_escape > 0
                && scratch.ladder.running_fails(board, saved, color);
            if dead_ladder {
                prior.add(params.prior_ladder_escape, false);
            } else if gained >= 2 {
                prior.add(params.prior_escape, true);
            }
        }
        if let Some(chain) = self_atari_size(board, point, color) {
            if chain > params.playout_self_atari_nakade as usize {
                prior.add(params.prior_self_atari, false);
            }
        }
        if table.matches(board, point) {
            prior.add(params.prior_pattern, true);
        }
        match scratch.distances[point] {
            1 => prior.add(params.prior_distance_1, true),
            2 => prior.add(params.prior_distance_2, true),
            3 => prior.add(params.prior_distance_3, true),
            _ => {}
        }
        let line = line_height(board, point);
        if line <= 3 && size >= 9 && empty_around(board, point) {
            if line <= 2 {
                prior.add(params.prior_empty_low_line, false);
            } else {
                prior.add(params.prior_empty_third_line, true);
            }
        }
        priors.push(prior);
    }
}

/// The line of an on-board point counted from the nearest edge (1 = edge).
pub fn line_height(board: &PlayoutBoard, point: usize) -> usize {
    let stride = board.stride();
    let column = point % stride;
    let row = point / stride;
    let size = board.size();
    column.min(row).min(size + 1 - column).min(size + 1 - row)
}

/// Whether no stone lies within Manhattan distance 3 of `point`.
fn empty_around(board: &PlayoutBoard, point: usize) -> bool {
    let stride = board.stride() as isize;
    let length = board.length() as isize;
    for row in -3isize..=3 {
        let span = 3 - row.abs();
        for column in -span..=span {
            let other = point as isize + row * stride + column;
            if other < 0 || other >= length {
                continue;
            }
            let cell = board.cell(other as usize);
            if cell != EMPTY && cell != BORDER {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::board::Board;

    use crate::go::search::board::vertex_index as at;
    use crate::go::search::patterns;

    #[test]
    fn capture_beats_a_quiet_move_and_self_atari_is_penalised() {
        let rules_board = Board::from_diagram(
            ". . . . . . . . .
             . . . . . . . . .
             . . . . . . . . .
             . . . X O X . . .
             . . . . X . . . .
             . . . . . . . . .
             . . . . . . . . .
             . O O O . . . . .
             O X X . . . . . .",
        )
        .unwrap();
        let board = PlayoutBoard::from_board(&rules_board, Color::Black);
        let points = [
            at(9, "E7") as u16,
            at(9, "H8") as u16,
            at(9, "A2") as u16,
            at(9, "D1") as u16,
            NO_POINT as u16,
        ];
        let mut priors = Vec::new();
        let mut scratch = PriorScratch::default();
        compute_priors(
            &board,
            Color::Black,
            &SearchParams::default(),
            patterns::table(),
            &mut scratch,
            &points,
            &mut priors,
        );
        // E7 captures the white stone in atari; H8 is a quiet move in an empty area.
        assert!(priors[0].value() > priors[1].value());
        // D1 is a self-atari of three black stones.
        assert!(priors[3].value() < 0.5);
        assert_eq!(line_height(&board, at(9, "A2")), 1);
        assert_eq!(line_height(&board, at(9, "E5")), 5);
    }
}
