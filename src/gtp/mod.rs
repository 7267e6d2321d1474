//! The GTP front end: a reader thread turns stdin lines into messages on a channel (so a
//! running search can notice the next line or a `# interrupt`), the main loop parses each
//! line, finds its handler in the one command table and writes `=`/`?` answers, each closed
//! by one empty line and flushed. Nothing else writes to stdout.

pub mod analyze;
pub mod args;
pub mod board_commands;
pub mod commands;
pub mod line;

use crate::engine::board_game::BoardGameEngine;
use crate::engine::{Engine, Settings};
use crossbeam_channel::{unbounded, Receiver, Sender};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What the reader thread sends to the main loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A raw line, newline removed.
    Line(String),
    /// The end of the input: quit.
    End,
}

/// The state a command handler works with: the engine, the output, and what it needs to
/// notice new input while it searches.
pub struct Session {
    /// Go's engine (it also holds the command-line settings).
    pub engine: Engine,
    /// The engine of Margo or Abalone while one of them is in force (`None`: Go).
    pub board_game: Option<Box<dyn BoardGameEngine>>,
    /// The command-line settings, to start a game of another kind (`ishi-game`).
    pub settings: Settings,
    /// Where answers go (stdout in the binary).
    pub output: Box<dyn Write + Send>,
    /// Lines not yet handled; a streaming command stops when this is not empty.
    pub input: Receiver<Input>,
    /// Set by the reader on `# interrupt` (GoGui): stops a running `genmove` early.
    pub interrupt: Arc<AtomicBool>,
    /// The id of the command being handled.
    pub current_id: Option<u32>,
    /// Set by `quit`.
    pub quit: bool,
    /// Set by a handler that has already written the start of its answer (`=id` and
    /// streamed lines); the loop then only closes the answer.
    pub streamed: bool,
}

impl Session {
    /// Writes the `=id` header of a streamed answer and flushes it.
    ///
    /// # Errors
    /// When the output is closed.
    pub fn start_streaming(&mut self) -> std::io::Result<()> {
        self.streamed = true;
        // The space after `=id`, as in every answer: GoGui takes the result after the first
        // space, and Lizzie and Sabaki trim it.
        let header = match self.current_id {
            Some(id) => format!("={id} \n"),
            None => "= \n".to_string(),
        };
        self.output.write_all(header.as_bytes())?;
        self.output.flush()
    }

    /// Writes one line of a streamed answer and flushes it.
    ///
    /// # Errors
    /// When the output is closed.
    pub fn stream_line(&mut self, text: &str) -> std::io::Result<()> {
        self.output.write_all(text.as_bytes())?;
        self.output.write_all(b"\n")?;
        self.output.flush()
    }

    /// Whether another line is waiting (analysis and pondering stop then).
    pub fn input_pending(&self) -> bool {
        !self.input.is_empty()
    }
}

/// Formats a complete answer: `=id body` or `?id message`, with no empty line inside and
/// exactly one empty line at the end.
pub fn format_answer(id: Option<u32>, result: &Result<String, String>) -> String {
    let (status, body) = match result {
        Ok(body) => ('=', body.as_str()),
        Err(message) => ('?', message.as_str()),
    };
    let id_text = id.map(|id| id.to_string()).unwrap_or_default();
    let lines: Vec<&str> = body
        .lines()
        .map(str::trim_end)
        .filter(|line| !line.is_empty())
        .collect();
    // A body that starts with a newline (showboard) keeps its first line free, as GNU Go's.
    let lead = if body.starts_with('\n') && !lines.is_empty() {
        "\n"
    } else {
        ""
    };
    format!("{status}{id_text} {lead}{}\n\n", lines.join("\n"))
}

/// Starts the thread that reads `reader` line by line into a channel; `# interrupt` lines set
/// `interrupt` and are also passed on (they get no answer).
pub fn spawn_reader<R: BufRead + Send + 'static>(
    mut reader: R,
    interrupt: Arc<AtomicBool>,
) -> Receiver<Input> {
    let (sender, receiver): (Sender<Input>, Receiver<Input>) = unbounded();
    std::thread::spawn(move || {
        let mut buffer = Vec::new();
        loop {
            buffer.clear();
            match reader.read_until(b'\n', &mut buffer) {
                Ok(0) | Err(_) => {
                    let _ = sender.send(Input::End);
                    return;
                }
                Ok(_) => {
                    let text = String::from_utf8_lossy(&buffer).into_owned();
                    if line::is_interrupt(&text) {
                        interrupt.store(true, Ordering::SeqCst);
                        continue;
                    }
                    if sender.send(Input::Line(text)).is_err() {
                        return;
                    }
                }
            }
        }
    });
    receiver
}

/// Runs the command loop until `quit` or the end of the input.
///
/// # Errors
/// When the output cannot be written.
pub fn run<R: BufRead + Send + 'static>(
    engine: Engine,
    input: R,
    output: Box<dyn Write + Send>,
) -> std::io::Result<()> {
    let settings = engine.settings().clone();
    let board_game = match crate::engine::new_board_game(settings.game, &settings) {
        Ok(board_game) => board_game,
        Err(message) => {
            log::error!("{message}; playing go");
            None
        }
    };
    let interrupt = Arc::new(AtomicBool::new(false));
    let receiver = spawn_reader(input, interrupt.clone());
    let mut session = Session {
        engine,
        board_game,
        settings,
        output,
        input: receiver,
        interrupt,
        current_id: None,
        quit: false,
        streamed: false,
    };
    while let Ok(Input::Line(raw)) = session.input.recv() {
        handle_line(&mut session, &raw)?;
        if session.quit {
            break;
        }
        commands::after_command(&mut session);
    }
    session.output.flush()
}

/// Handles one raw input line: parses it, runs its handler, writes the answer.
///
/// # Errors
/// When the output cannot be written.
pub fn handle_line(session: &mut Session, raw: &str) -> std::io::Result<()> {
    let Some(command) = line::parse(raw) else {
        return Ok(());
    };
    session.current_id = command.id;
    session.streamed = false;
    session.interrupt.store(false, Ordering::SeqCst);
    let result = commands::dispatch(session, &command);
    if session.streamed {
        // The handler wrote `=id` and its lines; an empty line closes the answer.
        let closing = match &result {
            Ok(last) if !last.is_empty() => format!("{last}\n\n"),
            _ => "\n".to_string(),
        };
        session.output.write_all(closing.as_bytes())?;
    } else {
        let answer = format_answer(command.id, &result);
        session.output.write_all(answer.as_bytes())?;
    }
    session.output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_framed_by_one_empty_line() {
        assert_eq!(format_answer(Some(3), &Ok("D4".into())), "=3 D4\n\n");
        assert_eq!(format_answer(None, &Ok(String::new())), "= \n\n");
        assert_eq!(
            format_answer(None, &Err("illegal move".into())),
            "? illegal move\n\n"
        );
        assert_eq!(format_answer(None, &Ok("a\n\nb\n".into())), "= a\nb\n\n");
    }
}
