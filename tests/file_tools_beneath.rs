//! The file tools open paths beneath the workspace with `openat2`: a hard-linked file (a second
//! name for a file outside) is never written, through the real binary; and a folder swapped
//! for a symlink to outside, again and again while the tools work, never lets a read or a write
//! through.

use crate::common;

use common::model_server::{ModelServer, Step, call};
use common::{json, run, skill, write_skill};
use serde_json::json;
use skill_agent::message::ToolCall;
use skill_agent::tools::ToolBox;
use std::ffi::CString;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

#[test]
fn write_file_and_edit_file_refuse_a_hard_linked_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let skill_dir = write_skill(
        &root,
        "demo",
        "---\nname: demo\ndescription: Edits notes. Use when asked to edit notes.\n---\n# Demo\n",
    );
    let outside = root.join("outside.txt");
    std::fs::write(&outside, "original\n").unwrap();
    let ws = root.join("ws");
    std::fs::create_dir_all(&ws).unwrap();
    std::fs::hard_link(&outside, ws.join("notes.txt")).unwrap();
    std::fs::write(ws.join("plain.txt"), "original\n").unwrap();
    let server = ModelServer::start(vec![
        Step::Reply(
            "",
            vec![
                call(
                    "write_file",
                    json!({"path": "notes.txt", "content": "overwritten\n"}),
                ),
                call(
                    "edit_file",
                    json!({"path": "notes.txt", "old_text": "original", "new_text": "edited"}),
                ),
                call(
                    "edit_file",
                    json!({"path": "plain.txt", "old_text": "original", "new_text": "edited"}),
                ),
            ],
        ),
        Step::Reply("Done.", vec![]),
    ]);
    let (code, stdout, stderr) = run(skill()
        .env_remove("OPENAI_API_KEY")
        .arg("try")
        .arg(&skill_dir)
        .args(["-p", "Edit", "--base-url", &server.openai_base(), "--json"])
        .arg("--workspace")
        .arg(&ws));
    assert_eq!(code, 0, "{stderr}");
    let messages = json(&stdout)["messages"].clone();
    for i in [3, 4] {
        let result = messages[i]["content"].as_str().unwrap();
        assert_eq!(
            result,
            "Error: notes.txt has 2 hard links; the file tools do not write to a file that has other names, which may be outside the workspace"
        );
    }
    assert_eq!(messages[5]["content"], "Successfully edited plain.txt");
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "original\n");
    assert_eq!(
        std::fs::read_to_string(ws.join("plain.txt")).unwrap(),
        "edited\n"
    );
}

/// Swaps two names atomically.
fn exchange(a: &Path, b: &Path) {
    let (a, b) = (
        CString::new(a.as_os_str().as_bytes()).unwrap(),
        CString::new(b.as_os_str().as_bytes()).unwrap(),
    );
    // SAFETY: two valid C strings; renameat2 touches nothing else.
    unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        );
    }
}

fn call_tool(tools: &ToolBox, name: &str, args: serde_json::Value) -> String {
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
fn a_folder_swapped_for_a_symlink_mid_call_never_lets_a_read_or_write_out() {
    let dir = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(dir.path()).unwrap();
    let outside = root.join("outside");
    std::fs::create_dir(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), "outside secret").unwrap();
    let ws = root.join("ws");
    std::fs::create_dir_all(ws.join("d")).unwrap();
    std::fs::write(ws.join("d/secret.txt"), "inside").unwrap();
    // `d` and `alt` trade places: at any instant `d` is the real folder or a link outside.
    std::os::unix::fs::symlink(&outside, ws.join("alt")).unwrap();
    let tools = ToolBox::new(ws.clone(), Duration::from_secs(60));

    let stop = Arc::new(AtomicBool::new(false));
    let swapper = {
        let (stop, d, alt) = (Arc::clone(&stop), ws.join("d"), ws.join("alt"));
        std::thread::spawn(move || {
            while !stop.load(Ordering::Relaxed) {
                exchange(&d, &alt);
            }
        })
    };
    let started = Instant::now();
    let (mut writes, mut reads, mut refusals) = (0, 0, 0);
    while started.elapsed() < Duration::from_secs(2) {
        let written = call_tool(
            &tools,
            "write_file",
            json!({"path": "d/x.txt", "content": "x"}),
        );
        writes += usize::from(written.starts_with("Successfully"));
        refusals += usize::from(written.contains("outside the workspace"));
        let read = call_tool(&tools, "read_file", json!({"path": "d/secret.txt"}));
        assert_ne!(
            read, "outside secret",
            "a read went through the swapped link"
        );
        reads += usize::from(read == "inside");
        assert!(
            !outside.join("x.txt").exists(),
            "a write went through the swapped link"
        );
    }
    stop.store(true, Ordering::Relaxed);
    swapper.join().unwrap();
    // Both states were seen: the race was real, not won by one side every time.
    assert!(
        writes > 0 && reads > 0 && refusals > 0,
        "{writes} {reads} {refusals}"
    );
}
