//! Skills from git repositories: `git:URL[@REF][#PATH]`, and GitHub's `OWNER/REPO[/PATH]` as
//! vercel's `skills add` and OpenClaw accept it. The repository is cloned by the `git` program
//! into a temporary folder and checked out at the reference (or a pinned commit), so a
//! shared install's lock can record the commit and `--frozen` can get exactly it back.

use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// Where a skill in a git repository is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GitSource {
    /// What to clone.
    pub(crate) url: String,
    /// A branch, tag or commit; the repository's default branch when absent.
    pub(crate) reference: Option<String>,
    /// The skill's folder inside the repository; its root when absent.
    pub(crate) path: Option<String>,
    /// `OWNER/REPO` when it was named by GitHub's shorthand.
    pub(crate) github: Option<String>,
}

/// A checkout of a [`GitSource`], removed when dropped.
#[derive(Debug)]
pub(crate) struct Checkout {
    /// The clone.
    _dir: tempfile::TempDir,
    /// The commit checked out (40 hex digits).
    pub(crate) commit: String,
    /// The skill's folder in it.
    pub(crate) skill: PathBuf,
}

/// Why a git source could not be fetched.
#[derive(Debug, thiserror::Error)]
pub(crate) enum GitError {
    /// `git` could not be started.
    #[error("cannot run git: {0}\nhint: install git to install skills from repositories")]
    Spawn(std::io::Error),
    /// A git command failed.
    #[error("git {step} of {url} failed: {stderr}")]
    Failed {
        /// What was being done.
        step: &'static str,
        /// The repository.
        url: String,
        /// What git said.
        stderr: String,
    },
    /// The reference names no commit.
    #[error("{url} has no branch, tag or commit {reference}")]
    NoReference {
        /// The repository.
        url: String,
        /// The reference.
        reference: String,
    },
    /// `#PATH` leaves the repository.
    #[error("{0}: a path inside the repository, without `..`, is expected")]
    BadPath(String),
    /// No SKILL.md where the source points.
    #[error("{url}: no SKILL.md in {path}{hint}")]
    NoSkill {
        /// The repository.
        url: String,
        /// The folder looked in.
        path: String,
        /// The skill folders the repository has, for the message.
        hint: String,
    },
    /// Working with the temporary clone failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl GitSource {
    /// `git:URL[@REF][#PATH]`, or `None` for any other argument. A `@` is a reference only
    /// after the last `/` and `:` (so `git@host:o/r.git` is a URL).
    pub(crate) fn parse(arg: &str) -> Option<GitSource> {
        let rest = arg.strip_prefix("git:")?;
        let (rest, path) = match rest.split_once('#') {
            Some((rest, path)) => (rest, Some(path.trim_matches('/').to_owned())),
            None => (rest, None),
        };
        let tail = rest.rfind(['/', ':']).map_or(0, |i| i + 1);
        let (url, reference) = match rest[tail..].rfind('@') {
            Some(at) => (&rest[..tail + at], Some(rest[tail + at + 1..].to_owned())),
            None => (rest, None),
        };
        Some(GitSource {
            url: url.to_owned(),
            reference: reference.filter(|r| !r.is_empty()),
            path: path.filter(|p| !p.is_empty()),
            github: None,
        })
    }

    /// GitHub's `OWNER/REPO[/PATH]`, or `None` when `arg` is not of that shape (the caller
    /// checks first that it is not a path here).
    pub(crate) fn github(arg: &str) -> Option<GitSource> {
        let mut parts = arg.splitn(3, '/');
        let owner = parts.next()?;
        let repo = parts.next()?.trim_end_matches(".git");
        let path = parts.next().map(|p| p.trim_matches('/').to_owned());
        let owner_ok = !owner.is_empty()
            && !owner.starts_with('-')
            && owner
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-');
        let repo_ok = !repo.is_empty()
            && !repo.starts_with(['.', '-'])
            && repo
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
        (owner_ok && repo_ok).then(|| GitSource {
            url: format!("https://github.com/{owner}/{repo}.git"),
            reference: None,
            path: path.filter(|p| !p.is_empty()),
            github: Some(format!("{owner}/{repo}")),
        })
    }

    /// The skill's folder in the repository, checked to stay inside it.
    fn inner_path(&self) -> Result<PathBuf, GitError> {
        let path = PathBuf::from(self.path.as_deref().unwrap_or(""));
        if path
            .components()
            .any(|c| !matches!(c, Component::Normal(_)))
        {
            return Err(GitError::BadPath(self.path.clone().unwrap_or_default()));
        }
        Ok(path)
    }

    /// Clones the repository and checks out `commit` when given (a lock's pin), else the
    /// reference.
    pub(crate) fn fetch(&self, commit: Option<&str>) -> Result<Checkout, GitError> {
        let inner = self.inner_path()?;
        let dir = tempfile::Builder::new().prefix("skill-git-").tempdir()?;
        let clone = dir.path().join("repo");
        let mut args = vec!["clone", "--quiet", "--no-checkout", "--"];
        args.push(&self.url);
        let target = clone.to_string_lossy().into_owned();
        args.push(&target);
        self.git(None, "clone", &args)?;
        let wanted = commit
            .or(self.reference.as_deref())
            .unwrap_or("HEAD")
            .to_owned();
        let commit = self.resolve(&clone, &wanted)?;
        self.git(
            Some(&clone),
            "checkout",
            &["checkout", "--quiet", "--detach", &commit],
        )?;
        let skill = clone.join(&inner);
        // A folder that is a link in the repository could lead anywhere on this machine.
        if skill
            .canonicalize()
            .is_ok_and(|real| !real.starts_with(clone.canonicalize().unwrap_or_default()))
        {
            return Err(GitError::BadPath(self.path.clone().unwrap_or_default()));
        }
        if !skill.join("SKILL.md").is_file() {
            return Err(GitError::NoSkill {
                url: self.url.clone(),
                path: if inner.as_os_str().is_empty() {
                    "the repository's root".to_owned()
                } else {
                    inner.display().to_string()
                },
                hint: skill_folders(&clone),
            });
        }
        // A skill at the repository's root is installed under its name, not the clone's.
        let skill = if inner.as_os_str().is_empty() {
            let named = dir.path().join(self.root_name(&skill));
            std::fs::rename(&skill, &named)?;
            named
        } else {
            skill
        };
        Ok(Checkout {
            _dir: dir,
            commit,
            skill,
        })
    }

    /// The folder name for a skill at the repository's root: its frontmatter `name`, else
    /// the repository's, when either is a valid folder name.
    fn root_name(&self, skill: &Path) -> String {
        let declared = skill_model::document::declared_name(skill);
        let repository = self
            .url
            .trim_end_matches('/')
            .rsplit(['/', ':'])
            .next()
            .map(|n| n.trim_end_matches(".git").to_owned());
        [declared, repository]
            .into_iter()
            .flatten()
            .find(|n| skill_model::layout::check_skill_name(n).is_ok())
            .unwrap_or_else(|| "skill".to_owned())
    }

    /// The commit `reference` names: itself, a tag or local branch, or a remote branch.
    fn resolve(&self, clone: &Path, reference: &str) -> Result<String, GitError> {
        for candidate in [reference.to_owned(), format!("origin/{reference}")] {
            let spec = format!("{candidate}^{{commit}}");
            let out = self
                .command(Some(clone))
                .args([
                    "rev-parse",
                    "--verify",
                    "--quiet",
                    "--end-of-options",
                    &spec,
                ])
                .output()
                .map_err(GitError::Spawn)?;
            if out.status.success() {
                return Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned());
            }
        }
        Err(GitError::NoReference {
            url: self.url.clone(),
            reference: reference.to_owned(),
        })
    }

    fn git(&self, cwd: Option<&Path>, step: &'static str, args: &[&str]) -> Result<(), GitError> {
        let out = self
            .command(cwd)
            .args(args)
            .output()
            .map_err(GitError::Spawn)?;
        if out.status.success() {
            return Ok(());
        }
        Err(GitError::Failed {
            step,
            url: self.url.clone(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        })
    }

    /// `git`, never prompting, with no transport that runs a command (`ext::`).
    fn command(&self, cwd: Option<&Path>) -> Command {
        let mut command = Command::new("git");
        command.env("GIT_TERMINAL_PROMPT", "0").args([
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "protocol.allow=never",
        ]);
        // Only the transports that fetch; none that runs a helper command (`ext::`, remote
        // helpers of other names).
        for transport in ["https", "http", "ssh", "git", "file"] {
            command.args(["-c", &format!("protocol.{transport}.allow=always")]);
        }
        if let Some(cwd) = cwd {
            command.current_dir(cwd);
        }
        command
    }
}

/// `\nhint: ...` listing up to five folders of the clone with a SKILL.md, or nothing.
fn skill_folders(clone: &Path) -> String {
    let mut found = Vec::new();
    let walker = ignore::WalkBuilder::new(clone).hidden(false).build();
    for entry in walker.flatten() {
        if entry.file_name() == "SKILL.md"
            && let Some(dir) = entry
                .path()
                .parent()
                .and_then(|d| d.strip_prefix(clone).ok())
            && !dir.starts_with(".git")
        {
            found.push(dir.display().to_string());
        }
    }
    found.sort();
    if found.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = found.iter().take(5).map(|d| format!("#{d}")).collect();
    format!("\nhint: name a skill folder: {}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::GitSource;

    #[test]
    fn a_reference_is_after_the_last_slash_and_colon() {
        let s = GitSource::parse("git:git@github.com:o/r.git@v1.2#skills/pdf").unwrap();
        assert_eq!(s.url, "git@github.com:o/r.git");
        assert_eq!(s.reference.as_deref(), Some("v1.2"));
        assert_eq!(s.path.as_deref(), Some("skills/pdf"));
        let s = GitSource::parse("git:git@github.com:o/r.git").unwrap();
        assert_eq!(
            (s.url.as_str(), s.reference),
            ("git@github.com:o/r.git", None)
        );
        let s = GitSource::parse("git:file:///srv/repo.git@main").unwrap();
        assert_eq!(s.url, "file:///srv/repo.git");
        assert_eq!(s.reference.as_deref(), Some("main"));
    }

    #[test]
    fn github_shorthand_is_owner_repo_and_an_optional_path() {
        let s = GitSource::github("vercel-labs/agent-skills/skills/react").unwrap();
        assert_eq!(s.url, "https://github.com/vercel-labs/agent-skills.git");
        assert_eq!(s.path.as_deref(), Some("skills/react"));
        assert_eq!(s.github.as_deref(), Some("vercel-labs/agent-skills"));
        for not in ["pdf-tools", "-x/y", "a/..", "a b/c", "./x/y", "../x"] {
            assert!(GitSource::github(not).is_none(), "{not}");
        }
    }
}
