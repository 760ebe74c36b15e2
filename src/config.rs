//! The settings several commands share (registry, lint target, model provider, model and its
//! options) and where
//! each comes from, in this order: command-line flags, env vars, the project's `skill.toml`
//! (found from the working folder upwards), the user's `config.toml`, then defaults.

use skill_agent::provider::ProviderKind;
use skill_archive::signature::TrustPolicy;
use skill_lint::target::Target;
use skill_model::choice::Choice;
use skill_model::layout::PROJECT_FILE;
use skill_model::settings_file::{self, FileError};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The user's config file.
pub(crate) fn user_file() -> PathBuf {
    settings_file::user_dir().join("config.toml")
}

/// The public ClawHub registry, used when nothing else is configured.
pub(crate) const DEFAULT_REGISTRY: &str = "https://clawhub.ai";

/// Where a setting's value came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", content = "source", rename_all = "lowercase")]
pub(crate) enum SettingOrigin {
    /// A command-line flag.
    Flag,
    /// An env var.
    Env(&'static str),
    /// The project's `skill.toml`.
    Project(PathBuf),
    /// The user's `config.toml`.
    User(PathBuf),
    /// The registry last logged in to (`credentials.json`).
    Login(PathBuf),
    /// Built in, or inferred (the provider whose API key alone is set).
    Default,
}

impl std::fmt::Display for SettingOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SettingOrigin::Flag => write!(f, "flag"),
            SettingOrigin::Env(name) => write!(f, "env {name}"),
            SettingOrigin::Project(p) => write!(f, "project {}", p.display()),
            SettingOrigin::User(p) => write!(f, "user {}", p.display()),
            SettingOrigin::Login(p) => write!(f, "last login {}", p.display()),
            SettingOrigin::Default => write!(f, "default"),
        }
    }
}

/// A value and where it came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub(crate) struct Setting<T> {
    /// The value.
    pub(crate) value: T,
    /// Its origin.
    pub(crate) origin: SettingOrigin,
}

/// The values one config file sets.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct FileValues {
    /// Registry URL.
    pub(crate) registry: Option<String>,
    /// Default lint target.
    pub(crate) target: Option<Target>,
    /// Model provider.
    pub(crate) provider: Option<ProviderKind>,
    /// Model name.
    pub(crate) model: Option<String>,
    /// Most output tokens per model reply.
    pub(crate) max_tokens: Option<u32>,
    /// Tokens of extended thinking per reply (Anthropic).
    pub(crate) thinking_budget: Option<u32>,
    /// Whether OpenAI tool messages carry the tool's name.
    pub(crate) tool_message_name: Option<bool>,
    /// `[trust] keys`: public keys whose signatures installs trust, relative to the file.
    pub(crate) trust_keys: Vec<PathBuf>,
    /// `[trust] require`: refuse installs without a trusted signature.
    pub(crate) require_signature: Option<bool>,
}

/// The `[trust]` table, the same in both files.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct TrustTable {
    #[serde(default)]
    keys: Vec<PathBuf>,
    require: Option<bool>,
}

impl TrustTable {
    /// Key paths as written are relative to the file that lists them.
    fn keys(&self, file: &Path) -> Vec<PathBuf> {
        let dir = file.parent().unwrap_or(Path::new("."));
        self.keys.iter().map(|k| dir.join(k)).collect()
    }
}

/// The config files found.
#[derive(Debug, Clone, Default)]
pub(crate) struct Settings {
    /// The project's `skill.toml` and what it sets.
    pub(crate) project: Option<(PathBuf, FileValues)>,
    /// The user's `config.toml` and what it sets.
    pub(crate) user: Option<(PathBuf, FileValues)>,
}

/// The user's file takes these keys at the top; the project's file takes them too, except
/// `target`, which lives in its `[lint]` table with the other lint settings.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct UserFile {
    registry: Option<String>,
    target: Option<Target>,
    provider: Option<ProviderKind>,
    model: Option<String>,
    max_tokens: Option<u32>,
    thinking_budget: Option<u32>,
    tool_message_name: Option<bool>,
    #[serde(default)]
    trust: TrustTable,
}

#[derive(Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ProjectFile {
    registry: Option<String>,
    provider: Option<ProviderKind>,
    model: Option<String>,
    max_tokens: Option<u32>,
    thinking_budget: Option<u32>,
    tool_message_name: Option<bool>,
    #[serde(default)]
    trust: TrustTable,
    #[serde(default)]
    lint: Option<toml::Table>,
    /// A skill's own MCP servers: allowed here, read by the agent loop
    /// (`agent::tools::mcp::declared`).
    #[serde(default, rename = "mcp")]
    _mcp: Option<toml::Table>,
}

/// A settings file or env var that could not be read or understood.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ConfigError {
    /// `skill.toml` or `config.toml`.
    #[error(transparent)]
    File(#[from] FileError),
    /// An env var set to a value it cannot take.
    #[error("{name}={value}: expected one of {expected}")]
    Env {
        /// The variable.
        name: &'static str,
        /// Its value.
        value: String,
        /// The values it takes.
        expected: String,
    },
}

/// A set env var must name a value, not fall through to the next source unnoticed.
fn check_env<T: Choice>(name: &'static str) -> Result<(), ConfigError> {
    let Some(value) = std::env::var(name).ok().filter(|v| !v.trim().is_empty()) else {
        return Ok(());
    };
    if T::parse(&value).is_some() {
        return Ok(());
    }
    Err(ConfigError::Env {
        name,
        value,
        expected: T::names(),
    })
}

impl Settings {
    /// Reads the project file found from `cwd` upwards and the user's file.
    pub(crate) fn load(cwd: &Path) -> Result<Settings, ConfigError> {
        check_env::<Target>("SKILL_TARGET")?;
        check_env::<ProviderKind>("SKILL_PROVIDER")?;
        let mut settings = Settings::default();
        if let Some(path) = cwd
            .ancestors()
            .map(|d| d.join(PROJECT_FILE))
            .find(|p| p.is_file())
            && let Some(file) = settings_file::parse::<ProjectFile>(&path)?
        {
            let target = match file.lint.as_ref().and_then(|l| l.get("target")) {
                Some(value) => Some(
                    value
                        .clone()
                        .try_into()
                        .map_err(|e| FileError::invalid(&path, e))?,
                ),
                None => None,
            };
            let values = FileValues {
                registry: file.registry,
                target,
                provider: file.provider,
                model: file.model,
                max_tokens: file.max_tokens,
                thinking_budget: file.thinking_budget,
                tool_message_name: file.tool_message_name,
                trust_keys: file.trust.keys(&path),
                require_signature: file.trust.require,
            };
            settings.project = Some((path, values));
        }
        let path = user_file();
        if let Some(file) = settings_file::parse::<UserFile>(&path)? {
            let values = FileValues {
                registry: file.registry,
                target: file.target,
                provider: file.provider,
                model: file.model,
                max_tokens: file.max_tokens,
                thinking_budget: file.thinking_budget,
                tool_message_name: file.tool_message_name,
                trust_keys: file.trust.keys(&path),
                require_signature: file.trust.require,
            };
            settings.user = Some((path, values));
        }
        Ok(settings)
    }

    /// The first of: `flag`, the env vars, the project's and the user's value.
    fn pick<T: Clone>(
        &self,
        flag: Option<T>,
        env: &[&'static str],
        parse: impl Fn(&str) -> Option<T>,
        field: impl Fn(&FileValues) -> Option<T>,
    ) -> Option<Setting<T>> {
        if let Some(value) = flag {
            return Some(Setting {
                value,
                origin: SettingOrigin::Flag,
            });
        }
        for name in env {
            if let Some(value) = std::env::var(name)
                .ok()
                .filter(|v| !v.trim().is_empty())
                .and_then(|v| parse(v.trim()))
            {
                return Some(Setting {
                    value,
                    origin: SettingOrigin::Env(name),
                });
            }
        }
        if let Some((path, values)) = &self.project
            && let Some(value) = field(values)
        {
            return Some(Setting {
                value,
                origin: SettingOrigin::Project(path.clone()),
            });
        }
        if let Some((path, values)) = &self.user
            && let Some(value) = field(values)
        {
            return Some(Setting {
                value,
                origin: SettingOrigin::User(path.clone()),
            });
        }
        None
    }

    /// Which signatures installs accept: the `--trust` keys and those of both files' `[trust]
    /// keys` (trust adds up), a signature required when the flag or either file says so.
    pub(crate) fn trust(&self, keys: &[PathBuf], require: bool) -> TrustPolicy {
        let files = [&self.project, &self.user];
        let values = files.iter().filter_map(|f| f.as_ref().map(|(_, v)| v));
        let mut policy = TrustPolicy {
            keys: keys.to_vec(),
            require,
        };
        for v in values {
            policy.keys.extend(v.trust_keys.iter().cloned());
            policy.require |= v.require_signature.unwrap_or(false);
        }
        policy
    }

    /// The registry URL (no trailing `/`) that flags, env vars or the files set; the caller
    /// falls back on the registry last logged in to, then [`DEFAULT_REGISTRY`].
    pub(crate) fn registry(&self, flag: Option<&str>) -> Option<Setting<String>> {
        let mut setting = self.pick(
            flag.map(str::to_owned),
            &["SKILL_REGISTRY", "CLAWHUB_REGISTRY"],
            |v| Some(v.to_owned()),
            |f| f.registry.clone(),
        )?;
        setting.value = setting.value.trim_end_matches('/').to_owned();
        Some(setting)
    }

    /// The default lint target.
    pub(crate) fn target(&self, flag: Option<Target>) -> Setting<Target> {
        self.pick(flag, &["SKILL_TARGET"], Choice::parse, |f| f.target)
            .unwrap_or(Setting {
                value: Target::Portable,
                origin: SettingOrigin::Default,
            })
    }

    /// The model provider; by default Anthropic when only `ANTHROPIC_API_KEY` is set, else
    /// OpenAI.
    pub(crate) fn provider(&self, flag: Option<ProviderKind>) -> Setting<ProviderKind> {
        self.pick(flag, &["SKILL_PROVIDER"], Choice::parse, |f| f.provider)
            .unwrap_or_else(|| {
                let set = |name: &str| std::env::var_os(name).is_some_and(|v| !v.is_empty());
                let value = if set("ANTHROPIC_API_KEY") && !set("OPENAI_API_KEY") {
                    ProviderKind::Anthropic
                } else {
                    ProviderKind::Openai
                };
                Setting {
                    value,
                    origin: SettingOrigin::Default,
                }
            })
    }

    /// The model; by default the provider's default model.
    pub(crate) fn model(&self, flag: Option<String>, provider: ProviderKind) -> Setting<String> {
        self.pick(
            flag,
            &["SKILL_MODEL"],
            |v| Some(v.to_owned()),
            |f| f.model.clone(),
        )
        .unwrap_or_else(|| Setting {
            value: provider.default_model().to_owned(),
            origin: SettingOrigin::Default,
        })
    }

    /// The limit on output tokens per model reply, if a flag or a file sets one.
    pub(crate) fn max_tokens(&self, flag: Option<u32>) -> Option<Setting<u32>> {
        self.pick(flag, &[], |v| v.parse().ok(), |f| f.max_tokens)
    }

    /// The extended-thinking budget, if a flag or a file sets one.
    pub(crate) fn thinking_budget(&self, flag: Option<u32>) -> Option<Setting<u32>> {
        self.pick(flag, &[], |v| v.parse().ok(), |f| f.thinking_budget)
    }

    /// Whether OpenAI tool messages carry the tool's name: the flag, else the files, else no.
    pub(crate) fn tool_message_name(&self, flag: bool) -> Setting<bool> {
        self.pick(
            flag.then_some(true),
            &[],
            |v| v.parse().ok(),
            |f| f.tool_message_name,
        )
        .unwrap_or(Setting {
            value: false,
            origin: SettingOrigin::Default,
        })
    }
}

static CURRENT: OnceLock<Settings> = OnceLock::new();

/// Loads the settings for this process from the working folder; the CLI calls it first so that
/// a broken file is reported before anything runs.
pub(crate) fn init() -> Result<&'static Settings, ConfigError> {
    if let Some(settings) = CURRENT.get() {
        return Ok(settings);
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let settings = Settings::load(&cwd)?;
    Ok(CURRENT.get_or_init(|| settings))
}

/// This process's settings (empty when the files could not be read; [`init`] reports that).
pub(crate) fn current() -> &'static Settings {
    init().unwrap_or_else(|_| CURRENT.get_or_init(Settings::default))
}
