//! `skill list` and `skill check`.

use super::CliError;
use super::skill_args::SkillArgs;
use skill_model::agents::{Reading, facts};
use skill_model::availability::Availability;
use skill_model::environment::SystemEnvironment;
use skill_model::requirements::Requirements;
use skill_prompt::{self as prompt, Listing};
use std::process::ExitCode;

/// Arguments of `skill list`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  skill list\n  skill list --agent openclaw --json")]
pub(crate) struct Args {
    /// Which skills.
    #[command(flatten)]
    pub(crate) selection: SkillArgs,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub(crate) json: bool,
    /// Fit the table to this many columns (default: the terminal's; whole descriptions when
    /// printing to a pipe).
    #[arg(long, value_name = "N")]
    pub(crate) width: Option<usize>,
}

/// Arguments of `skill check`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill check\n  skill check --agent openclaw --skill github\n  skill check skills/ --json"
)]
pub(crate) struct CheckArgs {
    /// Which skills.
    #[command(flatten)]
    pub(crate) selection: SkillArgs,
    /// Print JSON: each unavailable skill, what it misses, and the hints.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Prints the table (or JSON) of the skills an agent would see.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let catalog = args.selection.catalog()?;
    let listings = prompt::listings(&catalog, Reading::PORTABLE, &SystemEnvironment::default());
    if args.json {
        let shadowed: Vec<serde_json::Value> = catalog
            .shadowed
            .iter()
            .map(|s| serde_json::json!({"name": s.name, "path": s.dir, "shadowed_by": catalog.roots[s.by_root].label}))
            .collect();
        let out = serde_json::json!({"skills": listings, "shadowed": shadowed});
        super::output::print_json(&out, true)?;
        return Ok(ExitCode::SUCCESS);
    }
    print!("{}", table(&listings, width(args.width)));
    for s in &catalog.shadowed {
        println!(
            "shadowed: {} at {} (hidden by the one in {})",
            s.name,
            s.dir.display(),
            catalog.roots[s.by_root].label
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// The table's width: `--width`, else the terminal's, else `COLUMNS`; a pipe without either
/// gets whole descriptions, since a program reading them has no screen to fit.
fn width(flag: Option<usize>) -> usize {
    use std::io::IsTerminal;
    let on_terminal = std::io::stdout().is_terminal();
    flag.or_else(|| {
        on_terminal
            .then(terminal_size::terminal_size)
            .flatten()
            .map(|(w, _)| usize::from(w.0))
    })
    .or_else(|| std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()))
    .unwrap_or(if on_terminal { 100 } else { usize::MAX })
}

/// The table: name, root, status, missing, always, and the description cut to fit `width`.
pub(crate) fn table(listings: &[Listing], width: usize) -> String {
    let rows: Vec<[String; 5]> = listings
        .iter()
        .map(|l| {
            let status = if l.available {
                "✓ ready"
            } else {
                "✗ missing"
            };
            let always = if l.always { "always" } else { "" };
            [
                l.name.clone(),
                l.root.clone(),
                status.to_owned(),
                l.missing.clone(),
                always.to_owned(),
            ]
        })
        .collect();
    let header = ["NAME", "ROOT", "STATUS", "MISSING", "ALWAYS"].map(str::to_owned);
    let mut widths = header.clone().map(|h| h.chars().count());
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let used: usize = widths.iter().map(|w| w + 2).sum();
    let room = width.saturating_sub(used).max(10);
    let line = |cells: &[String; 5], description: &str| {
        let mut out = String::new();
        for (cell, w) in cells.iter().zip(widths) {
            out.push_str(&format!("{cell:<w$}  "));
        }
        out.push_str(&cut(description, room));
        out.trim_end().to_owned() + "\n"
    };
    let mut out = line(&header, "DESCRIPTION");
    for (row, l) in rows.iter().zip(listings) {
        out.push_str(&line(
            row,
            &l.description
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        ));
    }
    out
}

fn cut(text: &str, room: usize) -> String {
    if text.chars().count() <= room {
        text.to_owned()
    } else {
        text.chars()
            .take(room.saturating_sub(1))
            .collect::<String>()
            + "…"
    }
}

/// Prints which skills are ready here and, for the others, what is missing and how to get it:
/// with `--agent`, by that agent's reading (its requirements block, the requirements it
/// checks), else by every agent's.
pub(crate) fn run_check(args: CheckArgs) -> Result<ExitCode, CliError> {
    let env = SystemEnvironment::default();
    let Checked { rows, not_loaded } = checked_skills(&args.selection, &env)?;
    let ready = rows.iter().filter(|(l, _)| l.available).count();
    let unavailable = rows.iter().filter(|(l, _)| !l.available);
    if rows.is_empty() && !args.json {
        let roots = args.selection.roots()?;
        let labels: Vec<String> = roots.iter().map(|r| r.path.display().to_string()).collect();
        println!("No skills found in {}; nothing to check", labels.join(", "));
        return Ok(ExitCode::SUCCESS);
    }
    if args.json {
        let unavailable: Vec<serde_json::Value> = unavailable
            .map(|(l, hints)| {
                serde_json::json!({"name": l.name, "root": l.root, "missing": l.missing,
                    "hints": hints})
            })
            .collect();
        let out = serde_json::json!({"ready": ready, "total": rows.len(),
            "unavailable": unavailable});
        super::output::print_json(&out, true)?;
        return Ok(ExitCode::from(u8::from(ready < rows.len())));
    }
    println!("{ready} of {} skills ready", rows.len());
    if let (Some(agent), true) = (args.selection.agent, not_loaded > 0) {
        let folders = if not_loaded == 1 {
            "1 folder is".to_owned()
        } else {
            format!("{not_loaded} folders are")
        };
        eprintln!(
            "note: {folders} not loaded by {} at all; `skill doctor --agent {}` says why",
            facts(agent).name,
            agent.name()
        );
    }
    for (l, hints) in unavailable {
        println!("\n✗ {} ({}): missing {}", l.name, l.root, l.missing);
        for hint in hints {
            println!("    {hint}");
        }
    }
    Ok(ExitCode::from(u8::from(ready < rows.len())))
}

/// The skills `skill list --check` judges.
struct Checked {
    /// Each skill's listing and the hints for what it misses.
    rows: Vec<(Listing, Vec<String>)>,
    /// Folders the agent does not load at all (none without `--agent`).
    not_loaded: usize,
}

/// Reads the selected skills by `--agent`'s reading, else by the portable one.
fn checked_skills(selection: &SkillArgs, env: &SystemEnvironment) -> Result<Checked, CliError> {
    Ok(match selection.agent {
        Some(agent) => {
            let catalog = selection.agent_catalog(agent, env)?;
            let hints: Vec<Vec<String>> = catalog
                .skills
                .iter()
                .map(|s| s.availability.hints(&s.requirements))
                .collect();
            let not_loaded = catalog.dropped.len();
            let (listings, _) = prompt::agent_listings(catalog);
            let rows: Vec<(Listing, Vec<String>)> = listings.into_iter().zip(hints).collect();
            Checked { rows, not_loaded }
        }
        None => {
            let catalog = selection.catalog()?;
            let listings = prompt::listings(&catalog, Reading::PORTABLE, env);
            let hints = catalog.skills.iter().map(|e| portable_hints(e, env));
            Checked {
                rows: listings.into_iter().zip(hints).collect(),
                not_loaded: 0,
            }
        }
    })
}

/// What to do about an unavailable skill, by the portable reading (see `Availability::hints`).
fn portable_hints(
    entry: &skill_model::catalog::CatalogSkill,
    env: &SystemEnvironment,
) -> Vec<String> {
    let skill = &entry.skill;
    let (Some(manifest), Ok(doc)) = (skill.manifest(), &skill.document) else {
        return Vec::new();
    };
    let requirements = Requirements::from_manifest(manifest, &doc.source.text);
    Availability::check(&requirements, env).hints(&requirements)
}
