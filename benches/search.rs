//! Search speed benchmark (harness = false): prints playouts per second for light and heavy
//! playouts on 9x9 and 19x19 with one and all threads, and the deterministic signature.
//! `ISHI_BENCH_SCALE` scales the playout counts (default 1.0); `ISHI_BENCH_ROUNDS` sets the
//! rounds whose medians the Go lines print (default 3).

fn main() {
    let threads = std::thread::available_parallelism()
        .map(|count| count.get())
        .unwrap_or(1);
    let scale = std::env::var("ISHI_BENCH_SCALE")
        .ok()
        .and_then(|text| text.parse::<f64>().ok())
        .unwrap_or(1.0);
    let rounds = std::env::var("ISHI_BENCH_ROUNDS")
        .ok()
        .and_then(|text| text.parse::<usize>().ok())
        .unwrap_or(3);
    print!("{}", ishi::bench::bench_report(threads, scale, rounds));
}
