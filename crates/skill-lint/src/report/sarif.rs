//! `--format sarif`: SARIF 2.1.0, the format code-scanning services (GitHub, Azure DevOps)
//! ingest.
//!
//! Typed structs rather than `json!` trees: the log always carries the whole rule catalogue,
//! and building it as maps of owned values cost more than linting a small skill.

use super::positions;
use crate::LintRun;
use crate::diagnostic::Severity;
use crate::rulebook::{ALL, Rule};
use serde::Serialize;

/// Renders the run as one SARIF log.
pub fn render(run: &LintRun) -> String {
    let mut results = Vec::new();
    for report in &run.skills {
        for d in &report.diagnostics {
            let region = positions(report, d).map(|(start, end)| Region {
                start_line: start.line,
                start_column: start.column,
                end_line: end.line,
                end_column: end.column.max(if end.line == start.line {
                    start.column
                } else {
                    1
                }),
            });
            results.push(SarifResult {
                rule_id: d.rule.code,
                rule_index: ALL
                    .iter()
                    .position(|r| std::ptr::eq(*r, d.rule))
                    .unwrap_or(0),
                level: level(d.severity),
                message: Text { text: &d.message },
                locations: [Location {
                    physical_location: PhysicalLocation {
                        artifact_location: ArtifactLocation {
                            uri: uri(&d.file.display().to_string()),
                        },
                        region,
                    },
                }],
            });
        }
    }
    let log = Log {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: [SarifRun {
            tool: Tool {
                driver: Driver {
                    name: "skill",
                    version: env!("CARGO_PKG_VERSION"),
                    information_uri: "https://agentskills.io",
                    rules: ALL.iter().map(|r| RuleDescriptor::of(r)).collect(),
                },
            },
            results,
        }],
    };
    let mut out = serde_json::to_string_pretty(&log)
        .expect("a SARIF log is strings and numbers, which always serialise");
    out.push('\n');
    out
}

#[derive(Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [SarifRun<'a>; 1],
}

#[derive(Serialize)]
struct SarifRun<'a> {
    tool: Tool,
    results: Vec<SarifResult<'a>>,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    information_uri: &'static str,
    rules: Vec<RuleDescriptor>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RuleDescriptor {
    id: &'static str,
    name: &'static str,
    short_description: Text<'static>,
    full_description: Text<'static>,
    default_configuration: Configuration,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<Properties>,
}

/// SARIF property bag: the rule's tags, here its OWASP Agentic Skills Top 10 category.
#[derive(Serialize)]
struct Properties {
    tags: [String; 2],
}

impl RuleDescriptor {
    fn of(rule: &'static Rule) -> RuleDescriptor {
        RuleDescriptor {
            id: rule.code,
            name: rule.slug,
            short_description: Text { text: rule.summary },
            full_description: Text { text: rule.doc },
            default_configuration: Configuration {
                level: level(rule.severity),
            },
            properties: crate::rulebook::owasp(rule).map(|c| Properties {
                tags: ["security".to_owned(), format!("OWASP-{}: {}", c.id, c.name)],
            }),
        }
    }
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Text<'a> {
    text: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text<'a>,
    locations: [Location; 1],
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Location {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(Serialize)]
struct ArtifactLocation {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// A relative path as a URI reference: `/`-separated, spaces and `%` escaped.
fn uri(path: &str) -> String {
    path.replace('\\', "/")
        .replace('%', "%25")
        .replace(' ', "%20")
}
