//! One engine in a child process, spoken to in GTP: a line in, the answer out (up to GTP's
//! closing empty line). Knows how to start, ask and end the process; nothing of browsers or
//! of what the commands mean.
//!
//! A process per browser session rather than an engine in this server's own threads: a
//! session that leaves mid-search is ended by killing its process at once (an in-process
//! search would run on until its budget is spent), its memory goes back to the system, and a
//! fault in one game cannot take the others or the server down.

use std::path::Path;
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// The longest answer read from an engine (a 25x25 `showboard` is a few KiB).
pub const MAXIMUM_ANSWER_BYTES: usize = 1 << 20;

/// A running engine.
pub struct EngineProcess {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl EngineProcess {
    /// Starts `program` with `arguments`, stdin and stdout piped, stderr discarded; the
    /// process is killed if this value is dropped.
    ///
    /// # Errors
    /// When the process cannot be started.
    pub fn start(program: &Path, arguments: &[String]) -> std::io::Result<EngineProcess> {
        let mut child = Command::new(program)
            .args(arguments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()?;
        let input = child.stdin.take().ok_or_else(|| missing("stdin"))?;
        let output = child.stdout.take().ok_or_else(|| missing("stdout"))?;
        Ok(EngineProcess {
            child,
            input,
            output: BufReader::new(output),
        })
    }

    /// Sends one command line (which must hold no newline) and reads its answer: the lines
    /// from `=`/`?` to the empty line that closes it, joined by `\n`, without the empty line.
    /// Not cancellation-safe: a caller that drops the future mid-answer must end the process.
    ///
    /// # Errors
    /// When the engine has ended or answers more than [`MAXIMUM_ANSWER_BYTES`].
    pub async fn ask(&mut self, line: &str) -> std::io::Result<String> {
        debug_assert!(!line.contains('\n'));
        self.input.write_all(line.as_bytes()).await?;
        self.input.write_all(b"\n").await?;
        self.input.flush().await?;
        let mut answer = String::new();
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line).await? == 0 {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::UnexpectedEof,
                    "the engine ended",
                ));
            }
            let text = line.trim_end_matches(['\n', '\r']);
            if text.is_empty() {
                if answer.is_empty() {
                    continue;
                }
                return Ok(answer);
            }
            if answer.len() + text.len() > MAXIMUM_ANSWER_BYTES {
                return Err(std::io::Error::other("the engine's answer is too long"));
            }
            if !answer.is_empty() {
                answer.push('\n');
            }
            answer.push_str(text);
        }
    }

    /// Kills the process and waits for it to end.
    pub async fn stop(mut self) {
        // An error means it has ended already.
        let _ = self.child.kill().await;
    }
}

fn missing(stream: &str) -> std::io::Error {
    std::io::Error::other(format!("the engine's {stream} is not piped"))
}
