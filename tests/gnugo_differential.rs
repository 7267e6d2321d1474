//! Differential test of the rules core against GNU Go 3.8 over GTP. Seeded random games are
//! played into ishi's `Game` (in process) and into one GNU Go process per ruleset (reused
//! between games with `boardsize` and `clear_board`). After every move the two must agree on:
//!
//! - the stones on the board (`list_stones black`, `list_stones white`);
//! - the captures of each side (`captures black` counts the white stones black has taken);
//! - the whole set of legal moves of the side to move (`all_legal`);
//! - the illegality of probed moves (`is_legal`): an occupied point, and every point ishi
//!   refuses as suicide, ko or superko.
//!
//! GNU Go is run under each of its ko and suicide options, matched with ishi's rulesets:
//! the default (simple ko, no suicide) with Japanese rules, `--positional-superko` with
//! Chinese, `--situational-superko` with AGA, `--positional-superko --allow-suicide` with
//! Tromp-Taylor, `--situational-superko --allow-suicide` with New Zealand, and
//! `--allow-suicide` alone with simple ko plus suicide. (`--allow-suicide` forbids the suicide
//! of a lone stone, as ishi does.) GNU Go remembers 500 moves of history, so games under
//! superko stay shorter than that.
//!
//! Any disagreement fails the test and is listed by game, move and vertex. The totals are
//! printed (`--nocapture`). Without GNU Go (`/usr/games/gnugo`, `gnugo` on the path, or
//! `$ISHI_GNUGO`) the test says so and passes.

mod common;

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use ishi::color::Color;
use ishi::go::rules::board::IllegalMove;
use ishi::go::rules::game::Game;
use ishi::go::rules::point::{move_text, Move, Point};
use ishi::go::rules::rules::{KoRule, Rules, RulesName};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A GTP engine in a child process.
struct GtpEngine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl GtpEngine {
    fn start(program: &PathBuf, arguments: &[&str]) -> GtpEngine {
        let mut child = Command::new(program)
            .args(["--mode", "gtp"])
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {}: {error}", program.display()));
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        GtpEngine {
            child,
            input,
            output,
        }
    }

    /// Sends every command, then reads one answer per command: `Ok(text)` for `= text`,
    /// `Err(text)` for `? text`.
    fn ask_all(&mut self, commands: &[String]) -> Vec<Result<String, String>> {
        let mut text = String::new();
        for command in commands {
            text.push_str(command);
            text.push('\n');
        }
        self.input
            .write_all(text.as_bytes())
            .and_then(|()| self.input.flush())
            .expect("GNU Go closed its input");
        commands.iter().map(|_| self.read_answer()).collect()
    }

    fn ask(&mut self, command: &str) -> Result<String, String> {
        self.ask_all(&[command.to_string()]).remove(0)
    }

    fn read_answer(&mut self) -> Result<String, String> {
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let read = self.output.read_line(&mut line).expect("read GNU Go");
            assert!(read > 0, "GNU Go ended its output");
            let line = line.trim_end();
            if line.is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            if !answer.is_empty() {
                answer.push('\n');
            }
            answer.push_str(line);
        }
        if let Some(rest) = answer.strip_prefix('=') {
            Ok(rest.trim().to_string())
        } else if let Some(rest) = answer.strip_prefix('?') {
            Err(rest.trim().to_string())
        } else {
            panic!("not a GTP answer: {answer}")
        }
    }
}

impl Drop for GtpEngine {
    fn drop(&mut self) {
        let _ = self.input.write_all(b"quit\n");
        let _ = self.input.flush();
        let _ = self.child.wait();
    }
}

/// GNU Go's program, if installed.
fn find_gnugo() -> Option<PathBuf> {
    let candidates = std::env::var_os("ISHI_GNUGO")
        .map(PathBuf::from)
        .into_iter()
        .chain([PathBuf::from("/usr/games/gnugo"), PathBuf::from("gnugo")]);
    for candidate in candidates {
        let works = Command::new(&candidate)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if works {
            return Some(candidate);
        }
    }
    None
}

/// One pairing of GNU Go options with an ishi ruleset, and the games played under it.
struct Mode {
    name: &'static str,
    gnugo_options: &'static [&'static str],
    rules: Rules,
    /// (board size, number of games)
    games: &'static [(usize, usize)],
}

fn simple_ko_with_suicide() -> Rules {
    Rules {
        ko: KoRule::Simple,
        suicide_allowed: true,
        name: RulesName::Custom,
        ..Rules::japanese()
    }
}

fn modes() -> Vec<Mode> {
    vec![
        Mode {
            name: "simple ko, no suicide (GNU Go default / ishi japanese)",
            gnugo_options: &[],
            rules: Rules::japanese(),
            games: &[(9, 200), (5, 60), (13, 16), (19, 8)],
        },
        Mode {
            name: "positional superko, no suicide (ishi chinese)",
            gnugo_options: &["--positional-superko"],
            rules: Rules::chinese(),
            games: &[(5, 200), (9, 30)],
        },
        Mode {
            name: "situational superko, no suicide (ishi aga)",
            gnugo_options: &["--situational-superko"],
            rules: Rules::aga(),
            games: &[(5, 200), (9, 30)],
        },
        Mode {
            name: "positional superko, suicide (ishi tromp-taylor)",
            gnugo_options: &["--positional-superko", "--allow-suicide"],
            rules: Rules::tromp_taylor(),
            games: &[(5, 200), (9, 30)],
        },
        Mode {
            name: "situational superko, suicide (ishi new-zealand)",
            gnugo_options: &["--situational-superko", "--allow-suicide"],
            rules: Rules::new_zealand(),
            games: &[(5, 200), (9, 30)],
        },
        Mode {
            name: "simple ko, suicide (ishi custom)",
            gnugo_options: &["--allow-suicide"],
            rules: simple_ko_with_suicide(),
            games: &[(5, 40), (9, 30)],
        },
    ]
}

/// Counts of one mode.
#[derive(Default)]
struct Totals {
    games: usize,
    moves: usize,
    capturing_moves: usize,
    suicides: usize,
    legal_sets_compared: usize,
    probes: usize,
    occupied_probes: usize,
    suicide_probes: usize,
    ko_probes: usize,
    superko_probes: usize,
    /// Disagreements that are bugs of one program or the other.
    differences: Vec<String>,
    /// Disagreements explained by a known limitation of GNU Go (see
    /// [`is_suicide_repeating_a_position`]).
    known_differences: Vec<String>,
}

/// Whether `color` playing on `point` is a suicide that ishi refuses under superko because
/// the board after it repeats an earlier one. GNU Go 3.8 allows these: its superko check
/// (`is_superko_violation` in `engine/board.c`) computes the next position with a
/// `trymove` that assumes the move is not a suicide, so the suicided chain stays on the board
/// in that hash and no repetition is ever found.
fn is_suicide_repeating_a_position(game: &Game, color: Color, point: Point) -> bool {
    if game.check_move(color, Move::Place(point)) != Err(IllegalMove::Superko) {
        return false;
    }
    let mut after = game.board().clone();
    after.play_unchecked(Move::Place(point), color);
    after.stone(point).is_none()
}

fn vertex_set(text: &str) -> BTreeSet<String> {
    text.split_whitespace()
        .map(|vertex| vertex.to_ascii_uppercase())
        .collect()
}

fn color_word(color: Color) -> &'static str {
    match color {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// The moves a random player may choose from: legal for both programs, not filling the
/// player's own eye (now and then any of them, so that suicides and self-captures happen).
fn choose_move(
    game: &Game,
    shared_legal: &[Point],
    random: &mut SmallRng,
    move_limit: usize,
) -> Move {
    if game.move_count() >= move_limit || random.gen_range(0..60) == 0 {
        return Move::Pass;
    }
    let color = game.to_move();
    let any_point = random.gen_range(0..10) == 0;
    let candidates: Vec<Point> = shared_legal
        .iter()
        .copied()
        .filter(|&point| any_point || !game.board().is_true_eye_like(point, color))
        .collect();
    if candidates.is_empty() {
        Move::Pass
    } else {
        Move::Place(candidates[random.gen_range(0..candidates.len())])
    }
}

/// Plays one game into both programs, comparing after every move.
fn play_game(engine: &mut GtpEngine, rules: Rules, size: usize, seed: u64, totals: &mut Totals) {
    let mut random = SmallRng::seed_from_u64(seed);
    let mut game = Game::new(size, rules, 0.5);
    for answer in engine.ask_all(&[format!("boardsize {size}"), "clear_board".to_string()]) {
        answer.expect("GNU Go accepts boardsize and clear_board");
    }
    let move_limit = (3 * size * size).min(450);
    let mut shared_legal: Vec<Point> = game.legal_points(Color::Black);
    while !game.both_passed() {
        let color = game.to_move();
        let chosen = choose_move(&game, &shared_legal, &mut random, move_limit);
        let text = move_text(chosen, size);
        let context = format!(
            "{size}x{size} seed {seed} move {} {color} {text}",
            game.move_count() + 1
        );
        let captured_before = game.board().captures(color.opponent());
        game.play(color, chosen)
            .unwrap_or_else(|error| panic!("{context}: ishi refuses a move it listed: {error}"));
        totals.moves += 1;
        if let Move::Place(point) = chosen {
            if game.board().last_captured() > 0 {
                totals.capturing_moves += 1;
            }
            if game.board().stone(point).is_none()
                && game.board().captures(color.opponent()) > captured_before
            {
                totals.suicides += 1;
            }
        }
        let next = game.to_move();
        let board = game.board();
        // The probes: one occupied point and every empty point ishi refuses.
        let mut probes: Vec<(Point, IllegalMove)> = Vec::new();
        let occupied: Vec<Point> = board
            .points()
            .filter(|&point| board.stone(point).is_some())
            .collect();
        if !occupied.is_empty() {
            probes.push((
                occupied[random.gen_range(0..occupied.len())],
                IllegalMove::Occupied,
            ));
        }
        for point in board.points() {
            if board.stone(point).is_none() {
                if let Err(reason) = game.check_move(next, Move::Place(point)) {
                    probes.push((point, reason));
                }
            }
        }
        let mut commands = vec![
            format!("play {} {text}", color_word(color)),
            "list_stones black".to_string(),
            "list_stones white".to_string(),
            "captures black".to_string(),
            "captures white".to_string(),
            format!("all_legal {}", color_word(next)),
        ];
        for (point, _) in &probes {
            commands.push(format!(
                "is_legal {} {}",
                color_word(next),
                board.vertex(*point)
            ));
        }
        let answers = engine.ask_all(&commands);
        if let Err(error) = &answers[0] {
            totals
                .differences
                .push(format!("{context}: GNU Go refuses the move: {error}"));
            return;
        }
        for (index, color) in Color::ALL.into_iter().enumerate() {
            let theirs = vertex_set(answers[1 + index].as_ref().expect("list_stones"));
            let ours: BTreeSet<String> = board
                .points()
                .filter(|&point| board.stone(point) == Some(color))
                .map(|point| board.vertex(point))
                .collect();
            assert_eq!(ours, theirs, "{context}: {color} stones differ\n{board}");
            let their_captures: u32 = answers[3 + index]
                .as_ref()
                .expect("captures")
                .parse()
                .expect("a number of captures");
            assert_eq!(
                board.captures(color),
                their_captures,
                "{context}: captures by {color}"
            );
        }
        let their_legal = vertex_set(answers[5].as_ref().expect("all_legal"));
        let our_legal_points = game.legal_points(next);
        let our_legal: BTreeSet<String> = our_legal_points
            .iter()
            .map(|&point| board.vertex(point))
            .collect();
        totals.legal_sets_compared += 1;
        for vertex in our_legal.symmetric_difference(&their_legal) {
            let point = common::point(vertex, size);
            let ours = game.check_move(next, Move::Place(point));
            let theirs = if their_legal.contains(vertex) {
                "legal"
            } else {
                "illegal"
            };
            let text =
                format!("{context}: {next} {vertex} is {ours:?} for ishi, {theirs} for GNU Go");
            if is_suicide_repeating_a_position(&game, next, point) {
                totals.known_differences.push(text);
            } else {
                totals.differences.push(text);
            }
        }
        for ((point, reason), answer) in probes.iter().zip(&answers[6..]) {
            totals.probes += 1;
            match reason {
                IllegalMove::Occupied => totals.occupied_probes += 1,
                IllegalMove::Suicide => totals.suicide_probes += 1,
                IllegalMove::Ko => totals.ko_probes += 1,
                IllegalMove::Superko => totals.superko_probes += 1,
                IllegalMove::OffBoard => {}
            }
            if answer.as_deref() != Ok("0") {
                let text = format!(
                    "{context}: is_legal {next} {} answered {answer:?}, ishi says {reason}",
                    board.vertex(*point)
                );
                if is_suicide_repeating_a_position(&game, next, *point) {
                    totals.known_differences.push(text);
                } else {
                    totals.differences.push(text);
                }
            }
        }
        shared_legal = our_legal_points
            .into_iter()
            .filter(|&point| their_legal.contains(&board.vertex(point)))
            .collect();
    }
    totals.games += 1;
}

#[test]
fn random_games_agree_with_gnu_go() {
    let Some(program) = find_gnugo() else {
        eprintln!(
            "skipping the GNU Go differential test: GNU Go is not installed \
             (apt-get install gnugo, or set ISHI_GNUGO)"
        );
        return;
    };
    let mut all_differences = Vec::new();
    let mut all_known = Vec::new();
    let mut grand = Totals::default();
    for (mode_index, mode) in modes().into_iter().enumerate() {
        let mut engine = GtpEngine::start(&program, mode.gnugo_options);
        let version = engine.ask("version").unwrap_or_default();
        let mut totals = Totals::default();
        for &(size, games) in mode.games {
            for game_index in 0..games {
                let seed = 1_000_000 * mode_index as u64 + 1_000 * size as u64 + game_index as u64;
                play_game(&mut engine, mode.rules, size, seed, &mut totals);
            }
        }
        println!(
            "GNU Go {version}, {}: {} games, {} moves compared ({} capturing, {} \
             suicides), {} legal-move sets compared, {} is_legal probes ({} occupied, {} \
             suicide, {} ko, {} superko), {} differences, {} known GNU Go limitations",
            mode.name,
            totals.games,
            totals.moves,
            totals.capturing_moves,
            totals.suicides,
            totals.legal_sets_compared,
            totals.probes,
            totals.occupied_probes,
            totals.suicide_probes,
            totals.ko_probes,
            totals.superko_probes,
            totals.differences.len(),
            totals.known_differences.len()
        );
        grand.games += totals.games;
        grand.moves += totals.moves;
        grand.legal_sets_compared += totals.legal_sets_compared;
        grand.probes += totals.probes;
        all_differences.extend(
            totals
                .differences
                .iter()
                .map(|difference| format!("[{}] {difference}", mode.name)),
        );
        all_known.extend(
            totals
                .known_differences
                .iter()
                .map(|difference| format!("[{}] {difference}", mode.name)),
        );
    }
    println!(
        "GNU Go differential total: {} games, {} moves compared, {} legal-move sets, {} \
         is_legal probes, {} differences, {} known GNU Go limitations",
        grand.games,
        grand.moves,
        grand.legal_sets_compared,
        grand.probes,
        all_differences.len(),
        all_known.len()
    );
    for difference in &all_known {
        println!("  known (GNU Go misses superko on suicides): {difference}");
    }
    for difference in &all_differences {
        println!("  DIFFERENCE: {difference}");
    }
    assert!(
        all_differences.is_empty(),
        "{} differences with GNU Go (listed above)",
        all_differences.len()
    );
}
