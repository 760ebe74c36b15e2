//! Every request the agent loop sends is one the official SDKs' request types accept: openai
//! 3.57's `CompletionCreateParams(Non)Streaming` and anthropic 2.14's
//! `MessageCreateParams(Non)Streaming`, checked by pydantic's `TypeAdapter` with unknown keys
//! forbidden at every level (`tests/sdk/validate_requests.py`, run by the venv `.ci/run`
//! installs in `target/test-deps/sdk-venv`). The conversations hold what real runs hold: tool
//! results and tool errors, a call the token limit cut off, arguments that are not JSON,
//! parallel calls, a non-zero exit, thinking blocks, and the token settings.

use crate::common;
use common::needs::{Need, lacks};

use common::model_server::{ModelServer, Scripted, Step, call};
use common::{run, skill, write_skill};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const SKILL_MD: &str = "---\nname: demo\ndescription: Writes greeting files. Use when asked to greet someone in a file.\n---\n# Demo\n\nWrite `hello.txt` with the greeting.\n";

fn python() -> PathBuf {
    std::env::var_os("SKILL_SDK_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-deps/sdk-venv/bin/python")
        })
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

/// A long `write_file` call, so the token limit can cut it halfway through its content.
fn long_write() -> (&'static str, String) {
    call(
        "write_file",
        json!({"path": "notes.txt", "content": "a line of notes\n".repeat(40)}),
    )
}

/// The turns of a run that puts every kind of history in its requests. `thinking` gives each
/// turn a signed thinking block (Anthropic with a budget); `shared_index` streams the parallel
/// calls all on index 0.
fn conversation(thinking: bool, shared_index: bool) -> Vec<Step> {
    let think = thinking.then_some(("I should look at the skill first.", "c2lnbmF0dXJl"));
    let turn = |text: &'static str, calls: Vec<(&'static str, String)>| Scripted {
        text,
        calls,
        thinking: think,
        ..Scripted::default()
    };
    vec![
        Step::Scripted(Scripted {
            shared_index,
            ..turn(
                "Reading the skill.",
                vec![
                    call("read_file", json!({"path": "skills/demo/SKILL.md"})),
                    call("read_file", json!({"path": "missing.txt"})),
                ],
            )
        }),
        Step::Scripted(Scripted {
            cut_off: true,
            ..turn("", vec![long_write()])
        }),
        Step::Scripted(turn("", vec![call("list_dir", json!({"path": "."}))])),
        Step::Scripted(turn("", vec![("read_file", "{\"path\": ".to_owned())])),
        Step::Scripted(turn(
            "",
            vec![call("exec", json!({"command": "echo hi; exit 3"}))],
        )),
        Step::Scripted(turn("Wrote nothing; done.", vec![])),
    ]
}

/// Runs `skill try` against a server playing `script` with `flags`; returns its requests.
fn requests(skill_dir: &Path, script: Vec<Step>, anthropic: bool, flags: &[&str]) -> Vec<Value> {
    let server = ModelServer::start(script);
    let base = if anthropic {
        server.url.clone()
    } else {
        server.openai_base()
    };
    let provider = if anthropic { "anthropic" } else { "openai" };
    let (code, stdout, stderr) = run(try_cmd()
        .arg(skill_dir)
        .args(["-p", "Greet the world in a file", "--max-turns", "10"])
        .args(["--provider", provider, "--base-url", &base])
        .args(flags));
    assert_eq!(code, 0, "{flags:?}\n{stdout}\n{stderr}");
    server.requests()
}

#[test]
fn every_request_matches_the_official_sdk_types() {
    if lacks(&[Need::Sdk]) {
        return;
    }
    let python = python();
    assert!(
        python.is_file(),
        "{} is missing: run .ci/run, which installs openai==3.57.*, anthropic==2.14.* and pydantic there",
        python.display()
    );
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = write_skill(dir.path(), "demo", SKILL_MD);
    let mut cases = Vec::new();
    let mut add =
        |label: &str, provider: &str, bodies: Vec<Value>, valid: &dyn Fn(&Value) -> bool| {
            for (i, body) in bodies.into_iter().enumerate() {
                cases.push(json!({"label": format!("{label}, request {}", i + 1),
                "provider": provider, "valid": valid(&body), "body": body}));
            }
        };
    let openai_streamed = requests(
        &skill_dir,
        conversation(false, true),
        false,
        &["--max-tokens", "1000"],
    );
    let openai_whole = requests(
        &skill_dir,
        conversation(false, false),
        false,
        &["--no-stream"],
    );
    let anthropic_streamed = requests(
        &skill_dir,
        conversation(true, false),
        true,
        &["--thinking-budget", "2048", "--max-tokens", "4096"],
    );
    let anthropic_whole = requests(
        &skill_dir,
        conversation(false, false),
        true,
        &["--no-stream"],
    );
    // A server that wants names on tool messages: those requests leave the schema, and the
    // validator must say so, or it would not be checking nested keys at all.
    let named = requests(
        &skill_dir,
        vec![
            Step::Reply("", vec![call("list_dir", json!({"path": "."}))]),
            Step::Reply("Done.", vec![]),
        ],
        false,
        &["--model", "needs-tool-names", "--tool-message-name"],
    );

    // The conversations hold what they are meant to: a test that checked less would pass too.
    let last = |bodies: &[Value]| bodies.last().unwrap().to_string();
    for bodies in [&openai_streamed, &openai_whole] {
        assert_eq!(bodies.len(), 6);
        let history = last(bodies);
        assert!(
            history.contains("Error: File not found: missing.txt"),
            "{history}"
        );
        assert!(
            history.contains("cut off at the output token limit"),
            "{history}"
        );
        assert!(history.contains("Exit code: 3"), "{history}");
        assert!(
            history.contains(r#""arguments":"{\"path\": ""#),
            "{history}"
        );
    }
    assert_eq!(openai_streamed[0]["max_completion_tokens"], 1000);
    assert_eq!(
        openai_streamed[0]["stream_options"],
        json!({"include_usage": true})
    );
    for bodies in [&anthropic_streamed, &anthropic_whole] {
        assert_eq!(bodies.len(), 6);
        let history = last(bodies);
        assert!(history.contains(r#""is_error":true"#), "{history}");
        assert!(
            history.contains("cut off at the output token limit"),
            "{history}"
        );
    }
    assert_eq!(
        anthropic_streamed[1]["messages"][1]["content"][0],
        json!({"type": "thinking", "thinking": "I should look at the skill first.", "signature": "c2lnbmF0dXJl"})
    );
    assert_eq!(anthropic_streamed[0]["max_tokens"], 4096);
    assert!(named[1].to_string().contains(r#""name":"list_dir""#));

    let valid = |_: &Value| true;
    add("openai streamed", "openai", openai_streamed, &valid);
    add("openai whole", "openai", openai_whole, &valid);
    add(
        "anthropic streamed",
        "anthropic",
        anthropic_streamed,
        &valid,
    );
    add("anthropic whole", "anthropic", anthropic_whole, &valid);
    add(
        "openai with names on tool messages",
        "openai",
        named,
        &|body: &Value| !body.to_string().contains(r#""role":"tool""#),
    );
    let file = dir.path().join("requests.json");
    std::fs::write(&file, serde_json::to_string(&cases).unwrap()).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk/validate_requests.py");
    let out = std::process::Command::new(&python)
        .arg(&script)
        .arg(&file)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{report}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        report.contains(&format!("{0} of {0} as expected", cases.len())),
        "{report}"
    );
    assert!(
        report.contains("refused openai with names on tool messages, request 2"),
        "{report}"
    );
}
