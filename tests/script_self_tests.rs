//! The match and measurement scripts' own unit tests (`--self-test`: schedules, answers,
//! statistics, the resume read-back, suite parsing; the teacher generator's shards merged
//! against one run, with a stand-in teacher) and the teacher-file checker on the
//! shared teacher set, run from `cargo test` so that CI covers them. Skipped with a message
//! where `python3` is missing (or, for the checker, where `../shared/teacher` is absent).

use std::path::Path;
use std::process::Command;

fn python() -> Option<String> {
    let python = std::env::var("ISHI_SCRIPT_PYTHON").unwrap_or_else(|_| "python3".to_string());
    match Command::new(&python).arg("--version").output() {
        Ok(output) if output.status.success() => Some(python),
        _ => {
            eprintln!("skipping: {python} is not available");
            None
        }
    }
}

fn run_script(python: &str, arguments: &[&str]) {
    let output = Command::new(python)
        .args(arguments)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("python runs");
    assert!(
        output.status.success(),
        "{} failed:\n{}\n{}",
        arguments.join(" "),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn match_scripts_pass_their_self_tests() {
    let Some(python) = python() else {
        return;
    };
    for script in [
        "scripts/match.py",
        "scripts/games_match.py",
        "scripts/move-suites.py",
        "scripts/tsumego.py",
        "scripts/teacher/generate.py",
        "scripts/teacher/label.py",
        "scripts/value-phases.py",
        "scripts/turning-points.py",
    ] {
        run_script(&python, &[script, "--self-test"]);
    }
}

#[test]
fn the_teacher_checker_accepts_the_shared_teacher_set() {
    let Some(python) = python() else {
        return;
    };
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/teacher");
    let files: Vec<String> = std::fs::read_dir(&folder)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.to_string_lossy().ends_with(".jsonl.gz"))
                .map(|path| path.to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    if files.is_empty() {
        eprintln!("skipping: no teacher files in {}", folder.display());
        return;
    }
    let mut arguments = vec!["scripts/teacher/read_check.py", "--quiet"];
    arguments.extend(files.iter().map(String::as_str));
    run_script(&python, &arguments);
}
