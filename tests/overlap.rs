//! `description-overlap` across skills: `skill lint --with` compares with a root it does not
//! lint, `skill doctor` names the pairs of an agent's install, and on the shared corpus (3,184
//! real skills) the number of pairs the chosen threshold flags is pinned, so a change of the
//! tokenizer or the threshold shows here (skipped, in one line, where the corpus is absent).

use crate::common;

use common::{json, run, skill, write_skill};

use skill_model::similarity::{OVERLAP_THRESHOLD, described, similar_pairs};

fn corpus_descriptions(dir: &std::path::Path) -> Vec<(String, String, String)> {
    skill_model::discover(&[dir.to_owned()])
        .unwrap()
        .into_iter()
        .filter_map(|location| {
            let dir = location.dir.display().to_string();
            let (name, description) = described(&skill_model::Skill::load(location))?;
            Some((name, description, dir))
        })
        .collect()
}

#[test]
fn corpus_pairs_at_the_threshold() {
    let Some(dir) = common::shared_corpus("corpus_pairs_at_the_threshold") else {
        return;
    };
    let skills = corpus_descriptions(&dir);
    let compared: Vec<(&str, &str)> = skills
        .iter()
        .map(|(n, d, _)| (n.as_str(), d.as_str()))
        .collect();
    if std::env::var_os("SKILL_OVERLAP_SAMPLE").is_some() {
        for threshold in [0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.9] {
            let pairs = similar_pairs(&compared, threshold);
            eprintln!("threshold {threshold}: {} pairs", pairs.len());
            for p in pairs.iter().filter(|p| p.score < threshold + 0.05).take(6) {
                eprintln!(
                    "  {:.2} {} | {}\n     A: {}\n     B: {}\n     shared: {}",
                    p.score,
                    skills[p.a].2,
                    skills[p.b].2,
                    skills[p.a].1,
                    skills[p.b].1,
                    p.shared.join(", ")
                );
            }
        }
    }
    let pairs = similar_pairs(&compared, OVERLAP_THRESHOLD);
    assert_eq!(pairs.len(), 170);
}

const FORMS: &str = "---\nname: pdf-forms\ndescription: Fill PDF forms and extract form fields from PDF files. Use when the user asks to fill a PDF form.\n---\n# PDF forms\n";
const FILLER: &str = "---\nname: pdf-filler\ndescription: Fill in PDF forms and extract the fields of PDF files. Use when the user wants a PDF form filled.\n---\n# PDF filler\n";

#[test]
fn lint_with_compares_against_a_root_it_does_not_lint() {
    let temp = tempfile::tempdir().unwrap();
    write_skill(&temp.path().join("mine"), "pdf-forms", FORMS);
    write_skill(&temp.path().join("installed"), "pdf-filler", FILLER);
    let lint = |extra: &[&str]| {
        run(skill()
            .current_dir(temp.path())
            .args([
                "lint",
                "mine",
                "--select",
                "description-overlap",
                "--format",
                "json",
            ])
            .args(extra))
    };
    let (code, stdout, _) = lint(&[]);
    assert_eq!(code, 0);
    assert_eq!(json(&stdout)["summary"]["warnings"], 0);
    let (code, stdout, _) = lint(&["--with", "installed"]);
    assert_eq!(code, 0, "a warning");
    let report = json(&stdout);
    assert_eq!(
        report["summary"]["skills"], 1,
        "the --with root is not linted"
    );
    let d = &report["skills"][0]["diagnostics"][0];
    assert_eq!(d["code"], "SK307");
    assert_eq!(
        d["message"],
        "the description of 'pdf-forms' is 83% alike to that of 'pdf-filler': a model choosing from the summary cannot tell them apart"
    );
    assert_eq!(d["line"], 3);
}

#[test]
fn doctor_names_the_pairs_of_an_install() {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().join("skills");
    write_skill(&root, "pdf-forms", FORMS);
    write_skill(&root, "pdf-filler", FILLER);
    let (code, stdout, _) = run(skill()
        .current_dir(temp.path())
        .env("HOME", temp.path())
        .args(["doctor", "skills", "--agent", "nanobot"]));
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.ends_with("  too alike to route: pdf-filler and pdf-forms (83%; shared terms: pdf, form, fill, extract, field, file); see `skill explain description-overlap`\n"),
        "{stdout}"
    );
    let (_, stdout, _) = run(skill()
        .current_dir(temp.path())
        .env("HOME", temp.path())
        .args(["doctor", "skills", "--agent", "nanobot", "--json"]));
    let overlaps = &json(&stdout)["agents"][0]["overlaps"];
    assert_eq!(overlaps[0]["a"], "pdf-filler");
    assert_eq!(overlaps[0]["b"], "pdf-forms");
}

/// Many skills in twos, so the comparison runs while some skills are already linted and others
/// are not: each skill gets its twin's finding after its own, and a folder's per-path ignore
/// turns off the findings across skills in it as it does any other.
#[test]
fn findings_across_skills_join_each_skill_and_obey_path_ignores() {
    let temp = tempfile::tempdir().unwrap();
    let skills = temp.path().join("skills");
    let pairs = 80;
    for k in 0..pairs {
        let words = format!("zorb{k}a quill{k}b marn{k}c");
        let loud = format!(
            "---\nname: loud-{k}\ndescription: Tally {words} ledgers for audits. Use when the user asks about {words}.\n---\n# Loud\n\nSee [the guide](references/missing.md).\n"
        );
        let quiet = format!(
            "---\nname: quiet-{k}\ndescription: Tally the {words} ledgers for audits. Use when someone asks about {words} ledgers.\n---\n# Quiet\n"
        );
        write_skill(&skills, &format!("loud-{k}"), loud);
        write_skill(&skills, &format!("quiet-{k}"), quiet);
    }
    std::fs::write(
        temp.path().join("skill.toml"),
        "[lint]\nenv-checks = false\n\n[lint.per-path-ignores]\n\"skills/quiet-*\" = [\"description-overlap\"]\n",
    )
    .unwrap();
    let (_, stdout, stderr) = run(skill()
        .current_dir(temp.path())
        .args(["lint", "skills", "--format", "json"]));
    let report = json(&stdout);
    let entries = report["skills"].as_array().expect(&stderr);
    assert_eq!(entries.len(), 2 * pairs);
    for entry in entries {
        let name = entry["name"].as_str().unwrap();
        let codes: Vec<&str> = entry["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap())
            .collect();
        let overlap = codes.iter().filter(|c| **c == "SK307").count();
        if let Some(k) = name.strip_prefix("loud-") {
            assert_eq!(overlap, 1, "{name}: {codes:?}");
            assert_eq!(codes.last(), Some(&"SK307"), "{name}: after its own");
            assert!(codes.len() > 1, "{name} keeps its own findings: {codes:?}");
            let last = entry["diagnostics"].as_array().unwrap().last().unwrap();
            let message = last["message"].as_str().unwrap();
            assert!(
                message.contains(&format!("'quiet-{k}'")),
                "{name} is paired with its twin: {message}"
            );
        } else {
            assert_eq!(overlap, 0, "{name} is under the ignored path: {codes:?}");
        }
    }
}
