//! Shared helpers of the GTP integration tests: start the real `ishi` binary, send it command
//! lines, and read its answers byte by byte while checking the framing GTP v2 requires
//! (`=` or `?`, the echoed id, one space, no CR, no empty line inside, exactly one empty line
//! after). Also a small seeded random generator, so fuzz inputs are the same on every machine.
//! Knows nothing of what the commands mean.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

/// The flags every test engine starts with: one thread and a fixed seed, so answers repeat.
pub const DETERMINISTIC_ARGUMENTS: [&str; 4] = ["--threads", "1", "--seed", "1"];

/// The path of the `ishi` binary cargo built for these tests.
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_ishi"))
}

/// The folder of other programs' test data (read only, never copied): `$ISHI_PEER_SUITES`
/// or `/work/shared/peer-suites`.
pub fn peer_suites() -> PathBuf {
    std::env::var_os("ISHI_PEER_SUITES")
        .map_or_else(|| PathBuf::from("/work/shared/peer-suites"), PathBuf::from)
}

/// A fresh empty scratch folder for one test, under cargo's temporary folder for tests.
pub fn scratch_folder(name: &str) -> PathBuf {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("gtp-scratch")
        .join(name);
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).expect("cannot create the scratch folder");
    folder
}

/// Whether an answer reports success (`=`) or failure (`?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// `=`.
    Success,
    /// `?`.
    Failure,
}

/// One complete answer, framing already checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// `=` or `?`.
    pub status: Status,
    /// The id echoed after the status character.
    pub id: Option<u32>,
    /// Everything after `=id ` up to the closing empty line, inner newlines kept.
    pub body: String,
    /// The answer as received, closing empty line included.
    pub raw: String,
}

impl Answer {
    /// The answer as gogui-regress sees it: the text after the first space of the whole
    /// answer, trimmed of ASCII spaces and control characters (Java's `String.trim`).
    pub fn response(&self) -> &str {
        java_trim(&self.body)
    }

    /// Whether the answer is `=`.
    pub fn is_success(&self) -> bool {
        self.status == Status::Success
    }
}

/// Trims as Java's `String.trim` does: every character up to U+0020 at both ends.
pub fn java_trim(text: &str) -> &str {
    text.trim_matches(|character: char| character <= ' ')
}

/// The id an engine must echo for a preprocessed command line: its first word when that is
/// all ASCII digits, clamped to 2^31 - 1 as GNU Go and gomill do.
pub fn expected_id(preprocessed: &str) -> Option<u32> {
    let first = preprocessed.split(' ').find(|word| !word.is_empty())?;
    if !first.bytes().all(|byte| byte.is_ascii_digit()) {
        return None;
    }
    let value = first.parse::<u64>().unwrap_or(u64::MAX);
    Some(value.min(i32::MAX as u64) as u32)
}

/// Checks the framing of one answer's bytes, which end at the first `\n\n`, and splits it.
///
/// # Errors
/// A description of the framing fault.
pub fn parse_answer(bytes: &[u8]) -> Result<Answer, String> {
    let shown = String::from_utf8_lossy(bytes).into_owned();
    let text =
        String::from_utf8(bytes.to_vec()).map_err(|_| format!("answer is not UTF-8: {shown:?}"))?;
    let Some(content) = text.strip_suffix("\n\n") else {
        return Err(format!("answer does not end with an empty line: {shown:?}"));
    };
    if content.contains("\n\n") {
        return Err(format!("empty line inside the answer: {shown:?}"));
    }
    if text.contains('\r') {
        return Err(format!("carriage return in the answer: {shown:?}"));
    }
    let status = match content.as_bytes().first() {
        Some(b'=') => Status::Success,
        Some(b'?') => Status::Failure,
        _ => {
            return Err(format!(
                "answer does not start with '=' or '?' (an extra empty line before it?): {shown:?}"
            ))
        }
    };
    let after_status = &content[1..];
    let digits = after_status
        .bytes()
        .take_while(|byte| byte.is_ascii_digit())
        .count();
    let id = if digits == 0 {
        None
    } else {
        Some(
            after_status[..digits]
                .parse::<u32>()
                .map_err(|_| format!("id out of range: {shown:?}"))?,
        )
    };
    let Some(body) = after_status[digits..].strip_prefix(' ') else {
        return Err(format!("no space after the status and id: {shown:?}"));
    };
    Ok(Answer {
        status,
        id,
        body: body.to_string(),
        raw: text,
    })
}

/// Reads one answer's bytes: up to and including the first `\n\n`. `Ok(None)` at the end of
/// the output before any byte.
///
/// # Errors
/// When the output ends in the middle of an answer or cannot be read.
pub fn read_answer_bytes(reader: &mut impl Read) -> Result<Option<Vec<u8>>, String> {
    let mut bytes = Vec::new();
    let mut byte = [0u8; 1];
    loop {
        match reader.read(&mut byte) {
            Ok(0) => {
                return if bytes.is_empty() {
                    Ok(None)
                } else {
                    Err(format!(
                        "output ended in the middle of an answer: {:?}",
                        String::from_utf8_lossy(&bytes)
                    ))
                };
            }
            Ok(_) => {
                bytes.push(byte[0]);
                if bytes.ends_with(b"\n\n") {
                    return Ok(Some(bytes));
                }
            }
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(format!("cannot read the engine's output: {error}")),
        }
    }
}

/// A running `ishi` process talking GTP over pipes.
pub struct EngineProcess {
    child: Child,
    input: Option<ChildStdin>,
    output: BufReader<ChildStdout>,
}

impl EngineProcess {
    /// Starts the binary with [`DETERMINISTIC_ARGUMENTS`] plus `extra_arguments`, in
    /// `folder` (relative paths in commands resolve there). stderr goes to the test's stderr.
    ///
    /// # Panics
    /// When the binary cannot be started.
    pub fn start(extra_arguments: &[String], folder: &Path) -> EngineProcess {
        let mut child = Command::new(binary())
            .args(DETERMINISTIC_ARGUMENTS)
            .args(extra_arguments)
            .current_dir(folder)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|error| panic!("cannot start {}: {error}", binary().display()));
        let input = child.stdin.take();
        let output = BufReader::new(child.stdout.take().expect("stdout is piped"));
        EngineProcess {
            child,
            input,
            output,
        }
    }

    /// Writes raw bytes to the engine's input and flushes.
    ///
    /// # Errors
    /// When the engine closed its input (it died or quit).
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), String> {
        let input = self
            .input
            .as_mut()
            .ok_or_else(|| "input already closed".to_string())?;
        input
            .write_all(bytes)
            .and_then(|()| input.flush())
            .map_err(|error| format!("cannot write to the engine: {error}"))
    }

    /// Hands the input pipe over (to a writer thread, for big pipelined inputs).
    ///
    /// # Panics
    /// When it was already taken.
    pub fn take_input(&mut self) -> ChildStdin {
        self.input.take().expect("input already taken")
    }

    /// Reads the next answer and checks its framing.
    ///
    /// # Errors
    /// A framing fault, or the end of the output.
    pub fn read_answer(&mut self) -> Result<Answer, String> {
        match read_answer_bytes(&mut self.output)? {
            Some(bytes) => parse_answer(&bytes),
            None => Err("the engine closed its output (did it die?)".to_string()),
        }
    }

    /// Sends one command line and reads its answer, checking that the id is echoed.
    ///
    /// # Errors
    /// A framing fault, a wrong id, or a dead engine.
    pub fn command(&mut self, line: &str) -> Result<Answer, String> {
        self.write(format!("{line}\n").as_bytes())?;
        let answer = self.read_answer()?;
        let wanted = expected_id(line);
        if answer.id != wanted {
            return Err(format!(
                "command {line:?} wants id {wanted:?} echoed, got {:?}",
                answer.raw
            ));
        }
        Ok(answer)
    }

    /// Sends `quit`, checks its answer, that nothing follows it and that the process exits
    /// with status 0.
    ///
    /// # Errors
    /// What went wrong.
    pub fn quit(mut self) -> Result<(), String> {
        let answer = self.command("quit")?;
        if answer.raw != "= \n\n" {
            return Err(format!("quit answered {:?}", answer.raw));
        }
        self.input = None;
        self.finish()
    }

    /// Reads the output to its end (it must hold nothing more) and waits for exit status 0.
    ///
    /// # Errors
    /// Stray output or a failed exit.
    pub fn finish(mut self) -> Result<(), String> {
        self.input = None;
        let mut rest = Vec::new();
        self.output
            .read_to_end(&mut rest)
            .map_err(|error| format!("cannot read the end of the output: {error}"))?;
        if !rest.is_empty() {
            return Err(format!(
                "bytes after the last answer: {:?}",
                String::from_utf8_lossy(&rest)
            ));
        }
        let status = self
            .child
            .wait()
            .map_err(|error| format!("cannot wait for the engine: {error}"))?;
        if status.success() {
            Ok(())
        } else {
            Err(format!("the engine exited with {status}"))
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // Only reached with the process still running when a test failed half-way.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// SplitMix64: a tiny seeded generator whose sequence is the same on every platform and
/// version (the fuzz inputs must not change under a dependency upgrade).
pub struct SplitMix {
    state: u64,
}

impl SplitMix {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> SplitMix {
        SplitMix { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut mixed = self.state;
        mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        mixed ^ (mixed >> 31)
    }

    /// A number in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }

    /// True with probability `numerator / denominator`.
    pub fn chance(&mut self, numerator: usize, denominator: usize) -> bool {
        self.below(denominator) < numerator
    }

    /// One element of a non-empty slice.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}
