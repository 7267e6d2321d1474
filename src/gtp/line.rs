//! One GTP input line: the preprocessing the GTP v2 specification mandates (control
//! characters removed, `#` comments dropped, tabs turned into spaces) and the split into an
//! optional numeric id, a command name and arguments. Knows nothing of what commands mean.

/// A parsed command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The numeric id, echoed in the answer.
    pub id: Option<u32>,
    /// The command name, exactly as sent.
    pub name: String,
    /// The arguments, split on spaces.
    pub arguments: Vec<String>,
}

/// Applies GTP preprocessing to a raw line: removes control characters other than tab and
/// newline (CR included) and DEL, cuts a `#` comment, turns tabs into spaces and trims the
/// spaces. Only space and tab are GTP whitespace: a line of other Unicode spaces (U+00A0,
/// U+3000) is a command, to be answered, not an empty line.
pub fn preprocess(raw: &str) -> String {
    let without_comment = match raw.find('#') {
        Some(position) => &raw[..position],
        None => raw,
    };
    without_comment
        .chars()
        .filter_map(|character| match character {
            '\t' => Some(' '),
            '\n' => None,
            character if character.is_control() => None,
            character => Some(character),
        })
        .collect::<String>()
        .trim_matches(' ')
        .to_string()
}

/// Whether a raw line is the GoGui interrupt comment `# interrupt`.
pub fn is_interrupt(raw: &str) -> bool {
    let trimmed = raw.trim();
    trimmed
        .strip_prefix('#')
        .map(|rest| rest.trim() == "interrupt")
        .unwrap_or(false)
}

/// Parses a raw line; `None` when nothing is left after preprocessing (no answer is due).
pub fn parse(raw: &str) -> Option<Command> {
    let clean = preprocess(raw);
    let mut words = clean.split(' ').filter(|word| !word.is_empty());
    let first = words.next()?;
    let (id, name) = if first.bytes().all(|byte| byte.is_ascii_digit()) {
        // Ids beyond the 31-bit range are clamped, as GNU Go and gomill do.
        let id = first
            .parse::<u64>()
            .unwrap_or(u64::MAX)
            .min(i32::MAX as u64) as u32;
        match words.next() {
            Some(name) => (Some(id), name.to_string()),
            None => (Some(id), String::new()),
        }
    } else {
        (None, first.to_string())
    };
    Some(Command {
        id,
        name,
        arguments: words.map(str::to_string).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_comments_controls_and_tabs() {
        assert_eq!(preprocess("  play\tb\tD4 # comment\r"), "play b D4");
        assert_eq!(preprocess("name\u{7}\u{1b}"), "name");
        assert_eq!(preprocess("# only a comment"), "");
        assert_eq!(preprocess("na\u{7f}me"), "name");
    }

    #[test]
    fn only_space_and_tab_are_whitespace() {
        // A line of no-break spaces is not empty: it must get an answer, or the controller
        // waits forever.
        assert_eq!(preprocess("\u{a0}"), "\u{a0}");
        assert_eq!(parse("\u{a0}").unwrap().name, "\u{a0}");
        assert_eq!(parse(" 4 \u{3000}name ").unwrap().name, "\u{3000}name");
        assert_eq!(parse(" \t \r"), None);
    }

    #[test]
    fn parses_ids_names_and_arguments() {
        let command = parse("12 play  black   d4\r\n").unwrap();
        assert_eq!(command.id, Some(12));
        assert_eq!(command.name, "play");
        assert_eq!(command.arguments, vec!["black", "d4"]);
        let command = parse("list_commands").unwrap();
        assert_eq!(command.id, None);
        assert!(command.arguments.is_empty());
        assert_eq!(parse("   \t  "), None);
        assert_eq!(parse("# interrupt"), None);
        assert_eq!(parse("99999999999 name").unwrap().id, Some(i32::MAX as u32));
        assert_eq!(parse("7").unwrap().name, "");
    }

    #[test]
    fn recognises_the_interrupt_comment() {
        assert!(is_interrupt("# interrupt"));
        assert!(is_interrupt("#interrupt\r\n"));
        assert!(!is_interrupt("# interrupted"));
        assert!(!is_interrupt("name"));
    }
}
