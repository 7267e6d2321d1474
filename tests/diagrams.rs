//! Board-diagram tests of the rules core under each named ruleset (Chinese, Japanese,
//! Tromp-Taylor, AGA, New Zealand, capture Go): captures (several chains at once, a move that
//! looks like suicide but captures), suicide (a lone stone never, a chain only where the rules
//! allow it), simple ko (the ban, its lifting, a two-stone capture that is no ko), superko (a
//! triple ko whose sixth capture repeats the start, and a send-two-return-one where positional
//! and situational superko disagree), and scoring (area and territory with dead stones and
//! prisoners, a seki whose shared liberties count for nobody, handicap compensation).
//!
//! Diagrams are written top row first: `X` black, `O` white, `.` empty. Vertices follow GTP
//! (`A1` bottom left, no `I`).

mod common;

use common::{game_from_diagram, play_line, point, stones_text};
use ishi::color::Color;
use ishi::go::rules::board::{Board, IllegalMove};
use ishi::go::rules::game::Game;
use ishi::go::rules::point::Move;
use ishi::go::rules::rules::{KoRule, Rules, Scoring};
use ishi::go::rules::score::{score, Score, StoneStatus};

/// Every named ruleset, capture Go with a target of one stone.
fn all_rules() -> [Rules; 6] {
    [
        Rules::chinese(),
        Rules::japanese(),
        Rules::tromp_taylor(),
        Rules::aga(),
        Rules::new_zealand(),
        Rules::capture(1),
    ]
}

fn verdict(game: &Game, color: Color, vertex: &str) -> Result<(), IllegalMove> {
    game.check_move(color, Move::Place(point(vertex, game.size())))
}

/// Checks the board after the moves against a diagram, and its bookkeeping.
fn assert_stones(game: &Game, expected: &str, context: &str) {
    let expected: String = expected
        .lines()
        .map(|line| line.split_whitespace().collect::<String>())
        .filter(|line| !line.is_empty())
        .map(|line| format!("{line}\n"))
        .collect();
    assert_eq!(stones_text(game.board()), expected, "{context}");
    game.board()
        .check_consistency()
        .unwrap_or_else(|problem| panic!("{context}: {problem}"));
}

#[test]
fn one_move_captures_two_chains() {
    for rules in all_rules() {
        let mut game = game_from_diagram(
            ". . . . .
             . X X X .
             X O . O X
             . X . X .
             . . . . .",
            rules,
            Color::Black,
        );
        play_line(&mut game, "C3");
        assert_stones(
            &game,
            ". . . . .
             . X X X .
             X . X . X
             . X . X .
             . . . . .",
            &format!("{rules}"),
        );
        assert_eq!(game.board().captures(Color::Black), 2, "{rules}");
        assert_eq!(game.board().last_captured(), 2, "{rules}");
        // Capturing two stones sets no ko: white may play at once on either point.
        assert_eq!(game.board().ko_point_for(Color::White), None, "{rules}");
        assert_eq!(game.board().liberties(point("C3", 5)), 8, "{rules}");
        if rules.capture_target().is_some() {
            assert_eq!(game.capture_winner(), Some(Color::Black));
        } else {
            assert_eq!(game.capture_winner(), None);
        }
    }
}

#[test]
fn a_move_without_liberties_that_captures_is_no_suicide() {
    for rules in all_rules() {
        let game = game_from_diagram(
            ". . . . .
             . . . . .
             X . . . .
             O X . . .
             . O X . .",
            rules,
            Color::Black,
        );
        assert_eq!(verdict(&game, Color::Black, "A1"), Ok(()), "{rules}");
        let mut game = game;
        play_line(&mut game, "A1");
        assert_stones(
            &game,
            ". . . . .
             . . . . .
             X . . . .
             . X . . .
             X . X . .",
            &format!("{rules}"),
        );
        assert_eq!(game.board().captures(Color::Black), 2);
    }
}

#[test]
fn a_lone_stone_may_never_commit_suicide() {
    for rules in all_rules() {
        let game = game_from_diagram(
            ". . . . .
             . . . . .
             . . . . .
             O . . . .
             . O . . .",
            rules,
            Color::Black,
        );
        assert_eq!(
            verdict(&game, Color::Black, "A1"),
            Err(IllegalMove::Suicide),
            "{rules}"
        );
        // White may fill its own point.
        assert_eq!(verdict(&game, Color::White, "A1"), Ok(()), "{rules}");
    }
}

#[test]
fn a_chain_may_commit_suicide_only_where_the_rules_allow_it() {
    for rules in all_rules() {
        let mut game = game_from_diagram(
            ". . . . .
             . . . . .
             O O . . .
             X O . . .
             . O . . .",
            rules,
            Color::Black,
        );
        let expected = if rules.suicide_allowed {
            Ok(())
        } else {
            Err(IllegalMove::Suicide)
        };
        assert_eq!(verdict(&game, Color::Black, "A1"), expected, "{rules}");
        if rules.suicide_allowed {
            play_line(&mut game, "A1");
            assert_stones(
                &game,
                ". . . . .
                 . . . . .
                 O O . . .
                 . O . . .
                 . O . . .",
                &format!("{rules}"),
            );
            // The suicided stones count as captured by white.
            assert_eq!(game.board().captures(Color::White), 2, "{rules}");
            assert_eq!(game.to_move(), Color::White);
            game.undo().unwrap();
            assert_eq!(game.board().stone(point("A2", 5)), Some(Color::Black));
        }
    }
}

/// An edge ko at B1/C1 on 5x5: black takes at C1, capturing B1.
const EDGE_KO: &str = "
    . . . . .
    . . . . .
    . . . . .
    . X O . .
    X O . O .";

#[test]
fn simple_ko_bans_the_immediate_recapture_only() {
    for rules in all_rules() {
        let mut game = game_from_diagram(EDGE_KO, rules, Color::Black);
        play_line(&mut game, "C1");
        assert_eq!(game.board().captures(Color::Black), 1);
        assert_eq!(
            game.board().ko_point_for(Color::White),
            Some(point("B1", 5)),
            "{rules}"
        );
        assert_eq!(
            verdict(&game, Color::White, "B1"),
            Err(IllegalMove::Ko),
            "{rules}"
        );
        // A ko threat and its answer lift the ban under every ruleset.
        play_line(&mut game, "E5 E4 B1");
        assert_stones(
            &game,
            ". . . . O
             . . . . X
             . . . . .
             . X O . .
             X O . O .",
            &format!("{rules}"),
        );
        assert_eq!(game.board().captures(Color::White), 1, "{rules}");
        // Black may fill the ko instead of retaking.
        let mut filled = game_from_diagram(EDGE_KO, rules, Color::Black);
        play_line(&mut filled, "C1 E5");
        assert_eq!(verdict(&filled, Color::Black, "B1"), Ok(()), "{rules}");
    }
}

#[test]
fn passes_lift_simple_ko_but_not_superko() {
    for rules in all_rules() {
        let mut game = game_from_diagram(EDGE_KO, rules, Color::Black);
        play_line(&mut game, "C1 pass pass");
        // Retaking now recreates the board, with black to move, of before C1.
        let expected = match rules.ko {
            KoRule::Simple => Ok(()),
            _ => Err(IllegalMove::Superko),
        };
        assert_eq!(verdict(&game, Color::White, "B1"), expected, "{rules}");
    }
}

#[test]
fn taking_two_stones_is_no_ko() {
    for rules in all_rules() {
        let mut game = game_from_diagram(
            ". . . . .
             . X X O .
             X O O . O
             . X X O .
             . . . . .",
            rules,
            Color::Black,
        );
        play_line(&mut game, "D3");
        assert_eq!(game.board().captures(Color::Black), 2, "{rules}");
        assert_eq!(game.board().ko_point_for(Color::White), None, "{rules}");
        // White takes back one stone at once: legal, it is not the same position.
        assert_eq!(verdict(&game, Color::White, "C3"), Ok(()), "{rules}");
        play_line(&mut game, "C3");
        assert_eq!(game.board().stone(point("D3", 5)), None, "{rules}");
    }
}

/// Three edge kos on 9x9. Black takes A (C1), white takes B (C9), black takes C (H1), then
/// each retakes in turn; the sixth capture would recreate the starting board with black to
/// move.
const TRIPLE_KO: &str = "
    O X . X . . . . .
    . O X . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . X O . . . X O .
    X O . O . X O . O";

#[test]
fn a_triple_ko_cycle_is_banned_by_superko() {
    for rules in all_rules() {
        let mut game = game_from_diagram(TRIPLE_KO, rules, Color::Black);
        let start = game.board().clone();
        play_line(&mut game, "C1 C9 H1 B1 B9");
        assert_eq!(game.board().captures(Color::Black), 3, "{rules}");
        assert_eq!(game.board().captures(Color::White), 2, "{rules}");
        // No simple-ko ban on G1: the last capture was elsewhere.
        assert_eq!(
            game.board().ko_point_for(Color::White),
            Some(point("C9", 9))
        );
        let expected = match rules.ko {
            KoRule::Simple => Ok(()),
            _ => Err(IllegalMove::Superko),
        };
        assert_eq!(verdict(&game, Color::White, "G1"), expected, "{rules}");
        if expected.is_ok() {
            play_line(&mut game, "G1");
            let mut cycled = game.board().clone();
            cycled.set_captures(0, 0);
            assert_eq!(stones_text(&cycled), stones_text(&start), "{rules}");
        }
    }
}

/// Send two, return one on 5x5: white C5 puts two stones in atari, black A5 takes them, and
/// white B5 takes one back, recreating the board of before C5 but with black to move.
const SEND_TWO_RETURN_ONE: &str = "
    . O . X .
    O X X X .
    O X . . .
    O X . . .
    . X . . .";

#[test]
fn send_two_return_one_separates_positional_from_situational_superko() {
    for rules in all_rules() {
        let mut game = game_from_diagram(SEND_TWO_RETURN_ONE, rules, Color::White);
        let start = stones_text(game.board());
        play_line(&mut game, "C5 A5");
        assert_eq!(game.board().captures(Color::Black), 2, "{rules}");
        assert_eq!(game.board().ko_point_for(Color::White), None, "{rules}");
        let expected = match rules.ko {
            KoRule::Positional => Err(IllegalMove::Superko),
            _ => Ok(()),
        };
        assert_eq!(verdict(&game, Color::White, "B5"), expected, "{rules}");
        if expected.is_ok() {
            play_line(&mut game, "B5");
            assert_eq!(stones_text(game.board()), start, "{rules}");
            // If black now passes, white's C5 would repeat the whole situation after the
            // first C5 (same board, black to move): situational superko bans that too.
            play_line(&mut game, "pass");
            let expected = match rules.ko {
                KoRule::Simple => Ok(()),
                _ => Err(IllegalMove::Superko),
            };
            assert_eq!(verdict(&game, Color::White, "C5"), expected, "{rules}");
        }
    }
}

/// Black owns columns A-C, white D-G; the white stone B5 and the black stone F5 are dead.
const DEAD_STONES: &str = "
    . . X O . . .
    . . X O . . .
    . O X O . X .
    . . X O . . .
    . . X O . . .
    . . X O . . .
    . . X O . . .";

fn dead_stones_position() -> (Board, StoneStatus) {
    let mut board = Board::from_diagram(DEAD_STONES).unwrap();
    board.set_captures(5, 1);
    let mut status = StoneStatus::all_alive(&board);
    for vertex in ["B5", "F5"] {
        status.dead[point(vertex, 7).index()] = true;
    }
    (board, status)
}

#[test]
fn area_and_territory_count_dead_stones_and_prisoners() {
    let (board, status) = dead_stones_position();
    for rules in all_rules() {
        let result = score(&board, &status, &rules, 7.5, 0);
        let expected = if rules.scoring == Scoring::Area {
            // Stones and surrounded points, dead stones removed: 21 for black, 28 for white.
            Score {
                black: 21.0,
                white: 35.5,
            }
        } else {
            // Territory (14 and 21 points, dead stones' points included), one dead stone
            // each as prisoner, and the prisoners taken during the game (5 and 1).
            Score {
                black: 14.0 + 1.0 + 5.0,
                white: 21.0 + 1.0 + 1.0 + 7.5,
            }
        };
        assert_eq!(result, expected, "{rules}");
    }
    assert_eq!(
        score(&board, &status, &Rules::chinese(), 7.5, 0).to_string(),
        "W+14.5"
    );
    assert_eq!(
        score(&board, &status, &Rules::japanese(), 7.5, 0).to_string(),
        "W+10.5"
    );
    // With every stone alive, the dead stones' regions become dame under area counting.
    let alive = StoneStatus::all_alive(&board);
    let result = score(&board, &alive, &Rules::tromp_taylor(), 7.5, 0);
    assert_eq!(result.black, 8.0, "column C and F5");
    assert_eq!(result.white, 8.0 + 7.5, "column D and B5");
}

#[test]
fn handicap_compensation_follows_the_ruleset() {
    let (board, status) = dead_stones_position();
    for (rules, bonus) in [
        (Rules::chinese(), 3.0),
        (Rules::aga(), 2.0),
        (Rules::tromp_taylor(), 0.0),
        (Rules::new_zealand(), 0.0),
        (Rules::japanese(), 0.0),
    ] {
        let without = score(&board, &status, &rules, 0.5, 0);
        let with = score(&board, &status, &rules, 0.5, 3);
        assert_eq!(with.white - without.white, bonus, "{rules}");
        assert_eq!(with.black, without.black, "{rules}");
    }
}

/// A seki on the bottom edge: the black chain B1-B2-C2-D2-E2-F2-F1 and the white stone D1
/// share the liberties C1 and E1 and have no others; whoever fills one is captured. The white
/// wall around them owns the top of the board.
const SEKI: &str = "
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    O O O O O O O
    O X X X X X O
    O X . O . X O";

#[test]
fn seki_points_count_for_nobody() {
    let board = Board::from_diagram(SEKI).unwrap();
    let mut game = game_from_diagram(SEKI, Rules::japanese(), Color::Black);
    // Either side filling a shared liberty puts itself in atari and is captured.
    play_line(&mut game, "C1 E1");
    assert_eq!(game.board().captures(Color::White), 8);
    let mut game = game_from_diagram(SEKI, Rules::japanese(), Color::White);
    play_line(&mut game, "C1 E1");
    assert_eq!(game.board().captures(Color::Black), 2);

    let mut status = StoneStatus::all_alive(&board);
    for vertex in ["B1", "B2", "C2", "D2", "E2", "F2", "F1", "D1"] {
        status.seki[point(vertex, 7).index()] = true;
    }
    for rules in all_rules() {
        let result = score(&board, &status, &rules, 0.5, 0);
        let expected = if rules.scoring == Scoring::Area {
            // Black: its 7 stones. White: D1, the wall (11) and the 28 points above it.
            // C1 and E1 touch both colours: dame.
            Score {
                black: 7.0,
                white: 40.5,
            }
        } else {
            // Only the 28 points above the wall are territory: C1 and E1 touch the seki.
            Score {
                black: 0.0,
                white: 28.5,
            }
        };
        assert_eq!(result, expected, "{rules}");
    }
}

#[test]
fn an_empty_board_scores_the_komi() {
    let board = Board::new(9);
    for rules in all_rules() {
        let result = score(&board, &StoneStatus::all_alive(&board), &rules, 6.5, 0);
        assert_eq!(result.to_string(), "W+6.5", "{rules}");
    }
}

#[test]
fn setup_replaces_and_removes_stones_and_cannot_follow_moves() {
    let mut game = game_from_diagram(
        ". X O
         X O .
         . . .",
        Rules::chinese(),
        Color::Black,
    );
    game.setup(&[
        (Color::White, point("B3", 3)),
        (Color::Black, point("C1", 3)),
    ])
    .unwrap();
    game.setup_empty(&[point("A2", 3)]).unwrap();
    assert_stones(
        &game,
        ". O O
         . O .
         . . X",
        "after setup",
    );
    assert_eq!(game.board().chain_size(point("B2", 3)), 3);
    assert_eq!(game.board().liberties(point("B2", 3)), 4);
    play_line(&mut game, "A1");
    assert!(game.setup(&[(Color::Black, point("A3", 3))]).is_err());
    assert!(game.setup_empty(&[point("C1", 3)]).is_err());
    game.undo().unwrap();
    assert!(game.undo().is_err(), "setup stones are not undoable");
    assert_eq!(game.board().stone(point("C1", 3)), Some(Color::Black));
}
