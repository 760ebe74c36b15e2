//! `skill.toml`'s `[lint]` table, found from the working directory upwards: target, rule
//! selection, per-path ignores, budgets, env checks. Command-line flags win.

use super::Budgets;
use super::diagnostic::Diagnostic;
use super::selection::{Selection, UnknownSelector};
use super::target::Target;
use globset::{Glob, GlobSet, GlobSetBuilder};
use skill_model::layout::PROJECT_FILE;
use skill_model::settings_file::{self, FileError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The `[lint]` table.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct LintConfig {
    /// Default `--target`; `skill::config::Settings::target` reads it, after flags and
    /// `SKILL_TARGET`, before the user's file.
    pub target: Option<Target>,
    /// Default `--select`.
    pub select: Vec<String>,
    /// Rules always ignored (command-line `--ignore` adds to these).
    pub ignore: Vec<String>,
    /// Glob (relative to the config file's folder) → rules ignored for skills it matches.
    pub per_path_ignores: BTreeMap<String, Vec<String>>,
    /// Budgets.
    pub budgets: Budgets,
    /// Whether availability on this machine is checked (`--no-env-checks` turns it off).
    pub env_checks: Option<bool>,
}

#[derive(Debug, Default, serde::Deserialize)]
struct File {
    #[serde(default)]
    lint: LintConfig,
}

/// A `[lint]` table that could not be read or understood.
#[derive(Debug, thiserror::Error)]
pub enum LintConfigError {
    /// `skill.toml` itself, or a glob in it.
    #[error(transparent)]
    File(#[from] FileError),
    /// A selector that names no rule.
    #[error("{path}: {source}")]
    Selector {
        /// The file.
        path: PathBuf,
        /// The bad selector.
        source: UnknownSelector,
    },
}

/// A loaded config and the folder it applies from.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// The `[lint]` table.
    pub lint: LintConfig,
    /// Where `skill.toml` was found (`None` when there is none).
    pub path: Option<PathBuf>,
}

impl Config {
    /// Finds `skill.toml` in `start` or the nearest folder above and loads it.
    pub fn find(start: &Path) -> Result<Config, LintConfigError> {
        for dir in start.ancestors() {
            let path = dir.join(PROJECT_FILE);
            if path.is_file() {
                return Config::load(&path);
            }
        }
        Ok(Config::default())
    }

    /// Loads `path`.
    pub fn load(path: &Path) -> Result<Config, LintConfigError> {
        let file: File = settings_file::parse(path)?.ok_or_else(|| FileError::Io {
            path: path.to_path_buf(),
            source: std::io::ErrorKind::NotFound.into(),
        })?;
        Ok(Config {
            lint: file.lint,
            path: Some(path.to_path_buf()),
        })
    }

    /// The per-path ignores as matchers, checked against every selector.
    pub fn path_ignores(&self) -> Result<PathIgnores, LintConfigError> {
        let path = self.path.clone().unwrap_or_default();
        let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut builder = GlobSetBuilder::new();
        let mut rules = Vec::new();
        for (glob, selectors) in &self.lint.per_path_ignores {
            let glob = Glob::new(glob).map_err(|e| FileError::invalid(&path, e))?;
            builder.add(glob);
            let selection = Selection::new(selectors.clone(), Vec::new()).map_err(|source| {
                LintConfigError::Selector {
                    path: path.clone(),
                    source,
                }
            })?;
            rules.push(selection);
        }
        let set = builder.build().map_err(|e| FileError::invalid(&path, e))?;
        Ok(PathIgnores { base, set, rules })
    }
}

/// Rules ignored for some paths (none by default).
#[derive(Debug, Clone, Default)]
pub struct PathIgnores {
    base: PathBuf,
    set: GlobSet,
    rules: Vec<Selection>,
}

impl PathIgnores {
    /// Whether `d`, found in the skill at `skill_dir`, is ignored there.
    pub fn ignores(&self, skill_dir: &Path, d: &Diagnostic) -> bool {
        if self.rules.is_empty() {
            return false;
        }
        let absolute = std::path::absolute(skill_dir).unwrap_or_else(|_| skill_dir.to_path_buf());
        let relative = absolute.strip_prefix(&self.base).unwrap_or(&absolute);
        self.set
            .matches(relative)
            .into_iter()
            .any(|i| self.rules[i].allows(d.rule))
    }
}
