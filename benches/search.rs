//! Search speed benchmark (harness = false): prints playouts per second for light and heavy
//! playouts on 9x9 and 19x19 with one and all threads, and the deterministic signature.
//! `ISHI_BENCH_SCALE` scales the playout counts (default 1.0).

fn main() {
    let threads = std::thread::available_parallelism()
        .map(|count| count.get())
        .unwrap_or(1);
    let scale = std::env::var("ISHI_BENCH_SCALE")
        .ok()
        .and_then(|text| text.parse::<f64>().ok())
        .unwrap_or(1.0);
    print!("{}", ishi::bench::bench_report(threads, scale));
}
