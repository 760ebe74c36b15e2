//! The example skills: `examples/skills/docker-deploy` carries a scenario whose cassette replays
//! offline. `SKILL_REGENERATE_EXAMPLES=1 cargo test --test integration examples:: -- --ignored` records that
//! cassette again against the scripted model on loopback.

use crate::common;

use common::model_server::{ModelServer, Step, call};
use common::{run, skill};
use serde_json::json;
use std::path::{Path, PathBuf};

fn docker_deploy() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/skills/docker-deploy")
}

fn clean(cmd: &mut assert_cmd::Command) -> &mut assert_cmd::Command {
    for var in [
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "SKILL_RECORD",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

#[test]
fn the_example_scenarios_replay_offline() {
    let (code, stdout, stderr) = run(clean(&mut skill()).arg("test").arg(docker_deploy()));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.contains("PASS  docker-deploy/dockerfile (4 turns"),
        "{stdout}"
    );
    // `skill try` replays it too, given the scenario's workspace file (as the README shows).
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("ws/app")).unwrap();
    std::fs::write(
        tmp.path().join("ws/app/main.py"),
        "print(\"hello from the app\")\n",
    )
    .unwrap();
    let cassette = docker_deploy().join("evals/cassettes/dockerfile.yaml");
    let (code, stdout, stderr) = run(clean(&mut skill())
        .current_dir(tmp.path())
        .arg("try")
        .arg(docker_deploy())
        .args([
            "-p",
            "Write a Dockerfile for the Python app in app/ and tell me how to build it.",
            "--workspace",
            "ws",
            "--replay",
        ])
        .arg(&cassette));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("→ write_file"), "{stdout}");
    assert!(stdout.contains("answered after 4 turns"), "{stdout}");
    assert!(stdout.contains("skills read: docker-deploy"), "{stdout}");
    assert!(
        std::fs::read_to_string(tmp.path().join("ws/Dockerfile"))
            .unwrap()
            .starts_with("FROM python:3.12-slim")
    );

    // --scenario brings the prompt, the files and the cassette along.
    let scenario = docker_deploy().join("evals/dockerfile.yaml");
    let (code, replayed, stderr) = run(clean(&mut skill())
        .env("CI", "true")
        .arg("try")
        .arg(docker_deploy())
        .arg("--scenario")
        .arg(&scenario));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(replayed, stdout);
    let (code, _, stderr) = run(clean(&mut skill())
        .arg("try")
        .arg(docker_deploy())
        .args(["-p", "hi", "--mode", "replay"]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--mode needs --cassette FILE or --scenario FILE"),
        "{stderr}"
    );
}

#[test]
#[ignore = "records the example cassette; run with SKILL_REGENERATE_EXAMPLES=1"]
fn regenerate_the_example_cassette() {
    if std::env::var_os("SKILL_REGENERATE_EXAMPLES").is_none() {
        return;
    }
    let server = ModelServer::start(vec![
        Step::Reply(
            "I'll read the docker-deploy skill and look at the app first.",
            vec![
                call(
                    "read_file",
                    json!({"path": "skills/docker-deploy/SKILL.md"}),
                ),
                call("list_dir", json!({"path": "app"})),
            ],
        ),
        Step::Reply("", vec![call("read_file", json!({"path": "app/main.py"}))]),
        Step::Reply(
            "",
            vec![call(
                "write_file",
                json!({"path": "Dockerfile", "content": "FROM python:3.12-slim\nWORKDIR /app\nCOPY app/ .\nCMD [\"python\", \"main.py\"]\n"}),
            )],
        ),
        Step::Reply(
            "I wrote a Dockerfile that runs app/main.py on python:3.12-slim. Build it with `docker build -t app .` and run it with `docker run --rm app`.",
            vec![],
        ),
    ]);
    let (code, stdout, stderr) = run(clean(&mut skill())
        .arg("test")
        .arg(docker_deploy())
        .args(["--mode", "record", "--model", "scripted-stand-in"])
        .args(["--base-url", &server.openai_base()]));
    assert_eq!(code, 0, "{stdout}{stderr}");
}
