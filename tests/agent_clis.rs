//! `skill prompt --agent X` against the real agent CLIs, installed by `.ci/run` from npm into
//! `target/test-deps/agents`: each runs headless in a temporary home and project against a
//! model on loopback (`common::agent_server`), with telemetry, update checks and other traffic
//! off, and the skills listing in the request it sends must equal ours byte for byte. The
//! workspaces hold a seeded sample of real skills (`../shared/corpus` when present, else the
//! package corpus) and hand-written edge cases.

use crate::common;
use common::needs::{Need, lacks};

use common::agent_server::AgentServer;
use common::{corpus, run, skill};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The seed of the corpus sample.
const SEED: u64 = 0xc11_2026_1204;

fn cli(name: &str) -> PathBuf {
    common::agent_cli(name)
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
        .env_remove("SKILL_CHAR_BUDGET")
        .env_remove("CODEX_HOME")
        .env_remove("GEMINI_CLI_HOME")
        .args(["prompt", "--agent", agent])
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let (code, stdout, stderr) = run(&mut cmd);
    assert_eq!(code, 0, "skill prompt --agent {agent}: {stderr}");
    stdout.strip_suffix('\n').unwrap_or(&stdout).to_owned()
}

/// Runs `program args` in `project` with a clean environment plus `env`, and returns the model
/// requests it sent.
fn requests(
    server: &AgentServer,
    program: &Path,
    args: &[&str],
    project: &Path,
    env: &[(&str, String)],
) -> Vec<Value> {
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
    let requests: Vec<Value> = server
        .model_requests()
        .into_iter()
        .map(|r| r.body)
        .collect();
    assert!(
        !requests.is_empty(),
        "{} sent no model request: {}\n{}",
        program.display(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    requests
}

/// The first model request `program` sent.
fn first_request(
    server: &AgentServer,
    program: &Path,
    args: &[&str],
    project: &Path,
    env: &[(&str, String)],
) -> Value {
    requests(server, program, args, project, env).remove(0)
}

/// The corpus sample without the skills whose frontmatter name another skill of the sample
/// also has: agents that key skills by that name keep one of them by a race.
fn unique_names(files: Vec<PathBuf>) -> Vec<PathBuf> {
    let name = |f: &PathBuf| {
        std::fs::read_to_string(f).ok().and_then(|t| {
            t.lines()
                .skip(1)
                .take_while(|l| l.trim_end() != "---")
                .find_map(|l| {
                    l.strip_prefix("name:")
                        .map(|n| n.trim().trim_matches(['"', '\'']).to_owned())
                })
        })
    };
    let names: Vec<Option<String>> = files.iter().map(name).collect();
    files
        .into_iter()
        .zip(&names)
        .filter(|(_, n)| n.is_none() || names.iter().filter(|m| *m == *n).count() == 1)
        .map(|(f, _)| f)
        .collect()
}

/// A skill whose body holds a byte that is not UTF-8 (the JavaScript agents read it as U+FFFD).
fn not_utf8(dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        b"---\nname: latin1\ndescription: A body in Latin-1.\n---\nCaf\xe9\n",
    )
    .unwrap();
}

/// Writes `cases` (root, folder, SKILL.md text).
fn write_cases(cases: Vec<(PathBuf, &str, String)>) {
    for (root, dir, text) in cases {
        write(&root.join(dir).join("SKILL.md"), &text);
    }
}

/// Skills that exercise the readers of Gemini CLI, OpenCode and Copilot CLI: names that differ
/// from their folder, missing or broken frontmatter, unquoted colons, block scalars, escaping,
/// nesting, hidden skills and long descriptions.
fn common_edge_cases(root: &Path) -> Vec<(PathBuf, &'static str, String)> {
    let long = "Use when a description runs long. ".repeat(40);
    vec![
        (root.to_path_buf(), "folder-x", "---\nname: named-y\ndescription: The frontmatter name and not the folder.\n---\n".into()),
        (root.to_path_buf(), "no-name", "---\ndescription: No name at all.\n---\n".into()),
        (root.to_path_buf(), "nodesc", "---\nname: nodesc\n---\n# Title\n\nBody line one\nline two.\n".into()),
        (root.to_path_buf(), "colon", "---\nname: colon\ndescription: Use when: the value is not quoted\n---\n".into()),
        (root.to_path_buf(), "literal", "---\nname: literal\ndescription: |\n  Line one.\n  Line two.\n---\n".into()),
        (root.to_path_buf(), "folded", "---\nname: folded\ndescription: >\n  Folded one\n  folded two.\n---\n".into()),
        (root.to_path_buf(), "escaped", "---\nname: escaped\ndescription: Reads <b>tags</b> & 'single' \"double\".\n---\n".into()),
        (root.to_path_buf(), "hidden", "---\nname: hidden\ndescription: Not for the model.\ndisable-model-invocation: true\n---\n".into()),
        (root.to_path_buf(), "broken", "---\nname: broken\ndescription: \"unterminated\n---\n".into()),
        (root.to_path_buf(), "nofront", "# Only a heading\n".into()),
        (root.to_path_buf(), "long", format!("---\nname: long\ndescription: {long}\n---\n")),
        (root.to_path_buf(), "crlf", "---\r\nname: crlf\r\ndescription: Windows line ends.\r\n---\r\n".into()),
        (root.join("group"), "inner", "---\nname: inner\ndescription: One folder further down.\n---\n".into()),
        (root.to_path_buf(), "Upper", "---\nname: Upper\ndescription: A capital letter.\n---\n".into()),
    ]
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

/// The names of the skills `skill doctor --agent AGENT` puts in `state` (any but `dropped` when
/// empty) whose reason starts with `why`, sorted.
fn doctor_says(
    agent: &str,
    home: &Path,
    project: &Path,
    env: &[(&str, &str)],
    args: &[&str],
    (state, why): (&str, &str),
) -> Vec<String> {
    let mut cmd = skill();
    cmd.current_dir(project)
        .env("HOME", home)
        .env("SKILL_CACHE_DIR", home.join(".cache/skill"))
        .env_remove("SLASH_COMMAND_TOOL_CHAR_BUDGET")
        .env_remove("SKILL_CHAR_BUDGET")
        .args(["doctor", "--agent", agent, "--json"])
        .args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let (_, stdout, stderr) = run(&mut cmd);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|_| panic!("{stderr}"));
    let mut names: Vec<String> = report["agents"][0]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| state.is_empty() || r["state"] == state)
        .filter(|r| r["state"] != "dropped" && r["why"].as_str().unwrap_or("").starts_with(why))
        .map(|r| r["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    names
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
        // A folder of a bundled skill's name replaces it, and so leaves the budget.
        (top.clone(), "loop", "---\nname: my-loop\ndescription: Takes the place of the bundled loop.\n---\n".into()),
        (top.clone(), "pathed", "---\ndescription: Only for Python files.\npaths: [\"*.py\"]\n---\n".into()),
    ];
    for (root, dir, text) in cases {
        write(&root.join(dir).join("SKILL.md"), &text);
    }
    write(
        &top.join("lower/skill.md"),
        "---\ndescription: lower-case file\n---\n",
    );
    std::os::unix::fs::symlink(top.join("when"), here.join("linked")).unwrap();
    not_utf8(&top.join("latin1"));
}

#[test]
fn claude_code_lists_skills_as_skill_prompt_says() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
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
    if lacks(&[Need::AgentClis, Need::Corpus]) {
        return;
    }
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
        let real = claude(&home, &project, budget);
        assert_same(
            &format!("{} skills of {which}, budget {budget:?}", files.len()),
            &real,
            &ours("claude", &home, &project, &env, &[]),
        );
        // What doctor calls "name only" is what Claude Code collapsed to a bare name.
        let mut bare: Vec<String> = real
            .lines()
            .filter(|l| l.starts_with("- ") && !l.contains(": "))
            .map(|l| l[2..].split(" (").next().unwrap().to_owned())
            .collect();
        bare.sort();
        let said = doctor_says("claude", &home, &project, &env, &[], ("cut", "name only"));
        assert_eq!(said, bare, "budget {budget:?}");
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
        (agents.clone(), "numbers", "---\nname: 123\ndescription: 42\n---\n".into()),
    ];
    for (root, dir, text) in cases {
        write(&root.join(dir).join("SKILL.md"), &text);
    }
    not_utf8(&agents.join("latin1"));
    write(
        &agents.join("quiet/agents/openai.yaml"),
        "policy:\n  allow_implicit_invocation: false\n",
    );
}

#[test]
fn codex_lists_skills_as_skill_prompt_says() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
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
    if lacks(&[Need::AgentClis, Need::Corpus]) {
        return;
    }
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
        // What doctor leaves out is what Codex left out: every skill it would list but did not.
        let listed = real.lines().filter(|l| l.contains(" (file: r")).count();
        let hidden = doctor_says("codex", &home, &project, &env, &args, ("hidden", "")).len();
        let read = doctor_says("codex", &home, &project, &env, &args, ("", "")).len() - hidden;
        let left_out = doctor_says("codex", &home, &project, &env, &args, ("cut-out", ""));
        assert_eq!(left_out.len(), read - listed, "context {context:?}");
    }
}

// --- Gemini CLI ----------------------------------------------------------------------------

/// The model the Gemini CLI runs ask for: a Gemini 3 model, told to "call" its skill tool.
const GEMINI_MODEL: &str = "gemini-3-pro-preview";

/// The `# Available Agent Skills` section of Gemini CLI's system instruction.
fn gemini_listing(body: &Value) -> String {
    let system = body["systemInstruction"]["parts"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no system instruction in {body}"));
    let Some(start) = system.find("# Available Agent Skills") else {
        return String::new();
    };
    let end = system[start..]
        .find("</available_skills>")
        .map(|i| start + i + "</available_skills>".len())
        .expect("the end of the skills section");
    system[start..end].to_owned()
}

/// Runs `gemini -p` with settings of its own in `home` (its two built-in skills turned off, as
/// they come from its package) and returns its listing.
fn gemini(home: &Path, project: &Path) -> String {
    let server = AgentServer::start();
    write(
        &home.join(".gemini/settings.json"),
        &serde_json::json!({
            "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
            "privacy": {"usageStatisticsEnabled": false},
            "telemetry": {"enabled": false},
            "security": {"auth": {"selectedType": "gemini-api-key"}},
            "ide": {"enabled": false},
            "model": {"name": GEMINI_MODEL},
            "skills": {"disabled": ["skill-creator", "antigravity-support"]}
        })
        .to_string(),
    );
    let body = first_request(
        &server,
        &cli("gemini"),
        &["-p", "hello", "-m", GEMINI_MODEL, "--output-format", "text"],
        project,
        &[
            ("HOME", home.display().to_string()),
            ("GEMINI_API_KEY", "test-key".to_owned()),
            ("GOOGLE_GEMINI_BASE_URL", server.url.clone()),
            ("GEMINI_CLI_TRUST_WORKSPACE", "true".to_owned()),
            ("GEMINI_TELEMETRY_ENABLED", "false".to_owned()),
            ("GEMINI_CLI_NO_RELAUNCH", "true".to_owned()),
            ("NO_BROWSER", "true".to_owned()),
            ("CI", "1".to_owned()),
        ],
    );
    gemini_listing(&body)
}

/// The listing with its `<skill>` entries sorted: Gemini CLI's order within a root comes from
/// an asynchronous walk and is not always the same.
fn entries_sorted(listing: &str) -> String {
    let Some(open) = listing.find("<available_skills>\n") else {
        return listing.to_owned();
    };
    let head = &listing[..open + "<available_skills>\n".len()];
    let rest = &listing[head.len()..];
    let mut entries: Vec<String> = rest
        .split("  <skill>\n")
        .filter(|e| !e.is_empty())
        .map(|e| {
            e.trim_end_matches("</available_skills>")
                .trim_end_matches('\n')
                .to_owned()
        })
        .collect();
    entries.sort();
    format!("{head}{}", entries.join("\n"))
}

#[test]
fn gemini_cli_lists_skills_as_skill_prompt_says() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = places(tmp.path());
    let mut cases = common_edge_cases(&project.join(".gemini/skills"));
    cases.push((
        home.join(".agents/skills"),
        "mine",
        "---\nname: mine\ndescription: A user skill.\n---\n".into(),
    ));
    cases.push((
        home.join(".gemini/skills"),
        "dup",
        "---\nname: dup\ndescription: The user's copy, replaced in place.\n---\n".into(),
    ));
    cases.push((
        project.join(".agents/skills"),
        "dup",
        "---\nname: dup\ndescription: The project's copy wins.\n---\n".into(),
    ));
    cases.push((
        project.join(".agents/skills"),
        "last-name",
        "---\nname: outer\ndescription: Use when: x\nmetadata:\n name: inner\n---\n".into(),
    ));
    write_cases(cases);
    not_utf8(&project.join(".gemini/skills/latin1"));
    assert_same(
        "edge cases",
        &entries_sorted(&gemini(&home, &project)),
        &entries_sorted(&ours("gemini", &home, &project, &[], &[])),
    );
}

#[test]
fn gemini_cli_lists_real_skills_as_skill_prompt_says() {
    if lacks(&[Need::AgentClis, Need::Corpus]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = places(tmp.path());
    let (which, files) = corpus::sample("agent_clis", SEED, 300);
    let files = unique_names(files);
    corpus::workspace(&project.join(".agents/skills"), &files);
    assert_same(
        &format!("{} skills of {which}", files.len()),
        &entries_sorted(&gemini(&home, &project)),
        &entries_sorted(&ours("gemini", &home, &project, &[], &[])),
    );
}

// --- OpenCode ------------------------------------------------------------------------------

/// The skills block at the end of the system message of OpenCode's request with tools (the
/// first request names the session and lists no skills).
fn opencode_listing(bodies: &[Value]) -> String {
    let body = bodies
        .iter()
        .find(|b| b["tools"].is_array())
        .unwrap_or_else(|| panic!("no request with tools in {bodies:?}"));
    let system = body["messages"][0]["content"]
        .as_str()
        .expect("a system message");
    let start = system
        .rfind("Skills provide specialized instructions")
        .expect("the skills block");
    system[start..].to_owned()
}

/// Runs `opencode run` with a config of its own in `home` (its built-in skill denied, its
/// plugin install stubbed so that it fetches nothing) and returns its listing.
fn opencode(home: &Path, project: &Path) -> String {
    let server = AgentServer::start();
    let config = home.join(".config/opencode");
    write(
        &config.join("opencode.json"),
        &serde_json::json!({
            "model": "loopback/test-model",
            "small_model": "loopback/test-model",
            "autoupdate": false,
            "share": "disabled",
            "permission": {"skill": {"customize-opencode": "deny"}},
            "provider": {"loopback": {
                "npm": "@ai-sdk/openai-compatible",
                "name": "Loopback",
                "options": {"baseURL": format!("{}/v1", server.url), "apiKey": "sk-test"},
                "models": {"test-model": {"name": "Test", "limit": {"context": 200000, "output": 8192}}}
            }}
        })
        .to_string(),
    );
    std::fs::create_dir_all(config.join("node_modules")).unwrap();
    write(
        &config.join("package.json"),
        r#"{"dependencies":{"@opencode-ai/plugin":"*"}}"#,
    );
    write(
        &config.join("package-lock.json"),
        r#"{"lockfileVersion":3,"packages":{"":{"dependencies":{"@opencode-ai/plugin":"*"}}}}"#,
    );
    let mut env = vec![
        ("HOME", home.display().to_string()),
        ("npm_config_registry", format!("{}/npm/", server.url)),
    ];
    for flag in [
        "OPENCODE_DISABLE_MODELS_FETCH",
        "OPENCODE_DISABLE_AUTOUPDATE",
        "OPENCODE_DISABLE_SHARE",
        "OPENCODE_DISABLE_LSP_DOWNLOAD",
        "OPENCODE_DISABLE_DEFAULT_PLUGINS",
        "OPENCODE_DISABLE_EMBEDDED_WEB_UI",
        "OPENCODE_DISABLE_AUTOCOMPACT",
    ] {
        env.push((flag, "1".to_owned()));
    }
    let bodies = requests(&server, &cli("opencode"), &["run", "hello"], project, &env);
    opencode_listing(&bodies)
}

#[test]
fn opencode_lists_skills_as_skill_prompt_says() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = places(tmp.path());
    let mut cases = common_edge_cases(&project.join(".claude/skills"));
    cases.push((
        home.join(".agents/skills"),
        "mine",
        "---\nname: mine\ndescription: A user skill.\n---\n".into(),
    ));
    cases.push((
        project.join("sub/.agents/skills"),
        "here",
        "---\nname: here\ndescription: From the folder it runs in.\n---\n".into(),
    ));
    // gray-matter's fences: text after the opening one, a closing `----`, no closing one.
    let claude_root = project.join(".claude/skills");
    cases.push((
        claude_root.clone(),
        "fence-space",
        "--- \nname: fence-space\ndescription: A space after the fence.\n---\n".into(),
    ));
    cases.push((
        claude_root.clone(),
        "fence-long",
        "---\nname: fence-long\ndescription: Four dashes close it.\n----\nbody\n".into(),
    ));
    cases.push((
        claude_root.clone(),
        "no-close",
        "---\nname: no-close\ndescription: Never closed.".into(),
    ));
    cases.push((
        claude_root.clone(),
        "twice",
        "---\nname: twice\ndescription: first\ndescription: second\n---\n".into(),
    ));
    cases.push((
        claude_root.clone(),
        "odd-key",
        "---\nname: odd-key\ndescription: fine\nargument-hint: usage: x\n---\n".into(),
    ));
    write_cases(cases);
    not_utf8(&claude_root.join("latin1"));
    let cwd = project.join("sub");
    assert_same(
        "edge cases",
        &opencode(&home, &cwd),
        &ours("opencode", &home, &cwd, &[], &[]),
    );
}

#[test]
fn opencode_lists_real_skills_as_skill_prompt_says() {
    if lacks(&[Need::AgentClis, Need::Corpus]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = places(tmp.path());
    let (which, files) = corpus::sample("agent_clis", SEED, 300);
    let files = unique_names(files);
    corpus::workspace(&project.join(".agents/skills"), &files);
    assert_same(
        &format!("{} skills of {which}", files.len()),
        &opencode(&home, &project),
        &ours("opencode", &home, &project, &[], &[]),
    );
}

// --- Copilot CLI ---------------------------------------------------------------------------

/// Copilot CLI's skills block in its system message.
fn copilot_listing(body: &Value) -> String {
    let system = body["messages"][0]["content"].as_str().unwrap_or("");
    let Some(start) = system.find("<skill>\n<available_skills>") else {
        return String::new();
    };
    let end = system[start..]
        .find("</available_skills>\n</skill>\n")
        .map(|i| start + i + "</available_skills>\n</skill>\n".len())
        .expect("the end of the skills block");
    system[start..end].to_owned()
}

/// Runs `copilot -p` offline against the loopback model (its two bundled skills turned off in
/// the user's settings, which `skill` reads too) and returns its listing.
fn copilot(home: &Path, project: &Path, budget: Option<usize>) -> String {
    let server = AgentServer::start();
    write(
        &home.join(".copilot/settings.json"),
        r#"{"disabledSkills":["customize-cloud-agent","github-pr-media"]}"#,
    );
    let cache = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-deps/agents/copilot-pkg");
    let mut env = vec![
        ("HOME", home.display().to_string()),
        ("NO_COLOR", "1".to_owned()),
        ("COPILOT_PKG_CACHE_HOME", cache.display().to_string()),
        ("COPILOT_OFFLINE", "true".to_owned()),
        ("COPILOT_AUTO_UPDATE", "false".to_owned()),
        ("COPILOT_PROVIDER_BASE_URL", format!("{}/v1", server.url)),
        ("COPILOT_PROVIDER_TYPE", "openai".to_owned()),
        ("COPILOT_PROVIDER_WIRE_API", "completions".to_owned()),
        ("COPILOT_PROVIDER_API_KEY", "sk-test".to_owned()),
        ("COPILOT_MODEL", "gpt-4.1".to_owned()),
    ];
    if let Some(b) = budget {
        env.push(("SKILL_CHAR_BUDGET", b.to_string()));
    }
    let body = first_request(
        &server,
        &cli("copilot"),
        &[
            "-p",
            "hello",
            "--allow-all-tools",
            "--trust-folder",
            "--no-auto-update",
            "--disable-client-telemetry",
        ],
        project,
        &env,
    );
    copilot_listing(&body)
}

#[test]
fn copilot_cli_lists_skills_as_skill_prompt_says() {
    if lacks(&[Need::AgentClis]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = places(tmp.path());
    let mut cases = common_edge_cases(&project.join(".github/skills"));
    cases.push((
        home.join(".copilot/skills"),
        "mine",
        "---\nname: mine\ndescription: A user skill.\n---\n".into(),
    ));
    cases.push((
        project.join(".claude/skills"),
        "dup",
        "---\nname: dup\ndescription: Loses to .agents.\n---\n".into(),
    ));
    cases.push((
        project.join(".agents/skills"),
        "dup",
        "---\nname: dup\ndescription: Wins over .claude.\n---\n".into(),
    ));
    cases.push((
        project.join("sub/.github/skills"),
        "here",
        "---\nname: here\ndescription: From the folder it runs in.\n---\n".into(),
    ));
    write_cases(cases);
    let cwd = project.join("sub");
    assert_same(
        "edge cases",
        &copilot(&home, &cwd, None),
        &ours("copilot", &home, &cwd, &[], &[]),
    );
}

#[test]
fn copilot_cli_lists_real_skills_as_skill_prompt_says() {
    if lacks(&[Need::AgentClis, Need::Corpus]) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let (home, project) = places(tmp.path());
    let (which, files) = corpus::sample("agent_clis", SEED, 300);
    corpus::workspace(&project.join(".agents/skills"), &files);
    // Names only after the first entry over 15,000 units (the default), and all whole.
    for budget in [None, Some(1_000_000)] {
        let env: Vec<(&str, String)> = budget
            .map(|b| vec![("SKILL_CHAR_BUDGET", b.to_string())])
            .unwrap_or_default();
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let real = copilot(&home, &project, budget);
        assert_same(
            &format!("{} skills of {which}, budget {budget:?}", files.len()),
            &real,
            &ours("copilot", &home, &project, &env, &[]),
        );
        // What doctor calls "name only" is what Copilot CLI lists by name alone.
        let mut bare: Vec<String> = real
            .lines()
            .find_map(|l| l.strip_prefix("Additional skills available (invoke by name): "))
            .map(|names| names.split(", ").map(str::to_owned).collect())
            .unwrap_or_default();
        bare.sort();
        let mut said: Vec<String> =
            doctor_says("copilot", &home, &project, &env, &[], ("cut", "name only"))
                .into_iter()
                .map(|n| n.replace(' ', "-"))
                .collect();
        said.sort();
        assert_eq!(said, bare, "budget {budget:?}");
    }
}
