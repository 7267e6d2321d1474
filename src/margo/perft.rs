//! Perft for Margo: the number of legal move sequences of a given length.
//!
//! Knows how to walk the game tree of a [`Game`] with all its rules (superko included), in
//! parallel with rayon near the root. Before the first move White moves (the designer's rule;
//! the counts are the same for Black). Knows nothing else.

use rayon::prelude::*;

use crate::color::Color;
use crate::margo::{Game, Move};

/// Depths at and above which a node's children are counted in parallel.
const PARALLEL_DEPTH: u32 = 3;

/// The number of legal move sequences of `depth` moves from the game's position, swap counted
/// when the game offers it.
pub fn perft(game: &Game, depth: u32) -> u64 {
    count(game, depth)
}

/// [`perft`] with swap offered (`true`) or not, whatever the game's own setting.
pub fn perft_with_swap(game: &Game, depth: u32, swap: bool) -> u64 {
    let mut copy = game.clone();
    copy.set_swap_enabled(swap);
    count(&copy, depth)
}

fn count(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let color = game.mover_or(Color::White);
    let mut moves = Vec::new();
    game.legal_moves(color, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    if depth >= PARALLEL_DEPTH {
        moves
            .par_iter()
            .map(|&mv| {
                let mut child = game.clone();
                match child.play(color, mv) {
                    Ok(_) => count(&child, depth - 1),
                    Err(_) => 0,
                }
            })
            .sum()
    } else {
        let mut child = game.clone();
        serial(&mut child, color, &moves, depth)
    }
}

fn serial(game: &mut Game, color: Color, moves: &[Move], depth: u32) -> u64 {
    let mut total = 0;
    let mut replies = Vec::new();
    for &mv in moves {
        if game.play(color, mv).is_err() {
            continue;
        }
        if depth == 2 {
            let next = color.opponent();
            game.legal_moves(next, &mut replies);
            total += replies.len() as u64;
        } else {
            total += count(game, depth - 1);
        }
        game.undo();
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_counts_on_four_by_four() {
        let game = Game::new(4).expect("size");
        assert_eq!(perft_with_swap(&game, 1, false), 16);
        assert_eq!(perft_with_swap(&game, 2, false), 240);
        assert_eq!(perft_with_swap(&game, 2, true), 256);
    }
}
