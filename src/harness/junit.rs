//! JUnit XML for CI systems: one testsuite per run, one testcase per scenario.

use super::{Outcome, Report};

/// The JUnit XML document of `reports`.
pub fn render(reports: &[Report]) -> String {
    let failures = reports
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Failed(_)))
        .count();
    let errors = reports
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Error(_)))
        .count();
    let total: f64 = reports.iter().map(|r| r.elapsed.as_secs_f64()).sum();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuites name=\"skill test\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{total:.3}\">\n",
        reports.len()
    ));
    xml.push_str(&format!(
        "  <testsuite name=\"skill test\" tests=\"{}\" failures=\"{failures}\" errors=\"{errors}\" time=\"{total:.3}\">\n",
        reports.len()
    ));
    for report in reports {
        let open = format!(
            "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\" time=\"{:.3}\"",
            escape(&report.skill),
            escape(&report.scenario),
            escape(&report.file.display().to_string()),
            report.elapsed.as_secs_f64()
        );
        match &report.outcome {
            Outcome::Passed => xml.push_str(&format!("{open}/>\n")),
            Outcome::Failed(reasons) => xml.push_str(&format!(
                "{open}>\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                escape(reasons.first().map_or("", String::as_str)),
                escape(&reasons.join("\n"))
            )),
            Outcome::Error(message) => xml.push_str(&format!(
                "{open}>\n      <error message=\"{}\">{}</error>\n    </testcase>\n",
                escape(message.lines().next().unwrap_or("")),
                escape(message)
            )),
        }
    }
    xml.push_str("  </testsuite>\n</testsuites>\n");
    xml
}

/// XML text and attribute escaping; control characters XML cannot carry are dropped.
fn escape(text: &str) -> String {
    text.chars()
        .filter(|c| !c.is_control() || matches!(c, '\n' | '\t'))
        .collect::<String>()
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
