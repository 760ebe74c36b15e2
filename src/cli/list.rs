//! `skill list` and `skill check`.

use super::CliError;
use super::selection::SelectionArgs;
use crate::prompt::{self, Gate, Listing};
use crate::skill::availability::Availability;
use crate::skill::environment::SystemEnvironment;
use crate::skill::requirements::Requirements;
use std::process::ExitCode;

/// Arguments of `skill list`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  skill list\n  skill list --agent openclaw --json")]
pub struct Args {
    /// Which skills.
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `skill check`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill check\n  skill check --agent openclaw --skill github\n  skill check skills/ --json"
)]
pub struct CheckArgs {
    /// Which skills.
    #[command(flatten)]
    pub selection: SelectionArgs,
    /// Print JSON: each unavailable skill, what it misses, and the hints.
    #[arg(long)]
    pub json: bool,
}

/// Prints the table (or JSON) of the skills an agent would see.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let catalog = args.selection.catalog()?;
    let listings = prompt::listings(&catalog, Gate::Openclaw, &SystemEnvironment::default());
    if args.json {
        let shadowed: Vec<serde_json::Value> = catalog
            .shadowed
            .iter()
            .map(|s| serde_json::json!({"name": s.name, "dir": s.dir, "by_root": catalog.roots[s.by_root].label}))
            .collect();
        let out = serde_json::json!({"skills": listings, "shadowed": shadowed});
        super::output::print_json(&out, true)?;
        return Ok(ExitCode::SUCCESS);
    }
    print!("{}", table(&listings, width()));
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

fn width() -> usize {
    terminal_size::terminal_size()
        .map(|(w, _)| usize::from(w.0))
        .or_else(|| std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()))
        .unwrap_or(100)
}

/// The table: name, root, status, missing, always, and the description cut to fit `width`.
pub fn table(listings: &[Listing], width: usize) -> String {
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

/// Prints what is missing for unavailable skills and how to get it; exit 1 when any is.
pub fn run_check(args: CheckArgs) -> Result<ExitCode, CliError> {
    let catalog = args.selection.catalog()?;
    let listings = prompt::listings(&catalog, Gate::Openclaw, &SystemEnvironment::default());
    let ready = listings.iter().filter(|l| l.available).count();
    if args.json {
        let unavailable: Vec<serde_json::Value> = listings
            .iter()
            .zip(&catalog.skills)
            .filter(|(l, _)| !l.available)
            .map(|(l, entry)| {
                serde_json::json!({"name": l.name, "root": l.root, "missing": l.missing,
                    "hints": hints(entry)})
            })
            .collect();
        let out = serde_json::json!({"ready": ready, "total": listings.len(),
            "unavailable": unavailable});
        super::output::print_json(&out, true)?;
        return Ok(ExitCode::from(u8::from(ready < listings.len())));
    }
    println!("{ready} of {} skills ready", listings.len());
    let mut failed = false;
    for (l, entry) in listings.iter().zip(&catalog.skills) {
        if l.available {
            continue;
        }
        failed = true;
        println!("\n✗ {} ({}): missing {}", l.name, l.root, l.missing);
        for hint in hints(entry) {
            println!("    {hint}");
        }
    }
    Ok(ExitCode::from(u8::from(failed)))
}

/// What to do about an unavailable skill (see `Availability::hints`).
fn hints(entry: &crate::skill::catalog::Entry) -> Vec<String> {
    let skill = &entry.skill;
    let (Some(manifest), Ok(doc)) = (skill.manifest(), &skill.document) else {
        return Vec::new();
    };
    let requirements = Requirements::from_manifest(manifest, &doc.source.text);
    Availability::check(&requirements, &SystemEnvironment::default()).hints(&requirements)
}
