//! The computer opponent of a game app, through the real binary, for every game: levels at
//! run time (`ishi-level`), hints at any level (`ishi-hint`) that leave the game alone, and
//! why a move is illegal (`ishi-illegal_reason`). The hint's independence is checked the
//! strict way: in deterministic mode, a game whose moves are interleaved with hints of every
//! level plays exactly the moves of the same game without them.

mod gtp_support;

use gtp_support::{scratch_folder, EngineProcess};

/// An engine of `game` in deterministic mode (one thread, seed 1), without `--playouts`,
/// which would override the levels (easy 300 playouts, medium 5,000, hard the clock).
fn engine(game: &str, folder_name: &str, extra: &[&str]) -> EngineProcess {
    let mut arguments = vec!["--game".to_string(), game.to_string()];
    arguments.extend(extra.iter().map(|s| s.to_string()));
    EngineProcess::start(&arguments, &scratch_folder(folder_name))
}

fn answer(engine: &mut EngineProcess, line: &str) -> String {
    let answer = engine
        .command(line)
        .unwrap_or_else(|message| panic!("{line}: {message}"));
    assert!(answer.is_success(), "{line}: {:?}", answer.raw);
    answer.response().to_string()
}

fn failure(engine: &mut EngineProcess, line: &str) -> String {
    let answer = engine
        .command(line)
        .unwrap_or_else(|message| panic!("{line}: {message}"));
    assert!(!answer.is_success(), "{line} should fail: {:?}", answer.raw);
    answer.response().to_string()
}

/// Plays `moves` generated moves at the easy level; with `hints`, asks for easy, medium and
/// easy again before each move (hard thinks for the clock's time, so it would not repeat).
/// Returns the moves.
fn play_with_or_without_hints(game: &str, hints: bool, moves: usize) -> Vec<String> {
    let name = format!("embedding-{game}-{hints}");
    let mut engine = engine(game, &name, &["--level", "easy"]);
    let mut played = Vec::new();
    let mut color = "b";
    for _ in 0..moves {
        if hints {
            answer(&mut engine, &format!("ishi-hint {color} easy"));
            answer(&mut engine, &format!("ishi-hint {color} medium"));
            answer(&mut engine, &format!("ishi-hint {color} easy"));
            assert_eq!(answer(&mut engine, "ishi-level"), "easy");
        }
        played.push(answer(&mut engine, &format!("genmove {color}")));
        color = if color == "b" { "w" } else { "b" };
    }
    engine.quit().expect("quit");
    played
}

#[test]
fn hints_leave_the_game_alone_in_every_game() {
    for game in ["go", "margo", "abalone"] {
        let plain = play_with_or_without_hints(game, false, 6);
        let hinted = play_with_or_without_hints(game, true, 6);
        assert_eq!(plain, hinted, "{game}: hints changed the moves");
    }
}

#[test]
fn a_hint_is_the_move_its_level_would_play() {
    for game in ["go", "margo", "abalone"] {
        let mut playing_easy = engine(game, &format!("hint-level-{game}-a"), &["--level", "easy"]);
        let hint = answer(&mut playing_easy, "ishi-hint b medium");
        playing_easy.quit().expect("quit");
        let mut playing_medium = engine(
            game,
            &format!("hint-level-{game}-b"),
            &["--level", "medium"],
        );
        let chosen = answer(&mut playing_medium, "genmove b");
        playing_medium.quit().expect("quit");
        assert_eq!(
            hint, chosen,
            "{game}: the medium hint differs from medium's move"
        );
    }
}

#[test]
fn levels_change_at_run_time() {
    for game in ["go", "margo", "abalone"] {
        let mut engine = engine(game, &format!("levels-{game}"), &[]);
        assert_eq!(answer(&mut engine, "ishi-level"), "hard");
        answer(&mut engine, "ishi-level easy");
        assert_eq!(answer(&mut engine, "ishi-level"), "easy");
        answer(&mut engine, "ishi-level MEDIUM");
        assert_eq!(answer(&mut engine, "ishi-level"), "medium");
        assert!(failure(&mut engine, "ishi-level expert").contains("unknown level"));
        assert_eq!(answer(&mut engine, "ishi-level"), "medium");
        engine.quit().expect("quit");
    }
}

#[test]
fn go_reasons_for_illegal_moves() {
    let mut engine = engine("go", "reasons-go", &["--size", "5"]);
    // A ko: black C3 captures white B3; white may not retake at once.
    for line in [
        "play b B4",
        "play b A3",
        "play b B2",
        "play w C4",
        "play w B3",
        "play w C2",
        "play w D3",
        "play b C3",
    ] {
        answer(&mut engine, line);
    }
    assert_eq!(answer(&mut engine, "ishi-illegal_reason w B3"), "ko");
    assert_eq!(answer(&mut engine, "ishi-illegal_reason w C3"), "occupied");
    assert_eq!(answer(&mut engine, "ishi-illegal_reason w E5"), "");
    assert_eq!(answer(&mut engine, "ishi-illegal_reason b Z9"), "off_board");
    // White at A1 would have no liberty and capture nothing.
    answer(&mut engine, "play b A2");
    answer(&mut engine, "play b B1");
    assert_eq!(answer(&mut engine, "ishi-illegal_reason w A1"), "suicide");
    // play keeps its GTP text.
    assert_eq!(failure(&mut engine, "play w A1"), "illegal move");
    engine.quit().expect("quit");
}

#[test]
fn abalone_reasons_for_illegal_moves() {
    let mut engine = engine("abalone", "reasons-abalone", &[]);
    assert_eq!(answer(&mut engine, "ishi-illegal_reason b c3d3"), "");
    assert_eq!(
        answer(&mut engine, "ishi-illegal_reason w a4b4"),
        "wrong_turn"
    );
    assert_eq!(
        answer(&mut engine, "ishi-illegal_reason b b1a1"),
        "own_marble_off"
    );
    assert_eq!(
        answer(&mut engine, "ishi-illegal_reason b d4e4"),
        "not_own_line"
    );
    answer(&mut engine, "play b c2c3");
    answer(&mut engine, "play w a4b4");
    // Black's c3 alone against white's c4, c5, c6.
    assert_eq!(
        answer(&mut engine, "ishi-illegal_reason b c3c4"),
        "no_sumito"
    );
    assert_eq!(failure(&mut engine, "play b c3c4"), "illegal move");
    assert!(failure(&mut engine, "ishi-illegal_reason b a1").contains("syntax error"));
    engine.quit().expect("quit");
}

/// `--game-time`: an app gives the computer a budget for the whole game, in every game; a
/// game's moves together never take more than it (the time manager's hard limit is the time
/// left; a generous margin for answering and a loaded machine).
#[test]
fn the_game_time_bounds_each_game() {
    for game in ["go", "margo", "abalone"] {
        let mut engine = engine(
            game,
            &format!("embedding-game-time-{game}"),
            &["--game-time", "1.5"],
        );
        answer(&mut engine, "clear_board");
        let started = std::time::Instant::now();
        let mut colour = "b";
        for _ in 0..12 {
            assert!(!answer(&mut engine, &format!("genmove {colour}")).is_empty());
            colour = if colour == "b" { "w" } else { "b" };
        }
        let seconds = started.elapsed().as_secs_f64();
        assert!(
            seconds < 2.0 * 1.5 + 2.0,
            "{game}: {seconds:.2} s for 12 moves"
        );
    }
}

/// Each new game starts with the whole `--game-time` again: after a game that spent most of
/// it, the next game's first moves think as long as the first game's did (the budget is
/// what a move waits for, so a loaded machine only lengthens them); were the clock not
/// filled again they would get a third or less (0.14 s against 0.46 s). A hint first loads what the first search
/// loads (the network), without touching the clocks, so that neither opening pays for it.
#[test]
fn every_new_game_starts_with_the_whole_game_time() {
    let mut engine = engine("go", "embedding-game-time-new-game", &["--game-time", "4"]);
    answer(&mut engine, "ishi-hint b");
    let mut opening_seconds = Vec::new();
    for moves in [70, 6] {
        answer(&mut engine, "clear_board");
        let started = std::time::Instant::now();
        let mut colour = "b";
        for generated in 0..moves {
            if generated == 6 {
                opening_seconds.push(started.elapsed().as_secs_f64());
            }
            answer(&mut engine, &format!("genmove {colour}"));
            colour = if colour == "b" { "w" } else { "b" };
        }
        if moves == 6 {
            opening_seconds.push(started.elapsed().as_secs_f64());
        }
    }
    assert!(
        opening_seconds[1] > 0.5 * opening_seconds[0],
        "the first six moves: {opening_seconds:?} s"
    );
}
