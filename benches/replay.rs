//! `cargo bench --bench replay`: `skill try --replay` of a 50-exchange cassette with trivial
//! tools (`list_dir`), the whole process, against the target of 100 ms beyond the tools' own
//! time. No peer has record/replay, so the figure stands alone.

use skill_agent::message::{Reply, ToolCall, Usage};
use skill_agent::r#try::{Answers, Trial, run_trial};
use std::process::Command;
use std::time::{Duration, Instant};

const EXCHANGES: usize = 50;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let skill_dir = dir.path().join("bench-skill");
    std::fs::create_dir_all(&skill_dir).expect("skill dir");
    std::fs::write(
        skill_dir.join("SKILL.md"),
        "---\nname: bench-skill\ndescription: Lists folders. Use when asked what is in a folder.\n---\n# Bench\n\nCall list_dir.\n",
    )
    .expect("SKILL.md");
    let cassette = dir.path().join("bench.yaml");
    let reply = |text: &str, calls: Vec<ToolCall>| Reply {
        text: text.to_owned(),
        tool_calls: calls,
        usage: Usage {
            input: 1000,
            output: 20,
        },
        stop_reason: String::new(),
        ..Reply::default()
    };
    let mut script: Vec<Reply> = (0..EXCHANGES - 1)
        .map(|i| {
            reply(
                "Looking.",
                vec![ToolCall {
                    id: format!("call_{i}"),
                    name: "list_dir".to_owned(),
                    arguments: "{\"path\": \"skills\"}".to_owned(),
                }],
            )
        })
        .collect();
    script.push(reply("Done.", Vec::new()));
    let trial = Trial {
        skills: vec![skill_dir.clone()],
        workspace: None,
        files: Vec::new(),
        prompt: "What is in skills/?".to_owned(),
        max_turns: EXCHANGES,
        exec_timeout: Duration::from_secs(60),
        answers: Answers::Script(script, cassette.clone()),
        rerecord: String::new(),
        confinement: Default::default(),
        env: skill_agent::r#try::PassEnv::Chosen(Default::default()),
        loading: Default::default(),
        stop_at_route: false,
    };
    run_trial(&trial, &mut |_| {}).expect("recording the cassette");
    let size = std::fs::metadata(&cassette).map(|m| m.len()).unwrap_or(0);

    let mut walls = Vec::new();
    let mut beyond = Vec::new();
    for _ in 0..20 {
        let started = Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_skill"))
            .arg("try")
            .arg(&skill_dir)
            .args([
                "-p",
                "What is in skills/?",
                "--max-turns",
                "60",
                "--json",
                "--replay",
            ])
            .arg(&cassette)
            .output()
            .expect("skill runs");
        let wall = started.elapsed();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let transcript: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("JSON transcript");
        assert_eq!(transcript["turns"], EXCHANGES);
        let tools = Duration::from_millis(transcript["tool_ms"].as_u64().unwrap_or(0));
        walls.push(wall);
        beyond.push(wall.saturating_sub(tools));
    }
    walls.sort();
    beyond.sort();
    println!(
        "replay of {EXCHANGES} exchanges ({} KiB cassette): process wall median {:?} (best {:?}); beyond the tools median {:?} (target < 100 ms)",
        size / 1024,
        walls[walls.len() / 2],
        walls[0],
        beyond[beyond.len() / 2],
    );
}
