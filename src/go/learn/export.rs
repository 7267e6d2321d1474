//! The value network's training samples as NumPy arrays, for trainers outside ishi (the
//! PyTorch trainer of `scripts/train/`, which runs where a GPU is at hand and writes ishi's
//! weight file back). `ishi-train --export-samples DIR` writes, for each split (`training`,
//! `held-out`) and board size, the arrays below as `.npy` files (format 1.0,
//! little-endian), named `{split}-{size}x{size}-{array}.npy`:
//!
//! - `planes`: `u8 [N][points][INPUT_PLANES]`, Go's feature planes as 0 or 1 (points row
//!   by row from the top-left, as [`crate::go::search::planes`] encodes them);
//! - `komi`: `f32 [N]`, the komi plane's value (komi from the mover's side over
//!   [`KOMI_SCALE`](crate::go::search::value::KOMI_SCALE));
//! - `win`: `f32 [N]`, the teacher's probability that the mover wins;
//! - `lead`: `f32 [N]`, the teacher's lead of the mover in points, NaN where not given;
//! - `ownership`: `i8 [N][points]`, the teacher's owner from the mover's view in
//!   hundredths, and `has-ownership`: `u8 [N]`, 1 where given;
//! - `policy`: `f32 [N][points + 1]`, the teacher's probability of each candidate (the
//!   pass last), -1 where a move is no candidate; a row of -1 where the teacher's
//!   distribution is not given.
//!
//! The samples are those [`value_fit::value_sample`](crate::go::learn::value_fit::value_sample)
//! makes, in the order `ishi-train` trains on, so a trainer outside sees exactly what
//! ishi's own does. Knows the value samples and the `.npy` layout; nothing of boards.

use crate::go::learn::value_fit::{ValueSample, PASS};
use crate::go::search::planes::INPUT_PLANES;
use std::io::Write;
use std::path::Path;

/// Writes one `.npy` file: `descr` the NumPy type (`<f4`, `|u1`, `|i1`), `shape` its
/// dimensions, `data` its elements' bytes in row-major order.
fn write_array(path: &Path, descr: &str, shape: &[usize], data: &[u8]) -> Result<(), String> {
    let dimensions = match shape {
        [one] => format!("({one},)"),
        _ => format!(
            "({})",
            shape
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let mut header =
        format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {dimensions}, }}");
    // The magic (6), the version (2) and the header's length (2) precede the header, which
    // ends in a newline and is padded so that the data starts on a multiple of 64 bytes.
    while !(10 + header.len() + 1).is_multiple_of(64) {
        header.push(' ');
    }
    header.push('\n');
    let file =
        std::fs::File::create(path).map_err(|error| format!("{}: {error}", path.display()))?;
    let mut writer = std::io::BufWriter::new(file);
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    writer
        .write_all(&bytes)
        .and_then(|()| writer.write_all(data))
        .and_then(|()| writer.flush())
        .map_err(|error| format!("{}: {error}", path.display()))
}

fn floats(values: impl Iterator<Item = f32>) -> Vec<u8> {
    values.flat_map(f32::to_le_bytes).collect()
}

/// Writes the arrays of `samples` (all of board `size`) into `directory` with the prefix
/// `{split}-{size}x{size}-`.
///
/// # Errors
/// A file that cannot be written, or a sample whose planes do not fit the board.
pub fn write_samples(
    directory: &Path,
    split: &str,
    size: usize,
    samples: &[ValueSample],
) -> Result<(), String> {
    let points = size * size;
    if let Some(sample) = samples
        .iter()
        .find(|sample| sample.planes.len() != points * INPUT_PLANES)
    {
        return Err(format!(
            "a {size}x{size} sample has {} plane values, not {}",
            sample.planes.len(),
            points * INPUT_PLANES
        ));
    }
    let count = samples.len();
    let path = |array: &str| directory.join(format!("{split}-{size}x{size}-{array}.npy"));
    let planes: Vec<u8> = samples
        .iter()
        .flat_map(|sample| sample.planes.iter().copied())
        .collect();
    write_array(
        &path("planes"),
        "|u1",
        &[count, points, INPUT_PLANES],
        &planes,
    )?;
    let komi = floats(samples.iter().map(|sample| sample.komi));
    write_array(&path("komi"), "<f4", &[count], &komi)?;
    let win = floats(samples.iter().map(|sample| sample.target));
    write_array(&path("win"), "<f4", &[count], &win)?;
    let lead = floats(samples.iter().map(|sample| sample.lead.unwrap_or(f32::NAN)));
    write_array(&path("lead"), "<f4", &[count], &lead)?;
    let given = |sample: &ValueSample| sample.ownership.len() == points;
    let mut ownership = Vec::with_capacity(count * points);
    for sample in samples {
        if given(sample) {
            ownership.extend(sample.ownership.iter().map(|&owner| owner as u8));
        } else {
            ownership.resize(ownership.len() + points, 0);
        }
    }
    write_array(&path("ownership"), "|i1", &[count, points], &ownership)?;
    let has_ownership: Vec<u8> = samples.iter().map(|sample| given(sample) as u8).collect();
    write_array(&path("has-ownership"), "|u1", &[count], &has_ownership)?;
    let mut policy = vec![-1.0f32; count * (points + 1)];
    for (row, sample) in policy.chunks_exact_mut(points + 1).zip(samples) {
        for &(point, probability) in &sample.policy {
            let index = if point == PASS {
                points
            } else {
                point as usize
            };
            if let Some(slot) = row.get_mut(index) {
                *slot = probability;
            }
        }
    }
    write_array(
        &path("policy"),
        "<f4",
        &[count, points + 1],
        &floats(policy.into_iter()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The header's text and the data's bytes of a `.npy` file.
    fn read_array(path: &Path) -> (String, Vec<u8>) {
        let bytes = std::fs::read(path).unwrap();
        assert_eq!(&bytes[..8], b"\x93NUMPY\x01\x00");
        let length = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
        assert!(
            (10 + length).is_multiple_of(64),
            "the data starts on 64 bytes"
        );
        let header = String::from_utf8(bytes[10..10 + length].to_vec()).unwrap();
        assert!(header.ends_with('\n'));
        (header, bytes[10 + length..].to_vec())
    }

    fn sample(points: usize, seed: u8, ownership: bool) -> ValueSample {
        ValueSample {
            planes: (0..points * INPUT_PLANES)
                .map(|index| u8::from((index as u8).wrapping_mul(seed).is_multiple_of(3)))
                .collect(),
            komi: -0.5,
            target: 0.25 * f32::from(seed),
            lead: (seed == 1).then_some(3.5),
            ownership: if ownership {
                (0..points).map(|point| point as i8 - 2).collect()
            } else {
                Vec::new()
            },
            policy: if seed == 1 {
                vec![(0, 0.5), (3, 0.25), (PASS, 0.25)]
            } else {
                Vec::new()
            },
        }
    }

    #[test]
    fn the_arrays_hold_every_sample_field_where_numpy_reads_it() {
        let directory = std::env::temp_dir().join(format!("ishi-export-{}", std::process::id()));
        std::fs::create_dir_all(&directory).unwrap();
        let points = 4;
        let samples = [sample(points, 1, true), sample(points, 2, false)];
        write_samples(&directory, "held-out", 2, &samples).unwrap();
        let read = |array: &str| read_array(&directory.join(format!("held-out-2x2-{array}.npy")));
        let (header, planes) = read("planes");
        assert!(header.contains("'descr': '|u1'") && header.contains("'shape': (2, 4, 13)"));
        assert_eq!(
            planes,
            [samples[0].planes.clone(), samples[1].planes.clone()].concat()
        );
        let as_floats = |bytes: Vec<u8>| -> Vec<f32> {
            bytes
                .chunks_exact(4)
                .map(|chunk| f32::from_le_bytes(chunk.try_into().unwrap()))
                .collect()
        };
        let (header, win) = read("win");
        assert!(header.contains("'descr': '<f4'") && header.contains("'shape': (2,)"));
        assert_eq!(as_floats(win), [0.25, 0.5]);
        let lead = as_floats(read("lead").1);
        assert_eq!(lead[0], 3.5);
        assert!(lead[1].is_nan());
        assert_eq!(as_floats(read("komi").1), [-0.5, -0.5]);
        let (header, ownership) = read("ownership");
        assert!(header.contains("'descr': '|i1'") && header.contains("'shape': (2, 4)"));
        assert_eq!(ownership, [254, 255, 0, 1, 0, 0, 0, 0]);
        assert_eq!(read("has-ownership").1, [1, 0]);
        let (header, policy) = read("policy");
        assert!(header.contains("'shape': (2, 5)"));
        assert_eq!(
            as_floats(policy),
            [0.5, -1.0, -1.0, 0.25, 0.25, -1.0, -1.0, -1.0, -1.0, -1.0]
        );
        // A sample of another board is refused.
        assert!(write_samples(&directory, "training", 3, &samples).is_err());
        std::fs::remove_dir_all(&directory).unwrap();
    }
}
