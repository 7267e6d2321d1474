//! The speed benchmark: playouts per second of whole Go searches (tree, priors and playouts)
//! from the empty board, light and heavy, 9x9 and 19x19, on one and N threads, each also as
//! a ratio to a bare light playout loop on the same board code measured in the same run (so
//! figures compare across machines) and the N-thread runs as a multiple of the one-thread
//! run and as a share of what N bare loops at once (sharing nothing) give on this machine,
//! as medians over rounds; plus a deterministic signature (best move and node count of
//! a fixed single-threaded search) that must not change unless the search's behaviour does;
//! then the value network's evaluations per second per board size with its convolutions'
//! arithmetic rate as a share of the processor's peak (measured the same run: the clock by a
//! chain of dependent additions, the peak by a kernel of independent multiply-adds), and
//! Margo's and Abalone's own lines (empty 6x6; the Belgian start, MCTS and alpha-beta).
//! Knows only the games' public search APIs.

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
    bare_loop_seeded(size, playouts, 1)
}

/// `threads` bare loops at once, one per thread, each of `playouts` and with a seed of its
/// own, sharing nothing: what the machine itself gives to more threads (its cores, their
/// shared caches and clocks), the reference for the search's thread scaling. Returns the
/// playouts per second of all of them together.
pub fn bare_loops(size: usize, playouts: u64, threads: usize) -> f64 {
    let threads = threads.max(1);
    let started = Instant::now();
    std::thread::scope(|scope| {
        for seed in 1..=threads as u64 {
            scope.spawn(move || bare_loop_seeded(size, playouts, seed));
        }
    });
    (playouts * threads as u64) as f64 / started.elapsed().as_secs_f64().max(1e-9)
}

fn bare_loop_seeded(size: usize, playouts: u64, seed: u64) -> f64 {
    let empty = PlayoutBoard::new(size);
    let mut board = PlayoutBoard::new(size);
    let settings = PlayoutSettings::new(&bench_params(PlayoutPolicy::Light), size, 7.5, None);
    let mut random = Random::new(seed);
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

/// The median of `values` (the mean of the middle two for an even count; 0 for none).
pub fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        count if count % 2 == 1 => sorted[count / 2],
        count => (sorted[count / 2 - 1] + sorted[count / 2]) / 2.0,
    }
}

/// The Go figures of one configuration over the rounds of a benchmark.
#[derive(Clone, Debug, Default)]
struct CaseFigures {
    rates: Vec<f64>,
    ratios: Vec<f64>,
    scalings: Vec<f64>,
    playouts: u64,
    nodes: usize,
}

/// The benchmark report: one line per case (light and heavy, 9x9 and 19x19, one thread and
/// `threads` threads when more than one), then the signature line and the Margo and Abalone
/// lines. `scale` multiplies the playout counts (1.0: 9x9 light 200k, heavy 40k; 19x19 light
/// 40k, heavy 10k).
///
/// The Go cases run in `rounds` rounds (at least one). In each round every board size runs
/// its bare loop, then (with more than one thread) N bare loops at once, then its cases,
/// then its bare loop again, and each case's ratio is to the mean of the two one-thread
/// bare figures, so a machine whose speed drifts (a shared host, turbo) moves both sides of
/// the ratio alike; the thread scaling pairs the N-thread run with the one-thread run of
/// the same round, and is also given as a share of the N bare loops' own scaling (what the
/// machine gives to N threads that share nothing). Each line prints the medians over the
/// rounds.
pub fn bench_report(threads: usize, scale: f64, rounds: usize) -> String {
    let mut report = String::new();
    let rounds = rounds.max(1);
    let mut thread_counts = vec![1];
    if threads > 1 {
        thread_counts.push(threads);
    }
    let count_of = |playouts: f64| ((playouts * scale) as u64).max(100);
    let sizes = [
        (
            9usize,
            200_000.0,
            [
                (PlayoutPolicy::Light, 200_000.0),
                (PlayoutPolicy::Heavy, 40_000.0),
            ],
        ),
        (
            19,
            40_000.0,
            [
                (PlayoutPolicy::Light, 40_000.0),
                (PlayoutPolicy::Heavy, 10_000.0),
            ],
        ),
    ];
    let mut bare: Vec<Vec<f64>> = vec![Vec::new(); sizes.len()];
    // Per size and round: the N bare loops' rate over the one-thread bare reference.
    let mut bare_scalings: Vec<Vec<f64>> = vec![Vec::new(); sizes.len()];
    let mut figures: Vec<Vec<CaseFigures>> =
        vec![vec![CaseFigures::default(); 2 * thread_counts.len()]; sizes.len()];
    for _ in 0..rounds {
        for (slot, &(size, bare_playouts, cases)) in sizes.iter().enumerate() {
            let before = bare_loop(size, count_of(bare_playouts));
            let together =
                (threads > 1).then(|| bare_loops(size, count_of(bare_playouts), threads));
            let mut measured = Vec::with_capacity(figures[slot].len());
            for (policy, playouts) in cases {
                for &thread_count in &thread_counts {
                    measured.push(bench_case(size, policy, thread_count, count_of(playouts)));
                }
            }
            let after = bare_loop(size, count_of(bare_playouts));
            let reference = (before + after) / 2.0;
            bare[slot].push(reference);
            if let Some(together) = together {
                bare_scalings[slot].push(together / reference);
            }
            for (index, case) in measured.iter().enumerate() {
                let first_of_policy = index - index % thread_counts.len();
                let entry = &mut figures[slot][index];
                entry.rates.push(case.rate);
                entry.ratios.push(case.rate / reference);
                entry
                    .scalings
                    .push(case.rate / measured[first_of_policy].rate);
                entry.playouts = case.playouts;
                entry.nodes = case.nodes;
            }
        }
    }
    let rounds_text = if rounds == 1 {
        "1 round".to_string()
    } else {
        format!("medians of {rounds} rounds")
    };
    for (slot, &(size, bare_playouts, _)) in sizes.iter().enumerate() {
        let _ = writeln!(
            report,
            "{size}x{size} bare loop threads 1: {:>9.0} playouts/s ({} playouts, no tree; {rounds_text})",
            median(&bare[slot]),
            count_of(bare_playouts)
        );
        if threads > 1 {
            let _ = writeln!(
                report,
                "{size}x{size} bare loops x{threads} at once: {:.2}x one loop ({} playouts each, nothing shared; {rounds_text})",
                median(&bare_scalings[slot]),
                count_of(bare_playouts)
            );
        }
    }
    for (slot, &(size, _, cases)) in sizes.iter().enumerate() {
        let mut index = 0;
        for (policy, _) in cases {
            for &thread_count in &thread_counts {
                let entry = &figures[slot][index];
                index += 1;
                let scaling = if thread_count > 1 {
                    // The share pairs the two scalings of the same round.
                    let shares: Vec<f64> = entry
                        .scalings
                        .iter()
                        .zip(&bare_scalings[slot])
                        .map(|(scaling, machine)| scaling / machine.max(1e-9))
                        .collect();
                    format!(
                        ", {:.2}x threads 1, {:.2} of the bare loops' {:.2}x",
                        median(&entry.scalings),
                        median(&shares),
                        median(&bare_scalings[slot])
                    )
                } else {
                    String::new()
                };
                let _ = writeln!(
                    report,
                    "{size}x{size} {policy:<5} threads {thread_count}: {:>9.0} playouts/s ({:.2} of the bare loop{scaling}; {} playouts, {} nodes; {rounds_text})",
                    median(&entry.rates),
                    median(&entry.ratios),
                    entry.playouts,
                    entry.nodes
                );
            }
        }
    }
    let (best, nodes) = signature(10_000);
    let _ = writeln!(
        report,
        "signature: 9x9 heavy, 10000 playouts, seed 1, 1 thread: best {best}, nodes {nodes}"
    );
    for line in network_lines(scale) {
        let _ = writeln!(report, "{line}");
    }
    for line in crate::margo::search::bench_lines(threads, scale) {
        let _ = writeln!(report, "{line}");
    }
    for line in crate::abalone::search::bench_lines(threads, scale) {
        let _ = writeln!(report, "{line}");
    }
    report
}

/// Evaluations per second of the shipped policy and value networks on one thread, per board
/// size, on a position a seeded light playout reaches after a quarter of the board's points,
/// with the convolutions' arithmetic rate (two operations per multiply-add; with the
/// Winograd trunk, the multiply-adds of its products, 16 for each 2x2 tile).
pub fn network_lines(scale: f64) -> Vec<String> {
    let mut lines = Vec::new();
    let peak = measure_peak(scale);
    if let Some(peak) = &peak {
        let wide = peak.wide_core_rate.map_or(String::new(), |rate| {
            format!(
                "; 512-bit: {:.1} GFLOP/s a core = {:.1} a cycle, {:.1} GFLOP/s for the machine",
                rate / 1e9,
                rate / peak.clock,
                rate * peak.cores as f64 / 1e9
            )
        });
        lines.push(format!(
            "processor: {} cores at {:.2} GHz (dependent additions); 256-bit multiply-adds: {:.1} GFLOP/s a core = {:.1} \
             operations a cycle (two FMA units make 32), {:.1} GFLOP/s for the machine{wide}",
            peak.cores,
            peak.clock / 1e9,
            peak.core_rate / 1e9,
            peak.core_rate / peak.clock,
            peak.core_rate * peak.cores as f64 / 1e9
        ));
    }
    let evaluations = ((2_000.0 * scale) as usize).max(20);
    for size in [9usize, 13, 19] {
        let mut board =
            PlayoutBoard::from_board(&crate::go::rules::board::Board::new(size), Color::Black);
        let mut random = Random::new(1);
        let mut color = Color::Black;
        for _ in 0..size * size / 4 {
            let stride = board.stride();
            let empty: Vec<usize> = (stride..stride * (size + 1))
                .filter(|&point| {
                    board.cell(point) == crate::go::search::board::EMPTY
                        && board.is_legal(point, color)
                        && !board.is_eye(point, color)
                })
                .collect();
            if empty.is_empty() {
                break;
            }
            board.play(empty[random.below(empty.len())], color);
            color = color.opponent();
        }
        let points = size * size;
        if let Some(network) = crate::go::search::value::for_size(size) {
            let mut scratch = crate::go::search::value::ValueScratch::default();
            let started = std::time::Instant::now();
            let mut total = 0.0;
            for _ in 0..evaluations {
                total += network.win(&board, color, 7.5, &mut scratch);
            }
            std::hint::black_box(total);
            let seconds = started.elapsed().as_secs_f64().max(1e-9);
            // Where the time goes: the planes' encoding alone, the rest is the network.
            let mut planes = Vec::new();
            let started = std::time::Instant::now();
            for _ in 0..evaluations {
                crate::go::search::value::encode_value(&board, color, 7.5, &mut planes);
                std::hint::black_box(&planes);
            }
            let encoding = started.elapsed().as_secs_f64() / evaluations as f64;
            // Two threads at once, each with its own buffers (the search's workers).
            let threads = std::thread::available_parallelism()
                .map_or(1, usize::from)
                .min(2);
            let started = std::time::Instant::now();
            std::thread::scope(|scope| {
                for _ in 0..threads {
                    let board = board.clone();
                    scope.spawn(move || {
                        let mut scratch = crate::go::search::value::ValueScratch::default();
                        let mut total = 0.0;
                        for _ in 0..evaluations {
                            total += network.win(&board, color, 7.5, &mut scratch);
                        }
                        std::hint::black_box(total);
                    });
                }
            });
            let together =
                (threads * evaluations) as f64 / started.elapsed().as_secs_f64().max(1e-9);
            // The multiply-adds the trunk makes: the direct sum's 9 a point, or Winograd's 16
            // a tile of 2x2 points (transforms left out).
            let winograd = crate::nn::winograd::runs(&network.shape.trunk);
            let per_pair = if winograd {
                16 * size.div_ceil(2).pow(2)
            } else {
                9 * points
            };
            let operations: usize = network
                .shape
                .trunk
                .convolutions()
                .iter()
                .map(|layer| 2 * layer.inputs * layer.outputs * per_pair)
                .sum();
            let kind = if winograd {
                "the Winograd products"
            } else {
                "the convolutions"
            };
            let rate = operations as f64 * evaluations as f64 / seconds;
            let share = peak.as_ref().map_or(String::new(), |peak| {
                let wide = peak.wide_core_rate.map_or(String::new(), |wide| {
                    format!(", {:.0}% of its 512-bit peak", 100.0 * rate / wide)
                });
                format!(
                    ", {:.0}% of one core's 256-bit peak{wide}",
                    100.0 * rate / peak.core_rate
                )
            });
            let each = seconds / evaluations as f64;
            lines.push(format!(
                "{size}x{size} value network, 1 thread: {:.0} evaluations/s ({:.0} us each, {:.2} GFLOP/s in {kind}{share}); \
                 {threads} threads: {together:.0} evaluations/s; encoding the planes {:.1} us ({:.0}%), the network {:.0} us",
                evaluations as f64 / seconds,
                each * 1e6,
                rate / 1e9,
                encoding * 1e6,
                100.0 * encoding / each,
                (each - encoding).max(0.0) * 1e6,
            ));
        }
    }
    lines
}

/// The processor's arithmetic limits, measured.
#[derive(Clone, Copy, Debug)]
pub struct Peak {
    /// Cycles a second of one core under load (dependent 1-cycle additions).
    pub clock: f64,
    /// Single-precision operations a second of one core in a kernel of independent 256-bit
    /// multiply-adds (two operations each): the peak of AVX2 code such as ishi's kernels.
    pub core_rate: f64,
    /// The same with 512-bit multiply-adds where the processor has AVX-512 (the machine's
    /// own peak then).
    pub wide_core_rate: Option<f64>,
    /// Cores available to the process.
    pub cores: usize,
}

/// Measures [`Peak`] for about `scale` x 0.2 s; `None` without AVX2 and FMA (or off x86-64).
pub fn measure_peak(scale: f64) -> Option<Peak> {
    #[cfg(target_arch = "x86_64")]
    {
        if !(std::arch::is_x86_feature_detected!("avx2")
            && std::arch::is_x86_feature_detected!("fma"))
        {
            return None;
        }
        let rounds = ((2.0e6 * scale) as u64).max(10_000);
        // The clock: a chain of dependent additions, one a cycle; the best of three.
        let mut clock: f64 = 0.0;
        let mut core_rate: f64 = 0.0;
        let wide = std::arch::is_x86_feature_detected!("avx512f");
        let mut wide_core_rate: f64 = 0.0;
        for _ in 0..3 {
            let started = Instant::now();
            black_box(dependent_additions(black_box(rounds * 8)));
            let seconds = started.elapsed().as_secs_f64().max(1e-9);
            clock = clock.max((rounds * 8 * 8) as f64 / seconds);
            let started = Instant::now();
            // SAFETY: AVX2 and FMA were detected above.
            black_box(unsafe { multiply_adds(black_box(rounds)) });
            let seconds = started.elapsed().as_secs_f64().max(1e-9);
            core_rate =
                core_rate.max((rounds * MULTIPLY_ADD_CHAINS as u64 * 8 * 2 * 8) as f64 / seconds);
            if wide {
                let started = Instant::now();
                // SAFETY: AVX-512F was detected above.
                black_box(unsafe { wide_multiply_adds(black_box(rounds)) });
                let seconds = started.elapsed().as_secs_f64().max(1e-9);
                wide_core_rate = wide_core_rate
                    .max((rounds * MULTIPLY_ADD_CHAINS as u64 * 8 * 2 * 16) as f64 / seconds);
            }
        }
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Some(Peak {
            clock,
            core_rate,
            wide_core_rate: wide.then_some(wide_core_rate),
            cores,
        })
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = scale;
        None
    }
}

/// Eight dependent 1-cycle register additions per round (the loop's own counting runs
/// beside them; additions of a register, not of a constant, which newer cores fold away).
#[cfg(target_arch = "x86_64")]
fn dependent_additions(rounds: u64) -> u64 {
    let mut value: u64 = 0;
    let step: u64 = black_box(1);
    for _ in 0..rounds {
        // SAFETY: register arithmetic only.
        unsafe {
            std::arch::asm!(
                "add {v}, {s}", "add {v}, {s}", "add {v}, {s}", "add {v}, {s}",
                "add {v}, {s}", "add {v}, {s}", "add {v}, {s}", "add {v}, {s}",
                v = inout(reg) value,
                s = in(reg) step,
                options(nomem, nostack, pure),
            );
        }
    }
    value
}

/// Independent multiply-add chains: enough to cover the latency (4-5 cycles) of two units.
#[cfg(target_arch = "x86_64")]
const MULTIPLY_ADD_CHAINS: usize = 12;

/// `rounds` x 8 x [`MULTIPLY_ADD_CHAINS`] 256-bit multiply-adds.
///
/// # Safety
/// The processor must have AVX2 and FMA.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
unsafe fn multiply_adds(rounds: u64) -> f32 {
    use std::arch::x86_64::*;
    let factor = _mm256_set1_ps(0.999_999);
    let addend = _mm256_set1_ps(1e-7);
    let mut chains = [_mm256_set1_ps(1.0); MULTIPLY_ADD_CHAINS];
    for _ in 0..rounds {
        for _ in 0..8 {
            for chain in chains.iter_mut() {
                *chain = _mm256_fmadd_ps(*chain, factor, addend);
            }
        }
    }
    let mut total = _mm256_setzero_ps();
    for chain in chains {
        total = _mm256_add_ps(total, chain);
    }
    let mut lanes = [0.0f32; 8];
    _mm256_storeu_ps(lanes.as_mut_ptr(), total);
    lanes.iter().sum()
}

/// `rounds` x 8 x [`MULTIPLY_ADD_CHAINS`] 512-bit multiply-adds.
///
/// # Safety
/// The processor must have AVX-512F.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn wide_multiply_adds(rounds: u64) -> f32 {
    use std::arch::x86_64::*;
    let factor = _mm512_set1_ps(0.999_999);
    let addend = _mm512_set1_ps(1e-7);
    let mut chains = [_mm512_set1_ps(1.0); MULTIPLY_ADD_CHAINS];
    for _ in 0..rounds {
        for _ in 0..8 {
            for chain in chains.iter_mut() {
                *chain = _mm512_fmadd_ps(*chain, factor, addend);
            }
        }
    }
    let mut total = _mm512_setzero_ps();
    for chain in chains {
        total = _mm512_add_ps(total, chain);
    }
    _mm512_reduce_add_ps(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The measured peak is plausible: a clock between 0.3 and 8 GHz and between 2 and 64
    /// single-precision operations a cycle (the multiply-adds' chains were not optimised away).
    /// The clock and the rates are measured one after the other, so on a machine busy with
    /// other jobs one of them can be slowed alone (0.77 GHz against a full rate was seen with
    /// a match and the teacher on both cores): the test measures up to ten times and fails
    /// only when no measurement is plausible.
    #[test]
    fn the_peak_measures_a_plausible_clock_and_rate() {
        let plausible = |peak: &Peak| {
            let per_cycle = peak.core_rate / peak.clock;
            (0.3e9..8e9).contains(&peak.clock)
                && (2.0..64.0).contains(&per_cycle)
                && peak
                    .wide_core_rate
                    .is_none_or(|wide| (2.0..128.0).contains(&(wide / peak.clock)))
        };
        let mut seen = Vec::new();
        for _ in 0..10 {
            let Some(peak) = measure_peak(0.05) else {
                return;
            };
            if plausible(&peak) {
                return;
            }
            let per_cycle = peak.core_rate / peak.clock;
            seen.push(format!("{peak:?}: {per_cycle:.1} operations a cycle"));
        }
        panic!("no plausible measurement in ten:\n{}", seen.join("\n"));
    }

    /// The deterministic signature with the shipped move model and network in the
    /// priors: pinned, so a change of either file, the features or the search shows here
    /// (update it with the figure `ishi bench` prints when such a change is meant).
    #[test]
    fn the_signature_with_the_move_model_and_the_network_repeats() {
        assert!(crate::go::search::move_model::shipped().is_some());
        assert!(crate::go::search::value::shipped().is_some());
        let first = signature(1_000);
        assert_eq!(first, signature(1_000));
        assert_eq!(first, ("E5".to_string(), 12_056));
    }

    #[test]
    fn medians_take_the_middle() {
        assert_eq!(median(&[]), 0.0);
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
    }

    /// A tiny report names every case with its ratio, the scaling of the N-thread lines and
    /// the rounds it took the medians of.
    #[test]
    fn the_report_prints_ratios_scaling_and_rounds() {
        let report = bench_report(2, 0.0, 2);
        for case in ["9x9 light", "9x9 heavy", "19x19 light", "19x19 heavy"] {
            let one = format!("{case} threads 1:");
            let two = format!("{case} threads 2:");
            let line_one = report.lines().find(|line| line.starts_with(&one)).unwrap();
            let line_two = report.lines().find(|line| line.starts_with(&two)).unwrap();
            assert!(line_one.contains("of the bare loop;"), "{line_one}");
            assert!(line_two.contains("x threads 1, "), "{line_two}");
            assert!(line_two.contains("of the bare loops' "), "{line_two}");
            assert!(line_two.contains("medians of 2 rounds"), "{line_two}");
        }
        assert_eq!(
            report
                .lines()
                .filter(|line| line.contains("bare loop threads 1"))
                .count(),
            2
        );
        for size in ["9x9", "19x19"] {
            let line = format!("{size} bare loops x2 at once: ");
            assert!(report.contains(&line), "{report}");
        }
        assert!(report.contains("signature: 9x9 heavy"));
        for size in ["9x9", "13x13", "19x19"] {
            let line = format!("{size} value network, 1 thread: ");
            assert!(report.contains(&line), "{report}");
        }
    }
}
