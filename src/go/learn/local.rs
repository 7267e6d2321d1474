//! Fitting the playouts' answer shapes ([`crate::go::search::playout_patterns`]): for every
//! teacher position after a move on the board, the candidates are the empty neighbours of that
//! move (each rated by its 3x3 shape) and "elsewhere" (every other move, one weight), and the
//! target is the teacher's probability of each. The fit itself is [`crate::go::learn::fit`]'s.
//! Knows the teacher positions, the 3x3 codes and the fit; nothing of search.

use crate::go::learn::fit::Sample;
use crate::go::learn::teacher::{replay, TeacherGame};
use crate::go::search::board::{EMPTY, NO_POINT};
use crate::go::search::patterns::code_at;
use crate::go::search::playout_patterns::{canonical_code, relative_code, PlayoutPatterns};
use rayon::prelude::*;
use std::collections::HashMap;

/// Weight index of answering elsewhere.
const ELSEWHERE: u32 = 0;
/// Weight index of a shape seen too rarely.
const UNKNOWN: u32 = 1;

/// Where each shape's weight lives.
pub struct ShapeIndex {
    shapes: HashMap<u16, u32>,
    /// Number of weights.
    pub weight_count: usize,
}

/// Visits the local candidates of every position: the canonical shape of each empty
/// neighbour of the last move that the search would consider, with the teacher's
/// probability, and the probability of everything else.
fn local_positions(game: &TeacherGame, mut visit: impl FnMut(&[(u16, f32)], f32)) {
    replay(game, |position| {
        let board = &position.board;
        let last = board.last_move();
        if last == NO_POINT {
            return;
        }
        let mut local: Vec<(u16, f32)> = Vec::with_capacity(8);
        let mut mass = 0.0;
        for point in board.ring(last) {
            if board.cell(point) != EMPTY {
                continue;
            }
            let Some(candidate) = position
                .candidates
                .iter()
                .position(|&candidate| candidate as usize == point)
            else {
                continue;
            };
            let shape = canonical_code(relative_code(code_at(board, point), position.color));
            local.push((shape as u16, position.targets[candidate]));
            mass += position.targets[candidate];
        }
        if !local.is_empty() {
            visit(&local, (1.0 - mass).max(0.0));
        }
    });
}

impl ShapeIndex {
    /// Shapes seen at least `min_count` times around last moves of `games`.
    pub fn new(games: &[TeacherGame], min_count: u32) -> ShapeIndex {
        let counts = games
            .par_iter()
            .map(|game| {
                let mut counts: HashMap<u16, u32> = HashMap::new();
                local_positions(game, |local, _| {
                    for &(shape, _) in local {
                        *counts.entry(shape).or_insert(0) += 1;
                    }
                });
                counts
            })
            .reduce(HashMap::new, |mut left, right| {
                for (shape, count) in right {
                    *left.entry(shape).or_insert(0) += count;
                }
                left
            });
        let mut shapes: Vec<u16> = counts
            .into_iter()
            .filter(|&(_, count)| count >= min_count)
            .map(|(shape, _)| shape)
            .collect();
        shapes.sort_unstable();
        let shapes: HashMap<u16, u32> = shapes
            .into_iter()
            .enumerate()
            .map(|(index, shape)| (shape, index as u32 + 2))
            .collect();
        let weight_count = shapes.len() + 2;
        ShapeIndex {
            shapes,
            weight_count,
        }
    }

    /// The samples of every position of `games` (elsewhere last in each).
    pub fn samples(&self, games: &[TeacherGame]) -> Vec<Sample> {
        games
            .par_iter()
            .map(|game| {
                let mut samples = Vec::new();
                local_positions(game, |local, elsewhere| {
                    let mut features: Vec<u32> = local
                        .iter()
                        .map(|(shape, _)| self.shapes.get(shape).copied().unwrap_or(UNKNOWN))
                        .collect();
                    features.push(ELSEWHERE);
                    let mut targets: Vec<f32> = local.iter().map(|&(_, target)| target).collect();
                    targets.push(elsewhere);
                    samples.push(Sample::new(1, features, targets, None));
                });
                samples
            })
            .flatten()
            .collect()
    }

    /// The weights as playout patterns.
    pub fn patterns(&self, weights: &[f32]) -> PlayoutPatterns {
        PlayoutPatterns {
            weights: self
                .shapes
                .iter()
                .map(|(&shape, &index)| (shape, weights[index as usize]))
                .collect(),
            unknown: weights[UNKNOWN as usize],
            elsewhere: weights[ELSEWHERE as usize],
        }
    }
}
