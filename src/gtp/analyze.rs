//! Live analysis for GUIs: the argument grammar of `lz-analyze` / `kata-analyze` (and their
//! `genmove_analyze` forms), the text of their `info` lines, GoGui's analyze commands
//! (`gogui-analyze_commands` and the board, label, variation and statistics answers it
//! lists), and the filter that keeps log lines on stderr from looking like engine output to
//! Lizzie or gtp2ogs.
//!
//! Knows the formats byte for byte as Sabaki, Lizzie, GoGui and KaTrain-style tools parse them
//! (see `shared/gtp-clients.md` §2.5, §3.4, §4.3, §7): `pv` last in every block, integers
//! ×10000 for the Leela Zero dialect, floats that always contain a decimal point for the KataGo
//! dialect, upper-case vertices and lower-case `pass`, values from the side to move's view.
//!
//! The formats work on an [`AnalysisSnapshot`], plain data built from a search summary, and
//! are tested apart. The command functions at the end are the glue: they parse, run the
//! engine's search with a progress callback, and stream lines through the [`Session`]'s
//! output; an input watcher thread stops `lz-analyze` / `kata-analyze` as soon as another
//! line (or GoGui's `# interrupt`) is waiting, and the GTP loop then runs that line.
//!
//! Does not know the search's internals or the rules: `avoid` / `allow` for the next move are
//! passed to the search as excluded root moves; deeper restrictions filter the variations
//! shown.

use crate::color::Color;
use crate::engine::{Decision, StatusKind};
use crate::go::rules::point::{move_text, parse_move, point_at, vertex_text, Move, VertexError};
use crate::go::search::{Limits, Reporter, SearchSummary};
use crate::gtp::args::SYNTAX_ERROR;
use crate::gtp::Session;
use crate::search::SearchParams;
use crossbeam_channel::Select;
use std::fmt::Write as _;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The error text of an analyze command whose arguments cannot be read (Leela Zero's).
pub const CANNOT_PARSE: &str = "cannot parse analyze tags";

// ---------------------------------------------------------------------------------------------
// Grammar
// ---------------------------------------------------------------------------------------------

/// Which engine's output format a command speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// `lz-analyze`: win rate, prior and LCB as integers ×10000.
    LeelaZero,
    /// `kata-analyze`: floats in 0..1 with a decimal point, score lead, ownership.
    KataGo,
}

/// One `avoid` or `allow` clause: moves of `color` restricted for the first `until_depth`
/// moves of the analysed line (depth 1 is the next move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRestriction {
    /// Whose moves are restricted.
    pub color: Color,
    /// The moves named (vertices, rectangles expanded, possibly `pass`).
    pub moves: Vec<Move>,
    /// How many moves from now the clause holds (at least 1).
    pub until_depth: u32,
}

/// What an analyze command asked for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AnalyzeRequest {
    /// The colour to analyse for; `None` means the side to move (Lizzie sends none).
    pub color: Option<Color>,
    /// Time between two `info` lines; `None` (or zero) prints only when the analysis ends.
    pub interval: Option<Duration>,
    /// Show at least this many moves, adding unvisited ones if needed (`minmoves`).
    pub minimum_moves: usize,
    /// Show at most this many moves (`maxmoves`).
    pub maximum_moves: Option<usize>,
    /// Moves the search must not consider (`avoid`).
    pub avoid: Vec<MoveRestriction>,
    /// The only moves the search may consider (`allow`), at most one clause per colour.
    pub allow: Vec<MoveRestriction>,
    /// Print the ownership map after the `info` blocks (`ownership true`, KataGo dialect).
    pub ownership: bool,
    /// Print the visits of each move of the principal variation (`pvVisits true`).
    pub principal_variation_visits: bool,
    /// Print a `rootInfo` block with the position's own statistics (`rootInfo true`).
    pub root_info: bool,
}

/// KataGo's boolean keys that ishi accepts and has no data for; `true` changes nothing.
const IGNORED_BOOLEAN_KEYS: &[&str] = &[
    "ownershipStdev",
    "movesOwnership",
    "movesOwnershipStdev",
    "pvEdgeVisits",
    "noResultValue",
];

impl AnalyzeRequest {
    /// Reads `[color] [interval] {key value}` for a board of `size`, accepting both Leela
    /// Zero's forms (tokens in any order, a bare number as the interval, `A1:C3` rectangles)
    /// and KataGo's (`interval`, `minmoves`, `maxmoves`, `ownership`, `pvVisits`, `rootInfo`
    /// and KataGo's other boolean keys, which are accepted and have no effect).
    ///
    /// # Errors
    /// [`CANNOT_PARSE`] with the reason, for an unknown key, a missing or malformed value, an
    /// `until` depth of 0, or `allow` mixed with an `avoid` of moves other than `pass`.
    pub fn parse(arguments: &[String], size: usize) -> Result<AnalyzeRequest, String> {
        let mut request = AnalyzeRequest::default();
        let mut tokens = Tokens {
            words: arguments,
            next: 0,
        };
        while let Some(word) = tokens.take() {
            if let Some(color) = Color::parse(word) {
                if request.color.is_some() {
                    return Err(failure("the colour is given twice"));
                }
                request.color = Some(color);
                continue;
            }
            if word.parse::<f64>().is_ok() {
                if request.interval.is_some() {
                    return Err(failure("the interval is given twice"));
                }
                request.interval = Some(read_interval(word)?);
                continue;
            }
            match word {
                "interval" => request.interval = Some(read_interval(tokens.value(word)?)?),
                "minmoves" => request.minimum_moves = read_count(tokens.value(word)?)?,
                "maxmoves" => request.maximum_moves = Some(read_count(tokens.value(word)?)?),
                "avoid" | "allow" => {
                    let color = Color::parse(tokens.value(word)?)
                        .ok_or_else(|| failure("avoid and allow need a colour"))?;
                    let moves = parse_move_list(tokens.value(word)?, size)?;
                    let until_depth = read_count(tokens.value(word)?)?;
                    if until_depth == 0 {
                        return Err(failure("the depth of avoid and allow is at least 1"));
                    }
                    let restriction = MoveRestriction {
                        color,
                        moves,
                        until_depth: until_depth.min(u32::MAX as usize) as u32,
                    };
                    if word == "avoid" {
                        request.avoid.push(restriction);
                    } else {
                        if request.allow.iter().any(|other| other.color == color) {
                            return Err(failure("one allow clause per colour"));
                        }
                        request.allow.push(restriction);
                    }
                }
                "ownership" => request.ownership = read_boolean(tokens.value(word)?)?,
                "pvVisits" => {
                    request.principal_variation_visits = read_boolean(tokens.value(word)?)?
                }
                "rootInfo" => request.root_info = read_boolean(tokens.value(word)?)?,
                key if IGNORED_BOOLEAN_KEYS.contains(&key) => {
                    read_boolean(tokens.value(word)?)?;
                }
                other => return Err(failure(&format!("unknown key {other}"))),
            }
        }
        let avoids_real_moves = request
            .avoid
            .iter()
            .any(|clause| clause.moves.iter().any(|&chosen| chosen != Move::Pass));
        if !request.allow.is_empty() && avoids_real_moves {
            return Err(failure("allow cannot be combined with avoid"));
        }
        Ok(request)
    }

    /// The interval between `info` lines, `None` when only the final state is printed.
    pub fn report_interval(&self) -> Option<Duration> {
        self.interval.filter(|interval| !interval.is_zero())
    }

    /// Whether `color` may play `chosen` as the move at `depth` (1 = the next move) under the
    /// `avoid` and `allow` clauses. `pass` is always allowed by `allow` clauses, so a
    /// restriction never leaves a player without a move.
    pub fn allows(&self, color: Color, chosen: Move, depth: u32) -> bool {
        let applies =
            |clause: &&MoveRestriction| clause.color == color && depth <= clause.until_depth;
        if self
            .avoid
            .iter()
            .filter(applies)
            .any(|clause| clause.moves.contains(&chosen))
        {
            return false;
        }
        chosen == Move::Pass
            || self
                .allow
                .iter()
                .filter(applies)
                .all(|clause| clause.moves.contains(&chosen))
    }

    /// Whether any `avoid` or `allow` clause is in force.
    pub fn restricts_moves(&self) -> bool {
        !self.avoid.is_empty() || !self.allow.is_empty()
    }
}

/// The argument words, read one by one.
struct Tokens<'words> {
    words: &'words [String],
    next: usize,
}

impl<'words> Tokens<'words> {
    fn take(&mut self) -> Option<&'words str> {
        let word = self.words.get(self.next)?;
        self.next += 1;
        Some(word.as_str())
    }

    /// The value after `key`.
    fn value(&mut self, key: &str) -> Result<&'words str, String> {
        self.take()
            .ok_or_else(|| failure(&format!("{key} needs a value")))
    }
}

fn failure(reason: &str) -> String {
    format!("{CANNOT_PARSE}: {reason}")
}

/// Centiseconds (a float, as KataGo reads them) to a duration.
fn read_interval(word: &str) -> Result<Duration, String> {
    word.parse::<f64>()
        .ok()
        .filter(|value| value.is_finite() && *value >= 0.0 && *value < 1.0e9)
        .map(|centiseconds| Duration::from_secs_f64(centiseconds / 100.0))
        .ok_or_else(|| failure(&format!("bad interval {word}")))
}

fn read_count(word: &str) -> Result<usize, String> {
    word.parse::<usize>()
        .map_err(|_| failure(&format!("bad number {word}")))
}

fn read_boolean(word: &str) -> Result<bool, String> {
    match word.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(failure(&format!("bad boolean {word}"))),
    }
}

/// Reads `D4,Q16,pass` or Leela Zero's rectangles `A1:C3` (both corners included, in either
/// order) into moves, without repeats.
///
/// # Errors
/// [`CANNOT_PARSE`] for a malformed or off-board vertex or an empty list.
pub fn parse_move_list(text: &str, size: usize) -> Result<Vec<Move>, String> {
    let vertex = |word: &str| {
        parse_move(word, size).map_err(|error| match error {
            VertexError::Syntax => failure(&format!("bad vertex {word}")),
            VertexError::OffBoard => failure(&format!("vertex {word} is off the board")),
        })
    };
    let mut moves = Vec::new();
    for item in text.split(',').filter(|item| !item.is_empty()) {
        let expanded = match item.split_once(':') {
            None => vec![vertex(item)?],
            Some((first, second)) => {
                let (Move::Place(first), Move::Place(second)) = (vertex(first)?, vertex(second)?)
                else {
                    return Err(failure("a rectangle needs two vertices"));
                };
                let (first_column, first_row) = crate::go::rules::point::coordinates(first, size);
                let (second_column, second_row) =
                    crate::go::rules::point::coordinates(second, size);
                let columns = first_column.min(second_column)..=first_column.max(second_column);
                let rows = first_row.min(second_row)..=first_row.max(second_row);
                rows.flat_map(|row| {
                    columns
                        .clone()
                        .map(move |column| Move::Place(point_at(column, row, size)))
                })
                .collect()
            }
        };
        for chosen in expanded {
            if !moves.contains(&chosen) {
                moves.push(chosen);
            }
        }
    }
    if moves.is_empty() {
        return Err(failure("an empty move list"));
    }
    Ok(moves)
}

// ---------------------------------------------------------------------------------------------
// What is formatted
// ---------------------------------------------------------------------------------------------

/// One candidate move as the search reports it; rates from the view of the player of
/// `chosen`.
#[derive(Clone, Debug, PartialEq)]
pub struct CandidateLine {
    /// The move.
    pub chosen: Move,
    /// Playouts through the move.
    pub visits: u64,
    /// Win rate, 0..1.
    pub win_rate: f64,
    /// Prior probability, 0..1.
    pub prior: f64,
    /// Lower confidence bound of the win rate (may fall outside 0..1; printed clamped).
    pub lower_confidence_bound: f64,
    /// Expected score lead in points.
    pub score_lead: f64,
    /// The best line, starting with `chosen` (or without it: it is added when missing).
    pub principal_variation: Vec<Move>,
    /// Visits of each node of the principal variation, when the search reports them.
    pub principal_variation_visits: Vec<u64>,
}

/// The state of an analysis at one moment: what an `info` line or a GoGui answer shows.
#[derive(Clone, Debug, PartialEq)]
pub struct AnalysisSnapshot {
    /// Board size.
    pub size: usize,
    /// The colour whose moves are analysed; rates and leads are from its view.
    pub to_move: Color,
    /// Playouts through the root.
    pub root_visits: u64,
    /// Win rate of the position for `to_move`, 0..1.
    pub win_rate: f64,
    /// Score lead of the position for `to_move`, in points.
    pub score_lead: f64,
    /// Candidates, best first.
    pub candidates: Vec<CandidateLine>,
    /// Ownership per point index (+1 black .. -1 white), empty when unknown.
    pub ownership: Vec<f32>,
    /// Playouts made by this search (not counting reused ones).
    pub playouts: u64,
    /// Time the search took.
    pub elapsed: Duration,
}

impl AnalysisSnapshot {
    /// The ownership of every point from `color`'s view, top row first, left to right
    /// (KataGo's order: A19 .. T1); empty when unknown.
    pub fn ownership_rows_for(&self, color: Color) -> Vec<f64> {
        if self.ownership.is_empty() {
            return Vec::new();
        }
        let sign = match color {
            Color::Black => 1.0,
            Color::White => -1.0,
        };
        let size = self.size;
        (0..size)
            .rev()
            .flat_map(|row| (0..size).map(move |column| point_at(column, row, size)))
            .map(|point| {
                let value = self.ownership.get(point.index()).copied().unwrap_or(0.0);
                sign * f64::from(value).clamp(-1.0, 1.0)
            })
            .collect()
    }

    /// The candidates an `info` line shows for `request`: moves the restrictions allow, those
    /// with visits first, then unvisited ones up to `minmoves`, at most `maxmoves` of them.
    pub fn shown_candidates<'snapshot>(
        &'snapshot self,
        request: &AnalyzeRequest,
    ) -> Vec<&'snapshot CandidateLine> {
        let allowed: Vec<&CandidateLine> = self
            .candidates
            .iter()
            .filter(|candidate| request.allows(self.to_move, candidate.chosen, 1))
            .collect();
        let mut shown: Vec<&CandidateLine> = allowed
            .iter()
            .copied()
            .filter(|candidate| candidate.visits > 0)
            .collect();
        for candidate in allowed.iter().filter(|candidate| candidate.visits == 0) {
            if shown.len() >= request.minimum_moves {
                break;
            }
            shown.push(candidate);
        }
        if let Some(maximum) = request.maximum_moves {
            shown.truncate(maximum);
        }
        shown
    }

    /// The principal variation of `candidate`, starting with its move and cut before the
    /// first move the restrictions forbid.
    pub fn variation_of(&self, candidate: &CandidateLine, request: &AnalyzeRequest) -> Vec<Move> {
        let mut line = candidate.principal_variation.clone();
        if line.first() != Some(&candidate.chosen) {
            line.insert(0, candidate.chosen);
        }
        let mut color = self.to_move;
        let mut kept = 0;
        for (index, &chosen) in line.iter().enumerate() {
            if !request.allows(color, chosen, index as u32 + 1) {
                break;
            }
            kept += 1;
            color = color.opponent();
        }
        line.truncate(kept.max(1));
        line
    }
}

// ---------------------------------------------------------------------------------------------
// lz-analyze and kata-analyze lines
// ---------------------------------------------------------------------------------------------

/// A rate ×10000 as an integer in 0..=10000 (Leela Zero's format, read by `parseInt`).
fn ten_thousandths(value: f64) -> i64 {
    if value.is_finite() {
        (value.clamp(0.0, 1.0) * 10_000.0).round() as i64
    } else {
        0
    }
}

/// A float with exactly `decimals` decimals (at least one), never `-0.0`, `NaN` printed as 0.
pub fn decimal(value: f64, decimals: usize) -> String {
    let value = if value.is_finite() { value } else { 0.0 };
    let text = format!("{value:.prec$}", prec = decimals.max(1));
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|byte| byte == b'0' || byte == b'.') => rest.to_string(),
        _ => text,
    }
}

fn variation_text(line: &[Move], size: usize) -> String {
    line.iter()
        .map(|&chosen| move_text(chosen, size))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The visits printed for `pvVisits`, one per move of a line of `length` moves: `None` unless
/// the search reported them for the whole line (a made-up figure misleads more than a missing
/// field).
fn variation_visits(candidate: &CandidateLine, length: usize) -> Option<&[u64]> {
    candidate.principal_variation_visits.get(..length)
}

/// One `info` line of `dialect` for `snapshot`: every shown candidate as an `info` block with
/// `pv` last, then (KataGo) `rootInfo` and `ownership` when asked for. Empty when there is
/// nothing to show. No newline at the end.
pub fn info_line(
    dialect: Dialect,
    snapshot: &AnalysisSnapshot,
    request: &AnalyzeRequest,
) -> String {
    let size = snapshot.size;
    let mut blocks: Vec<String> = Vec::new();
    for (order, candidate) in snapshot.shown_candidates(request).into_iter().enumerate() {
        let line = snapshot.variation_of(candidate, request);
        let mut block = format!(
            "info move {} visits {}",
            move_text(candidate.chosen, size),
            candidate.visits
        );
        match dialect {
            Dialect::LeelaZero => {
                let _ = write!(
                    block,
                    " winrate {} prior {} lcb {} order {order}",
                    ten_thousandths(candidate.win_rate),
                    ten_thousandths(candidate.prior),
                    ten_thousandths(candidate.lower_confidence_bound),
                );
            }
            Dialect::KataGo => {
                let lead = decimal(candidate.score_lead, 4);
                let _ = write!(
                    block,
                    " winrate {} scoreMean {lead} scoreLead {lead} prior {} lcb {} order {order}",
                    decimal(candidate.win_rate.clamp(0.0, 1.0), 6),
                    decimal(candidate.prior.clamp(0.0, 1.0), 6),
                    decimal(candidate.lower_confidence_bound.clamp(0.0, 1.0), 6),
                );
            }
        }
        let visits = variation_visits(candidate, line.len());
        if let Some(visits) = visits.filter(|_| request.principal_variation_visits) {
            let _ = write!(
                block,
                " pvVisits {}",
                visits
                    .iter()
                    .map(u64::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
        let _ = write!(block, " pv {}", variation_text(&line, size));
        blocks.push(block);
    }
    if dialect == Dialect::KataGo {
        if request.root_info {
            let lead = decimal(snapshot.score_lead, 4);
            blocks.push(format!(
                "rootInfo visits {} winrate {} scoreMean {lead} scoreLead {lead}",
                snapshot.root_visits,
                decimal(snapshot.win_rate.clamp(0.0, 1.0), 6),
            ));
        }
        if request.ownership {
            let values = snapshot.ownership_rows_for(snapshot.to_move);
            if !values.is_empty() {
                let numbers: Vec<String> = values.iter().map(|&value| decimal(value, 4)).collect();
                blocks.push(format!("ownership {}", numbers.join(" ")));
            }
        }
    }
    blocks.join(" ")
}

/// The last line of `lz-genmove_analyze` and `kata-genmove_analyze`: `play D4`, `play pass`
/// or `play resign`.
pub fn play_line(decision_text: &str) -> String {
    format!("play {decision_text}")
}

// ---------------------------------------------------------------------------------------------
// GoGui analyze commands
// ---------------------------------------------------------------------------------------------

/// GoGui's ownership board (`dboard`).
pub const GOGUI_OWNERSHIP: &str = "ishi-ownership";
/// Ownership drawn as shading (`gfx` INFLUENCE).
pub const GOGUI_OWNERSHIP_SHADING: &str = "ishi-ownership_shading";
/// Win rates of the candidates as labels (`gfx` LABEL).
pub const GOGUI_WIN_RATES: &str = "ishi-win_rates";
/// Visits of the candidates as labels (`gfx` LABEL).
pub const GOGUI_VISITS: &str = "ishi-visits";
/// The principal variation (`var`).
pub const GOGUI_PRINCIPAL_VARIATION: &str = "ishi-principal_variation";
/// Search statistics (`string`).
pub const GOGUI_STATISTICS: &str = "ishi-search_statistics";
/// The dead-stone proposal (`gfx` MARK and TRIANGLE).
pub const GOGUI_DEAD_STONES: &str = "ishi-dead_stones";
/// The parameters (`param`).
pub const GOGUI_PARAMETERS: &str = "ishi-param";

/// The answer of `gogui-analyze_commands`: `type/label/command` lines. `%m` is the colour to
/// move, so the searches analyse for the player GoGui shows as next.
pub fn gogui_analyze_commands() -> String {
    [
        format!("dboard/Ownership/{GOGUI_OWNERSHIP} %m"),
        format!("gfx/Ownership shading/{GOGUI_OWNERSHIP_SHADING} %m"),
        format!("gfx/Win rates/{GOGUI_WIN_RATES} %m"),
        format!("gfx/Visits/{GOGUI_VISITS} %m"),
        format!("var/Principal variation/{GOGUI_PRINCIPAL_VARIATION} %m"),
        format!("string/Search statistics/{GOGUI_STATISTICS} %m"),
        format!("gfx/Dead stones/{GOGUI_DEAD_STONES}"),
        format!("param/Parameters/{GOGUI_PARAMETERS}"),
    ]
    .join("\n")
}

/// Ownership as a GoGui `dboard`: one row per line, top row first, values in -1..1 with
/// black positive. `None` when the search has no ownership.
pub fn gogui_ownership_board(snapshot: &AnalysisSnapshot) -> Option<String> {
    let values = snapshot.ownership_rows_for(Color::Black);
    if values.is_empty() {
        return None;
    }
    Some(
        values
            .chunks(snapshot.size)
            .map(|row| {
                row.iter()
                    .map(|&value| decimal(value, 2))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Ownership as GoGui `gfx` shading: `INFLUENCE` with black positive, points near zero left
/// out. `None` when the search has no ownership.
pub fn gogui_ownership_shading(snapshot: &AnalysisSnapshot) -> Option<String> {
    let values = snapshot.ownership_rows_for(Color::Black);
    if values.is_empty() {
        return None;
    }
    let size = snapshot.size;
    let mut items = Vec::new();
    for (index, &value) in values.iter().enumerate() {
        if value.abs() < 0.05 {
            continue;
        }
        let row = size - 1 - index / size;
        let column = index % size;
        items.push(format!(
            "{} {}",
            vertex_text(point_at(column, row, size), size),
            decimal(value, 2)
        ));
    }
    Some(
        format!("INFLUENCE {}", items.join(" "))
            .trim_end()
            .to_string(),
    )
}

/// Candidates with visits, at most `limit`, passes left out (they have no point to label).
fn labelled_candidates(snapshot: &AnalysisSnapshot, limit: usize) -> Vec<&CandidateLine> {
    snapshot
        .candidates
        .iter()
        .filter(|candidate| candidate.visits > 0 && candidate.chosen != Move::Pass)
        .take(limit)
        .collect()
}

/// A `gfx` answer labelling candidates with `label`, plus a status-line `TEXT`.
fn gogui_labels(snapshot: &AnalysisSnapshot, label: impl Fn(&CandidateLine) -> String) -> String {
    let size = snapshot.size;
    let labels: Vec<String> = labelled_candidates(snapshot, 20)
        .into_iter()
        .map(|candidate| format!("{} {}", move_text(candidate.chosen, size), label(candidate)))
        .collect();
    let mut lines = Vec::new();
    if !labels.is_empty() {
        lines.push(format!("LABEL {}", labels.join(" ")));
    }
    lines.push(format!("TEXT {}", status_text(snapshot)));
    lines.join("\n")
}

/// Win rates in percent for the player to move, as GoGui labels.
pub fn gogui_win_rates(snapshot: &AnalysisSnapshot) -> String {
    gogui_labels(snapshot, |candidate| {
        format!("{}%", (candidate.win_rate.clamp(0.0, 1.0) * 100.0).round())
    })
}

/// Visits as GoGui labels (`1.2k` above 999).
pub fn gogui_visits(snapshot: &AnalysisSnapshot) -> String {
    gogui_labels(snapshot, |candidate| compact_count(candidate.visits))
}

/// `950`, `1.2k`, `35k`, `1.4M`: short enough for a board label.
pub fn compact_count(count: u64) -> String {
    match count {
        0..=999 => count.to_string(),
        1_000..=9_999 => format!("{:.1}k", count as f64 / 1_000.0),
        10_000..=999_999 => format!("{}k", count / 1_000),
        _ => format!("{:.1}M", count as f64 / 1_000_000.0),
    }
}

/// GoGui's status line: best move, win rate and lead for the player to move, playouts.
fn status_text(snapshot: &AnalysisSnapshot) -> String {
    let best = snapshot
        .candidates
        .first()
        .map(|candidate| move_text(candidate.chosen, snapshot.size))
        .unwrap_or_else(|| "none".to_string());
    format!(
        "{} to move: best {best}, win rate {}%, lead {} points, {} playouts",
        snapshot.to_move,
        decimal(snapshot.win_rate.clamp(0.0, 1.0) * 100.0, 1),
        decimal(snapshot.score_lead, 1),
        snapshot.root_visits
    )
}

/// The principal variation of the best move as a GoGui `var` (colours alternate from the
/// player to move).
pub fn gogui_principal_variation(snapshot: &AnalysisSnapshot) -> String {
    match snapshot.candidates.first() {
        Some(best) => variation_text(
            &snapshot.variation_of(best, &AnalyzeRequest::default()),
            snapshot.size,
        ),
        None => String::new(),
    }
}

/// Search statistics as a GoGui `string`: several lines, none of them empty.
pub fn gogui_statistics(snapshot: &AnalysisSnapshot) -> String {
    let seconds = snapshot.elapsed.as_secs_f64();
    let speed = if seconds > 0.0 {
        (snapshot.playouts as f64 / seconds).round()
    } else {
        0.0
    };
    let mut lines = vec![
        format!("To move: {}", snapshot.to_move),
        format!(
            "Win rate: {}%",
            decimal(snapshot.win_rate.clamp(0.0, 1.0) * 100.0, 1)
        ),
        format!("Score lead: {} points", decimal(snapshot.score_lead, 1)),
        format!("Root visits: {}", snapshot.root_visits),
        format!(
            "Playouts: {} in {} s ({speed} per second)",
            snapshot.playouts,
            decimal(seconds, 2)
        ),
    ];
    for candidate in snapshot.candidates.iter().take(5) {
        lines.push(format!(
            "{:<5} visits {:>7}  win rate {:>5}%  prior {:>5}%  pv {}",
            move_text(candidate.chosen, snapshot.size),
            candidate.visits,
            decimal(candidate.win_rate.clamp(0.0, 1.0) * 100.0, 1),
            decimal(candidate.prior.clamp(0.0, 1.0) * 100.0, 1),
            variation_text(
                &snapshot.variation_of(candidate, &AnalyzeRequest::default()),
                snapshot.size
            )
        ));
    }
    lines.join("\n")
}

/// The dead-stone proposal as GoGui `gfx`: dead stones marked with `MARK`, seki stones with
/// `TRIANGLE`, and a `TEXT` count. Vertices come as text.
pub fn gogui_dead_stones(dead: &[String], seki: &[String]) -> String {
    let mut lines = Vec::new();
    if !dead.is_empty() {
        lines.push(format!("MARK {}", dead.join(" ")));
    }
    if !seki.is_empty() {
        lines.push(format!("TRIANGLE {}", seki.join(" ")));
    }
    lines.push(format!(
        "TEXT {} dead stones, {} stones in seki",
        dead.len(),
        seki.len()
    ));
    lines.join("\n")
}

/// One GoGui parameter: its type and current value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParameterValue {
    /// `[bool]`, shown as 0 or 1.
    Boolean(bool),
    /// `[string]`: numbers and words.
    Text(String),
    /// `[list/a/b/...]`: one of the choices.
    Choice(String, Vec<String>),
}

/// The `param` answer: one `[type] name value` line per parameter.
pub fn gogui_parameters(parameters: &[(String, ParameterValue)]) -> String {
    parameters
        .iter()
        .map(|(name, value)| match value {
            ParameterValue::Boolean(on) => format!("[bool] {name} {}", u8::from(*on)),
            ParameterValue::Text(text) => format!("[string] {name} {text}"),
            ParameterValue::Choice(current, choices) => {
                format!("[list/{}] {name} {current}", choices.join("/"))
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

// ---------------------------------------------------------------------------------------------
// stderr that clients do not mistake for engine output
// ---------------------------------------------------------------------------------------------

/// Line starts Lizzie reads as engine output when stderr is merged into stdout
/// (gtp-clients.md §4.5); compared without case.
const LIZZIE_LINE_STARTS: &[&str] = &["info", "play", "=", "?", "komi=", "opp_komi=", "tuning"];

/// Words gtp2ogs turns into game chat or PV posts wherever they appear (§5.1).
const GTP2OGS_MARKERS: &[&str] = &["DISCUSSION:", "MALKOVICH:", "MAIN:", "CHAT:"];

/// Rewrites one log message so that no line of it can be taken for engine output: every line
/// starts with `ishi: `, ` -> ` (Leela Zero's summary arrow) becomes ` => `, and gtp2ogs'
/// chat markers lose their colon. Always ends without a newline.
pub fn stderr_safe(message: &str) -> String {
    message
        .lines()
        .map(|line| {
            let mut safe = line.replace(" -> ", " => ");
            for marker in GTP2OGS_MARKERS {
                let word = &marker[..marker.len() - 1];
                safe = replace_ignoring_case(&safe, marker, &format!("{word} :"));
            }
            format!("ishi: {safe}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether a stderr line would be read as engine output by Lizzie or gtp2ogs; what
/// [`stderr_safe`] never produces.
pub fn looks_like_engine_output(line: &str) -> bool {
    let trimmed = line.trim_start().to_ascii_lowercase();
    LIZZIE_LINE_STARTS
        .iter()
        .any(|start| trimmed.starts_with(start))
        || line.contains(" -> ")
        || GTP2OGS_MARKERS.iter().any(|marker| line.contains(marker))
}

fn replace_ignoring_case(text: &str, pattern: &str, replacement: &str) -> String {
    let lower_text = text.to_ascii_lowercase();
    let lower_pattern = pattern.to_ascii_lowercase();
    let mut result = String::with_capacity(text.len());
    let mut start = 0;
    while let Some(found) = lower_text[start..].find(&lower_pattern) {
        result.push_str(&text[start..start + found]);
        result.push_str(replacement);
        start += found + pattern.len();
    }
    result.push_str(&text[start..]);
    result
}

// ---------------------------------------------------------------------------------------------
// The commands: search through the engine, stream through the session
// ---------------------------------------------------------------------------------------------

/// How long the input watcher waits for a line at a time before it looks at the interrupt
/// flag and whether the analysis has finished.
const INPUT_POLL: Duration = Duration::from_millis(5);

/// Search time between two ownership reports when `kata-analyze ... ownership true` gives no
/// interval.
const OWNERSHIP_CHUNK: Duration = Duration::from_millis(500);

/// A snapshot of `summary`, searched for `to_move` on a board of `size`, with `ownership`
/// per point index (possibly empty).
pub fn snapshot_from(
    summary: &SearchSummary,
    size: usize,
    to_move: Color,
    ownership: Vec<f32>,
) -> AnalysisSnapshot {
    AnalysisSnapshot {
        size,
        to_move,
        root_visits: summary.root_visits,
        win_rate: summary.win_rate,
        score_lead: summary.score_lead,
        candidates: summary
            .candidates
            .iter()
            .map(|candidate| CandidateLine {
                chosen: candidate.chosen,
                visits: candidate.visits,
                win_rate: candidate.win_rate,
                prior: candidate.prior,
                lower_confidence_bound: candidate.lower_confidence_bound,
                score_lead: candidate.score_lead,
                principal_variation: candidate.principal_variation.clone(),
                principal_variation_visits: candidate.principal_variation_visits.clone(),
            })
            .collect(),
        ownership,
        playouts: summary.playouts,
        elapsed: summary.elapsed,
    }
}

fn output_error(error: std::io::Error) -> String {
    format!("cannot write the answer: {error}")
}

/// Writes `line` and a newline to `output` and flushes; a failed write sets `stop`.
fn emit(output: &mut (dyn Write + Send), line: &str, stop: &AtomicBool) {
    if line.is_empty() {
        return;
    }
    let written = output
        .write_all(line.as_bytes())
        .and_then(|_| output.write_all(b"\n"))
        .and_then(|_| output.flush());
    if let Err(error) = written {
        log::warn!("analysis output failed: {error}");
        stop.store(true, Ordering::SeqCst);
    }
}

/// `lz-analyze` / `kata-analyze`: writes `=id` at once, then one `info` line per interval,
/// until any input line is pending (or a `# interrupt`); the line is then handled as a normal
/// command once this answer is closed by the GTP loop.
///
/// # Errors
/// The grammar's errors (nothing is written then), or a closed output.
pub fn analyze(
    session: &mut Session,
    dialect: Dialect,
    arguments: &[String],
) -> Result<String, String> {
    let size = session.engine.game().size();
    let request = AnalyzeRequest::parse(arguments, size)?;
    let color = request
        .color
        .unwrap_or_else(|| session.engine.game().to_move());
    session.start_streaming().map_err(output_error)?;
    let Session {
        engine,
        output,
        input,
        interrupt,
        ..
    } = session;
    let stop = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            // Ready means a line is waiting or the input has ended; nothing is taken from it.
            let mut waiting = Select::new();
            waiting.recv(input);
            while !finished.load(Ordering::SeqCst) {
                let ready = waiting.ready_timeout(INPUT_POLL).is_ok();
                if ready || interrupt.load(Ordering::SeqCst) {
                    stop.store(true, Ordering::SeqCst);
                    return;
                }
            }
        });
        // The side to move's restricted moves are kept out of the search itself; deeper
        // restrictions only filter the variations shown.
        let excluded_root_moves: Vec<Move> = engine
            .game()
            .board()
            .points()
            .map(Move::Place)
            .filter(|&chosen| !request.allows(color, chosen, 1))
            .collect();
        let unlimited = Limits {
            excluded_root_moves: excluded_root_moves.clone(),
            ..Limits::default()
        };
        if dialect == Dialect::KataGo && request.ownership {
            // The search gathers ownership only when a run ends: search in slices of one
            // interval and report after each.
            let slice = request.report_interval().unwrap_or(OWNERSHIP_CHUNK);
            let limits = Limits {
                hard_time: Some(slice),
                excluded_root_moves,
                ..Limits::default()
            };
            while !stop.load(Ordering::SeqCst) {
                let summary = engine.search_with(color, &limits, &stop, None);
                let stopped = stop.load(Ordering::SeqCst);
                // Every slice with an interval; only the last one without.
                if stopped != request.report_interval().is_some() {
                    let snapshot = snapshot_from(&summary, size, color, engine.ownership());
                    emit(
                        &mut **output,
                        &info_line(dialect, &snapshot, &request),
                        &stop,
                    );
                }
                if stopped {
                    break;
                }
            }
        } else {
            let mut report = |summary: &SearchSummary| {
                let snapshot = snapshot_from(summary, size, color, Vec::new());
                emit(
                    &mut **output,
                    &info_line(dialect, &snapshot, &request),
                    &stop,
                );
            };
            let reporter: Option<Reporter<'_>> = request
                .report_interval()
                .map(|interval| (&mut report as &mut dyn FnMut(&SearchSummary), interval));
            let summary = engine.search_with(color, &unlimited, &stop, reporter);
            if request.report_interval().is_none() {
                let snapshot = snapshot_from(&summary, size, color, Vec::new());
                emit(
                    &mut **output,
                    &info_line(dialect, &snapshot, &request),
                    &stop,
                );
            }
        }
        // A search never ends on its own without limits; should it, wait for the input.
        while !stop.load(Ordering::SeqCst) {
            std::thread::sleep(INPUT_POLL);
        }
        finished.store(true, Ordering::SeqCst);
    });
    Ok(String::new())
}

/// `lz-genmove_analyze` / `kata-genmove_analyze`: `=id` at once, `info` lines while the move
/// is searched under the usual limits, then `play <move>`; the move is played. Input does not
/// stop it (KataGo's rule); a `# interrupt` does.
///
/// # Errors
/// The grammar's errors (nothing is written then), or a closed output.
pub fn genmove_analyze(
    session: &mut Session,
    dialect: Dialect,
    arguments: &[String],
) -> Result<String, String> {
    let size = session.engine.game().size();
    let request = AnalyzeRequest::parse(arguments, size)?;
    let color = request
        .color
        .unwrap_or_else(|| session.engine.game().to_move());
    session.start_streaming().map_err(output_error)?;
    let Session {
        engine,
        output,
        interrupt,
        ..
    } = session;
    let output_failed = AtomicBool::new(false);
    let mut report = |summary: &SearchSummary| {
        let snapshot = snapshot_from(summary, size, color, Vec::new());
        emit(
            &mut **output,
            &info_line(dialect, &snapshot, &request),
            &output_failed,
        );
    };
    let reporter: Option<Reporter<'_>> = request
        .report_interval()
        .map(|interval| (&mut report as &mut dyn FnMut(&SearchSummary), interval));
    let decision = engine.generate_move_reporting(color, interrupt, reporter);
    let text = match decision {
        Decision::Play(chosen) => move_text(chosen, size),
        Decision::Resign => "resign".to_string(),
    };
    Ok(play_line(&text))
}

/// Searches for a GoGui analyze command: the colour given (or the side to move) under the
/// usual move limits; `# interrupt` ends it early.
fn gogui_search(session: &mut Session, arguments: &[String]) -> Result<AnalysisSnapshot, String> {
    let color = match arguments.first() {
        Some(word) => Color::parse(word).ok_or_else(|| SYNTAX_ERROR.to_string())?,
        None => session.engine.game().to_move(),
    };
    if arguments.len() > 1 {
        return Err(SYNTAX_ERROR.to_string());
    }
    let limits = session.engine.move_limits(color);
    let summary = session
        .engine
        .search_with(color, &limits, &session.interrupt, None);
    let size = session.engine.game().size();
    Ok(snapshot_from(
        &summary,
        size,
        color,
        session.engine.ownership(),
    ))
}

/// `ishi-ownership [color]`: a `dboard`.
///
/// # Errors
/// A bad colour.
pub fn gogui_ownership_command(
    session: &mut Session,
    arguments: &[String],
) -> Result<String, String> {
    let snapshot = gogui_search(session, arguments)?;
    gogui_ownership_board(&snapshot).ok_or_else(|| "no ownership yet".to_string())
}

/// `ishi-ownership_shading [color]`: `gfx` INFLUENCE.
///
/// # Errors
/// A bad colour.
pub fn gogui_ownership_shading_command(
    session: &mut Session,
    arguments: &[String],
) -> Result<String, String> {
    let snapshot = gogui_search(session, arguments)?;
    gogui_ownership_shading(&snapshot).ok_or_else(|| "no ownership yet".to_string())
}

/// `ishi-win_rates [color]`: `gfx` labels.
///
/// # Errors
/// A bad colour.
pub fn gogui_win_rates_command(
    session: &mut Session,
    arguments: &[String],
) -> Result<String, String> {
    Ok(gogui_win_rates(&gogui_search(session, arguments)?))
}

/// `ishi-visits [color]`: `gfx` labels.
///
/// # Errors
/// A bad colour.
pub fn gogui_visits_command(session: &mut Session, arguments: &[String]) -> Result<String, String> {
    Ok(gogui_visits(&gogui_search(session, arguments)?))
}

/// `ishi-principal_variation [color]`: a `var`.
///
/// # Errors
/// A bad colour.
pub fn gogui_principal_variation_command(
    session: &mut Session,
    arguments: &[String],
) -> Result<String, String> {
    Ok(gogui_principal_variation(&gogui_search(
        session, arguments,
    )?))
}

/// `ishi-search_statistics [color]`: a `string`.
///
/// # Errors
/// A bad colour.
pub fn gogui_statistics_command(
    session: &mut Session,
    arguments: &[String],
) -> Result<String, String> {
    Ok(gogui_statistics(&gogui_search(session, arguments)?))
}

/// `ishi-dead_stones`: the stones `final_status_list dead` and `seki` would name, as `gfx`.
///
/// # Errors
/// Arguments given.
pub fn gogui_dead_stones_command(
    session: &mut Session,
    arguments: &[String],
) -> Result<String, String> {
    if !arguments.is_empty() {
        return Err(SYNTAX_ERROR.to_string());
    }
    let size = session.engine.game().size();
    let mut texts = |kind: StatusKind| -> Vec<String> {
        session
            .engine
            .final_status_list(kind)
            .iter()
            .flatten()
            .map(|&point| vertex_text(point, size))
            .collect()
    };
    let dead = texts(StatusKind::Dead);
    let seki = texts(StatusKind::Seki);
    Ok(gogui_dead_stones(&dead, &seki))
}

/// The search parameters as GoGui shows them: booleans as `[bool]`, the playout policy as a
/// list, the rest as strings.
fn parameter_values(parameters: &SearchParams) -> Vec<(String, ParameterValue)> {
    parameters
        .describe()
        .iter()
        .filter_map(|pair| pair.split_once('='))
        .map(|(name, value)| {
            let shown = match (name, value) {
                ("playout", _) => ParameterValue::Choice(
                    value.to_string(),
                    vec!["light".to_string(), "heavy".to_string()],
                ),
                (_, "true") => ParameterValue::Boolean(true),
                (_, "false") => ParameterValue::Boolean(false),
                _ => ParameterValue::Text(value.to_string()),
            };
            (name.to_string(), shown)
        })
        .collect()
}

/// `ishi-param`: lists the search parameters (GoGui `param`); `ishi-param NAME VALUE` sets
/// one (GoGui sends `[bool]` values as 0 or 1).
///
/// # Errors
/// An unknown name or a bad value.
pub fn gogui_parameters_command(
    session: &mut Session,
    arguments: &[String],
) -> Result<String, String> {
    match arguments {
        [] => Ok(gogui_parameters(&parameter_values(
            session.engine.search_parameters(),
        ))),
        [name, value] => {
            let is_boolean = parameter_values(session.engine.search_parameters())
                .iter()
                .any(|(known, shown)| known == name && matches!(shown, ParameterValue::Boolean(_)));
            let value = match (is_boolean, value.as_str()) {
                (true, "1") => "true",
                (true, "0") => "false",
                _ => value.as_str(),
            };
            session.engine.set_search_parameter(name, value)?;
            Ok(String::new())
        }
        _ => Err(SYNTAX_ERROR.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::rules::point::Point;

    fn words(text: &str) -> Vec<String> {
        text.split_whitespace().map(str::to_string).collect()
    }

    fn vertex(text: &str) -> Move {
        parse_move(text, 19).unwrap()
    }

    fn point(text: &str, size: usize) -> Point {
        match parse_move(text, size).unwrap() {
            Move::Place(point) => point,
            Move::Pass => panic!("a pass"),
        }
    }

    fn candidate(chosen: &str, visits: u64, win_rate: f64, line: &str) -> CandidateLine {
        CandidateLine {
            chosen: vertex(chosen),
            visits,
            win_rate,
            prior: 0.1828,
            lower_confidence_bound: win_rate - 0.01,
            score_lead: 1.25,
            principal_variation: line.split_whitespace().map(vertex).collect(),
            principal_variation_visits: Vec::new(),
        }
    }

    fn snapshot() -> AnalysisSnapshot {
        AnalysisSnapshot {
            size: 19,
            to_move: Color::Black,
            root_visits: 100,
            win_rate: 0.45,
            score_lead: -0.5,
            candidates: vec![
                candidate("Q16", 80, 0.4405, "Q16 D4 pass"),
                candidate("D4", 20, 0.41, "D4"),
                candidate("pass", 0, 0.2, ""),
                candidate("K10", 0, 0.3, ""),
            ],
            ownership: Vec::new(),
            playouts: 100,
            elapsed: Duration::from_millis(500),
        }
    }

    #[test]
    fn reads_lizzie_sabaki_and_katago_arguments() {
        let lizzie = AnalyzeRequest::parse(&words("10"), 19).unwrap();
        assert_eq!(lizzie.color, None);
        assert_eq!(lizzie.interval, Some(Duration::from_millis(100)));

        let sabaki = AnalyzeRequest::parse(&words("B 50"), 19).unwrap();
        assert_eq!(sabaki.color, Some(Color::Black));
        assert_eq!(sabaki.report_interval(), Some(Duration::from_millis(500)));

        let katago = AnalyzeRequest::parse(
            &words("w interval 25 minmoves 3 maxmoves 5 ownership true pvVisits true rootInfo true ownershipStdev false"),
            19,
        )
        .unwrap();
        assert_eq!(katago.color, Some(Color::White));
        assert_eq!(katago.interval, Some(Duration::from_millis(250)));
        assert_eq!(katago.minimum_moves, 3);
        assert_eq!(katago.maximum_moves, Some(5));
        assert!(katago.ownership && katago.principal_variation_visits && katago.root_info);

        let fractional = AnalyzeRequest::parse(&words("white 12.5"), 19).unwrap();
        assert_eq!(fractional.interval, Some(Duration::from_millis(125)));

        // Leela Zero takes tokens in any order.
        let any_order = AnalyzeRequest::parse(&words("interval 10 b"), 19).unwrap();
        assert_eq!(any_order.color, Some(Color::Black));

        let none = AnalyzeRequest::parse(&[], 19).unwrap();
        assert_eq!(none.report_interval(), None);
        let zero = AnalyzeRequest::parse(&words("0"), 19).unwrap();
        assert_eq!(zero.report_interval(), None);
    }

    #[test]
    fn reads_avoid_and_allow_with_rectangles() {
        let request =
            AnalyzeRequest::parse(&words("10 avoid b q16,D4 30 avoid w A1:B2,pass 1"), 19).unwrap();
        assert_eq!(request.avoid.len(), 2);
        assert_eq!(request.avoid[0].moves, vec![vertex("Q16"), vertex("D4")]);
        assert_eq!(request.avoid[0].until_depth, 30);
        assert_eq!(
            request.avoid[1].moves,
            vec![
                vertex("A1"),
                vertex("B1"),
                vertex("A2"),
                vertex("B2"),
                Move::Pass
            ]
        );
        assert!(!request.allows(Color::Black, vertex("Q16"), 1));
        assert!(!request.allows(Color::Black, vertex("Q16"), 30));
        assert!(request.allows(Color::Black, vertex("Q16"), 31));
        assert!(request.allows(Color::White, vertex("Q16"), 1));
        assert!(!request.allows(Color::White, Move::Pass, 1));
        assert!(request.allows(Color::White, Move::Pass, 2));

        let allow = AnalyzeRequest::parse(&words("b 10 allow b C3:D4 2"), 19).unwrap();
        assert!(allow.allows(Color::Black, vertex("C4"), 1));
        assert!(!allow.allows(Color::Black, vertex("E5"), 2));
        assert!(allow.allows(Color::Black, vertex("E5"), 3));
        assert!(allow.allows(Color::Black, Move::Pass, 1));
        assert!(allow.allows(Color::White, vertex("E5"), 1));
        // Mixing allow with an avoid of pass only is fine, with real moves it is not.
        assert!(AnalyzeRequest::parse(&words("allow b D4 1 avoid b pass 1"), 19).is_ok());
        assert!(AnalyzeRequest::parse(&words("allow b D4 1 avoid w D5 1"), 19).is_err());
    }

    #[test]
    fn rejects_malformed_arguments() {
        for bad in [
            "b 10 bogus 1",
            "b w",
            "10 20",
            "interval",
            "interval -1",
            "interval x",
            "minmoves -2",
            "ownership maybe",
            "avoid b D4",
            "avoid b D4 0",
            "avoid x D4 1",
            "avoid b Z99 1",
            "avoid b I4 1",
            "avoid b , 1",
            "avoid b A1:pass 1",
            "allow b D4 1 allow b E4 1",
        ] {
            let result = AnalyzeRequest::parse(&words(bad), 19);
            let message = result.expect_err(bad);
            assert!(message.starts_with(CANNOT_PARSE), "{bad}: {message}");
        }
    }

    #[test]
    fn leela_zero_lines_are_integers_with_pv_last() {
        let request = AnalyzeRequest::parse(&words("10"), 19).unwrap();
        let line = info_line(Dialect::LeelaZero, &snapshot(), &request);
        assert_eq!(
            line,
            "info move Q16 visits 80 winrate 4405 prior 1828 lcb 4305 order 0 pv Q16 D4 pass \
             info move D4 visits 20 winrate 4100 prior 1828 lcb 4000 order 1 pv D4"
        );
        // Every value parses as Lizzie parses it.
        for block in line.split(" info ") {
            let tokens: Vec<&str> = block.trim_start_matches("info ").split(' ').collect();
            let pv_at = tokens.iter().position(|&token| token == "pv").unwrap();
            for pair in tokens[..pv_at].chunks(2) {
                if pair[0] != "move" {
                    pair[1].parse::<i32>().unwrap();
                }
            }
        }
    }

    #[test]
    fn katago_lines_use_floats_with_a_decimal_point() {
        let mut request = AnalyzeRequest::parse(&words("B 50 minmoves 4"), 19).unwrap();
        let line = info_line(Dialect::KataGo, &snapshot(), &request);
        assert!(line.starts_with(
            "info move Q16 visits 80 winrate 0.440500 scoreMean 1.2500 scoreLead 1.2500 \
             prior 0.182800 lcb 0.430500 order 0 pv Q16 D4 pass info move D4"
        ));
        // minmoves adds unvisited moves, pass included, in the search's order.
        assert!(line.contains("info move pass visits 0 "));
        assert!(line.ends_with("order 3 pv K10"));
        request.maximum_moves = Some(1);
        let capped = info_line(Dialect::KataGo, &snapshot(), &request);
        assert_eq!(capped.matches("info ").count(), 1);
        for block in line.split("info ").skip(1) {
            let tokens: Vec<&str> = block.split_whitespace().collect();
            for key in ["winrate", "prior", "lcb", "scoreLead"] {
                let at = tokens.iter().position(|&token| token == key).unwrap();
                assert!(tokens[at + 1].contains('.'), "{key} in {block}");
            }
        }
    }

    #[test]
    fn restricted_moves_are_left_out_and_cut_variations() {
        let request = AnalyzeRequest::parse(&words("b 10 avoid b Q16 1 avoid w D4 2"), 19).unwrap();
        let line = info_line(Dialect::LeelaZero, &snapshot(), &request);
        assert_eq!(
            line,
            "info move D4 visits 20 winrate 4100 prior 1828 lcb 4000 order 0 pv D4"
        );
        let cut = AnalyzeRequest::parse(&words("b 10 avoid w D4 2"), 19).unwrap();
        let line = info_line(Dialect::LeelaZero, &snapshot(), &cut);
        assert!(line.contains("pv Q16 info move D4"), "{line}");
    }

    #[test]
    fn principal_variation_visits_come_before_pv() {
        let mut data = snapshot();
        data.candidates[0].principal_variation_visits = vec![80, 41, 7, 3];
        let request = AnalyzeRequest::parse(&words("b 10 pvVisits true"), 19).unwrap();
        let line = info_line(Dialect::KataGo, &data, &request);
        assert!(
            line.contains("order 0 pvVisits 80 41 7 pv Q16 D4 pass info"),
            "{line}"
        );
        // Without the search's figures the field is left out rather than made up.
        assert!(line.ends_with("order 1 pv D4"), "{line}");
    }

    #[test]
    fn ownership_is_row_major_from_the_top_for_the_side_to_move() {
        let size = 3;
        let mut ownership = vec![0.0f32; crate::go::rules::point::array_length(size)];
        ownership[point("A3", size).index()] = 1.0;
        ownership[point("C1", size).index()] = -0.5;
        let data = AnalysisSnapshot {
            size,
            to_move: Color::White,
            root_visits: 10,
            win_rate: 0.5,
            score_lead: 0.0,
            candidates: vec![],
            ownership,
            playouts: 10,
            elapsed: Duration::ZERO,
        };
        let request =
            AnalyzeRequest::parse(&words("10 ownership true rootInfo true"), size).unwrap();
        assert_eq!(
            info_line(Dialect::KataGo, &data, &request),
            "rootInfo visits 10 winrate 0.500000 scoreMean 0.0000 scoreLead 0.0000 \
             ownership -1.0000 0.0000 0.0000 0.0000 0.0000 0.0000 0.0000 0.0000 0.5000"
        );
        // Leela Zero's dialect has no ownership.
        assert_eq!(info_line(Dialect::LeelaZero, &data, &request), "");
        assert_eq!(
            gogui_ownership_board(&data).unwrap(),
            "1.00 0.00 0.00\n0.00 0.00 0.00\n0.00 0.00 -0.50"
        );
        assert_eq!(
            gogui_ownership_shading(&data).unwrap(),
            "INFLUENCE A3 1.00 C1 -0.50"
        );
    }

    #[test]
    fn decimals_always_have_a_point_and_no_negative_zero() {
        assert_eq!(decimal(0.5, 6), "0.500000");
        assert_eq!(decimal(-0.000001, 4), "0.0000");
        assert_eq!(decimal(-1.25, 2), "-1.25");
        assert_eq!(decimal(f64::NAN, 3), "0.000");
        assert_eq!(decimal(3.0, 0), "3.0");
        assert_eq!(ten_thousandths(1.2), 10_000);
        assert_eq!(ten_thousandths(-0.1), 0);
        assert_eq!(ten_thousandths(f64::INFINITY), 0);
    }

    #[test]
    fn gogui_answers_have_the_documented_shapes() {
        let commands = gogui_analyze_commands();
        for line in commands.lines() {
            let fields: Vec<&str> = line.split('/').collect();
            assert_eq!(fields.len(), 3, "{line}");
            assert!(
                ["dboard", "gfx", "var", "string", "param"].contains(&fields[0]),
                "{line}"
            );
        }
        let data = snapshot();
        let labels = gogui_win_rates(&data);
        assert!(labels.starts_with("LABEL Q16 44% D4 41%\nTEXT black to move: best Q16"));
        assert!(gogui_visits(&data).starts_with("LABEL Q16 80 D4 20\n"));
        assert_eq!(gogui_principal_variation(&data), "Q16 D4 pass");
        let statistics = gogui_statistics(&data);
        assert!(statistics.lines().all(|line| !line.trim().is_empty()));
        assert!(statistics.contains("Playouts: 100 in 0.50 s (200 per second)"));
        assert_eq!(gogui_ownership_board(&data), None);
        assert_eq!(
            gogui_dead_stones(&["C3".into(), "D3".into()], &[]),
            "MARK C3 D3\nTEXT 2 dead stones, 0 stones in seki"
        );
        assert_eq!(
            gogui_parameters(&[
                ("ponder".into(), ParameterValue::Boolean(true)),
                ("playouts".into(), ParameterValue::Text("5000".into())),
                (
                    "level".into(),
                    ParameterValue::Choice("hard".into(), vec!["easy".into(), "hard".into()])
                ),
            ]),
            "[bool] ponder 1\n[string] playouts 5000\n[list/easy/hard] level hard"
        );
        assert_eq!(compact_count(999), "999");
        assert_eq!(compact_count(1_234), "1.2k");
        assert_eq!(compact_count(56_789), "56k");
        assert_eq!(compact_count(1_400_000), "1.4M");
    }

    #[test]
    fn search_parameters_show_as_gogui_types() {
        let shown = parameter_values(&SearchParams::default());
        let kind = |name: &str| {
            shown
                .iter()
                .find(|(known, _)| known == name)
                .map(|(_, value)| value.clone())
        };
        assert!(
            matches!(kind("playout"), Some(ParameterValue::Choice(_, choices)) if choices.len() == 2)
        );
        assert!(matches!(
            kind("priors"),
            Some(ParameterValue::Boolean(true))
        ));
        assert!(matches!(kind("equiv_rave"), Some(ParameterValue::Text(_))));
        assert_eq!(shown.len(), SearchParams::names().len());
        let text = gogui_parameters(&shown);
        assert!(text.lines().all(|line| line.starts_with('[')));
    }

    #[test]
    fn log_lines_never_look_like_engine_output() {
        for message in [
            "info move D4",
            "play D4",
            "= 3",
            "? oops",
            "komi=7.5",
            "Tuning done",
            "D4 -> 120 (V: 50.00%)",
            "sent MAIN:hello",
            "malkovich:thinking",
            "CHAT:Visits 5",
            "two\ninfo lines",
        ] {
            let safe = stderr_safe(message);
            for line in safe.lines() {
                assert!(!looks_like_engine_output(line), "{message:?} gave {line:?}");
            }
            assert!(safe.lines().count() == message.lines().count());
        }
        assert!(looks_like_engine_output("info move D4"));
        assert!(looks_like_engine_output("x MAIN: y"));
        assert!(!looks_like_engine_output("ishi: playouts 100"));
    }
}
