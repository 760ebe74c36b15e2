//! `skill publish [PATH]`.

use super::CliError;
use skill_registry::client::Client;
use skill_registry::credentials;
use skill_registry::publish::Bump;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `skill publish`.
#[derive(Debug, clap::Args)]
#[command(
    disable_version_flag = true,
    after_help = "Examples:\n  skill publish my-skill --version 1.0.0\n  skill publish my-skill --bump minor --changelog \"Adds table export\"\n  skill publish my-skill --dry-run\n  skill publish my-skill --sign alice.key     install --trust alice.pub checks it"
)]
pub(crate) struct Args {
    /// The skill folder.
    #[arg(default_value = ".")]
    pub(crate) path: PathBuf,
    /// The version to publish [default: the latest, bumped; 1.0.0 for a new skill]
    #[arg(long, conflicts_with = "bump")]
    pub(crate) version: Option<String>,
    /// Which part of the latest version to raise.
    #[arg(long, value_parser = super::choice::parser::<Bump>(), default_value = "patch")]
    pub(crate) bump: Bump,
    /// What changed.
    #[arg(long, default_value = "")]
    pub(crate) changelog: String,
    /// A tag to point at this version (repeatable; `latest` is managed by the registry).
    #[arg(long = "tag")]
    pub(crate) tags: Vec<String>,
    /// The slug [default: the folder name].
    #[arg(long)]
    pub(crate) slug: Option<String>,
    /// Show what would be published, and send nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
    /// Publish even when lint finds errors (the security scan still runs and refuses).
    #[arg(long)]
    pub(crate) no_lint: bool,
    /// The registry.
    #[arg(long)]
    pub(crate) registry: Option<String>,
    /// Sign the version's files with this minisign secret key; the registry stores the
    /// signature and serves it with the download (password: SKILL_SIGNING_PASSWORD or a prompt).
    #[arg(long, value_name = "KEY")]
    pub(crate) sign: Option<PathBuf>,
}

/// Lints, skips unchanged content, and publishes through upload tickets.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    use skill_registry::publish::{self, Planned};
    let registry = super::registry_url(args.registry.as_deref());
    let client = Client::new(&registry, credentials::token(&registry));
    let request = publish::Request {
        slug: args.slug.clone(),
        version: args.version.clone(),
        bump: args.bump,
        changelog: args.changelog.clone(),
        tags: args.tags.clone(),
    };
    let skill_md = |dir: &std::path::Path| {
        dir.join(skill_model::layout::SKILL_MD).is_file()
            || dir.join(skill_model::layout::SKILL_MD_LOWER).is_file()
    };
    if skill_md(&args.path)
        && !args.no_lint
        && !super::lint_gate(std::slice::from_ref(&args.path), "not published")?
    {
        return Ok(ExitCode::from(1));
    }
    let planned = match publish::plan(&client, &args.path, &request) {
        Err(e @ publish::PublishError::Risky(_)) => {
            eprintln!("error: {} not published: {e}", args.path.display());
            eprintln!("hint: {}", super::hint::risky_publish());
            return Ok(ExitCode::from(1));
        }
        other => other?,
    };
    super::pack::note_left_out(&skill_model::layout::install_metadata_in(&args.path));
    let plan = match planned {
        Planned::Unchanged { slug, version } => {
            println!("Unchanged: {slug}@{version} is already published with these files");
            return Ok(ExitCode::SUCCESS);
        }
        Planned::Publish(plan) => plan,
    };
    if args.dry_run {
        println!(
            "Would publish {}@{} to {registry}: {}, fingerprint {}",
            plan.slug,
            plan.version,
            super::output::plural(plan.files.len() as u64, "file", "files"),
            plan.fingerprint
        );
        return Ok(ExitCode::SUCCESS);
    }
    sign_and_send(&args, &client, &registry, plan)
}

/// Signs the planned version if asked, uploads it with a progress bar, and says whether the
/// registry published it or holds it for review.
fn sign_and_send(
    args: &Args,
    client: &Client,
    registry: &str,
    mut plan: Box<skill_registry::publish::Plan>,
) -> Result<ExitCode, CliError> {
    use skill_registry::publish;
    if credentials::token(registry).is_none() {
        return Err(CliError::NotLoggedIn(registry.to_owned()));
    }
    if let Some(key) = &args.sign {
        let key_id = publish::sign(&mut plan, key, super::keygen::password())?;
        eprintln!("note: signing the files with key {key_id}");
    }
    let total = plan.files.iter().map(|f| f.bytes.len() as u64).sum();
    let bar = super::progress::bytes("uploading", total, 0);
    let result = publish::send(client, &plan, &mut |n| bar.inc(n));
    bar.finish_and_clear();
    let sent = result?;
    if sent.held {
        println!(
            "Submitted {}@{} to {registry} ({}, version id {}); the registry holds it for review: its scan found security errors. It stays out of search and installs until an admin approves it.",
            plan.slug,
            plan.version,
            super::output::plural(plan.files.len() as u64, "file", "files"),
            sent.version_id
        );
    } else {
        println!(
            "Published {}@{} to {registry} ({}, version id {})",
            plan.slug,
            plan.version,
            super::output::plural(plan.files.len() as u64, "file", "files"),
            sent.version_id
        );
    }
    Ok(ExitCode::SUCCESS)
}
