//! Learned files built into the binary (`models/`): each read on first use, or replaced
//! before that by a file the command line names. Knows nothing of what the files hold; each
//! model brings its reader.

use std::sync::OnceLock;

/// One learned file shipped in the binary, with the model read from it.
pub struct ShippedModel<T: 'static> {
    /// What it is, for messages (`value network`).
    what: &'static str,
    /// The shipped file's bytes.
    bytes: &'static [u8],
    /// The model's reader.
    read: fn(&[u8]) -> Result<T, String>,
    /// The model in use, once read (`None`: the shipped file does not read).
    model: OnceLock<Option<T>>,
}

impl<T: Send + Sync> ShippedModel<T> {
    /// The model of `bytes`, read by `read` when first asked for.
    pub const fn new(
        what: &'static str,
        bytes: &'static [u8],
        read: fn(&[u8]) -> Result<T, String>,
    ) -> ShippedModel<T> {
        ShippedModel {
            what,
            bytes,
            read,
            model: OnceLock::new(),
        }
    }

    /// Uses the file at `path` in place of the shipped one; call it before the first use.
    ///
    /// # Errors
    /// The file does not read as this model, or a model is already in use.
    pub fn use_file(&self, path: &std::path::Path) -> Result<(), String> {
        self.use_model(self.read_file(path)?)
    }

    /// The model in the file at `path`, read by this model's reader.
    ///
    /// # Errors
    /// The file cannot be read, or does not read as this model.
    pub fn read_file(&self, path: &std::path::Path) -> Result<T, String> {
        let bytes = std::fs::read(path).map_err(|error| error.to_string())?;
        (self.read)(&bytes)
    }

    /// Uses `model` in place of the shipped one; call it before the first use.
    ///
    /// # Errors
    /// A model is already in use.
    pub fn use_model(&self, model: T) -> Result<(), String> {
        self.model
            .set(Some(model))
            .map_err(|_| format!("a {} is already in use", self.what))
    }

    /// Whether a model is already in use (chosen, or the shipped one read).
    pub fn is_settled(&self) -> bool {
        self.model.get().is_some()
    }

    /// The model in use, read on first use; `None` (with a warning in the log) if the shipped
    /// file does not read, so the engine goes on without it.
    pub fn get(&'static self) -> Option<&'static T> {
        self.model
            .get_or_init(|| match (self.read)(self.bytes) {
                Ok(model) => Some(model),
                Err(error) => {
                    log::warn!("the shipped {} does not load: {error}", self.what);
                    None
                }
            })
            .as_ref()
    }
}
