//! Perft: counting move sequences from a position, the standard check of a move generator.
//! Knows only `Board`'s move generation; the top level runs on rayon's threads.
//!
//! Each legal (line, direction) is one move, as in the rule sheet's tables.

use super::board::{Board, Push};
use super::moves::MoveKind;
use rayon::prelude::*;

/// The number of legal move sequences of `depth` plies from `board` (1 for depth 0). Games
/// that end on the way contribute no longer sequences.
pub fn perft(board: &Board, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(128);
    board.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .par_iter()
        .map(|&mv| {
            let mut child = *board;
            child.play_unchecked(mv);
            perft_serial(&child, depth - 1)
        })
        .sum()
}

fn perft_serial(board: &Board, depth: u32) -> u64 {
    let mut moves = Vec::with_capacity(128);
    board.legal_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for mv in moves {
        let mut child = *board;
        child.play_unchecked(mv);
        total += perft_serial(&child, depth - 1);
    }
    total
}

/// The legal moves of `board` by kind, indexed by [`MoveKind::index`] (1 marble, 2 inline,
/// 2 broadside, 3 inline, 3 broadside).
pub fn perft_kinds(board: &Board) -> [u64; 5] {
    let mut counts = [0; 5];
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    for mv in moves {
        counts[mv.kind().index()] += 1;
    }
    debug_assert_eq!(MoveKind::ALL.len(), counts.len());
    counts
}

/// Moves at the last ply of a perft, split by what they do to opposing marbles.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PushCounts {
    /// All move sequences (the perft number).
    pub leaves: u64,
    /// Last moves that push opposing marbles without ejecting one.
    pub pushes: u64,
    /// Last moves that eject an opposing marble.
    pub ejections: u64,
}

impl std::ops::Add for PushCounts {
    type Output = PushCounts;
    fn add(self, other: PushCounts) -> PushCounts {
        PushCounts {
            leaves: self.leaves + other.leaves,
            pushes: self.pushes + other.pushes,
            ejections: self.ejections + other.ejections,
        }
    }
}

/// Perft to `depth` (at least 1), counting the pushes and ejections among the last moves.
pub fn perft_pushes(board: &Board, depth: u32) -> PushCounts {
    let mut moves = Vec::with_capacity(128);
    board.legal_moves(&mut moves);
    if depth <= 1 {
        let mut counts = PushCounts {
            leaves: moves.len() as u64,
            ..PushCounts::default()
        };
        for &mv in &moves {
            match board.push_of(mv) {
                Push::None => {}
                Push::Pushes => counts.pushes += 1,
                Push::Ejects => counts.ejections += 1,
            }
        }
        return counts;
    }
    moves
        .par_iter()
        .map(|&mv| {
            let mut child = *board;
            child.play_unchecked(mv);
            perft_pushes(&child, depth - 1)
        })
        .reduce(PushCounts::default, |left, right| left + right)
}
