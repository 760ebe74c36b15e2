//! `skill explore`, `skill star` / `unstar`, `skill tag`, `skill delete` / `undelete`: the
//! registry verbs a skill author uses besides publishing (ClawHub's routes, as `clawhub` has them).

use super::CliError;
use skill_registry::client::Client;
use skill_registry::credentials;
use std::process::ExitCode;

/// Arguments of `skill explore`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill explore --sort downloads --limit 10\n  skill explore --prefix pdf-"
)]
pub(crate) struct ExploreArgs {
    /// Order: updated (default), newest, downloads, stars (rating), name, trending.
    #[arg(long)]
    pub(crate) sort: Option<String>,
    /// Only skills whose slug starts with this.
    #[arg(long)]
    pub(crate) prefix: Option<String>,
    /// Most skills (1-200).
    #[arg(long, default_value_t = 25)]
    pub(crate) limit: usize,
    /// Continue from the cursor a previous page printed.
    #[arg(long)]
    pub(crate) cursor: Option<String>,
    /// The registry.
    #[arg(long)]
    pub(crate) registry: Option<String>,
    /// Print the page as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Arguments of `skill star` and `skill unstar`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  skill star pdf-tools")]
pub(crate) struct StarArgs {
    /// The skill's slug.
    pub(crate) slug: String,
    /// The registry.
    #[arg(long)]
    pub(crate) registry: Option<String>,
}

/// Arguments of `skill tag`.
#[derive(Debug, clap::Args)]
#[command(
    disable_version_flag = true,
    after_help = "Examples:\n  skill tag pdf-tools 1.2.0 --tag stable\n  skill tag pdf-tools 1.1.0   (moves latest back)"
)]
pub(crate) struct TagArgs {
    /// The skill's slug.
    pub(crate) slug: String,
    /// An existing version.
    pub(crate) version: String,
    /// The tag to point at it.
    #[arg(long, default_value = "latest")]
    pub(crate) tag: String,
    /// The registry.
    #[arg(long)]
    pub(crate) registry: Option<String>,
}

/// Arguments of `skill undelete` (and what `skill delete` takes besides `--yes`).
#[derive(Debug, clap::Args)]
#[command(
    disable_version_flag = true,
    after_help = "Examples:\n  skill undelete pdf-tools --version 1.0.0\n  skill undelete pdf-tools"
)]
pub(crate) struct UndeleteArgs {
    /// The skill's slug.
    pub(crate) slug: String,
    /// Only this version (delete: withdraw it, its number stays taken; undelete: restore it).
    #[arg(long)]
    pub(crate) version: Option<String>,
    /// The registry.
    #[arg(long)]
    pub(crate) registry: Option<String>,
}

/// Arguments of `skill delete`.
#[derive(Debug, clap::Args)]
#[command(
    disable_version_flag = true,
    after_help = "Examples:\n  skill delete pdf-tools --version 1.0.0   (withdraw one version, never the latest)\n  skill delete pdf-tools                   (the whole skill; asks, or --yes)"
)]
pub(crate) struct DeleteArgs {
    /// What to delete.
    #[command(flatten)]
    pub(crate) target: UndeleteArgs,
    /// Delete the whole skill without asking (required when not on a terminal).
    #[arg(long, short = 'y')]
    pub(crate) yes: bool,
}

fn reader(flag: Option<&str>) -> Client {
    let registry = super::registry_url(flag);
    let token = credentials::token(&registry);
    Client::new(&registry, token)
}

fn writer(flag: Option<&str>) -> Result<Client, CliError> {
    let registry = super::registry_url(flag);
    let token = credentials::token(&registry).ok_or(CliError::NotLoggedIn(registry.clone()))?;
    Ok(Client::new(&registry, Some(token)))
}

/// One line per skill: slug, latest version, downloads, stars, summary; then the next cursor.
pub(crate) fn explore(args: ExploreArgs) -> Result<ExitCode, CliError> {
    if !(1..=200).contains(&args.limit) {
        return Err(CliError::Usage("--limit must be 1 to 200".into()));
    }
    let page = reader(args.registry.as_deref()).explore(
        args.sort.as_deref(),
        args.prefix.as_deref(),
        args.limit,
        args.cursor.as_deref(),
    )?;
    if args.json {
        super::output::print_json(&super::registry_json::ExploreDocument::from(&page), true)?;
        return Ok(ExitCode::SUCCESS);
    }
    for item in &page.items {
        let version = item
            .latest_version
            .as_ref()
            .map_or("?", |v| v.version.as_str());
        let skill = &item.skill;
        let stats = skill.stats.clone().unwrap_or_default();
        let summary = skill
            .summary
            .as_deref()
            .map(|s| format!("  {s}"))
            .unwrap_or_default();
        let line = format!(
            "{}  v{version}  {}  {}{summary}",
            skill.slug,
            super::output::plural(stats.downloads, "download", "downloads"),
            super::output::plural(stats.stars, "star", "stars")
        );
        println!("{}", super::output::untrusted(&line, false));
    }
    if page.items.is_empty() {
        eprintln!("No skills found.");
    }
    if let Some(cursor) = &page.next_cursor {
        eprintln!(
            "Next page: --cursor {}",
            super::output::untrusted(cursor, false)
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Stars a skill.
pub(crate) fn star(args: StarArgs) -> Result<ExitCode, CliError> {
    let reply = writer(args.registry.as_deref())?.star(&args.slug)?;
    if reply.already_starred {
        println!("{} was starred already", args.slug);
    } else {
        println!("starred {}", args.slug);
    }
    Ok(ExitCode::SUCCESS)
}

/// Takes the star off a skill.
pub(crate) fn unstar(args: StarArgs) -> Result<ExitCode, CliError> {
    let reply = writer(args.registry.as_deref())?.unstar(&args.slug)?;
    if reply.already_unstarred {
        println!("{} was not starred", args.slug);
    } else {
        println!("unstarred {}", args.slug);
    }
    Ok(ExitCode::SUCCESS)
}

/// Points a tag at a version.
pub(crate) fn tag(args: TagArgs) -> Result<ExitCode, CliError> {
    let reply =
        writer(args.registry.as_deref())?.set_tag(&args.slug, args.tag.trim(), &args.version)?;
    println!("{} {} -> {}", reply.slug, reply.tag, reply.version);
    Ok(ExitCode::SUCCESS)
}

/// Deletes a skill, or withdraws one version.
pub(crate) fn delete(delete: DeleteArgs) -> Result<ExitCode, CliError> {
    let args = &delete.target;
    if args.version.is_none() && !delete.yes {
        confirm_delete(args)?;
    }
    writer(args.registry.as_deref())?.delete(&args.slug, args.version.as_deref())?;
    match &args.version {
        Some(v) => println!("withdrew {}@{v} (its number stays taken)", args.slug),
        None => println!("deleted {}", args.slug),
    }
    Ok(ExitCode::SUCCESS)
}

/// Asks on a terminal before a whole skill is deleted; elsewhere, `--yes` must say so.
fn confirm_delete(args: &UndeleteArgs) -> Result<(), CliError> {
    use std::io::{BufRead, IsTerminal, Write};
    let registry = super::registry_url(args.registry.as_deref());
    let what = format!(
        "the whole skill {} (every version) from {registry}",
        args.slug
    );
    if !std::io::stdin().is_terminal() {
        return Err(CliError::Usage(format!(
            "this deletes {what}; pass --yes to confirm (not asked: not on a terminal)"
        )));
    }
    eprint!("Delete {what}? [y/N] ");
    std::io::stderr().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    if matches!(answer.trim(), "y" | "Y" | "yes" | "Yes") {
        Ok(())
    } else {
        Err(CliError::Usage("not deleted".to_owned()))
    }
}

/// Restores a deleted skill, or one withdrawn version.
pub(crate) fn undelete(args: UndeleteArgs) -> Result<ExitCode, CliError> {
    writer(args.registry.as_deref())?.undelete(&args.slug, args.version.as_deref())?;
    match &args.version {
        Some(v) => println!("restored {}@{v}", args.slug),
        None => println!("restored {}", args.slug),
    }
    Ok(ExitCode::SUCCESS)
}
