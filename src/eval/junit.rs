//! JUnit XML of an eval: one testsuite per skill, one testcase per query. A query fails when
//! its skill missed a threshold and some of its runs went the wrong way (so the failures are
//! the queries that cost the threshold, and a passing eval has none).

use super::{EvalReport, QueryReport};

/// The JUnit XML document of `report`.
pub fn render(report: &EvalReport) -> String {
    let failed = |skill: &super::SkillReport, query: &QueryReport| {
        let (right, decided) = query.right(&skill.skill);
        !skill.passed && right < decided
    };
    let tests: usize = report.skills.iter().map(|s| s.queries.len()).sum();
    let failures: usize = report
        .skills
        .iter()
        .map(|s| s.queries.iter().filter(|q| failed(s, q)).count())
        .sum();
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.push_str(&format!(
        "<testsuites name=\"skill eval\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">\n"
    ));
    for skill in &report.skills {
        let failures = skill.queries.iter().filter(|q| failed(skill, q)).count();
        xml.push_str(&format!(
            "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\">\n",
            escape(&skill.skill),
            skill.queries.len()
        ));
        for query in &skill.queries {
            let open = format!(
                "    <testcase classname=\"{}\" name=\"{}\" file=\"{}\" line=\"{}\"",
                escape(&skill.skill),
                escape(&query.prompt),
                escape(&skill.file.display().to_string()),
                query.line
            );
            if failed(skill, query) {
                let (right, decided) = query.right(&skill.skill);
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
                let message = format!(
                    "{want}: {right} of {decided} runs right (read: {})",
                    reads.join(", ")
                );
                xml.push_str(&format!(
                    "{open}>\n      <failure message=\"{}\">{}</failure>\n    </testcase>\n",
                    escape(&message),
                    escape(&skill.failures.join("\n"))
                ));
            } else {
                xml.push_str(&format!("{open}/>\n"));
            }
        }
        xml.push_str("  </testsuite>\n");
    }
    xml.push_str("</testsuites>\n");
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
