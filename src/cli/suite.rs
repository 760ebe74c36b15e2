//! What `skill test` and `skill eval` share: the skill folders a run covers, and how it reaches
//! the model (the cassette mode and, to record or go live, the provider).

use super::CliError;
use super::r#try::ProviderArgs;
use skill_agent::cassette::Mode;
use skill_agent::provider::{HttpConfig, ModelError};
use skill_model::builtin;
use skill_model::discover;
use std::path::{Path, PathBuf};

/// How a run of scenarios or evals reaches the model.
#[derive(Debug, clap::Args)]
pub(crate) struct ModelArgs {
    /// How to use the cassettes [default: SKILL_RECORD, else replay].
    #[arg(long, value_parser = super::choice::parser::<Mode>())]
    pub(crate) mode: Option<Mode>,
    /// The model provider, for --mode record, auto or live.
    #[command(flatten)]
    pub(crate) provider: ProviderArgs,
}

impl ModelArgs {
    /// The cassette mode: `--mode`, else `SKILL_RECORD`, else replay.
    pub(crate) fn mode(&self) -> Result<Mode, CliError> {
        match self.mode {
            Some(mode) => Ok(mode),
            None => Ok(Mode::from_env()
                .map_err(|e| CliError::Agent(ModelError::from(e).into()))?
                .unwrap_or(Mode::Replay)),
        }
    }

    /// The provider's configuration, for the runs that call a model.
    pub(crate) fn http(&self) -> Result<HttpConfig, ModelError> {
        self.provider.config()
    }
}

/// The skill folders `paths` name (`.` when none is named, unless only the builtins are asked
/// for), then the builtin skills materialised under `builtins`, when given.
pub(crate) fn skill_dirs(
    paths: &[PathBuf],
    builtins: Option<&Path>,
) -> Result<Vec<PathBuf>, CliError> {
    let mut dirs = Vec::new();
    if !paths.is_empty() || builtins.is_none() {
        let paths = if paths.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            paths.to_vec()
        };
        dirs.extend(discover(&paths)?.into_iter().map(|l| l.dir));
    }
    if let Some(root) = builtins {
        dirs.extend(builtin::BUILTINS.iter().map(|b| root.join(b.name)));
    }
    Ok(dirs)
}
