//! The speed benchmark: playouts per second of whole Go searches (tree, priors and playouts)
//! from the empty board, light and heavy, 9x9 and 19x19, on one and N threads, each also as
//! a ratio to a bare light playout loop on the same board code measured in the same run (so
//! figures compare across machines), plus a
//! deterministic signature (best move and node count of a fixed single-threaded search)
//! that must not change unless the search's behaviour does; then Margo's and Abalone's own
//! lines (empty 6x6; the Belgian start, MCTS and alpha-beta). Knows only the games' public
//! search APIs.

use crate::color::Color;
use crate::go::rules::game::Game;
use crate::go::rules::point::move_text;
use crate::go::rules::rules::Rules;
use crate::go::search::board::PlayoutBoard;
use crate::go::search::playout::{play_out, PlayoutSettings};
use crate::go::search::{Limits, Search};
use crate::search::random::Random;
use crate::search::{PlayoutPolicy, SearchParams};
use std::fmt::Write;
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// One measured search.
#[derive(Clone, Debug)]
pub struct BenchCase {
    /// Board size.
    pub size: usize,
    /// Playout policy (light also switches priors off).
    pub policy: PlayoutPolicy,
    /// Worker threads.
    pub threads: usize,
    /// Playouts run.
    pub playouts: u64,
    /// Playouts per second.
    pub rate: f64,
    /// Tree nodes at the end.
    pub nodes: usize,
}

/// The parameters of a benchmark case: light means the bare baseline (light playouts, even
/// prior only); heavy is the default configuration.
pub fn bench_params(policy: PlayoutPolicy) -> SearchParams {
    let mut params = SearchParams {
        playout: policy,
        ..SearchParams::default()
    };
    if policy == PlayoutPolicy::Light {
        params.priors = false;
    }
    params
}

/// Runs one search of `playouts` from the empty board and measures it.
pub fn bench_case(size: usize, policy: PlayoutPolicy, threads: usize, playouts: u64) -> BenchCase {
    let game = Game::new(size, Rules::chinese(), 7.5);
    let mut search = Search::new(bench_params(policy), threads, 1, 1 << 30);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        playouts: Some(playouts),
        ..Limits::default()
    };
    let summary = search.run(&game, &limits, &stop, None);
    BenchCase {
        size,
        policy,
        threads,
        playouts: summary.playouts,
        rate: summary.playouts as f64 / summary.elapsed.as_secs_f64().max(1e-9),
        nodes: search.node_count(),
    }
}

/// The bare light playout loop, as the reference for every Go figure: the search's own light
/// playout function from the empty board (uniformly random legal moves that do not fill an
/// own eye, simple ko, until two passes, then the area count) with no tree and no priors.
/// Returns playouts per second of one thread.
pub fn bare_loop(size: usize, playouts: u64) -> f64 {
    let empty = PlayoutBoard::new(size);
    let mut board = PlayoutBoard::new(size);
    let settings = PlayoutSettings::new(&bench_params(PlayoutPolicy::Light), size, 7.5, None);
    let mut random = Random::new(1);
    let mut sequence = Vec::with_capacity(size * size * 4);
    let mut checksum = 0.0;
    let started = Instant::now();
    for _ in 0..playouts {
        board.copy_from(&empty);
        sequence.clear();
        checksum += play_out(
            &mut board,
            Color::Black,
            &settings,
            &mut random,
            &mut sequence,
        )
        .black_margin;
    }
    black_box(checksum);
    playouts as f64 / started.elapsed().as_secs_f64().max(1e-9)
}

/// The deterministic signature: `(best move, node count)` of a heavy 9x9 search of
/// `playouts` playouts, one thread, seed 1.
pub fn signature(playouts: u64) -> (String, usize) {
    let game = Game::new(9, Rules::chinese(), 7.5);
    let mut search = Search::new(SearchParams::default(), 1, 1, 1 << 30);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        playouts: Some(playouts),
        ..Limits::default()
    };
    let summary = search.run(&game, &limits, &stop, None);
    (move_text(summary.best, 9), search.node_count())
}

/// The benchmark report: one line per case (light and heavy, 9x9 and 19x19, one thread and
/// `threads` threads when more than one), then the signature line. `scale` multiplies the
/// playout counts (1.0: 9x9 light 200k, heavy 40k; 19x19 light 40k, heavy 10k).
pub fn bench_report(threads: usize, scale: f64) -> String {
    let mut report = String::new();
    let mut thread_counts = vec![1];
    if threads > 1 {
        thread_counts.push(threads);
    }
    let cases = [
        (9, PlayoutPolicy::Light, 200_000.0),
        (9, PlayoutPolicy::Heavy, 40_000.0),
        (19, PlayoutPolicy::Light, 40_000.0),
        (19, PlayoutPolicy::Heavy, 10_000.0),
    ];
    let mut bare = [0.0f64; 2];
    for (slot, size) in [9usize, 19].into_iter().enumerate() {
        let count = ((if size == 9 { 200_000.0 } else { 40_000.0 } * scale) as u64).max(100);
        bare[slot] = bare_loop(size, count);
        let _ = writeln!(
            report,
            "{size}x{size} bare loop threads 1: {:>9.0} playouts/s ({count} playouts, no tree)",
            bare[slot]
        );
    }
    for (size, policy, playouts) in cases {
        for &thread_count in &thread_counts {
            let count = ((playouts * scale) as u64).max(100);
            let case = bench_case(size, policy, thread_count, count);
            let reference = bare[(size == 19) as usize];
            let _ = writeln!(
                report,
                "{size}x{size} {policy:<5} threads {thread_count}: {:>9.0} playouts/s ({:.2} of the bare loop; {} playouts, {} nodes)",
                case.rate,
                case.rate / reference,
                case.playouts,
                case.nodes
            );
        }
    }
    let (best, nodes) = signature(10_000);
    let _ = writeln!(
        report,
        "signature: 9x9 heavy, 10000 playouts, seed 1, 1 thread: best {best}, nodes {nodes}"
    );
    for line in crate::margo::search::bench_lines(threads, scale) {
        let _ = writeln!(report, "{line}");
    }
    for line in crate::abalone::search::bench_lines(threads, scale) {
        let _ = writeln!(report, "{line}");
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The deterministic signature with the shipped move model and policy network in the
    /// priors: pinned, so a change of either file, the features or the search shows here
    /// (update it with the figure `ishi bench` prints when such a change is meant).
    #[test]
    fn the_signature_with_the_move_model_and_the_network_repeats() {
        assert!(crate::go::search::move_model::shipped().is_some());
        assert!(crate::go::search::network::shipped().is_some());
        let first = signature(1_000);
        assert_eq!(first, signature(1_000));
        assert_eq!(first, ("E5".to_string(), 10_297));
    }
}
