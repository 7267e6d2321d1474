//! Seeded random Abalone games: the incremental state stays consistent after every move,
//! undo walks back through equal positions to the start, and `check` agrees with the move
//! generator for every generated move and for a sample of random non-moves.

use ishi::abalone::{Board, Game, Move, Push, Start, MOVE_SPACE};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::collections::HashSet;

const GAMES: u64 = 2_000;
/// Most games stop at this cap; every fourth plays to the default 400.
const SHORT_MAX_PLIES: u16 = 160;
const RANDOM_PROBES: usize = 24;

fn cells_of(board: &Board) -> Vec<Option<ishi::color::Color>> {
    ishi::abalone::Cell::all()
        .map(|cell| board.at(cell))
        .collect()
}

#[test]
fn random_games_keep_every_invariant() {
    let mut moves = Vec::new();
    let mut positions = 0usize;
    let mut ejections = 0usize;
    for seed in 0..GAMES {
        let mut random = SmallRng::seed_from_u64(seed);
        let start = Start::ALL[(seed % 3) as usize];
        let max_plies = if seed % 4 == 0 { 400 } else { SHORT_MAX_PLIES };
        let mut game = Game::with_max_plies(start, max_plies);
        let mut seen: Vec<(u64, Vec<Option<ishi::color::Color>>)> = Vec::new();
        loop {
            let board = *game.board();
            if let Err(error) = board.check_consistency() {
                panic!(
                    "seed {seed} ply {}: {error}\n{}",
                    board.ply(),
                    board.showboard()
                );
            }
            seen.push((board.hash(), cells_of(&board)));
            positions += 1;
            game.legal_moves(&mut moves);
            let color = game.to_move();
            let set: HashSet<Move> = moves.iter().copied().collect();
            assert_eq!(set.len(), moves.len(), "seed {seed}: duplicate moves");
            for &mv in &moves {
                assert_eq!(game.check(color, mv), Ok(()), "seed {seed}: {mv}");
                assert!(game.check(color.opponent(), mv).is_err());
            }
            // The rim-based ejection generator finds exactly the ejecting legal moves.
            let mut ejecting = Vec::new();
            game.board().ejecting_moves(&mut ejecting);
            let ejecting: HashSet<Move> = ejecting.into_iter().collect();
            let expected: HashSet<Move> = moves
                .iter()
                .copied()
                .filter(|&mv| board.push_of(mv) == Push::Ejects)
                .collect();
            assert_eq!(ejecting, expected, "seed {seed} ply {}", board.ply());
            assert!(
                moves.is_empty()
                    || (board.marbles_in_danger(color.opponent()) > 0) != expected.is_empty(),
                "seed {seed} ply {}",
                board.ply()
            );
            for _ in 0..RANDOM_PROBES {
                let index = random.gen_range(1..MOVE_SPACE as u16);
                if let Some(mv) = Move::from_index(index) {
                    assert_eq!(
                        game.check(color, mv).is_ok(),
                        set.contains(&mv),
                        "seed {seed} ply {}: {mv}\n{}",
                        board.ply(),
                        board.showboard()
                    );
                }
            }
            if game.is_over() {
                assert!(moves.is_empty() || game.winner().is_some());
                break;
            }
            assert!(!moves.is_empty());
            let mv = moves[random.gen_range(0..moves.len())];
            let before = game.ejected(color);
            game.play(color, mv).expect("a generated move is legal");
            ejections += (game.ejected(color) - before) as usize;
        }
        assert!(game.winner().is_some());
        game.check_consistency().expect("the history replays");
        // Undo back to the start, comparing each position with the one seen going forward.
        let mut index = seen.len() - 1;
        loop {
            let board = game.board();
            assert_eq!(board.hash(), seen[index].0, "seed {seed}: hash after undo");
            assert_eq!(
                cells_of(board),
                seen[index].1,
                "seed {seed}: cells after undo"
            );
            board.check_consistency().expect("consistent after undo");
            if !game.undo() {
                break;
            }
            index -= 1;
        }
        assert_eq!(index, 0);
        let mut first = Board::new(start);
        first.set_max_plies(max_plies);
        assert_eq!(game.board(), &first);
    }
    assert!(positions > 100_000, "{positions} positions");
    assert!(ejections > 0, "random games should eject now and then");
}

#[test]
fn every_index_is_checked_like_the_generator_from_the_starts() {
    let mut moves = Vec::new();
    for start in Start::ALL {
        let board = Board::new(start);
        board.legal_moves(&mut moves);
        let set: HashSet<Move> = moves.iter().copied().collect();
        let mut legal = 0;
        for index in 1..MOVE_SPACE as u16 {
            if let Some(mv) = Move::from_index(index) {
                let ok = board.check(board.to_move(), mv).is_ok();
                assert_eq!(ok, set.contains(&mv), "{}: {mv}", start.name());
                legal += ok as usize;
            }
        }
        assert_eq!(legal, moves.len());
    }
}
