//! `summary`, `prompt`, `list` and `check`, with golden outputs from the reference documents.

use crate::common;

use common::{json, run, skill, snapshots};
use std::path::{Path, PathBuf};

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A PATH holding only `jq` (a stub), so availability is the same on every machine.
fn fake_path(tmp: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin = tmp.join("bin");
    write(&bin.join("jq"), "#!/bin/sh\n");
    std::fs::set_permissions(bin.join("jq"), std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

/// The three skills of nanobot's reference example.
fn nanobot_example(tmp: &Path) -> (PathBuf, PathBuf) {
    let ws = tmp.join("ws/skills");
    let builtin = tmp.join("builtin");
    write(
        &ws.join("csv-report/SKILL.md"),
        "---\nname: csv-report\ndescription: Summarize CSV files into Markdown tables & charts. Use when the user shares a .csv file.\n---\n\n# CSV report\n",
    );
    write(
        &ws.join("release-notes/SKILL.md"),
        "---\nname: release-notes\ndescription: \"Draft release notes from git history. Use when asked for a changelog or <release> summary.\"\nmetadata: {\"nanobot\":{\"emoji\":\"📝\",\"requires\":{\"bins\":[\"git-cliff\",\"jq\"],\"env\":[\"GITHUB_TOKEN\"]}}}\n---\n\n# Release notes\n",
    );
    write(
        &builtin.join("web-digest/SKILL.md"),
        "---\nname: web-digest\ndescription: Fetch a web page and condense it into five bullet points.\nalways: true\n---\n\n# Web digest\n\nFetch the page with web_fetch, then summarize.\n",
    );
    (ws, builtin)
}

fn summary(tmp: &Path, args: &[&str]) -> (i32, String, String) {
    run(skill()
        .current_dir(tmp)
        .env("PATH", fake_path(tmp))
        .env("HOME", tmp)
        .env("SKILL_CACHE_DIR", tmp.join(".cache"))
        .env_remove("GITHUB_TOKEN")
        .args(args))
}

#[test]
fn nanobot_xml_matches_the_reference_example() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let (ws, builtin) = nanobot_example(&tmp);
    let (code, stdout, stderr) = summary(
        &tmp,
        &[
            "summary",
            "--format",
            "nanobot-xml",
            "--no-builtin",
            ws.to_str().unwrap(),
            builtin.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let expected = format!(
        r#"<skills>
  <skill available="true">
    <name>csv-report</name>
    <description>Summarize CSV files into Markdown tables &amp; charts. Use when the user shares a .csv file.</description>
    <location>{ws}/csv-report/SKILL.md</location>
  </skill>
  <skill available="false">
    <name>release-notes</name>
    <description>Draft release notes from git history. Use when asked for a changelog or &lt;release&gt; summary.</description>
    <location>{ws}/release-notes/SKILL.md</location>
    <requires>CLI: git-cliff, ENV: GITHUB_TOKEN</requires>
  </skill>
  <skill available="true">
    <name>web-digest</name>
    <description>Fetch a web page and condense it into five bullet points.</description>
    <location>{builtin}/web-digest/SKILL.md</location>
  </skill>
</skills>
"#,
        ws = ws.display(),
        builtin = builtin.display()
    );
    assert_eq!(stdout, expected);
}

#[test]
fn agentskills_matches_to_prompt_example() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let skills = tmp.join("skills");
    write(
        &skills.join("my-skill/SKILL.md"),
        "---\nname: my-skill\ndescription: Use <foo> & \"bar\" 'baz'\n---\n",
    );
    write(
        &skills.join("pdf-tools/SKILL.md"),
        "---\nname: pdf-tools\ndescription: |\n  Extract text from PDFs.\n  Use when handling PDF files.\n---\n",
    );
    let (code, stdout, _) = summary(&tmp, &["summary", "--no-builtin"]);
    assert_eq!(code, 0);
    let s = skills.display();
    assert_eq!(
        stdout,
        format!(
            "<available_skills>\n<skill>\n<name>\nmy-skill\n</name>\n<description>\nUse &lt;foo&gt; &amp; &quot;bar&quot; &#x27;baz&#x27;\n</description>\n<location>\n{s}/my-skill/SKILL.md\n</location>\n</skill>\n<skill>\n<name>\npdf-tools\n</name>\n<description>\nExtract text from PDFs.\nUse when handling PDF files.\n</description>\n<location>\n{s}/pdf-tools/SKILL.md\n</location>\n</skill>\n</available_skills>\n"
        )
    );
}

#[test]
fn openclaw_block_budget_and_truncation() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let ws = tmp.join(".openclaw/workspace/skills");
    write(
        &ws.join("github/SKILL.md"),
        "---\nname: github\ndescription: GitHub operations via `gh` CLI & \"API\".\n---\n",
    );
    write(
        &ws.join("hidden/SKILL.md"),
        "---\nname: hidden\ndescription: Not for the model.\ndisable-model-invocation: true\n---\n",
    );
    write(
        &ws.join("gated/SKILL.md"),
        "---\nname: gated\ndescription: Needs a missing tool.\nmetadata: {\"openclaw\":{\"requires\":{\"bins\":[\"skill-test-missing\"]}}}\n---\n",
    );
    for i in 0..5 {
        write(
            &ws.join(format!("s{i}/SKILL.md")),
            &format!(
                "---\nname: s{i}\ndescription: Skill number {i} with a long description to fill the budget quickly.\n---\n"
            ),
        );
    }
    let run_with = |extra: &[&str]| {
        summary(
            &tmp,
            &[&["summary", "--agent", "openclaw", "--no-builtin"], extra].concat(),
        )
        .1
    };
    let full = run_with(&[]);
    assert!(
        full.starts_with(
            "\n\nThe following skills provide specialized instructions for specific tasks.\n"
        ),
        "{full}"
    );
    assert!(full.contains("<available_skills>\n  <skill>\n    <name>github</name>\n    <description>GitHub operations via `gh` CLI &amp; &quot;API&quot;.</description>\n    <location>~/.openclaw/workspace/skills/github/SKILL.md</location>\n  </skill>\n"), "{full}");
    assert!(
        !full.contains("hidden") && !full.contains("gated"),
        "ineligible and hidden skills are left out"
    );
    // The steps of OpenClaw's budget in turn: descriptions shortened, omitted, skills dropped.
    let compact = run_with(&["--budget", "1400"]);
    assert!(
        compact.starts_with("⚠️ Skills catalog using compact format (descriptions shortened)."),
        "{compact}"
    );
    let omitted = run_with(&["--budget", "1200"]);
    assert!(
        omitted.starts_with("⚠️ Skills catalog using compact format (descriptions omitted)."),
        "{omitted}"
    );
    let truncated = run_with(&["--budget", "900"]);
    snapshots().bind(|| insta::assert_snapshot!("summary-openclaw-truncated", truncated));
}

#[test]
fn prompt_has_active_skills_then_the_summary() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let (ws, builtin) = nanobot_example(&tmp);
    let (code, stdout, _) = summary(
        &tmp,
        &[
            "prompt",
            "--no-builtin",
            ws.to_str().unwrap(),
            builtin.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0);
    let stdout = stdout.replace(&tmp.display().to_string(), "{tmp}");
    snapshots().bind(|| insta::assert_snapshot!("prompt-nanobot", stdout));
    assert!(stdout.starts_with("# Active Skills\n\n### Skill: web-digest\n\n# Web digest\n\nFetch the page with web_fetch, then summarize.\n\n---\n\n# Skills\n"));
}

#[test]
fn markdown_json_available_only_tokens_and_selection() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let (ws, _) = nanobot_example(&tmp);
    let ws_arg = ws.to_str().unwrap();
    let (_, md, _) = summary(
        &tmp,
        &["summary", "--format", "markdown", "--no-builtin", ws_arg],
    );
    assert!(md.contains("- **release-notes** — Draft release notes from git history. Use when asked for a changelog or <release> summary. (unavailable: CLI: git-cliff, ENV: GITHUB_TOKEN)  `"), "{md}");
    let (_, js, _) = summary(
        &tmp,
        &["summary", "--format", "json", "--no-builtin", ws_arg],
    );
    let skills = json(&js)["skills"].as_array().unwrap().clone();
    assert_eq!(skills.len(), 2);
    assert_eq!(skills[1]["missing"], "CLI: git-cliff, ENV: GITHUB_TOKEN");
    let (_, only, _) = summary(
        &tmp,
        &[
            "summary",
            "--format",
            "nanobot",
            "--available-only",
            "--no-builtin",
            ws_arg,
        ],
    );
    assert!(only.contains("csv-report") && !only.contains("release-notes"));
    let (_, one, _) = summary(
        &tmp,
        &["summary", "--no-builtin", "--skill", "csv-report", ws_arg],
    );
    assert_eq!(one.matches("<skill>").count(), 1);
    let (code, _, stderr) = summary(
        &tmp,
        &["summary", "--no-builtin", "--skill", "nope", ws_arg],
    );
    assert_eq!((code, stderr.as_str()), (2, "error: no such skill: nope\n"));
    let (_, _, cost) = summary(&tmp, &["summary", "--no-builtin", "--tokens", ws_arg]);
    let lines: Vec<&str> = cost.lines().collect();
    assert!(
        lines[0].starts_with("tokens (o200k): ") && lines[0].ends_with(" in all"),
        "{cost}"
    );
    assert!(
        lines[1].split_whitespace().nth(1) == Some("csv-report"),
        "{cost}"
    );
}

#[test]
fn list_and_check() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let (ws, builtin) = nanobot_example(&tmp);
    write(
        &builtin.join("csv-report/SKILL.md"),
        "---\nname: csv-report\ndescription: An older copy.\n---\n",
    );
    write(
        &ws.join("with-install/SKILL.md"),
        "---\nname: with-install\ndescription: Uses ffmpeg.\nmetadata: {\"openclaw\":{\"requires\":{\"bins\":[\"ffmpeg\"],\"env\":[\"API_KEY\"]},\"install\":[{\"kind\":\"brew\",\"formula\":\"ffmpeg\",\"label\":\"Install ffmpeg (brew)\"}]}}\n---\n",
    );
    let roots = ["ws/skills", "builtin"];
    let (code, table, _) = run(skill()
        .current_dir(&tmp)
        .env("PATH", fake_path(&tmp))
        .env("COLUMNS", "100")
        .env_remove("GITHUB_TOKEN")
        .env_remove("API_KEY")
        .args(["list", "--no-builtin"])
        .args(roots));
    assert_eq!(code, 0);
    let table = table.replace(&tmp.display().to_string(), "{tmp}");
    let (code, check, _) = summary(
        &tmp,
        &[["check", "--no-builtin"].as_slice(), &roots].concat(),
    );
    assert_eq!(code, 1);
    let check = check.replace(&tmp.display().to_string(), "{tmp}");
    snapshots().bind(|| {
        insta::assert_snapshot!("list-table", table);
        insta::assert_snapshot!("check-missing", check);
    });
    let (code, ok, _) = summary(
        &tmp,
        &[
            ["check", "--no-builtin", "--skill", "csv-report"].as_slice(),
            &roots,
        ]
        .concat(),
    );
    assert_eq!((code, ok.as_str()), (0, "1 of 1 skills ready\n"));
}

/// `skill check --agent X` gates by the requirements X checks, read from the block X reads.
#[test]
fn check_gates_by_the_agents_rules() {
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    write(
        &tmp.join("skills/any-tool/SKILL.md"),
        "---\nname: any-tool\ndescription: Converts files.\nmetadata: {\"openclaw\":{\"requires\":{\"anyBins\":[\"skill-test-no-such-binary\"]}}}\n---\n",
    );
    write(
        &tmp.join("skills/undescribed/SKILL.md"),
        "---\nname: undescribed\n---\n",
    );
    let check = |agent: &[&str]| {
        let (code, stdout, stderr) = summary(
            &tmp,
            &[
                ["check", "--no-builtin", "skills", "--json"].as_slice(),
                agent,
            ]
            .concat(),
        );
        let out = serde_json::from_str::<serde_json::Value>(&stdout).unwrap();
        let missing: Vec<String> = out["unavailable"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| {
                format!(
                    "{}: {}",
                    u["name"].as_str().unwrap(),
                    u["missing"].as_str().unwrap()
                )
            })
            .collect();
        (
            code,
            out["ready"].as_u64().unwrap(),
            out["total"].as_u64().unwrap(),
            missing,
            stderr,
        )
    };
    let (code, ready, total, missing, _) = check(&[]);
    assert_eq!((code, ready, total), (1, 1, 2));
    assert_eq!(missing, ["any-tool: any CLI of: skill-test-no-such-binary"]);
    let (code, ready, total, missing, _) = check(&["--agent", "openclaw"]);
    // OpenClaw drops the skill without a description and gates on anyBins.
    assert_eq!((code, ready, total), (1, 0, 1));
    assert_eq!(missing, ["any-tool: any CLI of: skill-test-no-such-binary"]);
    // nanobot checks bins and env only, and shows the folder name for a missing description.
    let (code, ready, total, missing, _) = check(&["--agent", "nanobot"]);
    assert_eq!((code, ready, total, missing.len()), (0, 2, 2, 0));
    let (code, human, stderr) = summary(
        &tmp,
        &["check", "--no-builtin", "skills", "--agent", "openclaw"],
    );
    assert_eq!(code, 1);
    assert!(human.starts_with("0 of 1 skills ready\n"), "{human}");
    assert!(
        stderr.contains("note: 1 folder is not loaded by OpenClaw at all; `skill doctor --agent openclaw` says why"),
        "{stderr}"
    );
}

#[test]
fn list_prints_whole_descriptions_to_a_pipe_and_fits_width_when_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let description = "Turns meeting notes into a list of decisions, owners and dates, then files each one in the tracker the team uses. Use when the user shares notes.";
    common::write_skill(
        &tmp.path().join("skills"),
        "notes",
        format!("---\nname: notes\ndescription: {description}\n---\n"),
    );
    let list = |extra: &[&str]| {
        let (code, stdout, stderr) = run(skill()
            .current_dir(tmp.path())
            .env_remove("COLUMNS")
            .args(["list", "--no-builtin", "skills"])
            .args(extra));
        assert_eq!(code, 0, "{stderr}");
        stdout
    };
    assert!(list(&[]).contains(description), "{}", list(&[]));
    let narrow = list(&["--width", "80"]);
    assert!(!narrow.contains(description), "{narrow}");
    assert!(narrow.lines().all(|l| l.chars().count() <= 80), "{narrow}");
}
