//! Real third-party skills are linted: no crash, one entry per skill folder, a concise line per
//! diagnostic, and a snapshot of how many diagnostics each rule gives, so any change of
//! behaviour shows up in review. Two corpora: the skills that `.ci/run` fetches by package name
//! (always), and the big `../shared/corpus` (skipped, saying so, where it is absent).

use crate::common;
use common::needs::{Need, lacks};

use common::{json, package_corpus, run, shared_corpus, skill, snapshots};
use std::collections::BTreeMap;
use std::path::Path;

/// Counts folders holding a `SKILL.md` or `skill.md`, the way a reader of the corpus would.
fn count_skill_folders(dir: &Path) -> usize {
    let mut count = 0;
    let mut has_manifest = false;
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name();
        if entry.file_type().unwrap().is_dir() {
            count += count_skill_folders(&entry.path());
        } else if name == "SKILL.md" || name == "skill.md" {
            has_manifest = true;
        }
    }
    count + usize::from(has_manifest)
}

/// Lints `corpus` as JSON, expects exit `code` (1 when it has errors) and snapshots the
/// diagnostics per slug and the totals under `name`.
fn lint_and_snapshot(corpus: &Path, expected_code: i32, name: &str) {
    let (code, stdout, stderr) = run(skill()
        .args(["lint", "--format", "json", "--no-env-checks"])
        .arg(corpus));
    assert_eq!(code, expected_code, "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let report = json(&stdout);
    let skills = report["skills"].as_array().unwrap();
    assert_eq!(skills.len(), count_skill_folders(corpus));
    assert_eq!(
        report["summary"]["skills"].as_u64().unwrap() as usize,
        skills.len()
    );

    let mut per_slug: BTreeMap<String, usize> = BTreeMap::new();
    let mut invalid = 0;
    for s in skills {
        let diagnostics = s["diagnostics"].as_array().unwrap();
        let has_error = diagnostics.iter().any(|d| d["severity"] == "error");
        assert_eq!(s["valid"].as_bool().unwrap(), !has_error, "{s}");
        invalid += usize::from(has_error);
        for d in diagnostics {
            *per_slug
                .entry(d["slug"].as_str().unwrap().to_owned())
                .or_default() += 1;
        }
    }
    snapshots().bind(|| {
        insta::assert_json_snapshot!(format!("{name}-diagnostics-per-slug"), per_slug);
        insta::assert_snapshot!(
            format!("{name}-totals"),
            format!(
                "skills: {}\ninvalid: {invalid}\nsummary: {}",
                skills.len(),
                report["summary"]
            )
        );
    });
}

/// Lints `corpus` for the agentskills target in the concise format: every line is one
/// `path:line:col: CODE [severity] message` (or `path: CODE ...` for a whole folder), and at
/// least one skill is refused, as the reference validator refuses many real skills.
fn lint_agentskills_concise(corpus: &Path) {
    let (code, stdout, stderr) = run(skill()
        .args([
            "lint",
            "--target",
            "agentskills",
            "--format",
            "concise",
            "--no-env-checks",
        ])
        .arg(corpus));
    assert_eq!(code, 1, "stderr: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let line =
        regex::Regex::new(r"^\S.*?(:\d+:\d+)?: SK\d{3} \[(error|warning|info)\] \S").unwrap();
    let mut errors = 0;
    for l in stdout.lines() {
        assert!(line.is_match(l), "not a concise diagnostic: {l}");
        errors += usize::from(l.contains(" [error] "));
    }
    assert!(errors > 0, "no errors in:\n{stdout}");
}

#[test]
fn lints_the_package_corpus() {
    if lacks(&[Need::PackageCorpus]) {
        return;
    }
    // The packages' own skills pass in the portable target: warnings and infos only.
    lint_and_snapshot(&package_corpus(), 0, "package-corpus");
}

#[test]
fn agentskills_target_on_the_package_corpus() {
    if lacks(&[Need::PackageCorpus]) {
        return;
    }
    lint_agentskills_concise(&package_corpus());
}

#[test]
fn lints_the_whole_shared_corpus() {
    let Some(corpus) = shared_corpus("lints_the_whole_shared_corpus") else {
        return;
    };
    lint_and_snapshot(&corpus, 1, "corpus");
}

#[test]
fn agentskills_target_on_the_shared_corpus() {
    let Some(corpus) = shared_corpus("agentskills_target_on_the_shared_corpus") else {
        return;
    };
    lint_agentskills_concise(&corpus);
}

/// Where a finding is and what it is about: (skill, code, file, line, subject). The subject (the
/// first name a message quotes, `'nix'` of "declared bin 'nix' ...") tells apart two findings of
/// one rule on one line, so a label is not carried by a finding it was not given.
type Key = (String, String, String, Option<u64>, String);

/// The first `'...'`-quoted name of a finding's message, or nothing.
fn subject(message: &str) -> String {
    message
        .split('\'')
        .nth(1)
        .filter(|_| message.matches('\'').count() >= 2)
        .unwrap_or_default()
        .to_owned()
}

/// One labelled finding of `tests/precision/*.jsonl`: where it is and what a reader said of it.
struct Label {
    key: Key,
    code: String,
    split: String,
    label: String,
}

fn read_labels(path: &Path) -> Vec<Label> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let s = |k: &str| v[k].as_str().unwrap_or_default().to_owned();
            Label {
                key: (
                    s("skill"),
                    s("code"),
                    s("file"),
                    v["line"].as_u64(),
                    subject(&s("message")),
                ),
                code: s("code"),
                split: s("split"),
                label: s("label"),
            }
        })
        .collect()
}

/// Precision measured for one split: per rule (labelled findings still reported, of them right),
/// weighted by how often each rule fires now; and the share of right findings still reported.
struct Measured {
    per_rule: BTreeMap<String, (usize, usize)>,
    weighted: f64,
    retention: f64,
}

fn measure(
    labels: &[Label],
    reported: &std::collections::HashSet<Key>,
    fired: &BTreeMap<String, usize>,
    split: Option<&str>,
) -> Measured {
    let mut per_rule: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut right, mut kept) = (0, 0);
    for l in labels.iter().filter(|l| split.is_none_or(|s| l.split == s)) {
        if l.label == "artifact" {
            continue;
        }
        let shown = reported.contains(&l.key);
        if l.label == "right" {
            right += 1;
            kept += usize::from(shown);
        }
        if shown {
            let entry = per_rule.entry(l.code.clone()).or_default();
            entry.0 += 1;
            entry.1 += usize::from(l.label == "right");
        }
    }
    let (mut weight, mut sum) = (0.0, 0.0);
    for (code, (n, ok)) in &per_rule {
        let w = *fired.get(code).unwrap_or(&0) as f64;
        weight += w;
        sum += w * (*ok as f64 / *n as f64);
    }
    Measured {
        per_rule,
        weighted: if weight > 0.0 { sum / weight } else { 1.0 },
        retention: if right > 0 {
            kept as f64 / right as f64
        } else {
            1.0
        },
    }
}

/// Lints `corpus` as a user does (no target: each skill's own agent), matches the findings with
/// the labels of `labels` by (skill, code, file, line, subject), writes the table to
/// `target/precision-NAME.md`, and holds the figures to `tests/precision/floors.json`'s
/// entry `name`: weighted precision per split, the share of right findings still reported, and
/// each rule with enough labels.
fn check_precision(corpus: &Path, labels: &Path, name: &str) {
    let (code, stdout, stderr) = run(skill()
        .args(["lint", "--format", "json", "--no-env-checks"])
        .arg(corpus));
    assert!(matches!(code, 0 | 1), "exit {code}: {stderr}");
    let report = json(&stdout);
    let rel = |p: &str| {
        Path::new(p)
            .strip_prefix(corpus)
            .map(|r| r.display().to_string())
            .unwrap_or_else(|_| p.to_owned())
    };
    let mut reported = std::collections::HashSet::new();
    let mut fired: BTreeMap<String, usize> = BTreeMap::new();
    for s in report["skills"].as_array().unwrap() {
        let skill = rel(s["path"].as_str().unwrap());
        for d in s["diagnostics"].as_array().unwrap() {
            let code = d["code"].as_str().unwrap().to_owned();
            *fired.entry(code.clone()).or_default() += 1;
            reported.insert((
                skill.clone(),
                code,
                rel(d["file"].as_str().unwrap()),
                d["line"].as_u64(),
                subject(d["message"].as_str().unwrap_or_default()),
            ));
        }
    }
    let labels = read_labels(labels);
    let all = measure(&labels, &reported, &fired, None);
    let dev = measure(&labels, &reported, &fired, Some("dev"));
    let held = measure(&labels, &reported, &fired, Some("held-out"));

    let mut table = format!(
        "| split | weighted precision | right findings still reported |\n|---|---:|---:|\n| dev | {:.1}% | {:.1}% |\n| held-out | {:.1}% | {:.1}% |\n| all | {:.1}% | {:.1}% |\n\n| rule | fires | labelled, reported | right | precision |\n|---|---:|---:|---:|---:|\n",
        dev.weighted * 100.0,
        dev.retention * 100.0,
        held.weighted * 100.0,
        held.retention * 100.0,
        all.weighted * 100.0,
        all.retention * 100.0
    );
    let mut by_fired: Vec<(&String, &usize)> = fired.iter().collect();
    by_fired.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (code, n) in by_fired {
        let (labelled, right) = all.per_rule.get(code).copied().unwrap_or((0, 0));
        let precision = if labelled > 0 {
            format!("{:.0}%", right as f64 * 100.0 / labelled as f64)
        } else {
            "unlabelled".to_owned()
        };
        table.push_str(&format!(
            "| {code} | {n} | {labelled} | {right} | {precision} |\n"
        ));
    }
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("target/precision-{name}.md"));
    std::fs::write(&out, &table).unwrap();
    println!("{table}");

    let floors: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/precision/floors.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let floors = &floors[name];
    let floor = |k: &str| floors[k].as_f64().unwrap();
    let mut failures = Vec::new();
    for (split, m) in [("dev", &dev), ("held-out", &held)] {
        if m.weighted < floor(&format!("{split}-precision")) {
            failures.push(format!("{split}: weighted precision {:.3}", m.weighted));
        }
        if m.retention < floor("retention") {
            failures.push(format!(
                "{split}: right findings still reported {:.3}",
                m.retention
            ));
        }
    }
    let min_labelled = floors["min-labelled"].as_u64().unwrap() as usize;
    for (code, (labelled, right)) in &all.per_rule {
        let p = *right as f64 / *labelled as f64;
        if *labelled >= min_labelled
            && let Some(f) = floors["rules"][code].as_f64()
            && p < f
        {
            failures.push(format!("{code}: precision {p:.2} under its floor {f:.2}"));
        }
    }
    assert!(failures.is_empty(), "{}\n{table}", failures.join("\n"));
}

#[test]
fn precision_on_the_shared_corpus() {
    let Some(corpus) = shared_corpus("precision_on_the_shared_corpus") else {
        return;
    };
    let labels = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/precision/labels.jsonl");
    check_precision(&corpus, &labels, "corpus");
}

#[test]
fn precision_on_the_package_corpus() {
    if lacks(&[Need::PackageCorpus]) {
        return;
    }
    let labels = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/precision/package-labels.jsonl");
    check_precision(&package_corpus(), &labels, "package");
}
