//! The weight file every network shares, knowing no game: a versioned header that names
//! the network's kind (the game's own name for it, such as `go-value`) and its dimensions
//! by name, then the parameters. A game reads the dimensions it knows by name and checks
//! them; this module checks the framing: the magic, the version, the lengths, and that every
//! parameter is finite.
//!
//! Layout (little-endian): the magic `ISHINN`, the format version (u16, [`VERSION`]), the
//! kind (u16 length, UTF-8 bytes), the dimension count (u16), each dimension (u16 name
//! length, UTF-8 name, u32 value), the parameter count (u32), the parameters (f32).
//!
//! Knows nothing of any game.

/// The file's first bytes.
pub const MAGIC: &[u8; 6] = b"ISHINN";

/// The format version this build writes and reads.
pub const VERSION: u16 = 1;

/// A network's weights with what names them.
#[derive(Clone, Debug, PartialEq)]
pub struct WeightFile {
    /// The network's kind, in the game's words (`go-value`).
    pub kind: String,
    /// The dimensions by name, in the order written.
    pub dimensions: Vec<(String, u32)>,
    /// The parameters.
    pub parameters: Vec<f32>,
}

/// Whether `bytes` begin as a weight file of this format (of any version).
pub fn is_weight_file(bytes: &[u8]) -> bool {
    bytes.starts_with(MAGIC)
}

/// Reads the bytes of a [`WeightFile`] one field at a time.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, count: usize) -> Result<&'a [u8], String> {
        let end = self
            .at
            .checked_add(count)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| format!("the file ends at byte {} inside a field", self.bytes.len()))?;
        let field = &self.bytes[self.at..end];
        self.at = end;
        Ok(field)
    }

    fn u16(&mut self) -> Result<u16, String> {
        let field = self.take(2)?;
        Ok(u16::from_le_bytes([field[0], field[1]]))
    }

    fn u32(&mut self) -> Result<u32, String> {
        let field = self.take(4)?;
        Ok(u32::from_le_bytes([field[0], field[1], field[2], field[3]]))
    }

    fn text(&mut self) -> Result<String, String> {
        let length = self.u16()? as usize;
        let field = self.take(length)?;
        String::from_utf8(field.to_vec()).map_err(|_| "a name is not UTF-8".to_string())
    }
}

impl WeightFile {
    /// The value of the dimension `name`.
    ///
    /// # Errors
    /// The file has no dimension of that name.
    pub fn dimension(&self, name: &str) -> Result<usize, String> {
        self.dimensions
            .iter()
            .find(|(dimension, _)| dimension == name)
            .map(|&(_, value)| value as usize)
            .ok_or_else(|| format!("the {} network's file has no dimension {name}", self.kind))
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        let text = |bytes: &mut Vec<u8>, text: &str| {
            bytes.extend_from_slice(&(text.len() as u16).to_le_bytes());
            bytes.extend_from_slice(text.as_bytes());
        };
        text(&mut bytes, &self.kind);
        bytes.extend_from_slice(&(self.dimensions.len() as u16).to_le_bytes());
        for (name, value) in &self.dimensions {
            text(&mut bytes, name);
            bytes.extend_from_slice(&value.to_le_bytes());
        }
        bytes.extend_from_slice(&(self.parameters.len() as u32).to_le_bytes());
        for parameter in &self.parameters {
            bytes.extend_from_slice(&parameter.to_le_bytes());
        }
        bytes
    }

    /// Reads a file written by [`WeightFile::to_bytes`], which must be of the kind `kind`.
    ///
    /// # Errors
    /// Another magic, version or kind, a field cut short, bytes left over, or a parameter
    /// that is not finite.
    pub fn from_bytes(bytes: &[u8], kind: &str) -> Result<WeightFile, String> {
        if !is_weight_file(bytes) {
            return Err("not an ishi network file".into());
        }
        let mut reader = Reader {
            bytes,
            at: MAGIC.len(),
        };
        let version = reader.u16()?;
        if version != VERSION {
            return Err(format!(
                "network file version {version}; this build reads version {VERSION}"
            ));
        }
        let found = reader.text()?;
        if found != kind {
            return Err(format!("a {found} network, not a {kind} one"));
        }
        let count = reader.u16()?;
        let mut dimensions = Vec::with_capacity(count as usize);
        for _ in 0..count {
            let name = reader.text()?;
            dimensions.push((name, reader.u32()?));
        }
        let count = reader.u32()? as usize;
        let expected = count
            .checked_mul(4)
            .filter(|&length| reader.at + length == bytes.len())
            .ok_or_else(|| {
                format!(
                    "{} bytes of parameters, {count} parameters need {}",
                    bytes.len() - reader.at,
                    count.saturating_mul(4)
                )
            })?;
        let parameters: Vec<f32> = reader
            .take(expected)?
            .chunks_exact(4)
            .map(|chunk| f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]))
            .collect();
        if parameters.iter().any(|parameter| !parameter.is_finite()) {
            return Err("a parameter is not finite".into());
        }
        Ok(WeightFile {
            kind: found,
            dimensions,
            parameters,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn example() -> WeightFile {
        WeightFile {
            kind: "test-value".into(),
            dimensions: vec![("channels".into(), 32), ("blocks".into(), 4)],
            parameters: vec![0.5, -1.25, 3.0],
        }
    }

    #[test]
    fn the_file_round_trips_and_refuses_damage() {
        let file = example();
        let bytes = file.to_bytes();
        assert_eq!(
            WeightFile::from_bytes(&bytes, "test-value"),
            Ok(file.clone())
        );
        assert_eq!(file.dimension("blocks"), Ok(4));
        assert!(file.dimension("hidden").is_err());
        // Another kind, a cut, an extra byte, another version, another magic.
        assert!(WeightFile::from_bytes(&bytes, "test-policy").is_err());
        for length in 0..bytes.len() {
            assert!(WeightFile::from_bytes(&bytes[..length], "test-value").is_err());
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(WeightFile::from_bytes(&longer, "test-value").is_err());
        let mut version = bytes.clone();
        version[6] = 2;
        assert!(WeightFile::from_bytes(&version, "test-value")
            .unwrap_err()
            .contains("version 2"));
        let mut magic = bytes.clone();
        magic[0] = b'J';
        assert!(WeightFile::from_bytes(&magic, "test-value").is_err());
        let mut not_finite = file;
        not_finite.parameters[1] = f32::NAN;
        assert!(WeightFile::from_bytes(&not_finite.to_bytes(), "test-value").is_err());
    }
}
