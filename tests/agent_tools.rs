//! The workspace tools as the model calls them: confinement (paths and symlinks), `edit_file`'s
//! uniqueness, `read_file` paging, `exec`'s timeout (the whole process group dies), output cap,
//! deny-list and argv form, and result order when read-only calls run together.

use serde_json::json;
use skill_agent::message::ToolCall;
use skill_agent::tools::{ToolBox, ToolOutput};
use std::time::{Duration, Instant};

fn toolbox() -> (tempfile::TempDir, ToolBox) {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    std::fs::create_dir(root.join("ws")).unwrap();
    (dir, ToolBox::new(root.join("ws"), Duration::from_secs(60)))
}

fn call(tools: &ToolBox, name: &str, args: serde_json::Value) -> String {
    let output = tools.run(&ToolCall {
        id: "c".into(),
        name: name.into(),
        arguments: args.to_string(),
    });
    // Every failure these tests provoke is worded "Error…", and only failures are marked.
    assert_eq!(
        output.is_error,
        output.content.starts_with("Error"),
        "{output:?}"
    );
    output.content
}

#[test]
fn file_tools_refuse_every_way_out_of_the_workspace() {
    let (dir, tools) = toolbox();
    let ws = tools.workspace().to_owned();
    std::fs::write(dir.path().join("secret.txt"), "outside").unwrap();
    std::os::unix::fs::symlink(dir.path(), ws.join("up")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("secret.txt"), ws.join("alias.txt")).unwrap();
    std::os::unix::fs::symlink(dir.path().join("new.txt"), ws.join("dangling.txt")).unwrap();
    let secret = dir.path().join("secret.txt").display().to_string();
    for (name, args) in [
        ("read_file", json!({"path": "../secret.txt"})),
        ("read_file", json!({"path": secret})),
        ("read_file", json!({"path": "up/secret.txt"})),
        ("read_file", json!({"path": "alias.txt"})),
        ("write_file", json!({"path": "up/new.txt", "content": "x"})),
        (
            "write_file",
            json!({"path": "dangling.txt", "content": "x"}),
        ),
        (
            "edit_file",
            json!({"path": "alias.txt", "old_text": "outside", "new_text": "x"}),
        ),
        ("list_dir", json!({"path": "up"})),
        ("exec", json!({"command": "pwd", "working_dir": "up"})),
    ] {
        let result = call(&tools, name, args.clone());
        assert!(
            result.contains("is outside the workspace"),
            "{name} {args}: {result}"
        );
    }
    assert_eq!(
        std::fs::read_to_string(dir.path().join("secret.txt")).unwrap(),
        "outside"
    );
    assert!(!dir.path().join("new.txt").exists());
}

#[test]
fn file_tools_read_write_edit_and_list() {
    let (_dir, tools) = toolbox();
    let ws = tools.workspace().to_owned();
    assert_eq!(
        call(
            &tools,
            "write_file",
            json!({"path": "a/b.txt", "content": "one\ntwo\nthree\n"})
        ),
        "Successfully wrote 14 bytes to a/b.txt"
    );
    assert_eq!(
        call(&tools, "read_file", json!({"path": "a/b.txt"})),
        "one\ntwo\nthree\n"
    );
    assert_eq!(
        call(
            &tools,
            "read_file",
            json!({"path": "a/b.txt", "offset": 2, "limit": 1})
        ),
        "two\n\n(lines 2-2 of 3; read on with offset=3)"
    );
    assert_eq!(
        call(&tools, "read_file", json!({"path": "a/b.txt", "offset": 3})),
        "three"
    );
    assert!(
        call(&tools, "read_file", json!({"path": "a/b.txt", "offset": 9})).contains("past the end")
    );
    assert_eq!(
        call(&tools, "read_file", json!({"path": "nope"})),
        "Error: File not found: nope"
    );
    assert_eq!(
        call(&tools, "read_file", json!({"path": "a"})),
        "Error: Not a file: a"
    );
    std::fs::write(ws.join("bin.dat"), [0xff, 0xfe, 0]).unwrap();
    assert_eq!(
        call(&tools, "read_file", json!({"path": "bin.dat"})),
        "Error: Not a text file: bin.dat"
    );

    std::fs::write(ws.join("e.txt"), "x = 1\ny = 1\n").unwrap();
    assert_eq!(
        call(
            &tools,
            "edit_file",
            json!({"path": "e.txt", "old_text": "= 1", "new_text": "= 2"})
        ),
        "Error: old_text appears 2 times in e.txt; include more surrounding text to make it unique"
    );
    assert_eq!(
        call(
            &tools,
            "edit_file",
            json!({"path": "e.txt", "old_text": "z = 1", "new_text": "z"})
        ),
        "Error: old_text not found in e.txt"
    );
    assert_eq!(
        call(
            &tools,
            "edit_file",
            json!({"path": "e.txt", "old_text": "y = 1", "new_text": "y = 2"})
        ),
        "Successfully edited e.txt"
    );
    assert_eq!(
        std::fs::read_to_string(ws.join("e.txt")).unwrap(),
        "x = 1\ny = 2\n"
    );

    assert_eq!(
        call(&tools, "list_dir", json!({"path": "."})),
        "📁 a\n📄 bin.dat\n📄 e.txt"
    );
    std::fs::create_dir(ws.join("empty")).unwrap();
    assert_eq!(
        call(&tools, "list_dir", json!({"path": "empty"})),
        "Directory empty is empty"
    );
    assert!(call(&tools, "write_file", json!({"path": "x"})).contains("missing field `content`"));
}

#[test]
fn exec_runs_in_the_workspace_with_exit_codes_and_stderr() {
    let (_dir, tools) = toolbox();
    let ws = tools.workspace().display().to_string();
    assert_eq!(
        call(&tools, "exec", json!({"command": "pwd"})),
        format!("{ws}\n")
    );
    assert_eq!(
        call(
            &tools,
            "exec",
            json!({"command": "echo out; echo err >&2; exit 3"})
        ),
        "out\n\nSTDERR:\nerr\n\n\nExit code: 3"
    );
    assert_eq!(
        call(&tools, "exec", json!({"command": "true"})),
        "(no output)"
    );
    // argv runs without a shell: no expansion.
    assert_eq!(
        call(&tools, "exec", json!({"argv": ["echo", "$HOME", "*"]})),
        "$HOME *\n"
    );
    assert!(call(&tools, "exec", json!({})).contains("give either command or argv"));
    assert!(
        call(&tools, "exec", json!({"argv": ["/no/such/program"]}))
            .starts_with("Error executing exec")
    );
}

#[test]
fn exec_refuses_destructive_commands() {
    let (_dir, tools) = toolbox();
    for command in [
        "rm -rf /",
        "rm -r ~",
        "mkfs.ext4 /dev/sdb",
        "dd if=/dev/zero of=/dev/sda",
        "shutdown -h now",
        ":(){ :|:& };:",
    ] {
        let result = call(&tools, "exec", json!({"command": command}));
        assert!(
            result.starts_with("Error: Command blocked by safety guard ("),
            "{command}: {result}"
        );
    }
}

#[test]
fn exec_timeout_kills_the_whole_process_group() {
    let (_dir, tools) = toolbox();
    let started = Instant::now();
    // The shell starts a background grandchild that would outlive a kill of the shell alone.
    let result = call(
        &tools,
        "exec",
        json!({"command": "sleep 30 & echo $! > grandchild.pid; echo started; wait", "timeout": 1}),
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert!(
        result.starts_with("Error: Command timed out after 1 seconds"),
        "{result}"
    );
    assert!(result.contains("started"), "{result}");
    let pid = std::fs::read_to_string(tools.workspace().join("grandchild.pid")).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let alive = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
        .map(|stat| !stat.contains(") Z "))
        .unwrap_or(false);
    assert!(!alive, "the grandchild {pid} survived the timeout");
}

#[test]
fn exec_output_is_capped_with_a_note() {
    let (_dir, tools) = toolbox();
    let result = call(
        &tools,
        "exec",
        json!({"command": "head -c 200000 /dev/zero | tr '\\0' a"}),
    );
    assert!(result.starts_with("aaaa"));
    assert!(
        result.ends_with("\n... (truncated, 190000 more chars)"),
        "{}",
        &result[result.len() - 60..]
    );
    assert_eq!(result.chars().filter(|c| *c == 'a').count(), 10_000 + 2);
}

#[test]
fn a_turn_of_calls_returns_results_in_call_order() {
    let (_dir, tools) = toolbox();
    let ws = tools.workspace().to_owned();
    for i in 0..8 {
        std::fs::write(ws.join(format!("{i}.txt")), i.to_string()).unwrap();
    }
    let mut calls: Vec<ToolCall> = (0..8)
        .map(|i| ToolCall {
            id: format!("c{i}"),
            name: "read_file".into(),
            arguments: json!({"path": format!("{i}.txt")}).to_string(),
        })
        .collect();
    calls.insert(
        4,
        ToolCall {
            id: "w".into(),
            name: "write_file".into(),
            arguments: json!({"path": "0.txt", "content": "changed"}).to_string(),
        },
    );
    let results: Vec<String> = tools
        .run_all(&calls)
        .into_iter()
        .map(|r| r.content)
        .collect();
    assert_eq!(results[..4], ["0", "1", "2", "3"]);
    assert_eq!(results[4], "Successfully wrote 7 bytes to 0.txt");
    assert_eq!(results[5..], ["4", "5", "6", "7"]);
}

#[test]
fn fifos_are_refused_rather_than_read_or_written() {
    let (_dir, tools) = toolbox();
    let fifo = tools.workspace().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    assert_eq!(
        call(&tools, "read_file", json!({"path": "pipe"})),
        "Error: Not a file: pipe"
    );
    assert_eq!(
        call(
            &tools,
            "write_file",
            json!({"path": "pipe", "content": "x"})
        ),
        "Error: Not a file: pipe"
    );
    assert_eq!(
        call(
            &tools,
            "edit_file",
            json!({"path": "pipe", "old_text": "a", "new_text": "b"})
        ),
        "Error: Not a file: pipe"
    );
}

#[test]
fn exec_leaves_nothing_running_and_keeps_the_exit_code() {
    let (_dir, tools) = toolbox();
    let result = call(
        &tools,
        "exec",
        json!({"command": "sleep 30 & echo $! > bg.pid"}),
    );
    assert_eq!(result, "(no output)");
    let pid = std::fs::read_to_string(tools.workspace().join("bg.pid")).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    let alive = std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
        .map(|stat| !stat.contains(") Z "))
        .unwrap_or(false);
    assert!(!alive, "the background process {pid} outlived its command");

    let flood = call(
        &tools,
        "exec",
        json!({"command": "head -c 50000 /dev/zero | tr '\\0' a; echo oops >&2; exit 4"}),
    );
    assert!(
        flood.ends_with("STDERR:\noops\n\n\nExit code: 4"),
        "{}",
        &flood[flood.len() - 80..]
    );
}

#[test]
fn only_failures_are_marked_as_errors() {
    let (_dir, tools) = toolbox();
    std::fs::write(tools.workspace().join("log.txt"), "Error: disk full\n").unwrap();
    let run = |name: &str, args: serde_json::Value| {
        tools.run(&ToolCall {
            id: "c".into(),
            name: name.into(),
            arguments: args.to_string(),
        })
    };
    // A file or a command's output that happens to say "Error" is a result, not a failure.
    assert_eq!(
        run("read_file", json!({"path": "log.txt"})),
        ToolOutput {
            content: "Error: disk full\n".into(),
            is_error: false
        }
    );
    let printed = run("exec", json!({"command": "echo Error: none; exit 1"}));
    assert!(!printed.is_error, "{printed:?}");
    assert!(printed.content.ends_with("Exit code: 1"), "{printed:?}");
    for (name, args) in [
        ("read_file", json!({"path": "missing.txt"})),
        ("read_file", json!({"path": "../x"})),
        (
            "edit_file",
            json!({"path": "log.txt", "old_text": "absent", "new_text": "x"}),
        ),
        ("list_dir", json!({"path": "log.txt"})),
        ("exec", json!({"command": "sleep 5", "timeout": 1})),
        ("launch_rocket", json!({})),
        ("read_file", json!({})),
    ] {
        assert!(run(name, args.clone()).is_error, "{name} {args}");
    }
}
