//! The command table of the games without a pass (Margo, Abalone; `games-protocol.md`):
//! the commands every game shares (framing, `name`, the time commands, `ishi-game`) are the
//! same handlers as Go's; the rest reach the [`BoardGameEngine`] in force, which parses and
//! formats the game's own move text. A game-only command has its own small table. Holds no
//! game logic.

use crate::engine::board_game::{self, BoardGameEngine};
use crate::engine::GameKind;
use crate::gtp::args::{self, SYNTAX_ERROR};
use crate::gtp::commands::{self, Entry};
use crate::gtp::Session;

/// Every command of the games without a pass, in the order `list_commands` prints them.
pub static BOARD_GAME_COMMANDS: &[Entry] = &[
    Entry {
        name: "protocol_version",
        handler: commands::protocol_version,
    },
    Entry {
        name: "name",
        handler: commands::name,
    },
    Entry {
        name: "version",
        handler: commands::version,
    },
    Entry {
        name: "known_command",
        handler: commands::known_command,
    },
    Entry {
        name: "list_commands",
        handler: commands::list_commands,
    },
    Entry {
        name: "quit",
        handler: commands::quit,
    },
    Entry {
        name: "ishi-game",
        handler: commands::ishi_game,
    },
    Entry {
        name: "ishi-level",
        handler: commands::ishi_level,
    },
    Entry {
        name: "ishi-hint",
        handler: hint,
    },
    Entry {
        name: "ishi-illegal_reason",
        handler: illegal_reason,
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
        name: "undo",
        handler: undo,
    },
    Entry {
        name: "showboard",
        handler: showboard,
    },
    Entry {
        name: "final_score",
        handler: final_score,
    },
    Entry {
        name: "ishi-board",
        handler: board,
    },
    Entry {
        name: "all_legal_moves",
        handler: all_legal_moves,
    },
    Entry {
        name: "is_legal",
        handler: is_legal,
    },
    Entry {
        name: "ishi-perft",
        handler: perft,
    },
    Entry {
        name: "printsgf",
        handler: record,
    },
    Entry {
        name: "ishi-record",
        handler: record,
    },
    Entry {
        name: "time_settings",
        handler: commands::time_settings,
    },
    Entry {
        name: "time_left",
        handler: commands::time_left,
    },
    Entry {
        name: "kgs-time_settings",
        handler: commands::kgs_time_settings,
    },
    Entry {
        name: "cputime",
        handler: cputime,
    },
    Entry {
        name: "gogui-interrupt",
        handler: commands::gogui_interrupt,
    },
    Entry {
        name: "ishi-param",
        handler: parameter,
    },
];

/// Margo's own commands.
pub static MARGO_COMMANDS: &[Entry] = &[Entry {
    name: "ishi-swap",
    handler: swap,
}];

/// Abalone's own commands.
pub static ABALONE_COMMANDS: &[Entry] = &[Entry {
    name: "ishi-start",
    handler: start,
}];

/// The game-only table of `kind`.
pub fn game_commands(kind: GameKind) -> &'static [Entry] {
    match kind {
        GameKind::Go => &[],
        GameKind::Margo => MARGO_COMMANDS,
        GameKind::Abalone => ABALONE_COMMANDS,
    }
}

/// The engine of the game in force.
fn engine(session: &mut Session) -> Result<&mut dyn BoardGameEngine, String> {
    match session.board_game.as_deref_mut() {
        Some(engine) => Ok(engine),
        None => Err("unknown command".to_string()),
    }
}

fn boardsize(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    let size = args::board_size(arguments)?;
    engine(session)?.set_board_size(size).map(|_| String::new())
}

fn clear_board(session: &mut Session, _: &[String]) -> Result<String, String> {
    engine(session)?.clear_board();
    Ok(String::new())
}

fn play(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 2)?;
    let color = args::color(arguments, 0)?;
    let text = args::argument(arguments, 1)?.to_string();
    engine(session)?.play(color, &text).map(|_| String::new())
}

fn move_command(
    session: &mut Session,
    arguments: &[String],
    commit: bool,
) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let color = args::color(arguments, 0)?;
    let interrupt = session.interrupt.clone();
    engine(session)?.generate_move(color, &interrupt, commit)
}

fn genmove(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    move_command(session, arguments, true)
}

fn reg_genmove(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    move_command(session, arguments, false)
}

fn hint(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    if arguments.is_empty() || arguments.len() > 2 {
        return Err(SYNTAX_ERROR.to_string());
    }
    let color = args::color(arguments, 0)?;
    let level = commands::hint_level(arguments, 1)?;
    let interrupt = session.interrupt.clone();
    engine(session)?.hint(color, level, &interrupt)
}

fn illegal_reason(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 2)?;
    let color = args::color(arguments, 0)?;
    let text = args::argument(arguments, 1)?.to_string();
    engine(session)?.illegal_reason(color, &text)
}

fn undo(session: &mut Session, _: &[String]) -> Result<String, String> {
    engine(session)?.undo().map(|_| String::new())
}

fn showboard(session: &mut Session, _: &[String]) -> Result<String, String> {
    Ok(format!("\n{}", engine(session)?.showboard()))
}

fn board(session: &mut Session, _: &[String]) -> Result<String, String> {
    Ok(engine(session)?.board())
}

fn final_score(session: &mut Session, _: &[String]) -> Result<String, String> {
    Ok(engine(session)?.final_score())
}

fn all_legal_moves(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let color = args::color(arguments, 0)?;
    Ok(engine(session)?.all_legal_moves(color))
}

fn is_legal(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 2)?;
    let color = args::color(arguments, 0)?;
    let text = args::argument(arguments, 1)?.to_string();
    let legal = engine(session)?.is_legal(color, &text);
    Ok(if legal { "1" } else { "0" }.to_string())
}

/// The deepest `ishi-perft` GTP answers (deeper counts run for minutes; use `ishi perft`).
const MAXIMUM_GTP_PERFT_DEPTH: u32 = 6;

fn perft(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let depth = args::integer(arguments, 0)?;
    if depth > MAXIMUM_GTP_PERFT_DEPTH {
        return Err(format!("depth at most {MAXIMUM_GTP_PERFT_DEPTH}"));
    }
    Ok(engine(session)?.perft(depth as usize).to_string())
}

fn record(session: &mut Session, _: &[String]) -> Result<String, String> {
    Ok(engine(session)?.record())
}

fn cputime(session: &mut Session, _: &[String]) -> Result<String, String> {
    Ok(format!("{:.3}", engine(session)?.thinking_seconds()))
}

fn parameter(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    let engine = engine(session)?;
    match arguments {
        [] => Ok(engine.describe_parameters().join("\n")),
        [name, value] => engine
            .set_search_parameter(name, value)
            .map(|_| String::new()),
        _ => Err(SYNTAX_ERROR.to_string()),
    }
}

fn swap(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let value = args::argument(arguments, 0)?.to_string();
    engine(session)?
        .set_option("swap", &value)
        .map(|_| String::new())
}

fn start(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    args::expect_count(arguments, 1)?;
    let value = args::argument(arguments, 0)?.to_string();
    engine(session)?
        .set_option("start", &value)
        .map(|_| String::new())
}

/// Sets the time system of the board game in force (the shared time commands call this).
pub fn set_time_settings(session: &mut Session, settings: crate::time::TimeSettings) -> bool {
    match session.board_game.as_deref_mut() {
        Some(engine) => {
            board_game::set_time_settings(engine, settings);
            true
        }
        None => false,
    }
}
