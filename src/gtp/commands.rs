//! The one command table: every GTP command ishi knows, by exact name, with its handler.
//! `list_commands` and `known_command` are derived from it. Handlers read typed arguments,
//! call the engine, and format its answer; they hold no game logic.

use crate::color::Color;
use crate::engine::{Decision, Engine, GameKind, Level, SetupError, StatusKind};
use crate::go::rules::board::IllegalMove;
use crate::go::rules::point::{move_text, point_at, vertex_text, Move, Point};
use crate::go::rules::rules::Rules;
use crate::gtp::analyze::{self, Dialect};
use crate::gtp::args::{self, SYNTAX_ERROR};
use crate::gtp::board_commands;
use crate::gtp::line::Command;
use crate::gtp::Session;
use crate::time::TimeSettings;
use std::sync::atomic::AtomicBool;

/// A command handler: reads the arguments, acts on the session, returns the answer's body or
/// the error text.
pub type Handler = fn(&mut Session, &[String]) -> Result<String, String>;

/// One row of the command table.
pub struct Entry {
    /// The exact command name.
    pub name: &'static str,
    /// What runs it.
    pub handler: Handler,
}

/// Every command, in the order `list_commands` prints them.
pub static COMMANDS: &[Entry] = &[
    Entry {
        name: "protocol_version",
        handler: protocol_version,
    },
    Entry {
        name: "name",
        handler: name,
    },
    Entry {
        name: "version",
        handler: version,
    },
    Entry {
        name: "known_command",
        handler: known_command,
    },
    Entry {
        name: "list_commands",
        handler: list_commands,
    },
    Entry {
        name: "quit",
        handler: quit,
    },
    Entry {
        name: "ishi-game",
        handler: ishi_game,
    },
    Entry {
        name: "ishi-level",
        handler: ishi_level,
    },
    Entry {
        name: "ishi-hint",
        handler: ishi_hint,
    },
    Entry {
        name: "ishi-illegal_reason",
        handler: ishi_illegal_reason,
    },
    Entry {
        name: "boardsize",
        handler: boardsize,
    },
    Entry {
        name: "clear_board",
        handler: clear_board,
    },
    Entry {
        name: "komi",
        handler: komi,
    },
    Entry {
        name: "get_komi",
        handler: get_komi,
    },
    Entry {
        name: "play",
        handler: play,
    },
    Entry {
        name: "genmove",
        handler: genmove,
    },
    Entry {
        name: "reg_genmove",
        handler: reg_genmove,
    },
    Entry {
        name: "kgs-genmove_cleanup",
        handler: kgs_genmove_cleanup,
    },
    Entry {
        name: "undo",
        handler: undo,
    },
    Entry {
        name: "showboard",
        handler: showboard,
    },
    Entry {
        name: "fixed_handicap",
        handler: fixed_handicap,
    },
    Entry {
        name: "place_free_handicap",
        handler: place_free_handicap,
    },
    Entry {
        name: "set_free_handicap",
        handler: set_free_handicap,
    },
    Entry {
        name: "time_settings",
        handler: time_settings,
    },
    Entry {
        name: "time_left",
        handler: time_left,
    },
    Entry {
        name: "kgs-time_settings",
        handler: kgs_time_settings,
    },
    Entry {
        name: "final_score",
        handler: final_score,
    },
    Entry {
        name: "ishi-score_dead",
        handler: ishi_score_dead,
    },
    Entry {
        name: "ishi-board",
        handler: ishi_board,
    },
    Entry {
        name: "final_status_list",
        handler: final_status_list,
    },
    Entry {
        name: "loadsgf",
        handler: loadsgf,
    },
    Entry {
        name: "printsgf",
        handler: printsgf,
    },
    Entry {
        name: "is_legal",
        handler: is_legal,
    },
    Entry {
        name: "captures",
        handler: captures,
    },
    Entry {
        name: "cputime",
        handler: cputime,
    },
    Entry {
        name: "kgs-rules",
        handler: kgs_rules,
    },
    Entry {
        name: "kgs-game_over",
        handler: kgs_game_over,
    },
    Entry {
        name: "kata-set-rules",
        handler: kata_set_rules,
    },
    Entry {
        name: "kata-get-rules",
        handler: kata_get_rules,
    },
    Entry {
        name: "kata-raw-nn",
        handler: kata_raw_nn,
    },
    Entry {
        name: "ishi-capture_target",
        handler: capture_target,
    },
    Entry {
        name: "gogui-interrupt",
        handler: gogui_interrupt,
    },
    Entry {
        name: "gogui-setup",
        handler: gogui_setup,
    },
    Entry {
        name: "gogui-setup_player",
        handler: gogui_setup_player,
    },
    Entry {
        name: "gogui-play_sequence",
        handler: gogui_play_sequence,
    },
    // Analysis for GUIs (src/gtp/analyze.rs): Leela Zero's and KataGo's live analysis and
    // GoGui's analyze commands.
    Entry {
        name: "lz-analyze",
        handler: lz_analyze,
    },
    Entry {
        name: "kata-analyze",
        handler: kata_analyze,
    },
    Entry {
        name: "lz-genmove_analyze",
        handler: lz_genmove_analyze,
    },
    Entry {
        name: "kata-genmove_analyze",
        handler: kata_genmove_analyze,
    },
    Entry {
        name: "gogui-analyze_commands",
        handler: gogui_analyze_commands,
    },
    Entry {
        name: analyze::GOGUI_OWNERSHIP,
        handler: analyze::gogui_ownership_command,
    },
    Entry {
        name: analyze::GOGUI_OWNERSHIP_SHADING,
        handler: analyze::gogui_ownership_shading_command,
    },
    Entry {
        name: analyze::GOGUI_WIN_RATES,
        handler: analyze::gogui_win_rates_command,
    },
    Entry {
        name: analyze::GOGUI_VISITS,
        handler: analyze::gogui_visits_command,
    },
    Entry {
        name: analyze::GOGUI_PRINCIPAL_VARIATION,
        handler: analyze::gogui_principal_variation_command,
    },
    Entry {
        name: analyze::GOGUI_STATISTICS,
        handler: analyze::gogui_statistics_command,
    },
    Entry {
        name: analyze::GOGUI_DEAD_STONES,
        handler: analyze::gogui_dead_stones_command,
    },
    Entry {
        name: analyze::GOGUI_PARAMETERS,
        handler: analyze::gogui_parameters_command,
    },
];

/// The commands of the game in force: Go's table, or the shared table of the games without
/// a pass followed by the game's own.
pub fn command_table(session: &Session) -> Vec<&'static Entry> {
    match session.board_game.as_deref() {
        None => COMMANDS.iter().collect(),
        Some(engine) => board_commands::BOARD_GAME_COMMANDS
            .iter()
            .chain(board_commands::game_commands(engine.kind()))
            .collect(),
    }
}

/// Finds the handler of `command` by exact name among the commands of the game in force and
/// runs it; a Go command sent while another game is in force answers `not available in
/// GAME`.
pub fn dispatch(session: &mut Session, command: &Command) -> Result<String, String> {
    let found = command_table(session)
        .into_iter()
        .find(|entry| entry.name == command.name);
    match (found, session.board_game.as_deref()) {
        (Some(entry), _) => (entry.handler)(session, &command.arguments),
        (None, Some(engine)) if is_known_anywhere(&command.name) => {
            Err(format!("not available in {}", engine.kind().name()))
        }
        (None, _) => Err("unknown command".to_string()),
    }
}

/// Whether any game's table has the command `name`.
fn is_known_anywhere(name: &str) -> bool {
    COMMANDS
        .iter()
        .chain(board_commands::BOARD_GAME_COMMANDS)
        .chain(board_commands::MARGO_COMMANDS)
        .chain(board_commands::ABALONE_COMMANDS)
        .any(|entry| entry.name == name)
}

/// `ishi-level [easy|medium|hard]`: sets the level of the next moves, or answers the level in
/// force.
pub(crate) fn ishi_level(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    if arguments.is_empty() {
        let level = match session.board_game.as_deref() {
            Some(engine) => engine.level(),
            None => session.engine.level(),
        };
        return Ok(level.name().to_string());
    }
    args::expect_count(arguments, 1)?;
    let level = Level::parse(args::argument(arguments, 0)?)
        .ok_or_else(|| "unknown level (easy, medium, hard)".to_string())?;
    match session.board_game.as_deref_mut() {
        Some(engine) => engine.set_level(level),
        None => session.engine.set_level(level),
    }
    Ok(String::new())
}

/// The level argument at `index` of a hint, `hard` when absent.
pub(crate) fn hint_level(arguments: &[String], index: usize) -> Result<Level, String> {
    match arguments.get(index) {
        None => Ok(Level::Hard),
        Some(text) => {
            Level::parse(text).ok_or_else(|| "unknown level (easy, medium, hard)".to_string())
        }
    }
}

/// `ishi-hint COLOR [LEVEL]`: the move LEVEL (default hard) would choose now, not played.
fn ishi_hint(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    if arguments.is_empty() || arguments.len() > 2 {
        return Err(SYNTAX_ERROR.to_string());
    }
    let color = args::color(arguments, 0)?;
    let level = hint_level(arguments, 1)?;
    let interrupt = session.interrupt.clone();
    let decision = session.engine.hint(color, level, &interrupt);
    Ok(decision_text(decision, session.engine.game().size()))
}

/// `ishi-illegal_reason COLOR VERTEX`: empty when legal, else `occupied`, `suicide`, `ko`,
/// `superko` or `off_board`.
fn ishi_illegal_reason(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 2)?;
    let color = args::color(arguments, 0)?;
    let size = session.engine.game().size();
    let chosen = match args::vertex(arguments, 1, size) {
        Ok(chosen) => chosen,
        Err(error) if error == SYNTAX_ERROR => return Err(error),
        Err(_) => return Ok("off_board".to_string()),
    };
    Ok(match session.engine.illegal_reason(color, chosen) {
        None => String::new(),
        Some(IllegalMove::Occupied) => "occupied".to_string(),
        Some(IllegalMove::Suicide) => "suicide".to_string(),
        Some(IllegalMove::Ko) => "ko".to_string(),
        Some(IllegalMove::Superko) => "superko".to_string(),
        Some(IllegalMove::OffBoard) => "off_board".to_string(),
    })
}

/// `ishi-game NAME`: a new, empty game of that kind; without an argument, the current name.
pub(crate) fn ishi_game(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    let current = session
        .board_game
        .as_deref()
        .map_or(GameKind::Go, |engine| engine.kind());
    if arguments.is_empty() {
        return Ok(current.name().to_string());
    }
    args::expect_count(arguments, 1)?;
    let kind =
        GameKind::parse(args::argument(arguments, 0)?).ok_or_else(|| "unknown game".to_string())?;
    session.board_game = crate::engine::new_board_game(kind, &session.settings)?;
    if kind == GameKind::Go {
        session.engine.clear_board();
    }
    Ok(String::new())
}

/// Work done between commands: with `--ponder`, think on the position until the next line
/// arrives.
pub fn after_command(session: &mut Session) {
    if !session.engine.settings().ponder || session.input_pending() {
        return;
    }
    let stop = std::sync::atomic::AtomicBool::new(false);
    let input = session.input.clone();
    match session.board_game.as_deref_mut() {
        Some(engine) => engine.ponder(&stop, &mut || !input.is_empty()),
        None => session.engine.ponder(&stop, &mut || !input.is_empty()),
    }
}

pub(crate) fn protocol_version(_: &mut Session, _: &[String]) -> Result<String, String> {
    Ok("2".to_string())
}

pub(crate) fn name(_: &mut Session, _: &[String]) -> Result<String, String> {
    Ok("ishi".to_string())
}

pub(crate) fn version(session: &mut Session, _: &[String]) -> Result<String, String> {
    Ok(session
        .engine
        .settings()
        .version_override
        .clone()
        .unwrap_or_else(|| env!("CARGO_PKG_VERSION").to_string()))
}

pub(crate) fn known_command(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    let wanted = args::argument(arguments, 0)?;
    let known = command_table(session)
        .iter()
        .any(|entry| entry.name == wanted);
    Ok(known.to_string())
}

pub(crate) fn list_commands(session: &mut Session, _: &[String]) -> Result<String, String> {
    Ok(command_table(session)
        .iter()
        .map(|entry| entry.name)
        .collect::<Vec<_>>()
        .join("\n"))
}

pub(crate) fn quit(session: &mut Session, _: &[String]) -> Result<String, String> {
    session.quit = true;
    Ok(String::new())
}

fn boardsize(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    let size = args::board_size(arguments)?;
    session
        .engine
        .set_board_size(size)
        .map(|_| String::new())
        .map_err(|_| "unacceptable size".to_string())
}

fn clear_board(session: &mut Session, _: &[String]) -> Result<String, String> {
    session.engine.clear_board();
    Ok(String::new())
}

fn komi(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    let value = args::float(arguments, 0)?;
    session.engine.set_komi(value);
    Ok(String::new())
}

fn get_komi(session: &mut Session, _: &[String]) -> Result<String, String> {
    Ok(session.engine.game().komi().to_string())
}

fn play(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 2)?;
    let color = args::color(arguments, 0)?;
    let size = session.engine.game().size();
    let chosen = args::vertex(arguments, 1, size)?;
    session
        .engine
        .play(color, chosen)
        .map(|_| String::new())
        .map_err(|_| "illegal move".to_string())
}

fn decision_text(decision: Decision, size: usize) -> String {
    match decision {
        Decision::Play(chosen) => move_text(chosen, size),
        Decision::Resign => "resign".to_string(),
    }
}

/// A move command: `COLOR` in, the engine's decision out.
fn move_command(
    session: &mut Session,
    arguments: &[String],
    decide: fn(&mut Engine, Color, &AtomicBool) -> Decision,
) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let color = args::color(arguments, 0)?;
    let interrupt = session.interrupt.clone();
    let decision = decide(&mut session.engine, color, &interrupt);
    Ok(decision_text(decision, session.engine.game().size()))
}

fn genmove(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    move_command(session, arguments, Engine::generate_move)
}

fn kgs_genmove_cleanup(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    move_command(session, arguments, Engine::generate_cleanup_move)
}

fn reg_genmove(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    move_command(session, arguments, Engine::choose_move)
}

fn undo(session: &mut Session, _: &[String]) -> Result<String, String> {
    session
        .engine
        .undo()
        .map(|_| String::new())
        .map_err(|_| "cannot undo".to_string())
}

fn showboard(session: &mut Session, _: &[String]) -> Result<String, String> {
    let game = session.engine.game();
    let board = game.board();
    Ok(format!(
        "\n{board}\nBlack captured {}, White captured {}; {} to move; komi {}; rules {}",
        board.captures(Color::Black),
        board.captures(Color::White),
        game.to_move(),
        game.komi(),
        game.rules()
    ))
}

fn vertex_list(points: &[Point], size: usize) -> String {
    points
        .iter()
        .map(|&point| vertex_text(point, size))
        .collect::<Vec<_>>()
        .join(" ")
}

fn fixed_handicap(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let count = args::integer(arguments, 0)? as usize;
    let points = session
        .engine
        .fixed_handicap(count)
        .map_err(|error| error.to_string())?;
    Ok(vertex_list(&points, session.engine.game().size()))
}

fn place_free_handicap(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let count = args::integer(arguments, 0)? as usize;
    let points = session
        .engine
        .place_free_handicap(count)
        .map_err(|error| error.to_string())?;
    Ok(vertex_list(&points, session.engine.game().size()))
}

fn set_free_handicap(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    let size = session.engine.game().size();
    let mut points = Vec::with_capacity(arguments.len());
    for index in 0..arguments.len() {
        match args::vertex(arguments, index, size) {
            Ok(Move::Place(point)) => points.push(point),
            _ => return Err(SetupError::BadVertexList.to_string()),
        }
    }
    session
        .engine
        .set_free_handicap(&points)
        .map(|_| String::new())
        .map_err(|error| error.to_string())
}

pub(crate) fn time_settings(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 3)?;
    let main = args::float(arguments, 0)?;
    let period = args::float(arguments, 1)?;
    let stones = args::integer(arguments, 2)?;
    let settings = TimeSettings::from_time_settings(main, period, stones)
        .map_err(|_| SYNTAX_ERROR.to_string())?;
    if !board_commands::set_time_settings(session, settings) {
        session.engine.set_time_settings(settings);
    }
    Ok(String::new())
}

pub(crate) fn time_left(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 3)?;
    let color = args::color(arguments, 0)?;
    let seconds = args::float(arguments, 1)?;
    let stones = args::integer(arguments, 2)?;
    let result = match session.board_game.as_deref_mut() {
        Some(engine) => crate::engine::board_game::time_left(engine, color, seconds, stones),
        None => session.engine.set_time_left(color, seconds, stones),
    };
    result
        .map(|_| String::new())
        .map_err(|_| SYNTAX_ERROR.to_string())
}

pub(crate) fn kgs_time_settings(
    session: &mut Session,
    arguments: &[String],
) -> Result<String, String> {
    let words: Vec<&str> = arguments.iter().map(String::as_str).collect();
    let settings =
        TimeSettings::from_kgs_arguments(&words).map_err(|_| SYNTAX_ERROR.to_string())?;
    if !board_commands::set_time_settings(session, settings) {
        session.engine.set_time_settings(settings);
    }
    Ok(String::new())
}

fn loadsgf(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    if arguments.is_empty() || arguments.len() > 2 {
        return Err(SYNTAX_ERROR.to_string());
    }
    let path = args::argument(arguments, 0)?;
    let before_move = if arguments.len() == 2 {
        Some(args::integer(arguments, 1)? as usize)
    } else {
        None
    };
    match session.engine.load_sgf(path, before_move) {
        Ok(color) => Ok(color.to_string()),
        Err(message) => {
            log::warn!("loadsgf: {message}");
            Err("cannot load file".to_string())
        }
    }
}

fn printsgf(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    let text = session.engine.game_record();
    match arguments.first() {
        None => Ok(text),
        Some(path) => std::fs::write(path, text + "\n")
            .map(|_| String::new())
            .map_err(|error| format!("cannot write file: {error}")),
    }
}

fn final_score(session: &mut Session, _: &[String]) -> Result<String, String> {
    Ok(session.engine.final_score().to_string())
}

/// `ishi-score_dead [VERTEX ...]`: the score with exactly the chains through the vertices
/// dead (the players' agreement at the end of a game), as `final_score` writes it.
fn ishi_score_dead(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    let size = session.engine.game().size();
    let mut dead = Vec::with_capacity(arguments.len());
    for index in 0..arguments.len() {
        match args::vertex(arguments, index, size)? {
            Move::Place(point) => dead.push(point),
            Move::Pass => return Err(SYNTAX_ERROR.to_string()),
        }
    }
    Ok(session.engine.score_with_dead(&dead).to_string())
}

/// `ishi-board`: the structured board as one line of JSON (`docs/board.md`): every stone by
/// row from the top, side to move, last move, ko point, captures, passes, rules and komi.
fn ishi_board(session: &mut Session, _: &[String]) -> Result<String, String> {
    let game = session.engine.game();
    let board = game.board();
    let size = game.size();
    let stones: Vec<String> = (0..size)
        .rev()
        .map(|row| {
            (0..size)
                .map(|column| match board.stone(point_at(column, row, size)) {
                    Some(Color::Black) => 'X',
                    Some(Color::White) => 'O',
                    None => '.',
                })
                .collect()
        })
        .collect();
    // After two passes play may go on (the players disagree on the dead stones): the side
    // to move stays named; a capture game that has been won has none.
    let won = game.capture_winner().is_some();
    let over = game.both_passed() || won;
    let to_move = (!won).then(|| game.to_move());
    let last_move = game
        .moves()
        .last()
        .map(|(_, chosen)| move_text(chosen, size));
    let ko = to_move
        .and_then(|color| board.ko_point_for(color))
        .map(|point| vertex_text(point, size));
    let view = serde_json::json!({
        "game": "go",
        "to_move": crate::engine::board_game::color_field(to_move),
        "moves": game.move_count(),
        "last_move": last_move,
        "over": over,
        "size": size,
        "rules": game.rules().to_string(),
        "komi": game.komi(),
        "stones": stones,
        "ko": ko,
        "captures": {"b": board.captures(Color::Black), "w": board.captures(Color::White)},
        "passes": game.consecutive_passes(),
    });
    Ok(view.to_string())
}

fn final_status_list(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let kind = match args::argument(arguments, 0)?.to_ascii_lowercase().as_str() {
        "alive" => StatusKind::Alive,
        "dead" => StatusKind::Dead,
        "seki" => StatusKind::Seki,
        _ => return Err(SYNTAX_ERROR.to_string()),
    };
    let size = session.engine.game().size();
    let chains = session.engine.final_status_list(kind);
    Ok(chains
        .iter()
        .map(|chain| vertex_list(chain, size))
        .collect::<Vec<_>>()
        .join("\n"))
}

fn is_legal(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 2)?;
    let color = args::color(arguments, 0)?;
    let size = session.engine.game().size();
    let legal = match args::vertex(arguments, 1, size) {
        Ok(chosen) => session.engine.is_legal(color, chosen),
        Err(error) if error == SYNTAX_ERROR => return Err(error),
        Err(_) => false,
    };
    Ok(if legal { "1" } else { "0" }.to_string())
}

fn captures(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let color = args::color(arguments, 0)?;
    Ok(session.engine.game().board().captures(color).to_string())
}

fn cputime(session: &mut Session, _: &[String]) -> Result<String, String> {
    Ok(format!("{:.3}", session.engine.thinking_seconds()))
}

fn kgs_rules(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let rules = Rules::from_kgs_name(args::argument(arguments, 0)?)
        .ok_or_else(|| "unknown rules".to_string())?;
    session.engine.set_rules(rules);
    Ok(String::new())
}

fn kgs_game_over(_: &mut Session, _: &[String]) -> Result<String, String> {
    // The game may only be adjourned: keep the board as it is.
    Ok(String::new())
}

fn kata_set_rules(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    if arguments.is_empty() {
        return Err(SYNTAX_ERROR.to_string());
    }
    let text = arguments.join(" ");
    let rules = if text.trim_start().starts_with('{') {
        Rules::from_kata_json(&text)?
    } else {
        text.parse::<Rules>().map_err(|error| error.to_string())?
    };
    session.engine.set_rules(rules);
    Ok(String::new())
}

fn kata_get_rules(session: &mut Session, _: &[String]) -> Result<String, String> {
    Ok(session.engine.game().rules().to_kata_json())
}

/// `kata-raw-nn [COLOR] SYMMETRY`: the value network's own answer for the position, with
/// COLOR (default: the side to move) to move, the board seen under SYMMETRY (0 to 7, or
/// `all` for each in turn), in KataGo's form: `whiteWin`, `whiteLoss`, `noResult`,
/// `whiteLead`, the `policy` rows from the top (`NAN` where COLOR may not play),
/// `policyPass` and the `whiteOwnership` rows. The lines KataGo adds that ishi's network
/// does not compute are left out, and no blank line parts the symmetries (it would end the
/// answer).
fn kata_raw_nn(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    let (color, rest) = match args::color(arguments, 0) {
        Ok(color) => (color, &arguments[1..]),
        Err(_) => (session.engine.game().to_move(), arguments),
    };
    let symmetries: Vec<usize> = match rest {
        [word] if word.eq_ignore_ascii_case("all") => (0..8).collect(),
        [word] => match word.parse::<usize>() {
            Ok(symmetry) if symmetry < 8 => vec![symmetry],
            _ => return Err(format!("expected a symmetry 'all' or 0 to 7, not '{word}'")),
        },
        [] => return Err("expected a symmetry 'all' or 0 to 7".to_string()),
        _ => return Err(SYNTAX_ERROR.to_string()),
    };
    let size = session.engine.game().size();
    let mut lines = Vec::new();
    for symmetry in symmetries {
        let raw = session.engine.raw_network(color, symmetry)?;
        // The network speaks for the mover; KataGo's lines speak for White.
        let white = if color == Color::White { 1.0 } else { -1.0 };
        let white_win = if color == Color::White {
            raw.win
        } else {
            1.0 - raw.win
        };
        lines.push(format!("symmetry {symmetry}"));
        lines.push(format!("whiteWin {white_win:.6}"));
        lines.push(format!("whiteLoss {:.6}", 1.0 - white_win));
        lines.push("noResult 0.000000".to_string());
        lines.push(format!("whiteLead {:.3}", white * raw.lead));
        lines.push("policy".to_string());
        for row in (0..size).rev() {
            let cells: Vec<String> = raw.policy[row * size..(row + 1) * size]
                .iter()
                .map(|probability| match probability {
                    Some(probability) => format!("{probability:8.6}"),
                    None => "     NAN".to_string(),
                })
                .collect();
            lines.push(cells.join(" "));
        }
        lines.push(format!("policyPass {:8.6}", raw.pass));
        lines.push("whiteOwnership".to_string());
        for row in (0..size).rev() {
            let cells: Vec<String> = raw.ownership[row * size..(row + 1) * size]
                .iter()
                .map(|owner| format!("{:10.7}", white * owner))
                .collect();
            lines.push(cells.join(" "));
        }
    }
    Ok(lines.join("\n"))
}

fn capture_target(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let target = args::integer(arguments, 0)?;
    if target == 0 {
        return Err("capture target must be at least 1".to_string());
    }
    session.engine.set_rules(Rules::capture(target));
    Ok(String::new())
}

pub(crate) fn gogui_interrupt(_: &mut Session, _: &[String]) -> Result<String, String> {
    // Announces that `# interrupt` lines are understood; the reader thread acts on them.
    Ok(String::new())
}

fn gogui_setup(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    if !arguments.len().is_multiple_of(2) {
        return Err(SYNTAX_ERROR.to_string());
    }
    let size = session.engine.game().size();
    let mut stones = Vec::new();
    for pair in 0..arguments.len() / 2 {
        let color = args::color(arguments, pair * 2)?;
        match args::vertex(arguments, pair * 2 + 1, size) {
            Ok(Move::Place(point)) => stones.push((color, point)),
            _ => return Err(SetupError::BadVertexList.to_string()),
        }
    }
    session
        .engine
        .setup(&stones)
        .map(|_| String::new())
        .map_err(|error| error.to_string())
}

fn gogui_setup_player(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let color = args::color(arguments, 0)?;
    session.engine.set_to_move(color);
    Ok(String::new())
}

fn gogui_play_sequence(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    if !arguments.len().is_multiple_of(2) {
        return Err(SYNTAX_ERROR.to_string());
    }
    let size = session.engine.game().size();
    let mut moves = Vec::new();
    for pair in 0..arguments.len() / 2 {
        let color = args::color(arguments, pair * 2)?;
        let chosen = args::vertex(arguments, pair * 2 + 1, size)?;
        moves.push((color, chosen));
    }
    session
        .engine
        .play_sequence(&moves)
        .map(|_| String::new())
        .map_err(|_| "illegal move".to_string())
}

// Analysis for GUIs: the dialect chosen by name; the work is in `analyze`.

fn lz_analyze(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    analyze::analyze(session, Dialect::LeelaZero, arguments)
}

fn kata_analyze(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    analyze::analyze(session, Dialect::KataGo, arguments)
}

fn lz_genmove_analyze(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    analyze::genmove_analyze(session, Dialect::LeelaZero, arguments)
}

fn kata_genmove_analyze(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    analyze::genmove_analyze(session, Dialect::KataGo, arguments)
}

fn gogui_analyze_commands(_: &mut Session, _: &[String]) -> Result<String, String> {
    Ok(analyze::gogui_analyze_commands())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_names_are_unique() {
        let mut names: Vec<&str> = COMMANDS.iter().map(|entry| entry.name).collect();
        names.sort_unstable();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count);
    }
}
