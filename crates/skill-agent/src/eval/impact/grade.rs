//! Grading: each expectation PASS or FAIL with evidence. An expectation that names a checkable
//! fact (a file exists, is valid JSON, contains a string; the answer contains a string) is
//! checked by code; the rest go to a model grader with a fixed rubric, whose PASS counts only
//! when its evidence quotes the output.

use super::outputs::{OutputFile, Outputs};
use regex::Regex;
use std::sync::LazyLock;

/// One graded expectation, as `grading.json` holds it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Graded {
    /// The expectation.
    pub text: String,
    /// Whether it holds.
    pub passed: bool,
    /// What shows it.
    pub evidence: String,
    /// Who decided: `code` or `model`.
    pub by: GradedBy,
}

skill_model::choices! {
    /// Who graded an expectation.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum GradedBy {
        Code = "code": "A check by code, for an expectation that names a checkable fact.",
        Model = "model": "The model grader, with the fixed rubric; a PASS must quote the output.",
    }
}

/// A fact code can check.
#[derive(Debug, Clone, PartialEq)]
enum Fact {
    Exists(String),
    ValidJson(String),
    FileContains(String, String, bool),
    AnswerContains(String, bool),
    OutputContains(String, bool),
    /// A command run in the workspace after the run: it must succeed and, when given, print
    /// the text.
    Command(String, Option<String>),
}

/// Runs a command in the run's workspace (confined like the run's own), returning whether it
/// exited 0 and what it printed.
pub type Runner<'a> = &'a dyn Fn(&str) -> (bool, String);

const LITERAL: &str = r#"[`"](?P<lit>[^`"]+)[`"]"#;
/// A command is always in backticks.
const COMMAND: &str = r"`(?P<cmd>[^`]+)`";

/// A sentence form, and the fact its captures name.
type Form = (Regex, fn(&regex::Captures) -> Fact);

/// The forms an expectation takes when code can check it, each a whole sentence.
static FORMS: LazyLock<Vec<Form>> = LazyLock::new(|| {
    let file = r#"(?:the (?:output )?file |a file (?:named |called )?|the file (?:named |called )?)?[`"](?P<path>[^`"]+)[`"]"#;
    // "Writes a file `F`": a bare literal after "writes" is more often what the answer says.
    let named_file = r#"(?:a |the )?(?:output )?file (?:named |called )?[`"](?P<path>[^`"]+)[`"]"#;
    let answer = r"the (?:answer|response|reply|final answer)";
    let output = r"the outputs?";
    let form = |pattern: String| Regex::new(&format!(r"(?i)^\s*{pattern}\s*\.?\s*$")).unwrap();
    vec![
        (
            form(format!(
                r"{file} (?:exists|is (?:created|written|produced|saved))"
            )),
            |c| Fact::Exists(c["path"].to_owned()),
        ),
        (
            form(format!(
                r"(?:the (?:run|agent) )?(?:creates|writes|produces|saves) {named_file}"
            )),
            |c| Fact::Exists(c["path"].to_owned()),
        ),
        (form(format!(r"{file} is valid json")), |c| {
            Fact::ValidJson(c["path"].to_owned())
        }),
        (
            form(format!(r"{file} (?:contains|includes|mentions) {LITERAL}")),
            |c| Fact::FileContains(c["path"].to_owned(), c["lit"].to_owned(), true),
        ),
        (
            form(format!(
                r"{file} does not (?:contain|include|mention) {LITERAL}"
            )),
            |c| Fact::FileContains(c["path"].to_owned(), c["lit"].to_owned(), false),
        ),
        (
            form(format!(
                r"{answer} (?:contains|includes|mentions|says) {LITERAL}"
            )),
            |c| Fact::AnswerContains(c["lit"].to_owned(), true),
        ),
        (
            form(format!(
                r"{answer} does not (?:contain|include|mention|say) {LITERAL}"
            )),
            |c| Fact::AnswerContains(c["lit"].to_owned(), false),
        ),
        (
            form(format!(
                r"{output} (?:contains?|includes?|mentions?|says?) {LITERAL}"
            )),
            |c| Fact::OutputContains(c["lit"].to_owned(), true),
        ),
        (
            form(format!(
                r"{output} (?:does|do) not (?:contain|include|mention|say) {LITERAL}"
            )),
            |c| Fact::OutputContains(c["lit"].to_owned(), false),
        ),
        (
            form(format!(
                r"(?:running )?{COMMAND} (?:exits 0|exits with 0|succeeds)"
            )),
            |c| Fact::Command(c["cmd"].to_owned(), None),
        ),
        (
            form(format!(
                r"(?:running )?{COMMAND} (?:prints|outputs) {LITERAL}"
            )),
            |c| Fact::Command(c["cmd"].to_owned(), Some(c["lit"].to_owned())),
        ),
        (
            form(format!(
                r"the output of {COMMAND} (?:contains|includes|mentions) {LITERAL}"
            )),
            |c| Fact::Command(c["cmd"].to_owned(), Some(c["lit"].to_owned())),
        ),
    ]
});

fn fact_of(expectation: &str) -> Option<Fact> {
    FORMS
        .iter()
        .find_map(|(regex, make)| regex.captures(expectation).map(|captures| make(&captures)))
}

/// Grades `expectation` by code, when it names a checkable fact; `run` runs its command.
pub(crate) fn grade_by_code(expectation: &str, outputs: &Outputs, run: Runner) -> Option<Graded> {
    let (passed, evidence) = match fact_of(expectation)? {
        Fact::Exists(path) => match find(outputs, &path) {
            Some(file) => (
                true,
                format!(
                    "found `{}` ({} bytes) among the outputs",
                    file.path,
                    file.bytes.len()
                ),
            ),
            None => (false, missing(outputs, &path)),
        },
        Fact::ValidJson(path) => match find(outputs, &path) {
            Some(file) => json_check(file),
            None => (false, missing(outputs, &path)),
        },
        Fact::FileContains(path, text, want) => match find(outputs, &path) {
            Some(file) => contains_check(
                &[(format!("`{}`", file.path), file.text().unwrap_or(""))],
                &text,
                want,
            ),
            None => (false, missing(outputs, &path)),
        },
        Fact::AnswerContains(text, want) => contains_check(
            &[("the answer".to_owned(), outputs.answer.as_str())],
            &text,
            want,
        ),
        Fact::OutputContains(text, want) => contains_check(&outputs.texts(), &text, want),
        Fact::Command(command, text) => command_check(run, &command, text.as_deref()),
    };
    Some(Graded {
        text: expectation.to_owned(),
        passed,
        evidence,
        by: GradedBy::Code,
    })
}

fn command_check(run: Runner, command: &str, text: Option<&str>) -> (bool, String) {
    let (succeeded, printed) = run(command);
    // The exec tool's word for silence is not something the command printed.
    let printed = if printed == crate::tools::NO_OUTPUT {
        String::new()
    } else {
        printed
    };
    let shown: String = printed.chars().take(300).collect();
    match (succeeded, text) {
        (false, _) => (false, format!("`{command}` failed: {shown}")),
        (true, None) => (true, format!("`{command}` exited 0")),
        (true, Some(text)) => match locate(&printed, &text.to_lowercase()) {
            Some(excerpt) => (true, format!("`{command}` printed \"{excerpt}\"")),
            None => (false, format!("`{command}` printed no \"{text}\": {shown}")),
        },
    }
}

fn find<'a>(outputs: &'a Outputs, name: &str) -> Option<&'a OutputFile> {
    outputs.files.iter().find(|f| f.named(name))
}

fn missing(outputs: &Outputs, name: &str) -> String {
    if outputs.files.is_empty() {
        return format!("no file `{name}`: the run produced no files");
    }
    let names: Vec<&str> = outputs.files.iter().map(|f| f.path.as_str()).collect();
    format!("no file `{name}` among the outputs ({})", names.join(", "))
}

fn json_check(file: &OutputFile) -> (bool, String) {
    if file.cut() {
        return (
            false,
            format!(
                "`{}` has {} bytes, more than the {} kept of an output: not checked",
                file.path,
                file.size,
                super::outputs::MAX_FILE_BYTES
            ),
        );
    }
    match serde_json::from_slice::<serde_json::Value>(&file.bytes) {
        Ok(value) => {
            let kind = match &value {
                serde_json::Value::Object(map) => format!("an object of {} keys", map.len()),
                serde_json::Value::Array(items) => format!("an array of {} items", items.len()),
                _ => "a scalar".to_owned(),
            };
            (true, format!("`{}` is valid JSON ({kind})", file.path))
        }
        Err(e) => (false, format!("`{}` is not valid JSON: {e}", file.path)),
    }
}

fn contains_check(texts: &[(String, &str)], needle: &str, want: bool) -> (bool, String) {
    let lower = needle.to_lowercase();
    let hit = texts
        .iter()
        .find_map(|(name, text)| locate(text, &lower).map(|at| (name, at)));
    match (hit, want) {
        (Some((name, excerpt)), true) => (true, format!("{name} has \"{excerpt}\"")),
        (Some((name, excerpt)), false) => (false, format!("{name} has \"{excerpt}\"")),
        (None, true) => (false, format!("no output has \"{needle}\"")),
        (None, false) => (true, format!("no output has \"{needle}\"")),
    }
}

/// The words around the first case-insensitive occurrence of `lower` in `text`.
fn locate(text: &str, lower: &str) -> Option<String> {
    let haystack = text.to_lowercase();
    // Lower-casing can change byte lengths; fall back to the matched text alone.
    let at = haystack.find(lower)?;
    if haystack.len() != text.len() {
        return Some(haystack[at..at + lower.len()].to_owned());
    }
    let start = text.floor_char_boundary(at.saturating_sub(30));
    let end = text.ceil_char_boundary((at + lower.len() + 30).min(text.len()));
    Some(
        text[start..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// The grader's fixed rubric: its system prompt.
pub(crate) const RUBRIC: &str = "You grade the outputs of an AI agent against expectations. For each expectation, decide PASS or FAIL from the outputs alone.\n\
Rules:\n\
- Require concrete evidence for a PASS; give no benefit of the doubt. A section with the right title but without the substance is a FAIL.\n\
- The evidence of a PASS must quote the output word for word, in double quotes.\n\
- The evidence of a FAIL says what is missing or wrong.\n\
- Judge only what the outputs show, not what the agent says it did.\n\
Answer with JSON only, in this shape, one entry per expectation and in their order:\n\
{\"expectations\": [{\"text\": \"<the expectation>\", \"passed\": true, \"evidence\": \"<quote or reason>\"}]}";

/// The user message a grader gets for `expectations` of a run.
pub(crate) fn grader_request(
    task: &str,
    expected_output: &str,
    expectations: &[&str],
    outputs: &Outputs,
) -> String {
    let mut message = format!("# Task the agent was given\n\n{task}\n");
    if !expected_output.trim().is_empty() {
        message.push_str(&format!(
            "\n# What success looks like\n\n{expected_output}\n"
        ));
    }
    message.push_str("\n# Expectations\n\n");
    for (index, expectation) in expectations.iter().enumerate() {
        message.push_str(&format!("{}. {expectation}\n", index + 1));
    }
    message.push_str("\n# Outputs\n\n");
    message.push_str(&outputs.shown());
    message
}

#[derive(serde::Deserialize)]
struct Verdicts {
    expectations: Vec<Verdict>,
}

#[derive(serde::Deserialize)]
struct Verdict {
    #[serde(default)]
    text: Option<String>,
    passed: bool,
    #[serde(default)]
    evidence: String,
}

/// The grades `reply` gives `expectations`. A reply that cannot be read fails every one (and
/// says so); verdicts that name their expectation are matched by it, others by order; a PASS
/// whose evidence does not quote the outputs is a FAIL.
pub(crate) fn read_verdicts(reply: &str, expectations: &[&str], outputs: &Outputs) -> Vec<Graded> {
    let parsed = crate::message::json_in_reply::<Verdicts>(reply).map(|v| v.expectations);
    let by_text = parsed
        .as_ref()
        .is_ok_and(|v| v.iter().all(|verdict| verdict.text.is_some()));
    expectations
        .iter()
        .enumerate()
        .map(|(index, text)| {
            let verdict = match &parsed {
                Err(why) => Err(format!("the grader's reply could not be read: {why}")),
                Ok(verdicts) if by_text => verdicts
                    .iter()
                    .find(|v| v.text.as_deref().map(squash) == Some(squash(text)))
                    .ok_or_else(|| "the grader gave no verdict for this expectation".to_owned()),
                Ok(verdicts) if verdicts.len() == expectations.len() => Ok(&verdicts[index]),
                Ok(verdicts) => Err(format!(
                    "the grader's reply could not be read: {} verdicts for {} expectations",
                    verdicts.len(),
                    expectations.len()
                )),
            };
            let (passed, evidence) = match verdict {
                Ok(verdict) => accept(verdict, outputs),
                Err(why) => (false, why),
            };
            Graded {
                text: (*text).to_owned(),
                passed,
                evidence,
                by: GradedBy::Model,
            }
        })
        .collect()
}

/// A quote counts as evidence with at least this many words, or [`MIN_QUOTE_CHARS`] letters
/// and digits: a space, a dot or one short word quotes nothing.
const MIN_QUOTE_WORDS: usize = 2;
/// See [`MIN_QUOTE_WORDS`].
const MIN_QUOTE_CHARS: usize = 6;

fn accept(verdict: &Verdict, outputs: &Outputs) -> (bool, String) {
    if !verdict.passed {
        return (false, verdict.evidence.clone());
    }
    let texts: Vec<String> = outputs
        .texts()
        .iter()
        .map(|(_, text)| squash(text))
        .collect();
    let quotes: Vec<String> = quotes(&verdict.evidence)
        .iter()
        .map(|q| squash(q))
        .filter(|q| !q.is_empty())
        .collect();
    let reject = |why: String| {
        (
            false,
            format!(
                "not accepted: the grader said PASS but {why} ({})",
                verdict.evidence
            ),
        )
    };
    if let Some(missing) = quotes
        .iter()
        .find(|q| !texts.iter().any(|t| t.contains(*q)))
    {
        return reject(format!("\"{missing}\" is not in the outputs"));
    }
    let substantial = quotes.iter().any(|q| {
        q.split(' ').count() >= MIN_QUOTE_WORDS
            || q.chars().filter(|c| c.is_alphanumeric()).count() >= MIN_QUOTE_CHARS
    });
    if !substantial {
        return reject("its evidence quotes nothing of the outputs".to_owned());
    }
    (true, verdict.evidence.clone())
}

/// The passages between double quotes (straight or curly) in `evidence`.
fn quotes(evidence: &str) -> Vec<String> {
    static QUOTED: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#""([^"]+)"|“([^”]+)”"#).unwrap());
    QUOTED
        .captures_iter(evidence)
        .filter_map(|c| c.get(1).or_else(|| c.get(2)))
        .map(|m| m.as_str().to_owned())
        .collect()
}

/// Lower case with whitespace runs as one space: a quote may rewrap lines.
fn squash(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A run's grading, as `grading.json` holds it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Grading {
    /// Each expectation, in the eval's order.
    pub expectations: Vec<Graded>,
    /// The counts.
    pub summary: GradingSummary,
}

/// The counts of a grading.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct GradingSummary {
    /// Expectations that hold.
    pub passed: usize,
    /// Expectations that do not.
    pub failed: usize,
    /// All of them.
    pub total: usize,
    /// `passed / total` (`null` without expectations).
    pub pass_rate: Option<f64>,
}

impl Grading {
    /// The grading of `expectations`, counted.
    pub fn of(expectations: Vec<Graded>) -> Grading {
        let passed = expectations.iter().filter(|g| g.passed).count();
        let total = expectations.len();
        Grading {
            summary: GradingSummary {
                passed,
                failed: total - passed,
                total,
                pass_rate: (total > 0).then(|| passed as f64 / total as f64),
            },
            expectations,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outputs(answer: &str) -> Outputs {
        Outputs {
            answer: answer.to_owned(),
            ..Outputs::default()
        }
    }

    fn verdicts(reply: &str, expectations: &[&str], answer: &str) -> Vec<(bool, String)> {
        read_verdicts(reply, expectations, &outputs(answer))
            .into_iter()
            .map(|g| (g.passed, g.evidence))
            .collect()
    }

    #[test]
    fn a_pass_must_quote_the_outputs_with_substance() {
        let answer = "Hello there, the total is 42 euros.";
        let pass = |evidence: &str| {
            let reply =
                serde_json::json!({"expectations": [{"passed": true, "evidence": evidence}]});
            verdicts(&reply.to_string(), &["e"], answer)[0].0
        };
        assert!(pass("It says \"the total is 42\""));
        assert!(pass("It says “Hello there”"));
        assert!(!pass("It says \"   \""), "whitespace quotes nothing");
        assert!(!pass("It says \"the\""), "one short word quotes nothing");
        assert!(
            !pass("It says \"the total\" and \"Bonjour\""),
            "every quote must be there"
        );
        assert!(!pass("looks right"), "no quote at all");
    }

    #[test]
    fn verdicts_that_name_their_expectation_are_matched_by_it() {
        let reply = serde_json::json!({"expectations": [
            {"text": "B", "passed": false, "evidence": "no B"},
            {"text": "A", "passed": true, "evidence": "\"the total is 42\""}]});
        let got = verdicts(&reply.to_string(), &["A", "B"], "the total is 42");
        assert!(got[0].0);
        assert_eq!(got[1], (false, "no B".to_owned()));
        let missing = verdicts(&reply.to_string(), &["A", "C"], "the total is 42");
        assert_eq!(
            missing[1].1,
            "the grader gave no verdict for this expectation"
        );
        let unread = verdicts("no json", &["A"], "x");
        assert!(
            unread[0]
                .1
                .starts_with("the grader's reply could not be read")
        );
    }
}

#[cfg(test)]
mod forms {
    use super::*;

    #[test]
    fn each_form_names_what_it_checks() {
        assert_eq!(
            fact_of("The file `a.json` exists"),
            Some(Fact::Exists("a.json".into()))
        );
        assert_eq!(
            fact_of("The agent writes a file \"r.md\""),
            Some(Fact::Exists("r.md".into()))
        );
        assert_eq!(
            fact_of("The agent writes \"Done\""),
            None,
            "words of the answer, for the grader"
        );
        assert_eq!(
            fact_of("The answer does not mention `password`"),
            Some(Fact::AnswerContains("password".into(), false))
        );
        assert_eq!(
            fact_of("The output contains `42`"),
            Some(Fact::OutputContains("42".into(), true))
        );
        assert_eq!(
            fact_of("`make test` exits 0"),
            Some(Fact::Command("make test".into(), None))
        );
        let outputs = Outputs {
            answer: "Done.".into(),
            files: vec![OutputFile {
                path: "notes.txt".into(),
                bytes: b"password: x".to_vec(),
                size: 11,
            }],
            left_out: 0,
        };
        let silent = |_: &str| (true, crate::tools::NO_OUTPUT.to_owned());
        let graded = |e: &str| grade_by_code(e, &outputs, &silent).unwrap().passed;
        assert!(
            graded("The answer does not mention `password`"),
            "a file is not the answer"
        );
        assert!(
            !graded("The output does not mention `password`"),
            "the outputs include files"
        );
        assert!(!graded("`true` prints `(no output)`"));
    }
}
