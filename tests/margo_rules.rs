//! The unit cases of the Margo rule sheet (`margo-abalone.md` §1 and §4.2), each on a board
//! diagram: levels from 0 up, each level's rows top row first, `B` black, `W` white.

use ishi::color::Color;
use ishi::margo::notation::{board_text, format_point, format_record};
use ishi::margo::{Game, IllegalMove, Move, Point, Position, MAX_SIZE, MIN_SIZE};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn diagram(size: usize, levels: &[&str]) -> Position {
    Position::from_diagram(size, levels).unwrap_or_else(|error| panic!("bad diagram: {error}"))
}

fn at(position: &Position, level: usize, row: usize, column: usize) -> Point {
    position
        .geometry()
        .point(level, row, column)
        .unwrap_or_else(|| panic!("no point ({level},{row},{column})"))
}

fn parsed(game: &Game, text: &str) -> Move {
    game.parse_move(text)
        .unwrap_or_else(|error| panic!("cannot parse {text}: {error}"))
}

#[test]
fn a_capture_leaves_zombies_under_an_enemy_ball() {
    let start = diagram(
        4,
        &[
            ". . . . / . W W . / W B B . / . W W .",
            ". . . / . W . / . B .",
        ],
    );
    let mut game = Game::from_position(start, Some(Color::White));
    let mv = parsed(&game, "G3");
    assert_eq!(mv, Move::Place(at(&start, 0, 1, 3)));
    let report = game.play(Color::White, mv).expect("legal capture");
    assert_eq!(report.captured, 1);
    assert_eq!(report.captured_by_color, [1, 0]);
    assert_eq!(report.zombies_made, 2);
    assert!(!report.revealed_capture);
    let position = game.position();
    assert_eq!(position.get(at(position, 1, 0, 1)), None);
    for column in [1, 2] {
        let zombie = at(position, 0, 1, column);
        assert_eq!(position.get(zombie), Some(Color::Black));
        assert!(position.zombies()[zombie.index()]);
    }
    assert_eq!(game.ball_counts(), [2, 7]);
    assert!(board_text(position).contains("O x x O"));
    game.check_consistency().expect("consistent");

    // Suicide into the zombie group: a black ball resting on the zombies gains no freedom.
    let onto_zombies = parsed(&game, "D2");
    assert_eq!(onto_zombies, Move::Place(at(position, 1, 0, 1)));
    assert_eq!(
        game.check(Color::Black, onto_zombies),
        Err(IllegalMove::Suicide)
    );
    assert_eq!(
        game.play(Color::Black, onto_zombies),
        Err(IllegalMove::Suicide)
    );
    // A ball with a freedom of its own is fine.
    assert_eq!(game.check(Color::Black, parsed(&game, "G7")), Ok(()));
    assert_eq!(
        game.check(Color::White, parsed(&game, "A1")),
        Err(IllegalMove::WrongTurn)
    );
}

#[test]
fn an_overpass_of_two_enemy_balls_cuts_the_contact_under_it() {
    let cut = diagram(
        4,
        &[
            ". . . . / . W W . / . B B . / . W W .",
            ". . . / . W . / . W .",
        ],
    );
    let left = at(&cut, 0, 1, 1);
    let right = at(&cut, 0, 1, 2);
    assert_eq!(cut.group(left), vec![left]);
    assert_eq!(cut.group(right), vec![right]);
    // The two white straddlers touch each other across the cut.
    let lower = at(&cut, 1, 0, 1);
    let upper = at(&cut, 1, 1, 1);
    assert!(cut.group(lower).contains(&upper));

    // One friendly straddler: no cut, and the straddler joins the group.
    let joined = diagram(
        4,
        &[
            ". . . . / . W W . / . B B . / . W W .",
            ". . . / . W . / . B .",
        ],
    );
    assert_eq!(joined.group(left), vec![left, right, at(&joined, 1, 0, 1)]);
}

#[test]
fn burying_hides_a_ball_and_splits_its_group() {
    let start = diagram(
        4,
        &[
            ". . . . / W W W . / B B B . / W W W .",
            ". . . / W B . / B W .",
        ],
    );
    let left = at(&start, 0, 1, 0);
    let middle = at(&start, 0, 1, 1);
    let right = at(&start, 0, 1, 2);
    assert!(start.group(left).contains(&right));
    let mut game = Game::from_position(start, Some(Color::White));
    let mv = parsed(&game, "C3");
    assert_eq!(mv, Move::Place(at(&start, 2, 0, 0)));
    let report = game.play(Color::White, mv).expect("legal");
    let position = game.position();
    assert!(position.is_buried(middle));
    assert!(position.group(middle).is_empty());
    assert_eq!(position.group(left), vec![left, at(position, 1, 0, 0)]);
    assert_eq!(position.group(right), vec![right, at(position, 1, 1, 1)]);
    // The left part lost its freedoms with the split: captured, but everything is pinned.
    assert_eq!(report.captured, 0);
    assert_eq!(report.zombies_made, 2);
    assert!(position.group_has_freedom(right));
    assert!(!position.group_has_freedom(left));
    let text = board_text(position);
    assert!(text.contains('#'), "buried black ball shown:\n{text}");
    assert_eq!(game.ball_counts(), [5, 9]);
    game.check_consistency().expect("consistent");
}

#[test]
fn the_revealed_capture_of_the_sheet() {
    let start = diagram(
        4,
        &[
            "W W W . / B B . W / W W B B / B B B .",
            "W . . / B . . / . . .",
        ],
    );
    let mut game = Game::from_position(start, Some(Color::White));
    let mv = parsed(&game, "E5");
    assert_eq!(mv, Move::Place(at(&start, 0, 2, 2)));
    let report = game.play(Color::White, mv).expect("legal");
    let position = game.position();
    // The black group of the level-1 ball dies; the two balls under White's level-1 ball stay.
    assert_eq!(position.get(at(position, 1, 1, 0)), None);
    assert_eq!(position.get(at(position, 0, 2, 0)), Some(Color::Black));
    assert_eq!(position.get(at(position, 0, 2, 1)), Some(Color::Black));
    // Un-pinned, White's freedomless pair is captured too (MB App. A).
    assert_eq!(position.get(at(position, 0, 1, 0)), None);
    assert_eq!(position.get(at(position, 0, 1, 1)), None);
    assert_eq!(report.captured_by_color, [1, 2]);
    assert!(report.revealed_capture);
    // The two black balls that stayed have their freedoms back.
    assert!(position.group_has_freedom(at(position, 0, 2, 0)));
    game.check_consistency().expect("consistent");
}

#[test]
fn superko_forbids_the_same_position_with_the_same_side_to_move() {
    let ko = diagram(4, &[". . . . / . B W . / B W . W / . B W ."]);
    let mut game = Game::from_position(ko, Some(Color::Black));
    let take = parsed(&game, "E3");
    let report = game.play(Color::Black, take).expect("ko capture");
    assert_eq!(report.captured, 1);
    let retake = parsed(&game, "C3");
    assert!(game
        .position()
        .is_legal_placement(Color::White, at(&ko, 0, 1, 1)));
    assert_eq!(game.check(Color::White, retake), Err(IllegalMove::Superko));
    let mut legal = Vec::new();
    game.legal_moves(Color::White, &mut legal);
    assert!(!legal.contains(&retake));
    assert!(game.repeats_position_either_side(Color::White, retake));
}

#[test]
fn the_same_board_with_the_other_side_to_move_is_allowed() {
    let start = diagram(
        5,
        &[". . . . . / . W B B . / W B . W B / . W B B . / . . . . ."],
    );
    let mut game = Game::from_position(start, Some(Color::White));
    let first = game
        .play(Color::White, parsed(&game, "E5"))
        .expect("capture");
    assert_eq!(first.captured_by_color, [1, 0]);
    let second = game
        .play(Color::Black, parsed(&game, "C5"))
        .expect("capture");
    assert_eq!(second.captured_by_color, [0, 2]);
    let back = parsed(&game, "G5");
    // The board of the start comes back, with Black (not White) to move: legal here,
    // refused by Jocly's stricter rule.
    assert!(game.repeats_position_either_side(Color::White, back));
    let report = game
        .play(Color::White, back)
        .expect("legal under situational superko");
    assert_eq!(report.captured, 0);
    assert_eq!(*game.position(), start);
    assert_ne!(
        game.hash(),
        Game::from_position(start, Some(Color::White)).hash()
    );
    game.check_consistency().expect("consistent");
}

#[test]
fn the_game_ends_when_the_mover_has_no_legal_move() {
    let end = diagram(
        4,
        &[
            "W W W . / W B B W / W B B W / W W W .",
            ". . . / W W . / W W .",
            ". . / W .",
        ],
    );
    let game = Game::from_position(end, Some(Color::Black));
    let mut legal = Vec::new();
    game.legal_moves(Color::Black, &mut legal);
    assert_eq!(legal, Vec::new());
    assert!(game.is_over());
    let buried = at(&end, 0, 1, 1);
    assert!(end.is_buried(buried));
    let zombies = end.zombies();
    assert_eq!(zombies.iter().filter(|&&zombie| zombie).count(), 3);
    // Zombies and the buried ball count.
    assert_eq!(game.ball_counts(), [4, 15]);
    assert_eq!(game.score(), 11);
    assert_eq!(game.winner(), Some(Color::White));
    assert_eq!(
        game.check(Color::Black, parsed(&game, "G1")),
        Err(IllegalMove::GameOver)
    );
    assert_eq!(
        game.check(Color::White, parsed(&game, "G1")),
        Err(IllegalMove::GameOver)
    );
    // White is not out of moves.
    let white = Game::from_position(end, Some(Color::White));
    assert!(!white.is_over());
}

#[test]
fn a_platform_of_mixed_colours_is_playable() {
    let mixed = diagram(4, &[". . . . / . . . . / B W . . / W B . ."]);
    let top = at(&mixed, 1, 0, 0);
    for color in Color::ALL {
        let game = Game::from_position(mixed, Some(color));
        let mv = parsed(&game, "B2");
        assert_eq!(mv, Move::Place(top));
        assert_eq!(game.check(color, mv), Ok(()));
    }
    let game = Game::from_position(mixed, Some(Color::Black));
    assert_eq!(
        game.check(Color::Black, parsed(&game, "D2")),
        Err(IllegalMove::NoPlatform)
    );
    assert_eq!(
        game.check(Color::Black, parsed(&game, "A1")),
        Err(IllegalMove::Occupied)
    );
}

#[test]
fn notation_round_trips_through_random_games() {
    for size in MIN_SIZE..=MAX_SIZE {
        let mut rng = SmallRng::seed_from_u64(size as u64);
        let mut game = Game::new(size).expect("size");
        game.set_swap_enabled(false);
        let mut legal = Vec::new();
        let mut stacked = 0;
        for _ in 0..(size * size * 2) {
            let color = game.mover_or(Color::White);
            game.legal_moves(color, &mut legal);
            if legal.is_empty() {
                break;
            }
            for &mv in &legal {
                let text = game.format_move(mv);
                assert_eq!(text, text.to_ascii_uppercase());
                assert_eq!(game.parse_move(&text), Ok(mv), "{text}");
                assert_eq!(game.parse_move(&text.to_ascii_lowercase()), Ok(mv));
                if let Move::Place(point) = mv {
                    if game.position().geometry().coordinates(point).level > 0 {
                        stacked += 1;
                    }
                }
            }
            let mv = legal[rng.gen_range(0..legal.len())];
            game.play(color, mv).expect("listed as legal");
        }
        assert!(stacked > 0, "no stacked move seen on {size}x{size}");
    }
}

#[test]
fn swap_recolours_the_first_ball_and_is_legal_only_as_move_two() {
    let mut game = Game::new(6).expect("size");
    assert_eq!(game.to_move(), None);
    assert_eq!(
        game.check(Color::Black, Move::Swap),
        Err(IllegalMove::SwapNotAllowed)
    );
    assert_eq!(
        game.check(Color::White, Move::Swap),
        Err(IllegalMove::SwapNotAllowed)
    );
    let opening = parsed(&game, "E7");
    game.play(Color::White, opening).expect("first move");
    assert_eq!(game.to_move(), Some(Color::Black));
    assert_eq!(
        game.check(Color::White, opening),
        Err(IllegalMove::WrongTurn)
    );
    let mut legal = Vec::new();
    game.legal_moves(Color::Black, &mut legal);
    assert_eq!(legal.last(), Some(&Move::Swap));
    assert_eq!(legal.len(), 36);
    let before = game.hash();
    game.play(Color::Black, parsed(&game, "swap-pieces"))
        .expect("swap");
    let Move::Place(point) = opening else {
        panic!("not a placement");
    };
    assert_eq!(game.position().get(point), Some(Color::Black));
    assert_eq!(game.ball_counts(), [1, 0]);
    assert_eq!(game.to_move(), Some(Color::White));
    assert_ne!(game.hash(), before);
    assert_eq!(
        game.check(Color::White, Move::Swap),
        Err(IllegalMove::SwapNotAllowed)
    );
    game.play(Color::White, parsed(&game, "C3"))
        .expect("third move");
    assert_eq!(
        game.check(Color::Black, Move::Swap),
        Err(IllegalMove::SwapNotAllowed)
    );
    assert_eq!(
        format_record(game.position().geometry(), game.history()),
        "1 E7* 2 C3"
    );
    game.check_consistency().expect("consistent");
    assert!(game.undo());
    assert!(game.undo());
    assert_eq!(game.hash(), before);
    assert_eq!(game.position().get(point), Some(Color::White));
    game.set_swap_enabled(false);
    assert_eq!(
        game.check(Color::Black, Move::Swap),
        Err(IllegalMove::SwapNotAllowed)
    );
    assert!(game.undo());
    assert!(!game.undo());
    assert_eq!(game.to_move(), None);

    // Either colour may open.
    game.play(Color::Black, opening).expect("black opens");
    assert_eq!(
        game.check(Color::Black, parsed(&game, "A1")),
        Err(IllegalMove::WrongTurn)
    );
    assert_eq!(
        game.check(Color::White, Move::Swap),
        Err(IllegalMove::SwapNotAllowed)
    );
    game.set_swap_enabled(true);
    game.play(Color::White, Move::Swap).expect("white swaps");
    assert_eq!(game.position().get(point), Some(Color::White));
    assert_eq!(game.to_move(), Some(Color::Black));
}

#[test]
fn showboard_names_levels_and_coordinates() {
    let game = Game::new(6).expect("size");
    let text = board_text(game.position());
    assert!(text.starts_with("level 0\n    A C E G I K\n 11"));
    let geometry = game.position().geometry();
    assert_eq!(format_point(geometry, Point(0)), "A1");
}
