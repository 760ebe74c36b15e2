//! `skill search QUERY` and `skill info SLUG`.

use super::CliError;
use super::output::untrusted;
use super::registry_json::{InfoDocument, SearchDocument};
use skill_registry::client::Client;
use skill_registry::credentials;
use std::process::ExitCode;

/// Arguments of `skill search`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  skill search \"pdf tables\" --limit 10")]
pub(crate) struct SearchArgs {
    /// Words to look for.
    pub(crate) query: String,
    /// Most results.
    #[arg(long, default_value_t = 25)]
    pub(crate) limit: usize,
    /// The registry.
    #[arg(long)]
    pub(crate) registry: Option<String>,
    /// Print the results as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

/// Arguments of `skill info`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  skill info pdf-tools")]
pub(crate) struct InfoArgs {
    /// The skill's slug.
    pub(crate) slug: String,
    /// The registry.
    #[arg(long)]
    pub(crate) registry: Option<String>,
    /// Print the skill as JSON.
    #[arg(long)]
    pub(crate) json: bool,
}

fn client(flag: Option<&str>) -> Client {
    let registry = super::registry_url(flag);
    let token = credentials::token(&registry);
    Client::new(&registry, token)
}

/// One line per hit: slug, version, owner, name, score.
pub(crate) fn search(args: SearchArgs) -> Result<ExitCode, CliError> {
    let results = client(args.registry.as_deref()).search(&args.query, args.limit)?;
    if args.json {
        super::output::print_json(&SearchDocument::from(results.as_slice()), true)?;
        return Ok(ExitCode::SUCCESS);
    }
    for hit in &results {
        let version = hit
            .version
            .as_ref()
            .map(|v| format!(" v{v}"))
            .unwrap_or_default();
        let owner = hit
            .owner_handle
            .as_ref()
            .map(|o| format!("  @{o}"))
            .unwrap_or_default();
        let line = format!(
            "{}{version}{owner}  {}",
            hit.slug,
            hit.display_name.as_deref().unwrap_or("")
        );
        println!("{}  score {:.3}", untrusted(&line, false), hit.score);
    }
    if results.is_empty() {
        eprintln!("No skills match \"{}\".", args.query);
    }
    Ok(ExitCode::SUCCESS)
}

/// The skill's name, owner, latest version, tags and summary.
pub(crate) fn info(args: InfoArgs) -> Result<ExitCode, CliError> {
    let detail = client(args.registry.as_deref())
        .skill(&args.slug)?
        .ok_or_else(|| CliError::UnknownSkills(args.slug.clone()))?;
    if args.json {
        super::output::print_json(&InfoDocument::from(&detail), true)?;
        return Ok(ExitCode::SUCCESS);
    }
    let skill = &detail.skill;
    let name = skill.display_name.as_deref().unwrap_or(&args.slug);
    println!("{}", untrusted(&format!("{name} ({})", skill.slug), false));
    if let Some(owner) = &detail.owner {
        println!("owner:    @{}", untrusted(&owner.handle, false));
    }
    if let Some(latest) = &detail.latest_version {
        println!("latest:   {}", untrusted(&latest.version, false));
    }
    if let Some(stats) = &skill.stats {
        let count = super::output::plural;
        println!(
            "stats:    {}, {}, {}",
            count(stats.downloads, "download", "downloads"),
            count(stats.stars, "star", "stars"),
            count(stats.versions, "version", "versions")
        );
    }
    if !skill.tags.is_empty() {
        let list: Vec<String> = skill.tags.iter().map(|(t, v)| format!("{t}={v}")).collect();
        println!("tags:     {}", untrusted(&list.join(", "), false));
    }
    if let Some(summary) = &skill.summary {
        println!("\n{}", untrusted(summary, true));
    }
    Ok(ExitCode::SUCCESS)
}
