#![warn(missing_docs)]
// Functions stay short enough to read at once; clippy.toml sets the bound (60 code lines).
#![warn(clippy::too_many_lines)]
//! The agent loop a skill runs in, and the runs built on it. The loop: a workspace with the
//! skills installed, a system prompt built as `skill prompt` builds it, a model (HTTP provider,
//! cassette replayer or recorder) and the workspace tools, turn after turn until a final answer,
//! a refusal, a cut-off or the turn limit; every run ends with a [`Stop`] from one closed set.
//! On it: `skill try` (`try`), `skill test` (`test`), `skill eval` (`eval`), the real agent
//! CLIs (`agent_cli`) and the model's review of a skill (`review`).

pub mod agent_cli;
pub mod cassette;
pub mod eval;
pub mod junit;
pub mod message;
pub mod provider;
pub mod review;
pub mod session;
pub mod test;
pub mod tools;
pub mod r#try;
pub mod workspace;

pub use message::Stop;
pub use session::{Event, Interrupted, Transcript, run};
pub use workspace::Workspace;

/// Turns a run may take when it names no limit (nanobot's default).
pub const DEFAULT_MAX_TURNS: usize = 20;

/// Why a run could not start or finish.
#[derive(Debug, thiserror::Error)]
pub enum AgentError {
    /// The workspace could not be prepared.
    #[error("{path}: {message}")]
    Workspace {
        /// The folder or file.
        path: std::path::PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A skill could not be installed into the workspace.
    #[error(transparent)]
    Install(#[from] skill_archive::install::InstallError),
    /// The model failed before the loop started.
    #[error(transparent)]
    Model(#[from] provider::ModelError),
    /// The model or the cassette failed mid-run; the transcript says how far it got.
    #[error(transparent)]
    Interrupted(Box<Interrupted>),
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for Interrupted {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        self.error.source()
    }
}
