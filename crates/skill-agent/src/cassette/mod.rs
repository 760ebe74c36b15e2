//! Cassettes: recorded model exchanges that let a run be replayed offline. One YAML file per run:
//! the format version, what recorded it, and the ordered exchanges, each a normalised request and
//! the assembled reply. Normalising puts placeholders where paths and secrets would be, so a
//! recording replays in any workspace, on any machine, and never stores a key.
//!
//! Format version 2 stores each request as what it adds to the previous one (`keep`: how many
//! of the previous request's messages it starts with, then its own `messages`; `tools` only
//! when they changed), so a cassette grows with the conversation, not with its square. In
//! memory every exchange holds its whole request either way; version 1 (whole requests) is
//! still read and, for a cassette loaded from it, written.

mod diff;
mod normalise;
mod record;
mod replay;

pub use normalise::Normaliser;
pub use record::Recorder;
pub use replay::Replayer;

use super::message::{Reply, Request, Stop};
use std::path::{Path, PathBuf};

/// The cassette format this build writes (it reads 1 and 2).
pub(crate) const FORMAT_VERSION: u32 = 2;

/// The oldest format this build reads: whole requests in every exchange.
pub(crate) const FORMAT_VERSION_WHOLE: u32 = 1;

/// A recorded run.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Cassette {
    /// The format version: [`FORMAT_VERSION`], or [`FORMAT_VERSION_WHOLE`] for a cassette
    /// read from (and so written back in) the older format.
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

skill_model::choices! {
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
        <Mode as skill_model::choice::Choice>::parse(&value)
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
        "{path}: cassette format version {found} is not supported (this skill reads versions {FORMAT_VERSION_WHOLE} and {FORMAT_VERSION}); re-record it"
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
        match header.version {
            FORMAT_VERSION_WHOLE => serde_saphyr::from_str(&text).map_err(|e| parse(e.to_string())),
            FORMAT_VERSION => {
                let stored: Stored =
                    serde_saphyr::from_str(&text).map_err(|e| parse(e.to_string()))?;
                stored.expand().map_err(parse)
            }
            found => Err(CassetteError::Version {
                path: path.to_owned(),
                found,
            }),
        }
    }

    /// Writes the cassette to `path` whole or not at all, refusing when a token-shaped string
    /// is in it.
    pub fn save(&self, path: &Path) -> Result<(), CassetteError> {
        let text = if self.version == FORMAT_VERSION_WHOLE {
            serde_saphyr::to_string(self)
        } else {
            serde_saphyr::to_string(&Stored::compact(self))
        };
        let text = text.map_err(|e| CassetteError::Write {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        if let Some(found) = skill_model::secrets::find(&text).next() {
            return Err(CassetteError::SecretLeft {
                path: path.to_owned(),
                kind: found.kind,
                redacted: skill_model::secrets::redact(&text[found.start..found.end]),
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
        skill_archive::atomic_file::write(path, text.as_bytes()).map_err(|e| write(e.to_string()))
    }
}

/// A cassette as format version 2 stores it: each request as what it adds to the previous one.
#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    version: u32,
    recorded_by: RecordedBy,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stop: Option<Stop>,
    exchanges: Vec<StoredExchange>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct StoredExchange {
    request: StoredRequest,
    response: Reply,
}

/// A request as the previous one's first `keep` messages, then `messages`; `tools` absent when
/// they are the previous request's.
#[derive(serde::Serialize, serde::Deserialize)]
struct StoredRequest {
    #[serde(default, skip_serializing_if = "is_zero")]
    keep: usize,
    messages: Vec<super::message::Message>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    tools: Option<Vec<super::message::ToolSpec>>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Stored {
    fn compact(cassette: &Cassette) -> Stored {
        let mut previous: Option<&Request> = None;
        let exchanges = cassette
            .exchanges
            .iter()
            .map(|exchange| {
                let request = &exchange.request;
                let (keep, tools) = match previous {
                    Some(p) => (
                        p.messages
                            .iter()
                            .zip(&request.messages)
                            .take_while(|(a, b)| a == b)
                            .count(),
                        (p.tools != request.tools).then(|| request.tools.clone()),
                    ),
                    None => (0, Some(request.tools.clone())),
                };
                previous = Some(request);
                StoredExchange {
                    request: StoredRequest {
                        keep,
                        messages: request.messages[keep..].to_vec(),
                        tools,
                    },
                    response: exchange.response.clone(),
                }
            })
            .collect();
        Stored {
            version: cassette.version,
            recorded_by: cassette.recorded_by.clone(),
            stop: cassette.stop,
            exchanges,
        }
    }

    /// The whole requests again; an error names the exchange that keeps more messages than the
    /// previous request had.
    fn expand(self) -> Result<Cassette, String> {
        let mut exchanges: Vec<Exchange> = Vec::with_capacity(self.exchanges.len());
        for (i, stored) in self.exchanges.into_iter().enumerate() {
            let StoredRequest {
                keep,
                messages,
                tools,
            } = stored.request;
            let previous = exchanges.last().map(|e| &e.request);
            let had = previous.map_or(0, |p| p.messages.len());
            if keep > had {
                return Err(format!(
                    "exchange {} keeps {keep} messages of the previous request, which has {had}",
                    i + 1
                ));
            }
            let mut whole = previous.map_or_else(Vec::new, |p| p.messages[..keep].to_vec());
            whole.extend(messages);
            let tools = match tools {
                Some(tools) => tools,
                None => previous.map(|p| p.tools.clone()).unwrap_or_default(),
            };
            exchanges.push(Exchange {
                request: Request {
                    messages: whole,
                    tools,
                },
                response: stored.response,
            });
        }
        Ok(Cassette {
            version: self.version,
            recorded_by: self.recorded_by,
            stop: self.stop,
            exchanges,
        })
    }
}
