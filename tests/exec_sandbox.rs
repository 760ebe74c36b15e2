//! `exec` confinement through the real binary against a scripted model on loopback: Landlock
//! keeps writes in the workspace and the private TMPDIR always, and under the test policy
//! (`skill test`, replays, `--strict`) keeps reads out of the user's home and refuses TCP
//! connects unless the scenario allows the network; the environment is an allow-list; commands
//! that detach die with the run; a kernel that cannot confine makes `skill test` refuse.

mod common;

use common::model_server::{ModelServer, Step, call};
use common::{json, run, skill, write_skill};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

const SKILL_MD: &str = "---\nname: probe\ndescription: Probes the machine. Use when asked to probe.\nmetadata: {\"openclaw\": {\"requires\": {\"env\": [\"DEMO_DECLARED\"]}}}\n---\n# Probe\n\nRun the command.\n";

/// A temp folder with the probe skill, a fake home holding a key, and a folder outside the
/// workspace.
struct Machine {
    dir: tempfile::TempDir,
    skill: PathBuf,
    home: PathBuf,
    outside: PathBuf,
}

const SECRET: &str = "BEGIN-FAKE-PRIVATE-KEY-1f2e3d";

impl Machine {
    fn new() -> Machine {
        let dir = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(dir.path()).unwrap();
        let skill = write_skill(&root, "probe", SKILL_MD);
        let home = root.join("home");
        std::fs::create_dir_all(home.join(".ssh")).unwrap();
        std::fs::write(home.join(".ssh/id_ed25519"), SECRET).unwrap();
        let outside = root.join("outside");
        std::fs::create_dir_all(&outside).unwrap();
        Machine {
            dir,
            skill,
            home,
            outside,
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        std::fs::canonicalize(self.dir.path()).unwrap().join(name)
    }

    /// The command that tries everything: read the key, write outside, write in TMPDIR.
    fn probe_command(&self) -> String {
        format!(
            "cat {key} || echo read-refused; echo x > {out}/escape.txt || echo write-refused; echo tmp-ok > \"$TMPDIR/t\" && cat \"$TMPDIR/t\"; echo \"tmp=$TMPDIR\"",
            key = self.home.join(".ssh/id_ed25519").display(),
            out = self.outside.display()
        )
    }

    /// `skill ARGS` with HOME set to the fake home and no provider settings from outside.
    fn skill(&self, command: &str) -> assert_cmd::Command {
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
        cmd.env("HOME", &self.home).arg(command);
        cmd
    }
}

/// A model that runs `command` through exec once, then answers.
fn exec_once(command: &str) -> ModelServer {
    ModelServer::start(vec![
        Step::Reply("", vec![call("exec", json!({ "command": command }))]),
        Step::Reply("Done.", vec![]),
    ])
}

/// The result of the first tool call in a `--json` transcript.
fn first_result(stdout: &str) -> String {
    json(stdout)["messages"][3]["content"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The result of the first tool call, as the model received it in the second request.
fn result_sent(server: &ModelServer) -> String {
    let requests: Vec<Value> = server.requests();
    requests[1]["messages"][3]["content"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The TMPDIR a probe result names.
fn tmpdir_of(result: &str) -> PathBuf {
    let line = result
        .lines()
        .find_map(|l| l.strip_prefix("tmp="))
        .unwrap_or_else(|| panic!("no tmp= line: {result}"));
    PathBuf::from(line)
}

#[test]
fn a_live_try_reads_the_home_but_writes_only_the_workspace_and_its_tmpdir() {
    let m = Machine::new();
    let server = exec_once(&m.probe_command());
    let (code, stdout, stderr) = run(m.skill("try").arg(&m.skill).args([
        "-p",
        "Probe",
        "--base-url",
        &server.openai_base(),
        "--json",
    ]));
    assert_eq!(code, 0, "{stderr}");
    let result = first_result(&stdout);
    // Reads stay open in a live run: real CLIs read their own configuration.
    assert!(result.contains(SECRET), "{result}");
    assert!(result.contains("write-refused"), "{result}");
    assert!(!m.outside.join("escape.txt").exists());
    assert!(result.contains("tmp-ok"), "{result}");
    let tmpdir = tmpdir_of(&result);
    assert!(
        tmpdir
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("skill-exec-"),
        "{result}"
    );
    assert!(!tmpdir.exists(), "the private TMPDIR outlived the run");
}

#[test]
fn strict_tries_and_replays_read_neither_the_home_nor_write_outside() {
    let m = Machine::new();
    let cassette = m.path("probe.yaml");
    let server = exec_once(&m.probe_command());
    let (code, stdout, stderr) = run(m
        .skill("try")
        .arg(&m.skill)
        .args([
            "-p",
            "Probe",
            "--strict",
            "--base-url",
            &server.openai_base(),
        ])
        .arg("--record")
        .arg(&cassette)
        .arg("--json"));
    assert_eq!(code, 0, "{stderr}");
    let recorded = first_result(&stdout);
    assert!(!recorded.contains(SECRET), "{recorded}");
    assert!(recorded.contains("read-refused"), "{recorded}");
    assert!(recorded.contains("write-refused"), "{recorded}");
    assert!(recorded.contains("tmp-ok"), "{recorded}");
    server.stop();

    // The replay runs the recorded command again, under the test policy without --strict.
    let (code, stdout, stderr) = run(m
        .skill("try")
        .arg(&m.skill)
        .args(["-p", "Probe", "--replay"])
        .arg(&cassette)
        .arg("--json"));
    assert_eq!(code, 0, "{stderr}");
    let replayed = first_result(&stdout);
    assert!(!replayed.contains(SECRET), "{replayed}");
    assert!(replayed.contains("read-refused"), "{replayed}");
    assert!(replayed.contains("write-refused"), "{replayed}");
    assert!(replayed.contains("tmp-ok"), "{replayed}");
    assert!(!m.outside.join("escape.txt").exists());
    // The TMPDIR differs between runs; the cassette names it by a placeholder.
    let text = std::fs::read_to_string(&cassette).unwrap();
    assert!(text.contains("tmp={tmpdir}"), "{text}");
}

/// A loopback listener counting the connections it accepts.
fn listener() -> (u16, Arc<AtomicUsize>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&count);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            if stream.is_ok() {
                seen.fetch_add(1, Ordering::SeqCst);
            }
        }
    });
    (port, count)
}

/// Writes a scenario for the probe skill running `command`, with `network` when given.
fn scenario(skill_dir: &Path, network: bool) {
    std::fs::create_dir_all(skill_dir.join("evals")).unwrap();
    let network = if network { "network: true\n" } else { "" };
    std::fs::write(
        skill_dir.join("evals/probe.yaml"),
        format!("prompt: Probe\n{network}expect:\n  tool_calls:\n    - name: exec\n  final_answer: Done\n"),
    )
    .unwrap();
}

#[test]
fn skill_test_refuses_tcp_connects_and_home_reads_unless_the_scenario_allows_the_network() {
    let m = Machine::new();
    let (port, connections) = listener();
    let command = format!(
        "cat {} || echo read-refused; bash -c 'echo hi > /dev/tcp/127.0.0.1/{port}' && echo connected || echo connect-refused",
        m.home.join(".ssh/id_ed25519").display()
    );
    for network in [false, true] {
        scenario(&m.skill, network);
        let server = exec_once(&command);
        let (code, stdout, stderr) = run(m.skill("test").arg(&m.skill).args([
            "--mode",
            "record",
            "--base-url",
            &server.openai_base(),
        ]));
        assert_eq!(code, 0, "{stdout}{stderr}");
        let recorded = result_sent(&server);
        assert!(!recorded.contains(SECRET), "{recorded}");
        assert!(recorded.contains("read-refused"), "{recorded}");
        server.stop();
        let (code, stdout, stderr) = run(m.skill("test").arg(&m.skill));
        assert_eq!(code, 0, "{stdout}{stderr}");
        assert!(stdout.contains("PASS  probe/probe"), "{stdout}");
        std::thread::sleep(std::time::Duration::from_millis(100));
        if network {
            assert!(recorded.contains("connected"), "{recorded}");
            assert_eq!(connections.load(Ordering::SeqCst), 2, "record and replay");
        } else {
            assert!(recorded.contains("connect-refused"), "{recorded}");
            assert!(recorded.contains("Permission denied"), "{recorded}");
            assert_eq!(connections.load(Ordering::SeqCst), 0);
        }
    }
}

#[test]
fn the_environment_is_an_allow_list_plus_what_the_skill_declares() {
    let m = Machine::new();
    let aws = "aws-secret-value-0a9b8c7d6e";
    let github = "ghs-token-value-5f4e3d2c1b";
    for strict in [false, true] {
        let server = exec_once("env");
        let mut cmd = m.skill("try");
        cmd.env("AWS_SECRET_ACCESS_KEY", aws)
            .env("GITHUB_TOKEN", github)
            .env("DEMO_DECLARED", "declared-value")
            .env("UNDECLARED_SETTING", "not-passed")
            .arg(&m.skill)
            .args(["-p", "Probe", "--base-url", &server.openai_base(), "--json"]);
        if strict {
            cmd.arg("--strict");
        }
        let (code, stdout, stderr) = run(&mut cmd);
        assert_eq!(code, 0, "{stderr}");
        let env = first_result(&stdout);
        assert!(!env.contains(aws), "{env}");
        assert!(!env.contains(github), "{env}");
        assert!(!env.contains("UNDECLARED_SETTING"), "{env}");
        assert!(env.contains("DEMO_DECLARED=declared-value"), "{env}");
        assert!(env.contains("PATH="), "{env}");
        let workspace = json(&stdout)["messages"][0]["content"]
            .as_str()
            .unwrap()
            .lines()
            .find_map(|l| l.strip_prefix("Your workspace is at: "))
            .unwrap()
            .to_owned();
        let home = if strict {
            workspace
        } else {
            m.home.display().to_string()
        };
        assert!(env.contains(&format!("HOME={home}\n")), "{env}");
    }
}

/// Kills the processes named in pid files when dropped, so a failing test leaves no sleeper.
struct Sleepers(Vec<PathBuf>);

impl Sleepers {
    fn alive(&self) -> Vec<String> {
        self.0
            .iter()
            .filter_map(|f| std::fs::read_to_string(f).ok())
            .map(|pid| pid.trim().to_owned())
            .filter(|pid| {
                std::fs::read_to_string(format!("/proc/{pid}/stat"))
                    .is_ok_and(|stat| !stat.contains(") Z "))
            })
            .collect()
    }
}

impl Drop for Sleepers {
    fn drop(&mut self) {
        for pid in self.alive() {
            if let Ok(pid) = pid.parse::<i32>() {
                // SAFETY: signalling a process this test's command started.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
        }
    }
}

#[test]
fn commands_that_detach_die_with_the_run() {
    let m = Machine::new();
    let ws = m.path("ws");
    let sleepers = Sleepers(vec![ws.join("setsid.pid"), ws.join("forked.pid")]);
    let server = exec_once(
        "setsid sh -c 'sleep 300 & echo $! > setsid.pid'; (setsid sh -c 'sleep 300 & echo $! > forked.pid' &); sleep 0.3; echo started",
    );
    let (code, stdout, stderr) = run(m
        .skill("try")
        .arg(&m.skill)
        .args(["-p", "Probe", "--base-url", &server.openai_base(), "--json"])
        .arg("--workspace")
        .arg(&ws));
    assert_eq!(code, 0, "{stderr}");
    assert!(first_result(&stdout).contains("started"), "{stdout}");
    assert!(ws.join("setsid.pid").is_file() && ws.join("forked.pid").is_file());
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(
        sleepers.alive(),
        Vec::<String>::new(),
        "detached processes outlived the run"
    );
}

#[test]
fn ctrl_c_kills_commands_that_detached() {
    let m = Machine::new();
    let ws = m.path("ws");
    let pid_file = ws.join("setsid.pid");
    let sleepers = Sleepers(vec![pid_file.clone()]);
    let server = exec_once("setsid sh -c 'sleep 300 & echo $! > setsid.pid'; sleep 30");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_skill"))
        .arg("try")
        .arg(&m.skill)
        .args([
            "-p",
            "Probe",
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
    let started = std::time::Instant::now();
    while std::fs::read_to_string(&pid_file).map_or(true, |p| p.trim().is_empty()) {
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
    assert!(!child.wait().unwrap().success());
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(
        sleepers.alive(),
        Vec::<String>::new(),
        "a detached process outlived Ctrl-C"
    );
}

/// Runs `f` on a thread already stacked with the 16 Landlock layers the kernel allows (each
/// refusing only block devices), so every process it starts fails to restrict itself again:
/// a machine where confinement fails, made without another kernel.
fn where_landlock_fails<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    use landlock::{AccessFs, Ruleset, RulesetAttr};
    std::thread::spawn(move || {
        for _ in 0..16 {
            Ruleset::default()
                .handle_access(AccessFs::MakeBlock)
                .unwrap()
                .create()
                .unwrap()
                .restrict_self()
                .unwrap();
        }
        f()
    })
    .join()
    .unwrap()
}

#[test]
fn where_commands_cannot_be_confined_skill_test_refuses_and_try_warns() {
    let m = Machine::new();
    let marker = m.outside.join("marker");
    let command = format!(
        "{{ echo hi > {}; }} 2>/dev/null; echo done",
        marker.display()
    );
    scenario(&m.skill, false);
    let server = exec_once(&command);
    let (code, stdout, stderr) = run(m.skill("test").arg(&m.skill).args([
        "--mode",
        "record",
        "--base-url",
        &server.openai_base(),
    ]));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(!marker.exists(), "the confined recording wrote outside");

    let replay = |extra: &'static [&'static str]| {
        let mut cmd = m.skill("test");
        cmd.arg(&m.skill).args(extra);
        where_landlock_fails(move || cmd.output().unwrap())
    };
    let refused = replay(&[]);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the scenarios' commands cannot be confined here"),
        "{stderr}"
    );
    assert!(stderr.contains("pass --no-sandbox"), "{stderr}");
    assert!(!marker.exists(), "a refused run ran the recorded command");

    // Asked for, the recorded command runs unconfined: it writes outside the workspace.
    let unconfined = replay(&["--no-sandbox"]);
    let stdout = String::from_utf8_lossy(&unconfined.stdout);
    assert_eq!(unconfined.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("PASS  probe/probe"), "{stdout}");
    assert!(marker.exists());

    // A live try goes on, after one warning.
    let server = exec_once("echo ran");
    let mut cmd = m.skill("try");
    cmd.arg(&m.skill)
        .args(["-p", "Probe", "--base-url", &server.openai_base(), "--json"]);
    let live = where_landlock_fails(move || cmd.output().unwrap());
    let stderr = String::from_utf8_lossy(&live.stderr);
    assert_eq!(live.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr.matches("warning: commands are not confined").count(),
        1,
        "{stderr}"
    );
    assert_eq!(
        first_result(&String::from_utf8_lossy(&live.stdout)),
        "ran\n"
    );
}
