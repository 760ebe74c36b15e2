//! `skill try` against a scripted model on loopback: both providers, streamed and whole; what
//! the model receives; record, then replay with the server stopped; mismatch and unused
//! exchanges; provider errors, retries and cut streams; bad tool calls and the turn limit.

use crate::common;

use common::model_server::{ModelServer, Step, call};
use common::{json, normalise, run, skill, snapshots, write_skill};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const SKILL_MD: &str = "---\nname: demo\ndescription: Writes greeting files. Use when asked to greet someone in a file.\n---\n# Demo\n\nWrite `hello.txt` with the greeting.\n";

fn demo_skill(dir: &Path) -> PathBuf {
    write_skill(dir, "demo", SKILL_MD)
}

/// The usual script: read the skill, write a file, answer.
fn script() -> Vec<Step> {
    vec![
        Step::Reply(
            "Reading the skill first.",
            vec![call("read_file", json!({"path": "skills/demo/SKILL.md"}))],
        ),
        Step::Reply(
            "",
            vec![call(
                "write_file",
                json!({"path": "hello.txt", "content": "hello, world\n"}),
            )],
        ),
        Step::Reply("Wrote hello.txt.", vec![]),
    ]
}

/// `skill try` with no keys or base URLs from the environment of the machine running the tests.
fn try_cmd() -> assert_cmd::Command {
    let mut cmd = skill();
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "SKILL_RECORD",
        "CI",
    ] {
        cmd.env_remove(var);
    }
    cmd.arg("try");
    cmd
}

fn transcript_messages(transcript: &Value, workspace: &str) -> String {
    transcript["messages"]
        .to_string()
        .replace(workspace, "{workspace}")
}

#[test]
fn openai_streamed_run_reads_the_skill_and_uses_the_tools() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let ws = dir.path().join("ws");
    let server = ModelServer::start(script());
    let (code, stdout, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet the world in a file"])
        .args(["--base-url", &server.openai_base(), "--workspace"])
        .arg(&ws)
        .arg("--json"));
    assert_eq!(code, 0, "{stderr}");
    let transcript = json(&stdout);
    assert_eq!(transcript["stop"], "answer");
    assert_eq!(transcript["final_answer"], "Wrote hello.txt.");
    assert_eq!(transcript["turns"], 3);
    assert_eq!(transcript["usage"], json!({"input": 300, "output": 30}));
    assert_eq!(transcript["skills_read"], json!(["demo"]));
    assert_eq!(
        std::fs::read_to_string(ws.join("hello.txt")).unwrap(),
        "hello, world\n"
    );
    let requests = server.requests();
    assert_eq!(requests.len(), 3);
    let system = requests[0]["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("# Skills"), "{system}");
    assert!(system.contains("<name>demo</name>"), "{system}");
    assert!(
        system.contains("skills/demo/SKILL.md</location>"),
        "{system}"
    );
    assert_eq!(requests[0]["stream"], true);
    let tools: Vec<&str> = requests[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        tools,
        ["read_file", "write_file", "edit_file", "list_dir", "exec"]
    );
    // The second request carries the SKILL.md the first call read, paired with its call.
    let messages = requests[1]["messages"].as_array().unwrap();
    assert_eq!(messages[2]["tool_calls"][0]["id"], "call_0");
    assert_eq!(messages[3]["tool_call_id"], "call_0");
    assert_eq!(messages[3]["content"], SKILL_MD);
}

#[test]
fn anthropic_whole_answers_run_the_same_loop() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let server = ModelServer::start(script());
    let (code, stdout, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet the world in a file", "--provider", "anthropic"])
        .args(["--base-url", &server.url, "--no-stream", "--json"]));
    assert_eq!(code, 0, "{stderr}");
    let transcript = json(&stdout);
    assert_eq!(transcript["final_answer"], "Wrote hello.txt.");
    assert_eq!(transcript["skills_read"], json!(["demo"]));
    let requests = server.requests();
    assert!(
        requests[0]["system"]
            .as_str()
            .unwrap()
            .contains("<name>demo</name>")
    );
    assert_eq!(requests[0]["max_tokens"], 8192);
    assert!(requests[0].get("stream").is_none());
    assert_eq!(
        requests[2]["messages"][2]["content"][0]["type"],
        "tool_result"
    );
}

#[test]
fn anthropic_streams_too() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let server = ModelServer::start(script());
    // Only ANTHROPIC_API_KEY is set: Anthropic is the default provider, its base URL comes
    // from the env var, and --model wins over the default.
    let (code, stdout, stderr) = run(try_cmd()
        .env("ANTHROPIC_API_KEY", "test-key-anthropic")
        .env("ANTHROPIC_BASE_URL", &server.url)
        .arg(&skill_dir)
        .args(["-p", "Greet", "--model", "claude-test"]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(server.requests()[0]["model"], "claude-test");
    let stdout = normalise(&stdout, dir.path());
    snapshots().bind(|| insta::assert_snapshot!("try-human-transcript", stdout));
}

#[test]
fn record_then_replay_offline_gives_the_same_transcript() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let cassette = dir.path().join("evals/greet.cassette.yaml");
    let server = ModelServer::start(script());
    let (ws1, ws2) = (dir.path().join("ws1"), dir.path().join("ws2"));
    let (code, recorded, stderr) = run(try_cmd()
        .env("OPENAI_API_KEY", "test-key-never-stored")
        .env("OPENAI_BASE_URL", server.openai_base())
        .arg(&skill_dir)
        .args(["-p", "Greet the world in a file"])
        .arg("--workspace")
        .arg(&ws1)
        .arg("--record")
        .arg(&cassette)
        .arg("--json"));
    assert_eq!(code, 0, "{stderr}");
    server.stop();
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert!(text.starts_with("version: 2\n"), "{text}");
    // Version 2: the second request keeps the first one's messages instead of repeating them.
    assert!(text.contains("keep: 2\n"), "{text}");
    assert!(text.contains("{workspace}"), "{text}");
    assert!(!text.contains(ws1.to_str().unwrap()), "{text}");
    assert!(!text.contains("test-key-never-stored"), "{text}");
    assert!(
        text.contains("provider: openai\n  model: gpt-4.1-mini\n"),
        "{text}"
    );

    // The provider settings point nowhere: a replay must not need them.
    let (code, replayed, stderr) = run(try_cmd()
        .env("OPENAI_BASE_URL", "http://127.0.0.1:9")
        .arg(&skill_dir)
        .args(["-p", "Greet the world in a file"])
        .arg("--workspace")
        .arg(&ws2)
        .arg("--replay")
        .arg(&cassette)
        .arg("--json"));
    assert_eq!(code, 0, "{stderr}");
    let (recorded, replayed) = (json(&recorded), json(&replayed));
    let ws1 = std::fs::canonicalize(&ws1).unwrap();
    let ws2 = std::fs::canonicalize(&ws2).unwrap();
    assert_eq!(
        transcript_messages(&recorded, ws1.to_str().unwrap()),
        transcript_messages(&replayed, ws2.to_str().unwrap())
    );
    assert_eq!(replayed["skills_read"], json!(["demo"]));
    assert_eq!(replayed["usage"], recorded["usage"]);
    assert_eq!(
        std::fs::read_to_string(ws2.join("hello.txt")).unwrap(),
        "hello, world\n"
    );
}

fn record(dir: &Path, skill_dir: &Path) -> PathBuf {
    let cassette = dir.join("greet.cassette.yaml");
    let server = ModelServer::start(script());
    let (code, _, stderr) = run(try_cmd()
        .arg(skill_dir)
        .args([
            "-p",
            "Greet",
            "--base-url",
            &server.openai_base(),
            "--record",
        ])
        .arg(&cassette));
    assert_eq!(code, 0, "{stderr}");
    cassette
}

#[test]
fn a_changed_skill_gives_the_mismatch_error_with_a_diff_and_the_rerecord_command() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let cassette = record(dir.path(), &skill_dir);
    std::fs::write(
        skill_dir.join("SKILL.md"),
        SKILL_MD.replace("with the greeting", "with a warm greeting"),
    )
    .unwrap();
    let (code, _, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 2, "{stderr}");
    let stderr = normalise(&stderr, dir.path());
    snapshots().bind(|| insta::assert_snapshot!("try-mismatch-changed-skill", stderr));
}

#[test]
fn a_hand_edited_cassette_gives_the_mismatch_error() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let cassette = record(dir.path(), &skill_dir);
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert!(text.contains("content: Greet\n"), "{text}");
    std::fs::write(
        &cassette,
        text.replacen("content: Greet\n", "content: Wave\n", 1),
    )
    .unwrap();
    let (code, _, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 2, "{stderr}");
    let stderr = normalise(&stderr, dir.path());
    snapshots().bind(|| insta::assert_snapshot!("try-mismatch-edited-cassette", stderr));
}

#[test]
fn unused_and_missing_exchanges_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let cassette = record(dir.path(), &skill_dir);
    let text = std::fs::read_to_string(&cassette).unwrap();

    // A fourth exchange, a copy of the third, is never asked for.
    let third = text.match_indices("\n- request:").nth(2).unwrap().0;
    std::fs::write(&cassette, format!("{text}{}", &text[third + 1..])).unwrap();
    let (code, _, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("the run ended after 3 of 4 recorded exchanges"),
        "{stderr}"
    );

    // At the turn limit, the exchanges not reached are not an error: the limit says why.
    std::fs::write(&cassette, &text).unwrap();
    let (code, stdout, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet", "--max-turns", "2", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 1, "{stderr}");
    assert!(stdout.contains("stopped at the turn limit"), "{stdout}");

    // Cut the cassette after its second exchange: the run asks for a third.
    let cut = text.match_indices("\n- request:").nth(2).unwrap().0;
    std::fs::write(&cassette, &text[..cut + 1]).unwrap();
    let (code, _, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("asked for exchange 3 but only 2 were recorded"),
        "{stderr}"
    );
}

#[test]
fn a_version_1_cassette_still_replays() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let cassette = record(dir.path(), &skill_dir);
    let mut loaded = ::skill_agent::cassette::Cassette::load(&cassette).unwrap();
    assert_eq!(loaded.version, 2);
    loaded.version = 1;
    loaded.save(&cassette).unwrap();
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert!(
        text.starts_with("version: 1\n") && !text.contains("keep:"),
        "{text}"
    );
    let v1 = ::skill_agent::cassette::Cassette::load(&cassette).unwrap();
    assert_eq!(v1.exchanges, loaded.exchanges);
    let (code, _, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 0, "{stderr}");
    // A changed skill against a version 1 cassette: the same precise error.
    std::fs::write(
        skill_dir.join("SKILL.md"),
        SKILL_MD.replace("with the greeting", "with a warm greeting"),
    )
    .unwrap();
    let (code, _, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("exchange 2 does not match the recording")
            && stderr.contains("first difference at $.messages[3].content"),
        "{stderr}"
    );
}

/// A cassette of `n` exchanges, each request the previous one plus a tool call and its result.
fn long_cassette(n: usize, version: u32) -> ::skill_agent::cassette::Cassette {
    use ::skill_agent::cassette::{Cassette, Exchange, RecordedBy};
    use ::skill_agent::message::{Message, Reply, Request, ToolCall};
    let mut messages = vec![
        Message::System {
            content: "You are an agent. ".repeat(100),
        },
        Message::User {
            content: "List the folder.".to_owned(),
        },
    ];
    let mut exchanges = Vec::new();
    for i in 0..n {
        exchanges.push(Exchange {
            request: Request {
                messages: messages.clone(),
                tools: Vec::new(),
            },
            response: Reply {
                text: "Looking.".to_owned(),
                ..Reply::default()
            },
        });
        messages.push(Message::Assistant {
            content: String::new(),
            thinking: Vec::new(),
            tool_calls: vec![ToolCall {
                id: format!("call_{i}"),
                name: "list_dir".to_owned(),
                arguments: "{}".to_owned(),
            }],
            refusal: None,
        });
        messages.push(Message::Tool {
            call_id: format!("call_{i}"),
            name: "list_dir".to_owned(),
            content: "file.txt\n".repeat(20),
            is_error: false,
        });
    }
    Cassette {
        version,
        recorded_by: RecordedBy {
            tool: "test".to_owned(),
            provider: "script".to_owned(),
            model: "m".to_owned(),
        },
        stop: None,
        exchanges,
    }
}

#[test]
fn version_2_cassettes_grow_linearly_and_load_as_they_were_saved() {
    let dir = tempfile::tempdir().unwrap();
    let size = |n: usize, version: u32| {
        let path = dir.path().join(format!("c{n}-{version}.yaml"));
        let cassette = long_cassette(n, version);
        cassette.save(&path).unwrap();
        assert_eq!(
            ::skill_agent::cassette::Cassette::load(&path).unwrap(),
            cassette
        );
        std::fs::metadata(&path).unwrap().len() as f64
    };
    let (v2_25, v2_50) = (size(25, 2), size(50, 2));
    let (v1_25, v1_50) = (size(25, 1), size(50, 1));
    // Twice the exchanges: about twice the size in version 2, about four times in version 1.
    assert!(v2_50 / v2_25 < 2.2, "{v2_25} -> {v2_50}");
    assert!(v1_50 / v1_25 > 3.0, "{v1_25} -> {v1_50}");
    assert!(v2_50 * 10.0 < v1_50, "{v2_50} vs {v1_50}");
}

#[test]
fn a_version_2_cassette_keeping_too_much_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let cassette = dir.path().join("bad.yaml");
    std::fs::write(
        &cassette,
        "version: 2\nrecorded_by: {tool: x, provider: y, model: z}\nexchanges:\n- request:\n    keep: 3\n    messages: []\n  response: {text: hi}\n",
    )
    .unwrap();
    let (code, _, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("bad.yaml")
            && stderr.contains("exchange 1 keeps 3 messages of the previous request, which has 0"),
        "{stderr}"
    );
}

/// Every cassette the repository ships (scenarios' and trigger sets', in builtins and examples).
fn repository_cassettes() -> Vec<std::path::PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "yaml") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    for pattern in ["builtin-skills", "examples/skills"] {
        for skill in std::fs::read_dir(root.join(pattern)).unwrap() {
            walk(&skill.unwrap().path().join("evals/cassettes"), &mut found);
        }
    }
    found.sort();
    found
}

#[test]
fn the_repository_cassettes_are_version_2() {
    let found = repository_cassettes();
    for path in &found {
        let cassette = ::skill_agent::cassette::Cassette::load(path).unwrap();
        assert_eq!(cassette.version, 2, "{}", path.display());
    }
    assert!(found.len() >= 7, "{}", found.len());
}

#[test]
#[ignore = "rewrites the repository's cassettes as version 2; run with SKILL_REGENERATE_EXAMPLES=1"]
fn convert_the_repository_cassettes_to_version_2() {
    if std::env::var_os("SKILL_REGENERATE_EXAMPLES").is_none() {
        return;
    }
    for path in repository_cassettes() {
        let mut cassette = ::skill_agent::cassette::Cassette::load(&path).unwrap();
        cassette.version = 2;
        cassette.save(&path).unwrap();
    }
}

#[test]
fn broken_cassettes_name_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let cassette = dir.path().join("bad.yaml");
    for (content, expected) in [
        ("version: 1\nexchanges: [\n", "not a cassette"),
        (
            "version: 7\nrecorded_by: {tool: x, provider: y, model: z}\nexchanges: []\n",
            "cassette format version 7 is not supported",
        ),
    ] {
        std::fs::write(&cassette, content).unwrap();
        let (code, _, stderr) = run(try_cmd()
            .arg(&skill_dir)
            .args(["-p", "Greet", "--replay"])
            .arg(&cassette));
        assert_eq!(code, 2, "{stderr}");
        assert!(
            stderr.contains("bad.yaml") && stderr.contains(expected),
            "{stderr}"
        );
    }
    let (code, _, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet", "--replay"])
        .arg(dir.path().join("missing.yaml")));
    assert_eq!(code, 2);
    assert!(stderr.contains("missing.yaml"), "{stderr}");
}

#[test]
fn ci_defaults_a_cassette_to_replay_and_never_calls_out() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let server = ModelServer::start(script());
    // `skill try` with --cassette FILE and the env vars given.
    let with_cassette = |cassette: &Path, env: &[(&str, &str)]| {
        let mut cmd = try_cmd();
        for (name, value) in env {
            cmd.env(name, value);
        }
        run(cmd
            .arg(&skill_dir)
            .args([
                "-p",
                "Greet",
                "--base-url",
                &server.openai_base(),
                "--cassette",
            ])
            .arg(cassette))
    };
    let (code, _, stderr) = with_cassette(&dir.path().join("none.yaml"), &[("CI", "true")]);
    assert_eq!(code, 2);
    assert!(stderr.contains("none.yaml"), "{stderr}");
    assert_eq!(server.calls(), 0);

    // Outside CI, auto records a missing cassette, then replays it.
    let cassette = dir.path().join("auto.yaml");
    let (code, _, stderr) = with_cassette(&cassette, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(cassette.is_file());
    let (code, _, stderr) = with_cassette(&cassette, &[("SKILL_RECORD", "replay")]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(server.calls(), 3);
}

#[test]
fn secrets_are_redacted_and_token_shaped_strings_refuse_the_write() {
    let dir = tempfile::tempdir().unwrap();
    // The skill declares DEMO_TOKEN, so its commands are given it (and print it).
    let skill_dir = write_skill(
        dir.path(),
        "demo",
        SKILL_MD.replace(
            "---\n# Demo",
            "metadata: {\"openclaw\": {\"requires\": {\"env\": [\"DEMO_TOKEN\"]}}}\n---\n# Demo",
        ),
    );
    let secret = "s3cr3t-Value-9f8e7d6c5b4a";
    let server = ModelServer::start(vec![
        Step::Reply(
            "",
            vec![call("exec", json!({"command": "echo $DEMO_TOKEN"}))],
        ),
        Step::Reply("Done.", vec![]),
    ]);
    let cassette = dir.path().join("c.yaml");
    let (code, _, stderr) = run(try_cmd()
        .env("DEMO_TOKEN", secret)
        .arg(&skill_dir)
        .args([
            "-p",
            "Greet",
            "--base-url",
            &server.openai_base(),
            "--record",
        ])
        .arg(&cassette));
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert!(!text.contains(secret), "{text}");
    assert!(text.contains("{secret:DEMO_TOKEN}"), "{text}");

    // A GitHub token in a file the model reads, not held in any env var: nothing is written.
    let token = "ghp_8fK2mQ9xL4vB7nR1tY6wE3zA5cD0hJ2sP9uI";
    let server = ModelServer::start(vec![
        Step::Reply("", vec![call("read_file", json!({"path": "notes.txt"}))]),
        Step::Reply("Done.", vec![]),
    ]);
    let ws = dir.path().join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("notes.txt"), format!("token: {token}\n")).unwrap();
    let leaky = dir.path().join("leaky.yaml");
    let (code, _, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args([
            "-p",
            "Greet",
            "--base-url",
            &server.openai_base(),
            "--workspace",
        ])
        .arg(&ws)
        .arg("--record")
        .arg(&leaky));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("not written: the recording holds a GitHub token ('ghp_8fK2…')"),
        "{stderr}"
    );
    assert!(!leaky.exists());
    assert!(!stderr.contains(token));
}

#[test]
fn provider_errors_retries_and_cut_streams_end_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let go = |server: &ModelServer, extra: &[&str]| {
        run(try_cmd()
            .arg(&skill_dir)
            .args(["-p", "Greet", "--base-url", &server.openai_base()])
            .args(extra))
    };

    // 429 with Retry-After, then an answer.
    let server = ModelServer::start(vec![
        Step::Status(429, Some(1), "slow down"),
        Step::Reply("Hi.", vec![]),
    ]);
    let started = std::time::Instant::now();
    let (code, stdout, stderr) = go(&server, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("Hi."));
    assert_eq!(server.calls(), 2);
    assert!(started.elapsed() >= std::time::Duration::from_millis(900));

    // 503 three times: the retries are bounded and the body is shown.
    let server = ModelServer::start(vec![
        Step::Status(503, None, "overloaded"),
        Step::Status(503, None, "overloaded"),
        Step::Status(503, None, "overloaded"),
        Step::Reply("never", vec![]),
    ]);
    let (code, _, stderr) = go(&server, &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("HTTP 503: overloaded"), "{stderr}");
    assert_eq!(server.calls(), 3);

    // 401 is not retried.
    let server = ModelServer::start(vec![Step::Status(401, None, "invalid api key")]);
    let (code, _, stderr) = go(&server, &[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("HTTP 401: invalid api key"), "{stderr}");

    let server = ModelServer::start(vec![Step::CutStream]);
    let (code, _, stderr) = go(&server, &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("the stream ended before the answer was complete"),
        "{stderr}"
    );

    let server = ModelServer::start(vec![Step::NoChoices]);
    let (code, _, stderr) = go(&server, &["--no-stream"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("the response has no choices"), "{stderr}");

    let server = ModelServer::start(vec![Step::CutStream]);
    let (code, _, stderr) = run(try_cmd().arg(&skill_dir).args([
        "-p",
        "Greet",
        "--provider",
        "anthropic",
        "--base-url",
        &server.url,
    ]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("the stream ended before the answer was complete"),
        "{stderr}"
    );

    // Nothing listens: a clear network error.
    let (code, _, stderr) =
        run(try_cmd()
            .arg(&skill_dir)
            .args(["-p", "Greet", "--base-url", "http://127.0.0.1:9/v1"]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("http://127.0.0.1:9/v1/chat/completions"),
        "{stderr}"
    );

    // No key for the real host: say which variable to set, call nothing.
    let (code, _, stderr) = run(try_cmd().arg(&skill_dir).args(["-p", "Greet"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("OPENAI_API_KEY is not set"), "{stderr}");
}

#[test]
fn bad_tool_calls_become_results_the_model_can_read() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let server = ModelServer::start(vec![
        Step::Reply(
            "",
            vec![
                ("read_file", "{\"path\": ".to_owned()),
                call("launch_rocket", json!({})),
                call("read_file", json!({})),
                call("read_file", json!({"path": "../../etc/passwd"})),
            ],
        ),
        Step::Reply("Sorry.", vec![]),
    ]);
    let (code, stdout, stderr) = run(try_cmd().arg(&skill_dir).args([
        "-p",
        "Greet",
        "--base-url",
        &server.openai_base(),
        "--json",
    ]));
    assert_eq!(code, 0, "{stderr}");
    let messages = json(&stdout)["messages"].clone();
    let results: Vec<&str> = (3..7)
        .map(|i| messages[i]["content"].as_str().unwrap())
        .collect();
    assert!(
        results[0].starts_with("Error: Invalid arguments for tool 'read_file': not valid JSON"),
        "{results:?}"
    );
    assert_eq!(results[1], "Error: Tool 'launch_rocket' not found");
    assert!(
        results[2].contains("Invalid parameters for tool 'read_file': missing field `path`"),
        "{results:?}"
    );
    assert_eq!(
        results[3],
        "Error: Access denied: ../../etc/passwd is outside the workspace"
    );
    assert_eq!(json(&stdout)["skills_read"], json!([]));
}

#[test]
fn the_turn_limit_stops_a_model_that_never_answers() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let looping = || Step::Reply("", vec![call("list_dir", json!({"path": "."}))]);
    let server = ModelServer::start(vec![looping(), looping(), looping()]);
    let (code, stdout, _) = run(try_cmd().arg(&skill_dir).args([
        "-p",
        "Greet",
        "--max-turns",
        "2",
        "--base-url",
        &server.openai_base(),
    ]));
    assert_eq!(code, 1);
    assert_eq!(server.calls(), 2);
    let stdout = normalise(&stdout, dir.path());
    snapshots().bind(|| insta::assert_snapshot!("try-turn-limit", stdout));
}

#[test]
fn ctrl_c_during_exec_ends_the_command_too() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let ws = dir.path().join("ws");
    let server = ModelServer::start(vec![
        Step::Reply(
            "",
            vec![call(
                "exec",
                json!({"command": "sleep 3011 & echo started > bg.pid; wait"}),
            )],
        ),
        Step::Reply("never", vec![]),
    ]);
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_skill"))
        .args(["try"])
        .arg(&skill_dir)
        .args([
            "-p",
            "Greet",
            "--base-url",
            &server.openai_base(),
            "--workspace",
        ])
        .arg(&ws)
        .env_remove("OPENAI_API_KEY")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid_file = ws.join("bg.pid");
    let started = std::time::Instant::now();
    while !pid_file.is_file()
        || std::fs::read_to_string(&pid_file)
            .unwrap()
            .trim()
            .is_empty()
    {
        assert!(
            started.elapsed() < std::time::Duration::from_secs(20),
            "exec never ran"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // SAFETY: signalling the child this test started.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let status = child.wait().unwrap();
    assert!(!status.success());
    // Found by its command line in the host's /proc: its own PID may be a namespace's.
    // Killed at once; on a loaded machine the kernel may take a moment to tear it down.
    let alive = || {
        std::fs::read_dir("/proc").unwrap().flatten().any(|e| {
            let dir = e.path();
            std::fs::read(dir.join("cmdline")).is_ok_and(|c| c == b"sleep\x003011\x00")
                && std::fs::read_to_string(dir.join("stat")).is_ok_and(|s| !s.contains(") Z "))
        })
    };
    let since = std::time::Instant::now();
    while alive() && since.elapsed() < std::time::Duration::from_secs(5) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!alive(), "the command's `sleep 3011` outlived Ctrl-C");
}

#[test]
fn the_models_api_key_is_not_in_execs_environment() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let server = ModelServer::start(vec![
        Step::Reply("", vec![call("exec", json!({"command": "env"}))]),
        Step::Reply("Done.", vec![]),
    ]);
    let (code, stdout, stderr) = run(try_cmd()
        .env("OPENAI_API_KEY", "test-key-visible-to-model")
        .env("UNRELATED_SETTING", "still-visible")
        .arg(&skill_dir)
        .args(["-p", "Greet", "--base-url", &server.openai_base(), "--json"]));
    assert_eq!(code, 0, "{stderr}");
    let env = json(&stdout)["messages"][3]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    // The environment is an allow-list: what no skill declares stays out too.
    assert!(env.contains("PATH="), "{env}");
    assert!(!env.contains("still-visible"), "{env}");
    assert!(!env.contains("test-key-visible-to-model"), "{env}");
}

#[test]
fn quiet_prints_the_answer_alone() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let server = ModelServer::start(script());
    let (code, stdout, stderr) = run(try_cmd().arg(&skill_dir).args([
        "-q",
        "-p",
        "Greet the world in a file",
        "--base-url",
        &server.openai_base(),
    ]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stdout, "Wrote hello.txt.\n");
}
