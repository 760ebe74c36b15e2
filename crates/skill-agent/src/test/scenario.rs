//! Scenario files: `<skill>/evals/*.yaml`, each a prompt, workspace files, a cassette and
//! expectations. Cassettes live in `evals/cassettes/<scenario>.yaml` unless the file names one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use skill_archive::select::EVALS_DIR;
/// The folder of cassettes inside `evals/`.
pub(crate) const CASSETTES_DIR: &str = "cassettes";
/// The stem of `evals/triggers.yaml`, `skill eval`'s trigger set, which is not a scenario.
pub(crate) const TRIGGERS_STEM: &str = "triggers";

/// One scenario as written.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// What the user asks.
    pub prompt: String,
    /// Files written into the workspace first: path → content.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub files: BTreeMap<String, String>,
    /// The cassette, relative to the scenario file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cassette: Option<String>,
    /// Whether the run's commands may open TCP connections (refused otherwise).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub network: bool,
    /// Variables the run's commands get, with the values written here (the variables the skill
    /// declares get no value from the environment unless `--pass-env` names them).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub env: BTreeMap<String, String>,
    /// How the skill reaches the model: `summary` (the default), `always`, `mention` or
    /// `preload`.
    #[serde(default, skip_serializing_if = "is_summary")]
    pub via: skill_prompt::via::Via,
    /// What must hold after the run.
    #[serde(default)]
    pub expect: Expect,
}

/// Expectations; each one given must hold.
#[derive(Debug, Clone, Default, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Whether the model read the skill's own SKILL.md.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads_skill: Option<bool>,
    /// Calls that must have been made (each matches at least one call).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<CallPattern>,
    /// Files the run must leave in the workspace.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<FilePattern>,
    /// A regex the final answer must match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub final_answer: Option<String>,
    /// The turn limit: the run must answer within it (20 when not given).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_turns: Option<usize>,
    /// How the run must stop (`answer` when not given): a scenario about a refusal says
    /// `refusal`, one that expects the token limit to cut the answer says `length`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<crate::Stop>,
    /// Most tokens (input and output, summed over the turns) the run may use: a replay fails
    /// when a change makes the run costlier.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u64>,
    /// Most model turns the run may take, checked after it ends (unlike `max_turns`, which
    /// stops it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_turns_used: Option<usize>,
}

fn is_summary(via: &skill_prompt::via::Via) -> bool {
    *via == skill_prompt::via::Via::Summary
}

/// A tool call: its name, and regexes for some of its arguments (matched against the argument's
/// text: strings as they are, other values as JSON).
#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct CallPattern {
    /// The tool.
    pub name: String,
    /// Argument name → regex.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub args: BTreeMap<String, String>,
}

/// A file in the workspace, and a regex its content must match.
#[derive(Debug, Clone, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct FilePattern {
    /// Path relative to the workspace.
    pub path: String,
    /// A regex the content must match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub contains: Option<String>,
}

/// Why a scenario file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// It could not be read.
    #[error("{path}: {message}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// It is not a scenario.
    #[error("{path}: not a scenario: {message}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// The YAML error with its line and column.
        message: String,
    },
    /// A pattern or path in it cannot work; found before any model is called.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong, naming the field.
        message: String,
    },
}

impl Scenario {
    /// Reads the scenario at `path`.
    pub fn load(path: &Path) -> Result<Scenario, ScenarioError> {
        let text = std::fs::read_to_string(path).map_err(|e| ScenarioError::Read {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        let scenario: Scenario =
            serde_saphyr::from_str(&text).map_err(|e| ScenarioError::Parse {
                path: path.to_owned(),
                message: e.to_string(),
            })?;
        scenario.check().map_err(|message| ScenarioError::Invalid {
            path: path.to_owned(),
            message,
        })?;
        Ok(scenario)
    }

    /// Every regex compiles and every path stays inside the workspace.
    fn check(&self) -> Result<(), String> {
        let regex = |pattern: &str, field: &str| {
            regex::Regex::new(pattern)
                .map(drop)
                .map_err(|e| format!("{field} is not a valid regex: {e}"))
        };
        let relative = |path: &str, field: &str| {
            let p = Path::new(path);
            if path.is_empty()
                || p.is_absolute()
                || p.components()
                    .any(|c| matches!(c, std::path::Component::ParentDir))
            {
                Err(format!(
                    "{field}: '{path}' must be a relative path inside the workspace"
                ))
            } else {
                Ok(())
            }
        };
        for path in self.files.keys() {
            relative(path, "files")?;
        }
        // Recording writes the cassette: it must stay beside the scenario.
        if let Some(cassette) = &self.cassette
            && relative(cassette, "cassette").is_err()
        {
            return Err(format!(
                "cassette: '{cassette}' must be a relative path inside the scenario's folder"
            ));
        }
        let expect = &self.expect;
        for (i, call) in expect.tool_calls.iter().enumerate() {
            for (arg, pattern) in &call.args {
                regex(pattern, &format!("expect.tool_calls[{i}].args.{arg}"))?;
            }
        }
        for (i, file) in expect.files.iter().enumerate() {
            relative(&file.path, &format!("expect.files[{i}].path"))?;
            if let Some(pattern) = &file.contains {
                regex(pattern, &format!("expect.files[{i}].contains"))?;
            }
        }
        if let Some(pattern) = &expect.final_answer {
            regex(pattern, "expect.final_answer")?;
        }
        Ok(())
    }

    /// The cassette of the scenario at `path`.
    pub fn cassette_path(&self, path: &Path) -> PathBuf {
        let dir = path.parent().unwrap_or(Path::new("."));
        match &self.cassette {
            Some(c) => dir.join(c),
            None => dir.join(CASSETTES_DIR).join(
                path.file_name()
                    .map(PathBuf::from)
                    .unwrap_or_else(|| "scenario.yaml".into()),
            ),
        }
    }
}

/// The scenario files of the skill in `skill_dir`, sorted.
pub fn scenario_files(skill_dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(skill_dir.join(EVALS_DIR)) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "yaml" || e == "yml"))
        // The trigger set is `skill eval`'s, not a scenario.
        .filter(|p| p.file_stem().is_none_or(|s| s != TRIGGERS_STEM))
        .collect();
    files.sort();
    files
}
