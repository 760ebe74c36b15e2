//! `skill test`: starter scenarios from `skill new` and `--init`, scenarios recorded against a
//! scripted model and replayed offline, every kind of expectation failing and passing, JUnit
//! output, broken scenario files, and the builtin skills' scenarios.

use crate::common;

use common::model_server::{ModelServer, Step, call};
use common::{normalise, run, skill, snapshots, write_skill};
use serde_json::json;
use std::path::Path;

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
    cmd.arg("test");
    cmd
}

#[test]
fn every_template_ships_a_passing_scenario_that_catches_edits() {
    let tmp = tempfile::tempdir().unwrap();
    for template in ["basic", "cli-tool", "scripted"] {
        let name = format!("t-{template}");
        let (code, stdout, stderr) =
            run(skill()
                .current_dir(tmp.path())
                .args(["new", &name, "--template", template]));
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.contains("evals/cassettes/basic.yaml"), "{stdout}");
        let (code, stdout, stderr) = run(test_cmd().current_dir(tmp.path()).arg(&name));
        assert_eq!(code, 0, "{template}: {stdout}{stderr}");
        assert!(
            stdout.contains(&format!("PASS  {name}/basic (2 turns")),
            "{stdout}"
        );
        assert!(stdout.ends_with("1 passed, 0 failed\n"), "{stdout}");
    }

    // Editing SKILL.md changes what the model reads: the replay no longer matches.
    let skill_md = tmp.path().join("t-basic/SKILL.md");
    let text = std::fs::read_to_string(&skill_md).unwrap();
    std::fs::write(&skill_md, format!("{text}\nOne more step.\n")).unwrap();
    let (code, stdout, _) = run(test_cmd().current_dir(tmp.path()).arg("t-basic"));
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("ERROR t-basic/basic"), "{stdout}");
    assert!(
        stdout.contains("exchange 2 does not match the recording"),
        "{stdout}"
    );
    assert!(stdout.contains("+    One more step."), "{stdout}");
    assert!(
        stdout.contains("to record it again: skill test t-basic --mode record"),
        "{stdout}"
    );
    assert!(stdout.ends_with("0 passed, 1 failed\n"), "{stdout}");

    // A scripted starter is refreshed by --init.
    let (code, stdout, stderr) = run(test_cmd()
        .current_dir(tmp.path())
        .args(["--init", "t-basic"]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        stdout,
        "wrote t-basic/evals/basic.yaml and its cassette t-basic/evals/cassettes/basic.yaml (from a scripted model)\n"
    );
    let (code, _, _) = run(test_cmd().current_dir(tmp.path()).arg("t-basic"));
    assert_eq!(code, 0);
    // Both with the mode of every other file the skill has.
    let mode = |path: &str| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(tmp.path().join(path))
            .unwrap()
            .permissions()
            .mode()
            & 0o777
    };
    assert_eq!(
        mode("t-basic/evals/cassettes/basic.yaml"),
        mode("t-basic/SKILL.md")
    );
    assert_eq!(mode("t-basic/evals/basic.yaml"), mode("t-basic/SKILL.md"));

    // An edited starter scenario is the author's now: --init leaves it alone.
    let scenario = tmp.path().join("t-basic/evals/basic.yaml");
    let edited = std::fs::read_to_string(&scenario)
        .unwrap()
        .replace("max_turns: 5", "max_turns: 4");
    std::fs::write(&scenario, &edited).unwrap();
    let (code, _, stderr) = run(test_cmd()
        .current_dir(tmp.path())
        .args(["--init", "t-basic"]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("evals/basic.yaml: exists already"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&scenario).unwrap(), edited);

    // Folders of skills work too: all three templates at once.
    let (code, stdout, _) = run(test_cmd().current_dir(tmp.path()).arg("."));
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.ends_with("3 passed, 0 failed\n"), "{stdout}");
}

const SKILL_MD: &str = "---\nname: greeter\ndescription: Writes greeting files. Use when asked to greet someone in a file.\n---\n# Greeter\n\nList `people/`, then write `hello.txt` greeting each person.\n";

fn scenario(expect: &str) -> String {
    format!(
        "prompt: Greet everyone in people/\nfiles:\n  people/ada.txt: Ada\n  people/alan.txt: Alan\nexpect:\n{expect}"
    )
}

const PASSING: &str = "  reads_skill: true\n  tool_calls:\n    - name: list_dir\n      args:\n        path: ^people\n    - name: write_file\n      args:\n        path: hello\\.txt\n        content: Ada\n  files:\n    - path: hello.txt\n      contains: (?m)^Hello, Alan!$\n  final_answer: (?i)greeted 2\n  max_turns: 6\n";

fn greeter_script() -> Vec<Step> {
    vec![
        Step::Reply(
            "",
            vec![
                call("read_file", json!({"path": "skills/greeter/SKILL.md"})),
                call("list_dir", json!({"path": "people"})),
            ],
        ),
        Step::Reply(
            "",
            vec![call(
                "write_file",
                json!({"path": "hello.txt", "content": "Hello, Ada!\nHello, Alan!\n"}),
            )],
        ),
        Step::Reply("Greeted 2 people in hello.txt.", vec![]),
    ]
}

fn greeter(dir: &Path) -> std::path::PathBuf {
    let skill_dir = write_skill(dir, "greeter", SKILL_MD);
    std::fs::create_dir_all(skill_dir.join("evals")).unwrap();
    std::fs::write(skill_dir.join("evals/greet.yaml"), scenario(PASSING)).unwrap();
    skill_dir
}

#[test]
fn a_recorded_scenario_replays_offline_and_each_expectation_can_fail() {
    let tmp = tempfile::tempdir().unwrap();
    let skill_dir = greeter(tmp.path());
    let server = ModelServer::start(greeter_script());
    let (code, stdout, stderr) = run(test_cmd().arg(&skill_dir).args([
        "--mode",
        "record",
        "--base-url",
        &server.openai_base(),
    ]));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("PASS  greeter/greet (3 turns"), "{stdout}");
    server.stop();
    let cassette = std::fs::read_to_string(skill_dir.join("evals/cassettes/greet.yaml")).unwrap();
    assert!(cassette.contains("provider: openai"), "{cassette}");

    // Offline, from the cassette, with a JUnit report.
    let junit = tmp.path().join("report.xml");
    let (code, stdout, _) = run(test_cmd().arg(&skill_dir).arg("--junit").arg(&junit));
    assert_eq!(code, 0, "{stdout}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(
        xml.contains(
            "<testsuites name=\"skill test\" tests=\"1\" skipped=\"0\" failures=\"0\" errors=\"0\""
        ),
        "{xml}"
    );
    assert!(
        xml.contains("<testcase name=\"greet\" classname=\"greeter\""),
        "{xml}"
    );

    // Expectations that do not hold: every one is reported.
    let failing = "  reads_skill: false\n  tool_calls:\n    - name: exec\n    - name: write_file\n      args:\n        path: goodbye\n  files:\n    - path: hello.txt\n      contains: Grace\n    - path: missing.txt\n  final_answer: ^Done\n  max_turns: 6\n";
    std::fs::write(skill_dir.join("evals/greet.yaml"), scenario(failing)).unwrap();
    let (code, stdout, _) = run(test_cmd().arg(&skill_dir).arg("--junit").arg(&junit));
    assert_eq!(code, 1, "{stdout}");
    let stdout = normalise(&stdout, tmp.path());
    snapshots().bind(|| insta::assert_snapshot!("test-every-expectation-fails", stdout));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("failures=\"1\""), "{xml}");
    assert!(
        xml.contains("<failure message=\"the model read greeter/SKILL.md\">"),
        "{xml}"
    );

    // A turn limit below what the recording needs: no answer within it.
    std::fs::write(
        skill_dir.join("evals/greet.yaml"),
        scenario("  max_turns: 2\n"),
    )
    .unwrap();
    let (code, stdout, _) = run(test_cmd().arg(&skill_dir));
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("- no final answer within 2 turns"),
        "{stdout}"
    );
}

#[test]
fn broken_scenarios_are_errors_naming_the_file() {
    let tmp = tempfile::tempdir().unwrap();
    let skill_dir = write_skill(tmp.path(), "greeter", SKILL_MD);
    std::fs::create_dir_all(skill_dir.join("evals")).unwrap();
    std::fs::write(skill_dir.join("evals/a.yaml"), "prompt: [unclosed\n").unwrap();
    std::fs::write(
        skill_dir.join("evals/b.yaml"),
        "prompt: hi\nexpect:\n  reads_skil: true\n",
    )
    .unwrap();
    std::fs::write(
        skill_dir.join("evals/c.yaml"),
        "prompt: hi\nexpect:\n  final_answer: '('\n",
    )
    .unwrap();
    let (code, stdout, _) = run(test_cmd().arg(&skill_dir));
    assert_eq!(code, 1, "{stdout}");
    // Each names its file; a bad regex (c) is found before any model is called.
    let stdout = normalise(&stdout, tmp.path());
    snapshots().bind(|| insta::assert_snapshot!("test-broken-scenarios", stdout));

    // A scenario without its cassette: replay says which file is missing.
    std::fs::write(skill_dir.join("evals/c.yaml"), "prompt: hi\n").unwrap();
    let (_, stdout, _) = run(test_cmd().arg(&skill_dir));
    assert!(
        stdout.contains("evals/cassettes/c.yaml: No such file"),
        "{stdout}"
    );

    // Recording writes the cassette, so a scenario may not aim it outside its folder.
    std::fs::write(
        skill_dir.join("evals/c.yaml"),
        "prompt: hi\ncassette: ../../outside.yaml\n",
    )
    .unwrap();
    let (_, stdout, _) = run(test_cmd().args(["--mode", "record"]).arg(&skill_dir));
    assert!(
        stdout.contains("evals/c.yaml: cassette: '../../outside.yaml' must be a relative path inside the scenario's folder"),
        "{stdout}"
    );
    assert!(!tmp.path().join("outside.yaml").exists());

    let empty = write_skill(tmp.path(), "empty", SKILL_MD.replace("greeter", "empty"));
    let (code, _, stderr) = run(test_cmd().arg(&empty));
    assert_eq!(code, 2);
    assert!(stderr.contains("no scenarios found"), "{stderr}");
    assert!(stderr.contains("skill test --init"), "{stderr}");
}

#[test]
fn the_builtin_skills_scenarios_pass() {
    let cache = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = run(test_cmd()
        .env("SKILL_CACHE_DIR", cache.path())
        .arg("--builtin"));
    assert_eq!(code, 0, "{stdout}{stderr}");
    for name in [
        "docker",
        "github",
        "safe-shell",
        "skill-creator",
        "skill-registry",
        "tmux",
    ] {
        assert!(stdout.contains(&format!("PASS  {name}/basic")), "{stdout}");
    }
    assert!(stdout.ends_with("6 passed, 0 failed\n"), "{stdout}");
}
