//! Go's engine: one game with its rules and komi, the settings chosen on the command line,
//! the clocks and the search. GTP handlers call these methods and only format what they return;
//! every rule decision is made here or below. Knows nothing of the protocol's text.

use crate::color::Color;
use crate::engine::clocks::Clocks;
use crate::engine::{move_bounds, Level, Settings, RESIGN_MINIMUM_VISITS};
use crate::go::endgame::{finish, JudgeSettings, Judgement, StatusCache};
use crate::go::rules::board::IllegalMove;
use crate::go::rules::game::{Game, NothingToUndo};
use crate::go::rules::point::{move_text, point_at, Move, Point};
use crate::go::rules::record::{self, RecordError};
use crate::go::rules::rules::{Rules, Scoring};
use crate::go::rules::score::{self, Score, StoneStatus};
use crate::go::rules::sgf;
use crate::go::rules::territory;
use crate::go::search::board::PlayoutBoard;
use crate::go::search::value::{self, RawOutput, ValueScratch};
use crate::go::search::{Limits, Reporter, Search, SearchSummary, LATE_ROOT_PASS_SHARE};
use crate::search::SearchParams;
use crate::time::{Budget, TimeError, TimeSettings};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What the engine decided to do with its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play (or pass).
    Play(Move),
    /// Give up the game.
    Resign,
}

/// Errors of setup commands, with GTP's texts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// `invalid number of stones`.
    InvalidNumberOfStones,
    /// `board not empty`.
    BoardNotEmpty,
    /// `bad vertex list`.
    BadVertexList,
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str(match self {
            SetupError::InvalidNumberOfStones => "invalid number of stones",
            SetupError::BoardNotEmpty => "board not empty",
            SetupError::BadVertexList => "bad vertex list",
        })
    }
}

/// `boardsize` outside 2..=25.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnacceptableSize;

impl std::fmt::Display for UnacceptableSize {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("unacceptable size")
    }
}

/// The score of `game`'s position with the stones of `status` dead.
fn score_with(game: &Game, status: &StoneStatus) -> Score {
    score::score(
        game.board(),
        status,
        game.rules(),
        game.komi(),
        game.handicap(),
    )
}

/// Whether `game` is played under territory rules with a friendly pass (not capture Go):
/// the rules [`Engine::finish_under_territory`] applies to.
fn plays_territory_finish(game: &Game) -> bool {
    let rules = game.rules();
    rules.scoring == Scoring::Territory
        && rules.friendly_pass_ok
        && rules.capture_target().is_none()
}

/// Late enough for territory play to search the pass: stones on at least this share of the
/// board (1/divisor).
const LATE_STONES_DIVISOR: usize = 3;

fn is_late_for_territory(board: &crate::go::rules::board::Board) -> bool {
    let [black, white] = board.stone_counts();
    (black + white) * LATE_STONES_DIVISOR >= board.size() * board.size()
}

/// Territory play checks whether a move throws a point away only where the search's
/// playouts give its point to one colour this often (mean owner, +1 or -1 always).
const TERRITORY_OWNERSHIP: f32 = 0.6;
/// The game is late when at most this share of the board (1/divisor) is not given to one
/// colour that often.
const LATE_GAME_DIVISOR: usize = 5;
/// A pass searched this often that the search finds this much worse than a chosen move it
/// expects to win with keeps that move even where it throws a point away.
const PASS_CHECK_VISITS: u64 = 30;
const PASS_WIN_RATE_SLACK: f64 = 0.15;

/// The phase of the game a move is generated for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Normal play: passing ends the game with the dead stones judged and removed.
    Play,
    /// KGS's cleanup after a disputed end: the dead stones must be captured on the board.
    Cleanup,
}

/// Which stones `final_status_list` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusKind {
    Alive,
    Dead,
    Seki,
}

/// The engine state behind GTP.
pub struct Engine {
    settings: Settings,
    game: Game,
    /// Komi sent by GTP `komi`; survives `boardsize` and `clear_board`.
    komi_override: Option<f64>,
    search: Search,
    /// Seconds of CPU time spent generating moves.
    thinking_seconds: f64,
    /// The time system and both clocks.
    clocks: Clocks,
    /// End-of-game judgements of the positions seen.
    status_cache: StatusCache,
}

impl Engine {
    /// A new engine with an empty board.
    ///
    /// # Errors
    /// When a `--param` name or value is not understood.
    pub fn new(settings: Settings) -> Result<Engine, String> {
        let size = match settings.size {
            Some(size) if Game::size_is_valid(size) => size,
            _ => 9,
        };
        let komi = settings
            .komi
            .unwrap_or_else(|| settings.rules.default_komi());
        let game = Game::new(size, settings.rules, komi);
        let mut parameters = SearchParams::default();
        for (name, value) in &settings.parameters {
            // Margo's and Abalone's game options travel as parameters too.
            if name != "swap" && name != "start" {
                parameters.set(name, value)?;
            }
        }
        let search = Search::new(
            parameters,
            settings.threads,
            settings.seed,
            settings.max_tree_megabytes.saturating_mul(1 << 20),
        );
        let clocks = settings.clocks();
        Ok(Engine {
            komi_override: settings.komi,
            settings,
            game,
            search,
            thinking_seconds: 0.0,
            clocks,
            status_cache: StatusCache::new(),
        })
    }

    /// Sets the time system and fills both clocks.
    pub fn set_time_settings(&mut self, settings: TimeSettings) {
        self.clocks.set_settings(settings);
    }

    /// The time system of the game.
    pub fn time_settings(&self) -> &TimeSettings {
        self.clocks.settings()
    }

    /// Updates a clock from GTP `time_left`.
    ///
    /// # Errors
    /// When the values are not a valid clock.
    pub fn set_time_left(
        &mut self,
        color: Color,
        seconds: f64,
        stones: u32,
    ) -> Result<(), TimeError> {
        self.clocks.set_time_left(color, seconds, stones)
    }

    /// The thinking budget for `color`'s next move under the clock, `None` without limits.
    pub fn time_budget(&self, color: Color) -> Option<Budget> {
        let size = self.game.size();
        self.clocks
            .budget(color, size * size, self.game.move_count())
    }

    /// Charges `color`'s clock for a move that took `elapsed`, unless the controller keeps
    /// the clock itself with `time_left`.
    fn charge_clock(&mut self, color: Color, elapsed: std::time::Duration) {
        self.clocks.charge(color, elapsed);
    }

    /// Loads a game from an SGF file, up to (not including) move `before_move`, and returns
    /// the colour to move.
    ///
    /// # Errors
    /// A message when the file cannot be read, parsed or replayed.
    pub fn load_sgf(&mut self, path: &str, before_move: Option<usize>) -> Result<Color, String> {
        let text = std::fs::read(path).map_err(|error| format!("{path}: {error}"))?;
        let text = String::from_utf8_lossy(&text);
        let parsed = sgf::parse(&text).map_err(|error| error.to_string())?;
        let game = record::game_from_record(&parsed, before_move, *self.game.rules(), self.komi())
            .map_err(|error: RecordError| error.to_string())?;
        if parsed.komi.is_some() {
            self.komi_override = Some(game.komi());
        }
        let to_move = game.to_move();
        self.game = game;
        Ok(to_move)
    }

    /// The game as SGF text, with the result when both players passed.
    pub fn game_record(&mut self) -> String {
        let result = if self.game.both_passed() {
            let score = self.final_score();
            Some(match score.winner() {
                None => "0".to_string(),
                Some(_) => score.to_string(),
            })
        } else {
            None
        };
        sgf::write(&record::record_from_game(&self.game, result))
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Seconds spent thinking on moves so far.
    pub fn thinking_seconds(&self) -> f64 {
        self.thinking_seconds
    }

    fn komi(&self) -> f64 {
        self.komi_override
            .unwrap_or_else(|| self.game.rules().default_komi())
    }

    /// Changes the board size and clears the board.
    ///
    /// # Errors
    /// When the size is outside 2..=25.
    pub fn set_board_size(&mut self, size: usize) -> Result<(), UnacceptableSize> {
        if !Game::size_is_valid(size) {
            return Err(UnacceptableSize);
        }
        self.game = Game::new(size, *self.game.rules(), self.komi());
        self.clocks.new_game();
        Ok(())
    }

    /// Clears the board, keeping size, rules and komi; under `--game-time` both clocks are
    /// full again.
    pub fn clear_board(&mut self) {
        self.game = Game::new(self.game.size(), *self.game.rules(), self.komi());
        self.clocks.new_game();
    }

    /// Sets the komi; it stays in force through `boardsize` and `clear_board`.
    pub fn set_komi(&mut self, komi: f64) {
        self.komi_override = Some(komi);
        self.game.set_komi(komi);
    }

    /// Changes the rules; the ruleset's komi applies unless GTP sent one.
    pub fn set_rules(&mut self, rules: Rules) {
        self.game.set_rules(rules);
        self.game.set_komi(self.komi());
    }

    /// Plays a move of either colour with full legality checks.
    ///
    /// # Errors
    /// Why the move is illegal.
    pub fn play(&mut self, color: Color, chosen: Move) -> Result<(), IllegalMove> {
        self.game.play(color, chosen)
    }

    /// Takes back one move.
    ///
    /// # Errors
    /// When there is nothing to take back.
    pub fn undo(&mut self) -> Result<(), NothingToUndo> {
        self.game.undo()
    }

    /// Chooses a move for `color`, plays it, charges the clock, and returns it. `stop` ends
    /// the search early (GoGui's `# interrupt`); the best move so far is played then.
    pub fn generate_move(&mut self, color: Color, stop: &AtomicBool) -> Decision {
        self.generate_move_reporting(color, stop, None)
    }

    /// `kgs-genmove_cleanup`: chooses and plays a move for `color` in KGS's cleanup phase,
    /// never passing while the opponent's dead stones are on the board.
    pub fn generate_cleanup_move(&mut self, color: Color, stop: &AtomicBool) -> Decision {
        self.generate(color, stop, None, Phase::Cleanup)
    }

    /// Chooses a move for `color` without playing it (`reg_genmove`, hints).
    pub fn choose_move(&mut self, color: Color, stop: &AtomicBool) -> Decision {
        self.choose_move_reporting(color, stop, None)
    }

    /// Runs a search for `color` under `limits`, calling `report` every interval; the tree
    /// is kept for the next move (analysis and pondering).
    pub fn search_with(
        &mut self,
        color: Color,
        limits: &Limits,
        stop: &AtomicBool,
        report: Option<Reporter<'_>>,
    ) -> SearchSummary {
        let game = self.game_for(color);
        let mut limits = limits.clone();
        self.judge_the_end(&game, &mut limits);
        self.search.run(&game, &limits, stop, report)
    }

    /// Thinks on the position for the side to move until `stop` is set (pondering).
    pub fn ponder(&mut self, stop: &AtomicBool, should_stop: &mut dyn FnMut() -> bool) {
        if self.game.both_passed() || self.game.capture_winner().is_some() {
            return;
        }
        let color = self.game.to_move();
        let mut check = |_: &SearchSummary| {
            if should_stop() {
                stop.store(true, Ordering::SeqCst);
            }
        };
        let game = self.game_for(color);
        let mut limits = Limits::default();
        self.judge_the_end(&game, &mut limits);
        let summary = self.search.run(
            &game,
            &limits,
            stop,
            Some((&mut check, Duration::from_millis(10))),
        );
        log::info!("pondered {} playouts", summary.playouts);
    }

    /// Per point index, the mean final owner in the last search's playouts (+1 black, -1
    /// white); empty before any search.
    pub fn ownership(&self) -> Vec<f32> {
        self.search.ownership()
    }

    /// Everything the value network says of the position with `color` to move, the board
    /// seen under `symmetry` (0 to 7): `kata-raw-nn`'s answer. An error where the network
    /// does not judge the game (capture Go, a komi beyond its range, a board size it is not
    /// trusted on).
    pub fn raw_network(&self, color: Color, symmetry: usize) -> Result<RawOutput, String> {
        let size = self.game.size();
        let komi = self.game.komi();
        let capture = self.game.rules().capture_target().is_some();
        let network = value::judging(size, komi, capture).ok_or_else(|| {
            if capture {
                "the value network does not judge capture Go".to_string()
            } else if komi.abs() > f64::from(value::KOMI_SCALE) {
                format!(
                    "the value network judges a komi within {} points",
                    value::KOMI_SCALE
                )
            } else {
                match value::shipped() {
                    Some(network) => {
                        let sizes = network.trusted_sizes();
                        format!(
                            "the value network judges boards from {0}x{0} to {1}x{1}",
                            sizes.start(),
                            sizes.end()
                        )
                    }
                    None => "no value network".to_string(),
                }
            }
        })?;
        let board = PlayoutBoard::from_board(self.game.board(), color);
        Ok(network.raw(&board, color, komi, symmetry, &mut ValueScratch::default()))
    }

    /// The game with `color` to move.
    fn game_for(&self, color: Color) -> Game {
        let mut game = self.game.clone();
        if game.to_move() != color {
            game.set_to_move(color);
        }
        game
    }

    /// The limits of a move search: playouts from the settings or level, time from the
    /// clock, `--move-time`, or the default.
    pub fn move_limits(&self, color: Color) -> Limits {
        let bounds = move_bounds(&self.settings, self.time_budget(color));
        Limits {
            playouts: bounds.playouts,
            soft_time: bounds.soft_time,
            hard_time: bounds.hard_time,
            early_stop: true,
            excluded_root_moves: Vec::new(),
            forbid_pass: false,
            end_margin: None,
            root_pass_share: None,
            settled: false,
            dynamic_komi: false,
        }
    }

    /// Turns a search result into a decision: resign when hopeless, otherwise the best move.
    fn decide(&self, game: &Game, summary: &SearchSummary) -> Decision {
        let threshold = self.settings.resign_threshold;
        let size = game.size();
        let past_opening = game.move_count() >= size * size / 4;
        if threshold > 0.0
            && past_opening
            && summary.root_visits >= RESIGN_MINIMUM_VISITS
            && summary.win_rate < threshold
        {
            return Decision::Resign;
        }
        Decision::Play(summary.best)
    }

    /// The stones of the end-of-game status, one chain per inner list.
    pub fn final_status_list(&mut self, kind: StatusKind) -> Vec<Vec<Point>> {
        let status = self.final_status();
        let board = self.game.board();
        let mut chains: Vec<Vec<Point>> = Vec::new();
        for point in board.chain_heads() {
            let dead = status.dead[point.index()];
            let seki = status.seki[point.index()];
            let wanted = match kind {
                StatusKind::Dead => dead,
                StatusKind::Seki => seki && !dead,
                StatusKind::Alive => !dead && !seki,
            };
            if wanted {
                let mut stones: Vec<Point> = board.chain_stones(point).collect();
                stones.sort();
                chains.push(stones);
            }
        }
        chains
    }

    /// The end-of-game status of every stone of the current position.
    pub fn final_status(&mut self) -> StoneStatus {
        let game = self.game.clone();
        self.status_of(&game)
    }

    /// Sets `limits`' end of the game: where a pass ends it now and the position is settled,
    /// the margin of that pass, and the search on its playouts alone (`end_margin`,
    /// [`Limits::settled`]).
    fn judge_the_end(&mut self, game: &Game, limits: &mut Limits) {
        limits.end_margin = self.end_margin(game);
        limits.settled = limits.end_margin.is_some();
    }

    /// Black's margin if `game` ended now by a pass (the opponent passed last), dead stones
    /// judged by the end-of-game status; `None` when a pass does not end the game or the
    /// position is not settled (a chain still fought over, an open region): then the
    /// search plays on rather than leave the result to the referee's guess.
    fn end_margin(&mut self, game: &Game) -> Option<f64> {
        if game.consecutive_passes() == 0 {
            return None;
        }
        let judgement = self.judgement_of(game);
        if judgement.unsettled > 0 {
            log::info!("the position is not settled ({} open)", judgement.unsettled);
            return None;
        }
        Some(score_with(game, &judgement.status).margin())
    }

    /// The end-of-game status of every stone of `game`'s position (cached).
    fn status_of(&mut self, game: &Game) -> StoneStatus {
        self.judgement_of(game).status
    }

    /// The end-of-game judgement of `game`'s position (cached).
    fn judgement_of(&mut self, game: &Game) -> Judgement {
        let params = self.search.params().clone();
        self.status_cache
            .judgement(game, &params, JudgeSettings::default(), self.settings.seed)
    }

    /// The score of the current position with the dead stones removed.
    pub fn final_score(&mut self) -> Score {
        let status = self.final_status();
        let game = &self.game;
        if let Some(winner) = game.capture_winner() {
            // Capture Go: the winner is whoever reached the target; report it as a margin of
            // the captures.
            let black = game.board().captures(Color::Black) as f64;
            let white = game.board().captures(Color::White) as f64;
            let (black, white) = match winner {
                Color::Black => (black.max(white + 1.0), white),
                Color::White => (black, white.max(black + 1.0)),
            };
            return Score { black, white };
        }
        score_with(game, &status)
    }

    /// The score of the current position with exactly the chains through `dead` removed as
    /// dead (the players' agreement after two passes, which may differ from ishi's
    /// proposal); seki as ishi judges it among the other stones. Capture Go scores as
    /// [`Engine::final_score`].
    pub fn score_with_dead(&mut self, dead: &[Point]) -> Score {
        if self.game.capture_winner().is_some() {
            return self.final_score();
        }
        let judged = self.final_status();
        let board = self.game.board();
        let mut status = StoneStatus::all_alive(board);
        for &point in dead {
            if board.stone(point).is_some() {
                for stone in board.chain_stones(point) {
                    status.dead[stone.index()] = true;
                }
            }
        }
        for (index, seki) in judged.seki.iter().enumerate() {
            status.seki[index] = *seki && !status.dead[index];
        }
        score_with(&self.game, &status)
    }

    /// Places handicap stones at the GTP specification's fixed points.
    ///
    /// # Errors
    /// `invalid number of stones` or `board not empty`.
    pub fn fixed_handicap(&mut self, count: usize) -> Result<Vec<Point>, SetupError> {
        let points = fixed_handicap_points(self.game.size(), count)
            .ok_or(SetupError::InvalidNumberOfStones)?;
        self.place_handicap(&points)?;
        Ok(points)
    }

    /// Places `count` handicap stones where the engine likes them: the fixed points first,
    /// then spread out on the third and fourth lines; always exactly `count` stones.
    ///
    /// # Errors
    /// `invalid number of stones` or `board not empty`.
    pub fn place_free_handicap(&mut self, count: usize) -> Result<Vec<Point>, SetupError> {
        let size = self.game.size();
        if count < 2 || count >= size * size {
            return Err(SetupError::InvalidNumberOfStones);
        }
        if !self.game.is_empty() {
            return Err(SetupError::BoardNotEmpty);
        }
        let fixed_maximum = maximum_fixed_handicap(size);
        let mut points = if fixed_maximum >= 2 {
            fixed_handicap_points(size, count.min(fixed_maximum)).unwrap_or_default()
        } else {
            Vec::new()
        };
        while points.len() < count {
            match farthest_free_point(size, &points) {
                Some(point) => points.push(point),
                None => return Err(SetupError::InvalidNumberOfStones),
            }
        }
        self.place_handicap(&points)?;
        Ok(points)
    }

    /// Places handicap stones chosen by the controller.
    ///
    /// # Errors
    /// `bad vertex list` for fewer than two stones, repeats or too many; `board not empty`.
    pub fn set_free_handicap(&mut self, points: &[Point]) -> Result<(), SetupError> {
        let size = self.game.size();
        let mut unique = points.to_vec();
        unique.sort();
        unique.dedup();
        if points.len() < 2 || unique.len() != points.len() || points.len() >= size * size {
            return Err(SetupError::BadVertexList);
        }
        self.place_handicap(points)
    }

    fn place_handicap(&mut self, points: &[Point]) -> Result<(), SetupError> {
        if !self.game.is_empty() {
            return Err(SetupError::BoardNotEmpty);
        }
        self.game
            .place_handicap(points)
            .map_err(|_| SetupError::BoardNotEmpty)
    }

    /// Places setup stones (`gogui-setup`): only before the first move, all or none. Setup
    /// stones capture nothing, so a list that would leave a chain without liberties is
    /// refused rather than silently losing stones the controller still shows.
    ///
    /// # Errors
    /// `board not empty` when moves were played; `bad vertex list` when a chain would be
    /// left without liberties. The game is then unchanged.
    pub fn setup(&mut self, stones: &[(Color, Point)]) -> Result<(), SetupError> {
        let saved = self.game.clone();
        self.game
            .setup(stones)
            .map_err(|_| SetupError::BoardNotEmpty)?;
        let before = saved.board();
        let after = self.game.board();
        let wanted = before
            .points()
            .filter(|&point| {
                before.stone(point).is_some() || stones.iter().any(|&(_, stone)| stone == point)
            })
            .count();
        let kept = after.stone_counts().iter().sum::<usize>() == wanted;
        let placed = stones.iter().enumerate().all(|(index, &(color, point))| {
            let replaced_later = stones[index + 1..].iter().any(|&(_, later)| later == point);
            replaced_later || after.stone(point) == Some(color)
        });
        if kept && placed {
            Ok(())
        } else {
            self.game = saved;
            Err(SetupError::BadVertexList)
        }
    }

    /// Sets the colour to move (`gogui-setup_player`).
    pub fn set_to_move(&mut self, color: Color) {
        self.game.set_to_move(color);
    }

    /// Whether `color` may play `chosen` now.
    pub fn is_legal(&self, color: Color, chosen: Move) -> bool {
        self.game.is_legal(color, chosen)
    }

    /// Plays a sequence atomically: all moves or none.
    ///
    /// # Errors
    /// The index of the first illegal move; the game is then unchanged.
    pub fn play_sequence(&mut self, moves: &[(Color, Move)]) -> Result<(), usize> {
        let saved = self.game.clone();
        for (index, &(color, chosen)) in moves.iter().enumerate() {
            if self.game.play(color, chosen).is_err() {
                self.game = saved;
                return Err(index);
            }
        }
        Ok(())
    }
}

/// The largest fixed handicap on a board: 9 on odd boards of 9 or more, 4 on even boards of 8
/// or more, none on smaller boards.
pub fn maximum_fixed_handicap(size: usize) -> usize {
    if size <= 7 {
        0
    } else if size % 2 == 1 {
        9
    } else {
        4
    }
}

/// The GTP specification's handicap points for `count` stones, in its order; `None` when the
/// count is not allowed on this board.
pub fn fixed_handicap_points(size: usize, count: usize) -> Option<Vec<Point>> {
    if count < 2 || count > maximum_fixed_handicap(size) {
        return None;
    }
    let edge = if size >= 13 { 3 } else { 2 };
    let low = edge;
    let high = size - 1 - edge;
    let middle = size / 2;
    let at = |column: usize, row: usize| point_at(column, row, size);
    let lower_left = at(low, low);
    let upper_right = at(high, high);
    let upper_left = at(low, high);
    let lower_right = at(high, low);
    let centre = at(middle, middle);
    let left_middle = at(low, middle);
    let right_middle = at(high, middle);
    let bottom_middle = at(middle, low);
    let top_middle = at(middle, high);
    let points = match count {
        2 => vec![lower_left, upper_right],
        3 => vec![lower_left, upper_right, upper_left],
        4 => vec![lower_left, upper_right, upper_left, lower_right],
        5 => vec![lower_left, upper_right, upper_left, lower_right, centre],
        6 => vec![
            lower_left,
            upper_right,
            upper_left,
            lower_right,
            left_middle,
            right_middle,
        ],
        7 => vec![
            lower_left,
            upper_right,
            upper_left,
            lower_right,
            left_middle,
            right_middle,
            centre,
        ],
        8 => vec![
            lower_left,
            upper_right,
            upper_left,
            lower_right,
            left_middle,
            right_middle,
            bottom_middle,
            top_middle,
        ],
        _ => vec![
            lower_left,
            upper_right,
            upper_left,
            lower_right,
            left_middle,
            right_middle,
            bottom_middle,
            top_middle,
            centre,
        ],
    };
    Some(points)
}

/// The free point farthest from `taken` (squared Euclidean distance) among the points off the first
/// two lines (off the first line on boards below 7x7), any free point once those are used;
/// ties favour the third and fourth lines, then board order. `None` when the board is full.
fn farthest_free_point(size: usize, taken: &[Point]) -> Option<Point> {
    let preferred_line = if size >= 7 { 2 } else { usize::from(size >= 4) };
    let mut best: Option<(i64, Point)> = None;
    for minimum_line in [preferred_line, 0] {
        for row in 0..size {
            for column in 0..size {
                let point = point_at(column, row, size);
                let line = column.min(row).min(size - 1 - column).min(size - 1 - row);
                if taken.contains(&point) || line < minimum_line {
                    continue;
                }
                let line_bonus = i64::from((2..=3).contains(&line));
                let distance = taken
                    .iter()
                    .map(|&other| {
                        let (other_column, other_row) =
                            crate::go::rules::point::coordinates(other, size);
                        (column as i64 - other_column as i64).pow(2)
                            + (row as i64 - other_row as i64).pow(2)
                    })
                    .min()
                    .unwrap_or(2 * (size * size) as i64);
                let value = distance * 2 + line_bonus;
                if best.is_none_or(|(best_value, _)| value > best_value) {
                    best = Some((value, point));
                }
            }
        }
        if best.is_some() {
            break;
        }
    }
    best.map(|(_, point)| point)
}

// -------------------------------------------------------------------------------------------
// For the GTP analysis commands (src/gtp/analyze.rs): moves chosen while reporting progress,
// and the search parameters GoGui shows and sets.
// -------------------------------------------------------------------------------------------

impl Engine {
    /// [`Engine::generate_move`] calling `report` with the search's state every interval
    /// (`lz-genmove_analyze`, `kata-genmove_analyze`).
    pub fn generate_move_reporting(
        &mut self,
        color: Color,
        stop: &AtomicBool,
        report: Option<Reporter<'_>>,
    ) -> Decision {
        self.generate(color, stop, report, Phase::Play)
    }

    /// Chooses, plays and charges a move of `color` in `phase`.
    fn generate(
        &mut self,
        color: Color,
        stop: &AtomicBool,
        report: Option<Reporter<'_>>,
        phase: Phase,
    ) -> Decision {
        let started = Instant::now();
        let decision = self.choose(color, stop, report, phase);
        self.charge_clock(color, started.elapsed());
        if let Decision::Play(chosen) = decision {
            if let Err(error) = self.game.play(color, chosen) {
                log::error!("the search chose an illegal move ({error}); passing instead");
                let _ = self.game.play(color, Move::Pass);
                return Decision::Play(Move::Pass);
            }
        }
        decision
    }

    /// [`Engine::choose_move`] calling `report` with the search's state every interval.
    pub fn choose_move_reporting(
        &mut self,
        color: Color,
        stop: &AtomicBool,
        report: Option<Reporter<'_>>,
    ) -> Decision {
        self.choose(color, stop, report, Phase::Play)
    }

    /// Chooses a move of `color` in `phase` without playing it.
    fn choose(
        &mut self,
        color: Color,
        stop: &AtomicBool,
        report: Option<Reporter<'_>>,
        phase: Phase,
    ) -> Decision {
        let started = Instant::now();
        let game = self.game_for(color);
        if game.capture_winner().is_some() {
            return Decision::Play(Move::Pass);
        }
        let mut limits = self.move_limits(color);
        match phase {
            Phase::Play => {
                limits.dynamic_komi = true;
                self.judge_the_end(&game, &mut limits);
                if plays_territory_finish(&game) && is_late_for_territory(game.board()) {
                    // The pass that may replace a wasted stone must have been searched.
                    limits.root_pass_share = Some(LATE_ROOT_PASS_SHARE);
                }
            }
            Phase::Cleanup => self.restrict_to_cleanup(&game, color, &mut limits),
        }
        // The end-of-game judgement above came out of this move's time.
        let spent = started.elapsed();
        limits.soft_time = limits.soft_time.map(|time| time.saturating_sub(spent));
        limits.hard_time = limits.hard_time.map(|time| time.saturating_sub(spent));
        let summary = self.search.run(&game, &limits, stop, report);
        self.thinking_seconds += started.elapsed().as_secs_f64();
        log::info!(
            "{} {}: {} playouts in {:.2}s, win rate {:.3}, score lead {:.1}",
            color,
            move_text(summary.best, game.size()),
            summary.playouts,
            summary.elapsed.as_secs_f64(),
            summary.win_rate,
            summary.score_lead
        );
        match phase {
            Phase::Play => {
                let decision = self.decide(&game, &summary);
                self.finish_under_territory(&game, color, &summary, decision)
            }
            // No resignation while cleaning up a game that is being scored.
            Phase::Cleanup => Decision::Play(summary.best),
        }
    }

    /// Under territory rules, finishing the game as a referee wants it. Instead of passing,
    /// `color` first saves its chains in atari (resolving kos), fills the false eyes and
    /// cutting points the referee does not count, then the dame next to its stones. In a
    /// settled position it plays one of those (or passes) rather than a stone that throws a
    /// point away at the count: one in its own territory on a point the opponent could not
    /// use (capturing stones already dead included), or one in the opponent's territory. The
    /// search's move stands when the search expects to win with it, no chain in atari of its
    /// own can be saved instead, and either the pass was not searched (for a stone in the
    /// opponent's territory: and the stone threatens a capture or passing loses at the count)
    /// or the search finds passing much worse. Under territory rules late in the game (stones
    /// on a third of the board) the root's pass gets 5% of the visits so that it is searched.
    /// Area rules, capture Go and Tromp-Taylor are left alone.
    fn finish_under_territory(
        &mut self,
        game: &Game,
        color: Color,
        summary: &SearchSummary,
        decision: Decision,
    ) -> Decision {
        let Decision::Play(chosen) = decision else {
            return decision;
        };
        if !plays_territory_finish(game) {
            return decision;
        }
        let size = game.size();
        // Judging the position costs playouts: only for a pass, a move on a point the
        // search's playouts mostly give to one colour, or late in the game (most points so
        // given).
        if let Move::Place(point) = chosen {
            let ownership = self.search.ownership();
            let owned = |point: Point| {
                ownership
                    .get(point.index())
                    .is_some_and(|owner| owner.abs() >= TERRITORY_OWNERSHIP)
            };
            let decided = game.board().points().filter(|&point| owned(point)).count();
            let late = decided * LATE_GAME_DIVISOR >= (LATE_GAME_DIVISOR - 1) * size * size;
            if !owned(point) && !late {
                return decision;
            }
        }
        let judgement = self.judgement_of(game);
        let board = game.board();
        let verdicts = territory::board_verdicts(board, &judgement.status.dead);
        let finishing = finish::finishing_moves(game, color, &judgement.status, &verdicts);
        let replacement = finishing
            .first()
            .map_or(Move::Pass, |&point| Move::Place(point));
        let Move::Place(point) = chosen else {
            if replacement != Move::Pass {
                log::info!("finishing before passing: {}", move_text(replacement, size));
            }
            return Decision::Play(replacement);
        };
        // Settled, but for own chains in atari that a finishing move saves.
        let open_regions = judgement.unsettled - judgement.fought_over.len();
        let settled = open_regions == 0
            && judgement.fought_over.iter().all(|&head| {
                board.stone(head) == Some(color)
                    && board.liberties(head) == 1
                    && board
                        .any_liberty(head)
                        .is_some_and(|liberty| finishing.contains(&liberty))
            });
        if !settled || !finish::throws_a_point_away(&verdicts, point) {
            log::debug!(
                "territory finish: {} open regions, {} chains fought over, {} in territory",
                open_regions,
                judgement.fought_over.len(),
                finish::throws_a_point_away(&verdicts, point)
            );
            return decision;
        }
        let win_rate_of = |wanted: Move| {
            summary
                .candidates
                .iter()
                .find(|candidate| candidate.chosen == wanted)
                .map(|candidate| (candidate.win_rate, candidate.visits))
        };
        let chosen_win_rate = win_rate_of(chosen).map_or(summary.win_rate, |(rate, _)| rate);
        // The search's word on passing: much worse, or unknown (too few visits).
        let pass = win_rate_of(Move::Pass).filter(|&(_, visits)| visits >= PASS_CHECK_VISITS);
        let pass_much_worse =
            pass.is_some_and(|(rate, _)| rate < chosen_win_rate - PASS_WIN_RATE_SLACK);
        // A stone in one's own territory is kept when passing was not searched or is known to
        // be much worse; a stone in the opponent's territory when passing is known to be much
        // worse, or was not searched and either passing loses at the count (an invasion is
        // the last chance) or the stone puts a live chain in atari (a threat); either only
        // when the search expects to win with it, and never when an own chain in atari can be
        // saved instead.
        let in_own_territory = verdicts[point.index()].territory == Some(color);
        let margin = score_with(game, &judgement.status).margin();
        let passing_wins = match color {
            Color::Black => margin > 0.0,
            Color::White => margin < 0.0,
        };
        let threat = || finish::puts_live_chain_in_atari(game, color, point, &judgement.status);
        // A point of its own territory that the opponent could use is defended, not wasted.
        if in_own_territory && finish::opponent_could_use(game, color, point, &judgement.status) {
            log::debug!("territory finish: the opponent could use the point");
            return decision;
        }
        // Saving a chain in atari instead is never doing nothing.
        let rescues = finishing.first().is_some_and(|&fill| {
            board.neighbours(fill).iter().any(|&neighbour| {
                board.is_on_board(neighbour)
                    && board.stone(neighbour) == Some(color)
                    && board.liberties(neighbour) == 1
            })
        });
        let keep = chosen_win_rate >= 0.5
            && !rescues
            && (pass_much_worse
                || (pass.is_none() && (in_own_territory || !passing_wins || threat())));
        if keep {
            log::debug!("territory finish: the search keeps its move");
            return decision;
        }
        log::info!(
            "{} would throw a point away at the count; {} instead (pass {:?})",
            move_text(chosen, size),
            move_text(replacement, size),
            win_rate_of(Move::Pass)
        );
        Decision::Play(replacement)
    }

    /// KGS's cleanup phase: whatever is left on the board at its end counts as alive, so
    /// `color` plays on the liberties of the opponent's dead chains, never passing while one is
    /// left, and a pass that ends the game is scored with every stone alive.
    fn restrict_to_cleanup(&mut self, game: &Game, color: Color, limits: &mut Limits) {
        let status = self.status_of(game);
        let board = game.board();
        let mut targets: Vec<Point> = Vec::new();
        for point in board.points() {
            if board.stone(point) == Some(color.opponent()) && status.dead[point.index()] {
                for liberty in board.chain_liberties(point, usize::MAX) {
                    if !targets.contains(&liberty) && game.is_legal(color, Move::Place(liberty)) {
                        targets.push(liberty);
                    }
                }
            }
        }
        if !targets.is_empty() {
            limits.forbid_pass = true;
            limits.excluded_root_moves = board
                .points()
                .filter(|point| !targets.contains(point))
                .map(Move::Place)
                .collect();
        }
        if game.consecutive_passes() >= 1 {
            let everything_alive = StoneStatus::all_alive(board);
            limits.end_margin = Some(score_with(game, &everything_alive).margin());
        }
    }

    /// The level in force.
    pub fn level(&self) -> Level {
        self.settings.level
    }

    /// Sets the level of the next moves (the clock, when set, still caps the time).
    pub fn set_level(&mut self, level: Level) {
        self.settings.level = level;
    }

    /// Why `color` may not play `chosen` now, `None` when the move is legal.
    pub fn illegal_reason(&self, color: Color, chosen: Move) -> Option<IllegalMove> {
        self.game.check_move(color, chosen).err()
    }

    /// The move `level` would choose for `color` now, without playing it: a search of its
    /// own on a fresh tree, so the level in force, the clocks and the tree the next
    /// `genmove` reuses stay as they were.
    pub fn hint(&mut self, color: Color, level: Level, stop: &AtomicBool) -> Decision {
        let saved_level = self.settings.level;
        self.settings.level = level;
        let fresh = Search::new(
            self.search.params().clone(),
            self.settings.threads,
            self.settings.seed,
            self.settings.max_tree_megabytes.saturating_mul(1 << 20),
        );
        let main = std::mem::replace(&mut self.search, fresh);
        let decision = self.choose(color, stop, None, Phase::Play);
        let hint = std::mem::replace(&mut self.search, main);
        drop_search_later(hint);
        self.settings.level = saved_level;
        decision
    }

    /// The search parameters in force.
    pub fn search_parameters(&self) -> &SearchParams {
        self.search.params()
    }

    /// Sets one search parameter by name from text (as `--param name=value` does).
    ///
    /// # Errors
    /// An unknown name or a value that does not parse; nothing changes then.
    pub fn set_search_parameter(&mut self, name: &str, value: &str) -> Result<(), String> {
        let mut parameters = self.search.params().clone();
        parameters.set(name, value)?;
        self.search.set_params(parameters);
        Ok(())
    }
}

/// Frees a search (and its tree) on another thread.
fn drop_search_later(search: Search) {
    let spawned = std::thread::Builder::new()
        .name("ishi-hint-free".to_string())
        .spawn(move || drop(search));
    if let Err(error) = spawned {
        log::debug!("freeing the hint search in place: {error}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::point::vertex_text;

    fn texts(points: &[Point], size: usize) -> String {
        points
            .iter()
            .map(|&point| vertex_text(point, size))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn fixed_handicap_follows_the_specification() {
        let nine = fixed_handicap_points(19, 9).unwrap();
        assert_eq!(texts(&nine, 19), "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10");
        assert_eq!(
            texts(&fixed_handicap_points(19, 5).unwrap(), 19),
            "D4 Q16 D16 Q4 K10"
        );
        assert_eq!(
            texts(&fixed_handicap_points(9, 4).unwrap(), 9),
            "C3 G7 C7 G3"
        );
        assert_eq!(texts(&fixed_handicap_points(13, 2).unwrap(), 13), "D4 K10");
        assert!(fixed_handicap_points(7, 2).is_none());
        assert!(fixed_handicap_points(8, 5).is_none());
        assert!(fixed_handicap_points(8, 4).is_some());
        assert!(fixed_handicap_points(19, 10).is_none());
        assert!(fixed_handicap_points(19, 1).is_none());
    }

    #[test]
    fn free_handicap_returns_exactly_the_count() {
        for (size, count) in [(9, 9), (9, 12), (7, 5), (19, 20), (5, 24), (2, 3)] {
            let mut engine = Engine::new(Settings {
                size: Some(size),
                ..Settings::default()
            })
            .unwrap();
            let points = engine.place_free_handicap(count).unwrap();
            assert_eq!(points.len(), count);
            assert_eq!(engine.game().board().stone_counts(), [count, 0]);
        }
    }

    #[test]
    fn setup_that_would_capture_is_refused_whole() {
        let at = |text: &str| match crate::go::rules::point::parse_move(text, 9).unwrap() {
            Move::Place(point) => point,
            Move::Pass => unreachable!(),
        };
        let mut engine = Engine::new(Settings::default()).unwrap();
        // A1 would have no liberty: refused, and A2 and B1 are not placed either.
        let corner = [
            (Color::White, at("A2")),
            (Color::White, at("B1")),
            (Color::Black, at("A1")),
        ];
        assert_eq!(engine.setup(&corner), Err(SetupError::BadVertexList));
        assert_eq!(engine.game().board().stone_counts(), [0, 0]);
        // The same stones in two steps: the second would capture the first step's A1.
        engine
            .setup(&[(Color::Black, at("A1")), (Color::White, at("A2"))])
            .unwrap();
        assert_eq!(
            engine.setup(&[(Color::White, at("B1"))]),
            Err(SetupError::BadVertexList)
        );
        assert_eq!(engine.game().board().stone_counts(), [1, 1]);
        // A later entry for the same point replaces an earlier one.
        engine
            .setup(&[(Color::Black, at("E5")), (Color::White, at("E5"))])
            .unwrap();
        assert_eq!(engine.game().board().stone(at("E5")), Some(Color::White));
    }

    #[test]
    fn free_handicap_on_small_boards_avoids_the_edge() {
        let mut engine = Engine::new(Settings {
            size: Some(7),
            ..Settings::default()
        })
        .unwrap();
        let points = engine.place_free_handicap(5).unwrap();
        assert_eq!(texts(&points, 7), "C3 E5 E3 C5 D4");
    }

    #[test]
    fn komi_survives_clear_board_and_boardsize() {
        let mut engine = Engine::new(Settings::default()).unwrap();
        engine.set_komi(0.5);
        engine.clear_board();
        engine.set_board_size(13).unwrap();
        assert_eq!(engine.game().komi(), 0.5);
        assert!(engine.set_board_size(26).is_err());
        assert!(engine.set_board_size(1).is_err());
    }
}
