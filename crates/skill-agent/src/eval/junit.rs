//! JUnit XML of an eval: one testsuite per skill, one testcase per query. A query fails when
//! its skill missed a threshold and some of its runs went the wrong way (so the failures are
//! the queries that cost the threshold, and a passing eval has none).

use super::{EvalReport, QueryReport, SkillReport};
use crate::junit::{Case, SerializeError, Verdict};

/// The JUnit XML document of `report`.
pub fn render(report: &EvalReport) -> Result<String, SerializeError> {
    let suites = report.skills.iter().map(|skill| {
        let cases = skill.queries.iter().map(|q| case(skill, q)).collect();
        (skill.skill.as_str(), cases)
    });
    crate::junit::render("skill eval", suites)
}

/// The testcase of one query.
fn case<'a>(skill: &'a SkillReport, query: &'a QueryReport) -> Case<'a> {
    let (right, decided) = query.right(&skill.skill);
    let verdict = if !skill.passed && right < decided {
        let reads: Vec<&str> = query
            .runs
            .iter()
            .map(|r| r.read.as_deref().unwrap_or("none"))
            .collect();
        let want = if query.should_trigger {
            "should trigger"
        } else {
            "should not trigger"
        };
        Verdict::Failure {
            message: format!(
                "{want}: {right} of {decided} runs right (read: {})",
                reads.join(", ")
            ),
            text: skill.failures.join("\n"),
        }
    } else {
        Verdict::Passed
    };
    Case {
        classname: &skill.skill,
        name: &query.prompt,
        file: skill.file.display().to_string(),
        line: Some(query.line),
        time: None,
        verdict,
    }
}
