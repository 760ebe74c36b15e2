//! `skill summary` and `skill prompt`.

use super::CliError;
use super::skill_args::SkillArgs;
use skill_lint::tokens;
use skill_model::agents::Reading;
use skill_model::agents::facts;
use skill_model::catalog::Agent;
use skill_model::environment::SystemEnvironment;
use skill_prompt::{self as prompt, Format, Listing, PromptLayout, RenderContext};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `skill summary`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill summary skills/\n  skill summary --agent nanobot\n  skill summary skills/ --format openclaw --budget 4000 --tokens\n\nThe formats `openclaw` (OpenClaw 2026.9.6) and `nanobot` (nanobot 0.3.5) read skills with their\nagent's own rules; with --agent, every other format reads them with that agent's rules."
)]
pub(crate) struct Args {
    /// Which skills.
    #[command(flatten)]
    pub(crate) selection: SkillArgs,
    /// Output format [default: the --agent's own, else agentskills]
    #[arg(long, value_parser = super::choice::parser::<Format>())]
    pub(crate) format: Option<Format>,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub(crate) json: bool,
    /// Leave out skills whose requirements do not hold here.
    #[arg(long)]
    pub(crate) available_only: bool,
    /// Most characters of output: OpenClaw's `maxSkillsPromptChars` for `openclaw` (default
    /// 18,000 UTF-16 code units, with its shorten-then-drop steps); other formats drop skills
    /// from the end.
    #[arg(long)]
    pub(crate) budget: Option<usize>,
    /// Report the o200k token cost of the output and of each skill on stderr.
    #[arg(long)]
    pub(crate) tokens: bool,
}

/// Arguments of `skill prompt`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill prompt skills/\n  skill prompt --agent openclaw\n  skill prompt --agent nanobot\n  skill prompt --agent claude\n  skill prompt --agent codex --context 400000"
)]
pub(crate) struct PromptArgs {
    /// Which skills.
    #[command(flatten)]
    pub(crate) selection: SkillArgs,
    /// Whose prompt: nanobot 0.3.5 (`# Active Skills` + `# Skills`), OpenClaw 2026.9.6
    /// (`## Skills`), or the skills listing of Claude Code 2.1.328, Codex 0.169.1, Gemini CLI
    /// 0.61.0, OpenCode 1.18.33 or Copilot CLI 1.0.102 [default: the --agent's, else nanobot]
    #[arg(long, value_parser = super::choice::parser::<PromptLayout>())]
    pub(crate) format: Option<PromptLayout>,
    /// The model's context window in tokens, for the agents whose budget is a share of it
    /// (Claude Code 1%, Codex 2%)
    #[arg(long, value_name = "TOKENS")]
    pub(crate) context: Option<usize>,
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from)
}

/// The listings and roots to render: read with the format's agent's rules, else the
/// `--agent`'s, else the generic (skills-ref shaped) catalog. Never two agents' rules at once:
/// when the format's agent is not the `--agent`, the format's rules win, and we say so.
fn read(
    selection: &SkillArgs,
    rules: Option<Agent>,
    what: &str,
) -> Result<(Vec<Listing>, Vec<skill_model::catalog::Root>), CliError> {
    let env = SystemEnvironment::default();
    if let (Some(rules), Some(roots)) = (rules, selection.agent)
        && rules != roots
    {
        eprintln!(
            "note: {what} reads skills with {}'s rules ({}); the roots are {}'s",
            facts(rules).name,
            facts(rules).release,
            facts(roots).name
        );
    }
    match rules.or(selection.agent) {
        Some(agent) => Ok(prompt::agent_listings(
            selection.agent_catalog(agent, &env)?,
        )),
        None => {
            let catalog = selection.catalog()?;
            let listings = prompt::listings(&catalog, Reading::PORTABLE, &env);
            Ok((listings, catalog.roots))
        }
    }
}

/// Renders the summary.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let format = args
        .format
        .or(args.json.then_some(Format::Json))
        .unwrap_or(Format::of(args.selection.agent));
    let (mut listings, roots) = if format == Format::NanobotXml {
        // nanobot v0.1 is not today's nanobot: its XML keeps the reading it was built with.
        let catalog = args.selection.catalog()?;
        let listings = prompt::listings(
            &catalog,
            facts(Agent::Nanobot).reading(),
            &SystemEnvironment::default(),
        );
        (listings, catalog.roots)
    } else {
        read(&args.selection, format.agent(), "--format")?
    };
    if args.available_only {
        listings.retain(|l| l.available);
    }
    let home = home();
    let cx = RenderContext {
        roots: &roots,
        budget: args.budget,
        home: home.as_deref(),
    };
    let fitted = prompt::fit(format, &mut listings, cx);
    if fitted.dropped > 0 {
        eprintln!(
            "warning: over the budget of {} characters: included {} of {} skills",
            args.budget.unwrap_or_default(),
            listings.len(),
            listings.len() + fitted.dropped
        );
    }
    let text = fitted.text;
    print!("{text}");
    if !text.ends_with('\n') && !text.is_empty() {
        println!();
    }
    if args.tokens {
        let render = |ls: &[Listing]| prompt::render(format, ls, cx);
        let empty = tokens::count(&render(&[]));
        eprintln!("tokens (o200k): {} in all", tokens::count(&text));
        for l in &listings {
            let cost = tokens::count(&render(std::slice::from_ref(l))).saturating_sub(empty);
            eprintln!("  {:>6}  {}", cost, l.name);
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Prints the skills part of a system prompt.
pub(crate) fn run_prompt(args: PromptArgs) -> Result<ExitCode, CliError> {
    let layout = args
        .format
        .unwrap_or(PromptLayout::of(args.selection.agent));
    let (listings, roots) = read(&args.selection, Some(layout.agent()), "this prompt")?;
    let home = home();
    let budget = prompt::agent_budget(layout.agent(), &SystemEnvironment::default(), args.context);
    let cx = RenderContext {
        roots: &roots,
        budget: budget.map(|(chars, _)| chars),
        home: home.as_deref(),
    };
    println!("{}", prompt::render_prompt(layout, &listings, cx));
    Ok(ExitCode::SUCCESS)
}
