//! Blind A/B comparison (`--blind`): a judge sees the outputs of a with-skill run and of the
//! baseline run of the same number as "A" and "B", in an order it cannot guess from the eval,
//! and says which is better on its own rubric. It complements expectation grading: two outputs
//! may pass every expectation and still differ in quality.

use super::Config;
use super::outputs::Outputs;
use sha2::{Digest, Sha256};

/// The judge's fixed rubric: its system prompt.
pub(crate) const RUBRIC: &str = "You compare two outputs of an AI agent for the same task. You are not told how either was made.\n\
Judge the whole result: correctness, completeness, organisation, formatting and how usable it is for the person who asked. Length is not quality.\n\
Answer with JSON only: {\"winner\": \"A\" | \"B\" | \"tie\", \"reason\": \"<one or two sentences, quoting the outputs>\"}";

/// One comparison.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Comparison {
    /// The runs compared (the same number in both configurations).
    pub run: u32,
    /// The configuration shown as "A".
    pub shown_first: Config,
    /// The better configuration, `None` for a tie or a reply that could not be read.
    pub winner: Option<Config>,
    /// The judge's reason, or why its reply could not be read.
    pub reason: String,
}

/// Whether the skill's output is shown first for `eval_id`'s run `run`: a hash, so the order
/// changes between evals and runs, is the same on every replay, and tells the judge nothing.
pub(crate) fn skill_first(eval_id: &str, run: u32) -> bool {
    let digest = Sha256::digest(format!("{eval_id}\n{run}").as_bytes());
    digest[0] & 1 == 0
}

/// The judge's user message.
pub fn request(task: &str, expected_output: &str, a: &Outputs, b: &Outputs) -> String {
    let mut message = format!("# Task\n\n{task}\n");
    if !expected_output.trim().is_empty() {
        message.push_str(&format!(
            "\n# What success looks like\n\n{expected_output}\n"
        ));
    }
    message.push_str(&format!(
        "\n# Output A\n\n{}\n# Output B\n\n{}",
        a.shown(),
        b.shown()
    ));
    message
}

#[derive(serde::Deserialize)]
struct Verdict {
    winner: String,
    #[serde(default)]
    reason: String,
}

/// The comparison `reply` makes, `first` and `second` being the configurations shown as A and B.
pub fn read(reply: &str, run: u32, first: Config, second: Config) -> Comparison {
    let parsed = crate::message::json_in_reply::<Verdict>(reply);
    let (winner, reason) = match parsed {
        Ok(verdict) => match verdict.winner.trim().to_ascii_uppercase().as_str() {
            "A" => (Some(first), verdict.reason),
            "B" => (Some(second), verdict.reason),
            "TIE" => (None, verdict.reason),
            other => (None, format!("the judge named no output ({other:?})")),
        },
        Err(why) => (None, format!("the judge's reply could not be read: {why}")),
    };
    Comparison {
        run,
        shown_first: first,
        winner,
        reason,
    }
}

/// Wins of each side and ties over `comparisons`.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Tally {
    /// The skill's output judged better.
    pub with_skill: usize,
    /// The baseline's output judged better.
    pub baseline: usize,
    /// Neither (ties and unreadable replies).
    pub ties: usize,
}

impl Tally {
    /// The tally of `comparisons`.
    pub fn of<'a>(comparisons: impl IntoIterator<Item = &'a Comparison>) -> Tally {
        let mut tally = Tally::default();
        for comparison in comparisons {
            match comparison.winner {
                Some(Config::WithSkill) => tally.with_skill += 1,
                Some(_) => tally.baseline += 1,
                None => tally.ties += 1,
            }
        }
        tally
    }
}
