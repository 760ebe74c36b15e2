//! Agreement with the Agent Skills reference validator (skills-ref 0.1.1, `agentskills
//! validate`): the same validity, and the same messages in the same order among the diagnostics
//! of the rules skills-ref also has. The cases below are this project's own and stand in the
//! repository; a second test checks each expectation against the real validator that `.ci/run`
//! installs, and a third runs the team's cases in `../shared/conformance` where they exist.

use crate::common;
use common::needs::{Need, lacks};

use common::{copy_tree, json, run, skill};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Slugs of the rules that mirror a skills-ref check (the others are ours alone).
const SPEC_SLUGS: &[&str] = &[
    "missing-skill-md",
    "missing-frontmatter",
    "unclosed-frontmatter",
    "invalid-yaml",
    "frontmatter-not-mapping",
    "unknown-key",
    "name-missing",
    "name-not-string",
    "name-too-long",
    "name-not-lowercase",
    "name-hyphen-edge",
    "name-consecutive-hyphens",
    "name-invalid-chars",
    "name-dir-mismatch",
    "description-missing",
    "description-empty",
    "description-too-long",
    "compatibility-type",
    "compatibility-too-long",
];

/// skills-ref's list of allowed keys, as its unknown-key message prints it.
const ALLOWED: &str = "Only ['allowed-tools', 'compatibility', 'description', 'license', 'metadata', 'name'] are allowed.";

const DESC: &str = "Converts CSV exports into charts. Use when the user shares a CSV file.";

/// One case: the skill folder's name, its SKILL.md (`None`: the folder has only a notes file)
/// and the exact messages skills-ref gives, in its order (none: valid).
struct Case {
    id: &'static str,
    dir: String,
    skill_md: Option<String>,
    errors: Vec<String>,
}

fn case(id: &'static str, dir: &str, skill_md: Option<String>, errors: &[&str]) -> Case {
    Case {
        id,
        dir: dir.to_owned(),
        skill_md,
        errors: errors.iter().map(|e| (*e).to_owned()).collect(),
    }
}

/// A SKILL.md with the given frontmatter lines and a short body.
fn md(frontmatter: &str) -> Option<String> {
    Some(format!(
        "---\n{frontmatter}\n---\n\n# Charts\n\nRun the converter.\n"
    ))
}

/// A SKILL.md named `name` with the standard description and `extra` frontmatter lines.
fn named(name: &str, extra: &str) -> Option<String> {
    md(&format!("name: {name}\ndescription: {DESC}{extra}"))
}

fn cases() -> Vec<Case> {
    let long_name = "c".repeat(65);
    let max_name = "c".repeat(64);
    vec![
        case("valid-minimal", "csv-charts", named("csv-charts", ""), &[]),
        case(
            "valid-every-field",
            "csv-charts",
            named(
                "csv-charts",
                "\nlicense: Apache-2.0\ncompatibility: Needs Python 3.12 and matplotlib\nmetadata:\n  owner: data-team\n  revision: \"7\"\nallowed-tools: Bash(python3:*) Read Write",
            ),
            &[],
        ),
        case(
            "missing-skill-md",
            "csv-charts",
            None,
            &["Missing required file: SKILL.md"],
        ),
        case(
            "no-frontmatter",
            "csv-charts",
            Some("# Charts\n\nname: csv-charts\n".to_owned()),
            &["SKILL.md must start with YAML frontmatter (---)"],
        ),
        case(
            "unclosed-frontmatter",
            "csv-charts",
            Some(format!(
                "---\nname: csv-charts\ndescription: {DESC}\n\n# Charts\n"
            )),
            &["SKILL.md frontmatter not properly closed with ---"],
        ),
        case(
            "frontmatter-a-list",
            "csv-charts",
            md("- name\n- description"),
            &["SKILL.md frontmatter must be a YAML mapping"],
        ),
        case(
            "frontmatter-a-string",
            "csv-charts",
            md("just some words"),
            &["SKILL.md frontmatter must be a YAML mapping"],
        ),
        case(
            "missing-name",
            "csv-charts",
            md(&format!("description: {DESC}")),
            &["Missing required field in frontmatter: name"],
        ),
        case(
            "missing-description",
            "csv-charts",
            md("name: csv-charts"),
            &["Missing required field in frontmatter: description"],
        ),
        case(
            "empty-description",
            "csv-charts",
            md("name: csv-charts\ndescription: ''"),
            &["Field 'description' must be a non-empty string"],
        ),
        case(
            "name-65",
            &long_name,
            named(&long_name, ""),
            &[&format!(
                "Skill name '{long_name}' exceeds 64 character limit (65 chars)"
            )],
        ),
        case("name-64", &max_name, named(&max_name, ""), &[]),
        case(
            "name-mixed-case",
            "CsvCharts",
            named("CsvCharts", ""),
            &["Skill name 'CsvCharts' must be lowercase"],
        ),
        case(
            "name-leading-hyphen",
            "-csv-charts",
            named("\"-csv-charts\"", ""),
            &["Skill name cannot start or end with a hyphen"],
        ),
        case(
            "name-trailing-hyphen",
            "csv-charts-",
            named("csv-charts-", ""),
            &["Skill name cannot start or end with a hyphen"],
        ),
        case(
            "name-double-hyphen",
            "csv--charts",
            named("csv--charts", ""),
            &["Skill name cannot contain consecutive hyphens"],
        ),
        case(
            "name-underscore",
            "csv_charts",
            named("csv_charts", ""),
            &[
                "Skill name 'csv_charts' contains invalid characters. Only letters, digits, and hyphens are allowed.",
            ],
        ),
        case(
            "name-dot",
            "csv.charts",
            named("csv.charts", ""),
            &[
                "Skill name 'csv.charts' contains invalid characters. Only letters, digits, and hyphens are allowed.",
            ],
        ),
        case(
            "dir-mismatch",
            "charts",
            named("csv-charts", ""),
            &["Directory name 'charts' must match skill name 'csv-charts'"],
        ),
        case(
            "one-unknown-key",
            "csv-charts",
            named("csv-charts", "\nhomepage: https://example.org"),
            &[&format!(
                "Unexpected fields in frontmatter: homepage. {ALLOWED}"
            )],
        ),
        case(
            "unknown-keys-sorted",
            "csv-charts",
            named("csv-charts", "\ntags: csv\nauthor: data-team"),
            &[&format!(
                "Unexpected fields in frontmatter: author, tags. {ALLOWED}"
            )],
        ),
        case(
            "description-1024",
            "csv-charts",
            named("csv-charts", "").map(|s| s.replace(DESC, &"d".repeat(1024))),
            &[],
        ),
        case(
            "description-1025",
            "csv-charts",
            named("csv-charts", "").map(|s| s.replace(DESC, &"d".repeat(1025))),
            &["Description exceeds 1024 character limit (1025 chars)"],
        ),
        case(
            "compatibility-500",
            "csv-charts",
            named(
                "csv-charts",
                &format!("\ncompatibility: {}", "p".repeat(500)),
            ),
            &[],
        ),
        case(
            "compatibility-501",
            "csv-charts",
            named(
                "csv-charts",
                &format!("\ncompatibility: {}", "p".repeat(501)),
            ),
            &["Compatibility exceeds 500 character limit (501 chars)"],
        ),
        case("name-chinese", "图表", named("图表", ""), &[]),
        case("name-cyrillic-lower", "графики", named("графики", ""), &[]),
        case(
            "name-cyrillic-upper",
            "ГРАФИКИ",
            named("ГРАФИКИ", ""),
            &["Skill name 'ГРАФИКИ' must be lowercase"],
        ),
        // The folder is NFD (e + combining acute), the name NFC: equal after NFKC.
        case(
            "name-nfkc",
            "re\u{301}sume\u{301}",
            named("r\u{e9}sum\u{e9}", ""),
            &[],
        ),
        case(
            "many-errors",
            "Charts_Dir",
            md(&format!(
                "name: Csv_Charts--\ndescription: {}\nowner: me",
                "e".repeat(1040)
            )),
            &[
                &format!("Unexpected fields in frontmatter: owner. {ALLOWED}"),
                "Skill name 'Csv_Charts--' must be lowercase",
                "Skill name cannot start or end with a hyphen",
                "Skill name cannot contain consecutive hyphens",
                "Skill name 'Csv_Charts--' contains invalid characters. Only letters, digits, and hyphens are allowed.",
                "Directory name 'Charts_Dir' must match skill name 'Csv_Charts--'",
                "Description exceeds 1024 character limit (1040 chars)",
            ],
        ),
    ]
}

/// Writes the case's skill folder into `parent` and returns it.
fn write_case(case: &Case, parent: &Path) -> PathBuf {
    let dir = parent.join(&case.dir);
    std::fs::create_dir_all(&dir).unwrap();
    match &case.skill_md {
        Some(text) => std::fs::write(dir.join("SKILL.md"), text).unwrap(),
        None => std::fs::write(dir.join("notes.txt"), "no manifest here\n").unwrap(),
    }
    dir
}

/// Lints `skill_dir` (relative to `cwd`) for the agentskills target and returns
/// (exit code, valid, the messages of the rules skills-ref also has).
fn lint(cwd: &Path, skill_dir: &str) -> (i32, bool, Vec<String>) {
    let (code, stdout, stderr) = run(skill().current_dir(cwd).args([
        "lint",
        "--target",
        "agentskills",
        "--format",
        "json",
        "--",
        skill_dir,
    ]));
    let report = json(&stdout);
    let skills = report["skills"].as_array().unwrap();
    assert_eq!(skills.len(), 1, "{skill_dir}: {stdout}{stderr}");
    let valid = skills[0]["valid"].as_bool().unwrap();
    let messages = skills[0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| SPEC_SLUGS.contains(&d["slug"].as_str().unwrap()))
        .map(|d| d["message"].as_str().unwrap().to_owned())
        .collect();
    (code, valid, messages)
}

/// One line describing a disagreement, or `None` when lint agrees with `errors`.
fn disagreement(id: &str, cwd: &Path, skill_dir: &str, errors: &[String]) -> Option<String> {
    let (code, valid, messages) = lint(cwd, skill_dir);
    let expected_valid = errors.is_empty();
    let expected_code = if expected_valid { 0 } else { 1 };
    (valid != expected_valid || messages != errors || code != expected_code).then(|| {
        format!(
            "{id}: valid {valid} (expected {expected_valid}), exit {code}\n  got:      {messages:?}\n  expected: {errors:?}"
        )
    })
}

fn assert_no_failures(failures: &[String], total: usize) {
    assert!(
        failures.is_empty(),
        "{} of {total} cases disagree:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn agrees_with_skills_ref_on_every_case() {
    if lacks(&[Need::SkillsRef]) {
        return;
    }
    let cases = cases();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let tmp = tempfile::tempdir().unwrap();
            write_case(case, tmp.path());
            disagreement(case.id, tmp.path(), &case.dir, &case.errors)
        })
        .collect();
    assert_no_failures(&failures, cases.len());
}

fn agentskills() -> PathBuf {
    std::env::var_os("SKILLS_REF_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-deps/venv/bin/agentskills")
        })
}

/// The messages `agentskills validate` prints for `dir`, in order (none when it is valid).
fn reference_errors(bin: &Path, dir: &Path) -> Vec<String> {
    let out = Command::new(bin).arg("validate").arg(dir).output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    let errors: Vec<String> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  - "))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        out.status.success(),
        errors.is_empty(),
        "{}: {text}",
        dir.display()
    );
    errors
}

#[test]
fn every_expectation_is_what_skills_ref_says() {
    if lacks(&[Need::SkillsRef]) {
        return;
    }
    let bin = agentskills();
    assert!(
        bin.is_file(),
        "{} is missing: run .ci/run, which installs skills-ref==0.1.1 there",
        bin.display()
    );
    let cases = cases();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let tmp = tempfile::tempdir().unwrap();
            let dir = write_case(case, tmp.path());
            let actual = reference_errors(&bin, &dir);
            (actual != case.errors).then(|| {
                format!(
                    "{}:\n  skills-ref: {actual:?}\n  case:       {:?}",
                    case.id, case.errors
                )
            })
        })
        .collect();
    assert_no_failures(&failures, cases.len());
}

/// The team's conformance cases (`<case>/<skill_dir>/` and `expected.json`), where present.
#[test]
fn agrees_with_skills_ref_on_the_shared_cases() {
    if lacks(&[Need::SkillsRef]) {
        return;
    }
    let shared = std::env::var_os("SKILL_SHARED_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared"));
    let cases_dir = shared.join("conformance/agentskills");
    if !cases_dir.is_dir() {
        eprintln!(
            "SKIPPED agrees_with_skills_ref_on_the_shared_cases: needs ../shared/conformance, absent at {}",
            cases_dir.display()
        );
        return;
    }
    let mut cases: Vec<_> = std::fs::read_dir(&cases_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|case| {
            let expected = json(&std::fs::read_to_string(case.join("expected.json")).unwrap());
            let errors: Vec<String> = expected["errors"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap().to_owned())
                .collect();
            let tmp = tempfile::tempdir().unwrap();
            copy_tree(case, tmp.path());
            let id = case.file_name().unwrap().to_string_lossy().into_owned();
            disagreement(
                &id,
                tmp.path(),
                expected["skill_dir"].as_str().unwrap(),
                &errors,
            )
        })
        .collect();
    assert_no_failures(&failures, cases.len());
}
