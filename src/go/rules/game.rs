//! A game: the board plus the rules, komi, side to move, consecutive passes, the whole-board
//! position history that superko needs, and an undo stack back to the first move. Setup
//! stones (handicap, `gogui-setup`, SGF) form the starting position and are not undoable.
//! Knows nothing of search or GTP.

use crate::color::Color;
use crate::go::rules::board::{Board, IllegalMove};
use crate::go::rules::point::{Move, Point};
use crate::go::rules::rules::{KoRule, Rules, WinCondition};
use crate::go::rules::zobrist::WHITE_TO_MOVE_KEY;

/// One played move with what is needed to take it back.
#[derive(Clone, Debug)]
struct Played {
    color: Color,
    chosen: Move,
    board_before: Board,
    to_move_before: Color,
    passes_before: u32,
}

/// A game in progress.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    rules: Rules,
    komi: f64,
    to_move: Color,
    consecutive_passes: u32,
    handicap: u32,
    played: Vec<Played>,
    /// Hash of every position so far, the side to move mixed in: the start, then one per move.
    positions: Vec<u64>,
    /// Board hashes of every position so far (for positional superko).
    board_hashes: Vec<u64>,
}

/// Mixes the side to move into a board hash.
fn situation_hash(board_hash: u64, to_move: Color) -> u64 {
    match to_move {
        Color::Black => board_hash,
        Color::White => board_hash ^ WHITE_TO_MOVE_KEY,
    }
}

impl Game {
    /// A new game on an empty board of `size` with these rules and komi; black to move.
    ///
    /// # Panics
    /// When `size` is outside 2..=25.
    pub fn new(size: usize, rules: Rules, komi: f64) -> Game {
        let board = Board::new(size);
        let hash = board.hash();
        Game {
            board,
            rules,
            komi,
            to_move: Color::Black,
            consecutive_passes: 0,
            handicap: 0,
            played: Vec::new(),
            positions: vec![situation_hash(hash, Color::Black)],
            board_hashes: vec![hash],
        }
    }

    /// Whether a game can be played on a board of this size (2 to 25).
    pub fn size_is_valid(size: usize) -> bool {
        Board::size_is_valid(size)
    }

    /// The current board.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The board size.
    #[inline]
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// The rules in force.
    #[inline]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Changes the rules (the position and history stay).
    pub fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
    }

    /// The komi in points.
    #[inline]
    pub fn komi(&self) -> f64 {
        self.komi
    }

    /// Changes the komi.
    pub fn set_komi(&mut self, komi: f64) {
        self.komi = komi;
    }

    /// The colour to move.
    #[inline]
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Sets the colour to move (SGF `PL`, GTP moves out of turn).
    pub fn set_to_move(&mut self, color: Color) {
        self.to_move = color;
        if self.played.is_empty() {
            self.positions[0] = situation_hash(self.board.hash(), color);
        }
    }

    /// Number of passes in a row at the end of the game so far.
    #[inline]
    pub fn consecutive_passes(&self) -> u32 {
        self.consecutive_passes
    }

    /// Whether two passes in a row have ended the game.
    pub fn both_passed(&self) -> bool {
        self.consecutive_passes >= 2
    }

    /// Handicap stones placed at the start.
    pub fn handicap(&self) -> u32 {
        self.handicap
    }

    /// The moves played since the starting position, in order.
    pub fn moves(&self) -> impl DoubleEndedIterator<Item = (Color, Move)> + ExactSizeIterator + '_ {
        self.played.iter().map(|entry| (entry.color, entry.chosen))
    }

    /// Number of moves played since the starting position.
    #[inline]
    pub fn move_count(&self) -> usize {
        self.played.len()
    }

    /// The starting position (after setup and handicap stones).
    pub fn starting_board(&self) -> &Board {
        self.played
            .first()
            .map(|entry| &entry.board_before)
            .unwrap_or(&self.board)
    }

    /// Whether the game has any stone on the board or any move.
    pub fn is_empty(&self) -> bool {
        self.played.is_empty() && self.board.empty_points().len() == self.size() * self.size()
    }

    /// The hash of the current situation (board and side to move).
    pub fn situation_hash(&self) -> u64 {
        situation_hash(self.board.hash(), self.to_move)
    }

    /// Whether a board hash `board_hash` reached by a move, with `next_to_move` then to play,
    /// repeats an earlier position under the rules' superko.
    pub fn repeats_position(&self, board_hash: u64, next_to_move: Color) -> bool {
        match self.rules.ko {
            KoRule::Simple => false,
            KoRule::Positional => self.board_hashes.contains(&board_hash),
            KoRule::Situational => self
                .positions
                .contains(&situation_hash(board_hash, next_to_move)),
        }
    }

    /// Checks whether `color` may play `chosen` now under the full rules (occupied, suicide,
    /// ko, superko). A pass is always legal.
    ///
    /// # Errors
    /// Why the move is illegal.
    pub fn check_move(&self, color: Color, chosen: Move) -> Result<(), IllegalMove> {
        let point = match chosen {
            Move::Pass => return Ok(()),
            Move::Place(point) => point,
        };
        self.board
            .check_move(point, color, self.rules.suicide_allowed)?;
        if self.rules.ko != KoRule::Simple {
            let mut after = self.board.clone();
            after.play_unchecked(chosen, color);
            if self.repeats_position(after.hash(), color.opponent()) {
                return Err(IllegalMove::Superko);
            }
        }
        Ok(())
    }

    /// Whether `color` may play `chosen` now.
    pub fn is_legal(&self, color: Color, chosen: Move) -> bool {
        self.check_move(color, chosen).is_ok()
    }

    /// Plays a move of `color` (either colour may move at any time, as GTP allows).
    ///
    /// # Errors
    /// Why the move is illegal; the game is then unchanged.
    pub fn play(&mut self, color: Color, chosen: Move) -> Result<(), IllegalMove> {
        self.check_move(color, chosen)?;
        self.play_legal(color, chosen);
        Ok(())
    }

    /// Plays a move that was already played elsewhere (the main line of a game record):
    /// refuses only what no ruleset allows (a point off the board or occupied, the suicide of
    /// a lone stone) and skips the ko, superko and multi-stone suicide checks, which the
    /// record's own rules decided. The move enters the history, so later checks see it.
    ///
    /// # Errors
    /// Why the move cannot be played on this board at all; the game is then unchanged.
    pub fn play_recorded(&mut self, color: Color, chosen: Move) -> Result<(), IllegalMove> {
        if let Move::Place(point) = chosen {
            match self.board.check_move(point, color, true) {
                Ok(()) | Err(IllegalMove::Ko) => {}
                Err(error) => return Err(error),
            }
        }
        self.play_legal(color, chosen);
        Ok(())
    }

    /// Plays a move already checked with [`Game::check_move`].
    fn play_legal(&mut self, color: Color, chosen: Move) {
        self.played.push(Played {
            color,
            chosen,
            board_before: self.board.clone(),
            to_move_before: self.to_move,
            passes_before: self.consecutive_passes,
        });
        self.board.play_unchecked(chosen, color);
        self.consecutive_passes = match chosen {
            Move::Pass => self.consecutive_passes + 1,
            Move::Place(_) => 0,
        };
        self.to_move = color.opponent();
        self.positions
            .push(situation_hash(self.board.hash(), self.to_move));
        self.board_hashes.push(self.board.hash());
    }

    /// Takes back the last move.
    ///
    /// # Errors
    /// When no move has been played since the starting position.
    pub fn undo(&mut self) -> Result<(), NothingToUndo> {
        let entry = self.played.pop().ok_or(NothingToUndo)?;
        self.board = entry.board_before;
        self.to_move = entry.to_move_before;
        self.consecutive_passes = entry.passes_before;
        self.positions.pop();
        self.board_hashes.pop();
        Ok(())
    }

    /// Places setup stones (handicap, SGF `AB`/`AW`, `gogui-setup`) into the starting
    /// position. Only allowed before the first move; stones on occupied points replace them.
    ///
    /// # Errors
    /// When moves have already been played.
    pub fn setup(&mut self, stones: &[(Color, Point)]) -> Result<(), SetupAfterMoves> {
        if !self.played.is_empty() {
            return Err(SetupAfterMoves);
        }
        for &(color, point) in stones {
            if self.board.stone(point).is_some() {
                self.board.remove_stone(point);
            }
            self.board.setup_stone(point, color);
        }
        self.reset_history_to_board();
        Ok(())
    }

    /// Removes setup stones (SGF `AE`) from the starting position.
    ///
    /// # Errors
    /// When moves have already been played.
    pub fn setup_empty(&mut self, points: &[Point]) -> Result<(), SetupAfterMoves> {
        if !self.played.is_empty() {
            return Err(SetupAfterMoves);
        }
        for &point in points {
            self.board.remove_stone(point);
        }
        self.reset_history_to_board();
        Ok(())
    }

    /// Places handicap stones for black and gives white the move.
    ///
    /// # Errors
    /// When moves have already been played.
    pub fn place_handicap(&mut self, points: &[Point]) -> Result<(), SetupAfterMoves> {
        let stones: Vec<(Color, Point)> =
            points.iter().map(|&point| (Color::Black, point)).collect();
        self.setup(&stones)?;
        self.handicap = points.len() as u32;
        self.set_to_move(Color::White);
        Ok(())
    }

    fn reset_history_to_board(&mut self) {
        self.positions = vec![situation_hash(self.board.hash(), self.to_move)];
        self.board_hashes = vec![self.board.hash()];
        self.consecutive_passes = 0;
    }

    /// Under capture Go, the player who has reached the capture target, if any.
    pub fn capture_winner(&self) -> Option<Color> {
        match self.rules.win {
            WinCondition::Captures(target) => Color::ALL
                .into_iter()
                .find(|&color| self.board.captures(color) >= target),
            WinCondition::Score => None,
        }
    }

    /// Every legal move of `color` now, passes excluded, in board order.
    pub fn legal_points(&self, color: Color) -> Vec<Point> {
        self.board
            .points()
            .filter(|&point| self.is_legal(color, Move::Place(point)))
            .collect()
    }
}

/// `undo` with no move to take back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NothingToUndo;

impl std::fmt::Display for NothingToUndo {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("cannot undo")
    }
}

impl std::error::Error for NothingToUndo {}

/// Setup stones after moves were played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetupAfterMoves;

impl std::fmt::Display for SetupAfterMoves {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("board not empty")
    }
}

impl std::error::Error for SetupAfterMoves {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::point::parse_move;

    fn moves(game: &mut Game, list: &str) {
        let mut color = game.to_move();
        for text in list.split_whitespace() {
            let chosen = parse_move(text, game.size()).unwrap();
            game.play(color, chosen)
                .unwrap_or_else(|error| panic!("{text}: {error}"));
            color = color.opponent();
        }
    }

    #[test]
    fn undo_restores_everything() {
        let mut game = Game::new(9, Rules::chinese(), 7.5);
        let empty = game.clone();
        moves(&mut game, "E5 D5 pass C3");
        let before = game.board().clone();
        moves(&mut game, "C4");
        game.undo().unwrap();
        assert_eq!(game.board(), &before);
        for _ in 0..4 {
            game.undo().unwrap();
        }
        assert_eq!(game.board(), empty.board());
        assert_eq!(game.to_move(), Color::Black);
        assert!(game.undo().is_err());
    }

    /// A position where black and white can take and retake a ko, and a triple ko is
    /// not needed: a send-two-return-one (positional vs situational) would be. Here we check
    /// the basic ko ban and that passes lift it.
    #[test]
    fn ko_is_banned_and_lifted_by_other_moves() {
        let mut game = Game::new(5, Rules::japanese(), 6.5);
        moves(&mut game, "B3 C3 A2 D2 B1 C1 pass B2 C2");
        // Black C2 captured white B2: white may not retake at once.
        let retake = parse_move("B2", 5).unwrap();
        assert_eq!(game.check_move(Color::White, retake), Err(IllegalMove::Ko));
        moves(&mut game, "E5 E4");
        assert!(game.is_legal(Color::White, retake));
    }

    #[test]
    fn superko_forbids_retaking_after_passes_but_simple_ko_does_not() {
        for (rules, banned) in [
            (Rules::chinese(), true),
            (Rules::aga(), true),
            (Rules::japanese(), false),
        ] {
            let mut game = Game::new(5, rules, 7.5);
            moves(&mut game, "B3 C3 A2 D2 B1 C1 pass B2 C2 pass pass");
            // White retaking recreates the board (and the side to move) of before C2.
            let retake = parse_move("B2", 5).unwrap();
            assert_eq!(
                game.check_move(Color::White, retake) == Err(IllegalMove::Superko),
                banned,
                "{rules}"
            );
        }
    }

    #[test]
    fn recorded_moves_skip_the_repetition_rules_only() {
        let mut game = Game::new(5, Rules::chinese(), 7.5);
        moves(&mut game, "B3 C3 A2 D2 B1 C1 pass B2 C2 pass pass");
        // White's retake repeats a position: positional superko forbids it in play, but a
        // record made under other rules may hold it.
        let retake = parse_move("B2", 5).unwrap();
        assert_eq!(
            game.check_move(Color::White, retake),
            Err(IllegalMove::Superko)
        );
        game.play_recorded(Color::White, retake).unwrap();
        // And the immediate ko recapture that follows in such a record.
        let recapture = parse_move("C2", 5).unwrap();
        assert_eq!(
            game.check_move(Color::Black, recapture),
            Err(IllegalMove::Ko)
        );
        game.play_recorded(Color::Black, recapture).unwrap();
        // Occupied points and lone-stone suicide are refused under every ruleset.
        let occupied = parse_move("B3", 5).unwrap();
        assert_eq!(
            game.play_recorded(Color::White, occupied),
            Err(IllegalMove::Occupied)
        );
        assert_eq!(game.move_count(), 13);
        let mut corner = Game::new(5, Rules::chinese(), 7.5);
        moves(&mut corner, "pass A2 pass B1");
        let suicide = parse_move("A1", 5).unwrap();
        assert_eq!(
            corner.play_recorded(Color::Black, suicide),
            Err(IllegalMove::Suicide)
        );
    }

    #[test]
    fn situational_superko_looks_at_the_side_to_move() {
        let mut game = Game::new(5, Rules::aga(), 7.5);
        moves(&mut game, "C3");
        let hash = game.board().hash();
        assert!(game.repeats_position(hash, Color::White));
        assert!(!game.repeats_position(hash, Color::Black));
        game.set_rules(Rules::chinese());
        assert!(game.repeats_position(hash, Color::Black));
    }

    #[test]
    fn handicap_gives_white_the_move_and_cannot_be_undone() {
        let mut game = Game::new(9, Rules::chinese(), 0.5);
        let stones: Vec<Point> = ["C3", "G7"]
            .iter()
            .map(|text| match parse_move(text, 9).unwrap() {
                Move::Place(point) => point,
                Move::Pass => unreachable!(),
            })
            .collect();
        game.place_handicap(&stones).unwrap();
        assert_eq!(game.to_move(), Color::White);
        assert!(game.undo().is_err());
        assert_eq!(game.board().stone_counts(), [2, 0]);
    }
}
