//! The engine of the games without a pass (Margo, Abalone): one generic [`BoardEngine`] over
//! a [`PlayableGame`] — the narrow interface a game's rules core offers the engine (move
//! text, legality with reasons, play, undo, the end, the score, the diagram, perft, its
//! search position) — with the clocks, levels, resignation, pondering and the shared MCTS
//! ([`GameSearch`]). The GTP layer talks to it through the object-safe [`BoardGameEngine`],
//! in text. Knows the search and the settings; nothing of the protocol's framing.

use crate::color::Color;
use crate::engine::clocks::Clocks;
use crate::engine::{move_bounds, GameKind, Level, Settings, RESIGN_MINIMUM_VISITS};
use crate::search::domain::SearchGame;
use crate::search::driver::{Choice, GameSearch, Root, RunLimits};
use crate::search::SearchParams;
use crate::time::{TimeError, TimeSettings};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Why a move text is not a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text names no move of this game (`syntax error` style message).
    Syntax(String),
    /// A well-formed move the rules forbid, with the rules core's reason word.
    Illegal(&'static str),
}

/// What creates a game: the command line's and GTP's choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOptions {
    /// Board size (the game's default when `None`).
    pub size: Option<usize>,
    /// Abalone's start position name.
    pub start: String,
    /// Abalone's ply cap.
    pub max_plies: usize,
    /// Margo's swap rule.
    pub swap: bool,
}

/// What a game's rules core offers the engine. Moves are the search's move indices
/// (`u16`, never 0).
pub trait PlayableGame: Send + Sized + 'static {
    /// The fast position the search copies into its playouts.
    type Position: SearchGame;

    /// Which game this is.
    const KIND: GameKind;

    /// A new game at its start position.
    ///
    /// # Errors
    /// `unacceptable size` for a size the game does not have, or a message for a bad option.
    fn create(options: &GameOptions) -> Result<Self, String>;

    /// Reads a move of `color` in the game's notation (case-insensitive).
    ///
    /// # Errors
    /// A syntax error, or the reason the rules forbid the move.
    fn parse_move(&self, color: Color, text: &str) -> Result<u16, MoveError>;

    /// The canonical text of the move `index` in the current position.
    fn move_text(&self, index: u16) -> String;

    /// The side to move, `None` when either may (Margo's first move).
    fn to_move(&self) -> Option<Color>;

    /// Every legal move of `color` under the full rules (empty when it is not `color`'s
    /// turn or the game is over), sorted by index.
    fn legal_moves(&self, color: Color) -> Vec<u16>;

    /// Plays a legal move.
    ///
    /// # Errors
    /// The reason word when the move is illegal (the game is unchanged).
    fn play(&mut self, color: Color, index: u16) -> Result<(), &'static str>;

    /// Takes back the last move; false at the start.
    fn undo(&mut self) -> bool;

    /// Whether the game has ended (no legal move for the side to move, a win, a cap).
    fn is_over(&self) -> bool;

    /// `final_score`: `B+n`, `W+n` or `0`.
    fn final_score(&self) -> String;

    /// The text diagram of `showboard`.
    fn showboard(&self) -> String;

    /// Legal move sequences of `depth` moves from the current position.
    fn perft(&self, depth: usize) -> u64;

    /// The search position of the current state.
    fn position(&self) -> Box<Self::Position>;

    /// The move indices played from the start.
    fn moves(&self) -> Vec<u16>;

    /// Moves played from the start.
    fn move_count(&self) -> usize;

    /// A key of what the tree depends on besides the moves (size, start, options).
    fn start_key(&self) -> u64;

    /// The game's length scale for the clock: about twice the moves each side will make.
    fn time_points(&self) -> usize;

    /// The playout settings from the parameters.
    fn playout_settings(&self, params: &SearchParams) -> <Self::Position as SearchGame>::Settings;

    /// The parameters the MCTS uses for this game, from the engine's.
    fn search_params(base: &SearchParams) -> SearchParams {
        base.clone()
    }

    /// The game record in the game's own listing format.
    fn record(&self) -> String;

    /// The game's own fields of the structured board (`ishi-board`, `docs/board.md`): where
    /// every piece is and what the game counts; the engine adds the fields every game shares.
    fn board_fields(&self) -> serde_json::Map<String, serde_json::Value>;

    /// Sets a game option by name (`swap`, `start`, ...) for this and later games.
    ///
    /// # Errors
    /// An unknown name or a bad value.
    fn set_option(_options: &mut GameOptions, name: &str, value: &str) -> Result<(), String> {
        Err(format!(
            "{} has no option {name} ({value})",
            Self::KIND.name()
        ))
    }

    /// Applies changed options that do not need a new game (Margo's swap rule).
    fn apply_options(&mut self, _options: &GameOptions) {}

    /// A move from a player of the game's own other than the MCTS (Abalone's alpha-beta),
    /// when the parameters choose one: the move and its win rate for `color`.
    fn own_player(
        &mut self,
        _params: &SearchParams,
        _color: Color,
        _limits: &RunLimits,
        _stop: &AtomicBool,
    ) -> Option<(u16, f64)> {
        None
    }
}

/// A colour as the structured board writes it: `"b"`, `"w"` or `null`.
pub fn color_field(color: Option<Color>) -> serde_json::Value {
    match color {
        Some(Color::Black) => "b".into(),
        Some(Color::White) => "w".into(),
        None => serde_json::Value::Null,
    }
}

/// What GTP asks of the engine of a game without a pass, in text.
pub trait BoardGameEngine: Send {
    /// Which game is in force.
    fn kind(&self) -> GameKind;

    /// A new game on `size`.
    ///
    /// # Errors
    /// `unacceptable size`.
    fn set_board_size(&mut self, size: usize) -> Result<(), String>;

    /// A new game with the same options.
    fn clear_board(&mut self);

    /// Sets a game option (`swap`, `start`) and starts a new game when it changes the start.
    ///
    /// # Errors
    /// An unknown option or value.
    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String>;

    /// Plays `text` for `color`.
    ///
    /// # Errors
    /// `illegal move` (wrong turn, game over, forbidden) or `syntax error`-style texts.
    fn play(&mut self, color: Color, text: &str) -> Result<(), String>;

    /// Chooses a move for `color` and, with `commit`, plays it and charges the clock; the
    /// answer is the move's text or `resign`.
    ///
    /// # Errors
    /// `game over`, or a wrong-turn message.
    fn generate_move(
        &mut self,
        color: Color,
        stop: &AtomicBool,
        commit: bool,
    ) -> Result<String, String>;

    /// Takes back one move.
    ///
    /// # Errors
    /// `cannot undo` at the start.
    fn undo(&mut self) -> Result<(), String>;

    /// The board diagram.
    fn showboard(&self) -> String;

    /// The score now.
    fn final_score(&self) -> String;

    /// Every legal move of `color`, space-separated.
    fn all_legal_moves(&self, color: Color) -> String;

    /// Whether `color` may play `text` now.
    fn is_legal(&self, color: Color, text: &str) -> bool;

    /// Empty when `color` may play `text`, else the reason word.
    ///
    /// # Errors
    /// A syntax error.
    fn illegal_reason(&self, color: Color, text: &str) -> Result<String, String>;

    /// Legal move sequences of `depth` moves from the current position.
    fn perft(&self, depth: usize) -> u64;

    /// The clocks.
    fn clocks(&mut self) -> &mut Clocks;

    /// Thinks on the position until `should_stop` says so.
    fn ponder(&mut self, stop: &AtomicBool, should_stop: &mut dyn FnMut() -> bool);

    /// The game record.
    fn record(&self) -> String;

    /// The structured board as one line of JSON (`ishi-board`, `docs/board.md`): the game's
    /// own fields and those every game shares (game, side to move, moves, last move, over,
    /// score).
    fn board(&self) -> String;

    /// Sets a search parameter by name.
    ///
    /// # Errors
    /// An unknown name or bad value.
    fn set_search_parameter(&mut self, name: &str, value: &str) -> Result<(), String>;

    /// Every search parameter as `name=value`.
    fn describe_parameters(&self) -> Vec<String>;

    /// Seconds spent thinking so far.
    fn thinking_seconds(&self) -> f64;

    /// The level in force.
    fn level(&self) -> Level;

    /// Sets the level of the next moves.
    fn set_level(&mut self, level: Level);

    /// The move `level` would choose for `color` now (or `resign`), without playing it and
    /// without touching the level in force, the clocks or the tree the next move reuses.
    ///
    /// # Errors
    /// As [`BoardGameEngine::generate_move`].
    fn hint(&mut self, color: Color, level: Level, stop: &AtomicBool) -> Result<String, String>;
}

/// The engine of one game without a pass.
pub struct BoardEngine<P: PlayableGame> {
    settings: Settings,
    options: GameOptions,
    game: P,
    params: SearchParams,
    search: GameSearch<P::Position>,
    clocks: Clocks,
    thinking_seconds: f64,
}

impl<P: PlayableGame> BoardEngine<P> {
    /// A new engine at the start position from the command-line settings.
    ///
    /// # Errors
    /// A bad size, option or `--param`.
    pub fn new(settings: &Settings) -> Result<BoardEngine<P>, String> {
        let options = GameOptions {
            size: settings.size,
            start: settings.start.clone(),
            max_plies: settings.max_plies,
            swap: true,
        };
        let mut params = SearchParams::default();
        let mut options = options;
        for (name, value) in &settings.parameters {
            if name == "swap" || name == "start" {
                P::set_option(&mut options, name, value)?;
            } else {
                params.set(name, value)?;
            }
        }
        let game = P::create(&options)?;
        let search = GameSearch::new(
            P::search_params(&params),
            settings.threads,
            settings.seed,
            settings.max_tree_megabytes.saturating_mul(1 << 20),
        );
        Ok(BoardEngine {
            settings: settings.clone(),
            options,
            game,
            params,
            search,
            clocks: settings.clocks(),
            thinking_seconds: 0.0,
        })
    }

    /// The game.
    pub fn game(&self) -> &P {
        &self.game
    }

    /// The limits of a move search for `color`: playouts from the settings or level, time
    /// from the clock, `--move-time`, or the default.
    fn move_limits(&self, color: Color) -> RunLimits {
        let budget = self
            .clocks
            .budget(color, self.game.time_points(), self.game.move_count());
        let clock_running = budget.is_some();
        let bounds = move_bounds(&self.settings, budget);
        RunLimits {
            playouts: bounds.playouts,
            soft_time: bounds.soft_time,
            hard_time: bounds.hard_time,
            // Stopping early banks time on a clock, or saves playouts under a playout bound;
            // a fixed time per move (`--move-time`, the default) is spent in full.
            early_stop: clock_running || bounds.soft_time.is_none(),
        }
    }

    /// Runs the search for `color` under `limits`.
    fn search(
        &mut self,
        color: Color,
        limits: &RunLimits,
        stop: &AtomicBool,
        report: Option<crate::search::driver::ChoiceReporter<'_>>,
    ) -> Choice {
        let started = Instant::now();
        let legal = self.game.legal_moves(color);
        let position = self.game.position();
        let moves = self.game.moves();
        let root = Root {
            position: &*position,
            to_move: color,
            legal: &legal,
            settings: self.game.playout_settings(&self.params),
            start_key: self.game.start_key(),
            moves: &moves,
        };
        let choice = self.search.run(root, limits, stop, report);
        log::info!(
            "{}: {} playouts in {:.2}s, win rate {:.3}, {} reused",
            P::KIND.name(),
            choice.playouts,
            started.elapsed().as_secs_f64(),
            choice.win_rate,
            choice.reused_visits
        );
        choice
    }

    /// Whether it is `color`'s turn (either colour may make Margo's first move).
    fn may_move(&self, color: Color) -> bool {
        self.game.to_move().is_none_or(|to_move| to_move == color)
    }
}

impl<P: PlayableGame> BoardGameEngine for BoardEngine<P> {
    fn kind(&self) -> GameKind {
        P::KIND
    }

    fn set_board_size(&mut self, size: usize) -> Result<(), String> {
        let options = GameOptions {
            size: Some(size),
            ..self.options.clone()
        };
        self.game = P::create(&options).map_err(|_| "unacceptable size".to_string())?;
        self.options = options;
        self.search.clear();
        self.clocks.new_game();
        Ok(())
    }

    fn clear_board(&mut self) {
        if let Ok(game) = P::create(&self.options) {
            self.game = game;
        }
        self.search.clear();
        self.clocks.new_game();
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let mut options = self.options.clone();
        P::set_option(&mut options, name, value)?;
        if name == "start" {
            self.game = P::create(&options)?;
        } else {
            self.game.apply_options(&options);
        }
        self.search.clear();
        self.options = options;
        Ok(())
    }

    fn play(&mut self, color: Color, text: &str) -> Result<(), String> {
        if self.game.is_over() || !self.may_move(color) {
            return Err("illegal move".to_string());
        }
        let index = self
            .game
            .parse_move(color, text)
            .map_err(|error| match error {
                MoveError::Syntax(message) => message,
                MoveError::Illegal(_) => "illegal move".to_string(),
            })?;
        self.game
            .play(color, index)
            .map_err(|_| "illegal move".to_string())
    }

    fn generate_move(
        &mut self,
        color: Color,
        stop: &AtomicBool,
        commit: bool,
    ) -> Result<String, String> {
        if self.game.is_over() || self.game.legal_moves(color).is_empty() && self.may_move(color) {
            return Err("game over".to_string());
        }
        if !self.may_move(color) {
            return Err(format!("not {color}'s turn"));
        }
        let started = Instant::now();
        let limits = self.move_limits(color);
        let own = self.game.own_player(&self.params, color, &limits, stop);
        let (best, win_rate, visits) = match own {
            Some((index, win_rate)) => (Some(index), win_rate, u64::MAX),
            None => {
                let choice = self.search(color, &limits, stop, None);
                (choice.best, choice.win_rate, choice.root_visits)
            }
        };
        let elapsed = started.elapsed();
        self.thinking_seconds += elapsed.as_secs_f64();
        let Some(index) = best else {
            return Err("game over".to_string());
        };
        let threshold = self.settings.resign_threshold;
        let past_opening = self.game.move_count() >= 10;
        if threshold > 0.0
            && past_opening
            && visits >= RESIGN_MINIMUM_VISITS
            && win_rate < threshold
        {
            if commit {
                self.clocks.charge(color, elapsed);
            }
            return Ok("resign".to_string());
        }
        let text = self.game.move_text(index);
        if commit {
            self.clocks.charge(color, elapsed);
            if let Err(reason) = self.game.play(color, index) {
                log::error!("the search chose an illegal move {text} ({reason})");
                return Err("internal error: no legal move chosen".to_string());
            }
        }
        Ok(text)
    }

    fn undo(&mut self) -> Result<(), String> {
        if self.game.undo() {
            Ok(())
        } else {
            Err("cannot undo".to_string())
        }
    }

    fn showboard(&self) -> String {
        self.game.showboard()
    }

    fn final_score(&self) -> String {
        self.game.final_score()
    }

    fn all_legal_moves(&self, color: Color) -> String {
        self.game
            .legal_moves(color)
            .into_iter()
            .map(|index| self.game.move_text(index))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn is_legal(&self, color: Color, text: &str) -> bool {
        matches!(self.illegal_reason(color, text), Ok(reason) if reason.is_empty())
    }

    fn illegal_reason(&self, color: Color, text: &str) -> Result<String, String> {
        if self.game.is_over() {
            return Ok("game_over".to_string());
        }
        if !self.may_move(color) {
            return Ok("wrong_turn".to_string());
        }
        match self.game.parse_move(color, text) {
            Ok(index) if self.game.legal_moves(color).contains(&index) => Ok(String::new()),
            Ok(_) => Ok("illegal".to_string()),
            Err(MoveError::Illegal(reason)) => Ok(reason.to_string()),
            Err(MoveError::Syntax(message)) => Err(message),
        }
    }

    fn perft(&self, depth: usize) -> u64 {
        self.game.perft(depth)
    }

    fn clocks(&mut self) -> &mut Clocks {
        &mut self.clocks
    }

    fn ponder(&mut self, stop: &AtomicBool, should_stop: &mut dyn FnMut() -> bool) {
        let Some(color) = self.game.to_move() else {
            return;
        };
        if self.game.is_over() {
            return;
        }
        let mut check = |_: &Choice| {
            if should_stop() {
                stop.store(true, Ordering::SeqCst);
            }
        };
        let limits = RunLimits::default();
        let choice = self.search(
            color,
            &limits,
            stop,
            Some((&mut check, Duration::from_millis(10))),
        );
        log::info!("pondered {} playouts", choice.playouts);
    }

    fn record(&self) -> String {
        self.game.record()
    }

    fn board(&self) -> String {
        let mut fields = serde_json::Map::new();
        fields.insert("game".into(), P::KIND.name().into());
        let to_move = self.game.to_move().filter(|_| !self.game.is_over());
        fields.insert("to_move".into(), color_field(to_move));
        fields.insert("moves".into(), self.game.move_count().into());
        let last = self
            .game
            .moves()
            .last()
            .map(|&index| self.game.move_text(index));
        fields.insert("last_move".into(), last.into());
        fields.insert("over".into(), self.game.is_over().into());
        fields.insert("score".into(), self.game.final_score().into());
        fields.extend(self.game.board_fields());
        serde_json::Value::Object(fields).to_string()
    }

    fn set_search_parameter(&mut self, name: &str, value: &str) -> Result<(), String> {
        if name == "swap" || name == "start" {
            return self.set_option(name, value);
        }
        let mut params = self.params.clone();
        params.set(name, value)?;
        self.params = params;
        self.search.set_params(P::search_params(&self.params));
        Ok(())
    }

    fn describe_parameters(&self) -> Vec<String> {
        self.params.describe()
    }

    fn thinking_seconds(&self) -> f64 {
        self.thinking_seconds
    }

    fn level(&self) -> Level {
        self.settings.level
    }

    fn set_level(&mut self, level: Level) {
        self.settings.level = level;
    }

    fn hint(&mut self, color: Color, level: Level, stop: &AtomicBool) -> Result<String, String> {
        let saved_level = self.settings.level;
        self.settings.level = level;
        let fresh = GameSearch::new(
            P::search_params(&self.params),
            self.settings.threads,
            self.settings.seed,
            self.settings.max_tree_megabytes.saturating_mul(1 << 20),
        );
        let main = std::mem::replace(&mut self.search, fresh);
        let answer = self.generate_move(color, stop, false);
        self.search = main;
        self.settings.level = saved_level;
        answer
    }
}

/// Keeps the time commands' error type in the engine's vocabulary.
pub fn time_left(
    engine: &mut dyn BoardGameEngine,
    color: Color,
    seconds: f64,
    stones: u32,
) -> Result<(), TimeError> {
    engine.clocks().set_time_left(color, seconds, stones)
}

/// Sets the time system of `engine`.
pub fn set_time_settings(engine: &mut dyn BoardGameEngine, settings: TimeSettings) {
    engine.clocks().set_settings(settings);
}

/// `B+n`, `W+n` or `0` from black's lead.
pub fn score_text(black_lead: i32) -> String {
    match black_lead {
        0 => "0".to_string(),
        lead if lead > 0 => format!("B+{lead}"),
        lead => format!("W+{}", -lead),
    }
}
