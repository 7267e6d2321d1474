//! Teacher games in a compact binary form (deliverable 3b of issue #31): the same
//! [`TeacherGame`]s as the JSON-lines files, read without parsing text. `ishi-train --pack OUT
//! --data FILE` writes one; [`crate::go::learn::teacher::read_games`] reads either kind, plain
//! or gzip'd, by the file's first bytes.
//!
//! Layout, little-endian: the 8 bytes [`MAGIC`], then the games one after another, each:
//! - `u32` the byte length of the rest of the record (a truncated file is caught here);
//! - `u8` size, `f64` komi, `u8` flags (1: win probabilities, 2: leads, 4: ownership);
//! - `u16` handicap count and the stones, `u16` move count and the moves, each move a `u16`
//!   index in the policy's order (row by row from the top-left, `size * size` the pass);
//! - `u16` position count, then each position's policy as a `u16` count of its non-zero
//!   entries followed by (`u16` index, `u16` thousandths) pairs;
//! - with flag 1, an `f32` per position (White's win probability); with flag 2, an `f32` per
//!   position (White's lead); with flag 4, `size * size` `i8` per position (ownership).
//!
//! A 9x9 position takes about 60 bytes before gzip, against about 700 as JSON text. Knows the
//! teacher games and byte order; nothing of boards or fitting.

use crate::go::learn::teacher::TeacherGame;
use crate::go::rules::point::{coordinates, point_at, Move};
use std::io::{Read, Write};

/// The first bytes of a packed file (the format's version is its last two characters).
pub const MAGIC: &[u8; 8] = b"ISHITG01";

const HAS_WIN: u8 = 1;
const HAS_LEAD: u8 = 2;
const HAS_OWNERSHIP: u8 = 4;

/// The policy index of a move (row by row from the top-left, the pass last).
fn move_index(chosen: Move, size: usize) -> u16 {
    match chosen {
        Move::Pass => (size * size) as u16,
        Move::Place(point) => {
            let (column, row) = coordinates(point, size);
            ((size - 1 - row) * size + column) as u16
        }
    }
}

/// The move at a policy index, `None` past the pass.
fn index_move(index: u16, size: usize) -> Option<Move> {
    let index = index as usize;
    match index.cmp(&(size * size)) {
        std::cmp::Ordering::Equal => Some(Move::Pass),
        std::cmp::Ordering::Greater => None,
        std::cmp::Ordering::Less => Some(Move::Place(point_at(
            index % size,
            size - 1 - index / size,
            size,
        ))),
    }
}

/// One game's record (without its length prefix).
///
/// # Errors
/// A game too long for the format's 16-bit counts.
pub fn encode_game(game: &TeacherGame) -> Result<Vec<u8>, String> {
    let size = game.size;
    let count = |length: usize, what: &str| -> Result<[u8; 2], String> {
        u16::try_from(length)
            .map(u16::to_le_bytes)
            .map_err(|_| format!("{length} {what}: more than a packed game holds"))
    };
    let positions = game.policy.len();
    let mut flags = 0;
    if !game.white_win.is_empty() {
        flags |= HAS_WIN;
    }
    if !game.white_lead.is_empty() {
        flags |= HAS_LEAD;
    }
    if !game.ownership.is_empty() {
        flags |= HAS_OWNERSHIP;
    }
    for (length, name) in [
        (game.white_win.len(), "win probabilities"),
        (game.white_lead.len(), "leads"),
        (game.ownership.len(), "ownership rows"),
    ] {
        if length != 0 && length != positions {
            return Err(format!("{length} {name} for {positions} positions"));
        }
    }
    let mut bytes = Vec::with_capacity(16 + positions * 64);
    bytes.push(size as u8);
    bytes.extend_from_slice(&game.komi.to_le_bytes());
    bytes.push(flags);
    for moves in [&game.handicap, &game.moves] {
        bytes.extend_from_slice(&count(moves.len(), "moves")?);
        for &chosen in moves.iter() {
            bytes.extend_from_slice(&move_index(chosen, size).to_le_bytes());
        }
    }
    bytes.extend_from_slice(&count(positions, "positions")?);
    for row in &game.policy {
        if row.len() != size * size + 1 {
            return Err(format!("a policy row has {} entries", row.len()));
        }
        let nonzero = row.iter().filter(|&&entry| entry != 0).count();
        bytes.extend_from_slice(&count(nonzero, "policy entries")?);
        for (index, &entry) in row.iter().enumerate().filter(|(_, &entry)| entry != 0) {
            bytes.extend_from_slice(&(index as u16).to_le_bytes());
            bytes.extend_from_slice(&entry.to_le_bytes());
        }
    }
    for value in game.white_win.iter().chain(&game.white_lead) {
        bytes.extend_from_slice(&value.to_le_bytes());
    }
    for row in &game.ownership {
        if row.len() != size * size {
            return Err(format!("an ownership row has {} entries", row.len()));
        }
        bytes.extend(row.iter().map(|&entry| entry as u8));
    }
    Ok(bytes)
}

/// Reads a record's fields in order, failing on a short record.
struct Fields<'a> {
    bytes: &'a [u8],
}

impl<'a> Fields<'a> {
    fn take(&mut self, length: usize) -> Result<&'a [u8], String> {
        if self.bytes.len() < length {
            return Err("the record ends early".to_string());
        }
        let (taken, rest) = self.bytes.split_at(length);
        self.bytes = rest;
        Ok(taken)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], String> {
        Ok(self.take(N)?.try_into().expect("took N bytes"))
    }

    fn byte(&mut self) -> Result<u8, String> {
        Ok(self.array::<1>()?[0])
    }

    fn count(&mut self) -> Result<usize, String> {
        Ok(u16::from_le_bytes(self.array()?) as usize)
    }
}

/// A game from its record (without the length prefix).
///
/// # Errors
/// A short or overlong record, a bad size, a move off the board, a policy entry over 1000
/// or an index past the pass, an ownership entry outside -100..100.
pub fn decode_game(record: &[u8]) -> Result<TeacherGame, String> {
    let mut fields = Fields { bytes: record };
    let size = fields.byte()? as usize;
    if !crate::go::rules::board::Board::size_is_valid(size) {
        return Err(format!("bad size {size}"));
    }
    let komi = f64::from_le_bytes(fields.array()?);
    let flags = fields.byte()?;
    let moves = |fields: &mut Fields| -> Result<Vec<Move>, String> {
        let length = fields.count()?;
        (0..length)
            .map(|_| {
                let index = u16::from_le_bytes(fields.array()?);
                index_move(index, size)
                    .ok_or_else(|| format!("move index {index} is off the board"))
            })
            .collect()
    };
    let handicap = moves(&mut fields)?;
    let played = moves(&mut fields)?;
    let positions = fields.count()?;
    let mut policy = Vec::with_capacity(positions);
    for _ in 0..positions {
        let mut row = vec![0u16; size * size + 1];
        for _ in 0..fields.count()? {
            let index = u16::from_le_bytes(fields.array()?) as usize;
            let entry = u16::from_le_bytes(fields.array()?);
            if index >= row.len() || entry > 1000 {
                return Err(format!("policy entry {index}: {entry}"));
            }
            row[index] = entry;
        }
        policy.push(row);
    }
    let mut floats = |wanted: bool| -> Result<Vec<f32>, String> {
        if !wanted {
            return Ok(Vec::new());
        }
        (0..positions)
            .map(|_| Ok(f32::from_le_bytes(fields.array()?)))
            .collect()
    };
    let white_win = floats(flags & HAS_WIN != 0)?;
    let white_lead = floats(flags & HAS_LEAD != 0)?;
    if white_win.iter().any(|win| !(0.0..=1.0).contains(win)) {
        return Err("a win probability outside 0..1".to_string());
    }
    let mut ownership = Vec::new();
    if flags & HAS_OWNERSHIP != 0 {
        for _ in 0..positions {
            let row: Vec<i8> = fields
                .take(size * size)?
                .iter()
                .map(|&entry| entry as i8)
                .collect();
            if row.iter().any(|entry| !(-100..=100).contains(entry)) {
                return Err("an ownership entry outside -100..100".to_string());
            }
            ownership.push(row);
        }
    }
    if !fields.bytes.is_empty() {
        return Err(format!(
            "{} bytes past the record's end",
            fields.bytes.len()
        ));
    }
    Ok(TeacherGame {
        size,
        handicap,
        moves: played,
        policy,
        komi,
        white_win,
        white_lead,
        ownership,
    })
}

/// Writes [`MAGIC`] and `games` to `out`.
///
/// # Errors
/// A game the format cannot hold, or a failed write.
pub fn write_games(out: &mut impl Write, games: &[TeacherGame]) -> Result<(), String> {
    out.write_all(MAGIC).map_err(|error| error.to_string())?;
    for game in games {
        let record = encode_game(game)?;
        out.write_all(&(record.len() as u32).to_le_bytes())
            .and_then(|()| out.write_all(&record))
            .map_err(|error| error.to_string())?;
    }
    Ok(())
}

/// Reads the games that follow [`MAGIC`] (already consumed) until the end of `input`.
///
/// # Errors
/// A failed read, a record cut short, or a record that does not decode (with its number,
/// from 1).
pub fn read_games_after_magic(input: &mut impl Read) -> Result<Vec<TeacherGame>, String> {
    let mut games = Vec::new();
    let mut record = Vec::new();
    loop {
        let mut length = [0u8; 4];
        let mut filled = 0;
        while filled < 4 {
            match input.read(&mut length[filled..]) {
                Ok(0) => break,
                Ok(read) => filled += read,
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error.to_string()),
            }
        }
        match filled {
            0 => return Ok(games),
            4 => {}
            _ => return Err(format!("game {}: the length is cut short", games.len() + 1)),
        }
        record.resize(u32::from_le_bytes(length) as usize, 0);
        input
            .read_exact(&mut record)
            .map_err(|error| format!("game {}: {error}", games.len() + 1))?;
        games.push(
            decode_game(&record).map_err(|error| format!("game {}: {error}", games.len() + 1))?,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::go::learn::teacher::parse_game;
    use crate::search::random::Random;

    /// A game with every field, random but legal in the format's terms.
    fn random_game(random: &mut Random, size: usize, full: bool) -> TeacherGame {
        let points = size * size;
        let positions = 1 + random.below(40);
        let any_move =
            |random: &mut Random| index_move(random.below(points + 1) as u16, size).unwrap();
        TeacherGame {
            size,
            handicap: (0..random.below(3)).map(|_| any_move(random)).collect(),
            moves: (0..positions).map(|_| any_move(random)).collect(),
            policy: (0..positions)
                .map(|_| {
                    (0..=points)
                        .map(|_| {
                            if random.below(4) == 0 {
                                random.below(1001) as u16
                            } else {
                                0
                            }
                        })
                        .collect()
                })
                .collect(),
            komi: [7.5, -3.25, 0.1, 6.3][random.below(4)],
            white_win: if full {
                (0..positions)
                    .map(|_| random.below(1001) as f32 / 1000.0)
                    .collect()
            } else {
                Vec::new()
            },
            white_lead: if full {
                (0..positions)
                    .map(|_| random.below(2001) as f32 / 7.0 - 140.0)
                    .collect()
            } else {
                Vec::new()
            },
            ownership: if full {
                (0..positions)
                    .map(|_| {
                        (0..points)
                            .map(|_| (random.below(201) as i32 - 100) as i8)
                            .collect()
                    })
                    .collect()
            } else {
                Vec::new()
            },
        }
    }

    #[test]
    fn moves_round_trip_through_their_indices() {
        for size in [2, 9, 19, 25] {
            for index in 0..=(size * size) as u16 {
                let chosen = index_move(index, size).unwrap();
                assert_eq!(move_index(chosen, size), index);
            }
            assert_eq!(index_move((size * size + 1) as u16, size), None);
        }
        // A1 is the bottom-left: the first point of the last row.
        let a1 = parse_game(r#"{"size":9,"moves":["A1"],"policy":[]}"#)
            .unwrap()
            .moves[0];
        assert_eq!(move_index(a1, 9), 72);
    }

    #[test]
    fn games_round_trip_exactly() {
        let mut random = Random::new(7);
        let games: Vec<TeacherGame> = (0..60)
            .map(|number| {
                let size = [9, 13, 19, 5, 25][number % 5];
                random_game(&mut random, size, number % 3 != 0)
            })
            .collect();
        let mut bytes = Vec::new();
        write_games(&mut bytes, &games).unwrap();
        assert_eq!(&bytes[..8], MAGIC);
        let read = read_games_after_magic(&mut &bytes[8..]).unwrap();
        assert_eq!(read, games);
        // Every cut of the last record fails, naming the game; a cut at a record's end is
        // a whole file with fewer games.
        let last_start = {
            let mut prefix = Vec::new();
            write_games(&mut prefix, &games[..games.len() - 1]).unwrap();
            prefix.len()
        };
        assert_eq!(
            read_games_after_magic(&mut &bytes[8..last_start])
                .unwrap()
                .len(),
            games.len() - 1
        );
        for cut in [
            last_start + 1,
            last_start + 3,
            last_start + 10,
            bytes.len() - 1,
        ] {
            let error = read_games_after_magic(&mut &bytes[8..cut]).unwrap_err();
            assert!(error.starts_with("game 60"), "{cut}: {error}");
        }
    }

    #[test]
    fn bad_records_are_refused() {
        let game = parse_game(r#"{"size":5,"moves":["C3"],"policy":[[0,0,0,0,0,0,0,0,0,0,0,0,1000,0,0,0,0,0,0,0,0,0,0,0,0,0]],"white_win":[0.5]}"#).unwrap();
        let record = encode_game(&game).unwrap();
        assert_eq!(decode_game(&record).unwrap(), game);
        let mut bad_size = record.clone();
        bad_size[0] = 1;
        assert!(decode_game(&bad_size).is_err());
        let mut longer = record.clone();
        longer.push(0);
        assert!(decode_game(&longer)
            .unwrap_err()
            .contains("past the record's end"));
        // The move C3 sits after size, komi, flags and the empty handicap: index 14.
        let mut off_board = record.clone();
        off_board[14..16].copy_from_slice(&26u16.to_le_bytes());
        assert!(decode_game(&off_board)
            .unwrap_err()
            .contains("off the board"));
        let mut win = record.clone();
        let end = win.len();
        win[end - 4..].copy_from_slice(&1.5f32.to_le_bytes());
        assert!(decode_game(&win).is_err());
        let mut uneven = game.clone();
        uneven.white_lead = vec![1.0, 2.0];
        assert!(encode_game(&uneven).is_err());
    }
}
