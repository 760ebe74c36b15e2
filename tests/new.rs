//! `skill new` and the builtin skills: every template, with and without options, gives a skill
//! that lints without errors; nothing is ever overwritten; builtins pass `lint --strict`.

use crate::common;

use common::{json, run, skill, snapshots};
use std::path::Path;

fn new(dir: &Path, args: &[&str]) -> (i32, String, String) {
    run(skill()
        .current_dir(dir)
        .env("SKILL_CACHE_DIR", dir.join(".cache"))
        .arg("new")
        .args(args))
}

fn lint_errors(dir: &Path, skill_dir: &str) -> Vec<String> {
    let (_, stdout, _) = run(skill().current_dir(dir).args([
        "lint",
        skill_dir,
        "--format",
        "json",
        "--no-env-checks",
    ]));
    json(&stdout)["skills"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| {
            d["severity"] == "error"
                || (d["severity"] == "warning" && d["slug"] != "todo-placeholder")
        })
        .map(|d| format!("{} {}", d["slug"], d["message"]))
        .collect()
}

#[test]
fn every_template_lints_clean_with_and_without_options() {
    let option_sets: [&[&str]; 2] = [
        &[],
        &[
            "--description",
            "Deploys things. Use when the user asks to deploy.",
            "--bins",
            "docker,jq",
            "--env",
            "DEPLOY_TOKEN",
            "--resources",
            "scripts,references,assets",
            "--license",
            "MIT",
        ],
    ];
    for template in ["basic", "cli-tool", "scripted"] {
        for (i, options) in option_sets.iter().enumerate() {
            let tmp = tempfile::tempdir().unwrap();
            let name = format!("my-{template}");
            let (code, stdout, stderr) = new(
                tmp.path(),
                &[[name.as_str(), "--template", template].as_slice(), options].concat(),
            );
            assert_eq!(code, 0, "{template} {i}: {stdout}{stderr}");
            let problems = lint_errors(tmp.path(), &name);
            assert!(
                problems.is_empty(),
                "{template} with options {i}: {problems:#?}"
            );
        }
    }
}

#[test]
fn templates_render_as_expected() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = new(
        tmp.path(),
        &[
            "Docker Deploy",
            "--template",
            "cli-tool",
            "--bins",
            "docker",
        ],
    );
    assert_eq!(code, 0);
    assert_eq!(
        stderr,
        "note: normalised the name from 'Docker Deploy' to 'docker-deploy'\n"
    );
    assert!(
        stdout.starts_with("Created ./docker-deploy\n  SKILL.md\n"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(tmp.path().join("docker-deploy/SKILL.md")).unwrap();
    snapshots().bind(|| insta::assert_snapshot!("new-cli-tool-docker", text));
    let (code, _, _) = new(tmp.path(), &["report", "--template", "scripted"]);
    assert_eq!(code, 0);
    let script = tmp.path().join("report/scripts/run.sh");
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&script).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o755);
    assert!(
        std::fs::read_to_string(script)
            .unwrap()
            .starts_with("#!/bin/sh\n")
    );
}

#[test]
fn never_overwrites_and_refuses_bad_names() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("taken")).unwrap();
    std::fs::write(tmp.path().join("taken/keep.txt"), "mine").unwrap();
    let (code, _, stderr) = new(tmp.path(), &["taken"]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: ./taken already exists; skill new never overwrites (choose another name or --dir)\n"
    );
    assert_eq!(
        std::fs::read_to_string(tmp.path().join("taken/keep.txt")).unwrap(),
        "mine"
    );
    let (code, _, stderr) = new(tmp.path(), &["!!!"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be a skill name"), "{stderr}");
    let (code, _, stderr) = new(tmp.path(), &["x", "--template", "nope"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("invalid value 'nope' for '--template <TEMPLATE>'")
            && stderr.contains("[possible values: basic, cli-tool, scripted]"),
        "{stderr}"
    );
    let (code, _, stderr) = new(tmp.path(), &["x", "--resources", "bin"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown resource folder 'bin'"), "{stderr}");
    let leftovers: Vec<_> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, ["taken"], "nothing half-written is left behind");
}

#[test]
fn list_templates_and_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, stdout, _) = new(tmp.path(), &["--list-templates"]);
    assert_eq!(code, 0);
    snapshots().bind(|| insta::assert_snapshot!("new-list-templates", stdout));
    let (code, _, _) = new(tmp.path(), &["nested", "--dir", "a/b"]);
    assert_eq!(code, 0);
    assert!(tmp.path().join("a/b/nested/SKILL.md").is_file());
}

#[test]
fn from_a_builtin() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, _) = new(tmp.path(), &["my-github", "--from", "github"]);
    assert_eq!(code, 0);
    let text = std::fs::read_to_string(tmp.path().join("my-github/SKILL.md")).unwrap();
    assert!(
        text.contains("\nname: my-github\n") && text.contains("gh pr list"),
        "{text}"
    );
    assert!(lint_errors(tmp.path(), "my-github").is_empty());
    let (code, _, stderr) = new(tmp.path(), &["x", "--from", "nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown builtin skill 'nope'"));
}

#[test]
fn builtins_list_show_and_pass_strict_lint() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, stdout, _) = run(skill().args(["builtin", "list"]));
    assert_eq!(code, 0);
    snapshots().bind(|| insta::assert_snapshot!("builtin-list", stdout));
    let (code, stdout, _) = run(skill().args(["builtin", "show", "safe-shell"]));
    assert_eq!(code, 0);
    assert!(stdout.starts_with("---\nname: safe-shell\n") && stdout.contains("always: true"));
    let (code, _, stderr) = run(skill().args(["builtin", "show", "nope"]));
    assert_eq!((code, stderr.as_str()), (2, "error: no such skill: nope\n"));
    let builtins = Path::new(env!("CARGO_MANIFEST_DIR")).join("builtin-skills");
    let (code, stdout, _) = run(skill()
        .current_dir(tmp.path())
        .args(["lint", "--strict", "--no-env-checks"])
        .arg(&builtins));
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(
        stdout,
        "No problems found in 6 skills.\nLinted each skill for the agent it declares: openclaw 6 (--target chooses one for all).\n"
    );
}

#[test]
fn new_help_lists_every_template_with_its_line() {
    let (code, stdout, _) = run(skill().args(["new", "--help"]));
    assert_eq!(code, 0);
    for template in skill::scaffold::TEMPLATES {
        assert!(
            stdout.contains(&format!("- {}:", template.name)) && stdout.contains(template.summary),
            "{}: {stdout}",
            template.name
        );
    }
}
