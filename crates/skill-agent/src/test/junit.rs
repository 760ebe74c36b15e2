//! JUnit XML for CI systems: one testsuite per run, one testcase per scenario.

use super::{Outcome, Report};
use crate::junit::{Case, SerializeError, Verdict};

/// The JUnit XML document of `reports`.
pub fn render(reports: &[Report]) -> Result<String, SerializeError> {
    let cases = reports.iter().map(case).collect();
    crate::junit::render("skill test", [("skill test", cases)])
}

/// The testcase of one scenario's report.
fn case(report: &Report) -> Case<'_> {
    let verdict = match &report.outcome {
        Outcome::Passed => Verdict::Passed,
        Outcome::Failed(reasons) => Verdict::Failure {
            message: reasons.first().cloned().unwrap_or_default(),
            text: reasons.join("\n"),
        },
        Outcome::Error(message) => Verdict::Error {
            message: message.lines().next().unwrap_or("").to_owned(),
            text: message.clone(),
        },
    };
    Case {
        classname: &report.skill,
        name: &report.scenario,
        file: report.file.display().to_string(),
        line: None,
        time: Some(report.elapsed),
        verdict,
    }
}
