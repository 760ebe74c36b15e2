//! A starter scenario for a skill that has none: `evals/basic.yaml`, which asks what the skill
//! does and expects the model to read it, and its cassette, recorded from a scripted model that
//! reads SKILL.md and answers. It shows the harness working from the first minute; recording
//! it again with a real model (`skill test DIR --mode record`) makes it a real test.

use super::scenario::{CASSETTES_DIR, EVALS_DIR, Expect, Scenario};
use crate::cassette::Cassette;
use crate::message::{Reply, ToolCall, Usage};
use crate::tools::{Confinement, DEFAULT_EXEC_TIMEOUT, Passed};
use crate::r#try::SCRIPTED;
use crate::r#try::{Answers, PassEnv, Trial, run_trial, shell_path};
use skill_model::discovery::discover;
use skill_model::{Skill, yaml::plain_or_quoted};
use std::path::{Path, PathBuf};

/// The starter scenario's file name.
pub(crate) const STARTER: &str = "basic.yaml";
/// The starter's turn limit.
const MAX_TURNS: usize = 5;

/// Why no starter was written.
#[derive(Debug, thiserror::Error)]
pub enum StarterError {
    /// The skill has a scenario or cassette of that name that is not a scripted starter.
    #[error(
        "{0}: exists already (a recording or an edited scenario); remove it to write a new starter"
    )]
    Exists(PathBuf),
    /// The folder is not a skill.
    #[error(transparent)]
    Discovery(#[from] skill_model::DiscoveryError),
    /// Writing failed.
    #[error("{path}: {message}")]
    Write {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// Recording the cassette failed.
    #[error(transparent)]
    Agent(#[from] crate::AgentError),
}

/// The files of a starter scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Starter {
    /// `evals/basic.yaml`.
    pub scenario: PathBuf,
    /// Its cassette, recorded from the scripted model.
    pub cassette: PathBuf,
}

/// Writes `evals/basic.yaml` and its cassette into the skill at `skill_dir`.
pub fn write_starter(skill_dir: &Path) -> Result<Starter, StarterError> {
    let location = discover(&[skill_dir.to_owned()])?
        .into_iter()
        .next()
        .ok_or_else(|| StarterError::Write {
            path: skill_dir.to_owned(),
            message: "no skill here".to_owned(),
        })?;
    let skill = Skill::load(location.clone());
    let name = super::skill_name(&location.dir);
    let description = one_line_description(&skill);
    let evals = location.dir.join(EVALS_DIR);
    let scenario = evals.join(STARTER);
    let cassette = evals.join(CASSETTES_DIR).join(STARTER);
    let prompt = format!("What does the {name} skill do? Read it before you answer.");
    let expected = starter_scenario(&prompt, &name);
    // Only the starter's own files are refreshed (after SKILL.md changed): never a real
    // recording, and never a scenario the author edited.
    if cassette.exists()
        && !Cassette::load(&cassette).is_ok_and(|c| c.recorded_by.provider == SCRIPTED)
    {
        return Err(StarterError::Exists(cassette));
    }
    if scenario.exists() && Scenario::load(&scenario).ok().as_ref() != Some(&expected) {
        return Err(StarterError::Exists(scenario));
    }
    std::fs::create_dir_all(&evals).map_err(|e| StarterError::Write {
        path: evals.clone(),
        message: e.to_string(),
    })?;
    let answer = format!("The {name} skill: {description}");
    record_starter(&location.dir, &prompt, script(&name, &answer), &cassette)?;
    let yaml = format!(
        "# A starter scenario for `skill test`. Its cassette (cassettes/{STARTER}) comes from a\n\
         # scripted model that reads SKILL.md and answers. Record it with a real model:\n\
         #   skill test {dir} --mode record\n\
         prompt: {prompt}\n\
         expect:\n  reads_skill: true\n  final_answer: {pattern}\n  max_turns: {MAX_TURNS}\n",
        dir = shell_path(&location.dir),
        prompt = plain_or_quoted(&prompt),
        pattern = plain_or_quoted(&answer_pattern(&name)),
    );
    std::fs::write(&scenario, yaml).map_err(|e| StarterError::Write {
        path: scenario.clone(),
        message: e.to_string(),
    })?;
    Ok(Starter { scenario, cassette })
}

/// The skill's description on one line ("" when it has none), for the scripted answer.
fn one_line_description(skill: &Skill) -> String {
    let text = skill
        .document
        .as_ref()
        .map(|d| d.source.text.clone())
        .unwrap_or_default();
    skill
        .manifest()
        .and_then(|m| m.value("description"))
        .and_then(|v| v.scalar_text(&text))
        .map(|d| d.split_whitespace().collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// The scenario the starter's YAML reads as, to tell an untouched starter from an edited one.
fn starter_scenario(prompt: &str, name: &str) -> Scenario {
    Scenario {
        prompt: prompt.to_owned(),
        files: Default::default(),
        cassette: None,
        network: false,
        env: Default::default(),
        via: Default::default(),
        expect: Expect {
            reads_skill: Some(true),
            final_answer: Some(answer_pattern(name)),
            max_turns: Some(MAX_TURNS),
            ..Expect::default()
        },
    }
}

/// Records the starter's cassette at `cassette` from the scripted `replies`.
fn record_starter(
    skill_dir: &Path,
    prompt: &str,
    replies: Vec<Reply>,
    cassette: &Path,
) -> Result<(), StarterError> {
    let trial = Trial {
        skills: vec![skill_dir.to_owned()],
        workspace: None,
        files: Vec::new(),
        prompt: prompt.to_owned(),
        max_turns: MAX_TURNS,
        exec_timeout: DEFAULT_EXEC_TIMEOUT,
        answers: Answers::Script(replies, cassette.to_owned()),
        rerecord: String::new(),
        confinement: Confinement::default(),
        env: PassEnv::Chosen(Passed::default()),
        loading: Default::default(),
        stop_at_route: false,
    };
    run_trial(&trial, &mut |_| {})?;
    Ok(())
}

/// The skill's name as a regex: names are usually `a-z0-9-`, which need no escaping.
fn answer_pattern(name: &str) -> String {
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        name.to_owned()
    } else {
        regex::escape(name)
    }
}

fn script(name: &str, answer: &str) -> Vec<Reply> {
    vec![
        Reply {
            text: String::new(),
            tool_calls: vec![ToolCall {
                id: "call_1".to_owned(),
                name: "read_file".to_owned(),
                arguments: serde_json::json!({"path": format!("skills/{name}/SKILL.md")})
                    .to_string(),
            }],
            usage: Usage::default(),
            stop_reason: "tool_calls".to_owned(),
            ..Reply::default()
        },
        Reply {
            text: answer.to_owned(),
            tool_calls: Vec::new(),
            usage: Usage::default(),
            stop_reason: "stop".to_owned(),
            ..Reply::default()
        },
    ]
}
