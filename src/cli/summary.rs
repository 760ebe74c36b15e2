//! `skill summary` and `skill prompt`.

use super::CliError;
use super::selection::SelectionArgs;
use crate::lint::tokens;
use crate::prompt::{self, Format, Gate, Listing};
use crate::skill::agents::facts;
use crate::skill::catalog::Agent;
use crate::skill::environment::SystemEnvironment;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `skill summary`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill summary skills/\n  skill summary --agent nanobot\n  skill summary skills/ --format openclaw --budget 4000 --tokens\n\nThe formats `openclaw` (OpenClaw 2026.9.2) and `nanobot` (nanobot 0.3.5) read skills with their\nagent's own rules; with --agent, every other format reads them with that agent's rules."
)]
pub struct Args {
    /// Which skills.
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Output format [default: the --agent's own, else agentskills]
    #[arg(long, value_parser = super::choice::parser::<Format>())]
    pub format: Option<Format>,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Leave out skills whose requirements do not hold here.
    #[arg(long)]
    pub available_only: bool,
    /// Most characters of output: OpenClaw's `maxSkillsPromptChars` for `openclaw` (default
    /// 18,000 UTF-16 code units, with its shorten-then-drop steps); other formats drop skills
    /// from the end.
    #[arg(long)]
    pub budget: Option<usize>,
    /// Report the o200k token cost of the output and of each skill on stderr.
    #[arg(long)]
    pub tokens: bool,
}

/// Arguments of `skill prompt`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill prompt skills/\n  skill prompt --agent openclaw\n  skill prompt --agent nanobot"
)]
pub struct PromptArgs {
    /// Which skills.
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Whose prompt: nanobot 0.3.5 (`# Active Skills` + `# Skills`) or OpenClaw 2026.9.2
    /// (`## Skills`) [default: the --agent's, else nanobot]
    #[arg(long, value_enum)]
    pub format: Option<PromptFormat>,
}

/// Layouts of `skill prompt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PromptFormat {
    /// nanobot's sections.
    Nanobot,
    /// OpenClaw's section.
    Openclaw,
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from)
}

/// The agent whose reading rules a format carries, if it has one.
fn format_agent(format: Format) -> Option<Agent> {
    match format {
        Format::Openclaw => Some(Agent::Openclaw),
        Format::Nanobot => Some(Agent::Nanobot),
        _ => None,
    }
}

/// The listings and roots to render: read with the format's agent's rules, else the
/// `--agent`'s, else the generic (skills-ref shaped) catalog. Never two agents' rules at once:
/// when the format's agent is not the `--agent`, the format's rules win, and we say so.
fn read(
    selection: &SelectionArgs,
    rules: Option<Agent>,
    what: &str,
) -> Result<(Vec<Listing>, Vec<crate::skill::catalog::Root>), CliError> {
    let env = SystemEnvironment::default();
    if let (Some(rules), Some(roots)) = (rules, selection.agent)
        && rules != roots
    {
        eprintln!(
            "note: {what} reads skills with {}'s rules ({}); the roots are {}'s",
            rules_name(rules),
            facts(rules).release,
            rules_name(roots)
        );
    }
    match rules.or(selection.agent) {
        Some(agent) => {
            let catalog = selection.agent_catalog(agent, &env)?;
            Ok((prompt::agent_listings(&catalog), catalog.roots))
        }
        None => {
            let catalog = selection.catalog()?;
            let listings = prompt::listings(&catalog, Gate::Openclaw, &env);
            Ok((listings, catalog.roots))
        }
    }
}

fn rules_name(agent: Agent) -> &'static str {
    match agent {
        Agent::Openclaw => "OpenClaw",
        Agent::Nanobot => "nanobot",
        Agent::Claude => "Claude Code",
        Agent::Codex => "Codex",
    }
}

/// Renders the summary.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let format =
        args.format
            .or(args.json.then_some(Format::Json))
            .unwrap_or(match args.selection.agent {
                Some(Agent::Nanobot) => Format::Nanobot,
                Some(Agent::Openclaw) => Format::Openclaw,
                _ => Format::Agentskills,
            });
    let (mut listings, roots) = if format == Format::NanobotXml {
        // nanobot v0.1 is not today's nanobot: its XML keeps the reading it was built with.
        let catalog = args.selection.catalog()?;
        let listings = prompt::listings(&catalog, Gate::Nanobot, &SystemEnvironment::default());
        (listings, catalog.roots)
    } else {
        read(&args.selection, format_agent(format), "--format")?
    };
    if args.available_only {
        listings.retain(|l| l.available);
    }
    let render = |ls: &[Listing]| render(format, ls, &roots, args.budget);
    let mut text = render(&listings);
    if let (Some(budget), false) = (args.budget, format == Format::Openclaw) {
        let before = listings.len();
        while text.chars().count() > budget && !listings.is_empty() {
            listings.pop();
            text = render(&listings);
        }
        if listings.len() < before {
            eprintln!(
                "warning: over the budget of {budget} characters: included {} of {before} skills",
                listings.len()
            );
        }
    }
    print!("{text}");
    if !text.ends_with('\n') && !text.is_empty() {
        println!();
    }
    if args.tokens {
        let empty = tokens::count(&render(&[]));
        eprintln!("tokens (o200k): {} in all", tokens::count(&text));
        for l in &listings {
            let cost = tokens::count(&render(std::slice::from_ref(l))).saturating_sub(empty);
            eprintln!("  {:>6}  {}", cost, l.name);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn render(
    format: Format,
    listings: &[Listing],
    roots: &[crate::skill::catalog::Root],
    budget: Option<usize>,
) -> String {
    match format {
        Format::Agentskills => prompt::render_agentskills(listings),
        Format::Nanobot => prompt::render_nanobot_grouped(listings, roots),
        Format::NanobotXml => prompt::render_nanobot(listings),
        Format::Openclaw => prompt::render_openclaw(
            listings,
            budget.unwrap_or(prompt::openclaw::DEFAULT_BUDGET),
            home().as_deref(),
        ),
        Format::Markdown => prompt::render_markdown(listings),
        Format::Json => prompt::render_json(listings),
    }
}

/// Prints the skills part of a system prompt.
pub fn run_prompt(args: PromptArgs) -> Result<ExitCode, CliError> {
    let layout = args.format.unwrap_or(match args.selection.agent {
        Some(Agent::Openclaw) => PromptFormat::Openclaw,
        _ => PromptFormat::Nanobot,
    });
    let text = match layout {
        PromptFormat::Nanobot => {
            let (listings, roots) = read(&args.selection, Some(Agent::Nanobot), "this prompt")?;
            prompt::nanobot_prompt(&listings, &roots)
        }
        PromptFormat::Openclaw => {
            let (listings, _) = read(&args.selection, Some(Agent::Openclaw), "this prompt")?;
            prompt::openclaw_section(
                &listings,
                prompt::openclaw::DEFAULT_BUDGET,
                home().as_deref(),
            )
        }
    };
    println!("{text}");
    Ok(ExitCode::SUCCESS)
}
