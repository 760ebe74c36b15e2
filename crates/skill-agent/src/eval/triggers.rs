//! Trigger sets: `<skill>/evals/triggers.yaml`, the queries that should and should not make the
//! model read the skill, how often to ask each, and the thresholds. Read and checked whole
//! before any model is called, every problem named with its file and line.

use serde_saphyr::Spanned;
use skill_prompt::via::Via;
use std::path::{Path, PathBuf};

/// The trigger set's path inside a skill folder.
pub const TRIGGERS_FILE: &str = "evals/triggers.yaml";
/// Most runs a query may ask for: a trigger eval is a sample, not a load test.
pub(crate) const MAX_RUNS: u32 = 100;

/// One query.
#[derive(Debug, Clone, PartialEq)]
pub struct Query {
    /// What the user asks.
    pub prompt: String,
    /// Whether the model should read the skill for it.
    pub should_trigger: bool,
    /// Its line in the file.
    pub line: u64,
}

/// A checked trigger set.
#[derive(Debug, Clone, PartialEq)]
pub struct TriggerSet {
    /// The file it came from.
    pub path: PathBuf,
    /// The queries, in file order.
    pub queries: Vec<Query>,
    /// How many times each query is asked (1 when not given).
    pub runs: u32,
    /// Least share of should-trigger runs that must read the skill.
    pub min_recall: Option<f64>,
    /// Most share of should-not runs that may read it.
    pub max_false_rate: Option<f64>,
    /// How the skill reaches the model (`summary` when not given).
    pub via: Via,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSet {
    queries: Spanned<Vec<RawQuery>>,
    #[serde(default)]
    runs: Option<Spanned<i64>>,
    #[serde(default)]
    min_recall: Option<Spanned<f64>>,
    #[serde(default)]
    max_false_rate: Option<Spanned<f64>>,
    #[serde(default)]
    via: Option<Via>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawQuery {
    prompt: Spanned<String>,
    should_trigger: bool,
}

/// Why a trigger set cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum TriggersError {
    /// The file could not be read.
    #[error("{path}: {message}")]
    Read {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The YAML is not a trigger set (the message has the line and column).
    #[error(
        "{path}: not a trigger set: {message}\nA trigger set is `queries:` (each a `prompt:` and `should_trigger: true|false`), and optionally `runs`, `min_recall`, `max_false_rate` and `via`"
    )]
    Parse {
        /// The file.
        path: PathBuf,
        /// The YAML error.
        message: String,
    },
    /// A value that cannot work.
    #[error("{path}:{line}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// The line of the value.
        line: u64,
        /// What is wrong and what to write instead.
        message: String,
    },
}

impl TriggerSet {
    /// Reads and checks the trigger set at `path`.
    pub fn load(path: &Path) -> Result<TriggerSet, TriggersError> {
        let text = std::fs::read_to_string(path).map_err(|e| TriggersError::Read {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        TriggerSet::parse(path, &text)
    }

    /// Parses and checks `text`, the content of `path`.
    pub fn parse(path: &Path, text: &str) -> Result<TriggerSet, TriggersError> {
        let raw: RawSet = serde_saphyr::from_str(text).map_err(|e| TriggersError::Parse {
            path: path.to_owned(),
            message: e.to_string(),
        })?;
        let queries = checked_queries(path, raw.queries)?;
        let runs = checked_runs(path, raw.runs)?;
        let min_recall = checked_share(path, raw.min_recall, "min_recall")?;
        let max_false_rate = checked_share(path, raw.max_false_rate, "max_false_rate")?;
        if let Some(v) = &min_recall
            && !queries.iter().any(|q| q.should_trigger)
        {
            return Err(invalid(
                path,
                v.referenced.line(),
                "min_recall needs at least one query with `should_trigger: true`".to_owned(),
            ));
        }
        if let Some(v) = &max_false_rate
            && !queries.iter().any(|q| !q.should_trigger)
        {
            return Err(invalid(
                path,
                v.referenced.line(),
                "max_false_rate needs at least one query with `should_trigger: false`".to_owned(),
            ));
        }
        Ok(TriggerSet {
            path: path.to_owned(),
            queries,
            runs,
            min_recall: min_recall.map(|v| v.value),
            max_false_rate: max_false_rate.map(|v| v.value),
            via: raw.via.unwrap_or_default(),
        })
    }
}

/// The error for a value on `line` of `path` that cannot work.
fn invalid(path: &Path, line: u64, message: String) -> TriggersError {
    TriggersError::Invalid {
        path: path.to_owned(),
        line,
        message,
    }
}

/// The queries of `path`: at least one, none empty, no prompt twice.
fn checked_queries(path: &Path, raw: Spanned<Vec<RawQuery>>) -> Result<Vec<Query>, TriggersError> {
    if raw.value.is_empty() {
        return Err(invalid(
            path,
            raw.referenced.line(),
            "queries is empty: give at least one query that should trigger the skill and one that should not".to_owned(),
        ));
    }
    let mut queries: Vec<Query> = Vec::new();
    for query in raw.value {
        let line = query.prompt.referenced.line();
        let prompt = query.prompt.value;
        if prompt.trim().is_empty() {
            return Err(invalid(path, line, "prompt is empty".to_owned()));
        }
        if let Some(first) = queries.iter().find(|q| q.prompt == prompt) {
            return Err(invalid(
                path,
                line,
                format!(
                    "the same prompt as line {}: ask it more times with `runs` instead",
                    first.line
                ),
            ));
        }
        queries.push(Query {
            prompt,
            should_trigger: query.should_trigger,
            line,
        });
    }
    Ok(queries)
}

/// `runs`, 1 when not given.
fn checked_runs(path: &Path, runs: Option<Spanned<i64>>) -> Result<u32, TriggersError> {
    match runs {
        None => Ok(1),
        Some(runs) if (1..=i64::from(MAX_RUNS)).contains(&runs.value) => Ok(runs.value as u32),
        Some(runs) => Err(invalid(
            path,
            runs.referenced.line(),
            format!(
                "runs is {}: give a whole number from 1 to {MAX_RUNS}",
                runs.value
            ),
        )),
    }
}

/// The threshold `key`, a share from 0 to 1, kept with its line for later checks.
fn checked_share(
    path: &Path,
    value: Option<Spanned<f64>>,
    key: &str,
) -> Result<Option<Spanned<f64>>, TriggersError> {
    match value {
        None => Ok(None),
        Some(v) if (0.0..=1.0).contains(&v.value) => Ok(Some(v)),
        Some(v) => Err(invalid(
            path,
            v.referenced.line(),
            format!(
                "{key} is {}: it is a share of runs, from 0.0 to 1.0 (0.8 means 80%)",
                v.value
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        TriggerSet::parse(Path::new("t.yaml"), text)
            .unwrap_err()
            .to_string()
    }

    #[test]
    fn reads_a_set() {
        let set = TriggerSet::parse(
            Path::new("t.yaml"),
            "queries:\n  - prompt: a\n    should_trigger: true\n  - prompt: b\n    should_trigger: false\nruns: 3\nmin_recall: 0.8\nmax_false_rate: 0.1\nvia: mention\n",
        )
        .unwrap();
        assert_eq!(set.runs, 3);
        assert_eq!(set.queries[1].line, 4);
        assert_eq!(set.min_recall, Some(0.8));
        assert_eq!(set.via, Via::Mention);
    }

    #[test]
    fn names_the_line() {
        let two = "queries:\n  - prompt: a\n    should_trigger: true\n  - prompt: b\n    should_trigger: false\n";
        assert_eq!(
            error(&format!("{two}min_recall: 80\n")),
            "t.yaml:6: min_recall is 80: it is a share of runs, from 0.0 to 1.0 (0.8 means 80%)"
        );
        assert_eq!(
            error(&format!("{two}runs: 0\n")),
            "t.yaml:6: runs is 0: give a whole number from 1 to 100"
        );
        assert_eq!(
            error(
                "queries:\n  - prompt: a\n    should_trigger: true\n  - prompt: a\n    should_trigger: false\n"
            ),
            "t.yaml:4: the same prompt as line 2: ask it more times with `runs` instead"
        );
        assert_eq!(
            error("queries:\n  - prompt: a\n    should_trigger: true\nmax_false_rate: 0.1\n"),
            "t.yaml:4: max_false_rate needs at least one query with `should_trigger: false`"
        );
        assert!(error("queries:\n  - prompt: a\n").contains("should_trigger"));
        assert!(error("queries: []\n").starts_with("t.yaml:1: queries is empty"));
    }
}
