//! Cassettes: recorded model exchanges that let a run be replayed offline. One YAML file per run:
//! the format version, what recorded it, and the ordered exchanges, each a normalised request and
//! the assembled reply. Normalising puts placeholders where paths and secrets would be, so a
//! recording replays in any workspace, on any machine, and never stores a key.

mod diff;
mod normalize;
mod record;
mod replay;

pub use normalize::Normalizer;
pub use record::Recorder;
pub use replay::Replayer;

use super::message::{Reply, Request, Stop};
use std::path::{Path, PathBuf};

/// The cassette format this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// A recorded run.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Cassette {
    /// The format version ([`FORMAT_VERSION`]).
    pub version: u32,
    /// What recorded it.
    pub recorded_by: RecordedBy,
    /// Why the recorded run stopped (absent in cassettes recorded before stop reasons were
    /// kept); never used in matching.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<Stop>,
    /// The exchanges, in order.
    pub exchanges: Vec<Exchange>,
}

/// Who made a recording: never used in matching.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RecordedBy {
    /// `skill <version>`.
    pub tool: String,
    /// The provider (`openai`, `anthropic`, `script`).
    pub provider: String,
    /// The model.
    pub model: String,
}

/// One request and the reply it got.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Exchange {
    /// The normalised request: the conversation and the tools, sorted by name. Provider
    /// settings (model, streaming, limits), keys and headers are not part of it.
    pub request: Request,
    /// The normalised reply.
    pub response: Reply,
}

crate::choices! {
    /// How a run uses its cassette.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Mode {
        Replay = "replay": "Answer from the cassette only; never opens a connection.",
        Auto = "auto": "Replay when the cassette exists, else record it.",
        Record = "record": "Call the model and write the cassette, replacing any.",
        Live = "live": "Call the model; leave the cassette alone.",
    }
}

impl Mode {
    /// The mode `SKILL_RECORD` names, if it names one.
    pub fn from_env() -> Result<Option<Mode>, CassetteError> {
        let Some(value) = std::env::var("SKILL_RECORD").ok().filter(|v| !v.is_empty()) else {
            return Ok(None);
        };
        <Mode as crate::skill::choice::Choice>::parse(&value)
            .map(Some)
            .ok_or(CassetteError::BadMode(value))
    }

    /// The mode when neither a flag nor `SKILL_RECORD` chose one: `replay` under CI, else `auto`.
    pub fn default_here() -> Mode {
        if std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0") {
            Mode::Replay
        } else {
            Mode::Auto
        }
    }

    /// `Auto` decided by whether `cassette` exists.
    pub fn settle(self, cassette: &Path) -> Mode {
        match self {
            Mode::Auto if cassette.exists() => Mode::Replay,
            Mode::Auto => Mode::Record,
            other => other,
        }
    }
}

/// Why a cassette could not be used.
#[derive(Debug, thiserror::Error)]
pub enum CassetteError {
    /// `SKILL_RECORD` names no mode.
    #[error("SKILL_RECORD={0}: expected replay, auto, record or live")]
    BadMode(String),
    /// The file could not be read.
    #[error("{path}: {message}")]
    Read {
        /// The cassette.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The file is not a cassette.
    #[error("{path}: not a cassette: {message}")]
    Parse {
        /// The cassette.
        path: PathBuf,
        /// The YAML error, with its line and column.
        message: String,
    },
    /// A format version this build does not know.
    #[error(
        "{path}: cassette format version {found} is not supported (this skill reads version {FORMAT_VERSION}); re-record it"
    )]
    Version {
        /// The cassette.
        path: PathBuf,
        /// The version found.
        found: u32,
    },
    /// The run asked something other than what was recorded.
    #[error(
        "{path}: exchange {exchange} does not match the recording\n  first difference at {json_path}\n\n{diff}\nto record it again: {rerecord}"
    )]
    Mismatch {
        /// The cassette.
        path: PathBuf,
        /// The exchange, counted from 1.
        exchange: usize,
        /// The JSON path of the first difference (`$.messages[3].content`).
        json_path: String,
        /// A unified diff of the recorded request against this run's.
        diff: String,
        /// The command that records the cassette again.
        rerecord: String,
    },
    /// The run asked more than was recorded.
    #[error(
        "{path}: the run asked for exchange {exchange} but only {recorded} were recorded\nto record it again: {rerecord}"
    )]
    Exhausted {
        /// The cassette.
        path: PathBuf,
        /// The exchange asked for, counted from 1.
        exchange: usize,
        /// How many there are.
        recorded: usize,
        /// The command that records the cassette again.
        rerecord: String,
    },
    /// The run ended before using every exchange.
    #[error(
        "{path}: the run ended after {used} of {recorded} recorded exchanges\nto record it again: {rerecord}"
    )]
    Unused {
        /// The cassette.
        path: PathBuf,
        /// Exchanges used.
        used: usize,
        /// Exchanges recorded.
        recorded: usize,
        /// The command that records the cassette again.
        rerecord: String,
    },
    /// A token-shaped string survived redaction; nothing was written.
    #[error(
        "{path}: not written: the recording holds a {kind} ('{redacted}') at line {line}; remove it from the skill or workspace, or keep it in an env var with KEY, TOKEN or SECRET in its name so it is redacted"
    )]
    SecretLeft {
        /// The cassette that was not written.
        path: PathBuf,
        /// What kind of secret.
        kind: &'static str,
        /// Its first characters.
        redacted: String,
        /// Its line in the YAML that would have been written.
        line: usize,
    },
    /// The file could not be written.
    #[error("{path}: cannot write the cassette: {message}")]
    Write {
        /// The cassette.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
}

impl Cassette {
    /// Reads the cassette at `path`.
    pub fn load(path: &Path) -> Result<Cassette, CassetteError> {
        let text = std::fs::read_to_string(path).map_err(|e| CassetteError::Read {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        let parse = |message: String| CassetteError::Parse {
            path: path.to_owned(),
            message,
        };
        #[derive(serde::Deserialize)]
        struct Header {
            version: u32,
        }
        // The default budgets (250,000 nodes, 64 MiB of text) hold thousands of exchanges.
        let header: Header = serde_saphyr::from_str(&text).map_err(|e| parse(e.to_string()))?;
        if header.version != FORMAT_VERSION {
            return Err(CassetteError::Version {
                path: path.to_owned(),
                found: header.version,
            });
        }
        serde_saphyr::from_str(&text).map_err(|e| parse(e.to_string()))
    }

    /// Writes the cassette to `path` whole or not at all, refusing when a token-shaped string
    /// is in it.
    pub fn save(&self, path: &Path) -> Result<(), CassetteError> {
        let text = serde_saphyr::to_string(self).map_err(|e| CassetteError::Write {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        if let Some(found) = crate::skill::secrets::find(&text).next() {
            return Err(CassetteError::SecretLeft {
                path: path.to_owned(),
                kind: found.kind,
                redacted: crate::skill::secrets::redact(&text[found.start..found.end]),
                line: text[..found.start].matches('\n').count() + 1,
            });
        }
        let write = |message: String| CassetteError::Write {
            path: path.to_owned(),
            message,
        };
        let dir = match path.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        std::fs::create_dir_all(dir).map_err(|e| write(e.to_string()))?;
        let mut file = tempfile::NamedTempFile::new_in(dir).map_err(|e| write(e.to_string()))?;
        std::io::Write::write_all(&mut file, text.as_bytes()).map_err(|e| write(e.to_string()))?;
        file.persist(path).map_err(|e| write(e.error.to_string()))?;
        Ok(())
    }
}
