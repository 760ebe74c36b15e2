//! `skill summary` and `skill prompt`.

use super::CliError;
use super::selection::SelectionArgs;
use crate::lint::tokens;
use crate::prompt::{self, Format, Gate, Listing};
use crate::skill::catalog::Agent;
use crate::skill::environment::SystemEnvironment;
use std::path::PathBuf;
use std::process::ExitCode;

/// OpenClaw's default `maxSkillsPromptChars`, used when `--budget` is not given.
const OPENCLAW_BUDGET: usize = 30_000;

/// Arguments of `skill summary`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill summary skills/\n  skill summary --agent nanobot --format nanobot\n  skill summary skills/ --format openclaw --budget 4000 --tokens"
)]
pub struct Args {
    /// Which skills.
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Output format [default: the --agent's own, else agentskills]
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Leave out skills whose requirements do not hold here.
    #[arg(long)]
    pub available_only: bool,
    /// Most characters of output (OpenClaw's truncation rules for `openclaw`; other formats drop
    /// skills from the end).
    #[arg(long)]
    pub budget: Option<usize>,
    /// Report the o200k token cost of the output and of each skill on stderr.
    #[arg(long)]
    pub tokens: bool,
}

/// Arguments of `skill prompt`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill prompt skills/\n  skill prompt --agent openclaw --format openclaw"
)]
pub struct PromptArgs {
    /// Which skills.
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Whose prompt layout: nanobot (`# Active Skills` + `# Skills`) or openclaw.
    #[arg(long, value_enum, default_value = "nanobot")]
    pub format: PromptFormat,
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
    let gate = if format == Format::Nanobot {
        Gate::Nanobot
    } else {
        Gate::Openclaw
    };
    let catalog = args.selection.catalog()?;
    let mut listings = prompt::listings(&catalog, gate, &SystemEnvironment::default());
    if args.available_only {
        listings.retain(|l| l.available);
    }
    let render = |ls: &[Listing]| render(format, ls, args.budget);
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

fn render(format: Format, listings: &[Listing], budget: Option<usize>) -> String {
    match format {
        Format::Agentskills => prompt::render_agentskills(listings),
        Format::Nanobot => prompt::render_nanobot(listings),
        Format::Openclaw => prompt::render_openclaw(
            listings,
            budget.unwrap_or(OPENCLAW_BUDGET),
            home().as_deref(),
        ),
        Format::Markdown => prompt::render_markdown(listings),
        Format::Json => prompt::render_json(listings),
    }
}

/// Prints the skills part of a system prompt.
pub fn run_prompt(args: PromptArgs) -> Result<ExitCode, CliError> {
    let catalog = args.selection.catalog()?;
    let text = match args.format {
        PromptFormat::Nanobot => {
            let listings = prompt::listings(&catalog, Gate::Nanobot, &SystemEnvironment::default());
            prompt::skills_prompt(&listings, &prompt::nanobot_section(&listings))
        }
        PromptFormat::Openclaw => {
            let listings =
                prompt::listings(&catalog, Gate::Openclaw, &SystemEnvironment::default());
            prompt::skills_prompt(
                &listings,
                &prompt::openclaw_section(&listings, OPENCLAW_BUDGET, home().as_deref()),
            )
        }
    };
    println!("{text}");
    Ok(ExitCode::SUCCESS)
}
