//! `skill eval --harness` and `skill try --harness`: the real agent CLIs (installed by
//! `.ci/run` from npm into `target/test-deps/agents`), each recorded through skill's model
//! proxy against a scripted model on loopback, then replayed with nothing listening upstream.

use crate::common;
use common::needs::{Need, lacks};

use common::agent_server::AgentServer;
use common::{run, skill};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The folder of the agent CLIs, put first on PATH.
fn agents_bin() -> PathBuf {
    common::agent_cli("claude").parent().unwrap().to_owned()
}

/// A skill with a trigger set: one query that should pick it (starting with `-`, so an agent that
/// took it for a flag fails), one that should not. Each query is an agent start per run.
fn pdf_skill(root: &Path) -> PathBuf {
    let dir = common::write_skill(
        root,
        "pdf-tools",
        "---\nname: pdf-tools\ndescription: Fill in, merge and split PDF files. Use when a PDF is named.\n---\n# PDF tools\n\nRun `qpdf` for merges.\n",
    );
    std::fs::create_dir_all(dir.join("evals")).unwrap();
    std::fs::write(
        dir.join("evals/triggers.yaml"),
        "runs: 1\nmin_recall: 1.0\nmax_false_rate: 0.0\nqueries:\n  - prompt: -merge the two PDF files in this folder\n    should_trigger: true\n  - prompt: What is the capital of France?\n    should_trigger: false\n",
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
    eval_in(&agents_bin(), harness, skill_dir, home, (mode, url), &[])
}

/// [`eval`] with `bin` first on PATH and more variables.
fn eval_in(
    bin: &Path,
    harness: &str,
    skill_dir: &Path,
    home: &Path,
    (mode, url): (&str, &str),
    env: &[(&str, &str)],
) -> (i32, String, String) {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let (var, value) = upstream(harness, url);
    let mut cmd = skill();
    cmd.env("PATH", path)
        .envs(env.iter().copied())
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_API_KEY")
        .env_remove("GEMINI_API_KEY")
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
    let recorded = common::schemas::conforms("eval", &stdout);
    assert_eq!(picks(&recorded), ["pdf-tools", "-"], "{harness}: {stdout}");
    let skill = &recorded["harnesses"][0]["skills"][0];
    assert_eq!(skill["recall"], 1.0);
    assert_eq!(skill["false_rate"], 0.0);
    assert!(recorded["harnesses"][0]["agent_version"].is_string());
    let cassettes = dir.join("evals/cassettes/harness").join(harness);
    assert_eq!(std::fs::read_dir(&cassettes).unwrap().count(), 2);
    drop(server);

    // Replayed with nothing listening where the provider was: the same picks.
    let closed = "http://127.0.0.1:9";
    let (code, stdout, stderr) = eval(harness, &dir, &home, "replay", closed);
    assert_eq!(code, 0, "{harness} replay: {stdout}\n{stderr}");
    let replayed = common::schemas::conforms("eval", &stdout);
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
    if lacks(&[Need::AgentClis]) {
        return;
    }
    records_and_replays("claude-code");
}

#[test]
fn codex_trigger_eval_records_and_replays() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    records_and_replays("codex");
}

#[test]
fn gemini_cli_trigger_eval_records_and_replays() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    records_and_replays("gemini");
}

#[test]
fn opencode_trigger_eval_records_and_replays() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    records_and_replays("opencode");
}

#[test]
fn copilot_cli_trigger_eval_records_and_replays() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    records_and_replays("copilot");
}

#[test]
fn the_listing_budget_that_collapses_a_skill_is_reported_as_claude_code_applies_it() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let dir = pdf_skill(tmp.path());
    let server = AgentServer::scripted(&[("pdf", "pdf-tools")]);
    let budget = [("SLASH_COMMAND_TOOL_CHAR_BUDGET", "400")];
    let (code, stdout, stderr) = eval_in(
        &agents_bin(),
        "claude-code",
        &dir,
        &home,
        ("record", &server.url),
        &budget,
    );
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let report = common::schemas::conforms("eval", &stdout);
    let listing = report["harnesses"][0]["listing"]
        .as_array()
        .unwrap()
        .clone();
    assert!(
        !listing.is_empty(),
        "a 400-column budget collapses some of 7 skills: {stdout}"
    );
    // Each skill the report calls cut is a bare `- name` line in what Claude Code really sent.
    let requests: Vec<Value> = server
        .model_requests()
        .into_iter()
        .map(|r| r.body)
        .collect();
    let sent = requests[0].to_string();
    for effect in &listing {
        let name = effect["name"].as_str().unwrap();
        assert_eq!(effect["state"], "cut", "{effect}");
        assert!(
            sent.contains(&format!("\\n- {name}\\n")),
            "{name} is collapsed in the request"
        );
        assert!(
            !sent.contains(&format!("\\n- {name}: ")),
            "{name} has no description"
        );
    }
}

/// A folder with an executable `name` script holding `body`.
fn fake_program(dir: &Path, name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    dir.to_owned()
}

#[test]
fn an_agent_that_is_missing_silent_or_replayed_from_a_bad_cassette_is_a_clear_error() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let dir = pdf_skill(tmp.path());
    let empty = tmp.path().join("empty-bin");
    std::fs::create_dir_all(&empty).unwrap();
    let run_with = |bin: &Path, mode: &str, url: &str| {
        let path = format!("{}:/usr/bin:/bin", bin.display());
        let mut cmd = skill();
        cmd.env("PATH", path)
            .env("HOME", &home)
            .env("SKILL_CACHE_DIR", home.join(".cache/skill"))
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("ANTHROPIC_BASE_URL")
            .args(["eval", "--harness", "claude-code", "--mode", mode])
            .arg(&dir);
        if !url.is_empty() {
            cmd.env("ANTHROPIC_BASE_URL", url);
        }
        run(&mut cmd)
    };

    // Not installed.
    let (code, _, stderr) = run_with(&empty, "replay", "");
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("claude is not on PATH: install @anthropic-ai/claude-code"),
        "{stderr}"
    );

    // Installed, but it never asks the model: its own words are shown.
    let silent = fake_program(
        &tmp.path().join("silent"),
        "claude",
        "echo 'Invalid auth method selected.' >&2",
    );
    let server = AgentServer::scripted(&[]);
    let (code, _, stderr) = run_with(&silent, "record", &server.url);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(
            "claude-code ended (exit 0) without an answer of the model's to record or replay"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("Invalid auth method selected."), "{stderr}");
    assert!(
        !dir.join("evals/cassettes/harness/claude-code").exists(),
        "nothing recorded"
    );

    // A provider that refuses the key: said, and no cassette written.
    let refusing = common::model_server::ModelServer::start(vec![
        common::model_server::Step::Status(
            401,
            None,
            "invalid x-api-key"
        );
        5
    ]);
    let (code, _, stderr) = run_with(&agents_bin(), "record", &refusing.url);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("the provider answered 401"), "{stderr}");
    assert!(
        !dir.join("evals/cassettes/harness/claude-code").exists(),
        "nothing recorded"
    );

    // Recording against Anthropic itself needs the key.
    let (code, _, stderr) = run_with(&silent, "record", "");
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("ANTHROPIC_API_KEY is not set"), "{stderr}");

    // No cassettes: the command that records them.
    let (code, _, stderr) = run_with(&silent, "replay", "");
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("no cassette for this query and run"),
        "{stderr}"
    );
    assert!(
        stderr.contains("skill eval --harness claude-code"),
        "{stderr}"
    );

    // Hostile cassettes: not YAML, not UTF-8, a blob missing, another format.
    let cassettes = dir.join("evals/cassettes/harness/claude-code");
    std::fs::create_dir_all(&cassettes).unwrap();
    let first = cassettes.join("q01-merge-the-two-pdf-files-in.1.yaml");
    let bad: [(&[u8], &str); 4] = [
        (b"exchanges: [unclosed\n", "not a proxy cassette"),
        (b"format: 1\nharness: \xff\n", "not a proxy cassette"),
        (
            b"format: 1\nharness: claude-code\nexchanges:\n- path: /v1/messages\n  request: {system: abc}\n  status: 200\n  content_type: text/plain\n  response: ok\nblobs: {}\n",
            "blob abc is missing",
        ),
        (b"format: 9\nharness: claude-code\nexchanges: []\nblobs: {}\n", "format 9"),
    ];
    for (bytes, says) in bad {
        std::fs::write(&first, bytes).unwrap();
        let (code, _, stderr) = run_with(&silent, "replay", "");
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains(&first.display().to_string()),
            "names the cassette: {stderr}"
        );
        assert!(stderr.contains(says), "{says}: {stderr}");
    }
}

/// `skill try SKILL --harness H -p PROMPT --json` and more arguments.
fn try_in(
    harness: &str,
    dir: &Path,
    home: &Path,
    url: &str,
    more: &[&str],
) -> (i32, Value, String) {
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
        .args([
            "try",
            "--harness",
            harness,
            "--json",
            "--prompt=-merge the two PDF files here",
        ])
        .arg(dir)
        .args(more);
    let (code, stdout, stderr) = run(&mut cmd);
    let json = match stdout.is_empty() {
        true => Value::Null,
        false => common::schemas::conforms("try", &stdout),
    };
    (code, json, format!("{stdout}\n{stderr}"))
}

fn tries_live_recorded_and_replayed(harness: &str) {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let dir = pdf_skill(tmp.path());
    let cassette = tmp.path().join("try.yaml");
    let server = AgentServer::scripted(&[("pdf", "pdf-tools")]);
    let record = ["--record", cassette.to_str().unwrap()];
    let (code, recorded, out) = try_in(harness, &dir, &home, &server.url, &record);
    assert_eq!(code, 0, "{harness} record: {out}");
    assert_eq!(
        recorded["skills_used"],
        serde_json::json!(["pdf-tools"]),
        "{out}"
    );
    // The agent ran the whole loop: the skill's call, its result, and the model's answer.
    assert!(recorded["model_requests"].as_u64().unwrap() >= 2, "{out}");
    assert!(recorded["answer"].as_str().unwrap().contains("ok"), "{out}");
    drop(server);

    let replay = ["--replay", cassette.to_str().unwrap()];
    let (code, replayed, out) = try_in(harness, &dir, &home, "http://127.0.0.1:9", &replay);
    assert_eq!(code, 0, "{harness} replay: {out}");
    for key in ["skills_used", "tool_calls", "answer", "model_requests"] {
        assert_eq!(replayed[key], recorded[key], "{harness} {key}: {out}");
    }
}

#[test]
fn claude_code_tries_a_skill_live_recorded_and_replayed() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    tries_live_recorded_and_replayed("claude-code");
}

#[test]
fn codex_tries_a_skill_live_recorded_and_replayed() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    tries_live_recorded_and_replayed("codex");
}

/// `skill eval DIR --impact --harness claude-code --runs 1 --json` in `mode`, the provider at
/// `url`, iterations under `workspace`.
fn impact(
    dir: &Path,
    home: &Path,
    workspace: &Path,
    mode: &str,
    url: &str,
) -> (i32, String, String) {
    let path = format!(
        "{}:{}",
        agents_bin().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut cmd = skill();
    cmd.env("PATH", path)
        .env("HOME", home)
        .env("SKILL_CACHE_DIR", home.join(".cache/skill"))
        .env_remove("ANTHROPIC_API_KEY")
        .env("ANTHROPIC_BASE_URL", url)
        .args([
            "eval",
            "--impact",
            "--harness",
            "claude-code",
            "--runs",
            "1",
            "--json",
        ])
        .args(["--mode", mode, "--workspace"])
        .arg(workspace)
        .arg(dir);
    run(&mut cmd)
}

#[test]
fn an_impact_eval_runs_in_claude_code_with_and_without_the_skill_and_replays() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let dir = common::write_skill(
        tmp.path(),
        "note-taker",
        "---\nname: note-taker\ndescription: Writes the user's notes to note.txt. Use when asked to take a note.\n---\n# Notes\n\nWrite the note to `note.txt`.\n",
    );
    std::fs::create_dir_all(dir.join("evals/files")).unwrap();
    std::fs::write(dir.join("evals/files/draft.md"), "draft\n").unwrap();
    std::fs::write(
        dir.join("evals/evals.json"),
        r#"{"skill_name": "note-taker", "evals": [{"id": 1, "prompt": "Take a note that says hello",
            "expected_output": "note.txt holding hello", "files": ["evals/files/draft.md"],
            "expectations": ["The file `note.txt` exists", "`note.txt` contains `hello`"]}]}"#,
    )
    .unwrap();
    let workspace = tmp.path().join("iterations");
    let server = AgentServer::writing("note-taker", "note.txt", "hello\n");
    let (code, stdout, stderr) = impact(&dir, &home, &workspace, "record", &server.url);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let recorded = common::schemas::conforms("eval", &stdout);
    let iteration = workspace.join("note-taker/iteration-1/eval-1");
    assert_eq!(
        std::fs::read_to_string(iteration.join("with_skill/outputs/note.txt")).unwrap(),
        "hello\n",
        "the file Claude Code wrote in its project is an output"
    );
    assert!(!iteration.join("without_skill/outputs/note.txt").exists());
    assert!(
        !iteration
            .join("with_skill/outputs/evals/files/draft.md")
            .exists(),
        "an input file is not an output"
    );
    let summary = |report: &Value, config: &str| {
        report["impact"][0]["run_summary"][config]["pass_rate"]["mean"].clone()
    };
    assert_eq!(summary(&recorded, "with_skill"), 1.0, "{stdout}");
    assert_eq!(summary(&recorded, "without_skill"), 0.0, "{stdout}");
    let cassettes = dir.join("evals/cassettes/impact/eval-1");
    assert!(cassettes.join("with_skill.1.claude-code.yaml").is_file());
    assert!(cassettes.join("without_skill.1.claude-code.yaml").is_file());
    drop(server);

    let (code, stdout, stderr) = impact(&dir, &home, &workspace, "replay", "http://127.0.0.1:9");
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let replayed = common::schemas::conforms("eval", &stdout);
    for config in ["with_skill", "without_skill"] {
        assert_eq!(
            summary(&replayed, config),
            summary(&recorded, config),
            "{config}"
        );
    }
}

#[test]
fn a_replayed_cassette_cannot_make_the_agent_read_outside_its_session() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let dir = pdf_skill(tmp.path());
    let secret = tmp.path().join("outside/secret.txt");
    std::fs::create_dir_all(secret.parent().unwrap()).unwrap();
    std::fs::write(&secret, "the user's secret\n").unwrap();
    let cassette = tmp.path().join("read.yaml");
    // Recorded live, Copilot runs the command its model asks for: the file reaches the model.
    let server = AgentServer::running(&format!("cat {}", secret.display()));
    let record = ["--record", cassette.to_str().unwrap()];
    let (code, _, out) = try_in("copilot", &dir, &home, &server.url, &record);
    assert_eq!(code, 0, "{out}");
    let sent: String = server
        .model_requests()
        .iter()
        .map(|r| r.body.to_string())
        .collect();
    assert!(sent.contains("the user's secret"), "the live run read it");
    drop(server);
    // Replayed, the same call runs confined: the file cannot be read, so the request the
    // agent makes next is not the recorded one, and the replay stops there.
    let replay = ["--replay", cassette.to_str().unwrap()];
    let (code, _, out) = try_in("copilot", &dir, &home, "http://127.0.0.1:9", &replay);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("the agent's request changed"), "{out}");
    let added: Vec<&str> = out.lines().filter(|l| l.starts_with('+')).collect();
    assert!(
        added.iter().any(|l| l.contains("Permission denied")),
        "{added:?}"
    );
    assert!(
        added.iter().all(|l| !l.contains("the user's secret")),
        "{added:?}"
    );
}
