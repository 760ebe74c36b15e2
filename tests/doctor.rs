//! `skill doctor`: each reason a skill does not reach the model, for each agent.

use crate::common;
use common::needs::{Need, lacks};

use common::{json, run, skill, snapshots};
use std::path::{Path, PathBuf};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A root with one skill for every reason.
fn root(tmp: &Path) -> PathBuf {
    let r = tmp.join("skills");
    let long = "x".repeat(1100);
    for (dir, text) in [
        ("ok", "---\nname: ok\ndescription: Loads everywhere.\n---\n".to_owned()),
        ("broken", "---\nname: broken\ndescription: [unclosed\n---\n".to_owned()),
        ("bare", "---\nname: bare\n---\n# Bare\n\nFirst paragraph.\n".to_owned()),
        ("gated", "---\nname: gated\ndescription: Needs a tool.\nmetadata: {\"openclaw\":{\"requires\":{\"bins\":[\"skill-test-missing\"]}}}\n---\n".to_owned()),
        ("hidden", "---\nname: hidden\ndescription: Slash command only.\ndisable-model-invocation: true\n---\n".to_owned()),
        ("huge", format!("---\nname: huge\ndescription: {long}\n---\n")),
        ("twin-a", "---\nname: twin\ndescription: First twin.\n---\n".to_owned()),
        ("twin-b", "---\nname: twin\ndescription: Second twin.\n---\n".to_owned()),
    ] {
        write(&r.join(dir).join("SKILL.md"), &text);
    }
    write(
        &r.join("lower/skill.md"),
        "---\nname: lower\ndescription: Lower-case file.\n---\n",
    );
    r
}

fn doctor(tmp: &Path, args: &[&str], envs: &[(&str, &str)]) -> (i32, String) {
    let mut cmd = skill();
    cmd.current_dir(tmp)
        .env("HOME", tmp)
        .env("PATH", "/nonexistent")
        .env("SKILL_CACHE_DIR", tmp.join(".cache"))
        .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
        .arg("doctor")
        .args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let (code, stdout, stderr) = run(&mut cmd);
    assert!(stderr.is_empty(), "{stderr}");
    (code, stdout.replace(&tmp.display().to_string(), "{tmp}"))
}

#[test]
fn every_reason_for_every_agent() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let r = root(&tmp);
    for agent in [
        "openclaw", "nanobot", "claude", "codex", "gemini", "opencode", "copilot",
    ] {
        let (code, out) = doctor(&tmp, &[r.to_str().unwrap(), "--agent", agent], &[]);
        assert_eq!(code, 1, "{out}");
        snapshots().bind(|| insta::assert_snapshot!(format!("doctor-{agent}"), out));
    }
    let (code, out) = doctor(
        &tmp,
        &[r.to_str().unwrap(), "--agent", "openclaw", "--skill", "ok"],
        &[],
    );
    assert_eq!(code, 0, "a selected skill that loads: {out}");
}

#[test]
fn budgets_cut_at_each_step() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let r = tmp.join("many");
    for i in 0..12 {
        write(
            &r.join(format!("s{i:02}/SKILL.md")),
            &format!(
                "---\nname: s{i:02}\ndescription: {}\n---\n",
                "Words to fill the listing budget. ".repeat(6)
            ),
        );
    }
    let states = |out: &str| -> Vec<String> {
        json(out)["agents"][0]["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["state"].as_str().unwrap().to_owned())
            .collect()
    };
    let root = r.to_str().unwrap();
    let (code, out) = doctor(&tmp, &[root, "--agent", "openclaw", "--json"], &[]);
    assert_eq!(
        (code, states(&out).iter().all(|s| s == "loaded")),
        (0, true),
        "{out}"
    );
    let (code, out) = doctor(
        &tmp,
        &[root, "--agent", "openclaw", "--json", "--budget", "2200"],
        &[],
    );
    assert_eq!(code, 0);
    assert!(states(&out).iter().all(|s| s == "cut"), "{out}");
    assert!(out.contains("shortened"), "{out}");
    let (code, out) = doctor(
        &tmp,
        &[root, "--agent", "openclaw", "--json", "--budget", "900"],
        &[],
    );
    assert_eq!(
        code, 1,
        "a skill dropped by the budget does not reach the model"
    );
    assert!(states(&out).contains(&"cut-out".to_owned()), "{out}");
    // Claude Code: SLASH_COMMAND_TOOL_CHAR_BUDGET overrides the listing budget.
    let (code, out) = doctor(
        &tmp,
        &[root, "--agent", "claude", "--json"],
        &[("SLASH_COMMAND_TOOL_CHAR_BUDGET", "900")],
    );
    assert_eq!(code, 0);
    assert_eq!(json(&out)["agents"][0]["budget"], 900);
    assert!(out.contains("name only"), "{out}");
    // Codex: 2% of the context window in tokens, descriptions shortened first.
    let (_, out) = doctor(
        &tmp,
        &[root, "--agent", "codex", "--json", "--context", "100000"],
        &[],
    );
    assert_eq!(json(&out)["agents"][0]["budget"], 2000);
    let (_, out) = doctor(
        &tmp,
        &[root, "--agent", "codex", "--json", "--context", "20000"],
        &[],
    );
    assert_eq!(json(&out)["agents"][0]["budget"], 400);
    assert!(out.contains("description shortened to"), "{out}");
}

#[test]
fn default_agents_are_those_whose_roots_exist_and_shadowing_names_the_root() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    write(
        &tmp.join(".claude/skills/git/SKILL.md"),
        "---\nname: git\ndescription: Personal copy.\n---\n",
    );
    write(
        &tmp.join("proj/.claude/skills/git/SKILL.md"),
        "---\nname: git\ndescription: Project copy.\n---\n",
    );
    let (code, out, _) = run(skill()
        .current_dir(tmp.join("proj"))
        .env("HOME", &tmp)
        .env("SKILL_CACHE_DIR", tmp.join(".cache"))
        .args(["doctor", "--json"]));
    assert_eq!(code, 0, "{out}");
    let report = json(&out);
    let agents: Vec<&str> = report["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["agent"].as_str().unwrap())
        .collect();
    // OpenCode reads `.claude/skills` at home and in the project, Copilot CLI in the project.
    assert_eq!(agents, ["claude", "opencode", "copilot"]);
    let rows = report["agents"][0]["rows"].as_array().unwrap();
    let shadowed = rows.iter().find(|r| r["state"] == "shadowed").unwrap();
    assert_eq!(shadowed["root"], "project");
    assert!(
        shadowed["why"].as_str().unwrap().ends_with("in personal"),
        "{shadowed}"
    );
}

/// `doctor --agent openclaw` counts the skills bundled with the real openclaw package (which
/// `.ci/run` installs under target/test-deps/openclaw), found from `--openclaw-dir` or from the
/// `openclaw` command on PATH, as OpenClaw's lowest root; without the package it says in one
/// line that they are not counted.
#[test]
fn doctor_counts_openclaws_bundled_skills_when_the_package_is_found() {
    if lacks(&[Need::Openclaw]) {
        return;
    }
    let package = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/test-deps/openclaw/node_modules/openclaw");
    assert!(
        package.join("skills").is_dir(),
        "{} is missing: run .ci/run",
        package.display()
    );
    let tmp = tempfile::tempdir().unwrap();
    let bundled = std::fs::read_dir(package.join("skills")).unwrap().count();
    let reached = |stdout: &str| -> usize {
        let head = stdout.lines().next().unwrap_or_default();
        let of = head.split(" of ").nth(1).unwrap_or_default();
        of.split_whitespace().next().unwrap_or("0").parse().unwrap()
    };
    let from_flag = run(skill()
        .current_dir(tmp.path())
        .env("HOME", tmp.path())
        .env("PATH", "/nonexistent")
        .args(["doctor", "--agent", "openclaw", "--openclaw-dir"])
        .arg(&package));
    assert!(
        from_flag.1.contains("root openclaw-bundled: "),
        "{}",
        from_flag.1
    );
    assert!(reached(&from_flag.1) >= bundled - 2, "{}", from_flag.1);
    assert!(!from_flag.2.contains("not counted"), "{}", from_flag.2);
    let bin = package.parent().unwrap().join(".bin");
    let from_path = run(skill()
        .current_dir(tmp.path())
        .env("HOME", tmp.path())
        .env("PATH", &bin)
        .args(["doctor", "--agent", "openclaw"]));
    assert_eq!(
        reached(&from_path.1),
        reached(&from_flag.1),
        "{}",
        from_path.1
    );
    let (_, stdout, stderr) = run(skill()
        .current_dir(tmp.path())
        .env("HOME", tmp.path())
        .env("PATH", "/nonexistent")
        .args(["doctor", "--agent", "openclaw"]));
    assert!(!stdout.contains("openclaw-bundled"), "{stdout}");
    assert_eq!(
        stderr,
        "note: OpenClaw's bundled skills are not counted: no openclaw package found beside the `openclaw` on PATH (--openclaw-dir names one)\n"
    );
}

/// A link back up the tree inside a skill root ends the walk (each real folder is read once),
/// for every agent that walks below its roots; a budget variable of 0 is the agent's default,
/// as Copilot CLI and Claude Code read it.
#[test]
fn link_loops_end_and_a_zero_budget_is_the_default() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let project = tmp.join("proj");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    for root in [".claude/skills", ".agents/skills"] {
        let skill = project.join(root).join("a");
        write(
            &skill.join("SKILL.md"),
            "---\nname: a\ndescription: Inside a loop of links.\n---\n",
        );
        std::os::unix::fs::symlink("..", skill.join("up")).unwrap();
        std::os::unix::fs::symlink(".", skill.join("self")).unwrap();
    }
    let prompt = |agent: &str, env: &[(&str, &str)]| {
        let mut cmd = skill();
        cmd.current_dir(&project)
            .env("HOME", &tmp)
            .env("SKILL_CACHE_DIR", tmp.join(".cache"))
            .env_remove("SKILL_CHAR_BUDGET")
            .timeout(std::time::Duration::from_secs(60))
            .args(["prompt", "--agent", agent]);
        for (k, v) in env {
            cmd.env(k, v);
        }
        let (code, out, err) = run(&mut cmd);
        assert_eq!(code, 0, "{agent}: {err}");
        out
    };
    for agent in ["copilot", "opencode", "codex"] {
        let out = prompt(agent, &[]);
        assert!(out.contains("Inside a loop of links."), "{agent}: {out}");
    }
    assert_eq!(
        prompt("copilot", &[("SKILL_CHAR_BUDGET", "0")]),
        prompt("copilot", &[])
    );
    let (_, out) = doctor(
        &tmp,
        &[
            project.join(".claude/skills").to_str().unwrap(),
            "--agent",
            "claude",
            "--json",
        ],
        &[("SLASH_COMMAND_TOOL_CHAR_BUDGET", "0")],
    );
    assert_eq!(json(&out)["agents"][0]["budget"], 8000, "{out}");
    // The largest window there is gives a budget, not an overflow.
    for agent in ["claude", "codex"] {
        let out = prompt(agent, &[]);
        let mut cmd = skill();
        cmd.current_dir(&project)
            .env("HOME", &tmp)
            .env("SKILL_CACHE_DIR", tmp.join(".cache"))
            .args([
                "prompt",
                "--agent",
                agent,
                "--context",
                &usize::MAX.to_string(),
            ]);
        let (code, huge, err) = run(&mut cmd);
        assert_eq!((code, huge), (0, out), "{agent}: {err}");
    }
}
