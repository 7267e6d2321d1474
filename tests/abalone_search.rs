//! The Abalone MCTS: legal moves from random positions, a free sixth ejection, determinism
//! with one thread and a playout limit, tree reuse across two plies. The ignored tests are
//! the measurements (MCTS against alpha-beta at equal time, MCTS self-play, MCTS A/B at a
//! fixed playout count, speed):
//! `cargo test --release --test abalone_search -- --ignored --nocapture`, shaped by the
//! environment: `ABALONE_GAMES`, `ABALONE_MS` (time per move), `ABALONE_PLAYOUTS`,
//! `ABALONE_PARAMS` and `ABALONE_PARAMS_B` (`name=value,name=value`), `ABALONE_FIRST_GAME`.

use ishi::abalone::search::{mcts_choice, settings};
use ishi::abalone::{
    abalone_search_params, bench_lines, AbaloneEngine, AbalonePlayer, Board, Cell, Game, Move,
    MoveLimits, Push, Start, DEFAULT_MAX_PLIES,
};
use ishi::color::Color;
use ishi::search::driver::GameSearch;
use ishi::search::SearchParams;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

fn position(black: &str, white: &str) -> Board {
    let mut board = Board::empty(DEFAULT_MAX_PLIES);
    for (color, cells) in [(Color::Black, black), (Color::White, white)] {
        for name in cells.split_whitespace() {
            let cell = Cell::parse(name).expect("a cell");
            board = board.with_marble(cell, color).expect("free cell");
        }
    }
    board
}

fn mcts_engine(params: &SearchParams, seed: u64) -> AbaloneEngine {
    AbaloneEngine::new(params, 1, seed, 1 << 26).expect("valid parameters")
}

fn playouts(count: u64) -> MoveLimits {
    MoveLimits {
        playouts: Some(count),
        ..MoveLimits::default()
    }
}

#[test]
fn returns_a_legal_move_from_random_positions() {
    let stop = AtomicBool::new(false);
    let params = SearchParams::default();
    for seed in 0..6u64 {
        let mut random = SmallRng::seed_from_u64(seed);
        let mut game = Game::new(Start::ALL[seed as usize % 3]);
        let mut moves = Vec::new();
        for _ in 0..random.gen_range(0..60) {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[random.gen_range(0..moves.len())];
            game.play(game.to_move(), mv).expect("legal");
        }
        if game.is_over() {
            continue;
        }
        let mut engine = mcts_engine(&params, seed);
        let choice = engine.choose_with(AbalonePlayer::Mcts, &game, &playouts(300), &stop);
        let best = choice.best.expect("a move");
        assert!(
            game.check(game.to_move(), best).is_ok(),
            "seed {seed}: {best} is illegal"
        );
    }
}

#[test]
fn takes_a_free_sixth_ejection() {
    let stop = AtomicBool::new(false);
    let board = position("e5 e6 e7 c3", "e8 e9 a1 a2")
        .with_state(Color::Black, 5, 2, 30)
        .expect("state");
    let game = Game::from_board(board);
    let params = SearchParams::default();
    for count in [20, 100] {
        let mut engine = mcts_engine(&params, 3);
        let choice = engine.choose_with(AbalonePlayer::Mcts, &game, &playouts(count), &stop);
        let best = choice.best.expect("a move");
        assert_eq!(
            board.push_of(best),
            Push::Ejects,
            "{count} playouts: {best}"
        );
        let mut after = game.clone();
        after.play(Color::Black, best).expect("legal");
        assert_eq!(after.winner(), Some(Some(Color::Black)));
    }
}

#[test]
fn one_thread_with_a_seed_and_a_playout_limit_is_deterministic() {
    let stop = AtomicBool::new(false);
    let params = abalone_search_params(&SearchParams::default());
    let game = Game::new(Start::Belgian);
    let run = || {
        let mut search = GameSearch::<Board>::new(params.clone(), 1, 11, 1 << 26);
        let mut choice = mcts_choice(
            &mut search,
            &game,
            settings(&params),
            &playouts(1500),
            &stop,
        );
        choice.elapsed = Duration::ZERO;
        (choice, search.node_count())
    };
    let first = run();
    assert_eq!(first.0.playouts, 1500);
    assert_eq!(first, run());
}

#[test]
fn the_tree_is_reused_across_two_plies() {
    let stop = AtomicBool::new(false);
    let params = abalone_search_params(&SearchParams::default());
    let mut game = Game::new(Start::Belgian);
    let mut search = GameSearch::<Board>::new(params.clone(), 1, 5, 1 << 26);
    let first = mcts_choice(
        &mut search,
        &game,
        settings(&params),
        &playouts(3000),
        &stop,
    );
    assert_eq!(first.reused_visits, 0);
    let line = &first.candidates[0].principal_variation;
    assert!(line.len() >= 2, "a reply was searched: {line:?}");
    for &index in &line[..2] {
        let mv = Move::from_index(index).expect("a move index");
        game.play(game.to_move(), mv).expect("legal");
    }
    let second = mcts_choice(&mut search, &game, settings(&params), &playouts(500), &stop);
    assert!(second.reused_visits > 0, "{second:?}");
    assert_eq!(second.root_visits, second.reused_visits + 500);
    let best = Move::from_index(second.best.expect("a move")).expect("a move index");
    assert!(game.check(game.to_move(), best).is_ok());
}

#[test]
fn the_player_parameter_names_both_players() {
    let mut params = SearchParams::default();
    params.set("abalone_player", "0").expect("a value");
    assert_eq!(AbalonePlayer::from_params(&params), Ok(AbalonePlayer::Mcts));
    params.set("abalone_player", "1").expect("a value");
    assert_eq!(
        AbalonePlayer::from_params(&params),
        Ok(AbalonePlayer::AlphaBeta)
    );
    params.set("abalone_player", "2").expect("a value");
    assert!(AbalonePlayer::from_params(&params).is_err());
    assert!(AbaloneEngine::new(&params, 1, 1, 1 << 20).is_err());
}

// ---------------------------------------------------------------------------------------
// Measurements.

fn environment_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .unwrap_or(default)
}

/// Default parameters with `name=value,name=value` from the environment variable applied.
fn environment_params(name: &str) -> SearchParams {
    let mut params = SearchParams::default();
    if let Ok(text) = std::env::var(name) {
        for entry in text.split(',').filter(|entry| !entry.trim().is_empty()) {
            let (key, value) = entry.split_once('=').expect("name=value");
            params.set(key.trim(), value).expect("a parameter");
        }
    }
    params
}

/// The 95% Wilson interval of a score of `points` in `games`.
fn wilson(points: f64, games: f64) -> (f64, f64) {
    if games <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let rate = points / games;
    let centre = rate + z * z / (2.0 * games);
    let spread = z * (rate * (1.0 - rate) / games + z * z / (4.0 * games * games)).sqrt();
    let denominator = 1.0 + z * z / games;
    (
        ((centre - spread) / denominator).max(0.0),
        ((centre + spread) / denominator).min(1.0),
    )
}

/// One side of a game: an engine and the player it uses.
struct Side {
    engine: AbaloneEngine,
    player: AbalonePlayer,
}

/// Plays a game from the Belgian start; the winner (None: a draw), the plies and whether
/// six ejections ended it.
fn play_game(
    black: &mut Side,
    white: &mut Side,
    limits: &MoveLimits,
) -> (Option<Color>, u16, bool) {
    let stop = AtomicBool::new(false);
    let mut game = Game::new(Start::Belgian);
    while !game.is_over() {
        let side = if game.to_move() == Color::Black {
            &mut *black
        } else {
            &mut *white
        };
        let choice = side.engine.choose_with(side.player, &game, limits, &stop);
        let Some(mv) = choice.best else { break };
        game.play(game.to_move(), mv).expect("a legal move");
    }
    let by_ejections = Color::ALL.iter().any(|&color| game.ejected(color) >= 6);
    (game.winner().flatten(), game.ply(), by_ejections)
}

/// Plays `games` games of A against B (A black in even games), prints each and the total.
fn run_match(
    label: &str,
    make_a: &dyn Fn(u64) -> Side,
    make_b: &dyn Fn(u64) -> Side,
    limits: &MoveLimits,
) {
    let games = environment_number("ABALONE_GAMES", 20);
    let first_game = environment_number("ABALONE_FIRST_GAME", 0);
    let (mut wins, mut draws, mut losses, mut ejection_ends) = (0, 0, 0, 0);
    for number in first_game..first_game + games {
        let (mut a, mut b) = (make_a(number), make_b(number));
        let a_color = if number % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let (winner, plies, by_ejections) = if a_color == Color::Black {
            play_game(&mut a, &mut b, limits)
        } else {
            play_game(&mut b, &mut a, limits)
        };
        match winner {
            Some(color) if color == a_color => wins += 1,
            Some(_) => losses += 1,
            None => draws += 1,
        }
        if by_ejections {
            ejection_ends += 1;
        }
        eprintln!(
            "{label} game {number}: A {a_color:?}, winner {winner:?}, {plies} plies{}",
            if by_ejections { ", six ejections" } else { "" }
        );
    }
    let points = wins as f64 + draws as f64 / 2.0;
    let (low, high) = wilson(points, games as f64);
    eprintln!(
        "{label}: A {wins} W / {draws} D / {losses} L of {games}, score {:.3}, 95% Wilson [{low:.3}, {high:.3}], {ejection_ends} ended by six ejections",
        points / games as f64
    );
}

fn time_limits() -> MoveLimits {
    MoveLimits {
        time: Some(Duration::from_millis(environment_number("ABALONE_MS", 500))),
        ..MoveLimits::default()
    }
}

#[test]
#[ignore = "measurement: run with --release --ignored --nocapture"]
fn mcts_against_alphabeta() {
    let params = environment_params("ABALONE_PARAMS");
    let limits = time_limits();
    let make_mcts = |number: u64| Side {
        engine: mcts_engine(&params, 1000 + number),
        player: AbalonePlayer::Mcts,
    };
    let make_alphabeta = |number: u64| Side {
        engine: mcts_engine(&params, 2000 + number),
        player: AbalonePlayer::AlphaBeta,
    };
    let label = format!("mcts-vs-alphabeta {:?}", limits.time);
    run_match(&label, &make_mcts, &make_alphabeta, &limits);
}

#[test]
#[ignore = "measurement: run with --release --ignored --nocapture"]
fn mcts_self_play() {
    let params = environment_params("ABALONE_PARAMS");
    let limits = time_limits();
    let make = |number: u64| Side {
        engine: mcts_engine(&params, 3000 + number),
        player: AbalonePlayer::Mcts,
    };
    let label = format!("mcts-self-play {:?}", limits.time);
    run_match(&label, &make, &make, &limits);
}

#[test]
#[ignore = "measurement: run with --release --ignored --nocapture"]
fn mcts_a_against_mcts_b() {
    let params_a = environment_params("ABALONE_PARAMS");
    let params_b = environment_params("ABALONE_PARAMS_B");
    let limits = match environment_number("ABALONE_PLAYOUTS", 0) {
        0 => time_limits(),
        count => playouts(count),
    };
    let make_a = |number: u64| Side {
        engine: mcts_engine(&params_a, 4000 + number),
        player: AbalonePlayer::Mcts,
    };
    let make_b = |number: u64| Side {
        engine: mcts_engine(&params_b, 5000 + number),
        player: AbalonePlayer::Mcts,
    };
    run_match("mcts-a-vs-b", &make_a, &make_b, &limits);
}

#[test]
#[ignore = "speed figure: run with --release --ignored --nocapture"]
fn speed_lines() {
    for line in bench_lines(2, 1.0) {
        eprintln!("{line}");
    }
}
