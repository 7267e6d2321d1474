//! The `ishi-web` binary: serves the web board (`ishi-web`, then open the printed address)
//! or, as `ishi-web engine`, runs one engine's GTP loop on stdin/stdout, which is what the
//! server starts for each browser session.

use clap::{Parser, Subcommand};
use ishi::engine::{Engine, Settings};
use ishi_web::server::{router, Config};
use std::io::{BufReader, Write};
use std::time::Duration;

/// Play ishi in a browser: Go, Margo and Abalone against the engine.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Arguments {
    /// Address to listen on; the default takes no connection from other machines.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// Port to listen on (0: any free port; the address is printed).
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// Games (engine processes) at once; a browser beyond them is told the server is busy.
    #[arg(long, default_value_t = 8)]
    max_games: usize,
    /// Seconds without a message after which a session and its engine end.
    #[arg(long, default_value_t = 1800)]
    idle_timeout: u64,
    /// Search threads of each engine.
    #[arg(long, default_value_t = 1)]
    engine_threads: usize,
    /// Seconds a move at the hard level (default: the engine's, 2).
    #[arg(long)]
    move_time: Option<f64>,
    /// Seed of the engines: session n gets S + n, so a run of the same clicks replays the
    /// same games (default: from the clock, so every game differs).
    #[arg(long)]
    seed: Option<u64>,
    /// Log sessions to stderr (-v info, -vv debug).
    #[arg(short, long, action = clap::ArgAction::Count)]
    verbose: u8,
    #[command(subcommand)]
    command: Option<Action>,
}

#[derive(Subcommand, Debug)]
enum Action {
    /// Runs one engine on stdin/stdout (what the server starts for each session).
    #[command(hide = true)]
    Engine {
        #[arg(long, default_value_t = 1)]
        threads: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        move_time: Option<f64>,
    },
}

fn main() {
    let arguments = Arguments::parse();
    if let Some(Action::Engine {
        threads,
        seed,
        move_time,
    }) = arguments.command
    {
        run_engine(threads, seed, move_time);
        return;
    }
    let filter = match arguments.verbose {
        0 => "warn",
        1 => "info",
        _ => "debug",
    };
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or(filter))
        .target(env_logger::Target::Stderr)
        .init();
    let program = match std::env::current_exe() {
        Ok(program) => program,
        Err(error) => fail(&format!("cannot find this program's path: {error}")),
    };
    let mut engine_arguments = vec![
        "engine".to_string(),
        "--threads".to_string(),
        arguments.engine_threads.max(1).to_string(),
    ];
    if let Some(seconds) = arguments.move_time {
        engine_arguments.push("--move-time".to_string());
        engine_arguments.push(seconds.to_string());
    }
    let config = Config {
        engine_program: program,
        engine_arguments,
        maximum_games: arguments.max_games.max(1),
        idle_timeout: Duration::from_secs(arguments.idle_timeout.max(1)),
        seed: arguments.seed.unwrap_or_else(clock_seed),
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => fail(&format!("cannot start the runtime: {error}")),
    };
    runtime.block_on(async move {
        let address = format!("{}:{}", arguments.host, arguments.port);
        let listener = match tokio::net::TcpListener::bind(&address).await {
            Ok(listener) => listener,
            Err(error) => fail(&format!(
                "cannot listen on {address}: {error} (another port: --port N, or --port 0 for any)"
            )),
        };
        let bound = listener
            .local_addr()
            .map(|local| local.to_string())
            .unwrap_or(address);
        println!("ishi-web: open http://{bound}/ in a browser (Ctrl-C stops)");
        let _ = std::io::stdout().flush();
        let served = axum::serve(listener, router(config))
            .with_graceful_shutdown(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await;
        if let Err(error) = served {
            fail(&format!("server error: {error}"));
        }
    });
}

/// The engine of one session: quiet, GTP on stdin/stdout, the level's playouts (hard: the
/// move time).
fn run_engine(threads: usize, seed: u64, move_time: Option<f64>) {
    let settings = Settings {
        threads: threads.max(1),
        seed,
        move_time,
        ..Settings::default()
    };
    let engine = match Engine::new(settings) {
        Ok(engine) => engine,
        Err(message) => fail(&message),
    };
    let input = BufReader::new(std::io::stdin());
    // The output ends when the server closes the pipe; nothing is left to do then.
    let _ = ishi::gtp::run(engine, input, Box::new(std::io::stdout()));
}

/// A seed from the clock.
fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs().wrapping_mul(1_000_003))
        .unwrap_or(0)
}

fn fail(message: &str) -> ! {
    eprintln!("ishi-web: {message}");
    std::process::exit(2);
}
