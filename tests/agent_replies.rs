//! `skill try` and `skill test` on the replies real providers send, from a scripted server on
//! loopback, for both providers, streamed and whole: refusals, answers and tool calls the token
//! limit cut off, parallel calls streamed on one index, tool messages and token settings as
//! each API takes them, errors in the middle of a stream, failed tools, thinking blocks, and
//! secrets printed in part. Each test asserts what the user sees and the stop reason recorded.

use crate::common;

use common::model_server::{ModelServer, Scripted, Step, call};
use common::{json, run, skill, write_skill};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

const SKILL_MD: &str = "---\nname: demo\ndescription: Writes greeting files. Use when asked to greet someone in a file.\n---\n# Demo\n\nWrite `hello.txt` with the greeting.\n";

fn demo_skill(dir: &Path) -> PathBuf {
    write_skill(dir, "demo", SKILL_MD)
}

/// `skill try` with no keys, base URLs or config from the machine running the tests.
fn try_cmd() -> assert_cmd::Command {
    let mut cmd = skill();
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "SKILL_RECORD",
        "SKILL_PROVIDER",
        "SKILL_MODEL",
        "CI",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("SKILL_CONFIG_DIR", "/nonexistent/skill-config");
    cmd.arg("try");
    cmd
}

/// One way of talking to a provider.
#[derive(Debug, Clone, Copy)]
struct Api {
    anthropic: bool,
    stream: bool,
}

/// Both providers, streamed and whole.
const APIS: [Api; 4] = [
    Api {
        anthropic: false,
        stream: true,
    },
    Api {
        anthropic: false,
        stream: false,
    },
    Api {
        anthropic: true,
        stream: true,
    },
    Api {
        anthropic: true,
        stream: false,
    },
];

impl Api {
    /// The flags that point `skill try` at `server` this way.
    fn flags(self, server: &ModelServer) -> Vec<String> {
        let mut flags = vec![
            "--provider".to_owned(),
            if self.anthropic {
                "anthropic"
            } else {
                "openai"
            }
            .to_owned(),
            "--base-url".to_owned(),
            if self.anthropic {
                server.url.clone()
            } else {
                server.openai_base()
            },
        ];
        if !self.stream {
            flags.push("--no-stream".to_owned());
        }
        flags
    }
}

/// Runs `skill try` on the demo skill against a server playing `script`; returns the server
/// (with its requests) and (exit code, stdout, stderr).
fn go(
    api: Api,
    skill_dir: &Path,
    script: Vec<Step>,
    extra: &[&str],
) -> (ModelServer, (i32, String, String)) {
    let server = ModelServer::start(script);
    let out = run(try_cmd()
        .arg(skill_dir)
        .args(["-p", "Greet the world in a file"])
        .args(api.flags(&server))
        .args(extra));
    (server, out)
}

fn scripted(reply: Scripted) -> Step {
    Step::Scripted(reply)
}

#[test]
fn refusals_are_the_answer_marked_as_a_refusal() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let refusal = || {
        scripted(Scripted {
            refusal: Some("I can't help with that."),
            ..Scripted::default()
        })
    };
    for api in APIS {
        let (_server, (code, stdout, stderr)) = go(api, &skill_dir, vec![refusal()], &["--json"]);
        assert_eq!(code, 1, "{api:?}: {stdout}{stderr}");
        let transcript = json(&stdout);
        assert_eq!(transcript["stop"], "refusal", "{api:?}");
        assert_eq!(
            transcript["final_answer"], "I can't help with that.",
            "{api:?}"
        );

        let (_server, (code, stdout, _)) = go(api, &skill_dir, vec![refusal()], &[]);
        assert_eq!(code, 1, "{api:?}");
        assert!(
            stdout.contains("refused after 1 turn · stop: refusal"),
            "{api:?}: {stdout}"
        );
        assert!(
            stdout.contains("I can't help with that."),
            "{api:?}: {stdout}"
        );
    }
    // OpenAI's refusal is a field of its own: the live view labels it.
    let api = APIS[0];
    let (_server, (_, stdout, _)) = go(api, &skill_dir, vec![refusal()], &[]);
    assert!(
        stdout.contains("refusal: I can't help with that.\n"),
        "{stdout}"
    );

    // The cassette keeps the refusal and the stop; the replay stops the same way.
    let cassette = dir.path().join("refusal.yaml");
    let (_server, (code, _, stderr)) = go(
        api,
        &skill_dir,
        vec![refusal()],
        &["--record", cassette.to_str().unwrap()],
    );
    assert_eq!(code, 1, "{stderr}");
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert!(text.contains("\nstop: refusal\n"), "{text}");
    assert!(text.contains("refusal: I can't help with that."), "{text}");
    let (code, stdout, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet the world in a file", "--json", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(json(&stdout)["stop"], "refusal");
}

#[test]
fn an_answer_the_token_limit_cut_off_is_length_and_exits_non_zero() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let cut = || {
        scripted(Scripted {
            text: "The three steps are: first",
            cut_off: true,
            ..Scripted::default()
        })
    };
    for api in APIS {
        let (_server, (code, stdout, stderr)) = go(api, &skill_dir, vec![cut()], &["--json"]);
        assert_eq!(code, 1, "{api:?}: {stdout}{stderr}");
        let transcript = json(&stdout);
        assert_eq!(transcript["stop"], "length", "{api:?}");
        assert_eq!(transcript["final_answer"], "The three steps are: first");

        let (_server, (code, stdout, _)) = go(api, &skill_dir, vec![cut()], &[]);
        assert_eq!(code, 1);
        assert!(
            stdout.contains("cut off at the output token limit after 1 turn · stop: length"),
            "{api:?}: {stdout}"
        );
        assert!(stdout.contains("raise --max-tokens"), "{stdout}");
    }
    let cassette = dir.path().join("cut.yaml");
    let (_server, (code, _, _)) = go(
        APIS[2],
        &skill_dir,
        vec![cut()],
        &["--record", cassette.to_str().unwrap()],
    );
    assert_eq!(code, 1);
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert!(text.contains("\nstop: length\n"), "{text}");
    assert!(text.contains("stop_reason: max_tokens"), "{text}");
}

fn test_cmd() -> assert_cmd::Command {
    let mut cmd = skill();
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "SKILL_RECORD",
    ] {
        cmd.env_remove(var);
    }
    cmd.env("SKILL_CONFIG_DIR", "/nonexistent/skill-config");
    cmd.arg("test");
    cmd
}

#[test]
fn skill_test_fails_a_cut_off_answer_unless_the_scenario_expects_it() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    std::fs::create_dir_all(skill_dir.join("evals")).unwrap();
    let scenario = skill_dir.join("evals/steps.yaml");
    std::fs::write(
        &scenario,
        "prompt: List the steps.\nexpect:\n  final_answer: steps\n",
    )
    .unwrap();
    let server = ModelServer::start(vec![scripted(Scripted {
        text: "The three steps are: first",
        cut_off: true,
        ..Scripted::default()
    })]);
    let (code, stdout, stderr) = run(test_cmd().arg(&skill_dir).args([
        "--mode",
        "record",
        "--base-url",
        &server.openai_base(),
    ]));
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(
        stdout.contains("FAIL  demo/steps (1 turn, stop: length,"),
        "{stdout}"
    );
    assert!(
        stdout.contains(
            "- the final answer was cut off at the output token limit (stop: length, the scenario expects stop: answer)"
        ),
        "{stdout}"
    );
    let cassette = std::fs::read_to_string(skill_dir.join("evals/cassettes/steps.yaml")).unwrap();
    assert!(cassette.contains("\nstop: length\n"), "{cassette}");

    // A scenario about the limit says so, and then the same replay passes.
    std::fs::write(
        &scenario,
        "prompt: List the steps.\nexpect:\n  final_answer: steps\n  stop: length\n",
    )
    .unwrap();
    let (code, stdout, stderr) = run(test_cmd().arg(&skill_dir));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("PASS  demo/steps (1 turn, stop: length,"),
        "{stdout}"
    );

    std::fs::write(
        &scenario,
        "prompt: List the steps.\nexpect:\n  stop: finished\n",
    )
    .unwrap();
    let (code, stdout, _) = run(test_cmd().arg(&skill_dir));
    assert_eq!(code, 1);
    assert!(stdout.contains("ERROR demo/steps"), "{stdout}");
    assert!(stdout.contains("unknown variant `finished`"), "{stdout}");
}

#[test]
fn a_tool_call_cut_off_mid_arguments_is_not_run_and_a_repeat_stops_the_loop() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let (name, args) = call(
        "write_file",
        json!({"content": "notes, ".repeat(60), "path": "notes.txt"}),
    );
    // Keys are sorted, and the content has no escapes: the cut falls inside it, as it is.
    assert!(args.starts_with("{\"content\":\"notes, "));
    let sent = args[..args.len() / 2].to_owned();
    let cut = || {
        scripted(Scripted {
            calls: vec![(name, args.clone())],
            cut_off: true,
            ..Scripted::default()
        })
    };
    for api in APIS {
        let ws = dir
            .path()
            .join(format!("ws-{}-{}", api.anthropic, api.stream));
        let (server, (code, stdout, stderr)) = go(
            api,
            &skill_dir,
            vec![cut(), cut(), Step::Reply("never", vec![])],
            &["--json", "--workspace", ws.to_str().unwrap()],
        );
        assert_eq!(code, 1, "{api:?}: {stdout}{stderr}");
        let transcript = json(&stdout);
        assert_eq!(transcript["stop"], "length", "{api:?}");
        assert_eq!(transcript["turns"], 2, "{api:?}");
        assert_eq!(server.calls(), 2, "{api:?}");
        assert!(
            !ws.join("notes.txt").exists(),
            "{api:?}: the cut-off call ran"
        );
        let result = &transcript["messages"][3];
        assert_eq!(result["is_error"], true, "{api:?}");
        assert!(
            result["content"]
                .as_str()
                .unwrap()
                .contains("cut off at the output token limit"),
            "{api:?}: {result}"
        );
        // The history keeps what the model sent.
        let history = &server.requests()[1]["messages"];
        if api.anthropic {
            let input = &history[1]["content"][0]["input"];
            let expected = if api.stream {
                // What parses of the cut text, as the SDK keeps it; never an empty call.
                json!({"content": &sent["{\"content\":\"".len()..]})
            } else {
                serde_json::from_str::<Value>(&args).unwrap()
            };
            assert_eq!(input, &expected, "{api:?}");
            assert_eq!(history[2]["content"][0]["is_error"], true);
        } else {
            assert_eq!(history[2]["tool_calls"][0]["function"]["arguments"], sent);
        }
    }

    // Told why, the model can write in parts: the run goes on.
    let ws = dir.path().join("ws-parts");
    let (_server, (code, stdout, stderr)) = go(
        APIS[0],
        &skill_dir,
        vec![
            cut(),
            Step::Reply(
                "",
                vec![call(
                    "write_file",
                    json!({"path": "notes.txt", "content": "short\n"}),
                )],
            ),
            Step::Reply("Wrote notes.txt.", vec![]),
        ],
        &["--json", "--workspace", ws.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert_eq!(json(&stdout)["stop"], "answer");
    assert_eq!(
        std::fs::read_to_string(ws.join("notes.txt")).unwrap(),
        "short\n"
    );

    // Arguments that are not JSON, twice, without any cut-off: the loop stops too.
    let garbled = || Step::Reply("", vec![("read_file", "{\"path\": ".to_owned())]);
    let (server, (code, stdout, _)) = go(
        APIS[0],
        &skill_dir,
        vec![garbled(), garbled(), garbled()],
        &[],
    );
    assert_eq!(code, 1);
    assert_eq!(server.calls(), 2);
    assert!(
        stdout.contains("after 2 turns · stop: bad_tool_calls"),
        "{stdout}"
    );
}

#[test]
fn parallel_calls_streamed_on_one_index_stay_apart() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let (server, (code, stdout, stderr)) = go(
        APIS[0],
        &skill_dir,
        vec![
            scripted(Scripted {
                calls: vec![
                    call("list_dir", json!({"path": "."})),
                    call("read_file", json!({"path": "skills/demo/SKILL.md"})),
                ],
                shared_index: true,
                ..Scripted::default()
            }),
            Step::Reply("Done.", vec![]),
        ],
        &["--json"],
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    let transcript = json(&stdout);
    let calls = &transcript["messages"][2]["tool_calls"];
    assert_eq!(calls[0]["id"], "call_0");
    assert_eq!(calls[0]["name"], "list_dir");
    assert_eq!(calls[0]["arguments"], "{\"path\":\".\"}");
    assert_eq!(calls[1]["id"], "call_1");
    assert_eq!(calls[1]["name"], "read_file");
    assert_eq!(transcript["messages"][4]["content"], SKILL_MD);
    assert_eq!(transcript["skills_read"], json!(["demo"]));
    assert_eq!(
        server.requests()[1]["messages"][2]["tool_calls"][1]["id"],
        "call_1"
    );
}

#[test]
fn tool_messages_follow_the_schema_unless_a_server_needs_names() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let script = || {
        vec![
            Step::Reply("", vec![call("list_dir", json!({"path": "."}))]),
            Step::Reply("Done.", vec![]),
        ]
    };
    // The scripted server refuses `name` on tool messages, as strict gateways do.
    let (server, (code, _, stderr)) = go(APIS[0], &skill_dir, script(), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(server.requests()[1]["messages"][3].get("name").is_none());

    let needs = ["--model", "needs-tool-names"];
    let (_server, (code, _, stderr)) = go(APIS[0], &skill_dir, script(), &needs);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("HTTP 400: tool messages need a name"),
        "{stderr}"
    );
    let (server, (code, _, stderr)) = go(
        APIS[1],
        &skill_dir,
        script(),
        &["--model", "needs-tool-names", "--tool-message-name"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(server.requests()[1]["messages"][3]["name"], "list_dir");

    // The project's skill.toml can say so instead.
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("skill.toml"), "tool_message_name = true\n").unwrap();
    let server = ModelServer::start(script());
    let (code, _, stderr) = run(try_cmd()
        .current_dir(&project)
        .arg(&skill_dir)
        .args(["-p", "Greet", "--model", "needs-tool-names"])
        .args(APIS[0].flags(&server)));
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn max_tokens_is_set_as_each_api_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let answer = || vec![Step::Reply("Hi.", vec![])];
    // An older model caps at 4096: the default of 8192 is refused, --max-tokens fixes it.
    let haiku = ["--model", "claude-3-haiku-20240307"];
    let (_server, (code, _, stderr)) = go(APIS[2], &skill_dir, answer(), &haiku);
    assert_eq!(code, 2);
    assert!(stderr.contains("max_tokens: 8192 > 4096"), "{stderr}");
    for api in [APIS[2], APIS[3]] {
        let (server, (code, _, stderr)) = go(
            api,
            &skill_dir,
            answer(),
            &["--model", "claude-3-haiku-20240307", "--max-tokens", "4096"],
        );
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(server.requests()[0]["max_tokens"], 4096);
    }
    for api in [APIS[0], APIS[1]] {
        let (server, (code, _, stderr)) = go(api, &skill_dir, answer(), &["--max-tokens", "500"]);
        assert_eq!(code, 0, "{stderr}");
        let body = &server.requests()[0];
        assert_eq!(body["max_completion_tokens"], 500);
        assert!(body.get("max_tokens").is_none(), "{body}");
        let (server, _) = go(api, &skill_dir, answer(), &[]);
        assert!(server.requests()[0].get("max_completion_tokens").is_none());
    }

    // The config file sets it too; a flag wins over it.
    let project = dir.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("skill.toml"), "max_tokens = 4096\n").unwrap();
    for (flags, expected) in [(vec![], 4096), (vec!["--max-tokens", "2000"], 2000)] {
        let server = ModelServer::start(answer());
        let (code, _, stderr) = run(try_cmd()
            .current_dir(&project)
            .arg(&skill_dir)
            .args(["-p", "Greet"])
            .args(haiku)
            .args(APIS[2].flags(&server))
            .args(flags));
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(server.requests()[0]["max_tokens"], expected);
    }

    // Settings the API would refuse are refused before any request.
    for (flags, message) in [
        (
            vec!["--provider", "anthropic", "--thinking-budget", "9000"],
            "the thinking budget (9000 tokens) must be below max tokens (8192)",
        ),
        (
            vec!["--provider", "anthropic", "--thinking-budget", "100"],
            "Anthropic's API takes at least 1024",
        ),
        (
            vec!["--thinking-budget", "2048"],
            "a thinking budget is for Anthropic's API",
        ),
    ] {
        let (code, _, stderr) = run(try_cmd()
            .arg(&skill_dir)
            .args(["-p", "Greet", "--base-url", "http://127.0.0.1:9"])
            .args(flags));
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
    }
    let (code, _, stderr) =
        run(try_cmd()
            .arg(&skill_dir)
            .args(["-p", "Greet", "--max-tokens", "0"]));
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn errors_mid_stream_name_the_provider_error_and_are_retried_before_any_text() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    let failing = |text: &'static str, anthropic: bool| {
        scripted(Scripted {
            text,
            error: Some(if anthropic {
                ("overloaded_error", "Overloaded")
            } else {
                (
                    "server_error",
                    "The server had an error processing your request.",
                )
            }),
            ..Scripted::default()
        })
    };
    for api in [APIS[0], APIS[2]] {
        let named = if api.anthropic {
            "the provider reported overloaded_error: Overloaded"
        } else {
            "the provider reported server_error: The server had an error processing your request."
        };
        // Before any text: asked again, like a 529.
        let (server, (code, stdout, stderr)) = go(
            api,
            &skill_dir,
            vec![failing("", api.anthropic), Step::Reply("Hello.", vec![])],
            &[],
        );
        assert_eq!(code, 0, "{api:?}: {stderr}");
        assert_eq!(server.calls(), 2);
        assert!(stdout.contains("Hello."), "{stdout}");

        // Again and again: the retries are bounded, and the error says what the provider said.
        let (server, (code, _, stderr)) = go(
            api,
            &skill_dir,
            vec![
                failing("", api.anthropic),
                failing("", api.anthropic),
                failing("", api.anthropic),
                Step::Reply("never", vec![]),
            ],
            &[],
        );
        assert_eq!(code, 2);
        assert_eq!(server.calls(), 3);
        assert!(stderr.contains(named), "{stderr}");

        // After text: not asked again; the partial line is finished before the error.
        let (server, (code, stdout, stderr)) = go(
            api,
            &skill_dir,
            vec![
                failing("Half an answ", api.anthropic),
                Step::Reply("never", vec![]),
            ],
            &[],
        );
        assert_eq!(code, 2);
        assert_eq!(server.calls(), 1);
        assert!(stderr.contains(named), "{stderr}");
        assert!(!stderr.contains("unexpected response"), "{stderr}");
        assert!(stdout.contains("Half an answ\n"), "{stdout}");
        assert!(
            stdout.contains("stopped by an error after 1 turn · stop: error"),
            "{stdout}"
        );
        let (_server, (code, stdout, _)) = go(
            api,
            &skill_dir,
            vec![failing("Half an answ", api.anthropic)],
            &["--json"],
        );
        assert_eq!(code, 2);
        let transcript = json(&stdout);
        assert_eq!(transcript["stop"], "error");
        assert!(
            transcript["error"].as_str().unwrap().contains(named),
            "{transcript}"
        );
    }
}

#[test]
fn failed_tools_are_marked_is_error_for_anthropic() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    for api in [APIS[2], APIS[3]] {
        let (server, (code, stdout, stderr)) = go(
            api,
            &skill_dir,
            vec![
                Step::Reply(
                    "",
                    vec![
                        call("read_file", json!({"path": "missing.txt"})),
                        call("read_file", json!({"path": "skills/demo/SKILL.md"})),
                    ],
                ),
                Step::Reply("Done.", vec![]),
            ],
            &["--json"],
        );
        assert_eq!(code, 0, "{stderr}");
        let results = &server.requests()[1]["messages"][2]["content"];
        assert_eq!(results[0]["is_error"], true, "{results}");
        assert!(results[1].get("is_error").is_none(), "{results}");
        let transcript = json(&stdout);
        assert_eq!(transcript["messages"][3]["is_error"], true);
        assert!(transcript["messages"][4].get("is_error").is_none());
    }

    // A cassette recorded before failures were marked still replays: the mark follows from
    // the result, which is compared.
    let cassette = dir.path().join("failed.yaml");
    let (_server, (code, _, stderr)) = go(
        APIS[2],
        &skill_dir,
        vec![
            Step::Reply("", vec![call("read_file", json!({"path": "missing.txt"}))]),
            Step::Reply("Done.", vec![]),
        ],
        &["--record", cassette.to_str().unwrap()],
    );
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert!(text.contains("is_error: true"), "{text}");
    std::fs::write(&cassette, text.replace("      is_error: true\n", "")).unwrap();
    assert!(
        !std::fs::read_to_string(&cassette)
            .unwrap()
            .contains("is_error")
    );
    let (code, _, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet the world in a file", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn thinking_blocks_go_back_with_their_signatures() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = demo_skill(dir.path());
    // With thinking on, the server refuses a tool-calling turn sent back without its block.
    let script = || {
        vec![
            scripted(Scripted {
                thinking: Some(("I should list the folder.", "c2lnLUFiMw==")),
                calls: vec![call("list_dir", json!({"path": "."}))],
                ..Scripted::default()
            }),
            scripted(Scripted {
                thinking: Some(("It is all there.", "c2lnLUNkNA==")),
                text: "Done.",
                ..Scripted::default()
            }),
        ]
    };
    let budget = ["--thinking-budget", "2048"];
    for api in [APIS[2], APIS[3]] {
        let (server, (code, stdout, stderr)) = go(api, &skill_dir, script(), &budget);
        assert_eq!(code, 0, "{api:?}: {stderr}");
        let requests = server.requests();
        assert_eq!(
            requests[0]["thinking"],
            json!({"type": "enabled", "budget_tokens": 2048})
        );
        assert_eq!(
            requests[1]["messages"][1]["content"][0],
            json!({"type": "thinking", "thinking": "I should list the folder.", "signature": "c2lnLUFiMw=="})
        );
        assert!(
            stdout.contains("thinking: I should list the folder."),
            "{stdout}"
        );
        assert!(stdout.contains("Done."), "{stdout}");
    }
    // Recorded with the blocks, replayed offline the same.
    let cassette = dir.path().join("thinking.yaml");
    let (_server, (code, _, stderr)) = go(
        APIS[2],
        &skill_dir,
        script(),
        &[
            "--thinking-budget",
            "2048",
            "--record",
            cassette.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert!(text.contains("signature: c2lnLUFiMw=="), "{text}");
    let (code, stdout, stderr) = run(try_cmd()
        .arg(&skill_dir)
        .args(["-p", "Greet the world in a file", "--json", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        json(&stdout)["messages"][2]["thinking"][0]["signature"],
        "c2lnLUFiMw=="
    );
}

#[test]
fn any_long_part_of_a_secret_is_redacted_in_cassettes() {
    let dir = tempfile::tempdir().unwrap();
    let skill_dir = write_skill(
        dir.path(),
        "demo",
        SKILL_MD.replace(
            "---\n# Demo",
            "metadata: {\"openclaw\": {\"requires\": {\"env\": [\"DEMO_TOKEN\"]}}}\n---\n# Demo",
        ),
    );
    let secret = "s3cr3t-Value-9f8e7d6c5b4a3f2e1d0c9b8a76"; // 39 characters
    assert_eq!(secret.len(), 39);
    let script = || {
        vec![
            Step::Reply(
                "",
                vec![call(
                    "exec",
                    json!({"command": "printf '%s\\n' \"$DEMO_TOKEN\" | cut -c1-31; printf '%s\\n' \"$DEMO_TOKEN\" | cut -c9-20"}),
                )],
            ),
            Step::Reply("Done.", vec![]),
        ]
    };
    let cassette = dir.path().join("c.yaml");
    let server = ModelServer::start(script());
    let (code, stdout, stderr) = run(try_cmd()
        .env("DEMO_TOKEN", secret)
        .arg(&skill_dir)
        .args([
            "-p",
            "Greet",
            "--base-url",
            &server.openai_base(),
            "--json",
            "--record",
        ])
        .arg(&cassette));
    assert_eq!(code, 0, "{stderr}");
    // The command did print the parts: the run saw them, the cassette does not.
    let output = json(&stdout)["messages"][3]["content"].to_string();
    assert!(output.contains(&secret[..31]), "{output}");
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert!(!text.contains(&secret[..31]), "{text}");
    assert!(!text.contains(&secret[8..20]), "{text}");
    assert!(!text.contains(&secret[..12]), "{text}");
    assert!(text.contains("{secret:DEMO_TOKEN[0..31]}"), "{text}");
    assert!(text.contains("{secret:DEMO_TOKEN[8..20]}"), "{text}");

    // The replay, given the token by name (a replay passes nothing declared by itself), prints
    // the same parts, which normalise the same: it matches.
    let (code, _, stderr) = run(try_cmd()
        .env("DEMO_TOKEN", secret)
        .arg(&skill_dir)
        .args(["-p", "Greet", "--pass-env", "DEMO_TOKEN", "--replay"])
        .arg(&cassette));
    assert_eq!(code, 0, "{stderr}");
}
