//! A starter trigger set for a skill: `evals/triggers.yaml` (written when missing: one query
//! made of the skill's own description, one about something else) and its cassettes, recorded
//! from a scripted model that reads the skill exactly for the should-trigger queries. It shows
//! `skill eval` working from the first minute; recording again with a real model
//! (`skill eval DIR --mode record`) makes it a real measurement.

use super::{EvalError, Options, Query, TRIGGERS_FILE};
use crate::cassette::Mode;
use crate::message::{Reply, ToolCall};
use crate::provider::ModelError;
use std::path::{Path, PathBuf};

/// The answer of the scripted model when it reads no skill.
const ANSWER: &str = "I can answer that without a skill.";

/// The first line of a starter trigger set, by which `--init` knows it may write it again.
const STARTER_HEADER: &str =
    "# A starter trigger set for `skill eval`. Its cassettes come from a scripted model that reads";

/// The starter trigger set of a skill described as `description`.
pub(crate) fn starter_yaml(description: &str) -> String {
    let quoted = |text: &str| serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_owned());
    format!(
        "{STARTER_HEADER}\n\
         # the skill exactly when it should; record them with a real model to measure it:\n\
         #   skill eval . --mode record\n\
         queries:\n  - prompt: {}\n    should_trigger: true\n  - prompt: \"What is the capital of France?\"\n    should_trigger: false\n\
         runs: 1\nmin_recall: 1.0\nmax_false_rate: 0.0\n",
        quoted(description.trim())
    )
}

/// The scripted replies for `query` of `skill`: a read of its SKILL.md when it should
/// trigger, else a direct answer.
pub fn scripted(query: &Query, skill: &str) -> Vec<Reply> {
    if query.should_trigger {
        vec![read_skill(skill)]
    } else {
        vec![Reply {
            text: ANSWER.to_owned(),
            stop_reason: "stop".to_owned(),
            ..Reply::default()
        }]
    }
}

/// A scripted reply that reads `skill`'s SKILL.md in a run's workspace.
pub(crate) fn read_skill(skill: &str) -> Reply {
    Reply {
        tool_calls: vec![ToolCall {
            id: "call_1".to_owned(),
            name: "read_file".to_owned(),
            arguments: serde_json::json!({"path": format!("skills/{skill}/SKILL.md")}).to_string(),
        }],
        stop_reason: "tool_calls".to_owned(),
        ..Reply::default()
    }
}

/// What [`write_trigger_starter`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarterWritten {
    /// The trigger set's path.
    pub path: PathBuf,
    /// Whether the trigger set was written (a starter, from the current description), rather
    /// than kept (one the author wrote).
    pub wrote_triggers: bool,
    /// The cassettes recorded.
    pub cassettes: usize,
}

/// Writes the starter trigger set of the skill in `dir` from its current name and description
/// (unless it has one the author wrote: a starter is written again, so it follows an edited
/// description), then records every cassette of its trigger set from the scripted model, with
/// `distractors` beside it.
pub fn write_trigger_starter(
    dir: &Path,
    distractors: &[PathBuf],
) -> Result<StarterWritten, EvalError> {
    let path = dir.join(TRIGGERS_FILE);
    let is_starter = |text: String| text.starts_with(STARTER_HEADER);
    let wrote_triggers = std::fs::read_to_string(&path).map_or(true, is_starter);
    if wrote_triggers {
        let description = skill_model::discover(&[dir.to_owned()])
            .ok()
            .and_then(|found| found.into_iter().next())
            .map(skill_model::Skill::load)
            .and_then(|skill| skill_model::similarity::described(&skill))
            .map(|(_, d)| d)
            .unwrap_or_else(|| crate::test::skill_name(dir));
        let description = description.as_str();
        let fail = |e: std::io::Error| {
            EvalError::Triggers(super::TriggersError::Read {
                path: path.clone(),
                message: e.to_string(),
            })
        };
        std::fs::create_dir_all(dir.join(crate::test::scenario::EVALS_DIR)).map_err(fail)?;
        std::fs::write(&path, starter_yaml(description)).map_err(fail)?;
    }
    let subjects = super::load_subjects(&[dir.to_owned()])?;
    let no_provider = || -> Result<_, ModelError> { unreachable_provider() };
    let options = Options {
        mode: Mode::Record,
        runs: None,
        compare: Vec::new(),
        http: &no_provider,
        rerecord: String::new(),
        script: Some(&scripted),
        // The scripted model runs no command.
        confinement: crate::tools::Confinement::default(),
        cassettes: None,
    };
    let report = super::run(&subjects, distractors, &options)?;
    let cassettes = report
        .skills
        .iter()
        .map(|s| s.queries.iter().map(|q| q.runs.len()).sum::<usize>())
        .sum();
    Ok(StarterWritten {
        path,
        wrote_triggers,
        cassettes,
    })
}

fn unreachable_provider() -> Result<crate::provider::HttpConfig, ModelError> {
    Err(ModelError::Setting(
        "a scripted recording calls no provider".to_owned(),
    ))
}
