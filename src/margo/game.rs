//! A Margo game: a position plus turn order, swap, situational superko and undo.
//!
//! Knows who is to move (either colour may make the first move, then colours alternate), the
//! swap of the second move (the first ball changes colour, the first player's colour moves
//! next), the hashes of every earlier position for superko (with and without the side to
//! move), the moves played with a snapshot before each for undo, and the end (the side to move
//! has no legal move) and score. Knows nothing of the search or of GTP.

use crate::color::Color;
use crate::margo::notation::{self, ParseMoveError};
use crate::margo::position::{side_key, Position};
use crate::margo::{IllegalMove, Move, Point, UnsupportedSize, DEFAULT_SIZE};

/// One move of the game record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayedMove {
    /// The colour that made the move.
    pub color: Color,
    /// The move.
    pub mv: Move,
}

/// What a played move did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayReport {
    /// Balls removed from the board, both colours.
    pub captured: u32,
    /// Balls removed per colour (black first).
    pub captured_by_color: [u32; 2],
    /// Balls that are zombies (unburied, in a freedomless group) after the move and were not
    /// before it.
    pub zombies_made: u32,
    /// Whether a ball was removed after the first (enemy) capture round.
    pub revealed_capture: bool,
}

#[derive(Clone, Copy, Debug)]
struct Snapshot {
    position: Position,
    to_move: Option<Color>,
}

/// A game of Margo from some start position (normally the empty board).
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    to_move: Option<Color>,
    swap_enabled: bool,
    history: Vec<PlayedMove>,
    snapshots: Vec<Snapshot>,
    /// Hash of every position so far with its side to move, the current one last.
    hashes: Vec<u64>,
    /// The same positions without the side-to-move term.
    board_hashes: Vec<u64>,
}

impl Default for Game {
    fn default() -> Game {
        Game::from_position(
            Position::new(DEFAULT_SIZE).unwrap_or_else(|_| unreachable!("6 is supported")),
            None,
        )
    }
}

impl Game {
    /// A new game on the empty board of a size, swap enabled, either colour to make the first
    /// move.
    ///
    /// # Errors
    /// [`UnsupportedSize`] outside 4..=9.
    pub fn new(size: usize) -> Result<Game, UnsupportedSize> {
        Ok(Game::from_position(Position::new(size)?, None))
    }

    /// A game that starts from a given position with a given side to move (`None`: either
    /// colour may move first). Used for set-up positions; swap then needs a first move made in
    /// this game.
    pub fn from_position(position: Position, to_move: Option<Color>) -> Game {
        Game {
            position,
            to_move,
            swap_enabled: true,
            history: Vec::new(),
            snapshots: Vec::new(),
            hashes: vec![position.hash() ^ side_key(to_move)],
            board_hashes: vec![position.hash()],
        }
    }

    /// Holes along one side.
    pub fn size(&self) -> usize {
        self.position.size()
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The side to move; `None` only before the first move of a fresh game.
    pub fn to_move(&self) -> Option<Color> {
        self.to_move
    }

    /// The side to move, or `first` when either colour may move (before the first move).
    pub fn mover_or(&self, first: Color) -> Color {
        self.to_move.unwrap_or(first)
    }

    /// The number of the next move (1 before the first move).
    pub fn move_number(&self) -> usize {
        self.history.len() + 1
    }

    /// The moves played, in order, with their colours.
    pub fn history(&self) -> &[PlayedMove] {
        &self.history
    }

    /// Whether swap is offered as the second move.
    pub fn swap_enabled(&self) -> bool {
        self.swap_enabled
    }

    /// Offers swap as the second move or not (on by default).
    pub fn set_swap_enabled(&mut self, enabled: bool) {
        self.swap_enabled = enabled;
    }

    /// The hash of the current position with its side to move (what superko compares).
    pub fn hash(&self) -> u64 {
        self.position.hash() ^ side_key(self.to_move)
    }

    /// Balls in play per colour, black first (zombies and buried balls included).
    pub fn ball_counts(&self) -> [u32; 2] {
        self.position.ball_counts()
    }

    /// White's balls minus black's balls: positive when White leads, 0 a draw.
    pub fn score(&self) -> i32 {
        let [black, white] = self.position.ball_counts();
        white as i32 - black as i32
    }

    /// Parses a move in the designer's notation against the current position
    /// (see [`notation::parse_move`]).
    ///
    /// # Errors
    /// [`ParseMoveError`] for text that names no column of this board.
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        notation::parse_move(&self.position, text)
    }

    /// The canonical spelling of a move on this board.
    pub fn format_move(&self, mv: Move) -> String {
        notation::format_move(self.position.geometry(), mv)
    }

    fn swap_is_offered(&self) -> bool {
        self.swap_enabled && self.history.len() == 1 && matches!(self.history[0].mv, Move::Place(_))
    }

    /// The position and report a move would give, with all the move-specific rules.
    fn simulate(&self, color: Color, mv: Move) -> Result<(Position, PlayReport), IllegalMove> {
        let mut next = self.position;
        let mut report = PlayReport::default();
        match mv {
            Move::Swap => {
                if !self.swap_is_offered() || !next.swap_single_ball() {
                    return Err(IllegalMove::SwapNotAllowed);
                }
            }
            Move::Place(point) => {
                self.position.check_placement(color, point)?;
                let captures = next.play_unchecked(color, point);
                report.captured = captures.total();
                report.captured_by_color = captures.removed;
                report.revealed_capture = captures.revealed;
            }
        }
        let hash = next.hash() ^ side_key(Some(color.opponent()));
        if self.hashes.contains(&hash) {
            return Err(IllegalMove::Superko);
        }
        Ok((next, report))
    }

    fn rule_check(&self, color: Color, mv: Move) -> Result<(Position, PlayReport), IllegalMove> {
        if let Some(side) = self.to_move {
            if side != color {
                return Err(if self.is_over() {
                    IllegalMove::GameOver
                } else {
                    IllegalMove::WrongTurn
                });
            }
        }
        self.simulate(color, mv).map_err(|error| {
            if self.is_over() {
                IllegalMove::GameOver
            } else {
                error
            }
        })
    }

    /// Whether `color` may play `mv` now.
    ///
    /// # Errors
    /// Why not: [`IllegalMove::WrongTurn`], the placement rules, [`IllegalMove::Superko`],
    /// [`IllegalMove::SwapNotAllowed`]; [`IllegalMove::GameOver`] replaces any of them when the
    /// side to move has no legal move at all.
    pub fn check(&self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        self.rule_check(color, mv).map(|_| ())
    }

    /// Whether `color` may play `mv` now, as a yes/no.
    pub fn is_legal(&self, color: Color, mv: Move) -> bool {
        self.check(color, mv).is_ok()
    }

    /// Plays a move.
    ///
    /// # Errors
    /// As [`Game::check`]; the game is unchanged then.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<PlayReport, IllegalMove> {
        let (next, mut report) = self.rule_check(color, mv)?;
        report.zombies_made = zombies_made(&self.position, &next);
        self.snapshots.push(Snapshot {
            position: self.position,
            to_move: self.to_move,
        });
        self.history.push(PlayedMove { color, mv });
        self.position = next;
        self.to_move = Some(color.opponent());
        self.hashes.push(self.hash());
        self.board_hashes.push(self.position.hash());
        Ok(report)
    }

    /// Takes back the last move. Returns false at the start of the game.
    pub fn undo(&mut self) -> bool {
        let Some(snapshot) = self.snapshots.pop() else {
            return false;
        };
        self.history.pop();
        self.hashes.pop();
        self.board_hashes.pop();
        self.position = snapshot.position;
        self.to_move = snapshot.to_move;
        true
    }

    /// Appends every legal move of `color` now, sorted by move index (placements in point
    /// order, swap last). Empty when it is not `color`'s turn.
    pub fn legal_moves(&self, color: Color, moves: &mut Vec<Move>) {
        moves.clear();
        if self.to_move.is_some_and(|side| side != color) {
            return;
        }
        for index in 0..self.position.geometry().point_count() {
            let mv = Move::Place(Point(index as u16));
            if self.simulate(color, mv).is_ok() {
                moves.push(mv);
            }
        }
        if self.simulate(color, Move::Swap).is_ok() {
            moves.push(Move::Swap);
        }
    }

    /// Whether the side to move has no legal move (never before the first move).
    pub fn is_over(&self) -> bool {
        let Some(color) = self.to_move else {
            return false;
        };
        let any_placement = (0..self.position.geometry().point_count()).any(|index| {
            self.simulate(color, Move::Place(Point(index as u16)))
                .is_ok()
        });
        !any_placement && self.simulate(color, Move::Swap).is_err()
    }

    /// The winner once the game is over: `Some(color)` with more balls, `None` for a draw or
    /// while the game goes on.
    pub fn winner(&self) -> Option<Color> {
        if !self.is_over() {
            return None;
        }
        match self.score() {
            score if score > 0 => Some(Color::White),
            score if score < 0 => Some(Color::Black),
            _ => None,
        }
    }

    /// Whether `mv` by `color`, legal or not by superko, would make a board that occurred
    /// earlier in the game with either side to move (Jocly forbids that). False for a move the
    /// placement rules refuse.
    pub fn repeats_position_either_side(&self, color: Color, mv: Move) -> bool {
        let mut next = self.position;
        match mv {
            Move::Swap => {
                if !next.swap_single_ball() {
                    return false;
                }
            }
            Move::Place(point) => {
                if self.position.check_placement(color, point).is_err() {
                    return false;
                }
                next.play_unchecked(color, point);
            }
        }
        self.board_hashes.contains(&next.hash())
    }

    /// Recomputes everything kept incrementally and compares: the position's counts and hash,
    /// the hash histories, the turn order of the record, and (after a move) that no removable
    /// ball of a freedomless group was left.
    ///
    /// # Errors
    /// A text describing the first disagreement.
    pub fn check_consistency(&self) -> Result<(), String> {
        self.position.check_consistency()?;
        if self.history.len() != self.snapshots.len()
            || self.hashes.len() != self.history.len() + 1
            || self.board_hashes.len() != self.hashes.len()
        {
            return Err(format!(
                "history {} moves, {} snapshots, {} hashes, {} board hashes",
                self.history.len(),
                self.snapshots.len(),
                self.hashes.len(),
                self.board_hashes.len()
            ));
        }
        if self.hashes.last() != Some(&self.hash()) {
            return Err("last superko hash is not the current position".to_string());
        }
        if self.board_hashes.last() != Some(&self.position.hash()) {
            return Err("last board hash is not the current position".to_string());
        }
        for (index, snapshot) in self.snapshots.iter().enumerate() {
            if self.hashes[index] != snapshot.position.hash() ^ side_key(snapshot.to_move) {
                return Err(format!("superko hash {index} does not match its snapshot"));
            }
            let played = self.history[index];
            if snapshot.to_move.is_some_and(|side| side != played.color) {
                return Err(format!("move {} played out of turn", index + 1));
            }
            if index > 0 && self.history[index - 1].color == played.color {
                return Err(format!("move {} repeats the colour", index + 1));
            }
            if played.mv == Move::Swap && index != 1 {
                return Err(format!("swap as move {}", index + 1));
            }
        }
        if let Some(last) = self.history.last() {
            if self.to_move != Some(last.color.opponent()) {
                return Err("side to move does not follow the last move".to_string());
            }
            self.position.check_at_rest()?;
        }
        Ok(())
    }
}

fn zombies_made(before: &Position, after: &Position) -> u32 {
    let old = before.zombies();
    let new = after.zombies();
    old.iter()
        .zip(new.iter())
        .filter(|(was, is)| **is && !**was)
        .count() as u32
}
