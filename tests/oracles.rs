//! `skill summary --format openclaw|nanobot` and `skill prompt --agent openclaw|nanobot` against
//! the real agents, installed by `.ci/run`: `openclaw@2026.9.6` from npm (its
//! `buildSkillSnapshot`, run by npm's `node@22`) and `nanobot-ai==0.3.5` from PyPI in a venv
//! (`SkillsLoader.build_skills_summary`). Both see the same workspaces: a seeded random sample
//! of corpus skills (`../shared/corpus` when present, else the package corpus
//! `target/test-deps/corpus`), cut into workspaces of 25, one workspace holding the whole
//! sample (so OpenClaw's per-root and count limits and its budget steps apply), and
//! hand-written edge cases. nanobot lists folders in file-system order (`iterdir`), we sort:
//! its outputs are compared as multisets of lines per group.

use crate::common;
use common::needs::{Need, lacks};

use common::{corpus, run, skill};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The seed of the sample; change it to look at other skills.
const SEED: u64 = 0x5ced_2026_0902;
/// How many corpus skills the sample takes.
const SAMPLE: usize = 300;
/// Skills per workspace for the whole-output comparisons.
const BATCH: usize = 25;

fn deps() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-deps")
}

fn need(path: PathBuf) -> PathBuf {
    assert!(
        path.exists(),
        "{} is missing: run .ci/run, which installs openclaw@2026.9.6 and nanobot-ai==0.3.5",
        path.display()
    );
    path
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// Hand-written edge cases, each in its own workspace.
fn edge_cases(home: &Path) -> Vec<PathBuf> {
    let long = "Use when the user asks for a long thing. ".repeat(12);
    let cases: Vec<Vec<(&str, String)>> = vec![
        vec![
            ("folded", "---\nname: folded\ndescription: >\n  Folded text\n  over lines.\n---\n".into()),
            ("literal", "---\nname: literal\ndescription: |\n  Literal text\n  kept.\n---\nbody\n".into()),
            ("keep", "---\nname: keep\ndescription: |+\n  Kept newlines\n\n---\n".into()),
            ("colon", "---\nname: colon\ndescription: Use when: the YAML is broken\n---\n".into()),
            ("quoted-colon", "---\nname: quoted-colon\ndescription: 'Use when: quoted'\n---\n".into()),
            ("broken", "---\nname: broken\ndescription: [unclosed\n---\n".into()),
            ("tabs", "---\nname: tabs\n\tdescription: tab\n---\n".into()),
            ("no-description", "---\nname: no-description\n---\n# Title\n\nFirst paragraph.\n".into()),
            ("empty-description", "---\nname: empty-description\ndescription: \"\"\n---\n".into()),
            ("no-frontmatter", "# Just markdown\n\nNo frontmatter here.\n".into()),
            ("unclosed", "---\nname: unclosed\ndescription: never closed\n".into()),
            ("crlf-bom", "\u{feff}---\r\nname: crlf-bom\r\ndescription: CRLF and a BOM\r\n---\r\n".into()),
            ("yes-description", "---\nname: yes-description\ndescription: yes\n---\n".into()),
            ("number", "---\nname: number\ndescription: 42\n---\n".into()),
            ("dup", "---\nname: dup\ndescription: one\ndescription: two\n---\n".into()),
            ("renamed", "---\nname: Other Name\ndescription: A name that is not the folder's & <odd>\n---\n".into()),
            ("same-a", "---\nname: same\ndescription: first folder of the name\n---\n".into()),
            ("same-b", "---\nname: same\ndescription: second folder of the name\n---\n".into()),
            ("hidden", "---\nname: hidden\ndescription: not for the model\ndisable-model-invocation: true\n---\n".into()),
            ("gated", "---\nname: gated\ndescription: needs a tool\nmetadata: {\"openclaw\":{\"requires\":{\"bins\":[\"skill-test-missing-bin\"]}}}\n---\n".into()),
            ("moltbot", "---\nname: moltbot\ndescription: old block name\nmetadata: {\"moltbot\":{\"requires\":{\"bins\":[\"skill-test-missing-bin\"]}}}\n---\n".into()),
            ("nanobot-block", "---\nname: nanobot-block\ndescription: nanobot's block\nmetadata:\n  nanobot:\n    requires:\n      env: [SKILL_TEST_UNSET_VAR]\n  openclaw:\n    os: [darwin]\n---\n".into()),
            ("always", "---\nname: always\ndescription: always on\nalways: true\n---\n\n# Always\n\nThe body.\n".into()),
            ("yaml-metadata", "---\nname: yaml-metadata\ndescription: nested YAML metadata\nmetadata:\n  openclaw:\n    requires:\n      anyBins: [skill-test-a, sh]\n---\n".into()),
            ("long", format!("---\nname: long\ndescription: {long}\n---\n")),
        ],
        // Budgets crossed at each step: full, descriptions shortened, omitted, skills dropped.
        (0..30)
            .map(|i| (Box::leak(format!("fill-{i:02}").into_boxed_str()) as &str, format!("---\ndescription: {}\n---\n", "Lots of words to fill the budget. ".repeat(16))))
            .collect(),
        (0..90)
            .map(|i| (Box::leak(format!("names-{i:02}").into_boxed_str()) as &str, format!("---\ndescription: {}\n---\n", "Lots of words to fill the budget. ".repeat(20))))
            .collect(),
        (0..160)
            .map(|i| (Box::leak(format!("many-{i:03}").into_boxed_str()) as &str, "---\ndescription: short\n---\n".to_owned()))
            .collect(),
    ];
    cases
        .into_iter()
        .enumerate()
        .map(|(i, skills)| {
            let ws = home.join(format!("edge{i}"));
            for (dir, text) in skills {
                write(&ws.join("skills").join(dir).join("SKILL.md"), &text);
            }
            write(
                &ws.join("skills/lower-only/skill.md"),
                "---\ndescription: lower case file\n---\n",
            );
            write(
                &ws.join("skills/.dot/SKILL.md"),
                "---\ndescription: hidden folder\n---\n",
            );
            ws
        })
        .collect()
}

/// A PATH with `sh` only, so availability is the same for us and the oracles.
fn path_env(tmp: &Path) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let bin = tmp.join("bin");
    write(&bin.join("sh"), "#!/bin/sh\n");
    std::fs::set_permissions(bin.join("sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    bin
}

fn ours(tmp: &Path, args: &[&str]) -> String {
    let (code, stdout, stderr) = run(skill()
        .current_dir(tmp)
        .env("HOME", tmp.join("home"))
        .env("PATH", path_env(tmp))
        .env("SKILL_CACHE_DIR", tmp.join("cache"))
        .env_remove("SKILL_TEST_UNSET_VAR")
        .env_remove("OPENCLAW_WORKSPACE")
        .args(args));
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

fn oracle(tmp: &Path, program: &Path, args: &[&Path]) -> serde_json::Value {
    let out = Command::new(program)
        .args(args)
        .env("HOME", tmp.join("home"))
        .env("PATH", path_env(tmp))
        .env("OPENCLAW_STATE_DIR", tmp.join("state"))
        .env_remove("SKILL_TEST_UNSET_VAR")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn workspaces(tmp: &Path) -> (String, usize, Vec<PathBuf>, Vec<PathBuf>) {
    let home = tmp.join("home");
    let (which, files) = corpus::sample("oracles", SEED, SAMPLE);
    let mut sampled = Vec::new();
    for (i, batch) in files.chunks(BATCH).enumerate() {
        let ws = home.join(format!("batch{i:02}"));
        corpus::workspace(&ws.join("skills"), batch);
        sampled.push(ws);
    }
    let all = home.join("all");
    corpus::workspace(&all.join("skills"), &files);
    sampled.push(all);
    (which, files.len(), sampled, edge_cases(&home))
}

/// Where two outputs first differ, for the failure message.
fn first_difference(a: &str, b: &str) -> String {
    let at = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
    let from = at.saturating_sub(200);
    let cut = |s: &str| s.chars().skip(from).take(400).collect::<String>();
    format!(
        "at char {at}:\n--- ours\n{}\n--- theirs\n{}",
        cut(a),
        cut(b)
    )
}

#[test]
fn openclaw_summary_and_prompt_match_openclaw_2026_9_6() {
    if lacks(&[Need::Openclaw, Need::Corpus]) {
        return;
    }
    let node = need(deps().join("npm/node_modules/node/bin/node"));
    let dist = need(deps().join("openclaw/node_modules/openclaw/dist"));
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let (which, sampled, mut spaces, edges) = workspaces(&tmp);
    spaces.extend(edges);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/openclaw_prompt.mjs");
    let mut args: Vec<&Path> = vec![&script, &dist];
    args.extend(spaces.iter().map(PathBuf::as_path));
    let theirs = oracle(&tmp, &node, &args);
    let mut failures = Vec::new();
    for (ws, prompt) in spaces.iter().zip(theirs.as_array().unwrap()) {
        let prompt = prompt.as_str().unwrap();
        let root = ws.join("skills");
        let summary = ours(
            &tmp,
            &[
                "summary",
                "--format",
                "openclaw",
                "--no-builtin",
                root.to_str().unwrap(),
            ],
        );
        let expected = if prompt.is_empty() {
            String::new()
        } else {
            format!("{prompt}\n")
        };
        if summary != expected {
            failures.push(format!(
                "{}: {}",
                ws.display(),
                first_difference(&summary, &expected)
            ));
        }
    }
    eprintln!(
        "openclaw oracle: {sampled} skills sampled from {which} (seed {SEED:#x}), {} workspaces, {} differ",
        spaces.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} workspaces differ:\n{}",
        failures.len(),
        spaces.len(),
        failures.join("\n\n")
    );
    // The prompt section: OpenClaw's heading lines, then the trimmed catalog.
    let ws = &spaces[0];
    let section = ours(
        &tmp,
        &[
            "prompt",
            "--agent",
            "openclaw",
            "--no-builtin",
            ws.join("skills").to_str().unwrap(),
        ],
    );
    let catalog = theirs[0].as_str().unwrap().trim();
    let source = std::fs::read_dir(&dist)
        .unwrap()
        .flatten()
        .find(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("system-prompt-params-")
        })
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .unwrap();
    for line in section.lines().take(5) {
        let line = line.replace("`read`", "\\`${params.readToolName}\\`");
        assert!(
            source.contains(&line),
            "not in OpenClaw's buildSkillsSection: {line}"
        );
    }
    assert!(section.ends_with(&format!("\n{catalog}\n")), "{section}");
}

/// A summary as a sorted list of groups, each its header and its sorted entries.
fn groups(summary: &str) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = summary
        .split("\n\n### ")
        .filter(|g| !g.is_empty())
        .map(|g| {
            let mut parts = g.split("\n- **");
            let header = parts
                .next()
                .unwrap_or("")
                .trim_start_matches("### ")
                .to_owned();
            let mut entries: Vec<String> = parts.map(str::to_owned).collect();
            entries.sort();
            (header, entries)
        })
        .collect();
    out.sort();
    out
}

#[test]
fn nanobot_summary_and_prompt_match_nanobot_0_3_5() {
    if lacks(&[Need::Nanobot, Need::Corpus]) {
        return;
    }
    let python = need(deps().join("nanobot-venv/bin/python"));
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let (which, sampled, mut spaces, edges) = workspaces(&tmp);
    spaces.extend(edges);
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/nanobot_summary.py");
    let empty = tmp.join("no-builtin");
    std::fs::create_dir_all(&empty).unwrap();
    let mut args: Vec<&Path> = vec![&script, &empty];
    args.extend(spaces.iter().map(PathBuf::as_path));
    let theirs = oracle(&tmp, &python, &args);
    let mut failures = Vec::new();
    for (ws, out) in spaces.iter().zip(theirs.as_array().unwrap()) {
        let root = ws.join("skills");
        let summary = ours(
            &tmp,
            &[
                "summary",
                "--format",
                "nanobot",
                "--no-builtin",
                root.to_str().unwrap(),
            ],
        );
        // We end the output with a newline; nanobot's string has none.
        let summary = summary.strip_suffix('\n').unwrap_or(&summary).to_owned();
        let expected = out["summary"].as_str().unwrap();
        let (a, b) = (groups(&summary), groups(expected));
        if a != b || summary.len() != expected.len() {
            let flat = |g: &[(String, Vec<String>)]| -> Vec<String> {
                g.iter()
                    .flat_map(|(h, e)| e.iter().map(move |x| format!("{h} | {x}")))
                    .collect()
            };
            let (fa, fb) = (flat(&a), flat(&b));
            let only_ours: Vec<&String> = fa.iter().filter(|x| !fb.contains(x)).take(3).collect();
            let only_theirs: Vec<&String> = fb.iter().filter(|x| !fa.contains(x)).take(3).collect();
            failures.push(format!(
                "{}: only ours {only_ours:#?}\nonly theirs {only_theirs:#?}",
                ws.display()
            ));
        }
    }
    eprintln!(
        "nanobot oracle: {sampled} skills sampled from {which} (seed {SEED:#x}), {} workspaces, {} differ",
        spaces.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} workspaces differ:\n{}",
        failures.len(),
        spaces.len(),
        failures.join("\n\n")
    );
}

#[test]
fn nanobot_prompt_and_builtin_group_match_nanobot_0_3_5() {
    if lacks(&[Need::Nanobot, Need::Corpus]) {
        return;
    }
    let python = need(deps().join("nanobot-venv/bin/python"));
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let ws = tmp.join("home/ws");
    write(
        &ws.join("skills/always/SKILL.md"),
        "---\ndescription: always on\nmetadata: {\"nanobot\": {\"always\": true}}\n---\n\n# Always\n\nInjected whole.\n",
    );
    write(
        &ws.join("skills/gated/SKILL.md"),
        "---\ndescription: needs a tool\nmetadata: {\"nanobot\": {\"requires\": {\"bins\": [\"skill-test-missing-bin\"], \"env\": [\"SKILL_TEST_UNSET_VAR\"]}}}\n---\n",
    );
    write(
        &ws.join("skills/plain/SKILL.md"),
        "---\ndescription: |\n  Two lines\n  of text.\n---\n",
    );
    // Our builtin skills, materialised where `skill` keeps them, are nanobot's built-in root.
    let json = ours(
        &tmp,
        &[
            "summary",
            "--builtin",
            "--format",
            "json",
            ws.join("skills").to_str().unwrap(),
        ],
    );
    let builtin = common::json(&json)["skills"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["root"] == "builtin")
        .map(|s| {
            PathBuf::from(s["location"].as_str().unwrap())
                .parent()
                .unwrap()
                .parent()
                .unwrap()
                .to_path_buf()
        })
        .unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/nanobot_summary.py");
    let theirs = oracle(&tmp, &python, &[&script, &builtin, &ws]);
    let summary = ours(
        &tmp,
        &[
            "summary",
            "--builtin",
            "--agent",
            "nanobot",
            ws.join("skills").to_str().unwrap(),
        ],
    );
    let summary = summary.strip_suffix('\n').unwrap_or(&summary);
    assert_eq!(
        groups(summary),
        groups(theirs[0]["summary"].as_str().unwrap())
    );
    let prompt = ours(
        &tmp,
        &[
            "prompt",
            "--builtin",
            "--agent",
            "nanobot",
            ws.join("skills").to_str().unwrap(),
        ],
    );
    let prompt = prompt.strip_suffix('\n').unwrap_or(&prompt).to_owned();
    let expected = theirs[0]["prompt"].as_str().unwrap().to_owned();
    let split = |p: &str| -> (String, String) {
        let (active, rest) = p.split_once("\n\n---\n\n# Skills\n\n").unwrap();
        let (heading, summary) = rest.split_once("\n\n").unwrap();
        (format!("{active}\n{heading}"), summary.to_owned())
    };
    let (ours_head, ours_summary) = split(&prompt);
    let (their_head, their_summary) = split(&expected);
    assert_eq!(ours_head, their_head);
    assert_eq!(groups(&ours_summary), groups(&their_summary));
}

/// Skills per workspace for the fix oracle: under OpenClaw's 200 loaded and 300 candidate
/// folders per root.
const FIX_BATCH: usize = 150;

/// Every corpus skill, whole folder, in workspaces of [`FIX_BATCH`].
fn whole_corpus_workspaces(home: &Path) -> (String, Vec<PathBuf>) {
    let (which, files) = corpus::skills("oracles");
    let mut spaces = Vec::new();
    for (i, batch) in files.chunks(FIX_BATCH).enumerate() {
        let ws = home.join(format!("fix{i:02}"));
        let skills = ws.join("skills");
        for file in batch {
            let source = file.parent().unwrap();
            let base = source.file_name().unwrap().to_string_lossy().into_owned();
            let mut name = base.clone();
            let mut n = 2;
            while skills.join(&name).exists() {
                name = format!("{base}-{n}");
                n += 1;
            }
            common::copy_tree(source, &skills.join(name));
        }
        spaces.push(ws);
    }
    (which, spaces)
}

/// What OpenClaw (loaded, eligible) and nanobot (listed, available) see in each workspace.
fn agents_see(tmp: &Path, spaces: &[PathBuf]) -> (serde_json::Value, serde_json::Value) {
    let node = need(deps().join("npm/node_modules/node/bin/node"));
    let dist = need(deps().join("openclaw/node_modules/openclaw/dist"));
    let python = need(deps().join("nanobot-venv/bin/python"));
    let oracles = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle");
    let empty = tmp.join("no-builtin");
    std::fs::create_dir_all(&empty).unwrap();
    let mut openclaw_args = vec![oracles.join("openclaw_eligible.mjs"), dist];
    openclaw_args.extend(spaces.iter().cloned());
    let mut nanobot_args = vec![oracles.join("nanobot_available.py"), empty];
    nanobot_args.extend(spaces.iter().cloned());
    let openclaw_args: Vec<&Path> = openclaw_args.iter().map(PathBuf::as_path).collect();
    let nanobot_args: Vec<&Path> = nanobot_args.iter().map(PathBuf::as_path).collect();
    (
        oracle(tmp, &node, &openclaw_args),
        oracle(tmp, &python, &nanobot_args),
    )
}

/// `skill lint --fix` (safe fixes only) over every corpus skill changes no agent's view: the
/// real OpenClaw 2026.9.6 loads and finds eligible, and the real nanobot 0.3.5 lists and finds
/// available, exactly the same folders before and after, so every fixed SKILL.md still parses
/// in both. With --unsafe-fixes, which declare inferred commands, both hide skills; that is
/// why those fixes need the flag.
#[test]
fn safe_fixes_change_no_agents_view_of_the_corpus() {
    if lacks(&[Need::Openclaw, Need::Nanobot, Need::Corpus]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let tmp = std::fs::canonicalize(tmp.path()).unwrap();
    let (which, spaces) = whole_corpus_workspaces(&tmp.join("home"));
    let before = agents_see(&tmp, &spaces);
    let mut fixed = 0;
    for ws in &spaces {
        let (code, _, stderr) = run(skill().current_dir(ws).env("HOME", tmp.join("home")).args([
            "lint",
            "skills",
            "--fix",
            "--no-env-checks",
            "--format",
            "concise",
        ]));
        assert!(code == 0 || code == 1, "{}: {stderr}", ws.display());
        fixed += stderr.lines().filter(|l| l.starts_with("fixed ")).count();
    }
    let after = agents_see(&tmp, &spaces);
    println!(
        "{which}: {fixed} safe fixes applied in {} workspaces",
        spaces.len()
    );
    for (i, ws) in spaces.iter().enumerate() {
        assert_eq!(
            before.0[i],
            after.0[i],
            "OpenClaw sees {} differently after --fix",
            ws.display()
        );
        assert_eq!(
            before.1[i],
            after.1[i],
            "nanobot sees {} differently after --fix",
            ws.display()
        );
    }
    // The comparison can fail: the unsafe fixes, which declare what the skills run, hide skills
    // from the agents on this machine, where almost no command is on PATH.
    for ws in &spaces {
        run(skill().current_dir(ws).env("HOME", tmp.join("home")).args([
            "lint",
            "skills",
            "--fix",
            "--unsafe-fixes",
            "--no-env-checks",
        ]));
    }
    let unsafe_after = agents_see(&tmp, &spaces);
    let count = |v: &serde_json::Value, key: &str| -> usize {
        v.as_array()
            .unwrap()
            .iter()
            .map(|ws| ws[key].as_array().unwrap().len())
            .sum()
    };
    let (eligible, available) = (count(&after.0, "eligible"), count(&after.1, "available"));
    let hidden_openclaw = eligible - count(&unsafe_after.0, "eligible");
    let hidden_nanobot = available - count(&unsafe_after.1, "available");
    println!(
        "eligible in OpenClaw {eligible}, available in nanobot {available}; after --unsafe-fixes {hidden_openclaw} and {hidden_nanobot} fewer"
    );
    assert!(
        hidden_openclaw + hidden_nanobot > 0,
        "the unsafe fixes hid nothing; the comparison could not fail"
    );
}
