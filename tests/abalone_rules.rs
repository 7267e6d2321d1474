//! Hand cases of the Abalone rules: sumito and its limits, broadsides, the win at six, the ply
//! cap, notation round trips and every illegal-move reason.

use ishi::abalone::{
    Board, Cell, Direction, Game, IllegalMove, Move, ParseMoveError, Push, Start, DEFAULT_MAX_PLIES,
};
use ishi::color::Color;

fn cell(name: &str) -> Cell {
    Cell::parse(name).unwrap_or_else(|| panic!("no cell {name}"))
}

/// A position with the given marbles (space-separated cells), Black to move.
fn position(black: &str, white: &str) -> Board {
    let mut board = Board::empty(DEFAULT_MAX_PLIES);
    for (color, cells) in [(Color::Black, black), (Color::White, white)] {
        for name in cells.split_whitespace() {
            board = board.with_marble(cell(name), color).expect("free cell");
        }
    }
    board
}

fn illegal(board: &Board, text: &str) -> IllegalMove {
    match ishi::abalone::parse_move(board, board.to_move(), text) {
        Err(ParseMoveError::Illegal(reason)) => reason,
        other => panic!("{text}: expected an illegal move, got {other:?}"),
    }
}

fn play(board: &mut Board, text: &str) -> Move {
    let mv = ishi::abalone::parse_move(board, board.to_move(), text)
        .unwrap_or_else(|error| panic!("{text}: {error}"));
    board.play_unchecked(mv);
    mv
}

fn legal_texts(board: &Board) -> Vec<String> {
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    moves.iter().map(|mv| mv.to_string()).collect()
}

#[test]
fn pac_is_illegal() {
    // 3 v 3 along row e.
    let board = position("e1 e2 e3", "e4 e5 e6");
    assert_eq!(illegal(&board, "e1e2"), IllegalMove::NoSumito);
    // 2 v 2.
    let board = position("e1 e2", "e3 e4");
    assert_eq!(illegal(&board, "e1e2"), IllegalMove::NoSumito);
    // 1 v 1.
    let board = position("e1", "e2");
    assert_eq!(illegal(&board, "e1e2"), IllegalMove::NoSumito);
    // 3 v 4 is outnumbered too.
    let board = position("e1 e2 e3", "e4 e5 e6 e7");
    assert_eq!(illegal(&board, "e1e2"), IllegalMove::NoSumito);
    assert!(!legal_texts(&board).contains(&"e1e2".to_string()));
}

#[test]
fn sandwich_is_illegal() {
    let board = position("e1 e2 e4", "e3");
    assert_eq!(illegal(&board, "e1e2"), IllegalMove::NoSumito);
    let board = position("e1 e2 e3 e6", "e4 e5");
    assert_eq!(illegal(&board, "e1e2"), IllegalMove::NoSumito);
}

#[test]
fn own_marble_never_leaves_the_board() {
    let board = position("a4 a5", "");
    // a4a5 moves a4,a5 east: a5 would fall off.
    assert_eq!(illegal(&board, "a4a5"), IllegalMove::OwnMarbleOff);
    let single = Move::inline(cell("a5"), Direction::East, 1).expect("on the board");
    assert_eq!(
        board.check(Color::Black, single),
        Err(IllegalMove::OwnMarbleOff)
    );
    // A broadside over the edge: a4,a5 south-east.
    let broadside =
        Move::broadside(cell("a4"), Direction::East, 2, Direction::SouthEast).expect("a line");
    assert_eq!(
        board.check(Color::Black, broadside),
        Err(IllegalMove::OwnMarbleOff)
    );
}

#[test]
fn three_push_two_off_the_board() {
    let mut board = position("e5 e6 e7", "e8 e9");
    let mv = ishi::abalone::parse_move(&board, Color::Black, "e5e6").expect("legal");
    assert_eq!(mv.length(), 3);
    assert_eq!(board.push_of(mv), Push::Ejects);
    board.play_unchecked(mv);
    assert_eq!(board.at(cell("e5")), None);
    for name in ["e6", "e7", "e8"] {
        assert_eq!(board.at(cell(name)), Some(Color::Black), "{name}");
    }
    assert_eq!(board.at(cell("e9")), Some(Color::White));
    assert_eq!(board.ejected(Color::Black), 1);
    assert_eq!(board.ejected(Color::White), 0);
    assert_eq!(board.marble_count(Color::White), 1);
    assert_eq!(board.score(), 1);
}

#[test]
fn two_push_one_into_an_empty_cell() {
    let mut board = position("e1 e2", "e3");
    let mv = play(&mut board, "e1e2");
    assert_eq!(mv.to_string(), "e1e2");
    assert_eq!(board.at(cell("e1")), None);
    assert_eq!(board.at(cell("e2")), Some(Color::Black));
    assert_eq!(board.at(cell("e3")), Some(Color::Black));
    assert_eq!(board.at(cell("e4")), Some(Color::White));
    assert_eq!(board.ejected(Color::Black), 0);
    assert_eq!(board.to_move(), Color::White);
}

#[test]
fn broadsides_need_every_target_empty() {
    let board = position("e4 e5", "f6");
    // e4 -> f5 is free, e5 -> f6 is not.
    assert_eq!(illegal(&board, "e4e5f5"), IllegalMove::Blocked);
    assert_eq!(illegal(&board, "e5e4f6"), IllegalMove::Blocked);
    let mut free = position("e4 e5", "f7");
    play(&mut free, "e5e4f6");
    assert_eq!(free.at(cell("f5")), Some(Color::Black));
    assert_eq!(free.at(cell("f6")), Some(Color::Black));
}

#[test]
fn six_ejections_win() {
    let mut board = position("e5 e6 e7", "e8 e9 a1")
        .with_state(Color::Black, 5, 0, 10)
        .expect("state");
    assert!(!board.is_over());
    play(&mut board, "e5e6");
    assert_eq!(board.ejected(Color::Black), 6);
    assert!(board.is_over());
    assert_eq!(board.winner(), Some(Some(Color::Black)));
    assert_eq!(legal_texts(&board), Vec::<String>::new());
    let mv = Move::inline(cell("e9"), Direction::West, 1).expect("on the board");
    assert_eq!(board.check(Color::White, mv), Err(IllegalMove::GameOver));
    assert_eq!(illegal(&board, "e9e8"), IllegalMove::GameOver);
}

#[test]
fn the_ply_cap_adjudicates() {
    // Black has ejected more: Black wins at the cap.
    let mut board = position("e1", "i9")
        .with_state(Color::Black, 2, 1, 9)
        .expect("state");
    board.set_max_plies(10);
    assert_eq!(board.winner(), None);
    play(&mut board, "e1e2");
    assert!(board.is_over());
    assert_eq!(board.winner(), Some(Some(Color::Black)));
    assert_eq!(board.score(), 1);
    // White ahead.
    let mut board = position("e1", "i9")
        .with_state(Color::Black, 0, 3, 10)
        .expect("state");
    board.set_max_plies(10);
    assert_eq!(board.winner(), Some(Some(Color::White)));
    // Equal: a draw.
    let mut board = position("e1", "i9")
        .with_state(Color::White, 1, 1, 10)
        .expect("state");
    board.set_max_plies(10);
    assert_eq!(board.winner(), Some(None));
    assert_eq!(board.score(), 0);
    // A whole game with a short cap.
    let mut game = Game::with_max_plies(Start::Belgian, 4);
    let mut moves = Vec::new();
    while !game.is_over() {
        game.legal_moves(&mut moves);
        game.play(game.to_move(), moves[0])
            .expect("generated moves are legal");
    }
    assert_eq!(game.ply(), 4);
    assert!(game.winner().is_some());
}

#[test]
fn no_legal_move_is_a_draw() {
    // A lone black marble walled in by white ones cannot move (1 v 1 never pushes).
    let board = position("a1", "a2 b1 b2");
    assert!(!board.has_legal_move());
    assert!(board.is_over());
    assert_eq!(board.winner(), Some(None));
}

#[test]
fn notation_round_trips() {
    let mut game = Game::new(Start::Belgian);
    let mut moves = Vec::new();
    for _ in 0..40 {
        game.legal_moves(&mut moves);
        for &mv in &moves {
            let text = mv.to_string();
            assert_eq!(game.parse_move(game.to_move(), &text), Ok(mv), "{text}");
            assert_eq!(
                game.parse_move(game.to_move(), &text.to_uppercase()),
                Ok(mv),
                "{text}"
            );
        }
        let Some(&mv) = moves.get(moves.len() / 2) else {
            break;
        };
        game.play_unchecked(mv);
    }
}

#[test]
fn both_broadside_spellings() {
    let board = position("c3 c4", "");
    let forward = ishi::abalone::parse_move(&board, Color::Black, "c3c4d4").expect("legal");
    let backward = ishi::abalone::parse_move(&board, Color::Black, "c4c3d5").expect("legal");
    let shouted = ishi::abalone::parse_move(&board, Color::Black, "C4C3D5").expect("legal");
    assert_eq!(forward, backward);
    assert_eq!(forward, shouted);
    assert_eq!(backward.to_string(), "c3c4d4");
    // Three marbles, written from the top end.
    let board = position("c3 d3 e3", "");
    let mv = ishi::abalone::parse_move(&board, Color::Black, "e3c3e4").expect("legal");
    assert_eq!(mv.to_string(), "c3e3c4");
    assert_eq!(mv.length(), 3);
    // The inline length is the run of own marbles ahead of the trailing one.
    let board = position("a1 a2 a3", "");
    let three = ishi::abalone::parse_move(&board, Color::Black, "c3d3");
    assert_eq!(three, Err(ParseMoveError::Illegal(IllegalMove::NotOwnLine)));
    let two = ishi::abalone::parse_move(&board, Color::Black, "a2a3").expect("legal");
    assert_eq!(two.length(), 2);
}

#[test]
fn every_illegal_reason() {
    let board = position("e1 e2 a4 a5 c3 c4", "e3 e4 d4");
    assert_eq!(illegal(&board, "g5g6"), IllegalMove::NotOwnLine);
    assert_eq!(illegal(&board, "e3e2"), IllegalMove::NotOwnLine);
    assert_eq!(illegal(&board, "c3c4d4"), IllegalMove::Blocked);
    assert_eq!(illegal(&board, "a4a3b4"), IllegalMove::NotOwnLine);
    assert_eq!(illegal(&board, "e1e2"), IllegalMove::NoSumito);
    assert_eq!(illegal(&board, "a4a5"), IllegalMove::OwnMarbleOff);
    let four = position("e1 e2 e3 e4", "");
    assert_eq!(illegal(&four, "e1e2"), IllegalMove::Blocked);
    match ishi::abalone::parse_move(&board, Color::White, "e4e5") {
        Err(ParseMoveError::Illegal(IllegalMove::WrongTurn)) => {}
        other => panic!("expected wrong_turn, got {other:?}"),
    }
    let over = board.with_state(Color::Black, 6, 0, 0).expect("state");
    assert_eq!(illegal(&over, "e1e2"), IllegalMove::GameOver);
    for reason in IllegalMove::ALL {
        assert_eq!(reason.to_string(), reason.reason());
    }
}

#[test]
fn syntax_errors() {
    let board = Board::new(Start::Belgian);
    for text in [
        "", "a1", "a1a", "a1a3", "z1z2", "a6a5", "a1a2a", "a1a2a3", "a1a3a2", "a1a4b1", "a1a2c3",
        "a1a1b1", "é1a2",
    ] {
        match ishi::abalone::parse_move(&board, Color::Black, text) {
            Err(ParseMoveError::Syntax(_)) => {}
            other => panic!("{text:?}: expected a syntax error, got {other:?}"),
        }
    }
}

#[test]
fn showboard_draws_the_hexagon() {
    let text = Board::new(Start::Belgian).showboard();
    assert!(
        text.starts_with("    i O O . X X\n   h O O O X X X\n  g . O O . X X .\n"),
        "{text}"
    );
    assert!(text.contains("\ne . . . . . . . . .\n"), "{text}");
    assert!(
        text.contains("    a X X . O O 6\n       1 2 3 4 5\n"),
        "{text}"
    );
    assert!(text.contains("black to move"), "{text}");
}
