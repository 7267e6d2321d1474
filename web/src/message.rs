//! What a browser may send: one GTP command per WebSocket text message, checked before it
//! reaches an engine. Knows the length limit, the characters that could smuggle a second
//! command, and the commands a web board needs (an allow-list: nothing that reads or writes
//! the server's files, streams without end, or ends the engine). Pure functions; knows
//! nothing of sockets or processes.

/// The longest message accepted, in bytes (a Go move list for `ishi-score_dead` on 19x19
/// fits many times over).
pub const MAXIMUM_MESSAGE_BYTES: usize = 4096;

/// The commands a browser session may send, by exact name. Left out on purpose: `loadsgf`
/// (reads the server's files), `quit` (the server ends engines), `ishi-param` (search
/// settings such as threads are the operator's), the streaming analysis commands
/// (`lz-analyze`, `kata-analyze`: they answer until the next line), and the GoGui setup
/// commands a board does not use.
pub const ALLOWED_COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "boardsize",
    "clear_board",
    "komi",
    "get_komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "fixed_handicap",
    "final_score",
    "final_status_list",
    "is_legal",
    "all_legal_moves",
    "captures",
    "time_settings",
    "time_left",
    "kata-set-rules",
    "kata-get-rules",
    "printsgf",
    "ishi-game",
    "ishi-level",
    "ishi-hint",
    "ishi-illegal_reason",
    "ishi-board",
    "ishi-score_dead",
    "ishi-ownership",
    "ishi-record",
    "ishi-swap",
    "ishi-start",
    "ishi-capture_target",
];

/// Why a message was refused; its text is the `?` answer the browser gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Longer than [`MAXIMUM_MESSAGE_BYTES`].
    TooLong,
    /// A control character (newline, carriage return, tab, NUL, ...): one message is one
    /// command.
    ControlCharacter,
    /// Nothing but spaces, or only an id.
    Empty,
    /// A command not in [`ALLOWED_COMMANDS`], or an allowed one in a form that is not
    /// (`printsgf FILE`).
    NotAllowed(String),
    /// A binary WebSocket message.
    Binary,
}

impl Refusal {
    /// The answer sent back: a GTP failure line.
    pub fn answer(&self) -> String {
        match self {
            Refusal::TooLong => {
                format!("? message too long (at most {MAXIMUM_MESSAGE_BYTES} bytes)")
            }
            Refusal::ControlCharacter => {
                "? one command per message: no control characters".to_string()
            }
            Refusal::Empty => "? empty message".to_string(),
            Refusal::NotAllowed(name) => format!("? command not allowed here: {name}"),
            Refusal::Binary => "? text messages only".to_string(),
        }
    }
}

/// Checks one message and returns the line to send to the engine (without its newline).
///
/// # Errors
/// The [`Refusal`] when the message is too long, holds a control character, is empty, or
/// names a command a browser may not send.
pub fn check(message: &str) -> Result<String, Refusal> {
    if message.len() > MAXIMUM_MESSAGE_BYTES {
        return Err(Refusal::TooLong);
    }
    if message.chars().any(char::is_control) {
        return Err(Refusal::ControlCharacter);
    }
    // Words as GTP splits them: on spaces only (tabs are control characters, refused above).
    let mut words = message.split(' ').filter(|word| !word.is_empty());
    let mut name = words.next().ok_or(Refusal::Empty)?;
    if name.bytes().all(|byte| byte.is_ascii_digit()) {
        name = words.next().ok_or(Refusal::Empty)?;
    }
    // `#` starts a GTP comment: the engine would answer nothing, and the session would wait.
    if name.starts_with('#') {
        return Err(Refusal::NotAllowed(name.to_string()));
    }
    let has_arguments = words.next().is_some();
    if !ALLOWED_COMMANDS.contains(&name) || (name == "printsgf" && has_arguments) {
        return Err(Refusal::NotAllowed(name.to_string()));
    }
    Ok(message.trim_matches(' ').to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_command_passes_with_or_without_an_id() {
        assert_eq!(check("play b E5"), Ok("play b E5".to_string()));
        assert_eq!(check("  12 genmove w "), Ok("12 genmove w".to_string()));
        assert_eq!(check("printsgf"), Ok("printsgf".to_string()));
    }

    #[test]
    fn control_characters_cannot_smuggle_a_second_command() {
        for message in [
            "play b E5\nquit",
            "play b E5\rquit",
            "name\u{0}",
            "play\tb E5",
            "name\u{1b}[2J",
            "name\u{85}quit",
            "name\u{7f}",
        ] {
            assert_eq!(
                check(message),
                Err(Refusal::ControlCharacter),
                "{message:?}"
            );
        }
    }

    #[test]
    fn oversized_empty_and_unknown_messages_are_refused() {
        let long = format!("play b {}", "E".repeat(MAXIMUM_MESSAGE_BYTES));
        assert_eq!(check(&long), Err(Refusal::TooLong));
        assert_eq!(check(""), Err(Refusal::Empty));
        assert_eq!(check("   "), Err(Refusal::Empty));
        assert_eq!(check("7"), Err(Refusal::Empty));
        for (message, name) in [
            ("quit", "quit"),
            ("loadsgf /etc/passwd", "loadsgf"),
            ("printsgf /tmp/x.sgf", "printsgf"),
            ("3 kata-analyze 10", "kata-analyze"),
            ("ishi-param threads 64", "ishi-param"),
            ("# interrupt", "#"),
            ("PLAY b E5", "PLAY"),
        ] {
            assert_eq!(
                check(message),
                Err(Refusal::NotAllowed(name.to_string())),
                "{message}"
            );
        }
    }

    #[test]
    fn every_refusal_answers_a_gtp_failure() {
        for refusal in [
            Refusal::TooLong,
            Refusal::ControlCharacter,
            Refusal::Empty,
            Refusal::NotAllowed("quit".to_string()),
            Refusal::Binary,
        ] {
            let answer = refusal.answer();
            assert!(
                answer.starts_with("? ") && !answer.contains('\n'),
                "{answer}"
            );
        }
    }
}
