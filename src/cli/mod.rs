//! The command line: one module per command, each a clap `Args` struct and a thin `run` that
//! calls the library and prints. Only this layer prints or chooses exit codes.

pub(crate) mod account;
pub(crate) mod builtin;
pub(crate) mod cache;
pub(crate) mod choice;
pub(crate) mod completions;
pub(crate) mod config;
pub(crate) mod doctor;
pub(crate) mod eval;
pub(crate) mod explain;
mod hint;
mod impact;
mod improve;
pub(crate) mod install;
pub(crate) mod keygen;
pub(crate) mod lint;
pub(crate) mod lint_fixes;
pub(crate) mod list;
pub(crate) mod lsp;
pub(crate) mod manage;
pub(crate) mod new;
pub(crate) mod output;
pub(crate) mod pack;
pub(crate) mod progress;
pub(crate) mod publish;
pub(crate) mod registry;
mod registry_json;
pub(crate) mod search;
pub(crate) mod skill_args;
mod skills_dir;
pub(crate) mod suite;
pub(crate) mod summary;
pub(crate) mod test;
mod through;
pub(crate) mod r#try;
pub(crate) mod verify;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// The toolkit for agent skills: scaffold, lint, package, publish and test SKILL.md skills.
#[derive(Debug, Parser)]
#[command(
    name = "skill",
    version,
    about,
    propagate_version = true,
    after_help = "Examples:\n  skill new docker-deploy --template cli-tool --bins docker\n  skill lint docker-deploy\n  skill test docker-deploy\n  skill publish docker-deploy --version 1.0.0\n\nSettings: `skill config show`. Manual: `skill man`. Completions: `skill completions SHELL`."
)]
pub struct Cli {
    /// Print only results and errors: no progress bars, notes, passing lines or live views
    /// (`try -q` prints the answer alone).
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    pub(crate) quiet: bool,
    /// Print more: whole tool results in `try`, scenario paths in `test`, the checks behind a
    /// rule in `explain`, debug lines of `registry serve`.
    #[arg(short, long, global = true)]
    pub(crate) verbose: bool,
    /// The command to run.
    #[command(subcommand)]
    pub(crate) command: Command,
}

/// Every command.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Check skills against the Agent Skills spec and what agents accept.
    Lint(lint::Args),
    /// A language server for SKILL.md (stdio): lint's findings, fixes, hover and completion in the editor.
    Lsp(lsp::Args),
    /// Print the documentation of a lint rule (or list all rules).
    Explain(explain::Args),
    /// Print the cache folder, or remove lint's cache of findings.
    Cache(cache::Args),
    /// Create a skill from a template or a builtin skill.
    New(new::Args),
    /// List or show the skills shipped with skill.
    Builtin(builtin::Args),
    /// Render the skills summary an agent puts in its system prompt.
    Summary(summary::Args),
    /// Print the skills part of a system prompt (always-on skills, then the summary).
    Prompt(summary::PromptArgs),
    /// List the skills an agent would see, and whether each is available here.
    List(list::Args),
    /// Say which skills are unavailable here and what to install or set; exit 1 if any.
    Check(list::CheckArgs),
    /// Show what each agent will really load from its roots, and why not; exit 1 if a skill
    /// would not reach the model.
    Doctor(doctor::Args),
    /// Build a reproducible .skill archive.
    Pack(pack::Args),
    /// Make a minisign key pair for signing archives (pack --sign, install --trust).
    Keygen(keygen::Args),
    /// Install a skill from a .skill/.zip archive or a folder.
    Install(install::Args),
    /// Remove an installed skill.
    Uninstall(install::UninstallArgs),
    /// Update skills installed from a registry to their latest versions.
    Update(install::UpdateArgs),
    /// Check installed skills against what was installed (added, removed, changed files).
    Verify(verify::Args),
    /// Administer or serve a self-hosted registry.
    Registry(registry::Args),
    /// Store a registry token (checked with whoami first).
    Login(account::LoginArgs),
    /// Forget the stored token.
    #[command(
        after_help = "Examples:\n  skill logout\n  skill logout --registry http://127.0.0.1:8787"
    )]
    Logout(account::RegistryArg),
    /// Show who the stored token belongs to.
    #[command(
        after_help = "Examples:\n  skill whoami\n  skill whoami --registry http://127.0.0.1:8787"
    )]
    Whoami(account::RegistryArg),
    /// Search a registry.
    Search(search::SearchArgs),
    /// Show a registry skill.
    Info(search::InfoArgs),
    /// List a registry's skills (by update, newest, downloads, stars, name; a slug prefix).
    Explore(manage::ExploreArgs),
    /// Star a registry skill.
    Star(manage::StarArgs),
    /// Take your star off a registry skill.
    #[command(after_help = "Example:\n  skill unstar pdf-tools")]
    Unstar(manage::StarArgs),
    /// Point a tag of your registry skill at an existing version.
    Tag(manage::TagArgs),
    /// Delete your registry skill, or withdraw one version of it (--version).
    Delete(manage::DeleteArgs),
    /// Restore your deleted registry skill, or one withdrawn version (--version).
    Undelete(manage::UndeleteArgs),
    /// Publish a skill to a registry.
    Publish(publish::Args),
    /// Run skills inside a real agent loop (live, recorded, or replayed from a cassette).
    Try(r#try::Args),
    /// Run skills' scenarios (evals/*.yaml) offline from their cassettes.
    Test(test::Args),
    /// Trigger and routing evals (evals/triggers.yaml): does the model read each skill when
    /// it should, and only then, among the other skills an agent has; with --impact, outcome
    /// evals (evals/evals.json): is the agent better with the skill than without it.
    Eval(eval::Args),
    /// Show the shared settings (registry, target, provider, model) and where each comes from.
    Config(config::Args),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    Completions(completions::Args),
    /// Print the man page.
    Man(completions::ManArgs),
}

/// An error that ends a command; printed as `error: ...` with exit code 2.
#[derive(Debug, thiserror::Error)]
pub(crate) enum CliError {
    /// A path named no skill.
    #[error(transparent)]
    Discovery(#[from] skill_model::DiscoveryError),
    /// A `--select`/`--ignore` value matched no rule.
    #[error(transparent)]
    Selector(#[from] skill_lint::selection::UnknownSelector),
    /// `skill explain` of a rule that does not exist.
    #[error("unknown rule '{0}'; run `skill explain` to list the rules")]
    UnknownRule(String),
    /// `skill new` failed.
    #[error(transparent)]
    Scaffold(#[from] crate::scaffold::ScaffoldError),
    /// The builtin skills could not be written to the cache.
    #[error("cannot write the builtin skills: {0}")]
    Builtin(#[source] std::io::Error),
    /// `--skill` or `builtin show` named skills that do not exist.
    #[error("no such skill: {0}")]
    UnknownSkills(String),
    /// Packing failed.
    #[error(transparent)]
    Pack(#[from] skill_archive::pack::PackError),
    /// Writing plugins failed.
    #[error(transparent)]
    Plugin(#[from] skill_archive::plugin::PluginError),
    /// The JUnit report could not be written out.
    #[error("cannot write the JUnit report: {0}")]
    Junit(#[from] skill_agent::junit::SerializeError),
    /// Installing failed.
    #[error(transparent)]
    Install(#[from] skill_archive::install::InstallError),
    /// The registry's store refused or failed.
    #[error(transparent)]
    Store(#[from] skill_registry::store::StoreError),
    /// A registry call failed.
    #[error(transparent)]
    Client(#[from] skill_registry::client::ClientError),
    /// A publish could not be prepared or was refused.
    #[error(transparent)]
    Publish(#[from] skill_registry::publish::PublishError),
    /// A skill's model review could not be made.
    #[error("{}: {source}", dir.display())]
    Review {
        /// The skill folder.
        dir: std::path::PathBuf,
        /// Why.
        #[source]
        source: Box<skill_agent::review::ReviewError>,
    },
    /// A registry install or update failed.
    #[error(transparent)]
    RegistryInstall(#[from] skill_registry::install::RegistryInstallError),
    /// A git source could not be fetched.
    #[error(transparent)]
    Git(#[from] crate::git_source::GitError),
    /// A shared install could not be placed, recorded or removed.
    #[error(transparent)]
    Shared(#[from] crate::shared_install::SharedError),
    /// A mirror run stopped.
    #[error(transparent)]
    Mirror(#[from] skill_registry::mirror::MirrorError),
    /// No token for the registry.
    #[error("not logged in to {0}; run `skill login --token TOKEN --registry {0}`")]
    NotLoggedIn(String),
    /// The settings (skill.toml, config.toml, env vars) could not be read or understood.
    #[error(transparent)]
    Config(#[from] crate::config::ConfigError),
    /// skill.toml's `[lint]` table could not be read or understood.
    #[error(transparent)]
    LintConfig(#[from] skill_lint::config::LintConfigError),
    /// A lint baseline file could not be read or written.
    #[error(transparent)]
    Baseline(#[from] skill_lint::baseline::BaselineError),
    /// A fixed SKILL.md could not be written.
    #[error(transparent)]
    Fix(#[from] skill_lint::fix::WriteError),
    /// An agent run failed.
    #[error(transparent)]
    Agent(#[from] skill_agent::AgentError),
    /// A starter scenario could not be written.
    #[error(transparent)]
    Starter(#[from] skill_agent::test::starter::StarterError),
    /// A trigger eval could not run.
    #[error(transparent)]
    Eval(#[from] skill_agent::eval::EvalError),
    /// A run through a real agent CLI failed.
    #[error(transparent)]
    Harness(#[from] skill_agent::eval::harness::HarnessError),
    /// An impact eval could not run.
    #[error(transparent)]
    Impact(#[from] skill_agent::eval::impact::ImpactError),
    /// A signature could not be made or checked, or a key could not be made.
    #[error(transparent)]
    Signature(#[from] skill_archive::signature::SignatureError),
    /// An archive could not be read, or its signature checked.
    #[error(transparent)]
    SignedArchive(#[from] skill_archive::signature::CheckFileError),
    /// A test scenario could not be read.
    #[error(transparent)]
    Scenario(#[from] skill_agent::test::scenario::ScenarioError),
    /// Arguments that do not go together.
    #[error("{0}")]
    Usage(String),
    /// Writing the output failed.
    #[error("cannot write output: {0}")]
    Output(#[from] std::io::Error),
}

impl CliError {
    /// The URL of the registry call behind this error, if a call failed.
    pub(crate) fn registry_url(&self) -> Option<&str> {
        use skill_registry::install::RegistryInstallError;
        use skill_registry::mirror::MirrorError;
        match self {
            CliError::Client(e)
            | CliError::Publish(skill_registry::publish::PublishError::Client(e))
            | CliError::RegistryInstall(RegistryInstallError::Client(e))
            | CliError::Mirror(MirrorError::Source(e)) => Some(e.url()),
            _ => None,
        }
    }
}

/// Prints `error` as the command's last words, with what to do about it where the command line
/// has an answer; with `-v`, the URL of a failed registry call.
pub(crate) fn print_error(error: &CliError) {
    anstream::eprintln!("error: {error}");
    if let Some(hint) = hint::of(error) {
        anstream::eprintln!("hint: {hint}");
    }
    if let Some(url) = error.registry_url().filter(|_| output::verbose()) {
        anstream::eprintln!("  (the call was {url})");
    }
}

/// Runs the parsed command line and says how it ended: the process's exit code, after the
/// error and its hint on stderr when it failed (2).
pub fn main(cli: Cli) -> ExitCode {
    match run(cli) {
        Ok(code) => code,
        Err(error) => {
            print_error(&error);
            ExitCode::from(2)
        }
    }
}

/// Runs the parsed command line.
pub(crate) fn run(cli: Cli) -> Result<ExitCode, CliError> {
    // A broken skill.toml or config.toml is reported before any command runs.
    crate::config::init()?;
    output::set(cli.quiet, cli.verbose);
    match cli.command {
        Command::Lint(args) => lint::run(args),
        Command::Lsp(args) => lsp::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Cache(args) => cache::run(args),
        Command::New(args) => new::run(args),
        Command::Builtin(args) => builtin::run(args),
        Command::Summary(args) => summary::run(args),
        Command::Prompt(args) => summary::run_prompt(args),
        Command::List(args) => list::run(args),
        Command::Check(args) => list::run_check(args),
        Command::Doctor(args) => doctor::run(args),
        Command::Pack(args) => pack::run(args),
        Command::Keygen(args) => keygen::run(args),
        Command::Install(args) => install::run(args),
        Command::Uninstall(args) => install::run_uninstall(args),
        Command::Update(args) => install::run_update(args),
        Command::Verify(args) => verify::run(args),
        Command::Registry(args) => registry::run(args),
        Command::Login(args) => account::login(args),
        Command::Logout(args) => account::logout(args),
        Command::Whoami(args) => account::whoami(args),
        Command::Search(args) => search::search(args),
        Command::Info(args) => search::info(args),
        Command::Explore(args) => manage::explore(args),
        Command::Star(args) => manage::star(args),
        Command::Unstar(args) => manage::unstar(args),
        Command::Tag(args) => manage::tag(args),
        Command::Delete(args) => manage::delete(args),
        Command::Undelete(args) => manage::undelete(args),
        Command::Publish(args) => publish::run(args),
        Command::Try(args) => r#try::run(args),
        Command::Test(args) => test::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Config(args) => config::run(args),
        Command::Completions(args) => completions::run(args),
        Command::Man(args) => completions::run_man(args),
    }
}

/// The registry to talk to: flags, env vars and the config files (`crate::config`), then the
/// registry last logged in to, then ClawHub.
pub(crate) fn registry_setting(flag: Option<&str>) -> crate::config::Setting<String> {
    use crate::config::{DEFAULT_REGISTRY, Setting, SettingOrigin};
    use skill_registry::credentials;
    crate::config::current()
        .registry(flag)
        .or_else(|| {
            credentials::load().registry.map(|value| Setting {
                value: value.trim_end_matches('/').to_owned(),
                origin: SettingOrigin::Login(credentials::path()),
            })
        })
        .unwrap_or_else(|| Setting {
            value: DEFAULT_REGISTRY.to_owned(),
            origin: SettingOrigin::Default,
        })
}

/// The registry URL (see [`registry_setting`]).
pub(crate) fn registry_url(flag: Option<&str>) -> String {
    registry_setting(flag).value
}

/// The lint gate of `pack` and `publish`: prints the errors on stderr and says whether to go
/// on. The availability rules are off: what is installed here says nothing about the skill.
pub(crate) fn lint_gate(paths: &[std::path::PathBuf], refusal: &str) -> Result<bool, CliError> {
    use skill_lint::{Options, lint_paths, report::Format};
    // Each skill is held to the agent it was written for, as `skill lint` does by default.
    let options = Options {
        env_checks: false,
        ..Options::inferring()
    };
    let run = lint_paths(paths, &options)?;
    if run.summary().errors == 0 {
        return Ok(true);
    }
    anstream::eprint!("{}", Format::Human.render(&run, true));
    eprintln!("error: {refusal}: fix the errors above, or pass --no-lint");
    Ok(false)
}
