//! Sessions with ishi as real GUI and server clients hold them, byte for byte
//! (`shared/gtp-clients.md`): Sabaki through its own controller from npm (`tests/clients/
//! sabaki.mjs`, skipped with a message when node or the npm packages are missing), and
//! Lizzie, gtp2ogs and GoGui as scripted sessions that write what those clients write and
//! parse the answers the way their source does. Each test runs the release-like `ishi` binary
//! that cargo builds for integration tests.

use ishi::gtp::analyze::looks_like_engine_output;
use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const BINARY: &str = env!("CARGO_BIN_EXE_ishi");

/// A running engine: raw bytes in, stdout as lines (with any `\r` kept) from a reader thread,
/// stderr gathered apart.
struct Engine {
    child: Child,
    input: ChildStdin,
    /// Lines of stdout, without their `\n`, in arrival order.
    lines: Receiver<Vec<u8>>,
    /// Lines of stderr, gathered when the process ends.
    stderr: Arc<Mutex<Vec<String>>>,
}

impl Engine {
    fn start(arguments: &[&str]) -> Engine {
        let mut child = Command::new(BINARY)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the ishi binary starts");
        let input = child.stdin.take().expect("stdin is piped");
        let mut output = child.stdout.take().expect("stdout is piped");
        let mut errors = child.stderr.take().expect("stderr is piped");
        let (sender, lines) = channel();
        thread::spawn(move || {
            let mut buffer = Vec::new();
            let mut chunk = [0u8; 4096];
            loop {
                match std::io::Read::read(&mut output, &mut chunk) {
                    Ok(0) | Err(_) => return,
                    Ok(count) => {
                        buffer.extend_from_slice(&chunk[..count]);
                        while let Some(end) = buffer.iter().position(|&byte| byte == b'\n') {
                            let line: Vec<u8> = buffer.drain(..=end).collect();
                            if sender.send(line[..line.len() - 1].to_vec()).is_err() {
                                return;
                            }
                        }
                    }
                }
            }
        });
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let gathered = stderr.clone();
        thread::spawn(move || {
            let mut text = String::new();
            let _ = std::io::Read::read_to_string(&mut errors, &mut text);
            if let Ok(mut lines) = gathered.lock() {
                lines.extend(text.lines().map(str::to_string));
            }
        });
        Engine {
            child,
            input,
            lines,
            stderr,
        }
    }

    fn send(&mut self, text: &str) {
        self.input
            .write_all(text.as_bytes())
            .and_then(|_| self.input.flush())
            .expect("the engine reads its input");
    }

    fn line(&self, timeout: Duration) -> String {
        match self.lines.recv_timeout(timeout) {
            Ok(bytes) => String::from_utf8(bytes).expect("stdout is UTF-8"),
            Err(RecvTimeoutError::Timeout) => panic!("no line within {timeout:?}"),
            Err(RecvTimeoutError::Disconnected) => panic!("stdout closed"),
        }
    }

    /// The lines of one answer, up to and without the empty line that ends it.
    fn answer(&self, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self.line(left.max(Duration::from_millis(1)));
            if line.is_empty() {
                return lines;
            }
            lines.push(line);
        }
    }

    /// Sends `quit`, expects `=` and the end of the process.
    fn quit(mut self, quit_line: &str) -> Vec<String> {
        self.send(quit_line);
        let answer = self.answer(Duration::from_secs(5));
        assert!(answer[0].starts_with('='), "quit: {answer:?}");
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the engine did not exit after quit"
            );
            thread::sleep(Duration::from_millis(20));
        }
        thread::sleep(Duration::from_millis(50));
        let lines = self
            .stderr
            .lock()
            .map(|lines| lines.clone())
            .unwrap_or_default();
        lines
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn assert_quiet_stderr(lines: &[String]) {
    for line in lines {
        assert!(
            !looks_like_engine_output(line),
            "stderr line a client would read as engine output: {line:?}"
        );
    }
}

/// Lizzie's check of a vertex it gets from the engine: anything else is a pass to it.
fn lizzie_reads_as_vertex(text: &str) -> bool {
    let letters = text.trim_end_matches(|character: char| character.is_ascii_digit());
    let digits = &text[letters.len()..];
    !letters.is_empty()
        && !digits.is_empty()
        && letters
            .chars()
            .all(|letter| letter.is_ascii_uppercase() && letter != 'I')
}

// ---------------------------------------------------------------------------------------------
// Sabaki, through @sabaki/gtp
// ---------------------------------------------------------------------------------------------

#[test]
fn sabaki_controller_attaches_syncs_analyses_and_plays() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/clients");
    if !folder.join("node_modules/@sabaki/gtp").is_dir() {
        // Install Sabaki's controller from the lock file when npm is here, so `cargo test`
        // alone covers it on a fresh machine.
        let installed = Command::new("npm")
            .args(["ci", "--no-audit", "--no-fund", "--silent"])
            .current_dir(&folder)
            .status();
        if let Err(error) = &installed {
            eprintln!("npm is not available ({error})");
        }
    }
    if !folder.join("node_modules/@sabaki/gtp").is_dir() {
        eprintln!(
            "SKIPPED sabaki_controller_attaches_syncs_analyses_and_plays: run `npm install` in \
             tests/clients (.ci/run does) to test with Sabaki's controller"
        );
        return;
    }
    let output = match Command::new("node")
        .arg(folder.join("sabaki.mjs"))
        .arg(BINARY)
        .args(["--threads", "2", "--playouts", "2000", "-v"])
        .current_dir(&folder)
        .output()
    {
        Ok(output) => output,
        Err(error) => {
            eprintln!(
                "SKIPPED sabaki_controller_attaches_syncs_analyses_and_plays: no node ({error})"
            );
            return;
        }
    };
    let report = String::from_utf8_lossy(&output.stdout);
    println!("{report}");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        output.status.success(),
        "the Sabaki session failed:\n{report}"
    );
    assert!(report.contains("sabaki: all checks passed"));
}

// ---------------------------------------------------------------------------------------------
// Lizzie
// ---------------------------------------------------------------------------------------------

/// Lizzie's `Integer.parseInt(params[0].substring(1))` on an answer's first line.
fn lizzie_answer_id(line: &str) -> i32 {
    let first = line.trim().split(' ').next().unwrap_or_default();
    first[1..]
        .parse::<i32>()
        .unwrap_or_else(|_| panic!("Lizzie cannot read the id of {line:?}"))
}

#[test]
fn lizzie_session_with_ids_integer_analysis_and_name_as_stop() {
    let mut engine = Engine::start(&["--report-version", "0.17", "--threads", "2", "-vv"]);
    let mut id = 0;
    let mut command = |engine: &mut Engine, text: &str| {
        id += 1;
        engine.send(&format!("{id} {text}\n"));
        id
    };
    // Start-up, as Lizzie sends it.
    let name = command(&mut engine, "name");
    let version = command(&mut engine, "version");
    let boardsize = command(&mut engine, "boardsize 19");
    let komi = command(&mut engine, "komi 7.5");
    let answer = engine.answer(Duration::from_secs(5));
    assert_eq!(lizzie_answer_id(&answer[0]), name);
    assert!(
        !answer[0].contains("KataGo"),
        "Lizzie must not switch to KataGo mode"
    );
    let answer = engine.answer(Duration::from_secs(5));
    assert_eq!(lizzie_answer_id(&answer[0]), version);
    // Lizzie: version split on '.', minor of at least 15.
    let version_text = answer[0].split(' ').nth(1).unwrap_or_default();
    let minor: i32 = version_text
        .split('.')
        .nth(1)
        .and_then(|minor| minor.parse().ok())
        .expect("a version with a numeric minor part");
    assert!(minor >= 15, "Lizzie refuses version {version_text}");
    for expected in [boardsize, komi] {
        let answer = engine.answer(Duration::from_secs(5));
        assert_eq!(answer, vec![format!("={expected} ")]);
    }
    // Handicap as Lizzie places it, then a few moves; White is to move after the handicap.
    let handicap = command(&mut engine, "fixed_handicap 2");
    let answer = engine.answer(Duration::from_secs(5));
    assert_eq!(lizzie_answer_id(&answer[0]), handicap);
    let stones: Vec<&str> = answer[0].split(' ').skip(1).collect();
    assert_eq!(stones, ["D4", "Q16"]);
    assert!(stones.iter().all(|stone| lizzie_reads_as_vertex(stone)));
    for (color, vertex) in [("W", "Q4"), ("B", "D16"), ("W", "C3")] {
        let played = command(&mut engine, &format!("play {color} {vertex}"));
        assert_eq!(
            engine.answer(Duration::from_secs(5)),
            vec![format!("={played} ")]
        );
    }
    // `lz-analyze 10` with no colour analyses for the side to move (Black).
    let analysis = command(&mut engine, "lz-analyze 10");
    let header = engine.line(Duration::from_secs(5));
    assert_eq!(
        header,
        format!("={analysis} "),
        "the header comes first, alone"
    );
    assert_eq!(lizzie_answer_id(&header), analysis);
    let mut info_lines = Vec::new();
    while info_lines.len() < 3 {
        let line = engine.line(Duration::from_secs(10));
        assert!(line.starts_with("info "), "unexpected line {line:?}");
        info_lines.push(line);
    }
    let stop = command(&mut engine, "name");
    // The rest of the analysis, then the empty line, then the answer to `name`.
    loop {
        let line = engine.line(Duration::from_secs(5));
        if line.is_empty() {
            break;
        }
        assert!(line.starts_with("info "), "unexpected line {line:?}");
        info_lines.push(line);
    }
    assert_eq!(
        engine.answer(Duration::from_secs(5)),
        vec![format!("={stop} ishi")]
    );
    for line in &info_lines {
        for block in line.split(" info ") {
            // Lizzie splits the line on " info " and reads each block with MoveData.fromInfo:
            // `trim().split(" ")`, key-value pairs until `pv`.
            let data: Vec<&str> = block
                .trim()
                .trim_start_matches("info ")
                .split(' ')
                .collect();
            let mut index = 0;
            let mut saw = Vec::new();
            while data[index] != "pv" {
                let (key, value) = (data[index], data[index + 1]);
                match key {
                    "move" => {
                        assert!(lizzie_reads_as_vertex(value) || value == "pass", "{value}")
                    }
                    "visits" | "winrate" | "prior" | "lcb" | "order" => {
                        let number: i32 = value
                            .parse()
                            .unwrap_or_else(|_| panic!("{key} {value} is no integer in {line}"));
                        if key != "order" && key != "visits" {
                            assert!((0..=10_000).contains(&number), "{key} {value}");
                        }
                    }
                    other => panic!("unexpected key {other} in {line}"),
                }
                saw.push(key);
                index += 2;
            }
            assert_eq!(saw, ["move", "visits", "winrate", "prior", "lcb", "order"]);
            let variation = &data[index + 1..];
            assert!(!variation.is_empty());
            assert!(variation
                .iter()
                .all(|&vertex| lizzie_reads_as_vertex(vertex) || vertex == "pass"));
        }
    }
    // Lizzie plays with upper-case vertices and lower-case `pass`.
    let generated = command(&mut engine, "genmove B");
    let answer = engine.answer(Duration::from_secs(60));
    assert_eq!(lizzie_answer_id(&answer[0]), generated);
    let chosen = answer[0].split(' ').nth(1).unwrap_or_default();
    assert!(
        lizzie_reads_as_vertex(chosen) || chosen == "pass",
        "{chosen}"
    );
    let undone = command(&mut engine, "undo");
    assert_eq!(
        engine.answer(Duration::from_secs(5)),
        vec![format!("={undone} ")]
    );
    let stderr = engine.quit(&format!("{} quit\n", id + 1));
    assert_quiet_stderr(&stderr);
}

// ---------------------------------------------------------------------------------------------
// gtp2ogs
// ---------------------------------------------------------------------------------------------

/// gtp2ogs' reading of stdout: buffer until the text ends with two newlines, split on
/// `(\r?\n){2}`, each block must start with `=` or `?` ("Unexpected output" otherwise).
struct OgsReader {
    buffer: String,
    blocks: Vec<String>,
}

impl OgsReader {
    fn new() -> OgsReader {
        OgsReader {
            buffer: String::new(),
            blocks: Vec::new(),
        }
    }

    /// The next answer's value (`substring(1).trim()`), `Err` for a `?` answer.
    fn next(&mut self, engine: &Engine, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        while self.blocks.is_empty() {
            let left = deadline.saturating_duration_since(Instant::now());
            self.buffer
                .push_str(&engine.line(left.max(Duration::from_millis(1))));
            self.buffer.push('\n');
            if self.buffer.ends_with("\n\n") || self.buffer.ends_with("\r\n\r\n") {
                let text = std::mem::take(&mut self.buffer).replace("\r\n", "\n");
                for block in text.split("\n\n").filter(|block| !block.is_empty()) {
                    self.blocks.push(block.to_string());
                }
            }
        }
        let block = self.blocks.remove(0);
        match block.chars().next() {
            Some('=') => Ok(block[1..].trim().to_string()),
            Some('?') => Err(block[1..].trim().to_string()),
            _ => panic!("gtp2ogs: Unexpected output {block:?}"),
        }
    }
}

#[test]
fn gtp2ogs_session_with_crlf_fired_time_commands_and_free_handicap() {
    let mut engine = Engine::start(&["--threads", "2", "-v"]);
    let mut reader = OgsReader::new();
    let long = Duration::from_secs(30);
    engine.send("list_commands\r\n");
    let commands: Vec<String> = reader
        .next(&engine, long)
        .expect("list_commands succeeds")
        .split(['\r', '\n'])
        .map(|name| name.trim().to_string())
        .collect();
    for needed in [
        "genmove",
        "kgs-time_settings",
        "time_left",
        "place_free_handicap",
        "komi",
    ] {
        assert!(
            commands.iter().any(|name| name == needed),
            "{needed} listed"
        );
    }
    // loadState: boardsize, clear_board, komi; the engine is Black with 3 free handicap stones.
    engine.send("boardsize 9\r\nclear_board\r\nkomi 0.5\r\nplace_free_handicap 3\r\n");
    for _ in 0..3 {
        assert_eq!(reader.next(&engine, long), Ok(String::new()));
    }
    let stones = reader.next(&engine, long).expect("handicap placed");
    let stones: Vec<&str> = stones.split(' ').collect();
    assert_eq!(stones.len(), 3, "exactly N stones: {stones:?}");
    assert!(stones.iter().all(|stone| lizzie_reads_as_vertex(stone)));
    // White answers with lower-case vertices; before each genmove the clock commands are fired
    // without waiting, back to back with the genmove.
    let mut black_seconds = 30;
    for (index, white) in ["e5", "c7", "g3"].iter().enumerate() {
        let occupied = stones.iter().any(|stone| stone.eq_ignore_ascii_case(white));
        let white_move = if occupied { "pass" } else { white };
        engine.send(&format!("play white {white_move}\r\n"));
        if reader.next(&engine, long).is_err() {
            // The engine's own stone is already there: gtp2ogs would only send legal moves.
            engine.send("play white pass\r\n");
            assert_eq!(reader.next(&engine, long), Ok(String::new()));
        }
        engine.send(&format!(
            "kgs-time_settings byoyomi 30 5 3\r\ntime_left black {black_seconds} 0\r\n\
             time_left white 30 0\r\ngenmove black\r\n"
        ));
        let started = Instant::now();
        for _ in 0..3 {
            assert_eq!(reader.next(&engine, long), Ok(String::new()));
        }
        let answer = reader.next(&engine, long).expect("genmove succeeds");
        let thought = started.elapsed();
        let chosen = answer.to_lowercase();
        assert!(!chosen.is_empty(), "an empty answer makes gtp2ogs resign");
        assert!(
            chosen == "pass" || chosen == "resign" || lizzie_reads_as_vertex(&answer),
            "move {answer:?} on turn {index}"
        );
        assert!(
            thought < Duration::from_secs(black_seconds),
            "genmove took {thought:?} with {black_seconds} s on the clock"
        );
        black_seconds -= thought.as_secs().min(black_seconds - 5);
    }
    // Absolute and Canadian clocks in gtp2ogs' fake-Canadian forms.
    engine.send("time_settings 60 0 0\r\ntime_left black 20 0\r\ngenmove black\r\n");
    assert_eq!(reader.next(&engine, long), Ok(String::new()));
    assert_eq!(reader.next(&engine, long), Ok(String::new()));
    assert!(reader.next(&engine, long).is_ok());
    engine.send("time_settings 0 5 1\r\ntime_left black 5 1\r\ngenmove black\r\n");
    assert_eq!(reader.next(&engine, long), Ok(String::new()));
    assert_eq!(reader.next(&engine, long), Ok(String::new()));
    assert!(reader.next(&engine, long).is_ok());
    let stderr = engine.quit("quit\r\n");
    assert_quiet_stderr(&stderr);
}

// ---------------------------------------------------------------------------------------------
// GoGui
// ---------------------------------------------------------------------------------------------

/// GoGui's reading of an answer: the text after the first space of the whole response.
fn gogui_result(lines: &[String]) -> String {
    let response = lines.join("\n");
    assert!(response.starts_with('='), "failure: {response}");
    match response.find(' ') {
        Some(at) => response[at + 1..].to_string(),
        None => String::new(),
    }
}

fn gogui_point(text: &str, size: usize) -> bool {
    let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
    let upper = text.to_ascii_uppercase();
    let Some(letter) = upper.chars().next() else {
        return false;
    };
    let column = letters.find(letter);
    let row: Option<usize> = upper[1..].parse().ok();
    matches!((column, row), (Some(column), Some(row)) if column < size && (1..=size).contains(&row))
}

#[test]
fn gogui_analyze_commands_draw_and_interrupt_stops_genmove() {
    let mut engine = Engine::start(&["--threads", "2", "--move-time", "0.3", "-v"]);
    let size = 9;
    let long = Duration::from_secs(60);
    engine.send("name\nprotocol_version\nversion\nlist_commands\ngogui-interrupt\n");
    let mut answers: Vec<Vec<String>> = (0..5).map(|_| engine.answer(long)).collect();
    let commands = gogui_result(&answers.remove(3));
    assert!(commands
        .lines()
        .any(|name| name == "gogui-analyze_commands"));
    assert!(commands.lines().any(|name| name == "gogui-interrupt"));
    engine.send("boardsize 9\nclear_board\nkomi 6.5\ngogui-play_sequence B E5 W C3 B G7\n");
    for _ in 0..4 {
        assert_eq!(engine.answer(long), vec!["= ".to_string()]);
    }
    engine.send("gogui-analyze_commands\n");
    let definitions = gogui_result(&engine.answer(long));
    let mut seen_types = Vec::new();
    for definition in definitions.lines() {
        let fields: Vec<&str> = definition.split('/').collect();
        assert!((3..=5).contains(&fields.len()), "{definition}");
        let (kind, label, command) = (fields[0], fields[1], fields[2]);
        assert!(!label.is_empty());
        seen_types.push(kind.to_string());
        let command = command.replace("%m", "w");
        engine.send(&format!("{command}\n"));
        let result = gogui_result(&engine.answer(long));
        match kind {
            "dboard" => {
                let rows: Vec<&str> = result
                    .lines()
                    .filter(|row| !row.trim().is_empty())
                    .collect();
                assert_eq!(rows.len(), size, "{label}");
                for row in rows {
                    let values: Vec<f64> = row
                        .split_whitespace()
                        .map(|value| value.parse().expect("a number"))
                        .collect();
                    assert_eq!(values.len(), size);
                    assert!(values.iter().all(|value| (-1.0..=1.0).contains(value)));
                }
            }
            "gfx" => {
                for line in result.lines() {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    match words[0] {
                        "LABEL" | "INFLUENCE" => {
                            assert!(words.len() % 2 == 1, "{line}");
                            for pair in words[1..].chunks(2) {
                                assert!(gogui_point(pair[0], size), "{line}");
                                if words[0] == "INFLUENCE" {
                                    let value: f64 = pair[1].parse().expect("a number");
                                    assert!((-1.0..=1.0).contains(&value));
                                }
                            }
                        }
                        "MARK" | "TRIANGLE" | "CIRCLE" | "SQUARE" => {
                            assert!(words[1..].iter().all(|point| gogui_point(point, size)))
                        }
                        "TEXT" => {}
                        other => panic!("unknown gfx command {other} in {label}"),
                    }
                }
            }
            "var" => {
                let moves: Vec<&str> = result.split_whitespace().collect();
                assert!(!moves.is_empty(), "{label}");
                assert!(
                    moves
                        .iter()
                        .all(|chosen| gogui_point(chosen, size)
                            || chosen.eq_ignore_ascii_case("pass"))
                );
            }
            "string" => assert!(!result.trim().is_empty(), "{label}"),
            "param" => {
                for line in result.lines() {
                    let words: Vec<&str> = line.split_whitespace().collect();
                    assert!(words.len() >= 2, "{line}");
                    assert!(
                        words[0] == "[bool]"
                            || words[0] == "[string]"
                            || words[0].starts_with("[list/"),
                        "{line}"
                    );
                    // GoGui sets a parameter by sending it back with its value.
                    let value = words.get(2).copied().unwrap_or("");
                    engine.send(&format!("{command} {} {value}\n", words[1]));
                    assert_eq!(engine.answer(long), vec!["= ".to_string()], "{line}");
                }
            }
            other => panic!("unexpected analyze type {other}"),
        }
    }
    for kind in ["dboard", "gfx", "var", "string", "param"] {
        assert!(
            seen_types.iter().any(|seen| seen == kind),
            "no {kind} entry"
        );
    }
    // `# interrupt` while genmove thinks (an hour on the clock gives it over a minute): the
    // best move so far, at once.
    engine.send("time_settings 3600 0 0\n");
    assert_eq!(engine.answer(long), vec!["= ".to_string()]);
    engine.send("genmove w\n");
    thread::sleep(Duration::from_millis(700));
    let interrupted = Instant::now();
    engine.send("# interrupt\n");
    let answer = engine.answer(Duration::from_secs(40));
    // The clock allows over a minute: an answer well before that can only come from the
    // interrupt. The bound is loose so a loaded machine does not fail the test.
    assert!(
        interrupted.elapsed() < Duration::from_secs(30),
        "genmove took {:?} to stop",
        interrupted.elapsed()
    );
    let chosen = gogui_result(&answer);
    assert!(gogui_point(&chosen, size) || chosen == "pass", "{chosen}");
    // The comment line got no answer of its own: the next answer is the next command's.
    engine.send("protocol_version\n");
    assert_eq!(engine.answer(long), vec!["= 2".to_string()]);
    let stderr = engine.quit("quit\n");
    assert_quiet_stderr(&stderr);
}

// ---------------------------------------------------------------------------------------------
// KataGo's grammar as analysis tools send it, and pondering
// ---------------------------------------------------------------------------------------------

#[test]
fn katago_grammar_ownership_restrictions_and_raw_newline_stop() {
    let mut engine = Engine::start(&["--threads", "2", "--playouts", "500"]);
    let long = Duration::from_secs(30);
    engine.send("boardsize 9\nclear_board\nplay b E5\nplay w C3\n");
    for _ in 0..4 {
        assert_eq!(engine.answer(long), vec!["= ".to_string()]);
    }
    // A malformed request is one plain failure, with no header before it.
    engine.send("7 kata-analyze b 10 bogus 1\n");
    let answer = engine.answer(long);
    assert_eq!(answer.len(), 1);
    assert!(
        answer[0].starts_with("?7 cannot parse analyze tags"),
        "{answer:?}"
    );

    // Ownership after the info blocks: 81 floats with a decimal point, from Black's view.
    engine.send("8 kata-analyze b interval 20 ownership true rootInfo true\n");
    assert_eq!(engine.line(long), "=8 ");
    let line = engine.line(long);
    // A raw newline stops the analysis (KataGo's rule) and gets no answer of its own.
    engine.send("\n");
    loop {
        if engine.line(long).is_empty() {
            break;
        }
    }
    let (blocks, ownership) = line.split_once(" ownership ").expect("an ownership field");
    assert!(blocks.starts_with("info move "));
    assert!(blocks.contains(" rootInfo visits "));
    let values: Vec<&str> = ownership.split(' ').collect();
    assert_eq!(values.len(), 81, "{ownership}");
    for value in &values {
        assert!(value.contains('.'), "{value}");
        let number: f64 = value.parse().expect("a number");
        assert!((-1.0..=1.0).contains(&number));
    }
    // E5 (row 5, column E) is black's stone: row 5 from the top is index 4.
    let e5: f64 = values[4 * 9 + 4].parse().expect("a number");
    assert!(e5 > 0.5, "E5 should be Black's, ownership {e5}");
    engine.send("9 protocol_version\n");
    assert_eq!(engine.answer(long), vec!["=9 2".to_string()]);

    // avoid: no shown move, and no move of the avoided colour in a variation's first ply.
    engine.send("10 lz-analyze b 10 avoid b D4:F6,G7 1 minmoves 5\n");
    assert_eq!(engine.line(long), "=10 ");
    let line = engine.line(long);
    engine.send("11 name\n");
    while !engine.line(long).is_empty() {}
    assert_eq!(engine.answer(long), vec!["=11 ishi".to_string()]);
    let avoided = ["D4", "E4", "F4", "D5", "F5", "D6", "E6", "F6", "G7"];
    for block in line.split("info ").skip(1) {
        let chosen = block.split(' ').nth(1).unwrap_or_default();
        assert!(
            !avoided.contains(&chosen),
            "{chosen} was to be avoided: {line}"
        );
    }

    // lz-genmove_analyze: info lines, then `play`, then the empty line; the move is played.
    engine.send("12 lz-genmove_analyze b 5\n");
    let answer = engine.answer(long);
    assert_eq!(answer[0], "=12 ");
    let last = answer.last().expect("a play line");
    assert!(last.starts_with("play "), "{answer:?}");
    assert!(answer[1..answer.len() - 1]
        .iter()
        .all(|line| line.starts_with("info ")));
    let chosen = &last["play ".len()..];
    engine.send("13 is_legal w pass\n");
    assert_eq!(engine.answer(long), vec!["=13 1".to_string()]);
    if chosen != "pass" && chosen != "resign" {
        engine.send(&format!("14 is_legal w {chosen}\n"));
        assert_eq!(
            engine.answer(long),
            vec!["=14 0".to_string()],
            "the generated move {chosen} is on the board"
        );
    }
    let stderr = engine.quit("quit\n");
    assert_quiet_stderr(&stderr);
}

#[test]
fn kata_raw_nn_answers_in_katagos_form() {
    let mut engine = Engine::start(&["--threads", "1"]);
    let long = Duration::from_secs(30);
    engine.send("boardsize 9\nclear_board\nplay b E5\nplay w C3\n");
    for _ in 0..4 {
        assert_eq!(engine.answer(long), vec!["= ".to_string()]);
    }
    engine.send("kata-raw-nn 0\n");
    let answer = engine.answer(long);
    assert_eq!(answer.len(), 1 + 4 + 1 + 9 + 1 + 1 + 9, "{answer:?}");
    assert_eq!(answer[0], "= symmetry 0");
    let field = |line: &str, name: &str| -> f64 {
        let (key, value) = line.split_once(' ').expect("a named field");
        assert_eq!(key, name);
        value.trim().parse().expect("a number")
    };
    let win = field(&answer[1], "whiteWin");
    let loss = field(&answer[2], "whiteLoss");
    assert!((win + loss - 1.0).abs() < 1e-5 && (0.0..=1.0).contains(&win));
    assert_eq!(field(&answer[3], "noResult"), 0.0);
    assert!(field(&answer[4], "whiteLead").abs() < 361.0);
    assert_eq!(answer[5], "policy");
    // Rows from the top: E5 is row 4, column 4; C3 row 6, column 2.
    let rows: Vec<Vec<&str>> = answer[6..15]
        .iter()
        .map(|row| row.split_whitespace().collect())
        .collect();
    let mut total = 0.0;
    for (row, cells) in rows.iter().enumerate() {
        assert_eq!(cells.len(), 9);
        for (column, cell) in cells.iter().enumerate() {
            let occupied = (row, column) == (4, 4) || (row, column) == (6, 2);
            assert_eq!(
                *cell == "NAN",
                occupied,
                "row {row}, column {column}: {cell}"
            );
            if !occupied {
                total += cell.parse::<f64>().expect("a probability");
            }
        }
    }
    total += field(&answer[15], "policyPass");
    assert!((total - 1.0).abs() < 1e-3, "the policy sums to {total}");
    assert_eq!(answer[16], "whiteOwnership");
    let owners: Vec<f64> = answer[17..26]
        .iter()
        .flat_map(|row| {
            row.split_whitespace()
                .map(|cell| cell.parse::<f64>().unwrap())
        })
        .collect();
    assert_eq!(owners.len(), 81);
    assert!(owners.iter().all(|owner| (-1.0..=1.0).contains(owner)));
    assert!(
        owners[4 * 9 + 4] < 0.0,
        "Black's E5 is Black's: {}",
        owners[40]
    );
    assert!(
        owners[6 * 9 + 2] > 0.0,
        "White's C3 is White's: {}",
        owners[56]
    );

    // Every symmetry in turn, with no blank line inside the answer; another colour.
    engine.send("kata-raw-nn w all\n");
    let answer = engine.answer(long);
    assert_eq!(answer.len(), 8 * 26, "{answer:?}");
    let symmetries: Vec<&String> = answer
        .iter()
        .filter(|line| line.contains("symmetry"))
        .collect();
    assert_eq!(symmetries.len(), 8);
    assert!(symmetries[7].ends_with("symmetry 7"));
    for (request, expected) in [
        (
            "kata-raw-nn 8\n",
            "? expected a symmetry 'all' or 0 to 7, not '8'",
        ),
        ("kata-raw-nn\n", "? expected a symmetry 'all' or 0 to 7"),
        ("kata-raw-nn b 0 1\n", "? syntax error"),
        (
            "boardsize 5\nkata-raw-nn 0\n",
            "? the value network judges boards from 7x7 to 19x19",
        ),
        (
            "ishi-game margo\nkata-raw-nn 0\n",
            "? not available in margo",
        ),
    ] {
        engine.send(request);
        if request.contains('\n') && request.matches('\n').count() == 2 {
            assert_eq!(engine.answer(long), vec!["= ".to_string()]);
        }
        assert_eq!(engine.answer(long), vec![expected.to_string()], "{request}");
    }
    let stderr = engine.quit("quit\n");
    assert_quiet_stderr(&stderr);
}

#[test]
fn pondering_answers_clock_and_moves_at_once() {
    let mut engine = Engine::start(&["--threads", "2", "--ponder", "--playouts", "300"]);
    let long = Duration::from_secs(30);
    engine.send("boardsize 9\nclear_board\ngenmove b\n");
    engine.answer(long);
    engine.answer(long);
    engine.answer(long);
    // The engine now thinks on White's move, without limit; each command is answered (an
    // answer at all proves the pondering stopped; the bound is loose so a loaded machine does
    // not fail the test), and pondering resumes after it.
    for command in [
        "time_left b 100 0",
        "time_left w 100 0",
        "play w C3",
        "time_left b 90 0",
        "showboard",
    ] {
        thread::sleep(Duration::from_millis(150));
        let sent = Instant::now();
        engine.send(&format!("{command}\n"));
        let answer = engine.answer(long);
        assert!(answer[0].starts_with('='), "{command}: {answer:?}");
        assert!(
            sent.elapsed() < Duration::from_secs(10),
            "{command} waited {:?} while pondering",
            sent.elapsed()
        );
    }
    engine.quit("quit\n");
}

// ---------------------------------------------------------------------------------------------
// The documentation
// ---------------------------------------------------------------------------------------------

/// The engine arguments of every `/path/to/ishi ...` command line in `docs/clients.md`: up to
/// a backtick, a quote, a table bar or the end of the line, or the rest of a JSON list.
fn documented_command_lines(text: &str) -> Vec<Vec<String>> {
    const PLACEHOLDER: &str = "/path/to/ishi";
    let mut lines = Vec::new();
    for (at, _) in text.match_indices(PLACEHOLDER) {
        let rest = &text[at + PLACEHOLDER.len()..];
        let arguments: Vec<String> = if let Some(list) = rest.strip_prefix("\",") {
            let end = list.find(']').unwrap_or(list.len());
            list[..end]
                .split(',')
                .map(|item| item.trim().trim_matches('"').to_string())
                .filter(|item| !item.is_empty())
                .collect()
        } else {
            let end = rest.find(['`', '"', '\n', '|']).unwrap_or(rest.len());
            rest[..end].split_whitespace().map(str::to_string).collect()
        };
        lines.push(arguments);
    }
    lines
}

#[test]
fn documented_engine_command_lines_are_accepted() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/clients.md");
    let text = std::fs::read_to_string(&path).expect("docs/clients.md is readable");
    let lines = documented_command_lines(&text);
    assert!(lines.len() >= 8, "found only {lines:?}");
    assert!(lines
        .iter()
        .any(|arguments| arguments.contains(&"0.17".to_string())));
    for arguments in lines {
        let borrowed: Vec<&str> = arguments.iter().map(String::as_str).collect();
        let mut engine = Engine::start(&borrowed);
        engine.send("1 protocol_version\n2 name\n");
        let long = Duration::from_secs(10);
        assert_eq!(
            engine.answer(long),
            vec!["=1 2".to_string()],
            "{arguments:?}"
        );
        assert_eq!(
            engine.answer(long),
            vec!["=2 ishi".to_string()],
            "{arguments:?}"
        );
        engine.quit("3 quit\n");
    }
}
