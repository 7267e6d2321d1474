//! Runs the GTP regression files `gtp-tests/*.tst` through the real `ishi` binary, the way
//! gogui-regress does (GoGui 1.6 `tools/regress/Regress.java`), and checks the framing of
//! every answer on the way. From the peer suites, when present (read in place, never copied),
//! it also runs Fuego's `repetition.tst` with Fuego's rule commands mapped to ishi's, and loads
//! every SGF file through `loadsgf` and back through `printsgf`. Knows GTP framing and the
//! `.tst` syntax, nothing of Go.
//!
//! # The `.tst` syntax
//!
//! * `N command` (a number, a space, a command) is a test; the line goes to the engine as it
//!   is, so the engine must echo `N`. Any other command line is setup.
//! * `#? [regex]` after a test is its expected answer: the regex must match the whole answer
//!   (the text after `=N `, trimmed), with `.` matching newlines and `^`/`$` at line breaks,
//!   case-sensitive. `[!regex]` must not match. A `*` after `]` marks an expected failure,
//!   counted apart. An error answer (`?`) always fails, as in gogui-regress, except that
//! * `#? [?regex]` (an ishi extension) expects an error answer whose message matches.
//! * A test without `#?` passes when the answer is `=`. A setup line must answer `=`.
//! * `# ishi-args: --flag value` (anywhere) adds flags to the engine's command line, after
//!   `--threads 1 --seed 1`.
//! * `{scratch}` in a command (an ishi extension) becomes a private empty folder, for files
//!   the engine writes (`printsgf`).
//! * The engine runs in the `.tst` file's folder, so `loadsgf` paths are relative to it.
//!
//! Unlike gogui-regress, an unexpected pass of a `*` test fails the run too: the `*` must then
//! go. `ISHI_TST=name` runs only the files whose name contains `name`.

mod gtp_support;

use gtp_support::{expected_id, peer_suites, scratch_folder, Answer, EngineProcess};
use regex::Regex;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// What a `#?` line asks of the answer.
#[derive(Clone, Debug)]
struct Expectation {
    /// The text between the brackets, as written (for reports).
    written: String,
    /// The regex, anchored on both ends.
    regex: Regex,
    /// `[!...]`: the regex must not match.
    negated: bool,
    /// `[?...]`: an error answer is expected.
    error_expected: bool,
    /// A trailing `*`: the test is known to fail.
    expected_failure: bool,
}

/// Parses the text after `#?`.
///
/// # Errors
/// A message for a pattern without brackets or with a bad regex.
fn parse_expectation(text: &str) -> Result<Option<Expectation>, String> {
    let mut pattern = text.trim();
    if pattern.is_empty() {
        return Ok(None);
    }
    let expected_failure = match pattern.strip_suffix('*') {
        Some(rest) => {
            pattern = rest.trim_end();
            true
        }
        None => false,
    };
    let inner = pattern
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .ok_or_else(|| format!("pattern needs [brackets]: {text}"))?
        .trim();
    let written = inner.to_string();
    let (negated, error_expected, body) = if let Some(rest) = inner.strip_prefix('!') {
        (true, false, rest)
    } else if let Some(rest) = inner.strip_prefix('?') {
        (false, true, rest.trim())
    } else {
        (false, false, inner)
    };
    let regex = Regex::new(&format!(r"(?ms)\A(?:{body})\z"))
        .map_err(|error| format!("bad regex in {text}: {error}"))?;
    Ok(Some(Expectation {
        written,
        regex,
        negated,
        error_expected,
        expected_failure,
    }))
}

/// Whether `answer` fails `expectation` (before the `*` is taken into account).
fn fails(answer: &Answer, expectation: Option<&Expectation>) -> bool {
    let Some(expectation) = expectation else {
        return !answer.is_success();
    };
    let response = answer.response();
    if expectation.error_expected {
        return answer.is_success() || !expectation.regex.is_match(response);
    }
    if !answer.is_success() {
        return true;
    }
    expectation.regex.is_match(response) == expectation.negated
}

/// The gogui-regress test number of a command line: the text before the first space, when it
/// is a number.
fn test_number(line: &str) -> Option<u32> {
    let (first, _) = line.split_once(' ')?;
    first.parse::<u32>().ok()
}

/// The tally of one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Tally {
    tests: usize,
    passed: usize,
    expected_failures: usize,
    unexpected_failures: usize,
    unexpected_passes: usize,
    /// Setup lines answered with `?`, framing faults, malformed `#?` lines.
    other_errors: usize,
    /// One paragraph per problem: file:line, command, expected, got.
    report: String,
}

impl Tally {
    fn is_clean(&self) -> bool {
        self.unexpected_failures == 0 && self.unexpected_passes == 0 && self.other_errors == 0
    }

    fn add(&mut self, other: &Tally) {
        self.tests += other.tests;
        self.passed += other.passed;
        self.expected_failures += other.expected_failures;
        self.unexpected_failures += other.unexpected_failures;
        self.unexpected_passes += other.unexpected_passes;
        self.other_errors += other.other_errors;
    }

    fn summary(&self) -> String {
        format!(
            "{} tests, {} passed, {} expected failures, {} unexpected failures, {} unexpected passes, {} other errors",
            self.tests,
            self.passed,
            self.expected_failures,
            self.unexpected_failures,
            self.unexpected_passes,
            self.other_errors
        )
    }
}

/// A command sent and waiting for its `#?` line.
struct Pending {
    line_number: usize,
    command: String,
    number: Option<u32>,
    answer: Answer,
}

/// Rewrites or drops a command line before it is sent (peer suites use other engines'
/// private commands). `None` drops the line.
type Mapper = fn(&str) -> Option<String>;

/// The `# ishi-args:` flags of a file.
fn header_arguments(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| line.trim().strip_prefix('#'))
        .filter_map(|comment| comment.trim().strip_prefix("ishi-args:"))
        .flat_map(|flags| flags.split_whitespace().map(str::to_string))
        .collect()
}

/// Runs one `.tst` file through a fresh engine and tallies its results.
fn run_file(path: &Path, mapper: Mapper, extra_arguments: &[String]) -> Tally {
    let mut tally = Tally::default();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let name = path
        .strip_prefix(manifest)
        .unwrap_or(path)
        .display()
        .to_string();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) => {
            tally.other_errors += 1;
            let _ = writeln!(tally.report, "{name}: cannot read: {error}");
            return tally;
        }
    };
    let folder = path.parent().unwrap_or(Path::new("."));
    let stem = path
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_default();
    let scratch = scratch_folder(&format!("regress-{stem}"));
    let mut arguments = header_arguments(&text);
    arguments.extend_from_slice(extra_arguments);
    let mut engine = EngineProcess::start(&arguments, folder);
    let mut pending: Option<Pending> = None;
    for (index, raw_line) in text.lines().enumerate() {
        let line_number = index + 1;
        let line = raw_line.trim();
        if let Some(pattern) = line.strip_prefix("#?") {
            let Some(sent) = pending.take() else {
                tally.other_errors += 1;
                let _ = writeln!(
                    tally.report,
                    "{name}:{line_number}: #? without a test command before it"
                );
                continue;
            };
            if sent.number.is_none() {
                tally.other_errors += 1;
                let _ = writeln!(
                    tally.report,
                    "{name}:{line_number}: #? after a setup line (no test number): {}",
                    sent.command
                );
                continue;
            }
            match parse_expectation(pattern) {
                Ok(expectation) => judge(&name, &sent, expectation.as_ref(), &mut tally),
                Err(message) => {
                    tally.other_errors += 1;
                    let _ = writeln!(tally.report, "{name}:{line_number}: {message}");
                }
            }
            continue;
        }
        if let Some(sent) = pending.take() {
            judge(&name, &sent, None, &mut tally);
        }
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some(command) = mapper(&line.replace('\t', " ")) else {
            continue;
        };
        let command = command.replace("{scratch}", &scratch.display().to_string());
        let answer = match engine.command(&command) {
            Ok(answer) => answer,
            Err(message) => {
                tally.other_errors += 1;
                let _ = writeln!(
                    tally.report,
                    "{name}:{line_number}: {command}\n    framing: {message}"
                );
                return tally;
            }
        };
        pending = Some(Pending {
            line_number,
            number: test_number(&command),
            command,
            answer,
        });
    }
    if let Some(sent) = pending.take() {
        judge(&name, &sent, None, &mut tally);
    }
    if let Err(message) = engine.quit() {
        tally.other_errors += 1;
        let _ = writeln!(tally.report, "{name}: at quit: {message}");
    }
    tally
}

/// Tallies one answered command against its expectation.
fn judge(name: &str, sent: &Pending, expectation: Option<&Expectation>, tally: &mut Tally) {
    let got = if sent.answer.is_success() {
        format!("= {}", sent.answer.response())
    } else {
        format!("? {}", sent.answer.response())
    };
    let Some(_) = sent.number else {
        if !sent.answer.is_success() {
            tally.other_errors += 1;
            let _ = writeln!(
                tally.report,
                "{name}:{}: setup command failed: {}\n    got:      {got}",
                sent.line_number, sent.command
            );
        }
        return;
    };
    tally.tests += 1;
    let failed = fails(&sent.answer, expectation);
    let expected_failure = expectation.is_some_and(|expectation| expectation.expected_failure);
    let wanted = match expectation {
        Some(expectation) => format!("[{}]", expectation.written),
        None => "any = answer".to_string(),
    };
    match (failed, expected_failure) {
        (false, false) => tally.passed += 1,
        (true, true) => tally.expected_failures += 1,
        (true, false) => {
            tally.unexpected_failures += 1;
            let _ = writeln!(
                tally.report,
                "{name}:{}: unexpected FAIL: {}\n    expected: {wanted}\n    got:      {got}",
                sent.line_number, sent.command
            );
        }
        (false, true) => {
            tally.passed += 1;
            tally.unexpected_passes += 1;
            let _ = writeln!(
                tally.report,
                "{name}:{}: unexpected PASS (remove the *): {}\n    expected to fail: {wanted}\n    got:      {got}",
                sent.line_number, sent.command
            );
        }
    }
}

/// Never rewrites anything: ishi's own files use ishi's commands.
fn no_mapping(line: &str) -> Option<String> {
    Some(line.to_string())
}

/// The `.tst` files of `gtp-tests/`, sorted, filtered by `$ISHI_TST`.
fn own_test_files() -> Vec<PathBuf> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-tests");
    let filter = std::env::var("ISHI_TST").unwrap_or_default();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("cannot list {}: {error}", folder.display()))
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| path.extension().is_some_and(|extension| extension == "tst"))
        .filter(|path| {
            path.file_name()
                .is_some_and(|file| file.to_string_lossy().contains(&filter))
        })
        .collect();
    files.sort();
    files
}

#[test]
fn every_tst_file_gives_its_expected_answers() {
    let files = own_test_files();
    assert!(!files.is_empty(), "no .tst file found in gtp-tests/");
    // One engine per file, files side by side; the reports are printed in file order.
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .iter()
            .map(|path| scope.spawn(move || run_file(path, no_mapping, &[])))
            .collect();
        handles
            .into_iter()
            .map(|handle| handle.join().expect("a file runner panicked"))
            .collect()
    });
    let mut total = Tally::default();
    for (path, tally) in files.iter().zip(&tallies) {
        let file = path.file_name().unwrap_or_default().to_string_lossy();
        println!("{file}: {}", tally.summary());
        print!("{}", tally.report);
        total.add(tally);
    }
    println!("all {} files: {}", files.len(), total.summary());
    let problems: String = tallies.iter().map(|tally| tally.report.as_str()).collect();
    assert!(
        tallies.iter().all(Tally::is_clean),
        "regression failures:\n{problems}"
    );
}

/// Maps Fuego's rule commands in its regression files to ishi's; drops what has no match.
fn fuego_mapping(line: &str) -> Option<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        ["go_param_rules", "ko_rule", rule] => {
            let ko = match *rule {
                "simple" => "SIMPLE",
                "superko" => "SITUATIONAL",
                "pos_superko" => "POSITIONAL",
                _ => return None,
            };
            Some(format!("kata-set-rules {{\"ko\":\"{ko}\"}}"))
        }
        [first, ..] if first.starts_with("go_") || first.starts_with("uct_") => None,
        _ => Some(line.to_string()),
    }
}

#[test]
fn fuego_repetition_suite_with_mapped_rule_commands() {
    let path = peer_suites().join("svn2github/fuego/regression/repetition.tst");
    if !path.is_file() {
        eprintln!("skipping: {} is absent", path.display());
        return;
    }
    let tally = run_file(&path, fuego_mapping, &[]);
    println!("{}: {}", path.display(), tally.summary());
    print!("{}", tally.report);
    assert!(tally.tests > 0, "no test found in {}", path.display());
    assert!(tally.is_clean(), "Fuego repetition.tst:\n{}", tally.report);
}

/// Every `.sgf` file under `folder`, recursively.
fn collect_sgf_files(folder: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_sgf_files(&path, files);
        } else if path
            .extension()
            .is_some_and(|extension| extension.eq_ignore_ascii_case("sgf"))
        {
            files.push(path);
        }
    }
}

/// Loads every SGF file of the peer suites through `loadsgf`: each must be answered with the
/// colour to move or `cannot load file`, never kill the engine, and a loaded game must come
/// back unchanged from `printsgf` to a file and `loadsgf` of that file.
#[test]
fn peer_sgf_files_load_through_gtp_and_round_trip() {
    let root = peer_suites();
    let mut files = Vec::new();
    collect_sgf_files(&root, &mut files);
    if files.is_empty() {
        eprintln!("skipping: no SGF file under {}", root.display());
        return;
    }
    files.sort();
    let scratch = scratch_folder("regress-peer-sgf");
    let copy = scratch.join("copy.sgf").display().to_string();
    let mut engine = EngineProcess::start(&[], &scratch);
    let (mut loaded, mut refused) = (0, 0);
    let mut problems = String::new();
    for file in &files {
        let shown = file
            .strip_prefix(&root)
            .unwrap_or(file)
            .display()
            .to_string();
        let load = |engine: &mut EngineProcess, path: &str| {
            engine
                .command(&format!("loadsgf {path}"))
                .unwrap_or_else(|message| panic!("{shown}: loadsgf: {message}"))
        };
        let print = |engine: &mut EngineProcess, arguments: &str| {
            engine
                .command(&format!("printsgf {arguments}"))
                .unwrap_or_else(|message| panic!("{shown}: printsgf: {message}"))
        };
        let first = load(&mut engine, &file.display().to_string());
        if !first.is_success() {
            if first.response() != "cannot load file" {
                let _ = writeln!(problems, "{shown}: loadsgf answered {:?}", first.raw);
            }
            refused += 1;
            continue;
        }
        loaded += 1;
        if !matches!(first.response(), "black" | "white") {
            let _ = writeln!(problems, "{shown}: loadsgf answered {:?}", first.raw);
        }
        let text = print(&mut engine, "");
        let written = print(&mut engine, &copy);
        let again = load(&mut engine, &copy);
        let text_again = print(&mut engine, "");
        if !written.is_success() || again.raw != first.raw || text_again.raw != text.raw {
            let _ = writeln!(
                problems,
                "{shown}: round trip differs\n    first:  {} {}\n    again:  {} {}",
                first.response(),
                text.response(),
                again.response(),
                text_again.response()
            );
        }
    }
    engine.quit().expect("quit after the peer files");
    println!(
        "peer SGF files through GTP: {} files, {loaded} loaded and round-tripped, {refused} refused",
        files.len()
    );
    assert!(problems.is_empty(), "peer SGF files:\n{problems}");
    // Most of these files are ordinary games: a loader refusing many of them has regressed.
    assert!(
        loaded * 10 >= files.len() * 9,
        "only {loaded} of {} peer SGF files loaded",
        files.len()
    );
}

#[cfg(test)]
mod runner_checks {
    //! The runner's own rules, checked on made-up answers.

    use super::*;
    use gtp_support::parse_answer;

    fn answer(raw: &str) -> Answer {
        parse_answer(raw.as_bytes()).unwrap()
    }

    fn expectation(text: &str) -> Expectation {
        parse_expectation(text).unwrap().unwrap()
    }

    #[test]
    fn patterns_match_the_whole_trimmed_answer() {
        let pattern = expectation(" [C3|D4] ");
        assert!(!fails(&answer("=5 D4\n\n"), Some(&pattern)));
        assert!(fails(&answer("=5 D45\n\n"), Some(&pattern)));
        assert!(fails(&answer("=5 xD4\n\n"), Some(&pattern)));
        let lines = expectation("[a.*c]");
        assert!(!fails(&answer("= a\nb\nc\n\n"), Some(&lines)));
        let line_anchors = expectation("[.*^b$.*]");
        assert!(!fails(&answer("= a\nb\nc\n\n"), Some(&line_anchors)));
        assert!(fails(&answer("= d4\n\n"), Some(&expectation("[D4]"))));
    }

    #[test]
    fn negation_errors_and_expected_failures() {
        let negated = expectation("[!pass]");
        assert!(!fails(&answer("= D4\n\n"), Some(&negated)));
        assert!(fails(&answer("= pass\n\n"), Some(&negated)));
        // An error answer fails every ordinary pattern, negated ones too.
        assert!(fails(&answer("?3 illegal move\n\n"), Some(&negated)));
        assert!(fails(&answer("? x\n\n"), None));
        assert!(!fails(&answer("= x\n\n"), None));
        let error = expectation("[?illegal move]");
        assert!(!fails(&answer("?3 illegal move\n\n"), Some(&error)));
        assert!(fails(&answer("=3 illegal move\n\n"), Some(&error)));
        assert!(fails(&answer("?3 syntax error\n\n"), Some(&error)));
        let known = expectation("[B2]*");
        assert!(known.expected_failure);
        assert_eq!(known.written, "B2");
        assert!(parse_expectation("").unwrap().is_none());
        assert!(parse_expectation("B2").is_err());
        assert!(parse_expectation("[(]").is_err());
    }

    #[test]
    fn test_numbers_and_ids_follow_gogui() {
        assert_eq!(test_number("10 play b D4"), Some(10));
        assert_eq!(test_number("10"), None);
        assert_eq!(test_number("play b D4"), None);
        assert_eq!(expected_id("10"), Some(10));
        assert_eq!(expected_id("99999999999 name"), Some(i32::MAX as u32));
        assert_eq!(expected_id("name 5"), None);
    }

    #[test]
    fn framing_faults_are_caught() {
        assert!(parse_answer(b"=1 D4\n\n").is_ok());
        assert!(parse_answer(b"=1D4\n\n").is_err());
        assert!(parse_answer(b"=1 D4\r\n\n").is_err());
        assert!(parse_answer(b"\n=1 D4\n\n").is_err());
        assert!(parse_answer(b"=1 a\n\nb\n\n").is_err());
        assert!(parse_answer(b"!1 D4\n\n").is_err());
        assert!(parse_answer(b"=1 D4\n").is_err());
    }

    #[test]
    fn headers_and_fuego_commands() {
        let text = "# ishi-args: --rules japanese\n#ishi-args:--komi 0\n1 name\n";
        assert_eq!(
            header_arguments(text),
            vec!["--rules", "japanese", "--komi", "0"]
        );
        assert_eq!(
            fuego_mapping("go_param_rules ko_rule superko").as_deref(),
            Some("kata-set-rules {\"ko\":\"SITUATIONAL\"}")
        );
        assert_eq!(fuego_mapping("uct_param_search lock_free 1"), None);
        assert_eq!(
            fuego_mapping("10 is_legal w b1").as_deref(),
            Some("10 is_legal w b1")
        );
    }
}
