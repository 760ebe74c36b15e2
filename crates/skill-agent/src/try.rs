//! One run as `skill try` and `skill test` make it: prepare the workspace, choose the model the
//! cassette mode asks for, and run the loop.

use super::cassette::{Cassette, Mode, Normaliser, RecordedBy, Recorder, Replayer};
use super::message::Reply;
use super::provider::script::Script;
use super::provider::{HttpConfig, Model, ModelError};
use super::tools::mcp::{self, Hub, Limits, McpTools};
use super::tools::{Confinement, Passed, Policy, ToolBox};
use super::{AgentError, Event, Transcript, Workspace};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The provider name recorded in cassettes made by [`Answers::Script`].
pub(crate) const SCRIPTED: &str = "script";

/// Where answers come from.
#[derive(Debug, Clone)]
pub enum Answers {
    /// A live provider; nothing is recorded.
    Live(HttpConfig),
    /// A live provider, recorded into the cassette.
    Record(HttpConfig, PathBuf),
    /// The cassette alone.
    Replay(PathBuf),
    /// Fixed replies, recorded into the cassette (starter cassettes).
    Script(Vec<Reply>, PathBuf),
}

impl Answers {
    /// The answers a settled cassette mode gives for `cassette`; the provider is configured
    /// (`http`) only when it will be called.
    pub fn for_mode<E>(
        mode: Mode,
        cassette: PathBuf,
        http: impl FnOnce() -> Result<HttpConfig, E>,
    ) -> Result<Answers, E> {
        Ok(match mode {
            Mode::Replay => Answers::Replay(cassette),
            Mode::Record | Mode::Auto => Answers::Record(http()?, cassette),
            Mode::Live => Answers::Live(http()?),
        })
    }
}

/// Everything a run needs.
#[derive(Debug, Clone)]
pub struct Trial {
    /// Skill folders to install.
    pub skills: Vec<PathBuf>,
    /// The workspace folder; a temporary one when `None`.
    pub workspace: Option<PathBuf>,
    /// Files to write into the workspace first (relative path, content).
    pub files: Vec<(String, String)>,
    /// What the user asks.
    pub prompt: String,
    /// Most model turns.
    pub max_turns: usize,
    /// Timeout of `exec` calls that name none.
    pub exec_timeout: Duration,
    /// Where answers come from.
    pub answers: Answers,
    /// The command that records the cassette again, quoted in replay errors.
    pub rerecord: String,
    /// How `exec` commands are confined.
    pub confinement: Confinement,
    /// Which variables the commands get beyond the allow-list.
    pub env: PassEnv,
    /// Skills whose bodies reach the model without a read (always-on, mentioned, preloaded).
    pub loading: Loading,
    /// End the run at the model's first skill read or action (`skill eval`).
    pub stop_at_route: bool,
}

/// Which variables a run's commands get beyond the allow-list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PassEnv {
    /// What the installed skills declare (`requires.env`, `primaryEnv`), and these values (a
    /// scenario's `env`): a live `try`, where the user chose the skills and watches the run.
    Declared(Vec<(String, String)>),
    /// Only what the user chose (`--pass-env`, a scenario's `env`): `skill test`, `skill eval`
    /// and every replay.
    Chosen(Passed),
}

/// The skills that reach the model other than through the summary, by name; see
/// [`skill_prompt::via`]. `@name` and `$name` in the prompt are mentions too.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Loading {
    /// Made always-on: bodies under `# Active Skills`.
    pub always: Vec<String>,
    /// Mentioned: bodies appended to the user's message.
    pub mention: Vec<String>,
    /// Preloaded: bodies under `# Specified Skills`.
    pub preload: Vec<String>,
}

impl Loading {
    /// `skill` loaded the way `via` says (nothing for the summary).
    pub fn one(via: skill_prompt::via::Via, skill: &str) -> Loading {
        use skill_prompt::via::Via;
        let mut loading = Loading::default();
        match via {
            Via::Summary => {}
            Via::Always => loading.always.push(skill.to_owned()),
            Via::Mention => loading.mention.push(skill.to_owned()),
            Via::Preload => loading.preload.push(skill.to_owned()),
        }
        loading
    }
}

/// Runs `trial`, reporting events; returns the workspace (still on disk) and the transcript.
pub fn run_trial(
    trial: &Trial,
    on_event: &mut dyn FnMut(Event),
) -> Result<(Workspace, Transcript), AgentError> {
    let workspace = Workspace::prepare(trial.workspace.as_deref(), &trial.skills, &trial.files)?;
    let transcript = run_in(&workspace, trial, on_event)?;
    Ok((workspace, transcript))
}

/// Runs `trial` in a workspace already prepared (its `skills`, `workspace` and `files` are not
/// used), so several runs can share one.
pub(crate) fn run_in(
    workspace: &Workspace,
    trial: &Trial,
    on_event: &mut dyn FnMut(Event),
) -> Result<Transcript, AgentError> {
    let loading = &trial.loading;
    let listings = loaded_listings(workspace, loading)?;
    let system_prompt = workspace.system_prompt_with(&listings, &loading.preload);
    let mut mentions = loading.mention.clone();
    for name in skill_prompt::via::mentioned(&trial.prompt, &listings) {
        if !mentions.contains(&name) {
            mentions.push(name);
        }
    }
    let prompt = skill_prompt::via::with_mentions(&trial.prompt, &listings, &mentions);
    let passed = match &trial.env {
        PassEnv::Declared(values) => Passed {
            names: workspace.declared_env(),
            values: values.clone(),
        },
        PassEnv::Chosen(passed) => passed.clone(),
    };
    let declared = passed.names.clone();
    let tools = ToolBox::new(workspace.root().to_owned(), trial.exec_timeout)
        .confined(trial.confinement, passed);
    let tools = with_mcp(workspace, tools, (&trial.answers, trial.confinement))?;
    let tmpdir = tools.tmpdir().map_err(|message| AgentError::Workspace {
        path: std::env::temp_dir(),
        message,
    })?;
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let normaliser = Normaliser::new(workspace.root(), home.as_deref())
        .with_path(&tmpdir, "{tmpdir}")
        .expanding_secrets(&declared);
    let mut model = model_for(&trial.answers, normaliser, &trial.rerecord)?;
    super::session::run_with(
        model.as_mut(),
        &tools,
        system_prompt,
        workspace.skills(),
        &prompt,
        trial.max_turns,
        trial.stop_at_route,
        on_event,
    )
    .map_err(AgentError::Interrupted)
}

/// The workspace's skill listings, those `loading` always loads marked so; an error when
/// `loading` names a skill that is not installed.
fn loaded_listings(
    workspace: &Workspace,
    loading: &Loading,
) -> Result<Vec<skill_prompt::Listing>, AgentError> {
    let mut listings = workspace.listings();
    for name in loading
        .always
        .iter()
        .chain(&loading.mention)
        .chain(&loading.preload)
    {
        if !listings.iter().any(|l| &l.name == name) {
            return Err(AgentError::Workspace {
                path: workspace.root().join("skills").join(name),
                message: format!("no installed skill is named '{name}'"),
            });
        }
    }
    for listing in &mut listings {
        if loading.always.contains(&listing.name) {
            listing.always = true;
        }
    }
    Ok(listings)
}

/// `tools` and the MCP tools of the servers the installed skills declare: started for a run
/// that calls a model, read from the cassette for a replay, none for a scripted run.
fn with_mcp(
    workspace: &Workspace,
    tools: ToolBox,
    (answers, confinement): (&Answers, Confinement),
) -> Result<ToolBox, AgentError> {
    let mut servers = Vec::new();
    for name in workspace.skills() {
        let dir = workspace.root().join("skills").join(name);
        let declared = mcp::declared::declared(&dir).map_err(|message| AgentError::Workspace {
            path: dir.clone(),
            message,
        })?;
        servers.extend(declared);
    }
    if servers.is_empty() {
        return Ok(tools);
    }
    let mcp = match answers {
        Answers::Script(..) => return Ok(tools),
        Answers::Replay(path) => {
            let cassette = Cassette::load(path).map_err(ModelError::from)?;
            McpTools::recorded(cassette.exchanges.iter().map(|e| &e.request))
        }
        Answers::Live(_) | Answers::Record(..) => {
            let confine = |command: &mut std::process::Command, installation: &[&Path]| {
                tools.confine_server(command, installation)
            };
            let limits = Limits {
                confine: &confine,
                timeout: tools.exec_timeout(),
                loopback_only: confinement.policy == Policy::Test { network: false },
            };
            McpTools::Live(Hub::start(&servers, &limits).map_err(|message| {
                AgentError::Workspace {
                    path: workspace.root().join("skills"),
                    message,
                }
            })?)
        }
    };
    Ok(tools.with_mcp(mcp))
}

/// The model `answers` name: a provider, a recorder around one, a replayer or a script.
pub(crate) fn model_for(
    answers: &Answers,
    normaliser: Normaliser,
    rerecord: &str,
) -> Result<Box<dyn Model>, ModelError> {
    let recorded_by = |provider: &str, model: &str| RecordedBy {
        tool: concat!("skill ", env!("CARGO_PKG_VERSION")).to_owned(),
        provider: provider.to_owned(),
        model: model.to_owned(),
    };
    Ok(match answers {
        Answers::Live(config) => config.clone().connect(),
        Answers::Record(config, path) => Box::new(Recorder::new(
            config.clone().connect(),
            path.clone(),
            recorded_by(config.kind.name(), &config.model),
            normaliser,
        )),
        Answers::Replay(path) => Box::new(Replayer::new(
            path.clone(),
            Cassette::load(path)?,
            normaliser,
            rerecord.to_owned(),
        )),
        Answers::Script(replies, path) => Box::new(Recorder::new(
            Box::new(Script::new(replies.clone())),
            path.clone(),
            recorded_by(SCRIPTED, "starter"),
            normaliser,
        )),
    })
}

/// `text` quoted for a POSIX shell when it needs quoting. A NUL, which no shell word can hold,
/// is dropped: these lines are printed for a person to run, and no argument or path has one.
pub fn shell_quote(text: &str) -> String {
    let text = text.replace('\0', "");
    let quoted = shlex::try_quote(&text).map(std::borrow::Cow::into_owned);
    quoted.unwrap_or(text)
}

/// `path` as a command line would name it.
pub fn shell_path(path: &Path) -> String {
    shell_quote(&path.display().to_string())
}
