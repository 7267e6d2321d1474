//! The `ishi` binary: reads the command line into engine settings, sets up logging on stderr
//! (quiet by default), and runs the GTP loop on stdin/stdout. `ishi bench` prints speed
//! figures instead, `ishi perft` move-sequence counts.

use clap::{Parser, Subcommand};
use ishi::engine::{Engine, GameKind, Level, Settings, LONGEST_SECONDS};
use ishi::go::rules::rules::Rules;
use std::io::{BufReader, Write};

/// ishi: a Monte-Carlo tree search engine for Go, Margo and Abalone speaking GTP on
/// stdin/stdout.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Arguments {
    /// The game: go, margo or abalone; GTP `ishi-game` changes it.
    #[arg(long, default_value = "go", global = true)]
    game: String,
    /// Board size at start-up (Go 2 to 25, default 9; Margo 4 to 9, default 6; Abalone 9).
    #[arg(long, global = true)]
    size: Option<usize>,
    /// Abalone's start position: standard, belgian or german.
    #[arg(long, default_value = "belgian", global = true)]
    start: String,
    /// Abalone's ply cap (then the side that ejected more wins; equal is a draw).
    #[arg(long, default_value_t = 400)]
    max_plies: usize,
    /// Rules: chinese, japanese, korean, tromp-taylor, aga, new-zealand, capture:N.
    #[arg(long, default_value = "chinese")]
    rules: String,
    /// Komi at start-up (default: the ruleset's); GTP `komi` changes it.
    #[arg(long)]
    komi: Option<f64>,
    /// Search threads (default: the number of cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Seed of the random choices; with --threads 1 and --playouts the moves are reproducible.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Playouts per move (overrides the level; time settings still cap it).
    #[arg(long)]
    playouts: Option<u64>,
    /// Seconds per move when the controller sends no time settings.
    #[arg(long)]
    move_time: Option<f64>,
    /// Seconds for each player's whole game when the controller sends no time settings
    /// (sudden death, spread over the moves by the time manager; full again at every new
    /// game).
    #[arg(long)]
    game_time: Option<f64>,
    /// Resign when the win rate falls below this (0 never resigns).
    #[arg(long, default_value_t = 0.1)]
    resign: f64,
    /// Strength: easy (300 playouts), medium (5,000), hard (all the clock allows).
    #[arg(long, default_value = "hard")]
    level: String,
    /// Think during the opponent's turn.
    #[arg(long)]
    ponder: bool,
    /// Network lag allowance in milliseconds, kept in reserve on every move.
    #[arg(long, default_value_t = 200)]
    lag_ms: u64,
    /// Memory cap of the search tree in MiB.
    #[arg(long, default_value_t = 2048)]
    max_tree_mb: usize,
    /// Search parameter as name=value (repeatable); see README.
    #[arg(long = "param", value_name = "NAME=VALUE")]
    parameters: Vec<String>,
    /// Go value network file to use in place of the shipped ones on every board size
    /// (`ishi-train --value-network` writes one; the search mixes it in with `--param
    /// value_weight=N`).
    #[arg(long, value_name = "FILE")]
    value_network: Option<std::path::PathBuf>,
    /// Go value network file for the boards of 16x16 and more only, in place of the shipped
    /// large-board network (and of --value-network's there).
    #[arg(long, value_name = "FILE")]
    value_network_large: Option<std::path::PathBuf>,
    /// Answer GTP `version` with this text (e.g. 0.17 for Lizzie's Leela Zero check).
    #[arg(long)]
    report_version: Option<String>,
    /// Log more to stderr (-v info, -vv debug); RUST_LOG also works.
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
    #[command(subcommand)]
    command: Option<Action>,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// Prints playouts per second (medians of --rounds rounds, each Go case also as a ratio to
    /// a bare playout loop and its thread scaling) and a deterministic search signature.
    Bench {
        /// Rounds of the Go cases; each line prints the medians over them.
        #[arg(long, default_value_t = 3)]
        rounds: usize,
    },
    /// Prints the number of legal move sequences of each length from 1 to --depth from the
    /// start position of --game (Margo and Abalone).
    Perft {
        /// The longest sequences counted.
        #[arg(long)]
        depth: usize,
    },
}

/// Tells glibc's malloc to serve every block of 128 KiB or more (the search tree's chunks)
/// from a mapping of its own, given back to the system when freed. Its default raises that
/// threshold to the largest block freed so far, after which the chunks that tree reuse frees
/// stay in the heap of whichever thread allocated them: through a 19x19 game with pondering
/// and `--max-tree-mb 16` that held the peak at 46-48 MiB instead of 35.
fn map_large_blocks_apart() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only sets a malloc parameter; it runs first thing in main, before any
    // other thread exists.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

fn main() {
    map_large_blocks_apart();
    let arguments = Arguments::parse();
    let default_filter = match arguments.verbose {
        0 => "error",
        1 => "info",
        _ => "debug",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(default_filter))
        .target(env_logger::Target::Stderr)
        // Lizzie merges stderr into stdout and gtp2ogs reads it for chat: every line starts
        // with `ishi: ` and carries none of their markers.
        .format(|buffer, record| {
            let message = format!("{} {}: {}", record.level(), record.target(), record.args());
            writeln!(buffer, "{}", ishi::gtp::analyze::stderr_safe(&message))
        })
        .init();
    let settings = match settings_from(&arguments) {
        Ok(settings) => settings,
        Err(message) => {
            eprintln!("ishi: {message}");
            std::process::exit(2);
        }
    };
    // The large boards' file first: --value-network leaves a network chosen there in place.
    if let Some(path) = &arguments.value_network_large {
        if let Err(message) = ishi::go::search::value::use_large_file(path) {
            eprintln!("ishi: --value-network-large {}: {message}", path.display());
            std::process::exit(2);
        }
    }
    if let Some(path) = &arguments.value_network {
        if let Err(message) = ishi::go::search::value::use_file(path) {
            eprintln!("ishi: --value-network {}: {message}", path.display());
            std::process::exit(2);
        }
    }
    match arguments.command {
        Some(Action::Bench { rounds }) => {
            // The report goes to stdout: `ishi bench` is not a GTP session.
            print!(
                "{}",
                ishi::bench::bench_report(settings.threads, 1.0, rounds)
            );
            return;
        }
        Some(Action::Perft { depth }) => {
            match ishi::engine::new_board_game(settings.game, &settings) {
                Ok(Some(engine)) => {
                    for ply in 1..=depth {
                        println!("{ply} {}", engine.perft(ply));
                    }
                }
                Ok(None) => {
                    eprintln!("ishi: perft is for margo and abalone (--game)");
                    std::process::exit(2);
                }
                Err(message) => {
                    eprintln!("ishi: {message}");
                    std::process::exit(2);
                }
            }
            return;
        }
        None => {}
    }
    let engine = match Engine::new(settings) {
        Ok(engine) => engine,
        Err(message) => {
            eprintln!("ishi: {message}");
            std::process::exit(2);
        }
    };
    let input = BufReader::new(std::io::stdin());
    let output = Box::new(std::io::stdout());
    if let Err(error) = ishi::gtp::run(engine, input, output) {
        log::error!("output closed: {error}");
    }
}

fn settings_from(arguments: &Arguments) -> Result<Settings, String> {
    let rules: Rules = arguments
        .rules
        .parse()
        .map_err(|error| format!("{error}"))?;
    let game = GameKind::parse(&arguments.game)
        .ok_or_else(|| format!("unknown game {} (go, margo, abalone)", arguments.game))?;
    if let Some(size) = arguments.size {
        if game == GameKind::Go && !ishi::go::rules::game::Game::size_is_valid(size) {
            return Err(format!("board size {size} is not in 2..25"));
        }
    }
    for (flag, seconds) in [
        ("--move-time", arguments.move_time),
        ("--game-time", arguments.game_time),
    ] {
        if let Some(seconds) = seconds {
            if !(seconds > 0.0 && seconds <= LONGEST_SECONDS) {
                return Err(format!(
                    "{flag}: expected seconds above 0, at most {LONGEST_SECONDS} (a year)"
                ));
            }
        }
    }
    let level = Level::parse(&arguments.level)
        .ok_or_else(|| format!("unknown level {} (easy, medium, hard)", arguments.level))?;
    let mut parameters = Vec::new();
    for pair in &arguments.parameters {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("--param {pair}: expected name=value"))?;
        parameters.push((name.trim().to_string(), value.trim().to_string()));
    }
    let threads = arguments.threads.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|count| count.get())
            .unwrap_or(1)
    });
    Ok(Settings {
        game,
        size: arguments.size,
        start: arguments.start.to_ascii_lowercase(),
        max_plies: arguments.max_plies,
        rules,
        komi: arguments.komi,
        threads: threads.max(1),
        seed: arguments.seed,
        playouts: arguments.playouts,
        move_time: arguments.move_time,
        game_time: arguments.game_time,
        resign_threshold: arguments.resign,
        level,
        ponder: arguments.ponder,
        lag_milliseconds: arguments.lag_ms,
        max_tree_megabytes: arguments.max_tree_mb,
        parameters,
        version_override: arguments.report_version.clone(),
    })
}
