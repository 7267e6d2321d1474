//! One benchmark case, for instruction counting (`perf stat -e instructions`): runs the
//! search of `ishi bench` for one board size, policy, thread count and playout count and
//! prints its line. Usage: `bench_case SIZE light|heavy THREADS PLAYOUTS`, or
//! `bench_case SIZE bare PLAYOUTS [THREADS]` for the bare light playout loop (THREADS loops
//! at once, sharing nothing, with the rate of all together).

use ishi::bench::{bare_loops, bench_case};
use ishi::search::PlayoutPolicy;

fn main() {
    let arguments: Vec<String> = std::env::args().collect();
    let usage =
        "usage: bench_case SIZE light|heavy THREADS PLAYOUTS | bench_case SIZE bare PLAYOUTS [THREADS]";
    let number = |index: usize| -> u64 {
        arguments
            .get(index)
            .and_then(|text| text.parse().ok())
            .unwrap_or_else(|| panic!("{usage}"))
    };
    let size = number(1) as usize;
    let policy = match arguments.get(2).map(String::as_str) {
        Some("light") => PlayoutPolicy::Light,
        Some("heavy") => PlayoutPolicy::Heavy,
        Some("bare") => {
            let playouts = number(3);
            let threads = if arguments.len() > 4 { number(4) } else { 1 };
            println!(
                "{size}x{size} bare threads {threads}: {:.0} playouts/s",
                bare_loops(size, playouts, threads as usize)
            );
            return;
        }
        _ => panic!("{usage}"),
    };
    let case = bench_case(size, policy, number(3) as usize, number(4));
    println!(
        "{size}x{size} {policy:?} threads {}: {:.0} playouts/s ({} playouts, {} nodes)",
        case.threads, case.rate, case.playouts, case.nodes
    );
}
