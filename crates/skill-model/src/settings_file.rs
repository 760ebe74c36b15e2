//! Reading a TOML settings file (`skill.toml`, the user's `config.toml`): one error for every
//! reader, naming the file, and the parser's message with its line and column.

use std::path::{Path, PathBuf};

/// The user's config folder: `$SKILL_CONFIG_DIR`, else `$XDG_CONFIG_HOME/skill`, else
/// `~/.config/skill`. It holds `config.toml` and `credentials.json`.
pub fn user_dir() -> PathBuf {
    std::env::var_os("SKILL_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("XDG_CONFIG_HOME").map(|d| PathBuf::from(d).join("skill")))
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config/skill")))
        .unwrap_or_else(|| PathBuf::from(".skill"))
}

/// A settings file that could not be read or parsed.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// Reading failed.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// Not valid TOML, unknown keys, or a value that does not fit.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The parser's message (with line and column where it has them).
        message: String,
    },
}

impl FileError {
    /// `path` holds something `e` says is wrong.
    pub fn invalid(path: &Path, e: impl std::fmt::Display) -> FileError {
        FileError::Invalid {
            path: path.to_owned(),
            message: e.to_string().trim_end().to_owned(),
        }
    }
}

/// The text of `path`; `None` when there is no such file.
pub fn read(path: &Path) -> Result<Option<String>, FileError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(FileError::Io {
            path: path.to_owned(),
            source,
        }),
    }
}

/// `path` parsed as TOML into `T`; `None` when there is no such file.
pub fn parse<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<T>, FileError> {
    let Some(text) = read(path)? else {
        return Ok(None);
    };
    toml::from_str(&text)
        .map(Some)
        .map_err(|e| FileError::invalid(path, e))
}
