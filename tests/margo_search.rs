//! The Margo search: fast checks (legal moves from random positions, determinism, an obvious
//! capture, swap only as move 2, tree reuse, the at-rest fast path) and, ignored, the
//! measuring harnesses: the speed lines, in-process self-play A/B matches and matches
//! against Jocly's AI through its GTP wrapper (`tests/jocly/jocly-margo-gtp.mjs`; run
//! `npm ci --no-audit --no-fund` in `tests/jocly` first).
//!
//! `cargo test --release --test margo_search -- --ignored --nocapture` runs the harnesses.
//! Environment variables size them:
//! - A/B: `MARGO_AB_GAMES` (default 40), `MARGO_AB_PLAYOUTS` (default 1000), `MARGO_AB_A`
//!   and `MARGO_AB_B` (`name=value,...` parameter overrides for each side), `MARGO_AB_SIZE`;
//! - Jocly: `MARGO_JOCLY_GAMES` (default 20), `MARGO_JOCLY_LEVEL` (default `confirmed`),
//!   `MARGO_JOCLY_MS` (ishi's time per move, default 900), `MARGO_JOCLY_SEED`,
//!   `MARGO_JOCLY_PARAMS` (overrides for ishi).

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use ishi::color::Color;
use ishi::margo::notation::format_move;
use ishi::margo::{bench_lines, root_legal, search_game, Game, Move, Point, Position, SWAP_INDEX};
use ishi::search::driver::{GameSearch, RunLimits};
use ishi::search::params::SearchParams;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const TREE_BYTES: usize = 64 << 20;

fn playout_limits(playouts: u64) -> RunLimits {
    RunLimits {
        playouts: Some(playouts),
        ..RunLimits::default()
    }
}

/// A game of `plies` random legal moves (swap off) on a board of `size`.
fn random_game(size: usize, plies: usize, random: &mut SmallRng) -> Game {
    let mut game = Game::new(size).expect("size");
    game.set_swap_enabled(false);
    let mut moves = Vec::new();
    for _ in 0..plies {
        let color = game.mover_or(Color::White);
        game.legal_moves(color, &mut moves);
        if moves.is_empty() {
            break;
        }
        let chosen = moves[random.gen_range(0..moves.len())];
        game.play(color, chosen).expect("listed as legal");
    }
    game
}

#[test]
fn returns_a_legal_move_from_random_positions() {
    let mut random = SmallRng::seed_from_u64(11);
    for size in 5..=7 {
        for trial in 0..3 {
            let plies = random.gen_range(0..size * size * 2);
            let game = random_game(size, plies, &mut random);
            if game.is_over() {
                continue;
            }
            let color = game.mover_or(Color::White);
            let mut search =
                GameSearch::<Position>::new(SearchParams::default(), 1, trial, TREE_BYTES);
            let choice = search_game(&mut search, &game, color, None, &playout_limits(150));
            let best = choice.best.expect("a move while the game is not over");
            let mv = Move::from_index(best).expect("a Margo move index");
            assert!(
                game.is_legal(color, mv),
                "{size}x{size} after {plies} plies: {best} is illegal"
            );
        }
    }
}

#[test]
fn one_thread_with_a_seed_and_a_playout_limit_is_deterministic() {
    let mut random = SmallRng::seed_from_u64(5);
    let game = random_game(6, 14, &mut random);
    let color = game.mover_or(Color::White);
    let run = || {
        let mut search = GameSearch::<Position>::new(SearchParams::default(), 1, 42, TREE_BYTES);
        let choice = search_game(&mut search, &game, color, None, &playout_limits(400));
        let visits: Vec<(u16, u64)> = choice
            .candidates
            .iter()
            .map(|candidate| (candidate.index, candidate.visits))
            .collect();
        (choice.best, visits, search.node_count())
    };
    assert_eq!(run(), run());
}

#[test]
fn takes_an_obviously_winning_capture() {
    // A capturing race: White's three balls on the bottom row have the single freedom
    // (row 0, column 3), Black's three above them the single freedom (row 2, column 0).
    let position =
        Position::from_diagram(5, &["..... / ..... / .WWW. / BBBW. / WWW.."]).expect("diagram");
    let game = Game::from_position(position, Some(Color::Black));
    let capture = position.geometry().point(0, 0, 3).expect("on the board");
    let mut search = GameSearch::<Position>::new(SearchParams::default(), 1, 3, TREE_BYTES);
    let choice = search_game(&mut search, &game, Color::Black, None, &playout_limits(300));
    assert_eq!(choice.best, Some(Move::Place(capture).index()));
}

#[test]
fn never_swaps_except_as_the_second_move() {
    for seed in 0..4u64 {
        let mut game = Game::new(5).expect("size");
        let mut search = GameSearch::<Position>::new(SearchParams::default(), 1, seed, TREE_BYTES);
        for ply in 0..4 {
            let color = game.mover_or(Color::White);
            let legal = root_legal(&game, color);
            assert_eq!(legal.contains(&(SWAP_INDEX as u16)), ply == 1);
            let choice = search_game(&mut search, &game, color, None, &playout_limits(120));
            let best = choice.best.expect("a move");
            if best as usize == SWAP_INDEX {
                assert_eq!(ply, 1, "swap chosen at ply {ply}");
            }
            let mv = Move::from_index(best).expect("a Margo move");
            let counts = game.position().ball_counts();
            game.play(color, mv).expect("legal");
            if mv == Move::Swap {
                let after = game.position().ball_counts();
                assert_eq!(after, [counts[1], counts[0]], "swap recolours the ball");
            }
        }
    }
    // The search's own play of the swap index recolours the single ball.
    use ishi::search::domain::SearchGame;
    let mut position = Position::new(6).expect("size");
    position.play_unchecked(Color::White, Point(8));
    SearchGame::play(&mut position, SWAP_INDEX, Color::Black);
    assert_eq!(position.get(Point(8)), Some(Color::Black));
}

#[test]
fn reuses_the_tree_across_two_plies() {
    let mut game = Game::new(6).expect("size");
    game.set_swap_enabled(false);
    let mut search = GameSearch::<Position>::new(SearchParams::default(), 1, 9, TREE_BYTES);
    let first = search_game(&mut search, &game, Color::White, None, &playout_limits(600));
    let best = &first.candidates[0];
    assert!(best.principal_variation.len() >= 2, "a reply was searched");
    let reply = best.principal_variation[1];
    for (color, index) in [(Color::White, best.index), (Color::Black, reply)] {
        let mv = Move::from_index(index).expect("a Margo move");
        game.play(color, mv).expect("legal");
    }
    let second = search_game(&mut search, &game, Color::White, None, &playout_limits(200));
    assert!(second.reused_visits > 0, "the subtree was kept");
    assert!(second.root_visits >= second.reused_visits + 200);
}

#[test]
fn the_at_rest_fast_path_plays_like_the_full_rules() {
    let mut random = SmallRng::seed_from_u64(17);
    for size in [4, 5, 6] {
        for _ in 0..6 {
            let mut position = Position::new(size).expect("size");
            let mut color = Color::White;
            let mut moves = Vec::new();
            for _ in 0..size * size * 4 {
                position.legal_placements(color, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let point = moves[random.gen_range(0..moves.len())];
                let mut slow = position;
                let expected = slow.play_unchecked(color, point);
                let captures = position.play_at_rest(color, point);
                assert_eq!(captures, expected);
                assert_eq!(position, slow);
                color = color.opponent();
            }
        }
    }
}

#[test]
fn bench_lines_name_the_thread_counts() {
    let lines = bench_lines(2, 0.0);
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with("margo 6x6 threads 1: "),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].starts_with("margo 6x6 threads 2: "),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains("(100 playouts, "), "{}", lines[1]);
}

// ------------------------------------------------------------------------------------------
// Measuring harnesses (ignored).

fn environment<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or(default)
}

/// Default parameters with `name=value,...` overrides.
fn params_from(overrides: &str) -> SearchParams {
    let mut params = SearchParams::default();
    for entry in overrides
        .split(',')
        .filter(|entry| !entry.trim().is_empty())
    {
        let (name, value) = entry.split_once('=').expect("name=value");
        params.set(name.trim(), value).expect("a known parameter");
    }
    params
}

/// The 95% Wilson interval of `successes` in `trials`.
fn wilson(successes: f64, trials: f64) -> (f64, f64) {
    if trials == 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96;
    let p = successes / trials;
    let denominator = 1.0 + z * z / trials;
    let centre = (p + z * z / (2.0 * trials)) / denominator;
    let half = z * (p * (1.0 - p) / trials + z * z / (4.0 * trials * trials)).sqrt() / denominator;
    (centre - half, centre + half)
}

/// A W/D/L line with the score (draws half) and its Wilson interval.
fn tally(label: &str, wins: u32, draws: u32, losses: u32) -> String {
    let games = (wins + draws + losses) as f64;
    let score = wins as f64 + draws as f64 / 2.0;
    let (low, high) = wilson(score, games);
    format!(
        "{label}: {} games, W/D/L {wins}/{draws}/{losses}, score {:.1}% (95% Wilson {:.1}%..{:.1}%)",
        games,
        100.0 * score / games.max(1.0),
        100.0 * low,
        100.0 * high
    )
}

#[test]
#[ignore]
fn speed_lines() {
    for line in bench_lines(2, environment("MARGO_BENCH_SCALE", 0.25)) {
        println!("{line}");
    }
}

/// Self-play A/B: side A (`MARGO_AB_A`) against side B (`MARGO_AB_B`), colours and first
/// mover alternating, a fixed playout count per move, no swap.
#[test]
#[ignore]
fn self_play_a_b() {
    let games: u32 = environment("MARGO_AB_GAMES", 40);
    let playouts: u64 = environment("MARGO_AB_PLAYOUTS", 1000);
    let size: usize = environment("MARGO_AB_SIZE", 6);
    let a_text: String = environment("MARGO_AB_A", String::new());
    let b_text: String = environment("MARGO_AB_B", String::new());
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for number in 0..games {
        let first = if number % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let a_color = if (number / 2) % 2 == 0 {
            first
        } else {
            first.opponent()
        };
        let mut a =
            GameSearch::<Position>::new(params_from(&a_text), 1, 1000 + number as u64, TREE_BYTES);
        let mut b =
            GameSearch::<Position>::new(params_from(&b_text), 1, 2000 + number as u64, TREE_BYTES);
        let mut game = Game::new(size).expect("size");
        game.set_swap_enabled(false);
        let mut color = first;
        let mut plies = 0;
        while !game.is_over() && plies < 400 {
            let search = if color == a_color { &mut a } else { &mut b };
            let choice = search_game(search, &game, color, None, &playout_limits(playouts));
            let Some(mv) = choice.best.and_then(Move::from_index) else {
                break;
            };
            game.play(color, mv).expect("the search plays legal moves");
            color = color.opponent();
            plies += 1;
        }
        let counts = game.position().ball_counts();
        let a_balls = counts[a_color.index()];
        let b_balls = counts[a_color.opponent().index()];
        match a_balls.cmp(&b_balls) {
            std::cmp::Ordering::Greater => wins += 1,
            std::cmp::Ordering::Equal => draws += 1,
            std::cmp::Ordering::Less => losses += 1,
        }
        println!(
            "game {number}: first {first:?}, A {a_color:?}, {plies} plies, A {a_balls} B {b_balls}"
        );
    }
    println!("A = [{a_text}] B = [{b_text}], {playouts} playouts, {size}x{size}");
    println!("{}", tally("A against B", wins, draws, losses));
}

/// A GTP engine in a subprocess.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(program: &str, arguments: &[String]) -> Engine {
        let mut child = Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the engine starts");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        Engine {
            child,
            input,
            output,
        }
    }

    /// Sends a command; `Ok(text)` for `=`, `Err(text)` for `?`.
    fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.input, "{command}").expect("write to the engine");
        self.input.flush().expect("flush");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let read = self
                .output
                .read_line(&mut line)
                .expect("read from the engine");
            if read == 0 {
                return Err(format!("engine closed after {command:?}"));
            }
            if line.trim().is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            answer.push_str(&line);
        }
        let answer = answer.trim().to_string();
        if let Some(rest) = answer.strip_prefix('=') {
            Ok(rest.trim().to_string())
        } else {
            Err(answer.trim_start_matches('?').trim().to_string())
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

fn gtp_color(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// ishi (in-process, one thread, `MARGO_JOCLY_MS` per move) against Jocly's AI, 6x6, no
/// swap, colours and first mover alternating. Ends a game when the side to move has no move
/// both programs accept; scores by ishi's ball count. Divergences (a move one program
/// refuses) end the game and are counted apart.
#[test]
#[ignore]
fn against_jocly() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jocly/jocly-margo-gtp.mjs");
    let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jocly/node_modules");
    if !modules.exists() {
        println!("skipped: run npm ci in tests/jocly first");
        return;
    }
    let games: u32 = environment("MARGO_JOCLY_GAMES", 20);
    let level: String = environment("MARGO_JOCLY_LEVEL", "confirmed".to_string());
    let milliseconds: u64 = environment("MARGO_JOCLY_MS", 900);
    let base_seed: u64 = environment("MARGO_JOCLY_SEED", 1);
    let overrides: String = environment("MARGO_JOCLY_PARAMS", String::new());
    let size = 6;
    let (mut wins, mut draws, mut losses, mut diverged) = (0, 0, 0, 0);
    let mut ishi_seconds = 0.0;
    let mut ishi_moves = 0u32;
    let mut ishi_playouts = 0u64;
    for number in 0..games {
        let seed = base_seed * 1000 + number as u64;
        let mut jocly = Engine::start(
            "node",
            &[
                script.display().to_string(),
                "--level".to_string(),
                level.clone(),
                "--seed".to_string(),
                seed.to_string(),
            ],
        );
        jocly.send(&format!("boardsize {size}")).expect("boardsize");
        jocly.send("clear_board").expect("clear_board");
        let first = if number % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let ishi_color = if (number / 2) % 2 == 0 {
            first
        } else {
            first.opponent()
        };
        let mut search = GameSearch::<Position>::new(params_from(&overrides), 1, seed, 256 << 20);
        let mut game = Game::new(size).expect("size");
        game.set_swap_enabled(false);
        let mut color = first;
        let mut plies = 0;
        let mut divergence = None;
        let limits = RunLimits {
            soft_time: Some(Duration::from_millis(milliseconds)),
            hard_time: Some(Duration::from_millis(milliseconds)),
            ..RunLimits::default()
        };
        let mut record = Vec::new();
        while plies < 400 {
            if color == ishi_color {
                let jocly_legal = match jocly.send(&format!("all_legal_moves {}", gtp_color(color)))
                {
                    Ok(text) => text,
                    Err(error) => {
                        divergence = Some(format!("all_legal_moves: {error}"));
                        break;
                    }
                };
                let mut both = Vec::new();
                for vertex in jocly_legal.split_whitespace() {
                    if let Ok(mv) = game.parse_move(vertex) {
                        if game.is_legal(color, mv) {
                            both.push(mv.index());
                        }
                    }
                }
                if both.is_empty() {
                    break;
                }
                let choice = search_game(&mut search, &game, color, Some(&both), &limits);
                ishi_seconds += choice.elapsed.as_secs_f64();
                ishi_moves += 1;
                ishi_playouts += choice.playouts;
                let Some(mv) = choice.best.and_then(Move::from_index) else {
                    break;
                };
                let vertex = format_move(game.position().geometry(), mv);
                if let Err(error) = jocly.send(&format!("play {} {vertex}", gtp_color(color))) {
                    divergence = Some(format!("Jocly refused ishi's {vertex}: {error}"));
                    break;
                }
                game.play(color, mv).expect("legal for ishi");
                record.push(vertex);
            } else {
                let answer = jocly.send(&format!("genmove {}", gtp_color(color)));
                let vertex = match answer {
                    Ok(vertex) => vertex,
                    Err(error) if error.contains("game over") => break,
                    Err(error) => {
                        divergence = Some(format!("genmove: {error}"));
                        break;
                    }
                };
                match game.parse_move(&vertex) {
                    Ok(mv) if game.is_legal(color, mv) => {
                        game.play(color, mv).expect("checked");
                        record.push(vertex);
                    }
                    _ => {
                        divergence = Some(format!("ishi refuses Jocly's {vertex}"));
                        break;
                    }
                }
            }
            color = color.opponent();
            plies += 1;
        }
        let counts = game.position().ball_counts();
        let ishi_balls = counts[ishi_color.index()];
        let jocly_balls = counts[ishi_color.opponent().index()];
        let result = if let Some(reason) = &divergence {
            diverged += 1;
            format!("diverged ({reason})")
        } else {
            match ishi_balls.cmp(&jocly_balls) {
                std::cmp::Ordering::Greater => {
                    wins += 1;
                    "ishi wins".to_string()
                }
                std::cmp::Ordering::Equal => {
                    draws += 1;
                    "draw".to_string()
                }
                std::cmp::Ordering::Less => {
                    losses += 1;
                    "Jocly wins".to_string()
                }
            }
        };
        println!(
            "game {number} (seed {seed}): first {first:?}, ishi {ishi_color:?}, {plies} plies, ishi {ishi_balls} Jocly {jocly_balls}: {result}; {}",
            record.join(" ")
        );
        println!(
            "  so far: {}; diverged {diverged}; ishi {:.2} s/move, {:.0} playouts/move",
            tally(&format!("ishi vs Jocly {level}"), wins, draws, losses),
            ishi_seconds / f64::from(ishi_moves.max(1)),
            ishi_playouts as f64 / f64::from(ishi_moves.max(1))
        );
    }
    println!(
        "{}; diverged {diverged}",
        tally(
            &format!("ishi vs Jocly {level}, {milliseconds} ms/move"),
            wins,
            draws,
            losses
        )
    );
}
