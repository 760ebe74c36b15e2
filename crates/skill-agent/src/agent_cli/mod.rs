//! The real agent CLIs as harnesses: Claude Code, Codex, Gemini CLI, OpenCode and Copilot CLI,
//! each run headless in a temporary home and project with the skills installed where it reads
//! them, pointed at the model proxy on loopback, with telemetry, update checks and other
//! traffic off. What each needs (its program, its provider, its config files and variables,
//! its flags) is stated once here.

pub mod proxy;
pub mod session;

use proxy::Family;
use serde_json::{Value, json};
use std::path::Path;

skill_model::choices! {
    /// An agent CLI that `skill` can drive.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "kebab-case")]
    pub enum Harness {
        ClaudeCode = "claude-code": "Claude Code (`claude -p`) on Anthropic's API; skills in the project's `.claude/skills`, used through its Skill tool.",
        Codex = "codex": "Codex (`codex exec`) on OpenAI's Responses API; skills in `.agents/skills`, read with a shell command.",
        Gemini = "gemini": "Gemini CLI (`gemini -p`) on the Gemini API; skills in `.gemini/skills`, used through activate_skill.",
        Opencode = "opencode": "OpenCode (`opencode run`) on OpenAI's chat completions; skills in `.agents/skills`, used through its skill tool.",
        Copilot = "copilot": "GitHub Copilot CLI (`copilot -p`) on OpenAI's chat completions; skills in `.github/skills`, used through its skill tool.",
    }
}

/// What the agent is asked to do, which sets how far it may act.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// Only pick a skill (`skill eval`): the proxy ends the session at the agent's choice, and
    /// the agent is given no standing permission to run its tools.
    Choose,
    /// Do the task (`skill try`): the project may be written.
    Work,
}

/// Tool names through which an agent loads a skill by name.
pub(crate) const SKILL_TOOLS: &[&str] = &["Skill", "activate_skill", "skill"];

impl Harness {
    /// The program on `PATH`.
    pub fn program(self) -> &'static str {
        match self {
            Harness::ClaudeCode => "claude",
            Harness::Codex => "codex",
            Harness::Gemini => "gemini",
            Harness::Opencode => "opencode",
            Harness::Copilot => "copilot",
        }
    }

    /// The agent whose reading and budget `skill doctor` models.
    pub fn agent(self) -> skill_model::catalog::Agent {
        use skill_model::catalog::Agent;
        match self {
            Harness::ClaudeCode => Agent::Claude,
            Harness::Codex => Agent::Codex,
            Harness::Gemini => Agent::Gemini,
            Harness::Opencode => Agent::Opencode,
            Harness::Copilot => Agent::Copilot,
        }
    }

    /// The variable that sets the agent's listing budget, passed on to it when set.
    pub(crate) fn budget_variable(self) -> Option<&'static str> {
        skill_model::agents::facts(self.agent())
            .budget
            .and_then(|b| b.env_override)
    }

    /// Whether the agent runs its commands in a sandbox of its own that cannot run inside
    /// skill's (Codex's bubblewrap): a replay then relies on it instead.
    pub(crate) fn sandboxes_itself(self) -> bool {
        self == Harness::Codex
    }

    /// The provider family the agent is configured for.
    pub fn family(self) -> Family {
        match self {
            Harness::ClaudeCode => Family::Anthropic,
            Harness::Codex | Harness::Opencode | Harness::Copilot => Family::OpenAi,
            Harness::Gemini => Family::Gemini,
        }
    }

    /// Where in the project the skills are installed.
    pub fn skills_dir(self) -> &'static str {
        match self {
            Harness::ClaudeCode => ".claude/skills",
            Harness::Codex | Harness::Opencode => ".agents/skills",
            Harness::Gemini => ".gemini/skills",
            Harness::Copilot => ".github/skills",
        }
    }

    /// The model asked for when none is named.
    pub fn default_model(self) -> &'static str {
        match self {
            Harness::ClaudeCode => "claude-sonnet-4-5",
            Harness::Codex => "gpt-5-codex",
            Harness::Gemini => "gemini-3-pro-preview",
            Harness::Opencode | Harness::Copilot => "gpt-4.1",
        }
    }

    /// Writes the agent's configuration into `home` and returns the variables it runs with
    /// (beside `PATH`, `HOME`, `TERM` and `LANG`). `token` is the key the agent is given: the
    /// proxy takes requests that carry it and sends the user's own key on.
    pub fn configure(
        self,
        home: &Path,
        (proxy, token): (&str, &str),
        model: &str,
    ) -> std::io::Result<Vec<(&'static str, String)>> {
        let key = || token.to_owned();
        let on = || "1".to_owned();
        Ok(match self {
            Harness::ClaudeCode => vec![
                ("ANTHROPIC_BASE_URL", proxy.to_owned()),
                ("ANTHROPIC_API_KEY", key()),
                ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", on()),
                ("DISABLE_TELEMETRY", on()),
                ("DISABLE_AUTOUPDATER", on()),
                ("DISABLE_ERROR_REPORTING", on()),
            ],
            Harness::Codex => {
                let codex_home = home.join(".codex");
                write(&codex_home.join("config.toml"), &codex_config(proxy, model))?;
                vec![
                    ("CODEX_HOME", codex_home.display().to_string()),
                    ("SKILL_PROXY_KEY", key()),
                    ("NO_COLOR", on()),
                ]
            }
            Harness::Gemini => {
                write(&home.join(".gemini/settings.json"), &gemini_settings(model))?;
                vec![
                    ("GEMINI_API_KEY", key()),
                    ("GOOGLE_GEMINI_BASE_URL", proxy.to_owned()),
                    ("GEMINI_CLI_TRUST_WORKSPACE", "true".to_owned()),
                    ("GEMINI_TELEMETRY_ENABLED", "false".to_owned()),
                    ("GEMINI_CLI_NO_RELAUNCH", "true".to_owned()),
                    ("NO_BROWSER", "true".to_owned()),
                    ("CI", on()),
                ]
            }
            Harness::Opencode => opencode_config(home, (proxy, token), model)?,
            Harness::Copilot => {
                write(
                    &home.join(".copilot/settings.json"),
                    r#"{"disabledSkills":["customize-cloud-agent","github-pr-media"]}"#,
                )?;
                vec![
                    ("NO_COLOR", on()),
                    ("COPILOT_OFFLINE", "true".to_owned()),
                    ("COPILOT_AUTO_UPDATE", "false".to_owned()),
                    ("COPILOT_PROVIDER_BASE_URL", format!("{proxy}/v1")),
                    ("COPILOT_PROVIDER_TYPE", "openai".to_owned()),
                    ("COPILOT_PROVIDER_WIRE_API", "completions".to_owned()),
                    ("COPILOT_PROVIDER_API_KEY", key()),
                    ("COPILOT_MODEL", model.to_owned()),
                ]
            }
        })
    }

    /// The arguments that run `prompt` headless. The prompt is never read as an option: it
    /// follows `--`, or is given as `--prompt=`.
    pub fn args(self, prompt: &str, model: &str, purpose: Purpose) -> Vec<String> {
        let owned = |items: &[&str]| items.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let mut args = match self {
            Harness::ClaudeCode => {
                let mut args = owned(&["-p", "--output-format", "text", "--model", model]);
                if purpose == Purpose::Work {
                    args.extend(owned(&["--permission-mode", "acceptEdits"]));
                }
                args
            }
            Harness::Codex => {
                let sandbox = match purpose {
                    Purpose::Choose => "read-only",
                    Purpose::Work => "workspace-write",
                };
                let mut args = owned(&["exec", "--skip-git-repo-check", "--sandbox", sandbox]);
                for feature in ["plugins", "apps", "remote_plugin"] {
                    args.extend(owned(&["--disable", feature]));
                }
                args
            }
            Harness::Gemini => owned(&["-m", model, "--output-format", "text"]),
            Harness::Opencode => owned(&["run"]),
            Harness::Copilot => {
                let mut args = owned(&[
                    "--trust-folder",
                    "--no-auto-update",
                    "--disable-client-telemetry",
                ]);
                if purpose == Purpose::Work {
                    args.extend(owned(&["--allow-all-tools", "--allow-all-paths"]));
                }
                args
            }
        };
        match self {
            Harness::Gemini | Harness::Copilot => args.push(format!("--prompt={prompt}")),
            _ => args.extend(["--".to_owned(), prompt.to_owned()]),
        }
        args
    }
}

/// The skill among `names` a tool call loads or reads: a skill tool called with its name, or
/// any tool given a path to its SKILL.md.
pub fn skill_of(call: &proxy::api::ToolCall, names: &[String]) -> Option<String> {
    if SKILL_TOOLS.contains(&call.name.as_str()) {
        let named = ["skill", "name", "command"]
            .iter()
            .filter_map(|k| call.arguments[*k].as_str())
            .map(|v| v.trim().trim_start_matches('/'));
        for value in named {
            if let Some(name) = names.iter().find(|n| *n == value) {
                return Some(name.clone());
            }
        }
    }
    let mut strings = Vec::new();
    collect_strings(&call.arguments, &mut strings);
    names
        .iter()
        .find(|name| {
            let file = format!("{name}/SKILL.md");
            strings.iter().any(|s| {
                s.match_indices(&file)
                    .any(|(at, _)| at == 0 || s[..at].ends_with(['/', ' ', '"', '\'']))
            })
        })
        .cloned()
}

fn collect_strings<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::String(s) => out.push(s),
        Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

fn write(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, text)
}

/// Gemini CLI's settings: the API key as its way in, no update checks or statistics, and its
/// bundled skills off (they come from its package, not the user).
fn gemini_settings(model: &str) -> String {
    json!({
        "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
        "privacy": {"usageStatisticsEnabled": false},
        "telemetry": {"enabled": false},
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "ide": {"enabled": false},
        "model": {"name": model},
        "skills": {"disabled": ["skill-creator", "antigravity-support"]}
    })
    .to_string()
}

fn codex_config(proxy: &str, model: &str) -> String {
    format!(
        "model = \"{model}\"\nmodel_provider = \"skill-proxy\"\ncheck_for_update_on_startup = false\n\n\
         [model_providers.skill-proxy]\nname = \"skill proxy\"\nbase_url = \"{proxy}/v1\"\n\
         wire_api = \"responses\"\nenv_key = \"SKILL_PROXY_KEY\"\nrequest_max_retries = 0\n\
         stream_max_retries = 0\n\n[analytics]\nenabled = false\n\n[feedback]\nenabled = false\n\n\
         [otel]\nexporter = \"none\"\n",
        model = model.replace(['"', '\\'], "")
    )
}

/// OpenCode's config: the proxy as an OpenAI-compatible provider, its own bundled skill
/// denied, and its plugin install answered by the proxy so it fetches nothing.
fn opencode_config(
    home: &Path,
    (proxy, token): (&str, &str),
    model: &str,
) -> std::io::Result<Vec<(&'static str, String)>> {
    let config = home.join(".config/opencode");
    let body = json!({
        "model": format!("skill-proxy/{model}"),
        "small_model": format!("skill-proxy/{model}"),
        "autoupdate": false,
        "share": "disabled",
        "permission": {"skill": {"customize-opencode": "deny"}},
        "provider": {"skill-proxy": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "skill proxy",
            "options": {"baseURL": format!("{proxy}/v1"), "apiKey": token},
            "models": {model: {"name": model, "limit": {"context": 200000, "output": 8192}}}
        }}
    });
    write(&config.join("opencode.json"), &body.to_string())?;
    std::fs::create_dir_all(config.join("node_modules"))?;
    write(
        &config.join("package.json"),
        r#"{"dependencies":{"@opencode-ai/plugin":"*"}}"#,
    )?;
    write(
        &config.join("package-lock.json"),
        r#"{"lockfileVersion":3,"packages":{"":{"dependencies":{"@opencode-ai/plugin":"*"}}}}"#,
    )?;
    let mut env = vec![("npm_config_registry", format!("{proxy}/npm/"))];
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
    Ok(env)
}
