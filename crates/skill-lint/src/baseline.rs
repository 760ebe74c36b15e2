//! Baselines: `skill lint --write-baseline FILE` records the findings a project has today, and
//! `skill lint --baseline FILE` leaves those out, so a project can adopt a rule family (the
//! security rules above all) and fail only on new findings without fixing its history first.
//!
//! A finding is known by its file (relative to the baseline file's folder, so the baseline
//! works from any working directory and on any machine), its rule code and its message, not by
//! its line: editing above a finding does not make it new. Each recorded entry absorbs one
//! finding, so a second copy of a known problem is reported.

use super::LintRun;
use super::diagnostic::Diagnostic;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file format's version.
const VERSION: u32 = 1;

/// A baseline file's contents.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// The format version, 1.
    pub version: u32,
    /// The recorded findings, sorted.
    pub findings: Vec<BaselineFinding>,
}

/// One recorded finding.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaselineFinding {
    /// The file, relative to the baseline's folder, `/`-separated.
    pub file: String,
    /// The rule code.
    pub code: String,
    /// The message, which names what was found.
    pub message: String,
}

/// A baseline file that cannot be read or written.
#[derive(Debug, thiserror::Error)]
pub enum BaselineError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a baseline.
    #[error("{}: not a baseline file: {source}", path.display())]
    NotABaseline {
        /// The file.
        path: PathBuf,
        /// Where the JSON breaks.
        #[source]
        source: serde_json::Error,
    },
    /// The file was written by a `skill` whose baseline format this one does not read.
    #[error("{}: baseline version {found} is not supported (this skill writes version {VERSION})", path.display())]
    Version {
        /// The file.
        path: PathBuf,
        /// The version it records.
        found: u32,
    },
    /// The file could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// `path` made absolute, with `.` and `..` resolved lexically (a baseline names files, which
/// need not exist, so nothing is looked up on disk).
fn absolute(path: &Path) -> PathBuf {
    use std::path::Component;
    let joined = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The folder paths in a baseline are relative to.
fn base_of(path: &Path) -> PathBuf {
    absolute(path)
        .parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf)
}

/// `file` as a baseline names it: relative to `base` when it is inside it.
fn key_path(file: &Path, base: &Path) -> String {
    let absolute = absolute(file);
    match absolute.strip_prefix(base) {
        Ok(inside) => inside
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/"),
        Err(_) => absolute.to_string_lossy().into_owned(),
    }
}

fn entry(d: &Diagnostic, base: &Path) -> BaselineFinding {
    BaselineFinding {
        file: key_path(&d.file, base),
        code: d.rule.code.to_owned(),
        message: d.message.clone(),
    }
}

impl Baseline {
    /// The findings of `run`, for a baseline file at `path`.
    pub fn of(run: &LintRun, path: &Path) -> Baseline {
        let base = base_of(path);
        let mut findings: Vec<BaselineFinding> = run
            .skills
            .iter()
            .flat_map(|r| &r.diagnostics)
            .map(|d| entry(d, &base))
            .collect();
        findings.sort();
        Baseline {
            version: VERSION,
            findings,
        }
    }

    /// Reads the baseline at `path`.
    pub fn read(path: &Path) -> Result<Baseline, BaselineError> {
        let path_buf = || path.to_path_buf();
        let text = std::fs::read_to_string(path).map_err(|source| BaselineError::Read {
            path: path_buf(),
            source,
        })?;
        let baseline: Baseline =
            serde_json::from_str(&text).map_err(|source| BaselineError::NotABaseline {
                path: path_buf(),
                source,
            })?;
        if baseline.version != VERSION {
            return Err(BaselineError::Version {
                path: path_buf(),
                found: baseline.version,
            });
        }
        Ok(baseline)
    }

    /// Writes the baseline to `path` (pretty JSON, one finding per entry).
    pub fn write(&self, path: &Path) -> Result<(), BaselineError> {
        let mut text = serde_json::to_string_pretty(self).expect("a baseline is plain data");
        text.push('\n');
        std::fs::write(path, text).map_err(|source| BaselineError::Write {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Takes the recorded findings out of `run` (the baseline lives at `path`); returns how
    /// many were left out.
    pub fn apply(&self, run: &mut LintRun, path: &Path) -> usize {
        let base = base_of(path);
        let mut known: BTreeMap<&BaselineFinding, usize> = BTreeMap::new();
        for e in &self.findings {
            *known.entry(e).or_default() += 1;
        }
        let mut hidden = 0;
        for report in &mut run.skills {
            report.diagnostics.retain(|d| {
                let e = entry(d, &base);
                match known.get_mut(&e) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        hidden += 1;
                        false
                    }
                    _ => true,
                }
            });
        }
        hidden
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_relative_to_the_baseline_and_resolved_lexically() {
        let base = base_of(Path::new("/a/b/../c/baseline.json"));
        assert_eq!(base, PathBuf::from("/a/c"));
        assert_eq!(
            key_path(Path::new("/a/c/./x/SKILL.md"), &base),
            "x/SKILL.md"
        );
        assert_eq!(
            key_path(Path::new("/elsewhere/SKILL.md"), &base),
            "/elsewhere/SKILL.md"
        );
    }
}
