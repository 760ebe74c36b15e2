//! Checking a run against a scenario's expectations. Every unmet expectation is reported, not
//! just the first.

use super::scenario::Expect;
use crate::message::Message;
use crate::{Stop, Transcript};
use regex::Regex;
use std::path::Path;

/// The unmet expectations (empty when all hold), or why the expectations themselves are wrong.
pub fn check(
    expect: &Expect,
    transcript: &Transcript,
    workspace: &Path,
    skill: &str,
) -> Result<Vec<String>, String> {
    let mut failures = run_failures(expect, transcript, skill);
    failures.extend(call_failures(expect, transcript)?);
    failures.extend(file_failures(expect, workspace)?);
    failures.extend(answer_failure(expect, transcript)?);
    Ok(failures)
}

/// How the run went against the stop, budgets and skill read the scenario expects.
fn run_failures(expect: &Expect, transcript: &Transcript, skill: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let wanted = expect.stop.unwrap_or(Stop::Answer);
    if transcript.stop != wanted {
        failures.push(stop_failure(transcript, wanted));
    }
    let tokens = transcript.usage.input + transcript.usage.output;
    if let Some(most) = expect.max_tokens
        && tokens > most
    {
        failures.push(format!(
            "the run used {tokens} tokens ({} in, {} out), more than max_tokens {most}",
            transcript.usage.input, transcript.usage.output
        ));
    }
    if let Some(most) = expect.max_turns_used
        && transcript.turns > most
    {
        failures.push(format!(
            "the run took {} turns, more than max_turns_used {most}",
            transcript.turns
        ));
    }
    if let Some(wanted) = expect.reads_skill {
        let read = transcript.skills_read.iter().any(|s| s == skill);
        match (wanted, read) {
            (true, false) => failures.push(format!("the model never read {skill}/SKILL.md")),
            (false, true) => failures.push(format!("the model read {skill}/SKILL.md")),
            _ => {}
        }
    }
    failures
}

/// The expected tool calls that no call of the run matches.
fn call_failures(expect: &Expect, transcript: &Transcript) -> Result<Vec<String>, String> {
    let calls: Vec<(&str, serde_json::Value)> = transcript
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::Assistant { tool_calls, .. } => Some(tool_calls),
            _ => None,
        })
        .flatten()
        .map(|c| {
            let args = serde_json::from_str(&c.arguments).unwrap_or(serde_json::Value::Null);
            (c.name.as_str(), args)
        })
        .collect();
    let mut failures = Vec::new();
    for (i, pattern) in expect.tool_calls.iter().enumerate() {
        let mut regexes = Vec::new();
        for (arg, re) in &pattern.args {
            regexes.push((arg, compile(re, &format!("tool_calls[{i}].args.{arg}"))?));
        }
        let matched = calls.iter().any(|(name, args)| {
            *name == pattern.name
                && regexes.iter().all(|(arg, re)| match &args[arg.as_str()] {
                    serde_json::Value::Null => false,
                    serde_json::Value::String(s) => re.is_match(s),
                    other => re.is_match(&other.to_string()),
                })
        });
        if !matched {
            let args: Vec<String> = pattern
                .args
                .iter()
                .map(|(k, v)| format!("{k} =~ /{v}/"))
                .collect();
            let with = if args.is_empty() {
                String::new()
            } else {
                format!(" with {}", args.join(", "))
            };
            failures.push(format!("no {} call{with}", pattern.name));
        }
    }
    Ok(failures)
}

/// The expected files the run did not create, or whose content does not match.
fn file_failures(expect: &Expect, workspace: &Path) -> Result<Vec<String>, String> {
    let mut failures = Vec::new();
    for (i, file) in expect.files.iter().enumerate() {
        let Ok(path) = crate::tools::resolve(workspace, &file.path) else {
            return Err(format!("files[{i}].path leaves the workspace"));
        };
        match std::fs::read_to_string(&path) {
            Err(_) => failures.push(format!("{} was not created", file.path)),
            Ok(content) => {
                if let Some(re) = &file.contains
                    && !compile(re, &format!("files[{i}].contains"))?.is_match(&content)
                {
                    failures.push(format!("{} does not match /{re}/", file.path));
                }
            }
        }
    }
    Ok(failures)
}

/// Why the final answer is not the one expected, if it is not.
fn answer_failure(expect: &Expect, transcript: &Transcript) -> Result<Option<String>, String> {
    let Some(re) = &expect.final_answer else {
        return Ok(None);
    };
    let regex = compile(re, "final_answer")?;
    Ok(match &transcript.final_answer {
        Some(answer) if regex.is_match(answer) => None,
        Some(answer) => Some(format!(
            "the final answer does not match /{re}/: {}",
            shorten(answer)
        )),
        None => Some("there is no final answer".to_owned()),
    })
}

/// Why the run's stop is not the one the scenario expects.
fn stop_failure(transcript: &Transcript, wanted: Stop) -> String {
    let why = match transcript.stop {
        Stop::MaxTurns => format!("no final answer within {} turns", transcript.turns),
        Stop::Length => "the final answer was cut off at the output token limit".to_owned(),
        Stop::Refusal => format!(
            "the model refused: {}",
            shorten(transcript.final_answer.as_deref().unwrap_or_default())
        ),
        Stop::ContentFilter => "the provider's content filter stopped the answer".to_owned(),
        Stop::BadToolCalls => "the model's tool calls could not be read, twice in a row".to_owned(),
        Stop::Answer => "the model answered".to_owned(),
        Stop::Routed => "the run stopped at the model's first skill read or action".to_owned(),
        Stop::Error => transcript
            .error
            .clone()
            .unwrap_or_else(|| "the run failed".to_owned()),
    };
    format!(
        "{why} (stop: {}, the scenario expects stop: {wanted})",
        transcript.stop
    )
}

fn compile(pattern: &str, field: &str) -> Result<Regex, String> {
    Regex::new(pattern).map_err(|e| format!("expect.{field} is not a valid regex: {e}"))
}

fn shorten(text: &str) -> String {
    let line = text.lines().next().unwrap_or("");
    let short: String = line.chars().take(120).collect();
    if short.len() < text.len() {
        format!("{short}…")
    } else {
        short
    }
}
