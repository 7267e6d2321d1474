//! Seeded random Margo games, 4x4 to 8x8: incremental state against recomputation after every
//! move, undo back to the start, `check` against playing, and the fast position's move list
//! against the game's.

use std::time::Instant;

use ishi::color::Color;
use ishi::margo::{Game, IllegalMove, Move, Point, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Every how many moves the expensive comparisons run.
const SAMPLE_EVERY: usize = 5;

fn random_game(size: usize, seed: u64) -> (usize, usize) {
    let mut rng = SmallRng::seed_from_u64(seed ^ (size as u64) << 32);
    let mut game = Game::new(size).expect("supported size");
    game.set_swap_enabled(rng.gen_bool(0.5));
    let first = if rng.gen_bool(0.5) {
        Color::White
    } else {
        Color::Black
    };
    let mut trail: Vec<(Position, u64)> = vec![(*game.position(), game.hash())];
    let mut legal = Vec::new();
    let mut fast = Vec::new();
    let mut superko_refusals = 0;
    let cap = game.position().geometry().point_count() * 4;
    for ply in 0..cap {
        let color = game.mover_or(first);
        game.legal_moves(color, &mut legal);
        let name = format!("{size}x{size} seed {seed} ply {ply}");
        if legal.is_empty() {
            assert!(game.is_over(), "{name}: no move but not over");
            break;
        }
        assert!(!game.is_over(), "{name}: moves but over");
        assert!(legal
            .windows(2)
            .all(|pair| pair[0].index() < pair[1].index()));
        if ply % SAMPLE_EVERY == 0 {
            superko_refusals += compare_with_fast(&game, color, &legal, &mut fast, &name);
            compare_check_with_play(&game, color, &name);
        }
        let mv = legal[rng.gen_range(0..legal.len())];
        game.play(color, mv)
            .unwrap_or_else(|error| panic!("{name}: listed move refused: {error}"));
        game.check_consistency()
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        trail.push((*game.position(), game.hash()));
    }
    let moves = game.history().len();
    for step in (0..moves).rev() {
        assert!(game.undo(), "undo refused with {} moves left", step + 1);
        let (position, hash) = &trail[step];
        assert_eq!(
            game.position(),
            position,
            "{size}x{size} seed {seed} undo to {step}"
        );
        assert_eq!(game.hash(), *hash);
        assert_eq!(game.history().len(), step);
    }
    assert!(!game.undo());
    assert_eq!(game.to_move(), None);
    (moves, superko_refusals)
}

/// The fast position's placements must be the game's legal placements plus the moves superko
/// alone refuses. Returns the number of those.
fn compare_with_fast(
    game: &Game,
    color: Color,
    legal: &[Move],
    fast: &mut Vec<Point>,
    name: &str,
) -> usize {
    game.position().legal_placements(color, fast);
    let placements: Vec<Point> = legal
        .iter()
        .filter_map(|mv| match mv {
            Move::Place(point) => Some(*point),
            Move::Swap => None,
        })
        .collect();
    let mut refused = 0;
    let mut listed = placements.iter().peekable();
    for &point in fast.iter() {
        if listed.peek() == Some(&&point) {
            listed.next();
        } else {
            assert_eq!(
                game.check(color, Move::Place(point)),
                Err(IllegalMove::Superko),
                "{name}: fast list has {point:?} that the game refuses otherwise"
            );
            refused += 1;
        }
    }
    assert!(
        listed.next().is_none(),
        "{name}: the game lists a placement the fast list lacks"
    );
    refused
}

fn compare_check_with_play(game: &Game, color: Color, name: &str) {
    let points = game.position().geometry().point_count();
    let mut trial = game.clone();
    for index in 0..points {
        let mv = Move::Place(Point(index as u16));
        let verdict = game.check(color, mv);
        let played = trial.play(color, mv).map(|_| ());
        if played.is_ok() {
            assert!(trial.undo());
        }
        assert_eq!(verdict, played, "{name}: check and play differ at {index}");
        assert_eq!(
            game.position()
                .check_placement(color, Point(index as u16))
                .is_ok(),
            verdict.is_ok() || verdict == Err(IllegalMove::Superko),
            "{name}: position and game differ at {index}"
        );
        if game.to_move().is_some() {
            assert_eq!(
                game.check(color.opponent(), mv),
                Err(IllegalMove::WrongTurn),
                "{name}"
            );
        }
    }
    let swap = game.check(color, Move::Swap);
    assert_eq!(
        swap,
        trial.play(color, Move::Swap).map(|_| ()),
        "{name}: swap"
    );
}

fn run_plan(plan: &[(usize, u64)]) {
    let start = Instant::now();
    let mut total_moves = 0;
    let mut total_refusals = 0;
    let mut total_games = 0;
    for &(size, games) in plan {
        let lap = Instant::now();
        for seed in 0..games {
            let (moves, refusals) = random_game(size, seed);
            total_moves += moves;
            total_refusals += refusals;
            total_games += 1;
        }
        eprintln!("{size}x{size}: {games} games in {:.2?}", lap.elapsed());
    }
    eprintln!(
        "{total_games} games, {total_moves} moves, {total_refusals} superko refusals seen, {:.2?}",
        start.elapsed()
    );
    assert!(
        total_refusals > 0,
        "no superko refusal met: the comparison is idle"
    );
}

#[test]
fn random_small_games_keep_every_invariant() {
    run_plan(&[(4, 2000), (5, 500)]);
}

#[test]
fn random_large_games_keep_every_invariant() {
    run_plan(&[(6, 150), (7, 30), (8, 10)]);
}
