//! Abalone as a [`PlayableGame`]: the rules core's [`Game`] (history, undo, the ply cap)
//! behind the engine's narrow interface, in AbaPro notation; its alpha-beta player is the
//! engine's alternative to the MCTS. Knows the Abalone rules core, its search position and
//! alpha-beta; nothing of GTP.

use crate::abalone::alphabeta::{AlphaBeta, Limits};
use crate::abalone::evaluation::Weights;
use crate::abalone::search::AbalonePlayer;
use crate::abalone::{perft, Board, Cell, Game, Move, ParseMoveError, Start};
use crate::color::Color;
use crate::engine::board_game::{color_field, score_text, GameOptions, MoveError, PlayableGame};
use crate::engine::GameKind;
use crate::search::domain::SearchGame;
use crate::search::driver::RunLimits;
use crate::search::SearchParams;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// An Abalone game for the engine.
pub struct AbaloneGame {
    game: Game,
    start: Start,
    /// The alpha-beta player, made on first use (its table is large).
    alphabeta: Option<AlphaBeta>,
}

impl PlayableGame for AbaloneGame {
    type Position = Board;

    const KIND: GameKind = GameKind::Abalone;

    fn create(options: &GameOptions) -> Result<AbaloneGame, String> {
        if options.size.is_some_and(|size| size != 9) {
            return Err("unacceptable size".to_string());
        }
        let start = Start::parse(&options.start).ok_or_else(|| {
            format!(
                "unknown start {} (standard, belgian, german)",
                options.start
            )
        })?;
        let plies = u16::try_from(options.max_plies).unwrap_or(u16::MAX);
        Ok(AbaloneGame {
            game: Game::with_max_plies(start, plies),
            start,
            alphabeta: None,
        })
    }

    fn parse_move(&self, color: Color, text: &str) -> Result<u16, MoveError> {
        match self.game.parse_move(color, text) {
            Ok(chosen) => Ok(chosen.index()),
            Err(ParseMoveError::Syntax(_)) => Err(MoveError::Syntax("syntax error".into())),
            Err(ParseMoveError::Illegal(reason)) => Err(MoveError::Illegal(reason.reason())),
        }
    }

    fn move_text(&self, index: u16) -> String {
        Move::from_index(index)
            .map(|chosen| chosen.to_string())
            .unwrap_or_default()
    }

    fn to_move(&self) -> Option<Color> {
        Some(self.game.to_move())
    }

    fn legal_moves(&self, color: Color) -> Vec<u16> {
        if self.game.to_move() != color {
            return Vec::new();
        }
        let mut moves = Vec::new();
        self.game.legal_moves(&mut moves);
        let mut indices: Vec<u16> = moves.into_iter().map(Move::index).collect();
        indices.sort_unstable();
        indices
    }

    fn play(&mut self, color: Color, index: u16) -> Result<(), &'static str> {
        let chosen = Move::from_index(index).ok_or("not_own_line")?;
        self.game
            .play(color, chosen)
            .map_err(|reason| reason.reason())
    }

    fn undo(&mut self) -> bool {
        self.game.undo()
    }

    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    fn final_score(&self) -> String {
        score_text(self.game.score())
    }

    fn showboard(&self) -> String {
        self.game.showboard()
    }

    fn perft(&self, depth: usize) -> u64 {
        perft(self.game.board(), depth as u32)
    }

    fn position(&self) -> Box<Board> {
        let mut position = Board::blank();
        position.copy_from(self.game.board());
        position
    }

    fn moves(&self) -> Vec<u16> {
        self.game.moves().map(Move::index).collect()
    }

    fn move_count(&self) -> usize {
        usize::from(self.game.ply())
    }

    fn start_key(&self) -> u64 {
        (self.start as u64) << 16 | u64::from(self.game.max_plies())
    }

    fn time_points(&self) -> usize {
        ABALONE_TIME_POINTS
    }

    fn playout_settings(&self, params: &SearchParams) -> <Board as SearchGame>::Settings {
        crate::abalone::search::settings(params)
    }

    fn search_params(base: &SearchParams) -> SearchParams {
        crate::abalone::search::abalone_search_params(base)
    }

    fn record(&self) -> String {
        self.game
            .moves()
            .enumerate()
            .map(|(number, played)| format!("{} {played}", number + 1))
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn board_fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let board = self.game.board();
        let marbles: Vec<serde_json::Value> = Cell::all()
            .filter_map(|cell| {
                let color = board.at(cell)?;
                Some(serde_json::json!({"cell": cell.to_string(), "color": color_field(Some(color))}))
            })
            .collect();
        let mut fields = serde_json::Map::new();
        fields.insert("start".into(), self.start.name().into());
        fields.insert("marbles".into(), marbles.into());
        fields.insert(
            "ejected".into(),
            serde_json::json!({
                "b": self.game.ejected(Color::Black),
                "w": self.game.ejected(Color::White),
            }),
        );
        fields.insert("ply".into(), self.game.ply().into());
        fields.insert("max_plies".into(), self.game.max_plies().into());
        fields
    }

    fn set_option(options: &mut GameOptions, name: &str, value: &str) -> Result<(), String> {
        match name {
            "start" if Start::parse(value).is_some() => {
                options.start = value.to_ascii_lowercase();
                Ok(())
            }
            _ => Err(format!("unknown start {value} (standard, belgian, german)")),
        }
    }

    fn own_player(
        &mut self,
        params: &SearchParams,
        color: Color,
        limits: &RunLimits,
        stop: &AtomicBool,
    ) -> Option<(u16, f64)> {
        let player = AbalonePlayer::from_params(params).unwrap_or(AbalonePlayer::Mcts);
        if player != AbalonePlayer::AlphaBeta || self.game.to_move() != color {
            return None;
        }
        let started = Instant::now();
        let time = limits.hard_time.or(limits.soft_time);
        let search_limits = Limits {
            depth: None,
            // A level's playouts become alpha-beta nodes at this rate (about equal time).
            nodes: limits
                .playouts
                .map(|playouts| playouts.saturating_mul(NODES_PER_PLAYOUT)),
            deadline: time.map(|time| started + time),
        };
        let alphabeta = self
            .alphabeta
            .get_or_insert_with(|| AlphaBeta::new(ALPHABETA_TABLE_ENTRIES, Weights::default()));
        // A fresh table for every move: node-limited searches repeat exactly, and a hint
        // leaves nothing behind for the next move.
        alphabeta.clear();
        alphabeta.set_earlier_positions(self.game.earlier_hashes());
        let result = alphabeta.search(self.game.board(), &search_limits, stop);
        let best = result.best_move?;
        let scale = params.abalone_evaluation_scale.max(1.0);
        let win_rate = 1.0 / (1.0 + (-f64::from(result.score) / scale).exp());
        log::info!(
            "abalone alpha-beta: depth {}, {} nodes in {:.2}s, score {}",
            result.depth,
            result.nodes,
            started.elapsed().as_secs_f64(),
            result.score
        );
        Some((best.index(), win_rate))
    }
}

/// Alpha-beta nodes per MCTS playout when a level or `--playouts` bounds the work.
const NODES_PER_PLAYOUT: u64 = 50;

/// Entries of the alpha-beta transposition table (16 bytes each).
const ALPHABETA_TABLE_ENTRIES: usize = 1 << 20;

/// Abalone's length scale for the clock (games run about 90 plies, often more).
const ABALONE_TIME_POINTS: usize = 120;
