//! `<skill>/evals/evals.json` as the Agent Skills site defines it: `skill_name`, and `evals[]`
//! each with an `id`, a `prompt`, an `expected_output`, input `files` (paths inside the skill
//! folder) and `expectations`. Read and checked whole before any model is called; a problem
//! names the file, and the line where JSON gives one.

use std::path::{Component, Path, PathBuf};

/// The file's path inside a skill folder.
pub const EVALS_FILE: &str = "evals/evals.json";
/// Most evals one file may hold: each costs runs × configurations agent loops.
pub(crate) const MAX_EVALS: usize = 200;
/// Longest eval id: it names a folder and cassettes.
pub(crate) const MAX_ID_CHARS: usize = 64;
/// Largest input file copied into a run's workspace.
pub const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// One eval.
#[derive(Debug, Clone, PartialEq)]
pub struct Eval {
    /// Its id as written (a number or a string).
    pub id: String,
    /// What the user asks.
    pub prompt: String,
    /// What success looks like, in words (shown to the grader).
    pub expected_output: String,
    /// Input files, relative to the skill folder, copied into the run's workspace at the same
    /// relative path.
    pub files: Vec<String>,
    /// Statements about the outputs, each graded PASS or FAIL with evidence.
    pub expectations: Vec<String>,
}

impl Eval {
    /// The eval's folder in a workspace iteration: `eval-<id>`, the id kept to letters,
    /// digits, `-` and `_`.
    pub fn folder(&self) -> String {
        let id: String = self
            .id
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        format!("eval-{}", id.trim_matches('-'))
    }

    /// The prompt as a run gets it: the user's words, then the input files by path, as the
    /// spec's run instructions name them.
    pub fn task(&self) -> String {
        if self.files.is_empty() {
            return self.prompt.clone();
        }
        format!("{}\n\nInput files: {}", self.prompt, self.files.join(", "))
    }
}

/// A checked evals file.
#[derive(Debug, Clone, PartialEq)]
pub struct EvalsFile {
    /// The file it came from.
    pub path: PathBuf,
    /// `skill_name` as written.
    pub skill_name: String,
    /// The evals, in file order.
    pub evals: Vec<Eval>,
}

#[derive(serde::Deserialize)]
struct RawFile {
    skill_name: String,
    evals: Vec<RawEval>,
}

#[derive(serde::Deserialize)]
struct RawEval {
    id: RawId,
    prompt: String,
    #[serde(default)]
    expected_output: String,
    #[serde(default)]
    files: Vec<String>,
    #[serde(default)]
    expectations: Vec<String>,
}

#[derive(serde::Deserialize)]
#[serde(untagged)]
enum RawId {
    Number(u64),
    Text(String),
}

/// Why an evals file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum EvalsFileError {
    /// The file could not be read.
    #[error("{path}: {message}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The JSON is not an evals file (the message has the line and column).
    #[error(
        "{path}:{line}:{column}: not an evals file: {message}\nAn evals file is {{\"skill_name\": ..., \"evals\": [{{\"id\": 1, \"prompt\": ..., \"expected_output\": ..., \"files\": [...], \"expectations\": [...]}}]}}"
    )]
    Parse {
        /// The file.
        path: PathBuf,
        /// The line.
        line: usize,
        /// The column.
        column: usize,
        /// serde's words.
        message: String,
    },
    /// An eval is wrong.
    #[error("{path}: eval {id}: {message}")]
    Eval {
        /// The file.
        path: PathBuf,
        /// The eval's id.
        id: String,
        /// What is wrong.
        message: String,
    },
    /// The whole file is wrong.
    #[error("{path}: {message}")]
    File {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

impl EvalsFile {
    /// Reads and checks `skill_dir`'s evals file.
    pub fn load(skill_dir: &Path) -> Result<EvalsFile, EvalsFileError> {
        let path = skill_dir.join(EVALS_FILE);
        let read = |message: String| EvalsFileError::Read {
            path: path.clone(),
            message,
        };
        let bytes = std::fs::read(&path).map_err(|e| read(e.to_string()))?;
        let text = String::from_utf8(bytes).map_err(|e| {
            read(format!(
                "not UTF-8 (byte {} is not valid)",
                e.utf8_error().valid_up_to()
            ))
        })?;
        let raw: RawFile = serde_json::from_str(&text).map_err(|e| EvalsFileError::Parse {
            path: path.clone(),
            line: e.line(),
            column: e.column(),
            message: e.to_string(),
        })?;
        let file_error = |message: String| EvalsFileError::File {
            path: path.clone(),
            message,
        };
        if raw.evals.is_empty() {
            return Err(file_error("`evals` is empty: write at least one".into()));
        }
        if raw.evals.len() > MAX_EVALS {
            return Err(file_error(format!(
                "{} evals; at most {MAX_EVALS}",
                raw.evals.len()
            )));
        }
        let mut evals: Vec<Eval> = Vec::new();
        for raw_eval in raw.evals {
            let eval = check_eval(skill_dir, &path, raw_eval)?;
            if let Some(twin) = evals.iter().find(|e| e.folder() == eval.folder()) {
                return Err(EvalsFileError::Eval {
                    path: path.clone(),
                    id: eval.id.clone(),
                    message: format!(
                        "its folder {} is also eval {}'s: ids must differ",
                        eval.folder(),
                        twin.id
                    ),
                });
            }
            evals.push(eval);
        }
        Ok(EvalsFile {
            path,
            skill_name: raw.skill_name,
            evals,
        })
    }
}

fn check_eval(skill_dir: &Path, path: &Path, raw: RawEval) -> Result<Eval, EvalsFileError> {
    let id = match raw.id {
        RawId::Number(n) => n.to_string(),
        RawId::Text(text) => text,
    };
    let fail = |message: String| EvalsFileError::Eval {
        path: path.to_owned(),
        id: id.clone(),
        message,
    };
    if id.trim().is_empty() || !id.chars().any(|c| c.is_ascii_alphanumeric()) {
        return Err(fail("the id needs a letter or a digit".into()));
    }
    if id.chars().count() > MAX_ID_CHARS {
        return Err(fail(format!(
            "the id is longer than {MAX_ID_CHARS} characters (it names a folder)"
        )));
    }
    if raw.prompt.trim().is_empty() {
        return Err(fail("the prompt is empty".into()));
    }
    if let Some(blank) = raw.expectations.iter().position(|e| e.trim().is_empty()) {
        return Err(fail(format!("expectation {} is empty", blank + 1)));
    }
    for file in &raw.files {
        check_input(skill_dir, file)
            .map_err(|message| fail(format!("file {file:?}: {message}")))?;
    }
    Ok(Eval {
        id,
        prompt: raw.prompt,
        expected_output: raw.expected_output,
        files: raw.files,
        expectations: raw.expectations,
    })
}

/// An input file must be a regular file inside the skill folder, named by a relative path
/// without `..`, so an evals file from a stranger cannot copy the user's files into a run.
fn check_input(skill_dir: &Path, file: &str) -> Result<(), String> {
    let relative = Path::new(file);
    if file.is_empty() || file.contains('\\') {
        return Err("not a relative path with / separators".into());
    }
    if !relative
        .components()
        .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
    {
        return Err("must be a relative path inside the skill folder, without ..".into());
    }
    let full = skill_dir.join(relative);
    let meta = std::fs::symlink_metadata(&full).map_err(|e| format!("cannot be read: {e}"))?;
    if !meta.file_type().is_file() {
        return Err("is not a regular file (links and folders are not copied)".into());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!(
            "is {} bytes; input files may have at most {MAX_FILE_BYTES}",
            meta.len()
        ));
    }
    let resolve =
        |path: &Path| std::fs::canonicalize(path).map_err(|e| format!("cannot be resolved: {e}"));
    let canonical_dir = resolve(skill_dir)?;
    let canonical = resolve(&full)?;
    if !canonical.starts_with(&canonical_dir) {
        return Err("leads out of the skill folder".into());
    }
    Ok(())
}
