//! Teacher games: the JSON-lines files of `../shared/teacher/` and `scripts/teacher/` (one
//! game a line: `size`, `moves`, `policy` per position in thousandths over the points row by
//! row from the top-left, then pass; optional `handicap` stones placed before the first move,
//! White then moving first), read from plain or gzip'd files, and replayed into training
//! positions: the playout board before each move, the candidates the search would consider
//! (legal, not filling an own eye, and pass) and the teacher's probability of each.
//!
//! A game may also carry the teacher's `white_win` (its probability that White wins, one per
//! position), `white_lead` (White's expected score lead in points), `ownership` (per point,
//! row by row from the top-left, from White's view in hundredths) and its `komi` (7.5 when
//! absent): the value network's targets.
//!
//! Replays use simple ko with suicide forbidden (the teacher's rules); a game stops at the
//! first move that is illegal there. Knows the rules core, the playout board and JSON; nothing
//! of features or fitting.

use crate::color::Color;
use crate::go::learn::packed;
use crate::go::rules::board::Board;
use crate::go::rules::point::{parse_move, point_at, Move};
use crate::go::search::board::{PlayoutBoard, EMPTY, NO_POINT};
use flate2::read::MultiGzDecoder;
use serde_json::Value;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// One game as recorded by the teacher.
#[derive(Clone, Debug, PartialEq)]
pub struct TeacherGame {
    /// Board size.
    pub size: usize,
    /// Black stones set up before the first move (then White moves first).
    pub handicap: Vec<Move>,
    /// The moves played, in order.
    pub moves: Vec<Move>,
    /// The teacher's distribution before each move: size * size points row by row from the
    /// top-left, then pass, in thousandths.
    pub policy: Vec<Vec<u16>>,
    /// White's komi.
    pub komi: f64,
    /// The teacher's probability that White wins, before each move (empty when the file
    /// has none).
    pub white_win: Vec<f32>,
    /// The teacher's expected score lead of White in points, before each move (empty when
    /// the file has none).
    pub white_lead: Vec<f32>,
    /// The teacher's ownership before each move: size * size points row by row from the
    /// top-left, from White's view in hundredths (-100: Black's, 100: White's); empty when
    /// the file has none.
    pub ownership: Vec<Vec<i8>>,
}

/// One position for training: the board, the candidates and the teacher's view of them.
pub struct TeacherPosition {
    /// The board with the player to move's ko point and the last two moves.
    pub board: Box<PlayoutBoard>,
    /// The player to move.
    pub color: Color,
    /// Candidate points (pass is [`NO_POINT`], always last).
    pub candidates: Vec<u16>,
    /// The teacher's probability of each candidate, normalised over the candidates.
    pub targets: Vec<f32>,
    /// The index of the move the teacher played among the candidates, if it is one.
    pub played: Option<usize>,
    /// White's komi.
    pub komi: f64,
    /// The teacher's probability that the player to move wins, when the file gives it.
    pub win: Option<f32>,
    /// The teacher's expected score lead of the player to move, in points, when given.
    pub lead: Option<f32>,
    /// The teacher's ownership from the mover's view in hundredths (100: surely the
    /// mover's), in the networks' point order (row by row from the bottom-left), when given.
    pub ownership: Option<Vec<i8>>,
}

/// Reads every game of a teacher file, gzip'd when its name ends in `.gz`: JSON lines, or the
/// packed form of [`crate::go::learn::packed`] when the (unzipped) file starts with its magic.
///
/// # Errors
/// The file cannot be read, or a line (a record) is not a teacher game, with its number.
pub fn read_games(path: &Path) -> Result<Vec<TeacherGame>, String> {
    let file = File::open(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let mut reader: Box<dyn Read> = if path.extension().is_some_and(|extension| extension == "gz") {
        Box::new(MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut start = Vec::with_capacity(packed::MAGIC.len());
    (&mut reader)
        .take(packed::MAGIC.len() as u64)
        .read_to_end(&mut start)
        .map_err(|error| format!("{}: {error}", path.display()))?;
    if start == packed::MAGIC {
        let mut buffered = BufReader::with_capacity(1 << 20, reader);
        return packed::read_games_after_magic(&mut buffered)
            .map_err(|error| format!("{}: {error}", path.display()));
    }
    let mut games = Vec::new();
    for (number, line) in BufReader::new(std::io::Cursor::new(start).chain(reader))
        .lines()
        .enumerate()
    {
        let line = line.map_err(|error| format!("{}: {error}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let game = parse_game(&line)
            .map_err(|error| format!("{} line {}: {error}", path.display(), number + 1))?;
        games.push(game);
    }
    Ok(games)
}

/// Parses one line of a teacher file.
///
/// # Errors
/// Missing or malformed fields.
pub fn parse_game(line: &str) -> Result<TeacherGame, String> {
    let value: Value = serde_json::from_str(line).map_err(|error| error.to_string())?;
    let size = value["size"].as_u64().ok_or("no size")? as usize;
    if !Board::size_is_valid(size) {
        return Err(format!("bad size {size}"));
    }
    let vertices = |field: &str| -> Result<Vec<Move>, String> {
        match &value[field] {
            Value::Null => Ok(Vec::new()),
            Value::Array(items) => items
                .iter()
                .map(|item| {
                    let text = item.as_str().ok_or("a move is not text")?;
                    parse_move(text, size).map_err(|error| format!("{text}: {error}"))
                })
                .collect(),
            _ => Err(format!("{field} is not a list")),
        }
    };
    let handicap = vertices("handicap")?;
    let moves = vertices("moves")?;
    let rows = value["policy"].as_array().ok_or("no policy")?;
    let policy = rows
        .iter()
        .map(|row| {
            let row = row.as_array().ok_or("a policy row is not a list")?;
            if row.len() != size * size + 1 {
                return Err(format!("a policy row has {} entries", row.len()));
            }
            row.iter()
                .map(|entry| {
                    entry
                        .as_u64()
                        .map(|entry| entry.min(1000) as u16)
                        .ok_or_else(|| "a policy entry is not a number".to_string())
                })
                .collect()
        })
        .collect::<Result<Vec<Vec<u16>>, String>>()?;
    let komi = match &value["komi"] {
        Value::Null => 7.5,
        komi => komi.as_f64().ok_or("komi is not a number")?,
    };
    let white_win = match &value["white_win"] {
        Value::Null => Vec::new(),
        Value::Array(items) => items
            .iter()
            .map(|item| {
                item.as_f64()
                    .filter(|probability| (0.0..=1.0).contains(probability))
                    .map(|probability| probability as f32)
                    .ok_or_else(|| "a white_win entry is not a probability".to_string())
            })
            .collect::<Result<Vec<f32>, String>>()?,
        _ => return Err("white_win is not a list".to_string()),
    };
    let white_lead = match &value["white_lead"] {
        Value::Null => Vec::new(),
        Value::Array(items) => items
            .iter()
            .map(|item| {
                item.as_f64()
                    .filter(|lead| lead.abs() <= 1000.0)
                    .map(|lead| lead as f32)
                    .ok_or_else(|| "a white_lead entry is not a score".to_string())
            })
            .collect::<Result<Vec<f32>, String>>()?,
        _ => return Err("white_lead is not a list".to_string()),
    };
    let ownership = match &value["ownership"] {
        Value::Null => Vec::new(),
        Value::Array(rows) => rows
            .iter()
            .map(|row| {
                let row = row.as_array().ok_or("an ownership row is not a list")?;
                if row.len() != size * size {
                    return Err(format!("an ownership row has {} entries", row.len()));
                }
                row.iter()
                    .map(|entry| {
                        entry
                            .as_i64()
                            .filter(|entry| (-100..=100).contains(entry))
                            .map(|entry| entry as i8)
                            .ok_or_else(|| "an ownership entry is not in -100..100".to_string())
                    })
                    .collect()
            })
            .collect::<Result<Vec<Vec<i8>>, String>>()?,
        _ => return Err("ownership is not a list".to_string()),
    };
    Ok(TeacherGame {
        size,
        handicap,
        moves,
        policy,
        komi,
        white_win,
        white_lead,
        ownership,
    })
}

/// The policy index of a candidate point (pass is the last entry).
fn policy_index(point: usize, size: usize) -> usize {
    if point == NO_POINT {
        return size * size;
    }
    let stride = size + 1;
    let (column, row) = (point % stride - 1, point / stride - 1);
    (size - 1 - row) * size + column
}

/// Replays `game` and hands each position with a policy row to `visit` (in order). A
/// position whose candidates hold less than half of the teacher's probability is skipped
/// (the teacher wanted a move the search never lists).
pub fn replay(game: &TeacherGame, mut visit: impl FnMut(TeacherPosition)) {
    replay_all(game, |position, covered| {
        if covered {
            visit(position);
        }
    });
}

/// Replays `game` and hands every position with a policy row to `visit` (in order), with
/// whether its candidates hold at least half of the teacher's probability (the targets are
/// normalised over the candidates either way, all zero when they hold none).
pub fn replay_all(game: &TeacherGame, mut visit: impl FnMut(TeacherPosition, bool)) {
    let size = game.size;
    let mut board = Board::new(size);
    for stone in &game.handicap {
        if let Move::Place(point) = stone {
            if board.stone(*point).is_none() {
                board.setup_stone(*point, Color::Black);
            }
        }
    }
    let mut color = if game.handicap.is_empty() {
        Color::Black
    } else {
        Color::White
    };
    for (index, &played) in game.moves.iter().enumerate() {
        let Some(row) = game.policy.get(index) else {
            break;
        };
        let playout = PlayoutBoard::from_board(&board, color);
        let mut candidates = Vec::new();
        for row_index in 0..size {
            for column in 0..size {
                let point = point_at(column, row_index, size).index();
                if playout.cell(point) == EMPTY
                    && playout.is_legal(point, color)
                    && !playout.is_eye(point, color)
                {
                    candidates.push(point as u16);
                }
            }
        }
        candidates.push(NO_POINT as u16);
        let mut targets: Vec<f32> = candidates
            .iter()
            .map(|&point| row[policy_index(point as usize, size)] as f32)
            .collect();
        let total: f32 = targets.iter().sum();
        let played_index = match played {
            Move::Pass => Some(candidates.len() - 1),
            Move::Place(point) => candidates
                .iter()
                .position(|&candidate| candidate as usize == point.index()),
        };
        if total > 0.0 {
            for target in targets.iter_mut() {
                *target /= total;
            }
        }
        let win = game.white_win.get(index).map(|&white| match color {
            Color::White => white,
            Color::Black => 1.0 - white,
        });
        let lead = game.white_lead.get(index).map(|&white| match color {
            Color::White => white,
            Color::Black => -white,
        });
        let ownership = game.ownership.get(index).map(|white| {
            let sign = if color == Color::White { 1 } else { -1 };
            (0..size * size)
                .map(|point| {
                    let (row, column) = (point / size, point % size);
                    sign * white[(size - 1 - row) * size + column]
                })
                .collect()
        });
        visit(
            TeacherPosition {
                board: playout,
                color,
                candidates,
                targets,
                played: played_index,
                komi: game.komi,
                win,
                lead,
                ownership,
            },
            total >= 500.0,
        );
        if board.try_play(played, color, false).is_err() {
            break;
        }
        color = color.opponent();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_replays_a_game() {
        let mut policy_a = vec![0u16; 5 * 5 + 1];
        policy_a[12] = 900; // C3, the centre
        policy_a[0] = 100; // A5
        let mut policy_b = vec![0u16; 26];
        policy_b[25] = 1000; // pass
                             // White owns A5 (the top-left) surely and E1 (the bottom-right) by half.
        let mut ownership = vec![0i8; 25];
        ownership[0] = 100;
        ownership[24] = 50;
        let line = format!(
            r#"{{"size":5,"komi":6.5,"moves":["C3","pass"],"policy":[{:?},{:?}],"white_win":[0.25,0.5],"white_lead":[1.5,-2.0],"ownership":[{:?},{:?}]}}"#,
            policy_a, policy_b, ownership, ownership
        );
        let game = parse_game(&line).unwrap();
        assert_eq!(game.moves.len(), 2);
        let mut positions = Vec::new();
        replay(&game, |position| positions.push(position));
        assert_eq!(positions.len(), 2);
        let first = &positions[0];
        assert_eq!(first.candidates.len(), 26);
        let centre = point_at(2, 2, 5).index();
        let played = first.played.unwrap();
        assert_eq!(first.candidates[played] as usize, centre);
        assert!((first.targets[played] - 0.9).abs() < 1e-6);
        let corner = first
            .candidates
            .iter()
            .position(|&point| point as usize == point_at(0, 4, 5).index())
            .unwrap();
        assert!((first.targets[corner] - 0.1).abs() < 1e-6);
        assert_eq!(positions[1].color, Color::White);
        assert_eq!((first.komi, first.win), (6.5, Some(0.75)));
        assert_eq!(positions[1].win, Some(0.5));
        assert_eq!(positions[1].played, Some(positions[1].candidates.len() - 1));
        // Lead and ownership from the mover's view, ownership in the networks' point order
        // (row by row from the bottom-left: A5 is 20, E1 is 4).
        assert_eq!((first.lead, positions[1].lead), (Some(-1.5), Some(-2.0)));
        let black = first.ownership.as_ref().unwrap();
        assert_eq!((black[20], black[4], black[0]), (-100, -50, 0));
        let white = positions[1].ownership.as_ref().unwrap();
        assert_eq!((white[20], white[4]), (100, 50));
        assert!(parse_game(r#"{"size":5,"moves":[],"policy":[],"ownership":[[1]]}"#).is_err());
        assert!(parse_game(r#"{"size":5,"moves":["Z9"],"policy":[]}"#).is_err());
    }

    /// `read_games` reads the same games from JSON lines and from the packed form, plain or
    /// gzip'd, telling them apart by their first bytes.
    #[test]
    fn reads_text_and_packed_files_alike() {
        use flate2::write::GzEncoder;
        use std::io::Write;
        let lines = [
            r#"{"size":5,"komi":6.5,"moves":["C3","pass"],"policy":[[0,0,0,0,0,0,0,0,0,0,0,0,900,0,0,0,0,0,0,0,0,0,0,0,0,100],[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1000]],"white_win":[0.25,0.5]}"#,
            r#"{"size":9,"handicap":["C3","G7"],"moves":["E5"],"policy":[[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1000,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0]]}"#,
        ];
        let text = lines.join("\n") + "\n";
        let games: Vec<TeacherGame> = lines.iter().map(|line| parse_game(line).unwrap()).collect();
        let mut packed_bytes = Vec::new();
        packed::write_games(&mut packed_bytes, &games).unwrap();
        let gzip = |bytes: &[u8]| {
            let mut encoder = GzEncoder::new(Vec::new(), flate2::Compression::fast());
            encoder.write_all(bytes).unwrap();
            encoder.finish().unwrap()
        };
        let folder = std::env::temp_dir().join(format!("ishi-teacher-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        for (name, bytes) in [
            ("games.jsonl", text.as_bytes().to_vec()),
            ("games.jsonl.gz", gzip(text.as_bytes())),
            ("games.ishigames", packed_bytes.clone()),
            ("games.ishigames.gz", gzip(&packed_bytes)),
        ] {
            let path = folder.join(name);
            std::fs::write(&path, bytes).unwrap();
            assert_eq!(read_games(&path).unwrap(), games, "{name}");
        }
        let cut = folder.join("cut.ishigames");
        std::fs::write(&cut, &packed_bytes[..packed_bytes.len() - 3]).unwrap();
        assert!(read_games(&cut).unwrap_err().contains("game 2"));
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
