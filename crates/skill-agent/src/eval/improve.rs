//! `skill eval --improve-description`: the loop of the Agent Skills site's *Optimizing skill
//! descriptions*. The trigger queries (`evals/eval_queries.json`, else `evals/triggers.yaml`)
//! are split 60/40 into train and validation, each side keeping the share of should-trigger
//! queries, with a fixed seed. Each candidate description is measured on both splits through
//! the trigger eval (a query passes when its trigger rate is on the right side of 0.5); a model
//! proposes the next candidate from the current one's failures on train only; the loop stops
//! after N iterations, when train passes whole, or after two candidates without a better train
//! score; the winner is the best on validation. Every exchange has its cassette under
//! `evals/cassettes/improve/`, so the loop replays offline.

use super::{EvalError, Options, Query, Subject, TriggerSet};
use crate::cassette::{Mode, Normaliser};
use crate::message::{Message, Request, Stop};
use crate::r#try::{Answers, model_for};
use skill_prompt::via::Via;
use std::path::{Path, PathBuf};

/// The spec's file of trigger queries: `[{"query": ..., "should_trigger": ...}]`.
pub(crate) const QUERIES_FILE: &str = "evals/eval_queries.json";
/// The folder of the optimiser's cassettes inside `evals/cassettes/`.
pub(crate) const CASSETTES_DIR: &str = "improve";
/// A query passes when its trigger rate is at least this (should trigger) or below it.
pub(crate) const PASS_RATE: f64 = 0.5;
/// Share of each label's queries in the train split.
const TRAIN_SHARE: f64 = 0.6;
/// The split's seed: the same queries always split the same way.
const SEED: u64 = 0x0060_0040;
/// Candidates in a row without a better train score before the loop stops.
const PATIENCE: usize = 2;

/// The proposer's fixed instructions: its system prompt.
pub(crate) const PROPOSER: &str = "You improve the description of an agent skill so that an agent loads the skill exactly when it helps.\n\
An agent sees only each skill's name and description and decides from them whether to read the skill.\n\
Rules:\n\
- Write in the imperative, about what the user wants to achieve, not how the skill works: say what it does, then \"Use when ...\".\n\
- Generalise from the failures: name the kind of request behind them; never paste the failing queries' words.\n\
- Where should-not queries triggered, say what the skill is not for.\n\
- If earlier attempts did not help, change the structure, not a word.\n\
- Stay under the character limit given.\n\
Answer with the new description only, between <description> and </description>.";

/// One candidate and how it did.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Candidate {
    /// 0 for the current description, then each proposal.
    pub iteration: usize,
    /// The description.
    pub description: String,
    /// How it did on train.
    pub train: Scored,
    /// How it did on validation.
    pub validation: Scored,
    /// Why a proposal was not measured (too long, unreadable), if it was not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejected: Option<String>,
}

/// A candidate's result on one split.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Scored {
    /// Queries that passed.
    pub passed: usize,
    /// Queries in the split.
    pub total: usize,
    /// The queries that failed, with their trigger rates (`null`: no run decided).
    pub failed: Vec<Failure>,
}

/// A query on the wrong side of [`PASS_RATE`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Failure {
    /// What the user asked.
    pub prompt: String,
    /// Whether it should have triggered the skill.
    pub should_trigger: bool,
    /// Its trigger rate.
    pub rate: Option<f64>,
}

/// The optimiser's result.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Improvement {
    /// The skill.
    pub skill: String,
    /// Where the queries came from.
    pub queries: PathBuf,
    /// The longest description accepted.
    pub limit: usize,
    /// Every candidate, in order; the first is the current description.
    pub candidates: Vec<Candidate>,
    /// The index of the winner in `candidates` (best on validation, earliest on a tie).
    pub winner: usize,
}

/// How to run the optimiser.
pub struct ImproveOptions<'a> {
    /// The trigger eval's options (mode, provider, confinement); its cassette folder is set
    /// per candidate and split.
    pub eval: Options<'a>,
    /// The skills installed beside it, as in `skill eval`.
    pub distractors: Vec<PathBuf>,
    /// Most proposals.
    pub iterations: usize,
    /// The longest description a candidate may have.
    pub limit: usize,
}

/// Reads the skill's trigger queries: the spec's `eval_queries.json`, else `triggers.yaml`;
/// with the runs per query (the trigger set's, else 3).
pub fn load_queries(dir: &Path) -> Result<(PathBuf, Vec<Query>, u32), EvalError> {
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Raw {
        query: String,
        should_trigger: bool,
    }
    let path = dir.join(QUERIES_FILE);
    let queries = if path.is_file() {
        let read = |message: String| queries_error(&path, message);
        let text = std::fs::read_to_string(&path).map_err(|e| read(e.to_string()))?;
        let raw: Vec<Raw> = serde_json::from_str(&text).map_err(|e| {
            read(format!(
                "line {} column {}: not a list of {{\"query\": ..., \"should_trigger\": true|false}}: {e}",
                e.line(),
                e.column()
            ))
        })?;
        raw.into_iter()
            .enumerate()
            .map(|(index, q)| Query {
                prompt: q.query,
                should_trigger: q.should_trigger,
                line: index as u64 + 1,
            })
            .collect()
    } else {
        let set = TriggerSet::load(&dir.join(super::TRIGGERS_FILE))?;
        return check_queries(set.path, set.queries, set.runs);
    };
    check_queries(path, queries, 3)
}

fn check_queries(
    path: PathBuf,
    queries: Vec<Query>,
    runs: u32,
) -> Result<(PathBuf, Vec<Query>, u32), EvalError> {
    if queries.iter().any(|q| q.prompt.trim().is_empty()) {
        return Err(queries_error(&path, "a query is empty".to_owned()));
    }
    for label in [true, false] {
        if queries.iter().filter(|q| q.should_trigger == label).count() < 2 {
            return Err(queries_error(
                &path,
                format!(
                    "needs at least two queries with should_trigger {label}, so that train and validation each have one"
                ),
            ));
        }
    }
    Ok((path, queries, runs))
}

fn queries_error(path: &Path, message: String) -> EvalError {
    EvalError::Triggers(super::TriggersError::Read {
        path: path.to_owned(),
        message,
    })
}

/// Splits `queries` into train and validation, each label 60/40, with the fixed seed.
pub fn split(queries: &[Query]) -> (Vec<Query>, Vec<Query>) {
    let mut rng = fastrand::Rng::with_seed(SEED);
    let (mut train, mut validation) = (Vec::new(), Vec::new());
    for label in [true, false] {
        let mut side: Vec<Query> = queries
            .iter()
            .filter(|q| q.should_trigger == label)
            .cloned()
            .collect();
        rng.shuffle(&mut side);
        let keep = ((side.len() as f64 * TRAIN_SHARE).round() as usize).clamp(1, side.len() - 1);
        validation.extend(side.split_off(keep));
        train.extend(side);
    }
    (train, validation)
}

/// Runs the loop for the skill in `dir`.
pub fn improve(dir: &Path, options: &ImproveOptions) -> Result<Improvement, EvalError> {
    let name = crate::test::skill_name(dir);
    let (queries_path, queries, runs) = load_queries(dir)?;
    let (train, validation) = split(&queries);
    let current = current_description(dir)?;
    let optimiser = Optimiser {
        dir,
        name: &name,
        queries_path: &queries_path,
        train: &train,
        validation: &validation,
        runs,
        cassettes: dir
            .join(crate::test::scenario::EVALS_DIR)
            .join(crate::test::scenario::CASSETTES_DIR)
            .join(CASSETTES_DIR),
        options,
    };
    let mut candidates = vec![optimiser.measure(0, &current)?];
    let mut stale = 0;
    for iteration in 1..=options.iterations {
        let best_train = candidates.iter().map(|c| c.train.passed).max().unwrap_or(0);
        let last = candidates
            .iter()
            .rev()
            .find(|c| c.rejected.is_none())
            .unwrap_or(&candidates[0]);
        if last.train.failed.is_empty() || stale >= PATIENCE {
            break;
        }
        let candidate = optimiser.propose(iteration, last, &candidates)?;
        let better = candidate.rejected.is_none() && candidate.train.passed > best_train;
        stale = if better { 0 } else { stale + 1 };
        candidates.push(candidate);
    }
    let winner = winner(&candidates);
    Ok(Improvement {
        skill: name,
        queries: queries_path,
        limit: options.limit,
        candidates,
        winner,
    })
}

/// What measuring and proposing the candidates for one skill share.
struct Optimiser<'a> {
    dir: &'a Path,
    name: &'a str,
    queries_path: &'a Path,
    train: &'a [Query],
    validation: &'a [Query],
    runs: u32,
    /// The optimiser's cassette folder.
    cassettes: PathBuf,
    options: &'a ImproveOptions<'a>,
}

impl Optimiser<'_> {
    /// How `description` does on both splits, measured on a copy of the skill.
    fn measure(&self, iteration: usize, description: &str) -> Result<Candidate, EvalError> {
        let folder = self.cassettes.join(format!("iteration-{iteration}"));
        let copy = with_description(self.dir, self.name, description)?;
        let skill = copy.path().join(self.name);
        let on_train = Split {
            path: self.queries_path,
            queries: self.train,
            runs: self.runs,
            cassettes: folder.join("train"),
        };
        let on_validation = Split {
            path: self.queries_path,
            queries: self.validation,
            runs: self.runs,
            cassettes: folder.join("validation"),
        };
        Ok(Candidate {
            iteration,
            description: description.to_owned(),
            train: score(&skill, &on_train, self.options)?,
            validation: score(&skill, &on_validation, self.options)?,
            rejected: None,
        })
    }

    /// The model's next candidate after `last`, measured, or rejected with why.
    fn propose(
        &self,
        iteration: usize,
        last: &Candidate,
        candidates: &[Candidate],
    ) -> Result<Candidate, EvalError> {
        let options = self.options;
        let cassette = self
            .cassettes
            .join(format!("iteration-{iteration}/propose.yaml"));
        let user = proposer_request(self.dir, self.name, options.limit, last, candidates);
        let reply = ask(self.dir, &user, &cassette, &options.eval)?;
        Ok(match read_proposal(&reply, options.limit) {
            Ok(description) => self.measure(iteration, &description)?,
            Err(why) => Candidate {
                iteration,
                description: reply.trim().to_owned(),
                train: Scored::default(),
                validation: Scored::default(),
                rejected: Some(why),
            },
        })
    }
}

/// The index of the best measured candidate on validation, then on train, earliest on a tie.
fn winner(candidates: &[Candidate]) -> usize {
    candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| c.rejected.is_none())
        .max_by(|(i, a), (j, b)| {
            a.validation
                .passed
                .cmp(&b.validation.passed)
                .then(a.train.passed.cmp(&b.train.passed))
                .then(j.cmp(i))
        })
        .map_or(0, |(i, _)| i)
}

/// One split of the queries, and where its cassettes are.
struct Split<'a> {
    path: &'a Path,
    queries: &'a [Query],
    runs: u32,
    cassettes: PathBuf,
}

/// How the skill copy in `skill` does on `split`.
fn score(skill: &Path, split: &Split, options: &ImproveOptions) -> Result<Scored, EvalError> {
    let subject = Subject {
        dir: skill.to_owned(),
        name: crate::test::skill_name(skill),
        triggers: TriggerSet {
            path: split.path.to_owned(),
            queries: split.queries.to_vec(),
            runs: split.runs,
            min_recall: None,
            max_false_rate: None,
            via: Via::Summary,
        },
    };
    let eval = &options.eval;
    let opts = Options {
        mode: eval.mode,
        runs: eval.runs,
        compare: Vec::new(),
        http: eval.http,
        rerecord: eval.rerecord.clone(),
        script: None,
        confinement: eval.confinement,
        cassettes: Some(split.cassettes.clone()),
    };
    let report = super::run(std::slice::from_ref(&subject), &options.distractors, &opts)?;
    let mut scored = Scored {
        total: split.queries.len(),
        ..Scored::default()
    };
    for query in &report.skills[0].queries {
        let decided: Vec<_> = query.runs.iter().filter(|r| r.decided).collect();
        let hits = decided
            .iter()
            .filter(|r| r.read.as_deref() == Some(subject.name.as_str()))
            .count();
        let rate = (!decided.is_empty()).then(|| hits as f64 / decided.len() as f64);
        if rate.is_some_and(|r| (r >= PASS_RATE) == query.should_trigger) {
            scored.passed += 1;
        } else {
            scored.failed.push(Failure {
                prompt: query.prompt.clone(),
                should_trigger: query.should_trigger,
                rate,
            });
        }
    }
    Ok(scored)
}

/// The current description of the skill in `dir`.
fn current_description(dir: &Path) -> Result<String, EvalError> {
    described(dir).ok_or_else(|| {
        EvalError::Workspace(crate::AgentError::Workspace {
            path: dir.join("SKILL.md"),
            message: "no description to improve".to_owned(),
        })
    })
}

fn described(dir: &Path) -> Option<String> {
    skill_model::discover(&[dir.to_owned()])
        .ok()?
        .into_iter()
        .next()
        .map(skill_model::Skill::load)
        .and_then(|skill| skill_model::similarity::described(&skill))
        .map(|(_, description)| description)
}

/// A temporary copy of the skill in `dir` (without `evals/`) as `<temp>/<name>`, its
/// description replaced by `description`: checked by reading it back.
fn with_description(
    dir: &Path,
    name: &str,
    description: &str,
) -> Result<tempfile::TempDir, EvalError> {
    let fail = |message: String| {
        EvalError::Workspace(crate::AgentError::Workspace {
            path: dir.join("SKILL.md"),
            message,
        })
    };
    let temp = tempfile::tempdir().map_err(|e| fail(e.to_string()))?;
    let copy = temp.path().join(name);
    skill_archive::install::install(
        &skill_archive::install::Input::FolderAs {
            path: dir.to_owned(),
            name: name.to_owned(),
        },
        temp.path(),
        true,
    )
    .map_err(|e| fail(e.to_string()))?;
    let skill_md = copy.join("SKILL.md");
    let text = std::fs::read_to_string(&skill_md).map_err(|e| fail(e.to_string()))?;
    let replaced = replace_description(&text, description).ok_or_else(|| {
        fail(
            "the description is not a top-level key of a block mapping, so it cannot be replaced"
                .to_owned(),
        )
    })?;
    std::fs::write(&skill_md, replaced).map_err(|e| fail(e.to_string()))?;
    if described(&copy).as_deref() != Some(description.trim()) {
        return Err(fail(
            "the replaced description did not read back the same".to_owned(),
        ));
    }
    Ok(temp)
}

/// `text` (a SKILL.md) with its frontmatter's top-level `description` (and the indented lines
/// that continue it) replaced by `description`, double-quoted.
pub(crate) fn replace_description(text: &str, description: &str) -> Option<String> {
    let body_start = text.strip_prefix("---")?.find("\n---")? + 3;
    let (front, rest) = text.split_at(body_start);
    let lines: Vec<&str> = front.split_inclusive('\n').collect();
    let at = lines.iter().position(|l| l.starts_with("description:"))?;
    let end = lines[at + 1..]
        .iter()
        .position(|l| !(l.starts_with(' ') || l.starts_with('\t') || l.trim().is_empty()))
        .map_or(lines.len(), |n| at + 1 + n);
    let quoted = serde_json::to_string(description.trim()).ok()?;
    let mut out: String = lines[..at].concat();
    out.push_str(&format!("description: {quoted}\n"));
    out.push_str(&lines[end..].concat());
    out.push_str(rest);
    Some(out)
}

fn proposer_request(
    dir: &Path,
    name: &str,
    limit: usize,
    last: &Candidate,
    candidates: &[Candidate],
) -> String {
    let body = std::fs::read_to_string(dir.join("SKILL.md")).unwrap_or_default();
    let excerpt: String = body.chars().take(2000).collect();
    let mut message = format!(
        "# Skill `{name}`\n\nLimit: {limit} characters.\n\n## Current description\n\n{}\n\n## The skill (start of SKILL.md)\n\n{excerpt}\n\n## Failures on the training queries\n\n",
        last.description
    );
    for failure in &last.train.failed {
        let rate = failure
            .rate
            .map_or("no decision".to_owned(), |r| format!("trigger rate {r:.2}"));
        let want = if failure.should_trigger {
            "should load the skill but did not"
        } else {
            "should not load the skill but did"
        };
        message.push_str(&format!("- {want} ({rate}): {}\n", failure.prompt));
    }
    message.push_str("\n## Earlier attempts and their training scores\n\n");
    for candidate in candidates {
        let score = match &candidate.rejected {
            Some(why) => format!("rejected: {why}"),
            None => format!("{} of {}", candidate.train.passed, candidate.train.total),
        };
        message.push_str(&format!("- ({score}) {}\n", candidate.description));
    }
    message
}

/// The description between the proposer's tags, if it fits.
pub(crate) fn read_proposal(reply: &str, limit: usize) -> Result<String, String> {
    let start = reply
        .find("<description>")
        .ok_or("no <description> in the reply")?;
    let inner = &reply[start + "<description>".len()..];
    let end = inner
        .find("</description>")
        .ok_or("no </description> in the reply")?;
    let description = inner[..end].trim();
    let chars = description.chars().count();
    if description.is_empty() {
        return Err("an empty description".to_owned());
    }
    if let Some(c) = description
        .chars()
        .find(|c| c.is_control() && *c != '\n' && *c != '\t')
    {
        return Err(format!("a control character ({:?}) in it", c));
    }
    if chars > limit {
        return Err(format!("{chars} characters, over the limit of {limit}"));
    }
    Ok(description.to_owned())
}

/// One exchange with the proposer through its cassette.
fn ask(dir: &Path, user: &str, cassette: &Path, options: &Options) -> Result<String, EvalError> {
    let mode = options.mode.settle(cassette);
    if mode == Mode::Replay && !cassette.is_file() {
        return Err(EvalError::NoCassette {
            path: cassette.to_owned(),
            rerecord: options.rerecord.clone(),
        });
    }
    let fail = |error: crate::AgentError| EvalError::Propose {
        cassette: cassette.to_owned(),
        error: Box::new(error),
    };
    if let Some(parent) = cassette.parent().filter(|_| mode != Mode::Replay) {
        std::fs::create_dir_all(parent).map_err(|e| {
            fail(crate::AgentError::Workspace {
                path: parent.to_owned(),
                message: e.to_string(),
            })
        })?;
    }
    let answers = Answers::for_mode(mode, cassette.to_owned(), || (options.http)())
        .map_err(|e| fail(e.into()))?;
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut model = model_for(
        &answers,
        Normaliser::new(dir, home.as_deref()),
        &options.rerecord,
    )
    .map_err(|e| fail(e.into()))?;
    let request = Request {
        messages: vec![
            Message::System {
                content: PROPOSER.to_owned(),
            },
            Message::User {
                content: user.to_owned(),
            },
        ],
        tools: Vec::new(),
    };
    let reply = model
        .complete(&request, &mut |_| {})
        .map_err(|e| fail(e.into()))?;
    model.finish(Stop::Answer).map_err(|e| fail(e.into()))?;
    Ok(reply.text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proposal_must_be_tagged_and_fit() {
        assert_eq!(
            read_proposal("Sure.\n<description> Do X. Use when Y. </description>", 100),
            Ok("Do X. Use when Y.".to_owned())
        );
        assert!(
            read_proposal("Do X.", 100)
                .unwrap_err()
                .contains("no <description>")
        );
        assert!(read_proposal("<description></description>", 100).is_err());
        assert!(
            read_proposal(
                "<description>Greets \u{7f} people \u{80}.</description>",
                100
            )
            .unwrap_err()
            .contains("control character")
        );
        let long = format!("<description>{}</description>", "é".repeat(11));
        assert_eq!(
            read_proposal(&long, 10),
            Err("11 characters, over the limit of 10".to_owned())
        );
    }

    #[test]
    fn the_description_is_replaced_with_its_continuation_lines() {
        let text = "---\nname: a\ndescription: >\n  old words\n  more\nlicense: MIT\n---\nbody\n";
        assert_eq!(
            replace_description(text, "New: \"quoted\"").unwrap(),
            "---\nname: a\ndescription: \"New: \\\"quoted\\\"\"\nlicense: MIT\n---\nbody\n"
        );
        assert_eq!(
            replace_description("---\n{description: x}\n---\n", "y"),
            None
        );
    }

    #[test]
    fn the_split_keeps_each_label_on_both_sides() {
        let queries: Vec<Query> = (0..10)
            .map(|i| Query {
                prompt: format!("q{i}"),
                should_trigger: i < 4,
                line: i,
            })
            .collect();
        let (train, validation) = split(&queries);
        let count =
            |side: &[Query], label: bool| side.iter().filter(|q| q.should_trigger == label).count();
        assert_eq!((count(&train, true), count(&validation, true)), (2, 2));
        assert_eq!((count(&train, false), count(&validation, false)), (4, 2));
        assert_eq!(
            split(&queries),
            (train, validation),
            "the same split every time"
        );
    }
}
