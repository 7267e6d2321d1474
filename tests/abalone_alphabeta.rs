//! The Abalone alpha-beta player: it takes free ejections, finds the sixth ejection at depth
//! 1, never returns an illegal move at tiny node limits, and is deterministic under a node
//! limit. The ignored tests are the self-play sanity check and the speed figure:
//! `cargo test --release --test abalone_alphabeta -- --ignored --nocapture`.

use ishi::abalone::alphabeta::{AlphaBeta, Limits, REPETITION_SCORE, WIN};
use ishi::abalone::evaluation::Weights;
use ishi::abalone::{Board, Cell, Game, Push, Start, DEFAULT_MAX_PLIES};
use ishi::color::Color;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

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

fn searcher() -> AlphaBeta {
    AlphaBeta::new(1 << 16, Weights::default())
}

#[test]
fn takes_a_free_ejection() {
    let stop = AtomicBool::new(false);
    let cases = [
        // Three push two off the east edge of row e; White's others are far away.
        ("e5 e6 e7 c3 c4", "e8 e9 g4 h4"),
        // Two push one off the a-row edge (south-east), with a spare black marble.
        ("c3 b3 e5", "a3 h6 h7"),
        // A north-east ejection at i9.
        ("g7 h8 d4 d5", "i9 b1 b2"),
    ];
    for (black, white) in cases {
        let board = position(black, white);
        let mut moves = Vec::new();
        board.ejecting_moves(&mut moves);
        assert!(!moves.is_empty(), "{black} / {white}: an ejection exists");
        for depth in 1..=3 {
            let result = searcher().search(
                &board,
                &Limits {
                    depth: Some(depth),
                    ..Limits::default()
                },
                &stop,
            );
            let best = result.best_move.expect("a move");
            assert_eq!(
                board.push_of(best),
                Push::Ejects,
                "{black} / {white} depth {depth}: played {best}, score {}",
                result.score
            );
        }
    }
}

#[test]
fn finds_the_sixth_ejection_at_depth_one() {
    let board = position("e5 e6 e7 c3", "e8 e9 a1 a2")
        .with_state(Color::Black, 5, 2, 30)
        .expect("state");
    let stop = AtomicBool::new(false);
    let result = searcher().search(
        &board,
        &Limits {
            depth: Some(1),
            ..Limits::default()
        },
        &stop,
    );
    let best = result.best_move.expect("a move");
    assert_eq!(best.to_string(), "e5e6");
    assert_eq!(result.score, WIN - 1);
    assert!(result.is_win());
    assert_eq!(result.principal_variation, vec![best]);
    // Deeper searches keep the fastest win.
    let deeper = searcher().search(
        &board,
        &Limits {
            depth: Some(4),
            ..Limits::default()
        },
        &stop,
    );
    assert_eq!(deeper.best_move, Some(best));
    assert_eq!(deeper.score, WIN - 1);
}

#[test]
fn never_returns_an_illegal_move_at_tiny_node_limits() {
    let stop = AtomicBool::new(false);
    let mut moves = Vec::new();
    let mut searcher = searcher();
    let mut searched = 0;
    for seed in 0..60u64 {
        let mut random = SmallRng::seed_from_u64(seed);
        let mut game = Game::new(Start::ALL[(seed % 3) as usize]);
        for _ in 0..random.gen_range(0..120) {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let mv = moves[random.gen_range(0..moves.len())];
            game.play_unchecked(mv);
        }
        for node_limit in [1, 2, 10, 100, 700] {
            let result = searcher.search(
                game.board(),
                &Limits {
                    nodes: Some(node_limit),
                    ..Limits::default()
                },
                &stop,
            );
            searched += 1;
            match result.best_move {
                Some(mv) => assert_eq!(game.check(game.to_move(), mv), Ok(()), "seed {seed}"),
                None => assert!(game.is_over(), "seed {seed}: no move before the end"),
            }
            assert!(result.nodes <= node_limit, "{} nodes", result.nodes);
        }
    }
    assert_eq!(searched, 300);
}

#[test]
fn node_limited_searches_are_deterministic() {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(20_000),
        ..Limits::default()
    };
    for start in Start::ALL {
        let board = Board::new(start);
        let first = searcher().search(&board, &limits, &stop);
        let second = searcher().search(&board, &limits, &stop);
        assert_eq!(first, second, "{}", start.name());
        assert!(first.depth >= 2, "{}: depth {}", start.name(), first.depth);
        let mut cleared = searcher();
        cleared.search(&Board::new(Start::Standard), &limits, &stop);
        cleared.clear();
        assert_eq!(cleared.search(&board, &limits, &stop), first);
    }
}

#[test]
fn a_side_that_is_ahead_does_not_repeat_an_earlier_position() {
    // Positions from seeded random games where the side to move is clearly ahead at depth 2:
    // with the position its best move leads to marked as earlier in the game, the search
    // plays another move that scores above the repetition's draw value where one exists
    // (most of them), and a searcher told nothing plays the first move again.
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let mut checked = 0;
    let mut changed = 0;
    for seed in 0..200u64 {
        let mut random = SmallRng::seed_from_u64(seed);
        let mut board = Board::new(Start::Belgian);
        let mut moves = Vec::new();
        for _ in 0..random.gen_range(10..60) {
            board.legal_moves(&mut moves);
            if moves.is_empty() || board.is_over() {
                break;
            }
            board.play_unchecked(moves[random.gen_range(0..moves.len())]);
        }
        if board.is_over() {
            continue;
        }
        let first = searcher().search(&board, &limits, &stop);
        if first.score <= 200 || first.score >= 100_000 {
            continue;
        }
        let best = first.best_move.expect("a move");
        let mut after = board;
        after.play_unchecked(best);
        let mut told = searcher();
        told.set_earlier_positions([after.hash(), board.hash() ^ 1]);
        let second = told.search(&board, &limits, &stop);
        // Repeating scores as a draw: the searcher plays something better when there is
        // something better, and never anything worse.
        assert!(
            second.score >= REPETITION_SCORE,
            "seed {seed}: {}",
            second.score
        );
        if second.best_move == Some(best) {
            assert_eq!(second.score, REPETITION_SCORE, "seed {seed}");
        } else {
            changed += 1;
        }
        told.set_earlier_positions([]);
        assert_eq!(told.search(&board, &limits, &stop).best_move, Some(best));
        checked += 1;
        if checked == 10 {
            break;
        }
    }
    assert_eq!(checked, 10, "ten positions where the side to move is ahead");
    assert!(
        changed >= 5,
        "only {changed} of 10 searches left the repeating move"
    );
}

#[test]
fn the_stop_flag_and_the_deadline_end_a_search() {
    let board = Board::new(Start::Belgian);
    let stopped = AtomicBool::new(true);
    let result = searcher().search(&board, &Limits::default(), &stopped);
    assert!(result.best_move.is_some());
    let running = AtomicBool::new(false);
    let started = Instant::now();
    let result = searcher().search(
        &board,
        &Limits {
            deadline: Some(started + Duration::from_millis(100)),
            ..Limits::default()
        },
        &running,
    );
    assert!(started.elapsed() < Duration::from_secs(2));
    assert!(result.best_move.is_some());
}

/// Alpha-beta at 0.2 s a move against a uniformly random mover, both colours.
#[test]
#[ignore = "self-play sanity check: run with --release --ignored"]
fn alpha_beta_beats_a_random_mover() {
    let stop = AtomicBool::new(false);
    let mut wins = 0;
    let games = 6;
    for game_number in 0..games {
        let mut random = SmallRng::seed_from_u64(game_number);
        let start = Start::ALL[(game_number % 3) as usize];
        let mut game = Game::new(start);
        let engine_color = if game_number % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        let mut searcher = AlphaBeta::new(1 << 20, Weights::default());
        let mut moves = Vec::new();
        while !game.is_over() {
            let mv = if game.to_move() == engine_color {
                let limits = Limits {
                    deadline: Some(Instant::now() + Duration::from_millis(200)),
                    ..Limits::default()
                };
                searcher.search(game.board(), &limits, &stop).best_move
            } else {
                game.legal_moves(&mut moves);
                moves.get(random.gen_range(0..moves.len().max(1))).copied()
            };
            let Some(mv) = mv else { break };
            game.play(game.to_move(), mv).expect("legal");
        }
        let winner = game.winner();
        eprintln!(
            "game {game_number} ({}, engine {engine_color}): {:?} after {} plies, ejected B {} W {}",
            start.name(),
            winner,
            game.ply(),
            game.ejected(Color::Black),
            game.ejected(Color::White)
        );
        if winner == Some(Some(engine_color)) {
            wins += 1;
        }
    }
    assert_eq!(wins, games, "the engine should win every game");
}

/// Nodes per second from the Belgian start, one second.
#[test]
#[ignore = "speed figure: run with --release --ignored"]
fn nodes_per_second_from_the_belgian_start() {
    let stop = AtomicBool::new(false);
    let board = Board::new(Start::Belgian);
    let mut searcher = AlphaBeta::new(1 << 20, Weights::default());
    let started = Instant::now();
    let result = searcher.search(
        &board,
        &Limits {
            deadline: Some(started + Duration::from_secs(2)),
            ..Limits::default()
        },
        &stop,
    );
    let seconds = started.elapsed().as_secs_f64();
    let principal: Vec<String> = result
        .principal_variation
        .iter()
        .map(|mv| mv.to_string())
        .collect();
    eprintln!(
        "belgian: depth {} score {} nodes {} in {seconds:.2} s = {:.0} nodes/s, pv {}",
        result.depth,
        result.score,
        result.nodes,
        result.nodes as f64 / seconds,
        principal.join(" ")
    );
}
