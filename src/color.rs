//! Stone colours. Knows black and white, their opposites and their GTP spellings; nothing of
//! boards or moves.

use std::fmt;
use std::str::FromStr;

/// The colour of a stone or of a player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// Both colours, black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The other colour.
    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: an index into per-colour arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Parses a GTP colour: `b`, `black`, `w`, `white`, in any case.
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    /// One upper-case letter, as SGF and GTP diagrams write it: `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// The error of parsing a colour that is not one of GTP's spellings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseColorError;

impl fmt::Display for ParseColorError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("not a colour (expected b, black, w or white)")
    }
}

impl std::error::Error for ParseColorError {}

impl FromStr for Color {
    type Err = ParseColorError;
    fn from_str(text: &str) -> Result<Color, ParseColorError> {
        Color::parse(text).ok_or(ParseColorError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_spelling() {
        for text in ["b", "B", "black", "BLACK", "Black"] {
            assert_eq!(Color::parse(text), Some(Color::Black));
        }
        for text in ["w", "W", "white", "WHITE"] {
            assert_eq!(Color::parse(text), Some(Color::White));
        }
        assert_eq!(Color::parse("x"), None);
        assert_eq!(Color::parse(""), None);
    }

    #[test]
    fn opponent_is_an_involution() {
        for color in Color::ALL {
            assert_ne!(color, color.opponent());
            assert_eq!(color, color.opponent().opponent());
        }
    }
}
