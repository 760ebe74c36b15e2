//! MCP servers a skill declares, in `skill try` and `skill test`: servers of the official MCP
//! Python SDK (`tests/fixtures/mcp/notes.py`, PyPI `mcp` installed by `.ci/run`) over stdio and
//! over streamable HTTP on loopback; tools offered with their schemas under
//! `mcp__<server>__<tool>`, calls recorded, and replayed with no server to start.

use crate::common;
use common::needs::{Need, lacks};

use common::model_server::{ModelServer, Step, call};
use common::{json, run, skill, write_skill};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const SKILL_MD: &str = "---\nname: calc\ndescription: Adds numbers with the notes server. Use when asked for a sum.\n---\n# Calc\n\nCall the add tool of the notes server.\n";

fn notes_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/mcp/notes.py")
}

/// A skill whose skill.toml declares `table` (the body of `[mcp.notes]`).
fn calc_skill(root: &Path, table: &str) -> PathBuf {
    let dir = write_skill(root, "calc", SKILL_MD);
    std::fs::copy(notes_script(), dir.join("server.py")).unwrap();
    std::fs::write(dir.join("skill.toml"), format!("[mcp.notes]\n{table}")).unwrap();
    dir
}

fn stdio_table() -> String {
    format!(
        "command = \"{}\"\nargs = [\"server.py\"]\n",
        common::mcp_python().display()
    )
}

fn clean() -> assert_cmd::Command {
    let mut cmd = skill();
    for var in ["OPENAI_API_KEY", "OPENAI_BASE_URL", "SKILL_RECORD", "CI"] {
        cmd.env_remove(var);
    }
    cmd
}

fn try_cmd() -> assert_cmd::Command {
    let mut cmd = clean();
    cmd.arg("try");
    cmd
}

fn add_script() -> Vec<Step> {
    vec![
        Step::Reply("", vec![call("mcp__notes__add", json!({"a": 2, "b": 3}))]),
        Step::Reply("The sum is 5.", vec![]),
    ]
}

/// The results the model was given, in order, for calls of `tool` (of any tool when `None`):
/// (text, whether it is an error).
fn tool_results(transcript: &Value, tool: Option<&str>) -> Vec<(String, bool)> {
    transcript["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "tool" && tool.is_none_or(|t| m["name"] == t))
        .map(|m| {
            (
                m["content"].as_str().unwrap().to_owned(),
                m["is_error"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}

/// The result the model was given for its first call of `tool`.
fn result_of(transcript: &Value, tool: &str) -> (String, bool) {
    tool_results(transcript, Some(tool))
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no result of {tool} in {transcript}"))
}

/// `skill try SKILL -p PROMPT --json` against `server`, with `more` arguments; it must succeed.
fn try_json(skill_dir: &Path, prompt: &str, server: &ModelServer, more: &[&str]) -> Value {
    let (code, stdout, stderr) = run(try_cmd()
        .arg(skill_dir)
        .args(["-p", prompt, "--json", "--base-url", &server.openai_base()])
        .args(more));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    json(&stdout)
}

fn record_then_replay(
    skill_dir: &Path,
    cassette: &Path,
    script: Vec<Step>,
    more: &[&str],
) -> (Value, Value, Vec<Value>) {
    let server = ModelServer::start(script);
    let (code, stdout, stderr) = run(try_cmd()
        .arg(skill_dir)
        .args([
            "-p",
            "What is 2 + 3?",
            "--json",
            "--base-url",
            &server.openai_base(),
        ])
        .arg("--record")
        .arg(cassette)
        .args(more));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let recorded = json(&stdout);
    let requests = server.requests();
    server.stop();
    // The server could not start now: the replay must not need it.
    std::fs::write(
        skill_dir.join("skill.toml"),
        "[mcp.notes]\ncommand = \"/nonexistent/mcp-server\"\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run(try_cmd()
        .arg(skill_dir)
        .args(["-p", "What is 2 + 3?", "--json", "--replay"])
        .arg(cassette)
        .args(more));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    (recorded, json(&stdout), requests)
}

#[test]
fn a_stdio_server_of_the_python_sdk_is_called_recorded_and_replayed_without_it() {
    if lacks(&[Need::Mcp]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let skill_dir = calc_skill(tmp.path(), &stdio_table());
    let cassette = tmp.path().join("add.yaml");
    let (recorded, replayed, requests) =
        record_then_replay(&skill_dir, &cassette, add_script(), &[]);
    assert_eq!(
        result_of(&recorded, "mcp__notes__add"),
        ("5".to_owned(), false)
    );
    assert_eq!(recorded["final_answer"], "The sum is 5.");
    // Offered with the server's own schema, beside the builtin tools.
    let tools = requests[0]["tools"].as_array().unwrap();
    let add = tools
        .iter()
        .find(|t| t["function"]["name"] == "mcp__notes__add")
        .unwrap_or_else(|| panic!("{tools:?}"));
    assert_eq!(add["function"]["description"], "Add two whole numbers.");
    let schema = &add["function"]["parameters"];
    assert_eq!(schema["properties"]["a"]["type"], "integer", "{schema}");
    assert!(tools.iter().any(|t| t["function"]["name"] == "exec"));
    assert_eq!(
        result_of(&replayed, "mcp__notes__add"),
        ("5".to_owned(), false)
    );
    assert_eq!(replayed["final_answer"], recorded["final_answer"]);
}

/// A free port on 127.0.0.1.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The notes server over streamable HTTP, killed when dropped.
struct HttpServer(std::process::Child);

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn http_server(port: u16) -> HttpServer {
    let child = std::process::Command::new(common::mcp_python())
        .arg(notes_script())
        .args(["http", &port.to_string()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the MCP server did not listen"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    HttpServer(child)
}

#[test]
fn a_streamable_http_server_on_loopback_is_called_recorded_and_replayed_without_it() {
    if lacks(&[Need::Mcp]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let port = free_port();
    let server = http_server(port);
    let skill_dir = calc_skill(
        tmp.path(),
        &format!("url = \"http://127.0.0.1:{port}/mcp\"\n"),
    );
    let cassette = tmp.path().join("add.yaml");
    let server_model = ModelServer::start(add_script());
    let (code, stdout, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args([
            "-p",
            "What is 2 + 3?",
            "--json",
            "--base-url",
            &server_model.openai_base(),
        ])
        .arg("--record")
        .arg(&cassette));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert_eq!(
        result_of(&json(&stdout), "mcp__notes__add"),
        ("5".to_owned(), false)
    );
    drop(server);
    let (code, stdout, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "What is 2 + 3?", "--json", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert_eq!(
        result_of(&json(&stdout), "mcp__notes__add"),
        ("5".to_owned(), false)
    );
}

#[test]
fn a_failing_crashing_or_slow_server_is_an_error_in_the_transcript_not_a_hang() {
    if lacks(&[Need::Mcp]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let skill_dir = calc_skill(tmp.path(), &stdio_table());
    let script = vec![
        Step::Reply(
            "",
            vec![call(
                "mcp__notes__fail",
                json!({"reason": "no notes today"}),
            )],
        ),
        Step::Reply("", vec![call("mcp__notes__sleep", json!({"seconds": 60}))]),
        Step::Reply("", vec![call("mcp__notes__crash", json!({}))]),
        Step::Reply("", vec![call("mcp__notes__add", json!({"a": 1, "b": 1}))]),
        Step::Reply("The notes server is not working.", vec![]),
    ];
    let server = ModelServer::start(script);
    let started = Instant::now();
    let (code, stdout, stderr) = run(try_cmd().arg(&skill_dir).args([
        "-p",
        "What is 1 + 1?",
        "--json",
        "--exec-timeout",
        "3",
        "--base-url",
        &server.openai_base(),
    ]));
    assert!(
        started.elapsed() < Duration::from_secs(50),
        "bounded by the timeouts"
    );
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let transcript = json(&stdout);
    let (failed, is_error) = result_of(&transcript, "mcp__notes__fail");
    assert!(
        is_error && failed.contains("Error executing tool fail"),
        "{failed}"
    );
    let (slow, is_error) = result_of(&transcript, "mcp__notes__sleep");
    assert!(is_error, "{slow}");
    assert!(slow.contains("did not answer 'sleep' within 3 s"), "{slow}");
    let (crashed, is_error) = result_of(&transcript, "mcp__notes__crash");
    assert!(
        is_error && crashed.contains("MCP server 'notes'"),
        "{crashed}"
    );
    let (after, is_error) = result_of(&transcript, "mcp__notes__add");
    assert!(is_error, "a crashed server answers no more: {after}");
    assert_eq!(
        transcript["final_answer"],
        "The notes server is not working."
    );
}

#[test]
fn a_server_that_cannot_start_or_a_broken_declaration_is_a_clear_error() {
    let tmp = tempfile::tempdir().unwrap();
    let skill_dir = calc_skill(tmp.path(), "command = \"/nonexistent/mcp-server\"\n");
    let server = ModelServer::start(add_script());
    let (code, _, stderr) = run(try_cmd().arg(&skill_dir).args([
        "-p",
        "What is 2 + 3?",
        "--base-url",
        &server.openai_base(),
    ]));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("MCP server 'notes' did not start"),
        "{stderr}"
    );
    assert_eq!(
        server.requests().len(),
        0,
        "no model call before the tools are known"
    );

    std::fs::write(skill_dir.join("skill.toml"), "[mcp.notes]\nurl = 3\n").unwrap();
    let (code, _, stderr) = run(try_cmd().arg(&skill_dir).args([
        "-p",
        "What is 2 + 3?",
        "--base-url",
        &server.openai_base(),
    ]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("skill.toml"), "{stderr}");

    std::fs::write(skill_dir.join("skill.toml"), "").unwrap();
    std::fs::create_dir_all(skill_dir.join("agents")).unwrap();
    std::fs::write(
        skill_dir.join("agents/openai.yaml"),
        "dependencies:\n  tools:\n    - type: mcp\n      value: docs\n      transport: streamable_http\n",
    )
    .unwrap();
    let (code, _, stderr) = run(try_cmd().arg(&skill_dir).args([
        "-p",
        "What is 2 + 3?",
        "--base-url",
        &server.openai_base(),
    ]));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("agents/openai.yaml: MCP server 'docs' needs a url (streamable_http) or a command (stdio)"),
        "{stderr}"
    );
}

#[test]
fn a_codex_openai_yaml_server_joins_a_skill_test_scenario_recorded_and_replayed() {
    if lacks(&[Need::Mcp]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let skill_dir = write_skill(tmp.path(), "calc", SKILL_MD);
    std::fs::copy(notes_script(), skill_dir.join("server.py")).unwrap();
    std::fs::create_dir_all(skill_dir.join("agents")).unwrap();
    std::fs::write(
        skill_dir.join("agents/openai.yaml"),
        format!(
            "dependencies:\n  tools:\n    - type: mcp\n      value: notes\n      transport: stdio\n      command: {} server.py\n",
            common::mcp_python().display()
        ),
    )
    .unwrap();
    std::fs::create_dir_all(skill_dir.join("evals")).unwrap();
    std::fs::write(
        skill_dir.join("evals/sum.yaml"),
        "prompt: What is 2 + 3?\nexpect:\n  tool_calls:\n    - name: mcp__notes__add\n  final_answer: sum is 5\n",
    )
    .unwrap();
    let server = ModelServer::start(add_script());
    let (code, stdout, stderr) = run(clean()
        .args([
            "test",
            "--mode",
            "record",
            "--base-url",
            &server.openai_base(),
        ])
        .arg(&skill_dir));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("PASS  calc/sum"), "{stdout}");
    server.stop();
    let cassette = std::fs::read_to_string(skill_dir.join("evals/cassettes/sum.yaml")).unwrap();
    assert!(cassette.contains("mcp__notes__add"), "{cassette}");
    std::fs::remove_file(skill_dir.join("server.py")).unwrap();
    let (code, stdout, stderr) = run(clean().arg("test").arg(&skill_dir));
    assert_eq!(code, 0, "replayed without the server: {stdout}\n{stderr}");
    assert!(stdout.contains("PASS  calc/sum"), "{stdout}");
}

#[test]
fn a_command_run_between_calls_leaves_the_server_running() {
    if lacks(&[Need::Mcp]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let skill_dir = calc_skill(tmp.path(), &stdio_table());
    let script = vec![
        Step::Reply("", vec![call("mcp__notes__add", json!({"a": 1, "b": 2}))]),
        Step::Reply("", vec![call("exec", json!({"command": "echo between"}))]),
        Step::Reply("", vec![call("mcp__notes__add", json!({"a": 2, "b": 3}))]),
        Step::Reply("3 then 5.", vec![]),
    ];
    let server = ModelServer::start(script);
    let transcript = try_json(&skill_dir, "Add twice", &server, &[]);
    let results = tool_results(&transcript, Some("mcp__notes__add"));
    assert_eq!(results, [("3".to_owned(), false), ("5".to_owned(), false)]);
}

#[test]
fn under_the_test_policy_a_server_reads_no_file_outside_and_reaches_no_other_host() {
    if lacks(&[Need::Mcp]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let secret = tmp.path().join("outside/secret.txt");
    std::fs::create_dir_all(secret.parent().unwrap()).unwrap();
    std::fs::write(&secret, "the user's secret").unwrap();
    let skill_dir = calc_skill(tmp.path(), &stdio_table());
    let script = vec![
        Step::Reply(
            "",
            vec![call(
                "mcp__notes__peek",
                json!({"path": secret.to_str().unwrap()}),
            )],
        ),
        Step::Reply(
            "",
            vec![call("mcp__notes__peek", json!({"path": "SKILL.md"}))],
        ),
        Step::Reply("Read.", vec![]),
    ];
    let server = ModelServer::start(script);
    let transcript = try_json(&skill_dir, "Peek", &server, &["--strict"]);
    let peeks: Vec<String> = tool_results(&transcript, None)
        .into_iter()
        .map(|(text, _)| text)
        .collect();
    assert!(
        peeks[0].contains("cannot read") && peeks[0].contains("Permission denied"),
        "{peeks:?}"
    );
    assert!(!peeks[0].contains("the user's secret"));
    assert!(
        peeks[1].contains("name: calc"),
        "its own skill folder is readable: {peeks:?}"
    );

    // A streamable HTTP server off loopback is refused before any connection.
    std::fs::write(
        skill_dir.join("skill.toml"),
        "[mcp.notes]\nurl = \"http://192.0.2.1:9/mcp\"\n",
    )
    .unwrap();
    let (code, _, stderr) = run(try_cmd().arg(&skill_dir).args([
        "-p",
        "Peek",
        "--strict",
        "--base-url",
        &server.openai_base(),
    ]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("is not on 127.0.0.1 or ::1"), "{stderr}");
}

#[test]
fn two_servers_whose_tools_share_a_name_are_refused_naming_both() {
    if lacks(&[Need::Mcp]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let skill_dir = calc_skill(tmp.path(), &stdio_table());
    std::fs::create_dir_all(skill_dir.join("agents")).unwrap();
    std::fs::write(
        skill_dir.join("agents/openai.yaml"),
        format!(
            "dependencies:\n  tools:\n    - type: mcp\n      value: notes\n      command: {} server.py\n",
            common::mcp_python().display()
        ),
    )
    .unwrap();
    let server = ModelServer::start(add_script());
    let (code, _, stderr) = run(try_cmd().arg(&skill_dir).args([
        "-p",
        "What is 2 + 3?",
        "--base-url",
        &server.openai_base(),
    ]));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("MCP tool name mcp__notes__add"), "{stderr}");
    assert_eq!(server.requests().len(), 0);
}
