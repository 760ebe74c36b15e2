//! `skill try`'s agent loop: a workspace with the skills installed, a system prompt built as
//! `skill prompt` builds it, a model (HTTP provider, cassette replayer or recorder) and the
//! workspace tools, turn after turn until a final answer or the turn limit.

pub mod cassette;
pub mod message;
pub mod provider;
pub mod session;
pub mod tools;
pub mod trial;
pub mod workspace;

pub use session::{Event, Stop, Transcript, run};
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
    Install(#[from] crate::archive::install::InstallError),
    /// The model failed.
    #[error(transparent)]
    Model(#[from] provider::ModelError),
}
