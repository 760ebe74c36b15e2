//! `skill publish [PATH]`.

use super::CliError;
use crate::registry::client::{Client, Resolved, UploadFile};
use crate::registry::credentials;
use crate::skill::fingerprint::{fingerprint, sha256_hex};
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

/// Which part of the version `--bump` raises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Bump {
    /// 1.2.3 → 1.2.4.
    Patch,
    /// 1.2.3 → 1.3.0.
    Minor,
    /// 1.2.3 → 2.0.0.
    Major,
}

/// Arguments of `skill publish`.
#[derive(Debug, clap::Args)]
#[command(
    disable_version_flag = true,
    after_help = "Examples:\n  skill publish my-skill --version 1.0.0\n  skill publish my-skill --bump minor --changelog \"Adds table export\"\n  skill publish my-skill --dry-run"
)]
pub struct Args {
    /// The skill folder.
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// The version to publish [default: the latest, bumped; 1.0.0 for a new skill]
    #[arg(long, conflicts_with = "bump")]
    pub version: Option<String>,
    /// Which part of the latest version to raise.
    #[arg(long, value_enum, default_value = "patch")]
    pub bump: Bump,
    /// What changed.
    #[arg(long, default_value = "")]
    pub changelog: String,
    /// A tag to point at this version (repeatable; `latest` is managed by the registry).
    #[arg(long = "tag")]
    pub tags: Vec<String>,
    /// The slug [default: the folder name].
    #[arg(long)]
    pub slug: Option<String>,
    /// Show what would be published, and send nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Publish even when lint finds errors.
    #[arg(long)]
    pub no_lint: bool,
    /// The registry.
    #[arg(long)]
    pub registry: Option<String>,
}

/// Lints, skips unchanged content, and publishes through upload tickets.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    if !args.path.join("SKILL.md").is_file() && !args.path.join("skill.md").is_file() {
        return Err(CliError::Usage(format!(
            "{}: not a skill folder (no SKILL.md in it); name the skill's folder: skill publish path/to/skill",
            args.path.display()
        )));
    }
    if !args.no_lint && !super::lint_gate(std::slice::from_ref(&args.path), "not published")? {
        return Ok(ExitCode::from(1));
    }
    let folder = crate::archive::pack::archive_name(&args.path);
    let slug = crate::registry::rules::normalise_slug(args.slug.as_deref().unwrap_or(&folder));
    let mut files = Vec::new();
    for file in crate::archive::pack::plan(&args.path, &Default::default())? {
        let bytes = std::fs::read(&file.source).map_err(|e| {
            CliError::Output(std::io::Error::new(
                e.kind(),
                format!("{}: {e}", file.source.display()),
            ))
        })?;
        files.push(UploadFile {
            path: file.path,
            bytes,
        });
    }
    let fp = fingerprint(
        &files
            .iter()
            .map(|f| (f.path.clone(), sha256_hex(&f.bytes)))
            .collect::<Vec<_>>(),
    );
    let registry = super::registry_url(args.registry.as_deref());
    let client = Client::new(&registry, credentials::token(&registry));
    let version = match client.resolve(&slug, &fp)? {
        Some(Resolved {
            matched: Some(matched),
            ..
        }) if args.version.is_none() => {
            println!("Unchanged: {slug}@{matched} is already published with these files");
            return Ok(ExitCode::SUCCESS);
        }
        Some(Resolved {
            latest: Some(latest),
            ..
        }) => args
            .version
            .clone()
            .map_or_else(|| bump(&latest, args.bump), Ok)?,
        _ => args.version.clone().unwrap_or_else(|| "1.0.0".to_owned()),
    };
    if args.dry_run {
        println!(
            "Would publish {slug}@{version} to {registry}: {} files, fingerprint {fp}",
            files.len()
        );
        return Ok(ExitCode::SUCCESS);
    }
    if credentials::token(&registry).is_none() {
        return Err(CliError::NotLoggedIn(registry));
    }
    let skill = crate::skill::Skill::load(&crate::skill::SkillLocation {
        dir: args.path.clone(),
        file: Some(args.path.join("SKILL.md")),
        files: None,
    });
    let summary = skill
        .manifest()
        .and_then(|m| m.value("description"))
        .and_then(|v| v.as_str())
        .map(str::trim)
        .map(str::to_owned);
    let payload = json!({"slug": slug, "displayName": crate::scaffold::title_case(&folder), "summary": summary, "version": version,
                         "changelog": args.changelog, "tags": args.tags});
    let total = files.iter().map(|f| f.bytes.len() as u64).sum();
    let bar = super::progress::bytes("uploading", total, 0);
    let result = client.publish(payload, &files, &mut |n| bar.inc(n));
    bar.finish_and_clear();
    let result = result?;
    println!(
        "Published {slug}@{version} to {registry} ({} files, version id {})",
        files.len(),
        result["versionId"].as_str().unwrap_or("?")
    );
    Ok(ExitCode::SUCCESS)
}

fn bump(latest: &str, part: Bump) -> Result<String, CliError> {
    let mut v = semver::Version::parse(latest).map_err(|_| {
        CliError::Registry(format!(
            "the registry's latest version {latest:?} is not semver; pass --version"
        ))
    })?;
    match part {
        Bump::Patch if !v.pre.is_empty() => {}
        Bump::Patch => v.patch += 1,
        Bump::Minor => {
            v.minor += 1;
            v.patch = 0;
        }
        Bump::Major => {
            v.major += 1;
            v.minor = 0;
            v.patch = 0;
        }
    }
    v.pre = semver::Prerelease::EMPTY;
    Ok(v.to_string())
}
