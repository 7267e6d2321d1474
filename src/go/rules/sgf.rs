//! SGF (Smart Game Format, `FF[4]`) reading and writing of one Go game record, independent of
//! the board: points are SGF letter pairs turned into 0-based numbers, nothing is played out.
//!
//! Knows: the `FF[4]` syntax (collections, game trees, variations, escapes, soft line breaks,
//! `FF[3]`-style long property names such as `AddBlack`), the main line of the first game tree
//! (the first variation at every branch), the game-info properties SZ, KM, RU, HA, RE, PB,
//! PW, the root comment C, setup stones AB/AW/AE (compressed point lists expanded) and PL in
//! any node of the main line, and moves B/W with `[]` and `[tt]` (on boards up to 19) as
//! passes.
//!
//! Does not know: legality of moves or of setup stones (a later step plays them on a Game),
//! variations other than the main line (they are checked for syntax, then dropped), comments
//! of nodes other than the root, markup, annotations, clocks and any other property (ignored,
//! never an error), character sets other than UTF-8 (the caller hands over a `&str`), boards
//! larger than 25x25 or not square, games other than Go (`GM[1]`).

use std::fmt;

use crate::color::Color;

/// The board size of a record without SZ.
pub const DEFAULT_SIZE: u8 = 19;

/// The largest board size this module accepts: SGF's lower-case letters reach 26, GTP's
/// vertex letters (which skip I) reach 25.
pub const LARGEST_SIZE: u8 = 25;

/// The largest size on which the move `[tt]` means a pass rather than a point.
const LARGEST_SIZE_WITH_TT_PASS: u8 = 19;

/// A point as SGF writes it: 0-based column from the left and row from the TOP (`aa` is the
/// top-left corner). GTP counts rows from the bottom: converting is the caller's business.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SgfPoint {
    /// 0 is the leftmost column (`a`).
    pub column: u8,
    /// 0 is the top row (`a`).
    pub row: u8,
}

impl SgfPoint {
    /// The point at `column` from the left and `row` from the top, both 0-based.
    pub fn new(column: u8, row: u8) -> SgfPoint {
        SgfPoint { column, row }
    }

    /// Whether the point lies on a board of `size` lines.
    pub fn is_on_board(self, size: u8) -> bool {
        self.column < size && self.row < size
    }
}

impl fmt::Display for SgfPoint {
    /// The two SGF letters of the point, column first: `(3, 15)` is `dp`. Coordinates past 51,
    /// which SGF cannot write, come out as `?`.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "{}{}",
            coordinate_letter(self.column),
            coordinate_letter(self.row)
        )
    }
}

/// A move of the main line: a pass or a stone placed on a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SgfMove {
    Pass,
    Place(SgfPoint),
}

/// Setup properties of one node: stones added (AB, AW), points cleared (AE) and the player to
/// move (PL). Points are listed in the order of the file, compressed lists expanded row by
/// row; a point may repeat, and nothing is checked against the stones already there.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SgfSetup {
    /// AB: black stones to put on the board.
    pub black: Vec<SgfPoint>,
    /// AW: white stones to put on the board.
    pub white: Vec<SgfPoint>,
    /// AE: points to clear.
    pub empty: Vec<SgfPoint>,
    /// PL: whose turn it is after this node.
    pub player_to_move: Option<Color>,
}

impl SgfSetup {
    /// Whether the node sets nothing up: no stone added or removed and no PL.
    pub fn is_empty(&self) -> bool {
        self.black.is_empty()
            && self.white.is_empty()
            && self.empty.is_empty()
            && self.player_to_move.is_none()
    }
}

/// One step of the main line after the root's own setup, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfEvent {
    /// A B or W property.
    Move(Color, SgfMove),
    /// AB, AW, AE or PL in a node after the root. A node holding both setup and a move (which
    /// `FF[4]` forbids but files contain) gives the setup first, then the move(s).
    Setup(SgfSetup),
}

/// What this module reads from, and writes to, an SGF game record.
#[derive(Clone, Debug, PartialEq)]
pub struct SgfGame {
    /// SZ: lines of the square board, 1 to [`LARGEST_SIZE`]; [`DEFAULT_SIZE`] when absent.
    pub size: u8,
    /// KM, a finite number; `None` when absent or empty.
    pub komi: Option<f64>,
    /// RU, as written (e.g. `Japanese`, `Chinese`); `None` when absent or empty.
    pub rules: Option<String>,
    /// HA: number of handicap stones as declared. The stones themselves are in `setup`.
    pub handicap: Option<u32>,
    /// RE: result as written (e.g. `B+R`, `W+3.5`, `0`); `None` when absent or empty.
    pub result: Option<String>,
    /// PB: name of the black player.
    pub player_black: Option<String>,
    /// PW: name of the white player.
    pub player_white: Option<String>,
    /// AB, AW, AE and PL of the root node.
    pub setup: SgfSetup,
    /// The main line after the root's setup: moves (a move in the root node included) and
    /// setup of later nodes, in order.
    pub main_line: Vec<SgfEvent>,
    /// C of the root node. Comments of other nodes are not kept.
    pub comment: Option<String>,
}

impl Default for SgfGame {
    /// An empty 19x19 record: no game information, no setup, no moves.
    fn default() -> SgfGame {
        SgfGame::new(DEFAULT_SIZE)
    }
}

impl SgfGame {
    /// An empty record on a board of `size` lines: no game information, no setup, no moves.
    /// The size is not checked here; [`write()`] documents what happens with a bad one.
    pub fn new(size: u8) -> SgfGame {
        SgfGame {
            size,
            komi: None,
            rules: None,
            handicap: None,
            result: None,
            player_black: None,
            player_white: None,
            setup: SgfSetup::default(),
            main_line: Vec::new(),
            comment: None,
        }
    }

    /// The moves of the main line in order, leaving out setup events.
    pub fn moves(&self) -> impl Iterator<Item = (Color, SgfMove)> + '_ {
        self.main_line.iter().filter_map(|event| match event {
            SgfEvent::Move(color, sgf_move) => Some((*color, *sgf_move)),
            SgfEvent::Setup(_) => None,
        })
    }

    /// Whether some node after the root adds or removes stones or sets PL, so the record is
    /// more than root setup followed by moves.
    pub fn has_setup_after_root(&self) -> bool {
        self.main_line
            .iter()
            .any(|event| matches!(event, SgfEvent::Setup(_)))
    }
}

/// Why a text is not an SGF game record this module can read, and where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SgfError {
    /// Byte offset in the text: of the offending character (the end of the text for an
    /// unexpected end), or of the `[` that opens the offending value.
    pub offset: usize,
    /// What is wrong.
    pub kind: SgfErrorKind,
}

/// The kinds of [`SgfError`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SgfErrorKind {
    /// No game tree: the text holds no `(` followed by `;`.
    EmptyCollection,
    /// The text ends where `expected` should follow (an unclosed `(` or `[`).
    UnexpectedEnd { expected: &'static str },
    /// A character that the grammar does not allow here, such as an unbalanced `)`.
    UnexpectedCharacter { found: char, expected: &'static str },
    /// B, W, PL, SZ, KM, HA or GM with more than one value.
    ExpectedOneValue { property: String },
    /// GM other than 1: not a game of Go.
    NotGo { value: String },
    /// SZ is not a number from 1 to [`LARGEST_SIZE`].
    InvalidSize { value: String },
    /// SZ gives two different numbers of columns and rows.
    NonSquareBoard { value: String },
    /// An SZ that contradicts the size the root gave (or the default 19 when the root gave
    /// none).
    ConflictingSize { value: String, size: u8 },
    /// A point value that is not two letters.
    InvalidPoint { property: String, value: String },
    /// A point that does not lie on the board (the pass `tt` excepted).
    PointOffBoard {
        property: String,
        value: String,
        size: u8,
    },
    /// KM or HA that is not a (finite, for KM; non-negative whole, for HA) number.
    InvalidNumber { property: String, value: String },
    /// PL that is neither B nor W.
    InvalidColor { value: String },
}

impl fmt::Display for SgfErrorKind {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfErrorKind::EmptyCollection => {
                formatter.write_str("no game tree: expected '(' followed by ';'")
            }
            SgfErrorKind::UnexpectedEnd { expected } => {
                write!(formatter, "unexpected end of text, expected {expected}")
            }
            SgfErrorKind::UnexpectedCharacter { found, expected } => {
                write!(formatter, "expected {expected}, found {found:?}")
            }
            SgfErrorKind::ExpectedOneValue { property } => {
                write!(formatter, "property {property} needs exactly one value")
            }
            SgfErrorKind::NotGo { value } => {
                write!(formatter, "GM[{value}] is not a game of Go (GM[1])")
            }
            SgfErrorKind::InvalidSize { value } => write!(
                formatter,
                "SZ[{value}] is not a board size from 1 to {LARGEST_SIZE}"
            ),
            SgfErrorKind::NonSquareBoard { value } => {
                write!(formatter, "SZ[{value}] is not a square board")
            }
            SgfErrorKind::ConflictingSize { value, size } => write!(
                formatter,
                "SZ[{value}] contradicts the board size {size} of the root node"
            ),
            SgfErrorKind::InvalidPoint { property, value } => write!(
                formatter,
                "{property}[{value}] is not a point (expected two letters such as 'dp')"
            ),
            SgfErrorKind::PointOffBoard {
                property,
                value,
                size,
            } => write!(
                formatter,
                "{property}[{value}] is off the {size}x{size} board"
            ),
            SgfErrorKind::InvalidNumber { property, value } => {
                write!(formatter, "{property}[{value}] is not a valid number")
            }
            SgfErrorKind::InvalidColor { value } => {
                write!(formatter, "PL[{value}] is not a colour (expected B or W)")
            }
        }
    }
}

impl fmt::Display for SgfError {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "SGF: {} at byte {}", self.kind, self.offset)
    }
}

impl std::error::Error for SgfError {}

/// Reads the first game tree of an SGF collection and returns its main line.
///
/// White space may stand between any two tokens. Every game tree of the collection is checked
/// for syntax; only the first is interpreted, and of it only the main line (the first
/// variation at every branch). Game-info properties found in a later node of the main line
/// count when the root did not give them (`FF[4]` lets a game-info node sit below the root);
/// the first value found wins. Unknown properties are ignored.
///
/// Lenient, as GoGui is, where the meaning is clear: text before the first `(;` and after the
/// last game tree is skipped; a node after a variation (`(;B[aa](;W[bb]);W[cc])`) starts one
/// more variation; several moves in one node (`B[tt]W[tt]`) are read in file order, after the
/// node's setup; `PL[1]` and `PL[2]` mean black and white; a text property with several
/// values (`PW[Ann][Ann]`) takes the first; `GM[]`, `SZ[]`, `KM[]`, `HA[]` count as absent;
/// numbers and points may have white space around them.
///
/// # Errors
///
/// Returns an [`SgfError`] with the byte offset of the problem when: the text holds no game
/// tree (`(` then `;`); a bracket or parenthesis is unbalanced (a `)` right after the last
/// game tree included) or a character breaks the grammar inside a game tree; GM is not 1;
/// SZ is not a square size from 1 to 25, or another SZ contradicts the root's; a move or
/// setup point of the main line is not two letters or lies off the board (`[tt]` as a move on
/// boards up to 19 is a pass); KM is not a finite number or HA not a whole number; PL is not
/// a colour; B, W, PL, SZ, KM, HA or GM has more than one value.
pub fn parse(text: &str) -> Result<SgfGame, SgfError> {
    let nodes = read_main_line(text)?;
    interpret_main_line(&nodes)
}

/// Writes `game` as an `FF[4]` SGF text of one game tree without variations: a root node with
/// `FF[4]GM[1]CA[UTF-8]AP[ishi:VERSION]`, SZ, then KM, RU, HA, RE, PB, PW, AB, AW, AE, PL
/// and C when present, then one node per event of the main line. Passes are written `[]`.
///
/// For any game that [`parse`] returns, `parse(&write(&game)) == Ok(game)`. A game built by
/// hand reads back equal when it has what [`parse`] can produce: a size from 1 to 25, points
/// on the board, a finite komi, text with no tabs or other white space but spaces and (in
/// the comment) line breaks, names, rules and result trimmed and non-empty, and no setup
/// event with nothing in it. Otherwise the text is still written, without panicking: a
/// non-finite komi is left out, an empty setup event is left out, a coordinate past 51 is
/// written `?` (which [`parse`] rejects), an empty text reads back as `None`, a tab as a
/// space.
pub fn write(game: &SgfGame) -> String {
    let mut text = String::new();
    text.push_str("(;FF[4]GM[1]CA[UTF-8]AP[ishi:");
    text.push_str(env!("CARGO_PKG_VERSION"));
    text.push(']');
    text.push_str(&format!("SZ[{}]", game.size));
    if let Some(komi) = game.komi {
        if komi.is_finite() {
            text.push_str(&format!("KM[{komi}]"));
        }
    }
    write_text_property(&mut text, "RU", game.rules.as_deref());
    if let Some(handicap) = game.handicap {
        text.push_str(&format!("HA[{handicap}]"));
    }
    write_text_property(&mut text, "RE", game.result.as_deref());
    write_text_property(&mut text, "PB", game.player_black.as_deref());
    write_text_property(&mut text, "PW", game.player_white.as_deref());
    write_setup(&mut text, &game.setup);
    write_text_property(&mut text, "C", game.comment.as_deref());
    text.push('\n');
    let mut nodes_on_line = 0;
    for event in &game.main_line {
        match event {
            SgfEvent::Move(color, sgf_move) => {
                text.push(';');
                text.push(color.letter());
                match sgf_move {
                    SgfMove::Pass => text.push_str("[]"),
                    SgfMove::Place(point) => text.push_str(&format!("[{point}]")),
                }
            }
            SgfEvent::Setup(setup) => {
                if setup.is_empty() {
                    continue;
                }
                text.push(';');
                write_setup(&mut text, setup);
            }
        }
        nodes_on_line += 1;
        if nodes_on_line == 10 {
            text.push('\n');
            nodes_on_line = 0;
        }
    }
    if nodes_on_line > 0 {
        text.push('\n');
    }
    text.push_str(")\n");
    text
}

fn write_setup(text: &mut String, setup: &SgfSetup) {
    for (identifier, points) in [
        ("AB", &setup.black),
        ("AW", &setup.white),
        ("AE", &setup.empty),
    ] {
        if points.is_empty() {
            continue;
        }
        text.push_str(identifier);
        for point in points {
            text.push_str(&format!("[{point}]"));
        }
    }
    if let Some(color) = setup.player_to_move {
        text.push_str("PL[");
        text.push(color.letter());
        text.push(']');
    }
}

fn write_text_property(text: &mut String, identifier: &str, value: Option<&str>) {
    let Some(value) = value else {
        return;
    };
    text.push_str(identifier);
    text.push('[');
    for character in value.chars() {
        if character == ']' || character == '\\' {
            text.push('\\');
        }
        text.push(character);
    }
    text.push(']');
}

/// The SGF letter of a 0-based coordinate: `a`..`z` then `A`..`Z`; `?` past that.
fn coordinate_letter(coordinate: u8) -> char {
    match coordinate {
        0..=25 => char::from(b'a' + coordinate),
        26..=51 => char::from(b'A' + (coordinate - 26)),
        _ => '?',
    }
}

/// The 0-based coordinate of an SGF letter.
fn letter_coordinate(letter: u8) -> Option<u8> {
    match letter {
        b'a'..=b'z' => Some(letter - b'a'),
        b'A'..=b'Z' => Some(letter - b'A' + 26),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------------------
// Syntax: from text to the raw nodes of the main line.

/// A property value as written between its brackets, escapes still in.
#[derive(Debug)]
struct RawValue<'text> {
    text: &'text str,
    /// Byte offset of the opening `[`.
    offset: usize,
}

/// A property: its `FF[4]` identifier (upper-case letters only) and its values.
#[derive(Debug)]
struct RawProperty<'text> {
    identifier: String,
    values: Vec<RawValue<'text>>,
}

/// A node of the main line: its properties in file order.
#[derive(Debug)]
struct RawNode<'text> {
    properties: Vec<RawProperty<'text>>,
}

/// An open game tree while reading.
struct OpenTree {
    on_main_line: bool,
    has_nodes: bool,
    variations: usize,
    /// Opened by a node after a variation rather than by `(`: closed with its parent.
    implicit: bool,
}

/// The reader of the syntax. It keeps open game trees on a stack of its own rather than
/// recursing, so that deep nesting cannot overflow the call stack.
struct Reader<'text> {
    text: &'text str,
    position: usize,
}

impl<'text> Reader<'text> {
    fn byte(&self) -> Option<u8> {
        self.text.as_bytes().get(self.position).copied()
    }

    fn skip_white_space(&mut self) {
        while let Some(character) = self.text[self.position..].chars().next() {
            if character.is_whitespace() {
                self.position += character.len_utf8();
            } else {
                break;
            }
        }
    }

    fn unexpected(&self, expected: &'static str) -> SgfError {
        let kind = match self.text[self.position..].chars().next() {
            Some(found) => SgfErrorKind::UnexpectedCharacter { found, expected },
            None => SgfErrorKind::UnexpectedEnd { expected },
        };
        SgfError {
            offset: self.position,
            kind,
        }
    }

    /// Moves to the first `(` from the position on that white space and `;` follow, the start
    /// of a game tree; false when there is none.
    fn find_game_tree(&mut self) -> bool {
        let bytes = self.text.as_bytes();
        while let Some(found) = bytes[self.position..].iter().position(|&byte| byte == b'(') {
            let start = self.position + found;
            self.position = start + 1;
            self.skip_white_space();
            if self.byte() == Some(b';') {
                self.position = start;
                return true;
            }
        }
        false
    }

    /// Reads a node's properties; the position is just past its `;`.
    fn read_properties(&mut self) -> Result<Vec<RawProperty<'text>>, SgfError> {
        let mut properties = Vec::new();
        loop {
            self.skip_white_space();
            match self.byte() {
                Some(byte) if byte.is_ascii_alphabetic() => {}
                _ => return Ok(properties),
            }
            let start = self.position;
            while self.byte().is_some_and(|byte| byte.is_ascii_alphabetic()) {
                self.position += 1;
            }
            // FF[4]: only the upper-case letters form the identifier (`AddBlack` is AB).
            let identifier: String = self.text[start..self.position]
                .chars()
                .filter(char::is_ascii_uppercase)
                .collect();
            let mut values = Vec::new();
            loop {
                self.skip_white_space();
                if self.byte() != Some(b'[') {
                    break;
                }
                values.push(self.read_value()?);
            }
            if values.is_empty() {
                return Err(self.unexpected("'[' after a property identifier"));
            }
            properties.push(RawProperty { identifier, values });
        }
    }

    /// Reads one value; the position is at its `[`.
    fn read_value(&mut self) -> Result<RawValue<'text>, SgfError> {
        let offset = self.position;
        let bytes = self.text.as_bytes();
        let mut position = offset + 1;
        loop {
            match bytes.get(position) {
                None => {
                    self.position = position;
                    return Err(SgfError {
                        offset,
                        kind: SgfErrorKind::UnexpectedEnd {
                            expected: "']' closing the value opened here",
                        },
                    });
                }
                Some(b'\\') => position += 2,
                Some(b']') => break,
                Some(_) => position += 1,
            }
        }
        self.position = position + 1;
        Ok(RawValue {
            text: &self.text[offset + 1..position],
            offset,
        })
    }
}

/// Checks the syntax of the collection and returns the nodes of the main line of its first
/// game tree (at least the root).
///
/// Leniencies, as GoGui has them: text before the first game tree and after the last one is
/// ignored (but a `)` right after a game tree is an unbalanced parenthesis); a node after a
/// variation, as in `(;B[aa](;W[bb]);W[cc])`, starts one more variation (so it is not on the
/// main line).
fn read_main_line(text: &str) -> Result<Vec<RawNode<'_>>, SgfError> {
    let mut reader = Reader { text, position: 0 };
    if !reader.find_game_tree() {
        return Err(SgfError {
            offset: 0,
            kind: SgfErrorKind::EmptyCollection,
        });
    }
    let mut nodes = Vec::new();
    let mut open_trees: Vec<OpenTree> = Vec::new();
    let mut game_trees = 0_usize;
    loop {
        reader.skip_white_space();
        if open_trees.is_empty() && game_trees > 0 {
            match reader.byte() {
                Some(b')') => return Err(reader.unexpected("'(' or the end of the text")),
                Some(b'(') if reader.find_game_tree() => {}
                _ => return Ok(nodes),
            }
        }
        let Some(byte) = reader.byte() else {
            return Err(reader.unexpected("')' closing a game tree"));
        };
        match (byte, open_trees.last_mut()) {
            (b'(', None) => {
                open_trees.push(OpenTree {
                    on_main_line: game_trees == 0,
                    has_nodes: false,
                    variations: 0,
                    implicit: false,
                });
                game_trees += 1;
                reader.position += 1;
            }
            (b'(', Some(parent)) if parent.has_nodes => {
                let on_main_line = parent.on_main_line && parent.variations == 0;
                parent.variations += 1;
                open_trees.push(OpenTree {
                    on_main_line,
                    has_nodes: false,
                    variations: 0,
                    implicit: false,
                });
                reader.position += 1;
            }
            (b')', Some(tree)) if tree.has_nodes => {
                while open_trees.pop().is_some_and(|tree| tree.implicit) {}
                reader.position += 1;
            }
            (b';', Some(tree)) => {
                let after_variation = tree.variations > 0;
                let mut on_main_line = tree.on_main_line;
                if after_variation {
                    tree.variations += 1;
                    on_main_line = false;
                    open_trees.push(OpenTree {
                        on_main_line,
                        has_nodes: true,
                        variations: 0,
                        implicit: true,
                    });
                } else {
                    tree.has_nodes = true;
                }
                reader.position += 1;
                let properties = reader.read_properties()?;
                if on_main_line {
                    nodes.push(RawNode { properties });
                }
            }
            (_, Some(tree)) if !tree.has_nodes => {
                return Err(reader.unexpected("';' starting a game tree"));
            }
            _ => return Err(reader.unexpected("';', '(', ')' or a property identifier")),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Meaning: from raw nodes to an SgfGame.

fn interpret_main_line(nodes: &[RawNode<'_>]) -> Result<SgfGame, SgfError> {
    let size = match nodes.first() {
        Some(root) => root_size(root)?,
        None => DEFAULT_SIZE,
    };
    let mut game = SgfGame::new(size);
    for (index, node) in nodes.iter().enumerate() {
        let is_root = index == 0;
        let mut setup = SgfSetup::default();
        let mut node_moves = Vec::new();
        for property in &node.properties {
            let identifier = property.identifier.as_str();
            match identifier {
                "B" | "W" => {
                    let color = if identifier == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    let value = single_value(property)?;
                    node_moves.push(SgfEvent::Move(color, read_move(identifier, value, size)?));
                }
                "AB" => read_point_list(property, size, &mut setup.black)?,
                "AW" => read_point_list(property, size, &mut setup.white)?,
                "AE" => read_point_list(property, size, &mut setup.empty)?,
                "PL" => {
                    let value = single_value(property)?;
                    // FF[1] to FF[3] files (Cgoban 1) write 1 for black and 2 for white.
                    let color = match value.text.trim() {
                        "1" => Some(Color::Black),
                        "2" => Some(Color::White),
                        other => Color::parse(other),
                    };
                    setup.player_to_move = Some(color.ok_or_else(|| SgfError {
                        offset: value.offset,
                        kind: SgfErrorKind::InvalidColor {
                            value: value.text.to_string(),
                        },
                    })?);
                }
                "GM" => {
                    let value = single_value(property)?;
                    let trimmed = value.text.trim();
                    if !trimmed.is_empty() && trimmed != "1" {
                        return Err(SgfError {
                            offset: value.offset,
                            kind: SgfErrorKind::NotGo {
                                value: value.text.to_string(),
                            },
                        });
                    }
                }
                "SZ" => {
                    let value = single_value(property)?;
                    if let Some(given) = read_size(value)? {
                        if given != size {
                            return Err(SgfError {
                                offset: value.offset,
                                kind: SgfErrorKind::ConflictingSize {
                                    value: value.text.to_string(),
                                    size,
                                },
                            });
                        }
                    }
                }
                "KM" => {
                    let komi = read_komi(single_value(property)?)?;
                    if game.komi.is_none() {
                        game.komi = komi;
                    }
                }
                "HA" => {
                    let handicap = read_handicap(single_value(property)?)?;
                    if game.handicap.is_none() {
                        game.handicap = handicap;
                    }
                }
                "RU" => fill_simple_text(&mut game.rules, property),
                "RE" => fill_simple_text(&mut game.result, property),
                "PB" => fill_simple_text(&mut game.player_black, property),
                "PW" => fill_simple_text(&mut game.player_white, property),
                "C" if is_root => {
                    let text = decode_text(first_value(property).text, false);
                    if game.comment.is_none() && !text.is_empty() {
                        game.comment = Some(text);
                    }
                }
                _ => {}
            }
        }
        if is_root {
            game.setup = setup;
        } else if !setup.is_empty() {
            game.main_line.push(SgfEvent::Setup(setup));
        }
        game.main_line.append(&mut node_moves);
    }
    Ok(game)
}

/// The size the root node declares, default 19; every other SZ must agree with it.
fn root_size(root: &RawNode<'_>) -> Result<u8, SgfError> {
    for property in &root.properties {
        if property.identifier == "SZ" {
            if let Some(size) = read_size(single_value(property)?)? {
                return Ok(size);
            }
        }
    }
    Ok(DEFAULT_SIZE)
}

fn single_value<'value, 'text>(
    property: &'value RawProperty<'text>,
) -> Result<&'value RawValue<'text>, SgfError> {
    match property.values.as_slice() {
        [value] => Ok(value),
        values => Err(SgfError {
            offset: values.get(1).map_or(0, |value| value.offset),
            kind: SgfErrorKind::ExpectedOneValue {
                property: property.identifier.clone(),
            },
        }),
    }
}

/// The first value of a text property: `PW[Ann]`[Ann] is read as `PW[Ann]`, as GoGui does.
fn first_value<'value, 'text>(property: &'value RawProperty<'text>) -> &'value RawValue<'text> {
    static EMPTY: RawValue<'static> = RawValue {
        text: "",
        offset: 0,
    };
    property.values.first().unwrap_or(&EMPTY)
}

/// SZ: `19` or the square `19:19`; `None` for an empty value.
fn read_size(value: &RawValue<'_>) -> Result<Option<u8>, SgfError> {
    let trimmed = value.text.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    let error = |kind: fn(String) -> SgfErrorKind| SgfError {
        offset: value.offset,
        kind: kind(value.text.to_string()),
    };
    let invalid = || error(|value| SgfErrorKind::InvalidSize { value });
    let number = |text: &str| text.trim().parse::<u32>().map_err(|_| invalid());
    let size = match trimmed.split_once(':') {
        None => number(trimmed)?,
        Some((columns, rows)) => {
            let columns = number(columns)?;
            if columns != number(rows)? {
                return Err(error(|value| SgfErrorKind::NonSquareBoard { value }));
            }
            columns
        }
    };
    match u8::try_from(size) {
        Ok(size) if (1..=LARGEST_SIZE).contains(&size) => Ok(Some(size)),
        _ => Err(invalid()),
    }
}

/// KM: a finite real number; `None` for an empty value.
fn read_komi(value: &RawValue<'_>) -> Result<Option<f64>, SgfError> {
    let trimmed = value.text.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    match trimmed.parse::<f64>() {
        Ok(komi) if komi.is_finite() => Ok(Some(komi)),
        _ => Err(SgfError {
            offset: value.offset,
            kind: SgfErrorKind::InvalidNumber {
                property: "KM".to_string(),
                value: value.text.to_string(),
            },
        }),
    }
}

/// HA: a non-negative whole number; `None` for an empty value.
fn read_handicap(value: &RawValue<'_>) -> Result<Option<u32>, SgfError> {
    let trimmed = value.text.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    trimmed.parse::<u32>().map(Some).map_err(|_| SgfError {
        offset: value.offset,
        kind: SgfErrorKind::InvalidNumber {
            property: "HA".to_string(),
            value: value.text.to_string(),
        },
    })
}

/// Sets a SimpleText field when it is still unset and the value is not empty.
fn fill_simple_text(field: &mut Option<String>, property: &RawProperty<'_>) {
    let text = decode_text(first_value(property).text, true);
    let trimmed = text.trim();
    if field.is_none() && !trimmed.is_empty() {
        *field = Some(trimmed.to_string());
    }
}

/// Two letters; any surrounding white space is ignored.
fn read_point(identifier: &str, value: &RawValue<'_>, text: &str) -> Result<SgfPoint, SgfError> {
    let invalid = || SgfError {
        offset: value.offset,
        kind: SgfErrorKind::InvalidPoint {
            property: identifier.to_string(),
            value: value.text.to_string(),
        },
    };
    match text.trim().as_bytes() {
        [column, row] => Ok(SgfPoint {
            column: letter_coordinate(*column).ok_or_else(invalid)?,
            row: letter_coordinate(*row).ok_or_else(invalid)?,
        }),
        _ => Err(invalid()),
    }
}

fn off_board(identifier: &str, value: &RawValue<'_>, size: u8) -> SgfError {
    SgfError {
        offset: value.offset,
        kind: SgfErrorKind::PointOffBoard {
            property: identifier.to_string(),
            value: value.text.to_string(),
            size,
        },
    }
}

/// B or W: `[]` is a pass, and so is `[tt]` on boards up to 19.
fn read_move(identifier: &str, value: &RawValue<'_>, size: u8) -> Result<SgfMove, SgfError> {
    if value.text.trim().is_empty() {
        return Ok(SgfMove::Pass);
    }
    let point = read_point(identifier, value, value.text)?;
    if point.is_on_board(size) {
        Ok(SgfMove::Place(point))
    } else if size <= LARGEST_SIZE_WITH_TT_PASS && point == SgfPoint::new(19, 19) {
        Ok(SgfMove::Pass)
    } else {
        Err(off_board(identifier, value, size))
    }
}

/// AB, AW, AE: points and compressed rectangles `aa:cc` (any two opposite corners), expanded
/// row by row. An empty value adds nothing.
fn read_point_list(
    property: &RawProperty<'_>,
    size: u8,
    points: &mut Vec<SgfPoint>,
) -> Result<(), SgfError> {
    let identifier = property.identifier.as_str();
    for value in &property.values {
        if value.text.trim().is_empty() {
            continue;
        }
        let (first, second) = match value.text.split_once(':') {
            Some((first, second)) => (
                read_point(identifier, value, first)?,
                read_point(identifier, value, second)?,
            ),
            None => {
                let point = read_point(identifier, value, value.text)?;
                (point, point)
            }
        };
        if !first.is_on_board(size) || !second.is_on_board(size) {
            return Err(off_board(identifier, value, size));
        }
        for row in first.row.min(second.row)..=first.row.max(second.row) {
            for column in first.column.min(second.column)..=first.column.max(second.column) {
                points.push(SgfPoint { column, row });
            }
        }
    }
    Ok(())
}

/// Decodes Text (`simple == false`) or SimpleText (`simple == true`) per `FF[4]`: `\` escapes
/// the next character, `\` before a line break removes both (a soft line break), white space
/// other than line breaks becomes a space, and in SimpleText line breaks become spaces too.
/// A line break is `\n`, `\r`, `\r\n` or `\n\r`.
fn decode_text(raw: &str, simple: bool) -> String {
    let mut decoded = String::with_capacity(raw.len());
    let mut characters = raw.chars().peekable();
    while let Some(character) = characters.next() {
        let (character, escaped) = if character == '\\' {
            match characters.next() {
                Some(next) => (next, true),
                None => break,
            }
        } else {
            (character, false)
        };
        match character {
            '\n' | '\r' => {
                let partner = if character == '\n' { '\r' } else { '\n' };
                if characters.peek() == Some(&partner) {
                    characters.next();
                    if !escaped && !simple {
                        decoded.push(character);
                        decoded.push(partner);
                    }
                } else if !escaped && !simple {
                    decoded.push(character);
                }
                if !escaped && simple {
                    decoded.push(' ');
                }
            }
            '\t' | '\u{b}' | '\u{c}' => decoded.push(' '),
            _ => decoded.push(character),
        }
    }
    decoded
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(column: u8, row: u8) -> SgfPoint {
        SgfPoint::new(column, row)
    }

    fn error_kind(text: &str) -> SgfErrorKind {
        match parse(text) {
            Ok(game) => panic!("{text:?} should not parse, got {game:?}"),
            Err(error) => error.kind,
        }
    }

    fn parsed(text: &str) -> SgfGame {
        match parse(text) {
            Ok(game) => game,
            Err(error) => panic!("{text:?} should parse: {error}"),
        }
    }

    #[test]
    fn empty_root_is_an_empty_19x19_game() {
        assert_eq!(parsed("(;)"), SgfGame::default());
        assert_eq!(parsed("(;FF[4]GM[1])").size, 19);
    }

    #[test]
    fn reads_game_information() {
        let game = parsed(
            "(;FF[4]GM[1]SZ[13]KM[6.5]RU[Japanese]HA[2]RE[W+3.5]PB[Black Player]\
             PW[White Player]C[A comment.]AB[dd][jj]PL[W])",
        );
        assert_eq!(game.size, 13);
        assert_eq!(game.komi, Some(6.5));
        assert_eq!(game.rules.as_deref(), Some("Japanese"));
        assert_eq!(game.handicap, Some(2));
        assert_eq!(game.result.as_deref(), Some("W+3.5"));
        assert_eq!(game.player_black.as_deref(), Some("Black Player"));
        assert_eq!(game.player_white.as_deref(), Some("White Player"));
        assert_eq!(game.comment.as_deref(), Some("A comment."));
        assert_eq!(game.setup.black, vec![point(3, 3), point(9, 9)]);
        assert_eq!(game.setup.player_to_move, Some(Color::White));
        assert!(game.main_line.is_empty());
    }

    #[test]
    fn reads_komi_in_every_form() {
        let komi = |value: &str| parsed(&format!("(;KM[{value}])")).komi;
        assert_eq!(komi("6.5"), Some(6.5));
        assert_eq!(komi("6.50"), Some(6.5));
        assert_eq!(komi("0"), Some(0.0));
        assert_eq!(komi("-3"), Some(-3.0));
        assert_eq!(komi(" 7.5 "), Some(7.5));
        assert_eq!(komi(""), None);
        assert_eq!(parsed("(;)").komi, None);
        for bad in ["abc", "6,5", "inf", "NaN", "6.5.5"] {
            assert!(
                matches!(
                    error_kind(&format!("(;KM[{bad}])")),
                    SgfErrorKind::InvalidNumber { ref property, .. } if property == "KM"
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn reads_handicap() {
        assert_eq!(parsed("(;HA[0])").handicap, Some(0));
        assert_eq!(parsed("(;HA[9])").handicap, Some(9));
        assert_eq!(parsed("(;HA[])").handicap, None);
        assert!(matches!(
            error_kind("(;HA[-1])"),
            SgfErrorKind::InvalidNumber { .. }
        ));
        assert!(matches!(
            error_kind("(;HA[two])"),
            SgfErrorKind::InvalidNumber { .. }
        ));
    }

    #[test]
    fn reads_sizes_and_rejects_bad_ones() {
        assert_eq!(parsed("(;)").size, 19);
        assert_eq!(parsed("(;SZ[])").size, 19);
        assert_eq!(parsed("(;SZ[9])").size, 9);
        assert_eq!(parsed("(;SZ[ 9 ])").size, 9);
        assert_eq!(parsed("(;SZ[1])").size, 1);
        assert_eq!(parsed("(;SZ[25])").size, 25);
        assert_eq!(parsed("(;SZ[13:13])").size, 13);
        assert_eq!(
            error_kind("(;SZ[9:13])"),
            SgfErrorKind::NonSquareBoard {
                value: "9:13".to_string()
            }
        );
        for bad in ["0", "26", "52", "300", "-9", "nine", "9.0", "9:"] {
            assert_eq!(
                error_kind(&format!("(;SZ[{bad}])")),
                SgfErrorKind::InvalidSize {
                    value: bad.to_string()
                },
                "{bad}"
            );
        }
    }

    #[test]
    fn size_in_the_root_applies_to_points_before_it() {
        assert_eq!(
            error_kind("(;AB[pp]AW[cp]SZ[9])"),
            SgfErrorKind::PointOffBoard {
                property: "AB".to_string(),
                value: "pp".to_string(),
                size: 9
            }
        );
        assert_eq!(
            parsed("(;AB[pp]AW[cp]SZ[19])").setup.black,
            vec![point(15, 15)]
        );
    }

    #[test]
    fn size_after_the_root_must_agree() {
        assert_eq!(parsed("(;SZ[9];SZ[9]B[aa])").moves().count(), 1);
        assert_eq!(
            error_kind("(;SZ[9];SZ[13])"),
            SgfErrorKind::ConflictingSize {
                value: "13".to_string(),
                size: 9
            }
        );
        assert!(matches!(
            error_kind("(;B[aa];SZ[9])"),
            SgfErrorKind::ConflictingSize { size: 19, .. }
        ));
        assert!(matches!(
            error_kind("(;SZ[9]SZ[13])"),
            SgfErrorKind::ConflictingSize { size: 9, .. }
        ));
    }

    #[test]
    fn rejects_games_other_than_go() {
        assert_eq!(
            error_kind("(;GM[2])"),
            SgfErrorKind::NotGo {
                value: "2".to_string()
            }
        );
        assert!(matches!(
            error_kind("(;GM[chess])"),
            SgfErrorKind::NotGo { .. }
        ));
        assert_eq!(parsed("(;GM[1])").size, 19);
        assert_eq!(parsed("(;GM[])").size, 19);
    }

    #[test]
    fn reads_moves_with_sgf_coordinates() {
        let game = parsed("(;;B[pd];W[dp];B[aa];W[ss])");
        let moves: Vec<_> = game.moves().collect();
        assert_eq!(
            moves,
            vec![
                (Color::Black, SgfMove::Place(point(15, 3))),
                (Color::White, SgfMove::Place(point(3, 15))),
                (Color::Black, SgfMove::Place(point(0, 0))),
                (Color::White, SgfMove::Place(point(18, 18))),
            ]
        );
        // Colours are read as written, not alternated.
        let game = parsed("(;B[aa];B[bb];W[cc];W[dd])");
        let colors: Vec<Color> = game.moves().map(|(color, _)| color).collect();
        assert_eq!(
            colors,
            [Color::Black, Color::Black, Color::White, Color::White]
        );
    }

    #[test]
    fn a_move_in_the_root_is_part_of_the_main_line() {
        let game = parsed("(;SZ[9]AB[cc]B[dd];W[ee])");
        assert_eq!(game.setup.black, vec![point(2, 2)]);
        assert_eq!(
            game.main_line,
            vec![
                SgfEvent::Move(Color::Black, SgfMove::Place(point(3, 3))),
                SgfEvent::Move(Color::White, SgfMove::Place(point(4, 4))),
            ]
        );
    }

    #[test]
    fn reads_passes() {
        let passes = |text: &str| {
            parsed(text)
                .moves()
                .map(|(_, sgf_move)| sgf_move)
                .collect::<Vec<_>>()
        };
        assert_eq!(passes("(;B[];W[tt])"), [SgfMove::Pass, SgfMove::Pass]);
        assert_eq!(
            passes("(;SZ[9];B[tt];W[ ])"),
            [SgfMove::Pass, SgfMove::Pass]
        );
        assert_eq!(passes("(;SZ[19];B[tt])"), [SgfMove::Pass]);
        // On boards larger than 19, tt is a point.
        assert_eq!(passes("(;SZ[20];B[tt])"), [SgfMove::Place(point(19, 19))]);
        assert_eq!(
            passes("(;SZ[25];B[tt];W[yy])"),
            [SgfMove::Place(point(19, 19)), SgfMove::Place(point(24, 24))]
        );
    }

    #[test]
    fn rejects_moves_off_the_board() {
        let text = "(;SZ[9];B[cg];W[ee];B[rs];W[cb])";
        let error = parse(text).unwrap_err();
        assert_eq!(
            error.kind,
            SgfErrorKind::PointOffBoard {
                property: "B".to_string(),
                value: "rs".to_string(),
                size: 9
            }
        );
        assert_eq!(error.offset, text.find("[rs]").unwrap());
        assert!(matches!(
            error_kind("(;SZ[9];W[ja])"),
            SgfErrorKind::PointOffBoard { .. }
        ));
        assert!(matches!(
            error_kind("(;SZ[9];W[aj])"),
            SgfErrorKind::PointOffBoard { .. }
        ));
        assert!(matches!(
            error_kind("(;SZ[20];W[uu])"),
            SgfErrorKind::PointOffBoard { .. }
        ));
        assert!(matches!(
            error_kind("(;B[Aa])"),
            SgfErrorKind::PointOffBoard { .. }
        ));
    }

    #[test]
    fn rejects_values_that_are_not_points() {
        for bad in ["a", "abc", "a1", "R16", "pass", "é"] {
            assert_eq!(
                error_kind(&format!("(;B[{bad}])")),
                SgfErrorKind::InvalidPoint {
                    property: "B".to_string(),
                    value: bad.to_string()
                },
                "{bad}"
            );
        }
        assert!(matches!(
            error_kind("(;AW[aa:b])"),
            SgfErrorKind::InvalidPoint { .. }
        ));
        assert!(matches!(
            error_kind("(;AW[aa:bb:cc])"),
            SgfErrorKind::InvalidPoint { .. }
        ));
    }

    #[test]
    fn reads_setup_and_expands_compressed_lists() {
        let game = parsed("(;SZ[9]AB[aa:cb]AW[ii][hh]AE[ee]AE[dd:dd]PL[b])");
        assert_eq!(
            game.setup.black,
            vec![
                point(0, 0),
                point(1, 0),
                point(2, 0),
                point(0, 1),
                point(1, 1),
                point(2, 1)
            ]
        );
        assert_eq!(game.setup.white, vec![point(8, 8), point(7, 7)]);
        assert_eq!(game.setup.empty, vec![point(4, 4), point(3, 3)]);
        assert_eq!(game.setup.player_to_move, Some(Color::Black));
        // Any two opposite corners give the same rectangle.
        assert_eq!(parsed("(;AB[cb:aa])").setup.black, game.setup.black);
        assert_eq!(parsed("(;AB[ab:ca])").setup.black, game.setup.black);
        // An empty value adds nothing.
        assert_eq!(parsed("(;AB[])").setup, SgfSetup::default());
        assert!(matches!(
            error_kind("(;SZ[9]AB[aa:jj])"),
            SgfErrorKind::PointOffBoard { .. }
        ));
        // tt is a pass only as a move.
        assert!(matches!(
            error_kind("(;AB[tt])"),
            SgfErrorKind::PointOffBoard { .. }
        ));
        assert_eq!(parsed("(;PL[1])").setup.player_to_move, Some(Color::Black));
        assert_eq!(parsed("(;PL[2])").setup.player_to_move, Some(Color::White));
        assert_eq!(
            parsed("(;PL[ w ])").setup.player_to_move,
            Some(Color::White)
        );
        assert_eq!(
            error_kind("(;PL[X])"),
            SgfErrorKind::InvalidColor {
                value: "X".to_string()
            }
        );
    }

    #[test]
    fn keeps_setup_of_later_nodes_as_events() {
        let game = parsed("(;SZ[9];B[aa];AB[bb:bc]AE[aa];PL[W];W[cc]AW[dd])");
        assert_eq!(
            game.main_line,
            vec![
                SgfEvent::Move(Color::Black, SgfMove::Place(point(0, 0))),
                SgfEvent::Setup(SgfSetup {
                    black: vec![point(1, 1), point(1, 2)],
                    empty: vec![point(0, 0)],
                    ..SgfSetup::default()
                }),
                SgfEvent::Setup(SgfSetup {
                    player_to_move: Some(Color::White),
                    ..SgfSetup::default()
                }),
                SgfEvent::Setup(SgfSetup {
                    white: vec![point(3, 3)],
                    ..SgfSetup::default()
                }),
                SgfEvent::Move(Color::White, SgfMove::Place(point(2, 2))),
            ]
        );
        assert!(game.has_setup_after_root());
        assert_eq!(game.moves().count(), 2);
        assert!(!parsed("(;AB[aa];B[bb])").has_setup_after_root());
    }

    #[test]
    fn reads_two_moves_in_one_node_in_file_order_but_no_list_of_moves() {
        // Old files end with B[tt]W[tt] in one node; FF[4] forbids it, the meaning is clear.
        assert_eq!(
            parsed("(;SZ[9];B[tt]W[aa]AB[bb])").main_line,
            vec![
                SgfEvent::Setup(SgfSetup {
                    black: vec![point(1, 1)],
                    ..SgfSetup::default()
                }),
                SgfEvent::Move(Color::Black, SgfMove::Pass),
                SgfEvent::Move(Color::White, SgfMove::Place(point(0, 0))),
            ]
        );
        assert_eq!(
            error_kind("(;B[aa][bb])"),
            SgfErrorKind::ExpectedOneValue {
                property: "B".to_string()
            }
        );
        assert!(matches!(
            error_kind("(;KM[1][2])"),
            SgfErrorKind::ExpectedOneValue { .. }
        ));
    }

    #[test]
    fn allows_white_space_between_anything() {
        let game = parsed(" \n( \r\n ; SZ \t [9] \n AB [aa] \n [bb] ; \n B [cc] \n ( ; W [dd] ) ( ; W [ee] ) \n ) \n");
        assert_eq!(game.size, 9);
        assert_eq!(game.setup.black, vec![point(0, 0), point(1, 1)]);
        assert_eq!(
            game.moves().collect::<Vec<_>>(),
            vec![
                (Color::Black, SgfMove::Place(point(2, 2))),
                (Color::White, SgfMove::Place(point(3, 3)))
            ]
        );
    }

    #[test]
    fn reads_long_property_names_by_their_capitals() {
        let game = parsed(
            "(;GaMe[1]SiZe[9]KoMi[5.5]PlayerBlack[Robin]HAndicap[0]AddBlack[aa]PLayer[W]\n\
             ;White[bb];Black[cc])",
        );
        assert_eq!(game.size, 9);
        assert_eq!(game.komi, Some(5.5));
        assert_eq!(game.player_black.as_deref(), Some("Robin"));
        assert_eq!(game.handicap, Some(0));
        assert_eq!(game.setup.black, vec![point(0, 0)]);
        assert_eq!(game.setup.player_to_move, Some(Color::White));
        assert_eq!(game.moves().count(), 2);
        assert!(matches!(
            error_kind("(;GaMe[2])"),
            SgfErrorKind::NotGo { .. }
        ));
    }

    #[test]
    fn ignores_unknown_properties() {
        let game = parsed("(;XX[whatever]TR[aa:bb]FOO[][x\\]y]lower[case]AP[a][b];B[aa]LB[aa:A])");
        assert_eq!(game.moves().count(), 1);
        assert_eq!(game.setup, SgfSetup::default());
    }

    #[test]
    fn decodes_text_values() {
        let comment = |value: &str| parsed(&format!("(;C[{value}])")).comment;
        assert_eq!(comment("a \\] b \\\\ c"), Some("a ] b \\ c".to_string()));
        assert_eq!(comment("\\a\\b"), Some("ab".to_string()));
        // Soft line breaks disappear, hard ones stay.
        assert_eq!(comment("one\\\ntwo"), Some("onetwo".to_string()));
        assert_eq!(comment("one\\\r\ntwo"), Some("onetwo".to_string()));
        assert_eq!(comment("one\ntwo"), Some("one\ntwo".to_string()));
        assert_eq!(comment("one\r\ntwo"), Some("one\r\ntwo".to_string()));
        // Other white space becomes a space.
        assert_eq!(comment("tab\there"), Some("tab here".to_string()));
        assert_eq!(comment(""), None);
        assert_eq!(comment("  keep  "), Some("  keep  ".to_string()));
        // SimpleText: line breaks become spaces; ishi trims it.
        let name = |value: &str| parsed(&format!("(;PB[{value}])")).player_black;
        assert_eq!(name("Ann\nLee"), Some("Ann Lee".to_string()));
        assert_eq!(name("Ann\r\nLee"), Some("Ann Lee".to_string()));
        assert_eq!(name("Ann\\\nLee"), Some("AnnLee".to_string()));
        assert_eq!(name("  Ann  "), Some("Ann".to_string()));
        assert_eq!(name("碁 \\] x"), Some("碁 ] x".to_string()));
        assert_eq!(name(" "), None);
        // Only the root's comment is kept.
        assert_eq!(parsed("(;B[aa]C[move])").comment, Some("move".to_string()));
        assert_eq!(
            parsed("(;C[root];B[aa]C[move])").comment,
            Some("root".to_string())
        );
        assert_eq!(parsed("(;;B[aa]C[move])").comment, None);
    }

    #[test]
    fn game_information_below_the_root_counts_when_the_root_has_none() {
        let game = parsed("(;SZ[9]PB[root];B[aa]PB[later]PW[White]KM[5.5]RE[B+R])");
        assert_eq!(game.player_black.as_deref(), Some("root"));
        assert_eq!(game.player_white.as_deref(), Some("White"));
        assert_eq!(game.komi, Some(5.5));
        assert_eq!(game.result.as_deref(), Some("B+R"));
    }

    #[test]
    fn a_node_after_a_variation_starts_another_variation() {
        // Not FF[4], but GoGui reads it so: W[cc] is a second variation after B[aa].
        let game = parsed("(;B[aa](;W[bb];B[dd]);W[cc](;B[ee]);B[ff])");
        assert_eq!(
            game.moves().collect::<Vec<_>>(),
            vec![
                (Color::Black, SgfMove::Place(point(0, 0))),
                (Color::White, SgfMove::Place(point(1, 1))),
                (Color::Black, SgfMove::Place(point(3, 3))),
            ]
        );
        // Its closing parenthesis is its parent's.
        assert_eq!(parsed("(;B[aa](;W[bb]);W[cc])(;B[ee])").moves().count(), 2);
        assert!(matches!(
            error_kind("(;B[aa](;W[bb]);W[cc]"),
            SgfErrorKind::UnexpectedEnd { .. }
        ));
        assert!(matches!(
            error_kind("(;B[aa](;W[bb]);W[cc]))"),
            SgfErrorKind::UnexpectedCharacter { found: ')', .. }
        ));
    }

    #[test]
    fn follows_the_first_variation() {
        let game = parsed("(;SZ[9](;B[aa](;W[bb];B[cc])(;W[dd]))(;B[ee]SZ[99]))");
        assert_eq!(
            game.moves().collect::<Vec<_>>(),
            vec![
                (Color::Black, SgfMove::Place(point(0, 0))),
                (Color::White, SgfMove::Place(point(1, 1))),
                (Color::Black, SgfMove::Place(point(2, 2))),
            ]
        );
        // Other variations are checked for syntax only.
        assert_eq!(parsed("(;SZ[9](;B[aa])(;B[zz]))").moves().count(), 1);
        assert!(matches!(
            error_kind("(;SZ[9](;B[aa])(;B[zz))"),
            SgfErrorKind::UnexpectedEnd { .. }
        ));
    }

    #[test]
    fn reads_the_first_game_of_a_collection() {
        let game = parsed("(;SZ[9];B[aa])\n(;SZ[13];B[bb])\n");
        assert_eq!(game.size, 9);
        assert!(matches!(
            error_kind("(;SZ[9];B[aa])(;SZ[13];B[bb]"),
            SgfErrorKind::UnexpectedEnd { .. }
        ));
        assert!(matches!(
            error_kind("(;SZ[9];B[aa])(;SZ[13];B[bb]))"),
            SgfErrorKind::UnexpectedCharacter { found: ')', .. }
        ));
    }

    #[test]
    fn skips_text_before_the_first_game_tree() {
        assert_eq!(parsed("\u{feff}(;SZ[9])").size, 9);
        assert_eq!(parsed("Subject: a game (see below)\n(;SZ[9])").size, 9);
        assert_eq!(parsed("( \n ;SZ[9])").size, 9);
    }

    #[test]
    fn ignores_text_after_the_last_game_tree_but_not_a_parenthesis() {
        assert_eq!(parsed("(;SZ[9]) trailing").size, 9);
        assert_eq!(parsed("(;SZ[9])\n---\n(;SZ[13]\n").size, 9);
        assert_eq!(parsed("(;SZ[9])(;SZ[13]) (not a tree").size, 9);
        assert_eq!(
            parse("(;SZ[9])\n)"),
            Err(SgfError {
                offset: 9,
                kind: SgfErrorKind::UnexpectedCharacter {
                    found: ')',
                    expected: "'(' or the end of the text"
                }
            })
        );
    }

    #[test]
    fn rejects_empty_collections() {
        for text in ["", "   \n", "hello", "()", "(", ")", "[;]", "; B[aa]"] {
            assert_eq!(
                parse(text),
                Err(SgfError {
                    offset: 0,
                    kind: SgfErrorKind::EmptyCollection
                }),
                "{text:?}"
            );
        }
    }

    #[test]
    fn rejects_unbalanced_text() {
        let check = |text: &str, offset: usize, kind: SgfErrorKind| {
            assert_eq!(parse(text), Err(SgfError { offset, kind }), "{text:?}");
        };
        check(
            "(;B[aa]",
            7,
            SgfErrorKind::UnexpectedEnd {
                expected: "')' closing a game tree",
            },
        );
        check(
            "(;B[aa",
            3,
            SgfErrorKind::UnexpectedEnd {
                expected: "']' closing the value opened here",
            },
        );
        check(
            "(;C[ends with escape\\])",
            3,
            SgfErrorKind::UnexpectedEnd {
                expected: "']' closing the value opened here",
            },
        );
        check(
            "(;B[aa]))",
            8,
            SgfErrorKind::UnexpectedCharacter {
                found: ')',
                expected: "'(' or the end of the text",
            },
        );
        check(
            "(;B[aa](;W[bb])",
            15,
            SgfErrorKind::UnexpectedEnd {
                expected: "')' closing a game tree",
            },
        );
        check(
            "(;B[aa]())",
            8,
            SgfErrorKind::UnexpectedCharacter {
                found: ')',
                expected: "';' starting a game tree",
            },
        );
        check(
            "(;B[aa]((;W[bb])))",
            8,
            SgfErrorKind::UnexpectedCharacter {
                found: '(',
                expected: "';' starting a game tree",
            },
        );
        check(
            "(;B)",
            3,
            SgfErrorKind::UnexpectedCharacter {
                found: ')',
                expected: "'[' after a property identifier",
            },
        );
        check(
            "(;B[aa]1)",
            7,
            SgfErrorKind::UnexpectedCharacter {
                found: '1',
                expected: "';', '(', ')' or a property identifier",
            },
        );
        check(
            "(;B[aa]é)",
            7,
            SgfErrorKind::UnexpectedCharacter {
                found: 'é',
                expected: "';', '(', ')' or a property identifier",
            },
        );
        check(
            "(;B[aa]]",
            7,
            SgfErrorKind::UnexpectedCharacter {
                found: ']',
                expected: "';', '(', ')' or a property identifier",
            },
        );
    }

    #[test]
    fn error_messages_say_where_and_what() {
        let message = parse("(;SZ[9];B[jj])").unwrap_err().to_string();
        assert_eq!(message, "SGF: B[jj] is off the 9x9 board at byte 9");
        let message = parse("(;B[aa]").unwrap_err().to_string();
        assert_eq!(
            message,
            "SGF: unexpected end of text, expected ')' closing a game tree at byte 7"
        );
    }

    #[test]
    fn deep_nesting_does_not_overflow_the_stack() {
        let depth = 200_000;
        let text = format!("{}{}", "(;".repeat(depth), ")".repeat(depth));
        assert_eq!(parse(&text), Ok(SgfGame::default()));
        let text = format!("{}B[aa]{}", "(;".repeat(depth), ")".repeat(depth - 1));
        assert!(matches!(
            error_kind(&text),
            SgfErrorKind::UnexpectedEnd { .. }
        ));
    }

    #[test]
    fn writes_the_documented_layout() {
        let mut game = SgfGame::new(9);
        game.komi = Some(6.5);
        game.rules = Some("Chinese".to_string());
        game.handicap = Some(2);
        game.result = Some("B+R".to_string());
        game.player_black = Some("Ann".to_string());
        game.player_white = Some("Bo]b\\".to_string());
        game.setup.black = vec![point(2, 2), point(6, 6)];
        game.setup.player_to_move = Some(Color::White);
        game.comment = Some("Hello".to_string());
        game.main_line = vec![
            SgfEvent::Move(Color::White, SgfMove::Place(point(4, 4))),
            SgfEvent::Setup(SgfSetup {
                empty: vec![point(2, 2)],
                ..SgfSetup::default()
            }),
            SgfEvent::Setup(SgfSetup::default()),
            SgfEvent::Move(Color::Black, SgfMove::Pass),
        ];
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            write(&game),
            format!(
                "(;FF[4]GM[1]CA[UTF-8]AP[ishi:{version}]SZ[9]KM[6.5]RU[Chinese]HA[2]RE[B+R]\
                 PB[Ann]PW[Bo\\]b\\\\]AB[cc][gg]PL[W]C[Hello]\n;W[ee];AE[cc];B[]\n)\n"
            )
        );
        game.main_line.remove(2);
        assert_eq!(parse(&write(&game)), Ok(game));
        assert_eq!(
            write(&SgfGame::default()),
            format!("(;FF[4]GM[1]CA[UTF-8]AP[ishi:{version}]SZ[19]\n)\n")
        );
    }

    #[test]
    fn writes_komi_so_that_it_reads_back() {
        for komi in [0.0, -0.0, 6.5, -3.0, 7.25, 0.1, 1e300, -1e-300, 123_456.5] {
            let game = SgfGame {
                komi: Some(komi),
                ..SgfGame::default()
            };
            assert_eq!(parse(&write(&game)).unwrap().komi, Some(komi), "{komi}");
        }
        let game = SgfGame {
            komi: Some(f64::NAN),
            ..SgfGame::default()
        };
        assert_eq!(parse(&write(&game)).unwrap().komi, None);
    }

    /// A small deterministic generator (SplitMix64) so that the tests need no crate.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
            let mut mixed = self.0;
            mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
            mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
            mixed ^ (mixed >> 31)
        }

        fn below(&mut self, bound: u64) -> u64 {
            self.next() % bound
        }

        fn chance(&mut self, numerator: u64, denominator: u64) -> bool {
            self.below(denominator) < numerator
        }

        fn small(&mut self, bound: u64) -> u8 {
            u8::try_from(self.below(bound)).unwrap()
        }
    }

    fn random_point(random: &mut Random, size: u8) -> SgfPoint {
        point(random.small(u64::from(size)), random.small(u64::from(size)))
    }

    fn random_points(random: &mut Random, size: u8) -> Vec<SgfPoint> {
        let count = if random.chance(1, 2) {
            0
        } else {
            random.below(6)
        };
        (0..count).map(|_| random_point(random, size)).collect()
    }

    fn random_color(random: &mut Random) -> Color {
        if random.chance(1, 2) {
            Color::Black
        } else {
            Color::White
        }
    }

    fn random_setup(random: &mut Random, size: u8) -> SgfSetup {
        SgfSetup {
            black: random_points(random, size),
            white: random_points(random, size),
            empty: random_points(random, size),
            player_to_move: random.chance(1, 3).then(|| random_color(random)),
        }
    }

    /// Text as parse produces it: no tabs; line breaks only in a comment; names trimmed.
    fn random_text(random: &mut Random, comment: bool) -> Option<String> {
        const PIECES: [&str; 16] = [
            "a", "Z", " ", "]", "\\", "[", ":", ";", "(", ")", "é", "碁", "+", "7.5", "\\]", "x\\",
        ];
        if random.chance(1, 3) {
            return None;
        }
        let mut text = String::new();
        for _ in 0..=random.below(12) {
            if comment && random.chance(1, 8) {
                text.push_str(["\n", "\r\n", "\n\n"][random.below(3) as usize]);
            } else {
                text.push_str(PIECES[random.below(PIECES.len() as u64) as usize]);
            }
        }
        let text = if comment {
            text
        } else {
            text.trim().to_string()
        };
        (!text.is_empty()).then_some(text)
    }

    fn random_game(random: &mut Random) -> SgfGame {
        let size = 1 + random.small(u64::from(LARGEST_SIZE));
        let mut game = SgfGame::new(size);
        game.komi = match random.below(4) {
            0 => None,
            1 => Some(f64::from(i32::try_from(random.below(161)).unwrap() - 80) / 2.0),
            2 => Some(f64::from_bits(random.next())).filter(|komi| komi.is_finite()),
            _ => Some(f64::from(u32::try_from(random.below(1000)).unwrap()) / 7.0),
        };
        game.rules = random_text(random, false);
        game.handicap = random
            .chance(1, 3)
            .then(|| u32::try_from(random.below(1 << 32)).unwrap());
        game.result = random_text(random, false);
        game.player_black = random_text(random, false);
        game.player_white = random_text(random, false);
        game.setup = random_setup(random, size);
        game.comment = random_text(random, true);
        for _ in 0..random.below(60) {
            if random.chance(1, 8) {
                let setup = random_setup(random, size);
                if !setup.is_empty() {
                    game.main_line.push(SgfEvent::Setup(setup));
                }
            } else {
                let sgf_move = if random.chance(1, 10) {
                    SgfMove::Pass
                } else {
                    SgfMove::Place(random_point(random, size))
                };
                game.main_line
                    .push(SgfEvent::Move(random_color(random), sgf_move));
            }
        }
        game
    }

    #[test]
    fn random_games_survive_a_write_and_parse_round_trip() {
        let mut random = Random(20_240_601);
        for _ in 0..3000 {
            let game = random_game(&mut random);
            let text = write(&game);
            match parse(&text) {
                Ok(read) => assert_eq!(read, game, "{text}"),
                Err(error) => panic!("{error} in\n{text}"),
            }
        }
    }

    #[test]
    fn token_soup_never_panics_and_what_parses_round_trips() {
        const TOKENS: [&str; 24] = [
            "(", "(;", ")", ";", "[", "]", "\\", "\n", " ", "B", "W", "AB", "AE", "PL", "SZ", "KM",
            "C", "aa", "tt", ":", "9", "é", "[]", "x",
        ];
        let mut random = Random(99);
        for _ in 0..20_000 {
            let mut text = String::from("(;");
            for _ in 0..random.below(40) {
                text.push_str(TOKENS[random.below(TOKENS.len() as u64) as usize]);
            }
            if let Ok(game) = parse(&text) {
                assert_eq!(parse(&write(&game)), Ok(game), "{text:?}");
            }
        }
    }

    #[test]
    fn mangled_texts_never_panic_and_what_parses_round_trips() {
        const INSERTS: [&str; 14] = [
            "(",
            ")",
            ";",
            "[",
            "]",
            "\\",
            ":",
            "B[tt]",
            "AB[aa:ee]",
            "SZ[5]",
            " ",
            "é",
            "W[]",
            "(;",
        ];
        let mut random = Random(7);
        let mut parsed_count = 0;
        for _ in 0..3000 {
            let mut text = write(&random_game(&mut random));
            for _ in 0..=random.below(4) {
                let mut position = random.below(text.len() as u64 + 1) as usize;
                while !text.is_char_boundary(position) {
                    position -= 1;
                }
                if random.chance(1, 2) {
                    let mut end = position + 1 + random.below(4) as usize;
                    end = end.min(text.len());
                    while !text.is_char_boundary(end) {
                        end += 1;
                    }
                    text.replace_range(position..end, "");
                } else {
                    text.insert_str(position, INSERTS[random.below(14) as usize]);
                }
            }
            if let Ok(game) = parse(&text) {
                parsed_count += 1;
                assert_eq!(parse(&write(&game)), Ok(game), "{text}");
            }
        }
        assert!(parsed_count > 0);
    }
}
