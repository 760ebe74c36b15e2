//! `exec` confinement through the real binary against a scripted model on loopback: Landlock
//! keeps writes in the workspace and the private TMPDIR always, and under the test policy
//! (`skill test`, replays, `--strict`) keeps reads out of the user's home and refuses TCP
//! connects unless the scenario allows the network; the environment is an allow-list; commands
//! that detach die with the run; a kernel that cannot confine makes `skill test` refuse.

use crate::common;

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

/// The processes on this machine whose command line holds `marker` (a `sleep` of a duration
/// no other test uses), found from the host's `/proc` whatever namespace they run in; killed
/// when dropped, so a failing test leaves no sleeper.
struct Sleepers(&'static str);

impl Sleepers {
    fn alive(&self) -> Vec<String> {
        let marker = format!("sleep\0{}\0", self.0);
        std::fs::read_dir("/proc")
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|pid| pid.bytes().all(|b| b.is_ascii_digit()))
            .filter(|pid| {
                std::fs::read(format!("/proc/{pid}/cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains(&marker))
                    && std::fs::read_to_string(format!("/proc/{pid}/stat"))
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
    let sleepers = Sleepers("3001");
    let server = exec_once(
        "setsid sh -c 'sleep 3001 & echo $! > setsid.pid'; (setsid sh -c 'sleep 3001 & echo $! > forked.pid' &); sleep 0.3; echo started",
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
    let sleepers = Sleepers("3002");
    let server = exec_once("setsid sh -c 'sleep 3002 & echo $! > setsid.pid'; sleep 30");
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
fn where_commands_cannot_be_confined_test_eval_and_replays_refuse_and_a_live_try_warns() {
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
        stderr.contains("recorded commands cannot be confined here"),
        "{stderr}"
    );
    assert!(stderr.contains("pass --no-sandbox"), "{stderr}");
    assert!(!marker.exists(), "a refused run ran the recorded command");

    // A replay through `try`, and `eval`, are recorded calls too: refused the same way.
    let cassette = m.skill.join("evals/cassettes/probe.yaml");
    let mut cmd = m.skill("try");
    cmd.arg(&m.skill)
        .args(["-p", "Probe", "--replay"])
        .arg(&cassette);
    let try_replay = where_landlock_fails(move || cmd.output().unwrap());
    let stderr = String::from_utf8_lossy(&try_replay.stderr);
    assert_eq!(try_replay.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("recorded commands cannot be confined here"),
        "{stderr}"
    );
    let (code, _, stderr) = run(m.skill("eval").arg(&m.skill).arg("--init"));
    assert_eq!(code, 0, "{stderr}");
    let mut cmd = m.skill("eval");
    cmd.arg(&m.skill);
    let eval = where_landlock_fails(move || cmd.output().unwrap());
    let stderr = String::from_utf8_lossy(&eval.stderr);
    assert_eq!(eval.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("recorded commands cannot be confined here"),
        "{stderr}"
    );
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

/// A loopback UDP socket counting the datagrams it receives.
fn udp_listener() -> (u16, Arc<AtomicUsize>) {
    let socket = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    let port = socket.local_addr().unwrap().port();
    let count = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&count);
    std::thread::spawn(move || {
        let mut buf = [0u8; 64];
        while socket.recv(&mut buf).is_ok() {
            seen.fetch_add(1, Ordering::SeqCst);
        }
    });
    (port, count)
}

#[test]
fn without_the_network_no_socket_reaches_out_mptcp_and_udp_included() {
    let m = Machine::new();
    let (tcp, connections) = listener();
    let (udp, datagrams) = udp_listener();
    let script = format!(
        "import socket\n\
         for name, make, act in [\n\
         ('mptcp', lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262), lambda s: s.connect(('127.0.0.1', {tcp}))),\n\
         ('udp', lambda: socket.socket(socket.AF_INET, socket.SOCK_DGRAM), lambda s: s.sendto(b'x', ('127.0.0.1', {udp}))),\n\
         ]:\n\
         \x20   try:\n\
         \x20       act(make()); print(name, 'reached')\n\
         \x20   except OSError as e:\n\
         \x20       print(name, 'refused', e.errno)\n"
    );
    let ws = m.path("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(ws.join("net.py"), script).unwrap();
    let server = exec_once("python3 net.py");
    let (code, stdout, stderr) = run(m
        .skill("try")
        .arg(&m.skill)
        .args([
            "-p",
            "Probe",
            "--strict",
            "--base-url",
            &server.openai_base(),
            "--json",
        ])
        .arg("--workspace")
        .arg(&ws));
    assert_eq!(code, 0, "{stderr}");
    let result = first_result(&stdout);
    assert!(result.contains("mptcp refused"), "{result}");
    assert!(result.contains("udp refused"), "{result}");
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert_eq!(connections.load(Ordering::SeqCst), 0);
    assert_eq!(datagrams.load(Ordering::SeqCst), 0);
}

#[test]
fn replayed_commands_cannot_read_the_environment_of_the_shell_that_started_skill() {
    let m = Machine::new();
    let secret = "ci-secret-value-7c6b5a4d3e";
    let server = exec_once(
        "for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < \"$f\" 2>/dev/null; done | grep -c CI_DEPLOY_KEY; echo scanned",
    );
    // The shell that started `skill` holds the secret in its environment and stays its parent.
    let mut shell = std::process::Command::new("sh");
    shell
        .arg("-c")
        .arg("\"$@\"; echo exit=$?")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_skill"))
        .args(["try"])
        .arg(&m.skill)
        .args([
            "-p",
            "Probe",
            "--strict",
            "--base-url",
            &server.openai_base(),
            "--json",
        ])
        .env("CI_DEPLOY_KEY", secret)
        .env("HOME", &m.home)
        .env_remove("OPENAI_API_KEY");
    let out = shell.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("exit=0"), "{stdout}");
    let json_text = stdout.rsplit_once("exit=").unwrap().0;
    let result = first_result(json_text);
    assert!(result.contains("scanned"), "{result}");
    assert!(
        result.starts_with("0\n"),
        "another process's environment was read: {result}"
    );
}

#[test]
fn a_deep_chain_of_sessions_dies_with_the_command() {
    let m = Machine::new();
    let ws = m.path("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::write(
        ws.join("chain.sh"),
        "echo $$ >> pids\nif [ \"$1\" -gt 0 ]; then setsid sh chain.sh $(($1 - 1)) & fi\nexec sleep 3003\n",
    )
    .unwrap();
    let pids = ws.join("pids");
    let chain = Sleepers("3003");
    let server = exec_once(
        "sh chain.sh 400 & while [ \"$(wc -l < pids 2>/dev/null || echo 0)\" -lt 401 ]; do sleep 0.05; done; echo started",
    );
    let (code, stdout, stderr) = run(m
        .skill("try")
        .arg(&m.skill)
        .args(["-p", "Probe", "--base-url", &server.openai_base(), "--json"])
        .arg("--workspace")
        .arg(&ws));
    assert_eq!(code, 0, "{stderr}");
    assert!(first_result(&stdout).contains("started"), "{stdout}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let text = std::fs::read_to_string(&pids).unwrap();
    assert_eq!(text.lines().count(), 401);
    let alive = chain.alive();
    assert!(
        alive.is_empty(),
        "{} of the chain outlived the run",
        alive.len()
    );
}

#[test]
fn inherited_descriptors_and_shared_memory_stay_out_of_reach() {
    let m = Machine::new();
    let log = m.outside.join("log");
    let shm = PathBuf::from(format!("/dev/shm/skill-test-{}", std::process::id()));
    std::fs::write(&shm, SECRET).unwrap();
    let server = exec_once(&format!(
        "echo leaked >&9 || echo fd-closed; cat {} || echo shm-refused",
        shm.display()
    ));
    let mut shell = std::process::Command::new("sh");
    shell
        .arg("-c")
        .arg("exec 9>>\"$0\"; exec \"$@\"")
        .arg(&log)
        .arg(env!("CARGO_BIN_EXE_skill"))
        .arg("try")
        .arg(&m.skill)
        .args([
            "-p",
            "Probe",
            "--strict",
            "--base-url",
            &server.openai_base(),
            "--json",
        ])
        .env("HOME", &m.home)
        .env_remove("OPENAI_API_KEY");
    let out = shell.output().unwrap();
    let _ = std::fs::remove_file(&shm);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let result = first_result(&stdout);
    assert!(result.contains("fd-closed"), "{result}");
    assert!(result.contains("shm-refused"), "{result}");
    assert!(!result.contains(SECRET), "{result}");
    assert_eq!(std::fs::read_to_string(&log).unwrap_or_default(), "");
}

#[test]
fn tests_and_replays_pass_declared_variables_only_when_the_user_names_them() {
    let m = Machine::new();
    let token = "ghs-declared-secret-9a8b7c";
    std::fs::create_dir_all(m.skill.join("evals")).unwrap();
    std::fs::write(
        m.skill.join("evals/probe.yaml"),
        "prompt: Probe\nenv:\n  WRITTEN_SETTING: from-the-scenario\nexpect:\n  tool_calls:\n    - name: exec\n  final_answer: Done\n",
    )
    .unwrap();
    let record = |pass: &[&str]| {
        let server = exec_once("env");
        let (code, stdout, stderr) = run(m
            .skill("test")
            .arg(&m.skill)
            .args(["--mode", "record", "--base-url", &server.openai_base()])
            .args(pass)
            .env("DEMO_DECLARED", token));
        assert_eq!(code, 0, "{stdout}{stderr}");
        let sent = result_sent(&server);
        server.stop();
        sent
    };
    // The probe skill declares DEMO_DECLARED; declaring it is not enough.
    let plain = record(&[]);
    assert!(!plain.contains(token), "{plain}");
    assert!(
        plain.contains("WRITTEN_SETTING=from-the-scenario"),
        "{plain}"
    );
    let named = record(&["--pass-env", "DEMO_DECLARED"]);
    assert!(named.contains(&format!("DEMO_DECLARED={token}")), "{named}");

    // A replay through `try` passes nothing declared either, unless named (a replayed
    // command whose output changes no longer matches its recording).
    let server = exec_once("test -n \"$DEMO_DECLARED\" && echo has-value || echo no-value");
    let (code, stdout, stderr) = run(m
        .skill("test")
        .arg(&m.skill)
        .args(["--mode", "record", "--base-url", &server.openai_base()])
        .env("DEMO_DECLARED", token));
    assert_eq!(code, 0, "{stdout}{stderr}");
    let cassette = m.skill.join("evals/cassettes/probe.yaml");
    let replay = |pass: &[&str]| {
        run(m
            .skill("try")
            .arg(&m.skill)
            .args(["-p", "Probe", "--json", "--replay"])
            .arg(&cassette)
            .args(pass)
            .env("DEMO_DECLARED", token))
    };
    let (code, stdout, stderr) = replay(&[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(first_result(&stdout), "no-value\n");
    let (code, _, stderr) = replay(&["--pass-env", "DEMO_DECLARED"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("+    has-value"), "{stderr}");
}

#[test]
fn a_later_run_removes_the_tmpdirs_runs_killed_long_ago_left_behind() {
    let m = Machine::new();
    let temp = m.path("temp");
    std::fs::create_dir_all(&temp).unwrap();
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(2 * 24 * 60 * 60);
    let make = |name: &str, aged: bool| {
        let dir = temp.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("left"), "x").unwrap();
        if aged {
            std::fs::File::open(&dir)
                .unwrap()
                .set_modified(old)
                .unwrap();
        }
        dir
    };
    // No process has PID 4194304 (the kernel's highest is one less).
    let dead_and_old = make("skill-exec-4194304-a1b2c3", true);
    let dead_but_recent = make("skill-exec-4194304-d4e5f6", false);
    let alive = make(&format!("skill-exec-{}-g7h8i9", std::process::id()), true);
    let not_ours = make("skill-exec-notapid", true);
    let server = exec_once("echo ran");
    let (code, stdout, stderr) = run(m.skill("try").env("TMPDIR", &temp).arg(&m.skill).args([
        "-p",
        "Probe",
        "--base-url",
        &server.openai_base(),
        "--json",
    ]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(first_result(&stdout), "ran\n");
    assert!(!dead_and_old.exists());
    assert!(dead_but_recent.exists() && alive.exists() && not_ours.exists());
}
