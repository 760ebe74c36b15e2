//! `skill try`: runs skills inside a real agent loop and shows what the model did with them.

use super::CliError;
use anstyle::{AnsiColor, Style};
use skill_agent::cassette::Mode;
use skill_agent::provider::{HttpConfig, ModelError, ProviderKind, ProviderOptions};
use skill_agent::test::scenario::Scenario;
use skill_agent::tools::{Confinement, Origin, Passed};
use skill_agent::r#try::{Answers, Loading, PassEnv, Trial, run_trial, shell_path, shell_quote};
use skill_agent::{AgentError, Event, Stop, Transcript};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// Arguments of `skill try`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill try docker-deploy -p 'Deploy the app in ./app'\n  skill try docker-deploy -p 'Deploy the app' --record evals/deploy.cassette.yaml\n  skill try docker-deploy -p 'Deploy the app' --replay evals/deploy.cassette.yaml\n  skill try docker-deploy --scenario docker-deploy/evals/dockerfile.yaml   watch a scenario's run\n  skill try docker-deploy --harness claude-code -p 'Deploy the app' --record deploy.claude.yaml"
)]
pub(crate) struct Args {
    /// Skill folders to install in the workspace.
    #[arg(required = true, value_name = "SKILL_DIR")]
    pub(crate) skills: Vec<PathBuf>,
    /// What the user asks the agent.
    #[arg(short, long, required_unless_present = "scenario")]
    pub(crate) prompt: Option<String>,
    /// Run a `skill test` scenario: its prompt, workspace files, turn limit and cassette (used
    /// as --cassette is).
    #[arg(long, value_name = "FILE", conflicts_with = "prompt")]
    pub(crate) scenario: Option<PathBuf>,
    /// The model provider.
    #[command(flatten)]
    pub(crate) provider: ProviderArgs,
    /// Work in this folder instead of a fresh temporary one.
    #[arg(long)]
    pub(crate) workspace: Option<PathBuf>,
    /// Most model turns.
    #[arg(long, default_value_t = skill_agent::DEFAULT_MAX_TURNS)]
    pub(crate) max_turns: usize,
    /// Call the model and record the run into this cassette.
    #[arg(long, value_name = "CASSETTE", conflicts_with_all = ["replay", "cassette"])]
    pub(crate) record: Option<PathBuf>,
    /// Answer from this cassette only, offline.
    #[arg(long, value_name = "CASSETTE", conflicts_with = "cassette")]
    pub(crate) replay: Option<PathBuf>,
    /// Use this cassette in the mode --mode or SKILL_RECORD names [default: replay under CI,
    /// else auto].
    #[arg(long)]
    pub(crate) cassette: Option<PathBuf>,
    /// How to use --cassette (or the scenario's cassette).
    #[arg(long, value_parser = super::choice::parser::<Mode>())]
    pub(crate) mode: Option<Mode>,
    /// Seconds before an `exec` call that names no timeout is killed.
    #[arg(long, default_value_t = skill_agent::tools::DEFAULT_EXEC_TIMEOUT.as_secs())]
    pub(crate) exec_timeout: u64,
    /// Keep the temporary workspace and print its path.
    #[arg(long)]
    pub(crate) keep: bool,
    /// Write the transcript as JSON on stdout instead of the live view.
    #[arg(long)]
    pub(crate) json: bool,
    /// Confine commands as `skill test` and replays do: reads only of the system's folders and
    /// the workspace, HOME set to the workspace, no TCP connections (unless the scenario allows
    /// them).
    #[arg(long)]
    pub(crate) strict: bool,
    /// Run commands without the Landlock sandbox (the environment allow-list and the process
    /// kill still apply).
    #[arg(long)]
    pub(crate) no_sandbox: bool,
    /// In a replay, give commands this variable from your environment (repeatable): a replay
    /// passes nothing the skills declare unless named here. A live run passes what they declare.
    #[arg(long, value_name = "NAME")]
    pub(crate) pass_env: Vec<String>,
    /// Mention this skill in the prompt, as `@NAME` would: its body follows the user's message
    /// in nanobot's `[Active Skills — instructions for this user turn]` block (repeatable).
    #[arg(long, value_name = "NAME")]
    pub(crate) mention: Vec<String>,
    /// Preload this skill, as a caller's `skill_names`: its body goes under `# Specified
    /// Skills` in the system prompt (repeatable).
    #[arg(long, value_name = "NAME")]
    pub(crate) preload: Vec<String>,
    /// Make this skill always-on: its body goes under `# Active Skills` (repeatable).
    #[arg(long, value_name = "NAME")]
    pub(crate) always: Vec<String>,
    /// Run the prompt in this real agent CLI (found on PATH) with the skills installed where
    /// it reads them, in a temporary home and project; its model requests go through a proxy
    /// on loopback that forwards them with your key (--record keeps them) or answers from
    /// --replay offline.
    #[arg(
        long,
        value_name = "HARNESS",
        value_parser = super::choice::parser::<skill_agent::agent_cli::Harness>(),
        conflicts_with_all = ["scenario", "workspace", "cassette", "mode", "strict", "pass_env", "mention", "preload", "always"]
    )]
    pub(crate) harness: Option<skill_agent::agent_cli::Harness>,
}

/// The provider flags `skill try` and `skill test` share.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct ProviderArgs {
    /// Which API [default: SKILL_PROVIDER, skill.toml, config.toml, else anthropic when only
    /// ANTHROPIC_API_KEY is set, else openai]
    #[arg(long, value_parser = super::choice::parser::<ProviderKind>())]
    pub(crate) provider: Option<ProviderKind>,
    /// The model [default: SKILL_MODEL, skill.toml, config.toml, else gpt-4.1-mini /
    /// claude-sonnet-4-5]
    #[arg(long)]
    pub(crate) model: Option<String>,
    /// The API's base URL (OpenAI's ends in /v1; Anthropic's is the bare host) [env:
    /// OPENAI_BASE_URL / ANTHROPIC_BASE_URL]
    #[arg(long)]
    pub(crate) base_url: Option<String>,
    /// Ask for whole answers instead of streams.
    #[arg(long)]
    pub(crate) no_stream: bool,
    /// Most output tokens per reply (OpenAI's max_completion_tokens, Anthropic's max_tokens)
    /// [default: skill.toml, config.toml, else the model's limit / 8192 for Anthropic]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub(crate) max_tokens: Option<u32>,
    /// Turn on Anthropic's extended thinking with this many tokens per reply (at least 1024,
    /// below --max-tokens) [default: skill.toml, config.toml, else off]
    #[arg(long, value_name = "N")]
    pub(crate) thinking_budget: Option<u32>,
    /// Put the tool's name on OpenAI tool messages, for servers that want it (it is outside
    /// the API's schema; strict gateways refuse it) [default: skill.toml, config.toml, else
    /// off]
    #[arg(long)]
    pub(crate) tool_message_name: bool,
}

impl ProviderArgs {
    /// The provider configuration: flags, then env vars, then `skill.toml`, then the user's
    /// `config.toml`, then defaults (see `crate::config`).
    pub(crate) fn config(&self) -> Result<HttpConfig, ModelError> {
        let settings = crate::config::current();
        let kind = settings.provider(self.provider).value;
        let model = settings.model(self.model.clone(), kind).value;
        let options = ProviderOptions {
            max_tokens: settings.max_tokens(self.max_tokens).map(|s| s.value),
            thinking_budget: settings
                .thinking_budget(self.thinking_budget)
                .map(|s| s.value),
            tool_message_name: settings.tool_message_name(self.tool_message_name).value,
        };
        HttpConfig::resolve(
            kind,
            self.base_url.clone(),
            Some(model),
            !self.no_stream,
            options,
        )
    }
}

/// Runs the loop.
pub(crate) fn run(mut args: Args) -> Result<ExitCode, CliError> {
    if let Some(harness) = args.harness {
        return super::through::try_in(&args, harness);
    }
    let mut setup = Setup {
        files: Vec::new(),
        network: false,
        env: Vec::new(),
        loading: Loading {
            always: args.always.clone(),
            mention: args.mention.clone(),
            preload: args.preload.clone(),
        },
    };
    if let Some(path) = args.scenario.clone() {
        apply_scenario(&mut args, &path, &mut setup)?;
    }
    if args.mode.is_some() && args.cassette.is_none() {
        return Err(CliError::Usage(
            "--mode needs --cassette FILE or --scenario FILE".to_owned(),
        ));
    }
    let answers = answers(&args)?;
    let confinement = confine_commands(&args, &answers, setup.network)?;
    // Recorded calls get only what the user chose; a live run, what its skills declare.
    let env = match answers {
        Answers::Replay(_) => PassEnv::Chosen(Passed {
            names: args.pass_env.clone(),
            values: setup.env,
        }),
        _ => PassEnv::Declared(setup.env),
    };
    let trial = Trial {
        skills: args.skills.clone(),
        workspace: args.workspace.clone(),
        files: setup.files,
        prompt: args.prompt.clone().unwrap_or_default(),
        max_turns: args.max_turns,
        exec_timeout: Duration::from_secs(args.exec_timeout),
        answers,
        rerecord: rerecord_command(&args),
        confinement,
        env,
        loading: setup.loading,
        stop_at_route: false,
    };
    watch_trial(&args, &trial)
}

/// What the run takes besides the flags: a scenario's files, network grant and env values, and
/// the skills whose bodies are loaded up front.
struct Setup {
    files: Vec<(String, String)>,
    network: bool,
    env: Vec<(String, String)>,
    loading: Loading,
}

/// Takes `--scenario`'s prompt, files, turn limit, cassette and loading in place of the flags'.
fn apply_scenario(args: &mut Args, path: &Path, setup: &mut Setup) -> Result<(), CliError> {
    let scenario = Scenario::load(path)?;
    setup.network = scenario.network;
    setup.env = scenario.env.clone().into_iter().collect();
    if let Some(first) = args.skills.first() {
        let one = Loading::one(scenario.via, &skill_agent::test::skill_name(first));
        setup.loading.always.extend(one.always);
        setup.loading.mention.extend(one.mention);
        setup.loading.preload.extend(one.preload);
    }
    if args.record.is_none() && args.replay.is_none() && args.cassette.is_none() {
        args.cassette = Some(scenario.cassette_path(path));
    }
    args.max_turns = scenario.expect.max_turns.unwrap_or(args.max_turns);
    args.prompt = Some(scenario.prompt);
    setup.files = scenario.files.into_iter().collect();
    Ok(())
}

/// Runs the trial with the live view, reports it, and exits 0 only on a whole answer.
fn watch_trial(args: &Args, trial: &Trial) -> Result<ExitCode, CliError> {
    let mut view = LiveView::new(!args.json && !super::output::quiet());
    let result = run_trial(trial, &mut |event| view.show(event));
    // A stream cut by an error leaves its line open; the error goes on a line of its own.
    view.end_line();
    let (workspace, transcript) = match result {
        Ok(done) => done,
        Err(AgentError::Interrupted(interrupted)) => {
            report(args, &interrupted.transcript)?;
            return Err(CliError::Agent(AgentError::Model(interrupted.error)));
        }
        Err(e) => return Err(e.into()),
    };
    report(args, &transcript)?;
    if args.keep {
        eprintln!("workspace kept: {}", workspace.keep().display());
    }
    // Only a whole answer is a success: a refusal, a cut-off or a limit is not what was asked.
    Ok(match transcript.stop {
        Stop::Answer => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// The transcript as JSON on stdout, the summary after the live view, or with `-q` the answer
/// alone.
fn report(args: &Args, transcript: &Transcript) -> Result<(), CliError> {
    if args.json {
        super::output::print_json(transcript, true)?;
    } else if super::output::quiet() {
        // -q leaves out the live view and the summary, never the result: the answer alone.
        if let Some(answer) = &transcript.final_answer {
            println!("{answer}");
        }
    } else {
        print_summary(transcript);
    }
    Ok(())
}

/// How commands are confined: a replay's tool calls come from a file anyone could have
/// written, so a replay is confined as `skill test` is (and refused where it cannot be); a live
/// run follows `--strict`.
fn confine_commands(
    args: &Args,
    answers: &Answers,
    network: bool,
) -> Result<Confinement, CliError> {
    let origin = match answers {
        Answers::Replay(_) => Origin::Recorded,
        _ => Origin::Live {
            strict: args.strict,
        },
    };
    Ok(super::test::decide_confinement(origin, args.no_sandbox)?.with_network(network))
}

/// The answers the flags and `SKILL_RECORD` choose; the provider is only configured when
/// one will be called.
fn answers(args: &Args) -> Result<Answers, CliError> {
    let http = || {
        args.provider
            .config()
            .map_err(|e| CliError::Agent(e.into()))
    };
    if let Some(path) = &args.replay {
        return Ok(Answers::Replay(path.clone()));
    }
    if let Some(path) = &args.record {
        return Ok(Answers::Record(http()?, path.clone()));
    }
    let env_mode = Mode::from_env().map_err(|e| CliError::Agent(ModelError::from(e).into()))?;
    let Some(path) = &args.cassette else {
        return match env_mode {
            None | Some(Mode::Live) => Ok(Answers::Live(http()?)),
            Some(_) => Err(CliError::Usage(
                "SKILL_RECORD asks for a cassette: pass --cassette FILE".to_owned(),
            )),
        };
    };
    let mode = args
        .mode
        .or(env_mode)
        .unwrap_or_else(Mode::default_here)
        .settle(path);
    Answers::for_mode(mode, path.clone(), http)
}

fn rerecord_command(args: &Args) -> String {
    let cassette = args
        .replay
        .as_ref()
        .or(args.cassette.as_ref())
        .or(args.record.as_ref());
    let mut words = vec!["skill".to_owned(), "try".to_owned()];
    words.extend(args.skills.iter().map(|s| shell_path(s)));
    match &args.scenario {
        Some(scenario) => {
            words.push("--scenario".to_owned());
            words.push(shell_path(scenario));
        }
        None => {
            words.push("-p".to_owned());
            words.push(shell_quote(args.prompt.as_deref().unwrap_or_default()));
        }
    }
    // The flags that shape the run, so the new recording is of the same run.
    let provider = &args.provider;
    let mut flag = |name: &str, value: Option<String>| {
        if let Some(value) = value {
            words.push(name.to_owned());
            words.push(shell_quote(&value));
        }
    };
    flag("--provider", provider.provider.map(|p| p.name().to_owned()));
    flag("--model", provider.model.clone());
    flag("--base-url", provider.base_url.clone());
    flag("--max-tokens", provider.max_tokens.map(|n| n.to_string()));
    flag(
        "--thinking-budget",
        provider.thinking_budget.map(|n| n.to_string()),
    );
    let default_turns = skill_agent::DEFAULT_MAX_TURNS;
    flag(
        "--max-turns",
        (args.max_turns != default_turns).then(|| args.max_turns.to_string()),
    );
    let default_timeout = skill_agent::tools::DEFAULT_EXEC_TIMEOUT.as_secs();
    flag(
        "--exec-timeout",
        (args.exec_timeout != default_timeout).then(|| args.exec_timeout.to_string()),
    );
    if provider.tool_message_name {
        words.push("--tool-message-name".to_owned());
    }
    if let Some(path) = cassette {
        words.push("--record".to_owned());
        words.push(shell_path(path));
    }
    words.join(" ")
}

/// The live transcript on stdout: streamed text, each call, a cut of each result.
struct LiveView {
    enabled: bool,
    mid_line: bool,
    /// What the open line holds, so a change (thinking, then the answer) starts a new one.
    streaming: Streaming,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Streaming {
    Nothing,
    Text,
    Refusal,
    Thinking,
}

const DIM: Style = Style::new().dimmed();
const CALL: Style = AnsiColor::Cyan.on_default().bold();
const TURN: Style = AnsiColor::Blue.on_default();
const REFUSAL: Style = AnsiColor::Yellow.on_default().bold();
const WARN: Style = AnsiColor::Yellow.on_default();
const FAILED: Style = AnsiColor::Red.on_default();

impl LiveView {
    fn new(enabled: bool) -> LiveView {
        LiveView {
            enabled,
            mid_line: false,
            streaming: Streaming::Nothing,
        }
    }

    fn show(&mut self, event: Event) {
        if !self.enabled {
            return;
        }
        let mut out = anstream::stdout();
        match event {
            Event::Turn(n) => {
                self.end_line();
                let _ = writeln!(out, "{TURN}── turn {n} ──{TURN:#}");
            }
            Event::Text(text) => self.stream(Streaming::Text, "", Style::new(), text),
            Event::Refusal(text) => self.stream(Streaming::Refusal, "refusal: ", REFUSAL, text),
            Event::Thinking(text) => self.stream(Streaming::Thinking, "thinking: ", DIM, text),
            Event::Call(call) => {
                self.end_line();
                let _ = writeln!(out, "{CALL}→ {}{CALL:#} {}", call.name, call.arguments);
            }
            Event::Result(_, output) => {
                let shown = if super::output::verbose() {
                    indent(&output.content)
                } else {
                    cut(&output.content)
                };
                let style = if output.is_error { FAILED } else { DIM };
                let _ = writeln!(out, "{style}{shown}{style:#}");
            }
        }
        let _ = out.flush();
    }

    /// Streamed text of one kind; a new kind starts on a new line, with its label.
    fn stream(&mut self, kind: Streaming, label: &str, style: Style, text: &str) {
        let mut out = anstream::stdout();
        if self.streaming != kind {
            self.end_line();
            self.streaming = kind;
            if !label.is_empty() {
                let _ = write!(out, "{style}{label}{style:#}");
                self.mid_line = true;
            }
        }
        let _ = write!(out, "{style}{text}{style:#}");
        if !text.is_empty() {
            self.mid_line = !text.ends_with('\n');
        }
    }

    fn end_line(&mut self) {
        if self.mid_line {
            println!();
            self.mid_line = false;
        }
        self.streaming = Streaming::Nothing;
    }
}

/// A whole tool result, indented.
fn indent(content: &str) -> String {
    content
        .lines()
        .map(|l| format!("  ← {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first lines of a tool result, indented, with a count of what was left out.
fn cut(content: &str) -> String {
    const LINES: usize = 4;
    const CHARS: usize = 300;
    let total = content.lines().count();
    let mut shown: Vec<String> = content
        .lines()
        .take(LINES)
        .map(|l| {
            let mut line: String = l.chars().take(CHARS).collect();
            if l.chars().count() > CHARS {
                line.push('…');
            }
            format!("  ← {line}")
        })
        .collect();
    if shown.is_empty() {
        shown.push("  ← (empty)".to_owned());
    }
    if total > LINES {
        shown.push(format!("  … ({} more lines)", total - LINES));
    }
    shown.join("\n")
}

fn print_summary(transcript: &Transcript) {
    let mut out = anstream::stdout();
    let how = match transcript.stop {
        Stop::Answer => "answered",
        Stop::Refusal => "refused",
        Stop::Length => "cut off at the output token limit",
        Stop::ContentFilter => "stopped by the provider's content filter",
        Stop::MaxTurns => "stopped at the turn limit",
        Stop::BadToolCalls => "stopped on unreadable tool calls",
        Stop::Error => "stopped by an error",
        Stop::Routed => "stopped at the first skill read or action",
    };
    let _ = writeln!(
        out,
        "\n{TURN}── {how} after {} turn{} · stop: {} · tokens {} in / {} out · {:.1} s ──{TURN:#}",
        transcript.turns,
        if transcript.turns == 1 { "" } else { "s" },
        transcript.stop,
        transcript.usage.input,
        transcript.usage.output,
        transcript.elapsed_ms as f64 / 1000.0
    );
    let hint = match transcript.stop {
        Stop::Length => Some(
            "the last reply is incomplete: raise --max-tokens (or max_tokens in skill.toml), or ask for less at once",
        ),
        Stop::Refusal => Some("the model refused: its refusal is the final answer"),
        Stop::BadToolCalls => Some(
            "the model sent arguments that are not a JSON object twice in a row; see the results above",
        ),
        _ => None,
    };
    if let Some(hint) = hint {
        let _ = writeln!(out, "{WARN}{hint}{WARN:#}");
    }
    let unread: Vec<&String> = transcript
        .skills
        .iter()
        .filter(|s| !transcript.skills_read.contains(s))
        .collect();
    if transcript.skills_read.is_empty() {
        let _ = writeln!(out, "skills read: none (the model never opened a SKILL.md)");
    } else {
        let _ = writeln!(out, "skills read: {}", transcript.skills_read.join(", "));
    }
    if !unread.is_empty() && !transcript.skills_read.is_empty() {
        let names: Vec<&str> = unread.iter().map(|s| s.as_str()).collect();
        let _ = writeln!(out, "skills not read: {}", names.join(", "));
    }
}
