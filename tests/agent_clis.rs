//! `skill prompt --agent X` against the real agent CLIs, installed by `.ci/run` from npm into
//! `target/test-deps/agents`: each runs headless in a temporary home and project against a
//! model on loopback (`common::agent_server`), with telemetry, update checks and other traffic
//! off, and the skills listing in the request it sends must equal ours byte for byte. The
//! workspaces hold a seeded sample of real skills (`../shared/corpus` when present, else the
//! package corpus) and hand-written edge cases.

mod common;

use common::agent_server::AgentServer;
use common::{corpus, run, skill};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The seed of the corpus sample.
const SEED: u64 = 0xc11_2026_1204;

fn cli(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("target/test-deps/agents/node_modules/.bin")
        .join(name);
    assert!(
        path.exists(),
        "{} is missing: run .ci/run, which installs the agent CLIs from npm",
        path.display()
    );
    path
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A home and a project (a git repository) in `tmp`.
fn places(tmp: &Path) -> (PathBuf, PathBuf) {
    let home = tmp.join("home");
    let project = tmp.join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(project.join(".git")).unwrap();
    (home, project)
}

/// `skill prompt --agent AGENT` in `project` with `home`.
fn ours(agent: &str, home: &Path, project: &Path, env: &[(&str, &str)], args: &[&str]) -> String {
    let mut cmd = skill();
    cmd.current_dir(project)
        .env("HOME", home)
        .env("SKILL_CACHE_DIR", home.join(".cache/skill"))
        .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
        .args(["prompt", "--agent", agent])
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let (code, stdout, stderr) = run(&mut cmd);
    assert_eq!(code, 0, "skill prompt --agent {agent}: {stderr}");
    stdout.strip_suffix('\n').unwrap_or(&stdout).to_owned()
}

/// Runs `program args` in `project` with a clean environment plus `env`, and returns the first
/// model request it sent.
fn first_request(
    server: &AgentServer,
    program: &Path,
    args: &[&str],
    project: &Path,
    env: &[(&str, String)],
) -> Value {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(project)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("TERM", "dumb")
        .env("LANG", "C.UTF-8")
        .stdin(std::process::Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let requests = server.model_requests();
    assert!(
        !requests.is_empty(),
        "{} sent no model request: {}\n{}",
        program.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    requests[0].body.clone()
}

/// The lines that differ, as a unified diff (at most 40 lines of it).
fn line_diff(real: &str, ours: &str) -> String {
    let diff = similar::TextDiff::from_lines(real, ours);
    let text = diff
        .unified_diff()
        .context_radius(0)
        .header("real", "ours")
        .to_string();
    text.lines().take(40).collect::<Vec<_>>().join("\n")
}

fn assert_same(what: &str, real: &str, ours: &str) {
    assert!(real == ours, "{what}:\n{}", line_diff(real, ours));
}

// --- Claude Code ---------------------------------------------------------------------------

/// The model the Claude Code runs ask for: a 200k-token window, so an 8,000-column budget.
const CLAUDE_MODEL: &str = "claude-sonnet-4-5";

/// Claude Code's listing block in its first request, its own bundled entries cut off (they
/// come last, from `dataviz` on).
fn claude_listing(body: &Value) -> String {
    let texts = body["messages"][0]["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|b| b["text"].as_str());
    let block = texts
        .into_iter()
        .find(|t| t.contains("The following skills are available for use with the Skill tool:"))
        .unwrap_or_else(|| panic!("no skills listing in {body}"))
        .to_owned();
    let cut = ["\n- dataviz: ", "\n- dataviz\n"]
        .iter()
        .filter_map(|m| block.find(m))
        .min()
        .expect("Claude Code's bundled entries");
    format!("{}\n</system-reminder>", &block[..cut])
}

fn claude(home: &Path, project: &Path, budget: Option<usize>) -> String {
    let server = AgentServer::start();
    let mut env = vec![
        ("HOME", home.display().to_string()),
        ("ANTHROPIC_BASE_URL", server.url.clone()),
        ("ANTHROPIC_API_KEY", "sk-ant-test".to_owned()),
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".to_owned()),
        ("DISABLE_TELEMETRY", "1".to_owned()),
        ("DISABLE_AUTOUPDATER", "1".to_owned()),
        ("DISABLE_ERROR_REPORTING", "1".to_owned()),
    ];
    if let Some(b) = budget {
        env.push(("SLASH_COMMAND_TOOL_CHAR_BUDGET", b.to_string()));
    }
    let body = first_request(
        &server,
        &cli("claude"),
        &[
            "-p",
            "hello",
            "--output-format",
            "json",
            "--model",
            CLAUDE_MODEL,
        ],
        project,
        &env,
    );
    claude_listing(&body)
}

/// Skills that exercise Claude Code's reading: labels, fallbacks, `when_to_use`, hidden
/// skills, escaping, the 1,536 cap, broken frontmatter, roots and their precedence.
fn claude_edge_cases(home: &Path, project: &Path) {
    let personal = home.join(".claude/skills");
    let here = project.join("sub/.claude/skills");
    let top = project.join(".claude/skills");
    let long = "Use when the listing must cut a long text. ".repeat(40);
    let cases: Vec<(PathBuf, &str, String)> = vec![
        (top.clone(), "when", "---\nname: when\ndescription: Does a thing.\nwhen_to_use: When a thing is asked for.\n---\nbody\n".into()),
        (top.clone(), "renamed", "---\nname: other-name\ndescription: A frontmatter name that differs.\n---\n".into()),
        (top.clone(), "spaced", "---\nname: Spaced Name\ndescription: A name with a space.\n---\n".into()),
        (top.clone(), "hidden", "---\nname: hidden\ndescription: Not for the model.\ndisable-model-invocation: true\n---\n".into()),
        (top.clone(), "hidden-yes", "---\ndescription: Not for the model either.\ndisable-model-invocation: 'yes'\n---\n".into()),
        (top.clone(), "user-only", "---\ndescription: Still listed.\nuser-invocable: false\n---\n".into()),
        (top.clone(), "nodesc", "---\nname: nodesc\n---\n\n## Heading line\n\nMore.\n".into()),
        (top.clone(), "nofront", "Plain body line that describes it.\n".into()),
        (top.clone(), "empty", "---\ndescription: \"\"\n---\n".into()),
        (top.clone(), "escaped", "---\ndescription: Reads <html> & \"quotes\" & 'single'.\n---\n".into()),
        (top.clone(), "folded", "---\ndescription: |\n  Line one.\n  Line two.\n\n  Line four.\n---\n".into()),
        (top.clone(), "long", format!("---\ndescription: {long}\n---\n")),
        (top.clone(), "broken", "---\nname: broken\ndescription: \"unterminated\nother: x\n---\nBody of broken\n".into()),
        (top.clone(), "crlf", "---\r\ndescription: Windows line ends.\r\n---\r\n".into()),
        (top.clone(), "Upper", "---\ndescription: Sorted without regard to case.\n---\n".into()),
        (top.clone(), "dup", "---\ndescription: The project's copy.\n---\n".into()),
        (top.join("group/inner"), "nested", "---\ndescription: Too deep to be read.\n---\n".into()),
        (personal.clone(), "dup", "---\ndescription: The personal copy wins.\n---\n".into()),
        (personal.clone(), "mine", "---\ndescription: A personal skill.\n---\n".into()),
        (here.clone(), "here", "---\ndescription: From the folder the agent runs in.\n---\n".into()),
    ];
    for (root, dir, text) in cases {
        write(&root.join(dir).join("SKILL.md"), &text);
    }
    write(
        &top.join("lower/skill.md"),
        "---\ndescription: lower-case file\n---\n",
    );
    std::os::unix::fs::symlink(top.join("when"), here.join("linked")).unwrap();
}

#[test]
fn claude_code_lists_skills_as_skill_prompt_says() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = places(tmp.path());
    claude_edge_cases(&home, &project);
    let cwd = project.join("sub");
    for budget in [None, Some(100_000), Some(6_400)] {
        let env: Vec<(&str, String)> = budget
            .map(|b| vec![("SLASH_COMMAND_TOOL_CHAR_BUDGET", b.to_string())])
            .unwrap_or_default();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        assert_same(
            &format!("edge cases, budget {budget:?}"),
            &claude(&home, &cwd, budget),
            &ours("claude", &home, &cwd, &env, &[]),
        );
    }
}

#[test]
fn claude_code_lists_real_skills_as_skill_prompt_says() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = places(tmp.path());
    let (which, files) = corpus::sample("agent_clis", SEED, 300);
    corpus::workspace(&project.join(".claude/skills"), &files);
    // Full, greedily collapsed, and collapsed whole (the default budget).
    for budget in [Some(1_000_000), Some(60_000), None] {
        let env: Vec<(&str, String)> = budget
            .map(|b| vec![("SLASH_COMMAND_TOOL_CHAR_BUDGET", b.to_string())])
            .unwrap_or_default();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        assert_same(
            &format!("{} skills of {which}, budget {budget:?}", files.len()),
            &claude(&home, &project, budget),
            &ours("claude", &home, &project, &env, &[]),
        );
    }
}

// --- Codex ---------------------------------------------------------------------------------

/// Codex's `<skills_instructions>` part in its first request.
fn codex_listing(body: &Value) -> String {
    body["input"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|item| item["content"].as_array().into_iter().flatten())
        .filter_map(|part| part["text"].as_str())
        .find(|t| t.starts_with("<skills_instructions>"))
        .unwrap_or("")
        .to_owned()
}

/// Runs `codex exec` with a config of its own in `home` and returns its listing. A model
/// Codex does not know has a 272,000-token window, so a 5,440-token budget, unless
/// `context` sets the window.
fn codex(home: &Path, project: &Path, context: Option<usize>) -> String {
    let server = AgentServer::start();
    let codex_home = home.join(".codex");
    let window = context
        .map(|c| format!("model_context_window = {c}\n"))
        .unwrap_or_default();
    write(
        &codex_home.join("config.toml"),
        &format!(
            "model = \"test-model\"\nmodel_provider = \"loopback\"\ncheck_for_update_on_startup = false\n{window}\n[model_providers.loopback]\nname = \"loopback\"\nbase_url = \"{}/v1\"\nwire_api = \"responses\"\nenv_key = \"LOOPBACK_API_KEY\"\nrequest_max_retries = 0\nstream_max_retries = 0\n\n[analytics]\nenabled = false\n\n[feedback]\nenabled = false\n\n[otel]\nexporter = \"none\"\n",
            server.url
        ),
    );
    let body = first_request(
        &server,
        &cli("codex"),
        &[
            "exec",
            "--skip-git-repo-check",
            "--sandbox",
            "read-only",
            "--disable",
            "plugins",
            "--disable",
            "apps",
            "--disable",
            "remote_plugin",
            "hello",
        ],
        project,
        &[
            ("HOME", home.display().to_string()),
            ("CODEX_HOME", codex_home.display().to_string()),
            ("LOOPBACK_API_KEY", "sk-test".to_owned()),
            ("NO_COLOR", "1".to_owned()),
        ],
    );
    codex_listing(&body)
}

/// Skills that exercise Codex's reading: names, the 1,024 cut, whitespace, nesting, the
/// rescue of unquoted values, refused files, hidden skills and every project root.
fn codex_edge_cases(home: &Path, project: &Path) {
    let agents = project.join(".agents/skills");
    let here = project.join("sub/.agents/skills");
    let codex_dir = project.join("sub/.codex/skills");
    let user = home.join(".agents/skills");
    let long = "Use when a description runs past the cap. ".repeat(30);
    let cases: Vec<(PathBuf, &str, String)> = vec![
        (agents.clone(), "folder-x", "---\nname: named-y\ndescription: The frontmatter name wins.\n---\n".into()),
        (agents.clone(), "no-name", "---\ndescription: Named after its folder.\n---\n".into()),
        (agents.clone(), "spaces", "---\nname: spaces\ndescription: |\n  Line one.\n  Line two.\n\n  After\ta  blank.\n---\n".into()),
        (agents.clone(), "long", format!("---\nname: long\ndescription: {long}\n---\n")),
        (agents.clone(), "colon", "---\nname: colon\ndescription: Use when: the YAML is not quoted\n---\n".into()),
        (agents.clone(), "nodesc", "---\nname: nodesc\n---\nbody\n".into()),
        (agents.clone(), "nofront", "# No frontmatter\n".into()),
        (agents.clone(), "dup", "---\nname: dup\ndescription: The project's copy.\n---\n".into()),
        (agents.join("outer/inner"), "deep", "---\nname: deep\ndescription: Nested two levels down.\n---\n".into()),
        (agents.join(".hidden"), "dot", "---\nname: dot\ndescription: In a dot folder.\n---\n".into()),
        (agents.clone(), "quiet", "---\nname: quiet\ndescription: Not listed by its policy.\n---\n".into()),
        (agents.clone(), "escaped", "---\nname: escaped\ndescription: Keeps <tags> & \"quotes\" as written.\n---\n".into()),
        (here.clone(), "dup", "---\nname: dup\ndescription: The copy in the folder it runs in.\n---\n".into()),
        (codex_dir.clone(), "from-codex-dir", "---\nname: from-codex-dir\ndescription: A project .codex root.\n---\n".into()),
        (user.clone(), "dup", "---\nname: dup\ndescription: The user's copy.\n---\n".into()),
    ];
    for (root, dir, text) in cases {
        write(&root.join(dir).join("SKILL.md"), &text);
    }
    write(
        &agents.join("quiet/agents/openai.yaml"),
        "policy:\n  allow_implicit_invocation: false\n",
    );
}

#[test]
fn codex_lists_skills_as_skill_prompt_says() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = places(tmp.path());
    codex_edge_cases(&home, &project);
    let cwd = project.join("sub");
    // Codex writes its system skills into $CODEX_HOME on its first start; ours reads them there.
    let real = codex(&home, &cwd, None);
    let env = [("CODEX_HOME", home.join(".codex").display().to_string())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_same("edge cases", &real, &ours("codex", &home, &cwd, &env, &[]));
}

#[test]
fn codex_lists_real_skills_as_skill_prompt_says() {
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = places(tmp.path());
    let (which, files) = corpus::sample("agent_clis", SEED, 300);
    corpus::workspace(&project.join(".agents/skills"), &files);
    let env = [("CODEX_HOME", home.join(".codex").display().to_string())];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    // Trimmed at the default 5,440 tokens and at 3,000, and left out at 1,000 (a window over the
    // 272,000 Codex gives a model it does not know is not taken).
    for context in [None, Some(150_000), Some(50_000)] {
        let real = codex(&home, &project, context);
        let window = context.map(|c| c.to_string());
        let args: Vec<&str> = match &window {
            Some(w) => vec!["--context", w.as_str()],
            None => Vec::new(),
        };
        assert_same(
            &format!("{} skills of {which}, context {context:?}", files.len()),
            &real,
            &ours("codex", &home, &project, &env, &args),
        );
    }
}
