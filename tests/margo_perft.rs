//! Margo perft from the empty board against the rule sheet (`margo-abalone.md` §4.2): swap
//! excluded for the sheet's figures, and the swap-included counts derived from them.

use std::time::Instant;

use ishi::margo::{perft_with_swap, Game};

fn counts(size: usize, depth: u32, swap: bool) -> u64 {
    let game = Game::new(size).expect("supported size");
    let start = Instant::now();
    let nodes = perft_with_swap(&game, depth, swap);
    eprintln!(
        "perft {size}x{size} depth {depth} swap {swap}: {nodes} in {:.2?}",
        start.elapsed()
    );
    nodes
}

#[test]
fn spargo_four_by_four_without_swap() {
    assert_eq!(counts(4, 1, false), 16);
    assert_eq!(counts(4, 2, false), 240);
    assert_eq!(counts(4, 3, false), 3_360);
    assert_eq!(counts(4, 4, false), 43_576);
}

#[test]
fn spargo_four_by_four_depth_five_where_stacking_starts() {
    assert_eq!(counts(4, 5, false), SPARGO_DEPTH_FIVE);
}

/// Computed by this generator; the sheet says its own generator and DK's agree at this depth
/// without printing the figure.
const SPARGO_DEPTH_FIVE: u64 = 521_984;

#[test]
fn margo_six_by_six_without_swap() {
    assert_eq!(counts(6, 1, false), 36);
    assert_eq!(counts(6, 2, false), 1_260);
    assert_eq!(counts(6, 3, false), 42_840);
}

#[test]
fn margo_six_by_six_depth_four() {
    assert_eq!(counts(6, 4, false), 1_413_456);
}

#[test]
fn swap_adds_one_move_per_first_move() {
    for size in [4, 6] {
        let first = counts(size, 1, false);
        assert_eq!(counts(size, 1, true), first);
        assert_eq!(counts(size, 2, true), counts(size, 2, false) + first);
        // After a swap the one ball has changed colour and the first player moves again.
        let cells = (size * size) as u64;
        assert_eq!(
            counts(size, 3, true),
            counts(size, 3, false) + first * (cells - 1)
        );
    }
}
