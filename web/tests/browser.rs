//! The web board in a real browser: starts `ishi-web` on a free port and runs
//! `tests/browser/play.mjs` (Playwright driving Debian's Chromium) against it: a whole game
//! of each kind through clicks, illegal clicks and their reasons, hint, undo, a reload.
//! Screenshots go to `target/web-screenshots/`. Skipped with a message when Node.js, the npm
//! packages (`npm ci` in `web/tests/browser`) or `/usr/bin/chromium` are missing, unless
//! `ISHI_REQUIRE_BROWSER` is set (CI sets it), when a missing piece fails the test.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn chromium() -> PathBuf {
    std::env::var_os("CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/bin/chromium"))
}

/// What is missing to run the browser test, if anything.
fn missing(folder: &Path) -> Option<String> {
    if Command::new("node").arg("--version").output().is_err() {
        return Some("node is not installed".to_string());
    }
    if !folder.join("node_modules/playwright-core").is_dir() {
        return Some(format!("run `npm ci` in {}", folder.display()));
    }
    if !chromium().exists() {
        return Some(format!(
            "{} is missing (apt-get install chromium)",
            chromium().display()
        ));
    }
    None
}

#[test]
fn three_games_play_through_clicks_in_chromium() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let folder = manifest.join("tests/browser");
    if let Some(reason) = missing(&folder) {
        if std::env::var_os("ISHI_REQUIRE_BROWSER").is_some() {
            panic!("the browser test cannot run: {reason}");
        }
        eprintln!("skipped: {reason}");
        return;
    }
    let mut server = Command::new(env!("CARGO_BIN_EXE_ishi-web"))
        .args(["--port", "0", "--max-games", "4", "--seed", "1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("ishi-web starts");
    let mut line = String::new();
    BufReader::new(server.stdout.take().expect("stdout is piped"))
        .read_line(&mut line)
        .expect("ishi-web prints its address");
    let url = line
        .split_whitespace()
        .find(|word| word.starts_with("http://"))
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    let screenshots = manifest.join("../target/web-screenshots");
    let status = Command::new("node")
        .arg(folder.join("play.mjs"))
        .arg(&url)
        .arg(&screenshots)
        .env("CHROMIUM", chromium())
        .status()
        .expect("node runs");
    let _ = server.kill();
    let _ = server.wait();
    assert!(status.success(), "the browser test failed: {status}");
}
