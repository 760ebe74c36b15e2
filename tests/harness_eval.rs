//! `skill eval --harness`: the trigger eval through the real agent CLIs (installed by
//! `.ci/run` from npm into `target/test-deps/agents`), each recorded through skill's model
//! proxy against a scripted model on loopback, then replayed with nothing listening upstream.

mod common;

use common::agent_server::AgentServer;
use common::{run, skill};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The folder of the agent CLIs, put first on PATH.
fn agents_bin() -> PathBuf {
    common::agent_cli("claude").parent().unwrap().to_owned()
}

/// A skill with a trigger set: two queries that should pick it, two that should not.
fn pdf_skill(root: &Path) -> PathBuf {
    let dir = common::write_skill(
        root,
        "pdf-tools",
        "---\nname: pdf-tools\ndescription: Fill in, merge and split PDF files. Use when a PDF is named.\n---\n# PDF tools\n\nRun `qpdf` for merges.\n",
    );
    std::fs::create_dir_all(dir.join("evals")).unwrap();
    std::fs::write(
        dir.join("evals/triggers.yaml"),
        "runs: 1\nmin_recall: 1.0\nmax_false_rate: 0.0\nqueries:\n  - prompt: Merge the two PDF files in this folder\n    should_trigger: true\n  - prompt: Fill in the form in invoice.pdf\n    should_trigger: true\n  - prompt: What is the capital of France?\n    should_trigger: false\n  - prompt: Rename every .txt file to .md\n    should_trigger: false\n",
    )
    .unwrap();
    dir
}

/// The variable that points the proxy at the provider of `harness`, and its value for `url`.
fn upstream(harness: &str, url: &str) -> (&'static str, String) {
    match harness {
        "claude-code" => ("ANTHROPIC_BASE_URL", url.to_owned()),
        "gemini" => ("GOOGLE_GEMINI_BASE_URL", url.to_owned()),
        _ => ("OPENAI_BASE_URL", format!("{url}/v1")),
    }
}

/// `skill eval SKILL --harness H --json` with `mode`, the provider at `url`.
fn eval(
    harness: &str,
    skill_dir: &Path,
    home: &Path,
    mode: &str,
    url: &str,
) -> (i32, String, String) {
    let path = format!(
        "{}:{}",
        agents_bin().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (var, value) = upstream(harness, url);
    let mut cmd = skill();
    cmd.env("PATH", path)
        .env("HOME", home)
        .env("SKILL_CACHE_DIR", home.join(".cache/skill"))
        .env(var, value)
        .args(["eval", "--harness", harness, "--mode", mode, "--json"])
        .arg(skill_dir);
    run(&mut cmd)
}

/// Each query's picks, in order: the skill read or `-`.
fn picks(report: &Value) -> Vec<String> {
    report["harnesses"][0]["skills"][0]["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q["runs"][0]["read"].as_str().unwrap_or("-").to_owned())
        .collect()
}

fn records_and_replays(harness: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let dir = pdf_skill(tmp.path());
    let server = AgentServer::scripted(&[("pdf", "pdf-tools")]);
    let (code, stdout, stderr) = eval(harness, &dir, &home, "record", &server.url);
    assert_eq!(code, 0, "{harness} record: {stdout}\n{stderr}");
    let recorded: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        picks(&recorded),
        ["pdf-tools", "pdf-tools", "-", "-"],
        "{harness}: {stdout}"
    );
    let skill = &recorded["harnesses"][0]["skills"][0];
    assert_eq!(skill["recall"], 1.0);
    assert_eq!(skill["false_rate"], 0.0);
    assert!(recorded["harnesses"][0]["agent_version"].is_string());
    let cassettes = dir.join("evals/cassettes/harness").join(harness);
    assert_eq!(std::fs::read_dir(&cassettes).unwrap().count(), 4);
    drop(server);

    // Replayed with nothing listening where the provider was: the same picks.
    let closed = "http://127.0.0.1:9";
    let (code, stdout, stderr) = eval(harness, &dir, &home, "replay", closed);
    assert_eq!(code, 0, "{harness} replay: {stdout}\n{stderr}");
    let replayed: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(picks(&replayed), picks(&recorded), "{harness} replay");
    assert_eq!(
        replayed["harnesses"][0]["skills"][0]["recall_runs"],
        recorded["harnesses"][0]["skills"][0]["recall_runs"]
    );

    // A changed description changes the agent's request: a replay says how, and stops.
    let skill_md = dir.join("SKILL.md");
    let text = std::fs::read_to_string(&skill_md).unwrap();
    std::fs::write(&skill_md, text.replace("Fill in, merge", "Fill, merge")).unwrap();
    let (code, stdout, stderr) = eval(harness, &dir, &home, "replay", closed);
    assert_eq!(code, 2, "{harness} changed: {stdout}\n{stderr}");
    assert!(
        stderr.contains("the agent's request changed"),
        "{harness}: {stderr}"
    );
    assert!(
        stderr.contains("Fill, merge"),
        "{harness}: the diff shows the change: {stderr}"
    );
    assert!(stderr.contains("--mode record"), "{harness}: {stderr}");

    // Cassettes of another version of the agent still replay, and the report says so.
    std::fs::write(&skill_md, text).unwrap();
    for entry in std::fs::read_dir(&cassettes).unwrap() {
        let path = entry.unwrap().path();
        let cassette = std::fs::read_to_string(&path).unwrap();
        let version = recorded["harnesses"][0]["agent_version"].as_str().unwrap();
        let moved = cassette
            .replacen(
                &format!("agent_version: \"{version}\""),
                "agent_version: 0.0.1",
                1,
            )
            .replacen(
                &format!("agent_version: {version}\n"),
                "agent_version: 0.0.1\n",
                1,
            );
        assert!(moved != cassette, "{}: {cassette:.300}", path.display());
        std::fs::write(&path, moved).unwrap();
    }
    let (code, stdout, stderr) = eval(harness, &dir, &home, "replay", closed);
    assert_eq!(code, 0, "{harness} moved: {stdout}\n{stderr}");
    let moved: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        moved["harnesses"][0]["recorded_with"],
        serde_json::json!(["0.0.1"])
    );
}

#[test]
fn claude_code_trigger_eval_records_and_replays() {
    records_and_replays("claude-code");
}

#[test]
fn codex_trigger_eval_records_and_replays() {
    records_and_replays("codex");
}

#[test]
fn gemini_cli_trigger_eval_records_and_replays() {
    records_and_replays("gemini");
}

#[test]
fn opencode_trigger_eval_records_and_replays() {
    records_and_replays("opencode");
}

#[test]
fn copilot_cli_trigger_eval_records_and_replays() {
    records_and_replays("copilot");
}
