//! A starter impact eval for a skill: `evals/evals.json` (written when missing: one eval whose
//! prompt is the skill's own description, and one expectation checked by code) and its
//! cassettes, recorded from a scripted model that reads the skill and names it when the skill
//! is installed, and answers without it otherwise. It shows `skill eval --impact` working from
//! the first minute; writing real evals and recording them with a real model
//! (`skill eval --impact DIR --mode record`) makes it a measurement.

use super::{Config, Eval, ImpactError, Options, Subject};
use crate::cassette::Mode;
use crate::message::Reply;
use crate::provider::ModelError;
use std::path::{Path, PathBuf};

/// The id of the starter eval, by which `--init` knows it may write the file again.
pub(crate) const STARTER_ID: &str = "starter";

#[derive(serde::Serialize)]
struct StarterFile<'a> {
    skill_name: &'a str,
    evals: [StarterEval<'a>; 1],
}

#[derive(serde::Serialize)]
struct StarterEval<'a> {
    id: &'a str,
    prompt: &'a str,
    expected_output: String,
    files: [&'a str; 0],
    expectations: [String; 1],
}

/// The starter evals file of the skill `name` described as `description`.
pub(crate) fn starter_json(name: &str, description: &str) -> String {
    let file = StarterFile {
        skill_name: name,
        evals: [StarterEval {
            id: STARTER_ID,
            prompt: description.trim(),
            expected_output: format!(
                "The agent follows the {name} skill. (A starter: write evals with real tasks and checkable expectations.)"
            ),
            files: [],
            expectations: [mentions(name)],
        }],
    };
    serde_json::to_string_pretty(&file).unwrap_or_default() + "\n"
}

/// The starter's expectation, checked by code: the name quoted with a mark it does not hold.
fn mentions(name: &str) -> String {
    if name.contains('`') {
        format!("The answer mentions \"{}\"", name.replace('"', ""))
    } else {
        format!("The answer mentions `{name}`")
    }
}

/// The scripted replies of a run of `eval` in `config` for the skill `skill`: with a skill
/// installed, a read of its SKILL.md and an answer naming it; without, a plain answer.
pub fn scripted(_eval: &Eval, config: Config, skill: &str) -> Vec<Reply> {
    let answer = |text: String| Reply {
        text,
        stop_reason: "stop".to_owned(),
        ..Reply::default()
    };
    if config == Config::WithoutSkill {
        return vec![answer("Done, without a skill.".to_owned())];
    }
    vec![
        crate::eval::starter::read_skill(skill),
        answer(format!("Done, following the {skill} skill.")),
    ]
}

/// What [`write_impact_starter`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StarterWritten {
    /// The evals file.
    pub path: PathBuf,
    /// The cassettes recorded.
    pub cassettes: usize,
}

/// Writes the starter evals file of the skill in `dir` (unless it has evals the author wrote,
/// which a script cannot stand in for: an error that says to record them) and records its
/// cassettes from the scripted model.
pub fn write_impact_starter(dir: &Path) -> Result<StarterWritten, ImpactError> {
    let path = dir.join(super::EVALS_FILE);
    let name = crate::test::skill_name(dir);
    if path.is_file() {
        refuse_authored_evals(dir, &path)?;
    }
    let description = skill_model::discover(&[dir.to_owned()])
        .ok()
        .and_then(|found| found.into_iter().next())
        .map(skill_model::Skill::load)
        .and_then(|skill| skill_model::similarity::described(&skill))
        .map(|(_, d)| d)
        .unwrap_or_else(|| name.clone());
    let fail = |source: std::io::Error| ImpactError::Write {
        path: path.clone(),
        source,
    };
    std::fs::create_dir_all(dir.join(crate::test::scenario::EVALS_DIR)).map_err(fail)?;
    skill_archive::atomic_file::write(&path, starter_json(&name, &description).as_bytes())
        .map_err(fail)?;
    let subject = Subject {
        dir: dir.to_owned(),
        name,
        evals: super::EvalsFile::load(dir)?,
    };
    let scratch = tempfile::tempdir().map_err(fail)?;
    let cassettes = record_scripted(&subject, scratch.path())?;
    Ok(StarterWritten { path, cassettes })
}

/// An error when the evals file at `path` holds evals other than the starter.
fn refuse_authored_evals(dir: &Path, path: &Path) -> Result<(), ImpactError> {
    let ours =
        super::EvalsFile::load(dir).is_ok_and(|file| file.evals.iter().all(|e| e.id == STARTER_ID));
    if !ours {
        return Err(ImpactError::AuthoredEvals {
            path: path.to_owned(),
            skill: dir.to_owned(),
        });
    }
    Ok(())
}

/// Records the subject's cassettes from the scripted model, its workspaces under `scratch`;
/// returns how many runs were recorded.
fn record_scripted(subject: &Subject, scratch: &Path) -> Result<usize, ImpactError> {
    let no_provider = || -> Result<_, ModelError> {
        Err(ModelError::Setting(
            "a scripted recording calls no provider".to_owned(),
        ))
    };
    let options = Options {
        mode: Mode::Record,
        runs: super::DEFAULT_RUNS,
        baseline: None,
        http: &no_provider,
        rerecord: String::new(),
        // The scripted model runs no command.
        confinement: crate::tools::Confinement::default(),
        max_turns: crate::DEFAULT_MAX_TURNS,
        workspace: Some(scratch.to_owned()),
        min_delta: None,
        blind: false,
        script: Some(&scripted),
        agent: None,
    };
    let report = super::run(subject, &options)?;
    Ok(report
        .evals
        .iter()
        .flat_map(|e| &e.configs)
        .map(|c| c.runs.len())
        .sum())
}
