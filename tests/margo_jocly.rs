//! Differential test of ishi's Margo rules against Jocly's Margo model, through the Node
//! oracle `tests/jocly/margo-oracle.mjs` (run `npm ci` in `tests/jocly` first).
//!
//! Seeded random games on 5x5 to 7x7 (White moves first as in Jocly, no swap) use only moves
//! both programs should accept. At every position the boards (from the oracle's `detail`) and
//! the legal-move sets are compared.
//! - Jocly makes no revealed captures (it refuses such a move) and forbids an earlier board
//!   whoever is to move, so it may list fewer moves than ishi; every move only ishi lists must
//!   be one of those two cases.
//! - Jocly keeps groups incrementally and, after some captures, removes a ball that was buried
//!   when the capture began (the sheet: a buried ball belongs to no group, so ishi keeps it).
//!   Such a board divergence is recognised exactly (the missing balls were buried before the
//!   move, nothing else differs) and ends the comparison of that game; any other divergence
//!   fails.
//! - Jocly's incremental group state goes stale (groups keep freedoms they no longer have or
//!   lose ones they have). The oracle therefore also asks a FRESH Jocly board (same contents,
//!   side to move and history, the group state rebuilt from the contents) at every position.
//!   A move only one program lists is accepted when the fresh board sides with ishi
//!   (`jocly_stale_state`); the fresh list itself must never hold a move ishi lacks, and every
//!   move ishi has and the fresh list lacks must be a revealed capture, a repetition with the
//!   other side to move, a 32-bit hash collision, or `jocly_unburied_freedom` below.
//! - Jocly's bookkeeping also errs inside the move itself, where a fresh board cannot help.
//!   The oracle therefore also judges some moves by Jocly's rules applied to the board
//!   contents alone (`judgeContents` in `margo-core.mjs`):
//!   - `jocly_unburied_freedom`: `ExtendMove` refuses a move that the contents rules allow;
//!     a friendly group's every freedom lies next to a ball the move's capture un-buried
//!     (Jocly never credits those freedoms), and the contents rules give ishi's board;
//!   - `jocly_captures_buried`: Jocly allows a move ishi calls suicide only because its
//!     capture also removes a ball buried when the move began (ishi's snapshot agrees it was
//!     buried); without that removal the contents rules refuse it too.
//!
//! Anything else fails, naming the game, position and move.
//!
//! Skipped, with a message on stderr, when `node` or the oracle's `node_modules` is missing.
//! `MARGO_JOCLY_GAMES=5:100,6:60,7:30` replaces the plan, `MARGO_JOCLY_DUMP=/path` writes the
//! games as oracle requests; `--nocapture` shows the classes.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use ishi::color::Color;
use ishi::margo::notation::format_point;
use ishi::margo::{Game, Move, Point, Position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// (size, games): 205 games, about 35 s of CPU time in all (the oracle's share is about
/// 0.07 s a 5x5 game, 0.18 s a 6x6 and 0.5 s a 7x7 game), so under 30 s of wall time on an
/// idle 2-core machine with the two oracle processes.
const PLAN: [(usize, u64); 3] = [(5, 140), (6, 45), (7, 20)];

/// `PLAN`, or `MARGO_JOCLY_GAMES` (for instance `5:100,6:60,7:30`) when it is set.
fn plan() -> Vec<(usize, u64)> {
    let Ok(text) = std::env::var("MARGO_JOCLY_GAMES") else {
        return PLAN.to_vec();
    };
    text.split(',')
        .map(|entry| {
            let (size, games) = entry
                .split_once(':')
                .expect("MARGO_JOCLY_GAMES: size:games,...");
            (
                size.trim().parse().expect("a size"),
                games.trim().parse().expect("a game count"),
            )
        })
        .collect()
}

const REVEALED: &str = "revealed capture";
const REPETITION: &str = "repeats an earlier board with the other side to move";

/// A board as the oracle writes it: (vertex, level, 1 = White (Jocly's first player) or 2).
type Board = BTreeSet<(String, u64, u64)>;

/// One position of a generated game.
struct Snapshot {
    /// ishi's legal moves, each with the reason Jocly is expected to refuse it, if any.
    legal: BTreeMap<String, Option<&'static str>>,
    board: Board,
    /// The vertices of the buried balls.
    buried: BTreeSet<(String, u64)>,
}

struct Record {
    name: String,
    size: usize,
    moves: Vec<String>,
    positions: Vec<Snapshot>,
}

/// Why Jocly would refuse a move ishi allows, or `None` when Jocly should allow it too.
fn jocly_refusal(game: &Game, color: Color, mv: Move) -> Option<&'static str> {
    let mut trial = game.clone();
    match trial.play(color, mv) {
        Ok(report) if report.revealed_capture => Some(REVEALED),
        Ok(_) if game.repeats_position_either_side(color, mv) => Some(REPETITION),
        _ => None,
    }
}

fn board_of(position: &Position) -> (Board, BTreeSet<(String, u64)>) {
    let geometry = position.geometry();
    let mut board = Board::new();
    let mut buried = BTreeSet::new();
    for index in 0..geometry.point_count() {
        let point = Point(index as u16);
        if let Some(color) = position.get(point) {
            let vertex = format_point(geometry, point);
            let level = geometry.coordinates(point).level as u64;
            let side = if color == Color::White { 1 } else { 2 };
            if position.is_buried(point) {
                buried.insert((vertex.clone(), level));
            }
            board.insert((vertex, level, side));
        }
    }
    (board, buried)
}

fn generate(size: usize, seed: u64) -> Record {
    let mut rng = SmallRng::seed_from_u64(seed.wrapping_mul(0x9E37_79B9) ^ size as u64);
    let mut game = Game::new(size).expect("supported size");
    game.set_swap_enabled(false);
    let mut legal = Vec::new();
    let mut moves = Vec::new();
    let mut positions = Vec::new();
    let cap = game.position().geometry().point_count() * 3;
    loop {
        let color = game.mover_or(Color::White);
        game.legal_moves(color, &mut legal);
        let mut listed = BTreeMap::new();
        let mut playable = Vec::new();
        for &mv in &legal {
            let refusal = jocly_refusal(&game, color, mv);
            if refusal.is_none() {
                playable.push(mv);
            }
            listed.insert(game.format_move(mv), refusal);
        }
        let (board, buried) = board_of(game.position());
        positions.push(Snapshot {
            legal: listed,
            board,
            buried,
        });
        if playable.is_empty() || moves.len() >= cap {
            break;
        }
        let mv = playable[rng.gen_range(0..playable.len())];
        moves.push(game.format_move(mv));
        game.play(color, mv).expect("listed as legal");
    }
    Record {
        name: format!("{size}x{size} game {seed}"),
        size,
        moves,
        positions,
    }
}

/// ishi's board after the moves of the record up to `index` and then `extra`.
fn ishi_board_after(record: &Record, index: usize, extra: &str) -> Option<Board> {
    let mut game = Game::new(record.size).ok()?;
    game.set_swap_enabled(false);
    for text in record.moves[..index]
        .iter()
        .map(String::as_str)
        .chain([extra])
    {
        let color = game.mover_or(Color::White);
        let mv = game.parse_move(text).ok()?;
        game.play(color, mv).ok()?;
    }
    Some(board_of(game.position()).0)
}

fn oracle_available() -> Result<PathBuf, String> {
    let directory = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("jocly");
    let script = directory.join("margo-oracle.mjs");
    if !script.is_file() {
        return Err(format!("{} is missing", script.display()));
    }
    if !directory.join("node_modules").is_dir() {
        return Err(format!(
            "{} is missing (run `npm ci` there)",
            directory.join("node_modules").display()
        ));
    }
    match Command::new("node").arg("--version").output() {
        Ok(output) if output.status.success() => Ok(directory),
        _ => Err("`node` is not on the PATH".to_string()),
    }
}

/// Sends one request line per game to one oracle process and returns its answer lines.
fn ask_oracle(directory: &Path, records: &[Record]) -> Vec<String> {
    let mut child = Command::new("node")
        .arg("margo-oracle.mjs")
        .current_dir(directory)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start node");
    let mut requests = String::new();
    for record in records {
        let quoted: Vec<String> = record.moves.iter().map(|mv| format!("\"{mv}\"")).collect();
        requests.push_str(&format!(
            "{{\"size\":{},\"moves\":[{}],\"detail\":true,\"fresh\":true}}\n",
            record.size,
            quoted.join(",")
        ));
    }
    let mut stdin = child.stdin.take().expect("oracle stdin");
    let writer = std::thread::spawn(move || {
        stdin
            .write_all(requests.as_bytes())
            .expect("write requests");
    });
    let stdout = child.stdout.take().expect("oracle stdout");
    let answers: Vec<String> = BufReader::new(stdout)
        .lines()
        .take(records.len())
        .map(|line| line.expect("read an answer"))
        .collect();
    writer.join().expect("writer thread");
    let _ = child.wait();
    answers
}

/// Just enough JSON for the oracle's answers.
#[derive(Debug)]
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    Text(String),
    List(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn parse(text: &str) -> Result<Json, String> {
        let characters: Vec<char> = text.chars().collect();
        let mut at = 0;
        let value = Json::value(&characters, &mut at)?;
        Ok(value)
    }

    fn skip_space(characters: &[char], at: &mut usize) {
        while *at < characters.len() && characters[*at].is_whitespace() {
            *at += 1;
        }
    }

    fn value(characters: &[char], at: &mut usize) -> Result<Json, String> {
        Json::skip_space(characters, at);
        let Some(&first) = characters.get(*at) else {
            return Err("unexpected end".to_string());
        };
        match first {
            '[' => {
                *at += 1;
                let mut items = Vec::new();
                loop {
                    Json::skip_space(characters, at);
                    if characters.get(*at) == Some(&']') {
                        *at += 1;
                        return Ok(Json::List(items));
                    }
                    items.push(Json::value(characters, at)?);
                    Json::skip_space(characters, at);
                    if characters.get(*at) == Some(&',') {
                        *at += 1;
                    }
                }
            }
            '{' => {
                *at += 1;
                let mut fields = Vec::new();
                loop {
                    Json::skip_space(characters, at);
                    if characters.get(*at) == Some(&'}') {
                        *at += 1;
                        return Ok(Json::Object(fields));
                    }
                    let Json::Text(key) = Json::value(characters, at)? else {
                        return Err("object key is not a string".to_string());
                    };
                    Json::skip_space(characters, at);
                    if characters.get(*at) != Some(&':') {
                        return Err("missing ':'".to_string());
                    }
                    *at += 1;
                    fields.push((key, Json::value(characters, at)?));
                    Json::skip_space(characters, at);
                    if characters.get(*at) == Some(&',') {
                        *at += 1;
                    }
                }
            }
            '"' => {
                *at += 1;
                let mut text = String::new();
                while let Some(&character) = characters.get(*at) {
                    *at += 1;
                    match character {
                        '"' => return Ok(Json::Text(text)),
                        '\\' => {
                            if let Some(&escaped) = characters.get(*at) {
                                text.push(escaped);
                                *at += 1;
                            }
                        }
                        other => text.push(other),
                    }
                }
                Err("unterminated string".to_string())
            }
            't' | 'f' | 'n' => {
                let word: String = characters[*at..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphabetic())
                    .collect();
                *at += word.len();
                match word.as_str() {
                    "true" => Ok(Json::Bool(true)),
                    "false" => Ok(Json::Bool(false)),
                    "null" => Ok(Json::Null),
                    _ => Err(format!("unknown word {word}")),
                }
            }
            _ => {
                let number: String = characters[*at..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E'))
                    .collect();
                *at += number.len().max(1);
                number
                    .parse()
                    .map(Json::Number)
                    .map_err(|_| format!("bad number {number:?}"))
            }
        }
    }

    fn field(&self, name: &str) -> Option<&Json> {
        match self {
            Json::Object(fields) => fields.iter().find(|(key, _)| key == name).map(|(_, v)| v),
            _ => None,
        }
    }

    fn items(&self) -> &[Json] {
        match self {
            Json::List(items) => items,
            _ => &[],
        }
    }

    fn text(&self) -> Option<&str> {
        match self {
            Json::Text(text) => Some(text),
            _ => None,
        }
    }

    fn truth(&self) -> Option<bool> {
        match self {
            Json::Bool(truth) => Some(*truth),
            _ => None,
        }
    }

    fn number(&self) -> Option<u64> {
        match self {
            Json::Number(number) => Some(*number as u64),
            _ => None,
        }
    }
}

/// The oracle's `judged` entry for one move (see `margo-oracle.mjs`).
struct Judged {
    /// Whether the fresh Jocly board allows the move.
    jocly: bool,
    /// Whether Jocly's rules on the contents alone allow it.
    judge: bool,
    /// Balls Jocly's capture removes and the contents rules do not.
    extra: Vec<String>,
    /// Balls the contents rules remove and Jocly's capture does not.
    missing: Vec<String>,
    /// Friendly groups whose every freedom lies next to a ball the move un-buried.
    unburied_only: usize,
    /// The board the contents rules make of a move `ExtendMove` refuses.
    board: Option<Board>,
}

/// One oracle answer: the legal lists and boards per position, and the refusal if any.
struct Answer {
    legal: Vec<BTreeSet<String>>,
    /// The legal lists of a fresh Jocly board (same contents, side to move and history, the
    /// incremental group state rebuilt from the contents).
    fresh: Vec<BTreeSet<String>>,
    /// How Jocly's incremental state differs from the fresh one ([] where they agree).
    stale: Vec<Vec<String>>,
    /// (position, move, "kept" | "fresh"): refused by a 32-bit Zobrist collision.
    collisions: BTreeSet<(usize, String, String)>,
    /// Move index -> the board the fresh Jocly board makes of it (None: refused), where that
    /// differs from Jocly's own.
    fresh_next: BTreeMap<usize, Option<Board>>,
    /// Moves Jocly's own board refused and the oracle played from the fresh board instead.
    repaired: Vec<usize>,
    /// (position, move) -> Jocly's rules applied to the board contents alone, for a move the
    /// fresh board allows whose capture removes a ball buried before the move, or one its
    /// `ExtendMove` refuses that those rules allow.
    judged: BTreeMap<(usize, String), Judged>,
    /// Moves `ExtendMove` refused and the oracle played from the contents' result instead.
    content_played: Vec<usize>,
    boards: Vec<Board>,
    refusal: Option<String>,
}

fn texts(list: &Json) -> Vec<String> {
    list.items()
        .iter()
        .filter_map(|v| v.text().map(String::from))
        .collect()
}

fn board_from(board: &Json) -> Board {
    board
        .items()
        .iter()
        .filter_map(|ball| match ball.items() {
            [vertex, level, side] => {
                Some((vertex.text()?.to_string(), level.number()?, side.number()?))
            }
            _ => None,
        })
        .collect()
}

fn parse_answer(line: &str) -> Result<Answer, String> {
    let json = Json::parse(line)?;
    let lists = |name: &str| -> Vec<BTreeSet<String>> {
        json.field(name)
            .map(|lists| {
                lists
                    .items()
                    .iter()
                    .map(|list| texts(list).into_iter().collect())
                    .collect()
            })
            .unwrap_or_default()
    };
    let legal = lists("legal");
    let fresh = lists("fresh_legal");
    let stale = json
        .field("stale")
        .map(|lists| lists.items().iter().map(texts).collect())
        .unwrap_or_default();
    let collisions = json
        .field("collisions")
        .map(|list| {
            list.items()
                .iter()
                .filter_map(|entry| match entry.items() {
                    [at, vertex, which] => Some((
                        at.number()? as usize,
                        vertex.text()?.to_string(),
                        which.text()?.to_string(),
                    )),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    let fresh_next = json
        .field("fresh_next")
        .map(|list| {
            list.items()
                .iter()
                .filter_map(|entry| match entry.items() {
                    [at, board] => Some((
                        at.number()? as usize,
                        match board {
                            Json::Null => None,
                            board => Some(board_from(board)),
                        },
                    )),
                    _ => None,
                })
                .collect()
        })
        .unwrap_or_default();
    let repaired = json
        .field("repaired")
        .map(|list| {
            list.items()
                .iter()
                .filter_map(Json::number)
                .map(|k| k as usize)
                .collect()
        })
        .unwrap_or_default();
    let mut judged = BTreeMap::new();
    for entry in json.field("judged").map(Json::items).unwrap_or_default() {
        let [at, fields] = entry.items() else {
            continue;
        };
        let (Some(at), Some(vertex)) = (at.number(), fields.field("v").and_then(Json::text)) else {
            continue;
        };
        let list = |name: &str| fields.field(name).map(texts).unwrap_or_default();
        judged.insert(
            (at as usize, vertex.to_string()),
            Judged {
                jocly: fields.field("jocly").and_then(Json::truth).unwrap_or(false),
                judge: fields.field("judge").and_then(Json::truth).unwrap_or(false),
                extra: list("extra"),
                missing: list("missing"),
                unburied_only: fields.field("unburied_only").map_or(0, |g| g.items().len()),
                board: fields.field("board").map(board_from),
            },
        );
    }
    let content_played = json
        .field("content_played")
        .map(|list| {
            list.items()
                .iter()
                .filter_map(Json::number)
                .map(|k| k as usize)
                .collect()
        })
        .unwrap_or_default();
    let boards = json
        .field("boards")
        .map(|boards| boards.items().iter().map(board_from).collect())
        .unwrap_or_default();
    let refusal = json.field("error").map(|error| {
        let at = json.field("at").and_then(Json::number);
        format!("{} (move index {at:?})", error.text().unwrap_or("?"))
    });
    Ok(Answer {
        legal,
        fresh,
        stale,
        collisions,
        fresh_next,
        repaired,
        judged,
        content_played,
        boards,
        refusal,
    })
}

const STALE_REFUSED: &str =
    "jocly_stale_state: Jocly refuses it, a fresh Jocly board of the same position allows it";
const STALE_ALLOWED: &str = "jocly_stale_state: Jocly allows it, a fresh Jocly board of the \
                             same position refuses it (as ishi does)";
const CAPTURES_BURIED: &str = "jocly_captures_buried: Jocly allows it only because its capture \
                               removes a ball that was buried when the move began; its own rules \
                               on the contents without that removal refuse it, as ishi does";
const UNBURIED_FREEDOM: &str = "jocly_unburied_freedom: Jocly refuses it because its bookkeeping \
                                gives a ball un-buried by the capture none of its freedoms; its \
                                own rules on the contents allow it, as ishi does";
const COLLISION: &str = "jocly_hash_collision: refused by a 32-bit Zobrist sign of another board";

/// The moves of one class, and the (game, position) pairs they occur at.
#[derive(Default)]
struct Cases {
    moves: usize,
    at: BTreeSet<(String, usize)>,
}

impl Cases {
    fn add(&mut self, game: &str, position: usize) {
        self.moves += 1;
        self.at.insert((game.to_string(), position));
    }
}

impl std::fmt::Display for Cases {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let games: BTreeSet<_> = self.at.iter().map(|(game, _)| game).collect();
        write!(
            formatter,
            "{:5} moves, {:4} positions, {:3} games",
            self.moves,
            self.at.len(),
            games.len()
        )
    }
}

#[derive(Default)]
struct Tally {
    failures: Vec<String>,
    /// Moves one side lists and the other does not, by class.
    explained: BTreeMap<&'static str, Cases>,
    /// Moves ishi flags (revealed capture, repetition) that the fresh Jocly board allows anyway.
    allowed_anyway: BTreeMap<&'static str, Cases>,
    /// Positions where Jocly's incremental state differs from the fresh one.
    stale_positions: usize,
    /// Positions where that changed Jocly's legal list.
    stale_list_positions: usize,
    buried_removals: usize,
    stale_divergences: usize,
    compared: usize,
    games_with_stale_state: usize,
    repaired: usize,
    content_played: usize,
}

/// Compares one game; stops at a recognised board divergence.
fn compare_game(record: &Record, answer: &Answer, tally: &mut Tally) {
    let mut stale_game = false;
    tally.repaired += answer.repaired.len();
    tally.content_played += answer.content_played.len();
    for (index, position) in record.positions.iter().enumerate() {
        let context = format!(
            "{} position {index} (after {})",
            record.name,
            record.moves[..index].join(" ")
        );
        let (Some(jocly), Some(fresh), Some(jocly_board)) = (
            answer.legal.get(index),
            answer.fresh.get(index),
            answer.boards.get(index),
        ) else {
            if answer.refusal.is_none() {
                tally
                    .failures
                    .push(format!("{context}: no list from Jocly"));
            }
            break;
        };
        if *jocly_board != position.board {
            let only_ishi: Vec<_> = position.board.difference(jocly_board).collect();
            let only_jocly: Vec<_> = jocly_board.difference(&position.board).collect();
            let before = index
                .checked_sub(1)
                .map(|previous| &record.positions[previous]);
            let buried_before = only_jocly.is_empty()
                && before.is_some_and(|previous| {
                    only_ishi.iter().all(|(vertex, level, _)| {
                        previous.buried.contains(&(vertex.clone(), *level))
                    })
                });
            // The previous move, replayed on a fresh Jocly board, gives ishi's board.
            let fresh_agrees = index.checked_sub(1).is_some_and(|previous| {
                answer.fresh_next.get(&previous) == Some(&Some(position.board.clone()))
            });
            if fresh_agrees {
                tally.stale_divergences += 1;
            } else if buried_before {
                tally.buried_removals += 1;
            } else {
                tally.failures.push(format!(
                    "{context}: boards differ: only ishi has {only_ishi:?}, only Jocly {only_jocly:?}"
                ));
            }
            if stale_game {
                tally.games_with_stale_state += 1;
            }
            return;
        }
        tally.compared += 1;
        let stale = answer.stale.get(index).is_some_and(|diff| !diff.is_empty());
        if stale {
            tally.stale_positions += 1;
            stale_game = true;
            if jocly != fresh {
                tally.stale_list_positions += 1;
            }
        }
        let collision = |mv: &String, which: &str| {
            answer
                .collisions
                .contains(&(index, mv.clone(), which.to_string()))
        };
        // The fresh board is Jocly's rules without its bookkeeping: it must never allow more
        // than ishi.
        let judged = |mv: &String| answer.judged.get(&(index, mv.clone()));
        for mv in fresh {
            // Jocly's capture took a ball that was buried when the move began (ishi's snapshot
            // agrees it was buried), and without that removal Jocly's rules refuse the move.
            let buried_capture = judged(mv).is_some_and(|j| {
                j.jocly
                    && !j.judge
                    && j.missing.is_empty()
                    && !j.extra.is_empty()
                    && j.extra.iter().all(|ball| {
                        ball.split_once('/').is_some_and(|(vertex, level)| {
                            level.parse().is_ok_and(|level: u64| {
                                position.buried.contains(&(vertex.to_string(), level))
                            })
                        })
                    })
            });
            if !position.legal.contains_key(mv) && buried_capture {
                tally
                    .explained
                    .entry(CAPTURES_BURIED)
                    .or_default()
                    .add(&record.name, index);
            } else if !position.legal.contains_key(mv) {
                tally.failures.push(format!(
                    "{context}: Jocly allows {mv} (fresh board too), ishi does not"
                ));
            }
        }
        for mv in jocly {
            if !position.legal.contains_key(mv) && !fresh.contains(mv) {
                tally
                    .explained
                    .entry(STALE_ALLOWED)
                    .or_default()
                    .add(&record.name, index);
                eprintln!(
                    "{context}: Jocly allows {mv}, its fresh board does not ({STALE_ALLOWED}); \
                     stale state: {:?}",
                    answer.stale.get(index)
                );
            }
        }
        for (mv, refusal) in &position.legal {
            let listed = jocly.contains(mv);
            let listed_fresh = fresh.contains(mv);
            match (listed_fresh, refusal) {
                (false, Some(reason)) => {
                    if !listed {
                        tally
                            .explained
                            .entry(reason)
                            .or_default()
                            .add(&record.name, index);
                    }
                }
                (false, None) if collision(mv, "fresh") => {
                    if !listed {
                        tally
                            .explained
                            .entry(COLLISION)
                            .or_default()
                            .add(&record.name, index);
                    }
                }
                // ExtendMove refuses it, Jocly's rules on the contents allow it and give ishi's
                // board, and a friendly group's freedoms all lie next to balls the move
                // un-buried.
                (false, None)
                    if judged(mv).is_some_and(|j| {
                        !j.jocly
                            && j.judge
                            && j.unburied_only > 0
                            && j.board.is_some()
                            && j.board == ishi_board_after(record, index, mv)
                    }) =>
                {
                    if !listed {
                        tally
                            .explained
                            .entry(UNBURIED_FREEDOM)
                            .or_default()
                            .add(&record.name, index);
                    }
                }
                (false, None) => tally.failures.push(format!(
                    "{context}: ishi allows {mv}, Jocly does not (a fresh Jocly board neither)"
                )),
                // Jocly may still allow such a move: it captures a ball un-buried by a capture
                // in the same pass (ishi in the next enemy round).
                (true, Some(reason)) => tally
                    .allowed_anyway
                    .entry(reason)
                    .or_default()
                    .add(&record.name, index),
                (true, None) => {}
            }
            if listed_fresh && !listed {
                if collision(mv, "kept") {
                    tally
                        .explained
                        .entry(COLLISION)
                        .or_default()
                        .add(&record.name, index);
                } else {
                    tally
                        .explained
                        .entry(STALE_REFUSED)
                        .or_default()
                        .add(&record.name, index);
                }
            }
        }
    }
    if stale_game {
        tally.games_with_stale_state += 1;
    }
    if let Some(refusal) = &answer.refusal {
        tally
            .failures
            .push(format!("{}: Jocly refused a move: {refusal}", record.name));
    }
}

#[test]
fn legal_moves_agree_with_jocly() {
    let directory = match oracle_available() {
        Ok(directory) => directory,
        Err(why) => {
            eprintln!("margo_jocly skipped: {why}");
            return;
        }
    };
    let start = Instant::now();
    let mut records = Vec::new();
    for (size, games) in plan() {
        for seed in 0..games {
            records.push(generate(size, seed));
        }
    }
    let generated = start.elapsed();
    if let Ok(path) = std::env::var("MARGO_JOCLY_DUMP") {
        // The games as oracle requests, one a line, for tracing by hand.
        let lines: String = records
            .iter()
            .map(|record| {
                let quoted: Vec<String> =
                    record.moves.iter().map(|mv| format!("\"{mv}\"")).collect();
                format!(
                    "{{\"name\":\"{}\",\"size\":{},\"moves\":[{}]}}\n",
                    record.name,
                    record.size,
                    quoted.join(",")
                )
            })
            .collect();
        std::fs::write(&path, lines).expect("write MARGO_JOCLY_DUMP");
    }
    // Two oracle processes, each on about half of the work: the oracle tries every legal
    // move of every position, each at a cost that grows with the board.
    let work = |record: &Record| -> usize {
        record
            .positions
            .iter()
            .map(|position| (position.legal.len() + 1) * record.size * record.size)
            .sum()
    };
    let total: usize = records.iter().map(work).sum();
    let mut split = 0;
    let mut running = 0;
    while split < records.len() && 2 * running < total {
        running += work(&records[split]);
        split += 1;
    }
    let (first, second) = records.split_at(split);
    let timed = |records: &[Record]| {
        let begun = Instant::now();
        let answers = ask_oracle(&directory, records);
        (answers, begun.elapsed())
    };
    let (answers, oracle_times) = std::thread::scope(|scope| {
        let other = scope.spawn(|| timed(second));
        let (mut answers, first_time) = timed(first);
        let (rest, second_time) = other.join().expect("oracle thread");
        answers.extend(rest);
        (answers, [first_time, second_time])
    });
    assert_eq!(
        answers.len(),
        records.len(),
        "the oracle answered too few lines"
    );
    let mut tally = Tally::default();
    for (record, line) in records.iter().zip(&answers) {
        match parse_answer(line) {
            Ok(answer) => compare_game(record, &answer, &mut tally),
            Err(error) => tally
                .failures
                .push(format!("{}: unreadable answer: {error}", record.name)),
        }
    }
    eprintln!(
        "margo_jocly: {} games, {} positions compared ({} with stale Jocly state in {} games, \
         {} of them with a changed list); generated in {generated:.2?}, oracles ({} and {} \
         games) {:.2?} and {:.2?}, total {:.2?}",
        records.len(),
        tally.compared,
        tally.stale_positions,
        tally.games_with_stale_state,
        tally.stale_list_positions,
        first.len(),
        second.len(),
        oracle_times[0],
        oracle_times[1],
        start.elapsed()
    );
    for (class, cases) in &tally.explained {
        eprintln!("  {cases}  {class}");
    }
    for (class, cases) in &tally.allowed_anyway {
        eprintln!("  {cases}  flagged by ishi ({class}) yet allowed by Jocly");
    }
    eprintln!(
        "  {:5}  games stopped where Jocly removed a ball buried when the capture began\n  \
         {:5}  games stopped where Jocly's board diverged and a fresh Jocly board gives ishi's\n  \
         {:5}  moves played from the fresh board because Jocly's own refused them (stale state)\n  \
         {:5}  moves played from the contents' result because ExtendMove refused them \
         (un-buried freedom)",
        tally.buried_removals, tally.stale_divergences, tally.repaired, tally.content_played
    );
    for failure in tally.failures.iter().take(20) {
        eprintln!("{failure}");
    }
    assert!(
        tally.failures.is_empty(),
        "{} disagreements with Jocly",
        tally.failures.len()
    );
}
