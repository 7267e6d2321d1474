//! Fuzz and stream tests of the GTP front end, with seeded inputs that are the same on every
//! run: random bytes, plausible command lines with garbled arguments, CRLF, tabs, control
//! characters, comments, ids and very long lines. Every non-empty line must get exactly one
//! well-framed answer, in order, with its id echoed; the engine must never die, must still
//! play afterwards and must exit with status 0 after `quit`. Also checks that Sabaki-style
//! pipelining (many commands in one write) is answered in order. Knows GTP framing and the
//! command names, not what the commands mean.
//!
//! The expected answer count comes from a model of GTP preprocessing written here, apart from
//! `gtp::line`: a line is answered when something other than spaces is left after removing
//! control characters and the `#` comment.

mod gtp_support;

use gtp_support::{
    expected_id, parse_answer, read_answer_bytes, scratch_folder, Answer, EngineProcess, SplitMix,
};
use ishi::engine::{Engine, Settings};
use ishi::gtp::{self, Session};
use std::io::Write;
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// Engines started by the process fuzz test, each fed one batch of lines.
const PROCESS_ROUNDS: u64 = 48;
/// Random lines per process round.
const LINES_PER_PROCESS_ROUND: usize = 400;
/// Seeds of the in-process fuzz test, each a fresh engine.
const IN_PROCESS_ROUNDS: u64 = 40;
/// Random lines per in-process round.
const LINES_PER_IN_PROCESS_ROUND: usize = 2_000;

/// The model of GTP preprocessing: the command text of a raw line (newline excluded), or
/// `None` when the line must get no answer.
fn model_command(raw: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(raw);
    let before_comment = text.split('#').next().unwrap_or("");
    let cleaned: String = before_comment
        .chars()
        .filter_map(|character| match character {
            '\t' => Some(' '),
            character if character.is_control() => None,
            character => Some(character),
        })
        .collect();
    let trimmed = cleaned.trim_matches(' ');
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// The command name of a modelled command (after the id, if any).
fn model_name(command: &str) -> &str {
    let mut words = command.split(' ').filter(|word| !word.is_empty());
    let first = words.next().unwrap_or("");
    if first.bytes().all(|byte| byte.is_ascii_digit()) {
        words.next().unwrap_or("")
    } else {
        first
    }
}

/// Whether a modelled command has arguments after its name.
fn model_has_arguments(command: &str) -> bool {
    let words = command.split(' ').filter(|word| !word.is_empty()).count();
    let has_id = expected_id(command).is_some();
    words > 1 + usize::from(has_id)
}

const COLORS: &[&str] = &[
    "b", "w", "B", "W", "black", "white", "Black", "WHITE", "x", "bw", "0", "",
];
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "5",
    "9",
    "13",
    "19",
    "25",
    "26",
    "-1",
    "7.5",
    "-0.5",
    "0.0",
    "1e3",
    "1e400",
    "nan",
    "inf",
    "-inf",
    "2147483647",
    "2147483648",
    "4294967296",
    "18446744073709551616",
    "0x10",
    "+3",
    "3.",
    ".5",
];
const WORDS: &[&str] = &[
    "pass",
    "PASS",
    "resign",
    "alive",
    "dead",
    "seki",
    "none",
    "absolute",
    "canadian",
    "byoyomi",
    "fischer",
    "chinese",
    "japanese",
    "aga",
    "new_zealand",
    "tromp-taylor",
    "korean",
    "capture:3",
    "capture:0",
    "{\"ko\":\"SIMPLE\"}",
    "{\"ko\":\"POSITIONAL\",\"suicide\":true}",
    "{",
    "}",
    "true",
    "false",
    "é",
    "\u{a0}",
    "\u{3000}",
    "日本",
    "=",
    "?",
    "\\",
    "\"",
];
/// Paths for `loadsgf` and `printsgf`, relative to the engine's scratch folder.
const PATHS: &[&str] = &[
    "game.sgf",
    "broken.sgf",
    "missing.sgf",
    "written.sgf",
    ".",
    "..",
    "",
    "/dev/null",
];
/// Characters that look like space: only space and tab are GTP whitespace.
const SPACE_LIKE: &[&str] = &[
    " ", "\t", "\r", "\u{a0}", "\u{3000}", "\u{2003}", "\u{85}", "\u{feff}", "\u{200b}",
];
/// Game records of the regression suite, by absolute path (the in-process test cannot
/// choose its working folder).
const OWN_SGF_FILES: &[&str] = &[
    concat!(env!("CARGO_MANIFEST_DIR"), "/gtp-tests/sgf/game-9x9.sgf"),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/gtp-tests/sgf/handicap-9x9.sgf"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/gtp-tests/sgf/setup-white-to-move.sgf"
    ),
    concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/gtp-tests/sgf/dead-stones-7x7.sgf"
    ),
];
/// What may come before a command.
const LEADING_SPACE: &[&str] = &[" ", "\t", "  \t "];
/// What may separate words: GTP allows runs of spaces and tabs.
const SEPARATORS: &[&str] = &[" ", " ", " ", "\t", "  ", " \t "];
/// Commands that make a game progress, picked more often than the others.
const CORE_COMMANDS: &[&str] = &["play", "play", "play", "genmove", "undo", "is_legal"];
const CONTROL_CHARACTERS: &[u8] = &[0x00, 0x01, 0x07, 0x08, 0x0b, 0x0c, b'\r', 0x1b, 0x7f];

/// A vertex-like word: mostly real vertices, some off the board or malformed.
fn random_vertex(random: &mut SplitMix) -> String {
    match random.below(10) {
        0 => random
            .pick(&["pass", "PASS", "resign", "A", "11", "A0", "I5", "AA1"])
            .to_string(),
        1 => format!("{}", random.below(30)),
        _ => {
            let column = (b'A' + random.below(26) as u8) as char;
            let highest = if random.chance(1, 5) { 30 } else { 9 };
            let row = 1 + random.below(highest);
            if random.chance(1, 3) {
                format!("{}{row}", column.to_ascii_lowercase())
            } else {
                format!("{column}{row}")
            }
        }
    }
}

/// Any argument from the pools, or random printable text.
fn random_argument(random: &mut SplitMix) -> String {
    match random.below(6) {
        0 => random.pick(COLORS).to_string(),
        1 => random.pick(NUMBERS).to_string(),
        2 => random.pick(WORDS).to_string(),
        3 => random_vertex(random),
        4 => random.pick(PATHS).to_string(),
        _ => (0..1 + random.below(12))
            .map(|_| (b'!' + random.below(94) as u8) as char)
            .collect(),
    }
}

/// Arguments that fit the command most of the time, so games actually progress.
fn fitting_arguments(random: &mut SplitMix, name: &str) -> Vec<String> {
    let color = |random: &mut SplitMix| random.pick(&COLORS[..8]).to_string();
    match name {
        "play" | "is_legal" | "ishi-illegal_reason" => vec![color(random), random_vertex(random)],
        "ishi-hint" => {
            let mut arguments = vec![color(random)];
            if random.chance(1, 2) {
                arguments.push(random.pick(&["easy", "medium", "hard", "EASY"]).to_string());
            }
            arguments
        }
        "ishi-level" => (0..random.below(2))
            .map(|_| {
                random
                    .pick(&["easy", "medium", "hard", "expert"])
                    .to_string()
            })
            .collect(),
        "genmove" | "reg_genmove" | "gogui-setup_player" | "captures" => vec![color(random)],
        "boardsize" => {
            let size = if random.chance(1, 6) {
                random.below(30)
            } else {
                2 + random.below(12)
            };
            let mut arguments = vec![size.to_string()];
            if random.chance(1, 6) {
                arguments.push(size.to_string());
            }
            arguments
        }
        "komi" => vec![random.pick(NUMBERS).to_string()],
        "fixed_handicap" | "place_free_handicap" | "ishi-capture_target" => {
            vec![random.below(12).to_string()]
        }
        "set_free_handicap" => {
            // Mostly two to four points of a small corner, so that it often succeeds.
            let count = if random.chance(2, 3) {
                2 + random.below(3)
            } else {
                random.below(6)
            };
            (0..count)
                .map(|_| {
                    if random.chance(2, 3) {
                        let column = (b'A' + random.below(5) as u8) as char;
                        format!("{column}{}", 1 + random.below(5))
                    } else {
                        random_vertex(random)
                    }
                })
                .collect()
        }
        "gogui-setup" | "gogui-play_sequence" => (0..random.below(5))
            .flat_map(|_| [color(random), random_vertex(random)])
            .collect(),
        "time_settings" => (0..3).map(|_| random.pick(NUMBERS).to_string()).collect(),
        "time_left" => vec![
            color(random),
            random.pick(NUMBERS).to_string(),
            random.below(6).to_string(),
        ],
        "kgs-time_settings" => {
            let mut arguments = vec![random
                .pick(&["none", "absolute", "canadian", "byoyomi", "fischer"])
                .to_string()];
            arguments.extend((0..random.below(4)).map(|_| random.below(100).to_string()));
            arguments
        }
        "final_status_list" => vec![random.pick(&["alive", "dead", "seki", "ALIVE"]).to_string()],
        "loadsgf" => {
            let path = if random.chance(1, 2) {
                random.pick(OWN_SGF_FILES)
            } else {
                random.pick(PATHS)
            };
            let mut arguments = vec![path.to_string()];
            if random.chance(1, 2) {
                arguments.push(random.below(12).to_string());
            }
            arguments
        }
        "printsgf" => {
            if random.chance(1, 2) {
                vec![random.pick(&PATHS[..4]).to_string()]
            } else {
                Vec::new()
            }
        }
        "kgs-rules" | "kata-set-rules" => vec![random.pick(&WORDS[11..22]).to_string()],
        "known_command" => vec![random
            .pick(&["play", "genmove", "quit", "frobnicate", ""])
            .to_string()],
        _ => Vec::new(),
    }
}

/// A command name: mostly a real one, sometimes garbled.
fn random_name(random: &mut SplitMix, names: &[String]) -> String {
    let name = if random.chance(1, 3) {
        random.pick(CORE_COMMANDS).to_string()
    } else {
        random.pick(names).clone()
    };
    match random.below(12) {
        0 => name.to_ascii_uppercase(),
        1 => format!("{name}{}", (b'a' + random.below(26) as u8) as char),
        2 => name[..name.len() / 2].to_string(),
        3 => format!("_{name}"),
        _ => name,
    }
}

/// One plausible command line (no newline).
fn plausible_line(random: &mut SplitMix, names: &[String]) -> Vec<u8> {
    let name = random_name(random, names);
    let mut arguments = if random.chance(3, 5) {
        fitting_arguments(random, &name)
    } else {
        (0..random.below(5))
            .map(|_| random_argument(random))
            .collect()
    };
    if random.chance(1, 10) {
        arguments.push(random_argument(random));
    }
    let mut words = Vec::new();
    if random.chance(2, 5) {
        let id = match random.below(6) {
            0 => random
                .pick(&[
                    "0",
                    "007",
                    "2147483647",
                    "2147483648",
                    "99999999999999999999",
                ])
                .to_string(),
            _ => random.below(100_000).to_string(),
        };
        words.push(id);
    }
    words.push(name);
    words.extend(arguments);
    let mut line = String::new();
    if random.chance(1, 20) {
        line.push_str(LEADING_SPACE[random.below(LEADING_SPACE.len())]);
    }
    for (index, word) in words.iter().enumerate() {
        if index > 0 {
            line.push_str(SEPARATORS[random.below(SEPARATORS.len())]);
        }
        line.push_str(word);
    }
    if random.chance(1, 20) {
        line.push_str(" # a comment with = and ? 5 play");
    }
    let mut bytes = line.into_bytes();
    if random.chance(1, 12) {
        let at = random.below(bytes.len() + 1);
        bytes.insert(at, *random.pick(CONTROL_CHARACTERS));
    }
    if random.chance(1, 4) {
        bytes.push(b'\r');
    }
    bytes
}

/// A line of any kind: plausible commands mostly, then random bytes, junk, blank or comment
/// lines, and now and then a very long line.
fn random_line(random: &mut SplitMix, names: &[String]) -> Vec<u8> {
    match random.below(100) {
        0..=11 => (0..random.below(80))
            .map(|_| loop {
                let byte = random.next_u64() as u8;
                if byte != b'\n' {
                    break byte;
                }
            })
            .collect(),
        12..=15 => (0..random.below(60))
            .map(|_| b' ' + random.below(95) as u8)
            .collect(),
        16..=17 => (0..1 + random.below(4))
            .flat_map(|_| random.pick(SPACE_LIKE).as_bytes().to_vec())
            .collect(),
        18..=19 => random
            .pick(&[
                "",
                " ",
                "\t",
                "\r",
                " \t \r",
                "# a comment",
                "   # interrupt",
                "# interrupt",
                "\u{7}",
            ])
            .as_bytes()
            .to_vec(),
        20 => {
            let length = 20_000 + random.below(200_000);
            if random.chance(1, 2) {
                let mut line = b"play b ".to_vec();
                line.extend(std::iter::repeat_n(b'D', length));
                line
            } else {
                (0..length).map(|_| b'!' + random.below(90) as u8).collect()
            }
        }
        _ => plausible_line(random, names),
    }
}

/// `count` lines whose modelled command is never `quit` (nor, when `quiet_files`, a
/// `printsgf` that writes a file), each with the id its answer must carry (`None` inside
/// `Some` for no id) or `None` when no answer is due.
fn generate_lines(
    random: &mut SplitMix,
    names: &[String],
    count: usize,
    quiet_files: bool,
) -> Vec<(Vec<u8>, Option<Option<u32>>)> {
    let mut lines = Vec::with_capacity(count);
    while lines.len() < count {
        let line = random_line(random, names);
        let expected = model_command(&line);
        if let Some(command) = &expected {
            let name = model_name(command);
            if name == "quit" || (quiet_files && name == "printsgf" && model_has_arguments(command))
            {
                continue;
            }
        }
        let answer = expected.map(|command| expected_id(&command));
        lines.push((line, answer));
    }
    lines
}

/// The commands every round ends with, and what their answers must look like.
const FINAL_CHECKS: &[(&str, &str)] = &[
    ("kgs-time_settings none", ""),
    ("kata-set-rules chinese", ""),
    ("komi 7.5", ""),
    ("boardsize 9", ""),
    ("clear_board", ""),
    ("9001 play b E5", ""),
    ("9002 genmove w", "vertex"),
    ("9003 showboard", "board"),
    ("9004 final_score", "score"),
    ("9005 name", "ishi"),
];

/// Checks one answer of [`FINAL_CHECKS`].
fn check_final(command: &str, kind: &str, answer: &Answer) -> Result<(), String> {
    let body = answer.response();
    let good = answer.is_success()
        && answer.id == expected_id(command)
        && match kind {
            "" => body.is_empty(),
            "vertex" => {
                body == "pass"
                    || (body.len() >= 2
                        && body.as_bytes()[0].is_ascii_uppercase()
                        && body[1..]
                            .parse::<u32>()
                            .is_ok_and(|row| (1..=9).contains(&row)))
            }
            "board" => {
                body.matches('X').count() == 1
                    && body.matches('O').count() <= 1
                    && body.contains("black to move")
                    && body.contains("rules chinese")
            }
            "score" => body == "0" || body.starts_with("B+") || body.starts_with("W+"),
            name => body == name,
        };
    if good {
        Ok(())
    } else {
        Err(format!(
            "after the fuzz input, {command:?} answered {:?}",
            answer.raw
        ))
    }
}

/// The command names the binary lists, `quit` left out.
fn command_names() -> Vec<String> {
    let folder = scratch_folder("fuzz-names");
    let mut engine = EngineProcess::start(&[], &folder);
    let answer = engine.command("list_commands").expect("list_commands");
    engine.quit().expect("quit");
    answer
        .response()
        .lines()
        .filter(|name| *name != "quit")
        .map(str::to_string)
        .collect()
}

/// A scratch folder holding the files the fuzz paths name.
fn prepare_files(folder: &Path) {
    std::fs::write(
        folder.join("game.sgf"),
        "(;FF[4]SZ[9]KM[6.5];B[ee];W[cc];B[gg];W[];B[])",
    )
    .expect("cannot write game.sgf");
    std::fs::write(folder.join("broken.sgf"), "(;FF[4]SZ[9];B[ee];W[").expect("broken.sgf");
}

#[test]
fn random_input_is_answered_in_order_and_the_engine_survives() {
    let names = command_names();
    assert!(names.len() > 20, "list_commands too short: {names:?}");
    let mut inputs_run = 0;
    let (mut successes, mut failures) = (0, 0);
    for round in 0..PROCESS_ROUNDS {
        let mut random = SplitMix::new(0x15_41_60 + round);
        let folder = scratch_folder(&format!("fuzz-process-{round}"));
        prepare_files(&folder);
        let lines = generate_lines(&mut random, &names, LINES_PER_PROCESS_ROUND, false);
        let mut bytes = Vec::new();
        for (line, _) in &lines {
            bytes.extend_from_slice(line);
            bytes.push(b'\n');
        }
        for (command, _) in FINAL_CHECKS {
            bytes.extend_from_slice(command.as_bytes());
            bytes.extend_from_slice(if round % 2 == 0 { b"\n" } else { b"\r\n" });
        }
        bytes.extend_from_slice(b"quit\n");
        let arguments = ["--playouts".to_string(), "16".to_string()];
        let mut engine = EngineProcess::start(&arguments, &folder);
        // Everything is written at once by another thread, as a pipelining controller would.
        let mut input = engine.take_input();
        let writer = std::thread::spawn(move || {
            let _ = input.write_all(&bytes);
        });
        let mut recent: Vec<String> = Vec::new();
        for (position, (line, expected)) in lines.iter().enumerate() {
            recent.push(String::from_utf8_lossy(&line[..line.len().min(120)]).into_owned());
            if recent.len() > 6 {
                recent.remove(0);
            }
            let Some(expected_id) = expected else {
                continue;
            };
            let answer = engine.read_answer().unwrap_or_else(|message| {
                panic!("round {round}, line {position}: {message}; last lines sent: {recent:?}")
            });
            assert_eq!(
                answer.id, *expected_id,
                "round {round}, line {position}: wrong id in {:?} (an answer missing or extra?); last lines sent: {recent:?}",
                answer.raw
            );
            if answer.is_success() {
                successes += 1;
            } else {
                failures += 1;
            }
        }
        for (command, kind) in FINAL_CHECKS {
            let answer = engine
                .read_answer()
                .unwrap_or_else(|message| panic!("round {round}, {command}: {message}"));
            check_final(command, kind, &answer).unwrap_or_else(|message| {
                panic!("round {round}: {message}");
            });
        }
        let quit = engine.read_answer().expect("quit is answered");
        assert_eq!(quit.raw, "= \n\n", "round {round}: quit answer");
        writer.join().expect("writer thread");
        engine
            .finish()
            .unwrap_or_else(|message| panic!("round {round}: {message}"));
        inputs_run += lines.len() + FINAL_CHECKS.len() + 1;
    }
    println!(
        "process fuzz: {inputs_run} input lines in {PROCESS_ROUNDS} engines; random lines answered {successes} times = and {failures} times ?, the others were blank as modelled"
    );
}

/// An output the test can read back while the session owns it.
#[derive(Clone, Default)]
struct SharedOutput(Arc<Mutex<Vec<u8>>>);

impl Write for SharedOutput {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .lock()
            .map_err(|_| std::io::Error::other("poisoned"))?
            .extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedOutput {
    fn take(&self) -> Vec<u8> {
        std::mem::take(&mut *self.0.lock().expect("output lock"))
    }
}

fn in_process_session(output: &SharedOutput) -> Session {
    let (_sender, receiver) = crossbeam_channel::unbounded();
    let settings = Settings {
        threads: 1,
        seed: 1,
        playouts: Some(16),
        ..Settings::default()
    };
    Session {
        engine: Engine::new(settings.clone()).expect("default settings make an engine"),
        board_game: None,
        settings,
        output: Box::new(output.clone()),
        input: receiver,
        interrupt: Arc::new(AtomicBool::new(false)),
        current_id: None,
        quit: false,
        streamed: false,
    }
}

/// Runs one raw line through `gtp::handle_line` as the reader thread would pass it.
fn handle(session: &mut Session, line: &[u8]) -> Result<(), String> {
    let mut raw = line.to_vec();
    raw.push(b'\n');
    let text = String::from_utf8_lossy(&raw).into_owned();
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| gtp::handle_line(session, &text)));
    match outcome {
        Ok(Ok(())) => {
            gtp::commands::after_command(session);
            Ok(())
        }
        Ok(Err(error)) => Err(format!("output error: {error}")),
        Err(_) => Err("panicked".to_string()),
    }
}

/// The one answer `bytes` must hold, or an error.
fn single_answer(bytes: &[u8]) -> Result<Answer, String> {
    let mut reader = bytes;
    let first = read_answer_bytes(&mut reader)?.ok_or("no answer")?;
    if !reader.is_empty() {
        return Err(format!(
            "more than one answer: {:?}",
            String::from_utf8_lossy(bytes)
        ));
    }
    parse_answer(&first)
}

#[test]
fn random_lines_in_process_get_one_framed_answer_each() {
    let names: Vec<String> = gtp::commands::COMMANDS
        .iter()
        .map(|entry| entry.name.to_string())
        .filter(|name| name != "quit")
        .collect();
    let mut inputs_run = 0;
    let (mut successes, mut failures) = (0, 0);
    let mut succeeded_by_name: std::collections::BTreeMap<String, usize> = Default::default();
    for round in 0..IN_PROCESS_ROUNDS {
        let mut random = SplitMix::new(0x0a_15_41 + round);
        let output = SharedOutput::default();
        let mut session = in_process_session(&output);
        let lines = generate_lines(&mut random, &names, LINES_PER_IN_PROCESS_ROUND, true);
        for (position, (line, expected)) in lines.iter().enumerate() {
            let shown = String::from_utf8_lossy(&line[..line.len().min(200)]).into_owned();
            let place = format!("round {round}, line {position} {shown:?}");
            handle(&mut session, line).unwrap_or_else(|message| panic!("{place}: {message}"));
            assert!(!session.quit, "{place}: the session quit");
            let written = output.take();
            match expected {
                None => assert!(
                    written.is_empty(),
                    "{place}: no answer is due, got {:?}",
                    String::from_utf8_lossy(&written)
                ),
                Some(expected_id) => {
                    let answer = single_answer(&written)
                        .unwrap_or_else(|message| panic!("{place}: {message}"));
                    assert_eq!(answer.id, *expected_id, "{place}: {:?}", answer.raw);
                    if answer.is_success() {
                        successes += 1;
                        if let Some(command) = model_command(line) {
                            *succeeded_by_name
                                .entry(model_name(&command).to_string())
                                .or_insert(0) += 1;
                        }
                    } else {
                        failures += 1;
                    }
                }
            }
        }
        for (command, kind) in FINAL_CHECKS {
            handle(&mut session, command.as_bytes())
                .unwrap_or_else(|message| panic!("round {round}, {command}: {message}"));
            let answer = single_answer(&output.take())
                .unwrap_or_else(|message| panic!("round {round}, {command}: {message}"));
            check_final(command, kind, &answer)
                .unwrap_or_else(|message| panic!("round {round}: {message}"));
        }
        inputs_run += lines.len() + FINAL_CHECKS.len();
    }
    println!(
        "in-process fuzz: {inputs_run} input lines in {IN_PROCESS_ROUNDS} sessions; random lines answered {successes} times = and {failures} times ?"
    );
    println!("= answers by command: {succeeded_by_name:?}");
    let never: Vec<&String> = names
        .iter()
        .filter(|name| !succeeded_by_name.contains_key(*name))
        .collect();
    assert!(
        never.is_empty(),
        "the fuzz never got these commands to succeed, so it does not reach their state: {never:?}"
    );
}

#[test]
fn the_preprocessing_model_agrees_with_the_specification() {
    assert_eq!(
        model_command(b"  play\tb\tD4 # comment\r").as_deref(),
        Some("play b D4")
    );
    assert_eq!(model_command(b"# interrupt"), None);
    assert_eq!(model_command(b" \t \r"), None);
    assert_eq!(model_command(b"\x07"), None);
    assert_eq!(model_command(b"na\x7fme").as_deref(), Some("name"));
    assert_eq!(
        model_command("\u{a0}".as_bytes()).as_deref(),
        Some("\u{a0}")
    );
    assert_eq!(model_name("12 play b D4"), "play");
    assert_eq!(model_name("12"), "");
    assert!(model_has_arguments("3 printsgf x.sgf"));
    assert!(!model_has_arguments("3 printsgf"));
    assert!(!model_has_arguments("printsgf"));
}

/// Sabaki writes a whole batch of commands at once, without ids, before reading anything.
#[test]
fn sabaki_pipelining_two_hundred_commands_in_one_write() {
    let folder = scratch_folder("pipelining-sabaki");
    let mut engine = EngineProcess::start(&[], &folder);
    let mut batch = String::new();
    let mut expected = Vec::new();
    for index in 0..200 {
        let (command, answer) = match index % 5 {
            0 => ("known_command play".to_string(), "true".to_string()),
            1 => (format!("komi {index}.5"), String::new()),
            2 => ("get_komi".to_string(), format!("{}.5", index - 1)),
            3 => ("protocol_version".to_string(), "2".to_string()),
            _ => (
                format!("known_command nonsense{index}"),
                "false".to_string(),
            ),
        };
        batch.push_str(&command);
        batch.push('\n');
        expected.push((command, answer));
    }
    engine
        .write(batch.as_bytes())
        .expect("one write of the batch");
    for (index, (command, answer)) in expected.iter().enumerate() {
        let got = engine
            .read_answer()
            .unwrap_or_else(|message| panic!("answer {index} ({command}): {message}"));
        assert!(
            got.is_success(),
            "answer {index} ({command}): {:?}",
            got.raw
        );
        assert_eq!(got.id, None, "answer {index} ({command}): {:?}", got.raw);
        assert_eq!(got.response(), answer, "answer {index} ({command})");
    }
    engine.quit().expect("quit after the batch");
    println!("pipelining: 200 commands in one write, 200 answers in order");
}

/// gtp2ogs-style: a board sync of plays with ids and CRLF, sent before reading any answer.
#[test]
fn pipelined_game_with_ids_and_crlf_is_answered_in_order() {
    let folder = scratch_folder("pipelining-ids");
    let mut engine = EngineProcess::start(&["--playouts".to_string(), "16".to_string()], &folder);
    let mut batch = String::from("1 boardsize 19\r\n2 clear_board\r\n3 komi 6.5\r\n");
    let mut id = 4;
    let columns = "ABCDEFGHJKLMNOPQRST".as_bytes();
    for step in 0..171 {
        let color = if step % 2 == 0 { "B" } else { "W" };
        let column = columns[step % 19] as char;
        let row = 1 + step / 19 * 2 + step % 2;
        batch.push_str(&format!("{id} play {color} {column}{row}\r\n"));
        id += 1;
    }
    batch.push_str(&format!("{id} genmove B\r\n"));
    let last = id;
    engine
        .write(batch.as_bytes())
        .expect("one write of the batch");
    for expected in 1..=last {
        let answer = engine
            .read_answer()
            .unwrap_or_else(|message| panic!("answer {expected}: {message}"));
        assert_eq!(answer.id, Some(expected), "{:?}", answer.raw);
        assert!(answer.is_success(), "answer {expected}: {:?}", answer.raw);
    }
    engine.quit().expect("quit after the batch");
}

/// Engines per game in the Margo and Abalone process fuzz.
const BOARD_GAME_ROUNDS: u64 = 6;

/// A move word of `game`: mostly well-formed, often legal-looking, sometimes junk.
fn board_game_move(random: &mut SplitMix, game: &str) -> String {
    match (game, random.below(10)) {
        (_, 0) => random_argument(random),
        ("margo", 1) => "swap".to_string(),
        ("margo", _) => {
            let letter = (b'A' + random.below(12) as u8) as char;
            format!("{letter}{}", 1 + random.below(12))
        }
        (_, _) => {
            let cell = |random: &mut SplitMix| {
                let row = (b'a' + random.below(9) as u8) as char;
                format!("{row}{}", 1 + random.below(9))
            };
            let cells = 2 + usize::from(random.chance(1, 4));
            (0..cells).map(|_| cell(random)).collect()
        }
    }
}

#[test]
fn random_input_to_margo_and_abalone_is_answered_and_they_survive() {
    for game in ["margo", "abalone"] {
        let arguments = [
            "--game".to_string(),
            game.to_string(),
            "--playouts".to_string(),
            "16".to_string(),
        ];
        let folder = scratch_folder(&format!("fuzz-{game}-names"));
        let mut engine = EngineProcess::start(&arguments, &folder);
        let names: Vec<String> = engine
            .command("list_commands")
            .expect("list_commands")
            .response()
            .lines()
            // Analysis streams until the next line comes, and this test waits for each answer.
            .filter(|name| *name != "quit" && *name != "ishi-game" && !name.contains("analyze"))
            .map(str::to_string)
            .collect();
        engine.quit().expect("quit");
        for round in 0..BOARD_GAME_ROUNDS {
            let mut random = SplitMix::new(0x6a_4e_00 + round + game.len() as u64 * 100);
            let folder = scratch_folder(&format!("fuzz-{game}-{round}"));
            let mut engine = EngineProcess::start(&arguments, &folder);
            for position in 0..LINES_PER_PROCESS_ROUND {
                let line = if random.chance(2, 5) {
                    let color = random.pick(&["b", "w", "B", "white"]).to_string();
                    match random.below(8) {
                        0 => format!("genmove {color}"),
                        1 => "undo".to_string(),
                        2 => format!("is_legal {color} {}", board_game_move(&mut random, game)),
                        3 => format!("all_legal_moves {color}"),
                        4 => "ishi-perft 1".to_string(),
                        _ => format!("play {color} {}", board_game_move(&mut random, game)),
                    }
                    .into_bytes()
                } else {
                    random_line(&mut random, &names)
                };
                let Some(command) = model_command(&line) else {
                    engine.write(&line).expect("write");
                    engine.write(b"\n").expect("write");
                    continue;
                };
                let name = model_name(&command);
                if matches!(name, "quit" | "ishi-game" | "printsgf") || name.contains("analyze") {
                    continue;
                }
                engine.write(&line).expect("write");
                engine.write(b"\n").expect("write");
                let answer = engine.read_answer().unwrap_or_else(|message| {
                    panic!("{game} round {round}, line {position} {command:?}: {message}")
                });
                assert_eq!(
                    answer.id,
                    expected_id(&command),
                    "{game} round {round}, line {position}: {:?}",
                    answer.raw
                );
            }
            for command in [
                "9001 clear_board",
                "9002 genmove b",
                "9003 showboard",
                "9004 final_score",
            ] {
                let answer = engine
                    .command(command)
                    .unwrap_or_else(|message| panic!("{game} round {round}, {command}: {message}"));
                assert!(
                    answer.is_success(),
                    "{game} round {round}: after the fuzz input {command} answered {:?}",
                    answer.raw
                );
                if command.ends_with("genmove b") || command.ends_with("final_score") {
                    assert!(!answer.response().is_empty(), "{game}: empty {command}");
                }
            }
            engine
                .quit()
                .unwrap_or_else(|message| panic!("{game} round {round}: {message}"));
        }
    }
}
