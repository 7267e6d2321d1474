//! Perft figures of `shared/margo-abalone.md` §4.1 from the three starts: depths 1-3, the
//! depth-1 breakdown by kind, and the pushes and ejections among the last moves.

use ishi::abalone::{perft, perft_kinds, perft_pushes, Board, PushCounts, Start};

#[test]
fn perft_from_every_start() {
    let expected = [
        (Start::Standard, [44, 1_936, 98_912]),
        (Start::Belgian, [52, 2_692, 149_322]),
        (Start::German, [80, 6_244, 493_480]),
    ];
    for (start, counts) in expected {
        let board = Board::new(start);
        for (depth, &count) in counts.iter().enumerate() {
            assert_eq!(
                perft(&board, depth as u32 + 1),
                count,
                "{} depth {}",
                start.name(),
                depth + 1
            );
        }
    }
}

#[test]
fn depth_one_breakdown_by_kind() {
    let expected = [
        (Start::Standard, [14, 12, 8, 8, 2]),
        (Start::Belgian, [20, 20, 8, 4, 0]),
        (Start::German, [28, 28, 16, 8, 0]),
    ];
    for (start, counts) in expected {
        assert_eq!(perft_kinds(&Board::new(start)), counts, "{}", start.name());
    }
}

#[test]
fn pushes_and_ejections_at_plies_two_and_three() {
    let expected = [
        (Start::Standard, 2, 0, 0),
        (Start::Standard, 3, 0, 0),
        (Start::Belgian, 2, 28, 8),
        (Start::Belgian, 3, 1_510, 518),
        (Start::German, 2, 60, 2),
        (Start::German, 3, 4_312, 408),
    ];
    for (start, depth, pushes, ejections) in expected {
        let counts = perft_pushes(&Board::new(start), depth);
        let PushCounts {
            pushes: got_pushes,
            ejections: got_ejections,
            leaves,
        } = counts;
        assert_eq!(leaves, perft(&Board::new(start), depth));
        assert_eq!(
            (got_pushes, got_ejections),
            (pushes, ejections),
            "{} depth {depth}",
            start.name()
        );
    }
}
