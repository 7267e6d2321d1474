//! An Abalone game: a [`Board`] plus the moves played since its first position, so moves can
//! be taken back to the start. Knows the rules only through `Board`; knows no search and no
//! protocol.

use super::board::{Board, Start};
use super::moves::{IllegalMove, Move};
use super::notation::{self, ParseMoveError};
use crate::color::Color;

/// A game from a start position, with undo back to it.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    /// Each move played with the board it was played on (snapshots make undo exact).
    history: Vec<(Move, Board)>,
}

impl Game {
    /// A new game from `start`, Black to move, with the default ply cap (400).
    pub fn new(start: Start) -> Game {
        Game::from_board(Board::new(start))
    }

    /// A new game from `start` with the given ply cap (counted from the start).
    pub fn with_max_plies(start: Start, max_plies: u16) -> Game {
        let mut board = Board::new(start);
        board.set_max_plies(max_plies);
        Game::from_board(board)
    }

    /// A game whose first position is `board` (for set-up positions); undo stops there.
    pub fn from_board(board: Board) -> Game {
        Game {
            board,
            history: Vec::new(),
        }
    }

    /// The current position.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The hashes of the positions before each move played, oldest first (the current
    /// position is not among them).
    pub fn earlier_hashes(&self) -> impl Iterator<Item = u64> + '_ {
        self.history.iter().map(|(_, board)| board.hash())
    }

    /// The moves played since the first position, oldest first.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().map(|(mv, _)| *mv)
    }

    /// Sets the ply cap, for the current position and every earlier one.
    pub fn set_max_plies(&mut self, max_plies: u16) {
        self.board.set_max_plies(max_plies);
        for (_, board) in &mut self.history {
            board.set_max_plies(max_plies);
        }
    }

    /// The ply cap.
    pub fn max_plies(&self) -> u16 {
        self.board.max_plies()
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.board.to_move()
    }

    /// Fills `moves` with every legal move of the side to move (none once the game is over).
    pub fn legal_moves(&self, moves: &mut Vec<Move>) {
        self.board.legal_moves(moves);
    }

    /// Whether `color` may play `mv` now.
    ///
    /// # Errors
    /// As [`Board::check`].
    pub fn check(&self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        self.board.check(color, mv)
    }

    /// Plays `mv` for `color` after checking it.
    ///
    /// # Errors
    /// As [`Board::check`]; the game is unchanged then.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), IllegalMove> {
        self.board.check(color, mv)?;
        self.play_unchecked(mv);
        Ok(())
    }

    /// Plays `mv` for the side to move without checking it (precondition: it is legal).
    pub fn play_unchecked(&mut self, mv: Move) {
        self.history.push((mv, self.board));
        self.board.play_unchecked(mv);
    }

    /// Reads `text` (AbaPro notation) as a move of `color` and plays it.
    ///
    /// # Errors
    /// As [`notation::parse_move`]; the game is unchanged then.
    pub fn play_text(&mut self, color: Color, text: &str) -> Result<Move, ParseMoveError> {
        let mv = notation::parse_move(&self.board, color, text)?;
        self.play_unchecked(mv);
        Ok(mv)
    }

    /// Reads `text` (AbaPro notation) as a legal move of `color` in the current position.
    ///
    /// # Errors
    /// As [`notation::parse_move`].
    pub fn parse_move(&self, color: Color, text: &str) -> Result<Move, ParseMoveError> {
        notation::parse_move(&self.board, color, text)
    }

    /// Takes back the last move; false (and nothing changes) at the first position.
    pub fn undo(&mut self) -> bool {
        match self.history.pop() {
            Some((_, board)) => {
                self.board = board;
                true
            }
            None => false,
        }
    }

    /// The number of opposing marbles `color` has pushed off the board.
    pub fn ejected(&self, color: Color) -> u8 {
        self.board.ejected(color)
    }

    /// Moves played since the start position (the ply the cap counts).
    pub fn ply(&self) -> u16 {
        self.board.ply()
    }

    /// True when the game has ended: six ejections, the ply cap, or no legal move.
    pub fn is_over(&self) -> bool {
        self.board.is_over()
    }

    /// As [`Board::winner`]: `None` while the game goes on, `Some(Some(colour))` for a win,
    /// `Some(None)` for a draw.
    pub fn winner(&self) -> Option<Option<Color>> {
        self.board.winner()
    }

    /// Ejection difference, Black's minus White's (`final_score` `B+n` / `W+n` / `0`).
    pub fn score(&self) -> i32 {
        self.board.score()
    }

    /// The Zobrist hash of the current position.
    pub fn hash(&self) -> u64 {
        self.board.hash()
    }

    /// Checks the current position's incremental state and that every stored position
    /// replays from the first one.
    ///
    /// # Errors
    /// A description of the first inconsistency.
    pub fn check_consistency(&self) -> Result<(), String> {
        self.board.check_consistency()?;
        let mut replay = match self.history.first() {
            Some((_, first)) => *first,
            None => return Ok(()),
        };
        for (ply, (mv, board)) in self.history.iter().enumerate() {
            if replay != *board {
                return Err(format!("position before move {} does not replay", ply + 1));
            }
            replay.play_unchecked(*mv);
        }
        if replay != self.board {
            return Err("the current position does not replay".to_string());
        }
        Ok(())
    }

    /// The diagram of [`Board::showboard`].
    pub fn showboard(&self) -> String {
        self.board.showboard()
    }
}
