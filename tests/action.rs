//! The GitHub Action (`action.yml`, whose work is `action/run.sh`), run here as a runner would run
//! its step: the inputs as the step's environment, `skill` on PATH, `GITHUB_OUTPUT` and
//! `GITHUB_STEP_SUMMARY` files. GitHub's runners are not here; what they would add is the install
//! step and the upload of the SARIF file, which the README's workflow does.

use crate::common;
use common::needs::{Need, lacks};

use common::{copy_tree, run};
use std::path::{Path, PathBuf};

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The action's inputs, and the variables its run step passes them in.
fn action() -> (Vec<String>, Vec<(String, String)>) {
    let text = std::fs::read_to_string(repo().join("action.yml")).unwrap();
    let action: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    let inputs = action["inputs"]
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    let steps = action["runs"]["steps"].as_array().unwrap();
    let run = steps.iter().find(|s| s["id"] == "run").expect("a run step");
    let env = run["env"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
        .collect();
    (inputs, env)
}

#[test]
fn every_input_reaches_the_script() {
    let (inputs, env) = action();
    assert!(inputs.len() >= 6, "{inputs:?}");
    for input in &inputs {
        let variable = format!("SKILL_ACTION_{}", input.to_uppercase().replace('-', "_"));
        let value = env.iter().find(|(k, _)| *k == variable).map(|(_, v)| v);
        assert_eq!(
            value.map(String::as_str),
            Some(format!("${{{{ inputs.{input} }}}}").as_str()),
            "{input}"
        );
        let script = std::fs::read_to_string(repo().join("action/run.sh")).unwrap();
        assert!(script.contains(&variable), "run.sh never reads {variable}");
    }
}

/// A workspace as the runner checks it out, with `skill` on PATH.
struct Runner {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    bin: PathBuf,
}

impl Runner {
    fn new() -> Runner {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("checkout");
        copy_tree(&repo().join("examples/skills"), &dir.join("skills"));
        // The shell's tools and skill, nothing a skill needs (pdftotext, docker), so which
        // findings there are does not depend on the machine.
        let bin = tmp.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_skill"), bin.join("skill")).unwrap();
        for tool in [
            "bash", "sh", "mv", "rm", "cat", "ls", "echo", "mkdir", "env", "grep",
        ] {
            if let Ok(found) = which::which(tool) {
                std::os::unix::fs::symlink(found, bin.join(tool)).unwrap();
            }
        }
        Runner {
            _tmp: tmp,
            dir,
            bin,
        }
    }

    /// Runs the step with these inputs (by their names in action.yml); its exit code, stdout,
    /// stderr, and what it wrote to GITHUB_OUTPUT and GITHUB_STEP_SUMMARY.
    fn step(&self, inputs: &[(&str, &str)]) -> (i32, String, String, String, String) {
        let output = self.dir.join("../github-output");
        let summary = self.dir.join("../step-summary");
        let _ = std::fs::remove_file(&output);
        let _ = std::fs::remove_file(&summary);
        let path = self.bin.display().to_string();
        let mut cmd = assert_cmd::Command::new(which::which("bash").unwrap());
        cmd.arg(repo().join("action/run.sh"))
            .current_dir(&self.dir)
            .env("PATH", path)
            .env("HOME", self.dir.join("../home"))
            .env("SKILL_CACHE_DIR", self.dir.join("../cache"))
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_ACTION_PATH", repo())
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_STEP_SUMMARY", &summary);
        for var in ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "SKILL_RECORD"] {
            cmd.env_remove(var);
        }
        for (name, value) in inputs {
            let variable = format!("SKILL_ACTION_{}", name.to_uppercase().replace('-', "_"));
            cmd.env(variable, value);
        }
        let (code, stdout, stderr) = run(&mut cmd);
        let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
        (code, stdout, stderr, read(&output), read(&summary))
    }
}

/// The SARIF schema `.ci/run` unpacks (the same one `tests/formats.rs` uses).
fn sarif_validator() -> jsonschema::Validator {
    let path = repo().join("target/test-deps/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run .ci/run first", path.display()));
    // The published schema's `language` pattern has a stray `]` that regex checkers reject.
    let text = text.replace(
        r#"^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$"#,
        r#"^[a-zA-Z]{2}(-[a-zA-Z]{2})?$"#,
    );
    let schema: serde_json::Value = serde_json::from_str(&text).unwrap();
    jsonschema::validator_for(&schema).unwrap()
}

#[test]
fn the_step_annotates_writes_valid_sarif_and_fails_at_the_chosen_level() {
    if lacks(&[Need::SarifSchema]) {
        return;
    }
    let runner = Runner::new();
    // The examples have warnings here (pdf-tools' commands are not installed), no errors.
    let (code, stdout, stderr, output, summary) = runner.step(&[("paths", "skills")]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("::warning file=skills/pdf-tools/SKILL.md,line=8"),
        "{stdout}"
    );
    assert_eq!(output, "sarif=skill-lint.sarif\n");
    assert!(summary.contains("skill lint: passed"), "{summary}");
    let sarif: serde_json::Value =
        serde_json::from_slice(&std::fs::read(runner.dir.join("skill-lint.sarif")).unwrap())
            .unwrap();
    let errors: Vec<String> = sarif_validator()
        .iter_errors(&sarif)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert!(!sarif["runs"][0]["results"].as_array().unwrap().is_empty());

    let (code, ..) = runner.step(&[("paths", "skills"), ("fail-level", "warning")]);
    assert_eq!(code, 1);
    // A broken skill fails the step, unless the fail level is never; the SARIF is still written.
    common::write_skill(
        &runner.dir.join("skills"),
        "broken",
        "---\nname: [broken\n---\n",
    );
    let (code, stdout, ..) = runner.step(&[("paths", "skills"), ("sarif", "out.sarif")]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("::error file=skills/broken/SKILL.md"),
        "{stdout}"
    );
    assert!(runner.dir.join("out.sarif").is_file());
    let (code, ..) = runner.step(&[("paths", "skills"), ("fail-level", "never")]);
    assert_eq!(code, 0);
    // Paths on lines of their own, as a YAML block scalar gives them.
    let (code, stdout, ..) = runner.step(&[("paths", "skills/pdf-tools\nskills/broken\n")]);
    assert_eq!(code, 1);
    assert!(
        stdout.contains("skills/broken/SKILL.md") && stdout.contains("skills/pdf-tools/SKILL.md"),
        "{stdout}"
    );
}

#[test]
fn a_lint_that_cannot_run_fails_the_step_even_at_fail_level_never() {
    let runner = Runner::new();
    std::fs::remove_file(runner.bin.join("skill")).unwrap();
    let (code, ..) = runner.step(&[("paths", "skills"), ("fail-level", "never")]);
    assert_eq!(code, 127);
    assert!(!runner.dir.join("skill-lint.sarif").exists());
}

#[test]
fn the_step_replays_scenarios_and_trigger_evals_when_asked() {
    let runner = Runner::new();
    let deploy = runner.dir.join("skills/docker-deploy");
    let (code, _, stderr) = run(common::skill()
        .args(["eval", "--init"])
        .arg(&deploy)
        .env("SKILL_CACHE_DIR", runner.dir.join("../cache")));
    assert_eq!(code, 0, "{stderr}");
    let inputs = [
        ("paths", "skills/docker-deploy"),
        ("test", "true"),
        ("eval", "true"),
    ];
    let (code, stdout, stderr, _, summary) = runner.step(&inputs);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(summary.contains("skill test: passed"), "{summary}");
    assert!(summary.contains("skill eval: passed"), "{summary}");
    for report in ["skill-test.xml", "skill-eval.xml"] {
        let xml = std::fs::read_to_string(runner.dir.join(report)).unwrap();
        assert!(xml.contains("<testsuite"), "{report}: {xml}");
    }
    // A skill without a trigger set cannot be evaluated: the step fails and says so.
    let inputs = [("paths", "skills/pdf-tools"), ("eval", "true")];
    let (code, _, stderr, _, summary) = runner.step(&inputs);
    assert_eq!(code, 1);
    assert!(stderr.contains("no evals/triggers.yaml"), "{stderr}");
    assert!(summary.contains("skill eval: failed (exit 2)"), "{summary}");
}

#[test]
fn bad_inputs_are_usage_errors() {
    let runner = Runner::new();
    let (code, stdout, ..) = runner.step(&[("fail-level", "sometimes")]);
    assert_eq!(code, 2);
    assert!(
        stdout.contains("::error::fail-level must be error, warning or never, not 'sometimes'"),
        "{stdout}"
    );
    let (code, stdout, ..) = runner.step(&[("test", "yes")]);
    assert_eq!(code, 2);
    assert!(
        stdout.contains("test and eval take true or false, not 'yes'"),
        "{stdout}"
    );
}
