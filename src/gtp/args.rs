//! Typed readers of GTP arguments. Each fails with the GTP error text to answer (`syntax
//! error`, `invalid color`, ...), never with a panic.

use crate::color::Color;
use crate::go::rules::point::{parse_move, Move, VertexError};

/// The error text of a malformed command.
pub const SYNTAX_ERROR: &str = "syntax error";

/// The argument at `index`.
///
/// # Errors
/// `syntax error` when it is missing.
pub fn argument(arguments: &[String], index: usize) -> Result<&str, String> {
    arguments
        .get(index)
        .map(String::as_str)
        .ok_or_else(|| SYNTAX_ERROR.to_string())
}

/// Checks the argument count.
///
/// # Errors
/// `syntax error` when it differs from `count`.
pub fn expect_count(arguments: &[String], count: usize) -> Result<(), String> {
    if arguments.len() == count {
        Ok(())
    } else {
        Err(SYNTAX_ERROR.to_string())
    }
}

/// A colour argument.
///
/// # Errors
/// `syntax error` when missing or not a colour.
pub fn color(arguments: &[String], index: usize) -> Result<Color, String> {
    Color::parse(argument(arguments, index)?).ok_or_else(|| SYNTAX_ERROR.to_string())
}

/// A vertex or `pass` on a board of `size`.
///
/// # Errors
/// `syntax error` for malformed text; `illegal move` for a vertex off the board (GNU Go's
/// choice: the move cannot be played).
pub fn vertex(arguments: &[String], index: usize, size: usize) -> Result<Move, String> {
    parse_move(argument(arguments, index)?, size).map_err(|error| match error {
        VertexError::Syntax => SYNTAX_ERROR.to_string(),
        VertexError::OffBoard => "illegal move".to_string(),
    })
}

/// A non-negative integer that fits in 31 bits.
///
/// # Errors
/// `syntax error` when missing or not such a number.
pub fn integer(arguments: &[String], index: usize) -> Result<u32, String> {
    argument(arguments, index)?
        .parse::<u32>()
        .ok()
        .filter(|&value| value <= i32::MAX as u32)
        .ok_or_else(|| SYNTAX_ERROR.to_string())
}

/// A finite floating-point number.
///
/// # Errors
/// `syntax error` when missing or not a finite number.
pub fn float(arguments: &[String], index: usize) -> Result<f64, String> {
    argument(arguments, index)?
        .parse::<f64>()
        .ok()
        .filter(|value| value.is_finite())
        .ok_or_else(|| SYNTAX_ERROR.to_string())
}

/// A `true`/`false` argument.
///
/// # Errors
/// `syntax error` when missing or neither word.
pub fn boolean(arguments: &[String], index: usize) -> Result<bool, String> {
    match argument(arguments, index)?.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(SYNTAX_ERROR.to_string()),
    }
}

/// The size of `boardsize N`, or of KataGo's `boardsize W H` with W = H.
///
/// # Errors
/// `syntax error` for a malformed command, `unacceptable size` for W != H.
pub fn board_size(arguments: &[String]) -> Result<usize, String> {
    let size = integer(arguments, 0)? as usize;
    if arguments.len() > 2 {
        return Err(SYNTAX_ERROR.to_string());
    }
    if arguments.len() == 2 && integer(arguments, 1)? as usize != size {
        return Err("unacceptable size".to_string());
    }
    Ok(size)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn reads_typed_arguments_or_fails_cleanly() {
        let arguments = words("B d4 7 -0.5 true");
        assert_eq!(color(&arguments, 0), Ok(Color::Black));
        assert!(color(&arguments, 1).is_err());
        assert!(matches!(vertex(&arguments, 1, 9), Ok(Move::Place(_))));
        assert_eq!(vertex(&words("z99"), 0, 9), Err("illegal move".to_string()));
        assert_eq!(integer(&arguments, 2), Ok(7));
        assert!(integer(&arguments, 3).is_err());
        assert_eq!(float(&arguments, 3), Ok(-0.5));
        assert!(float(&words("nan"), 0).is_err());
        assert_eq!(boolean(&arguments, 4), Ok(true));
        assert!(argument(&arguments, 9).is_err());
    }
}
