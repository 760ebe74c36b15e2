//! `skill install SOURCE` and `skill uninstall NAME`.

use super::CliError;
use crate::archive::install::{Source, install, uninstall};
use crate::lint::{Options, Target, lint_paths};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `skill install`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill install my-skill.skill\n  skill install ../other-repo/skills/pdf-tools --dir ~/.claude/skills\n  skill install my-skill.skill --force"
)]
pub struct Args {
    /// A `.skill` or `.zip` archive, or a skill folder.
    pub source: String,
    /// The skills folder to install into.
    #[arg(long, default_value = "skills")]
    pub dir: PathBuf,
    /// Replace an existing install (atomically).
    #[arg(long)]
    pub force: bool,
    /// The registry, for `SLUG[@VERSION]` sources.
    #[arg(long)]
    pub registry: Option<String>,
}

/// Arguments of `skill uninstall`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill uninstall pdf-tools\n  skill uninstall pdf-tools --dir ~/.claude/skills"
)]
pub struct UninstallArgs {
    /// The installed skill's name (its folder name).
    pub name: String,
    /// The skills folder it is in.
    #[arg(long, default_value = "skills")]
    pub dir: PathBuf,
}

/// Installs, then lints the installed skill and shows its findings.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let installed = match Source::from_arg(&args.source) {
        Ok(source) => install(&source, &args.dir, args.force)?,
        Err(not_found) if looks_like_slug(&args.source) => from_registry(&args, not_found)?,
        Err(e) => return Err(e.into()),
    };
    let verb = if installed.replaced {
        "Replaced"
    } else {
        "Installed"
    };
    println!(
        "{verb} {} in {} ({} files)",
        installed.name,
        installed.dir.display(),
        installed.files
    );
    let run = lint_paths(
        std::slice::from_ref(&installed.dir),
        &Options::new(Target::Portable),
    )?;
    let findings = crate::lint::report::render_concise(&run);
    if !findings.is_empty() {
        eprint!("{findings}");
    }
    Ok(ExitCode::SUCCESS)
}

/// Removes an installed skill.
pub fn run_uninstall(args: UninstallArgs) -> Result<ExitCode, CliError> {
    let removed = uninstall(&args.dir, &args.name)?;
    println!("Removed {}", removed.display());
    Ok(ExitCode::SUCCESS)
}

/// `pdf-tools` or `pdf-tools@1.2.0`: a registry reference rather than a path.
fn looks_like_slug(arg: &str) -> bool {
    let slug = arg.split('@').next().unwrap_or("");
    !slug.is_empty() && slug.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Downloads `SLUG[@VERSION]`, checks every file against the registry's hashes, installs it
/// with the same checks as any archive, and records it in `origin.json` and `lock.json`.
fn from_registry(
    args: &Args,
    not_found: crate::archive::install::InstallError,
) -> Result<crate::archive::install::Installed, CliError> {
    use crate::archive::install::{LockEntry, Origin, update_lock, write_origin};
    use crate::registry::{client::Client, credentials};
    let (slug, wanted) = args
        .source
        .split_once('@')
        .map_or((args.source.as_str(), None), |(s, v)| (s, Some(v)));
    let registry = credentials::registry(args.registry.as_deref());
    let client = Client::new(&registry, credentials::token(&registry));
    let detail = client.skill(slug)?.ok_or(not_found)?;
    let version = wanted
        .map(str::to_owned)
        .or_else(|| {
            detail["latestVersion"]["version"]
                .as_str()
                .map(str::to_owned)
        })
        .ok_or_else(|| CliError::Registry(format!("{slug} has no published version")))?;
    let files: Vec<(String, String)> = client.version(slug, &version)?["version"]["files"]
        .as_array()
        .map(|fs| {
            fs.iter()
                .filter_map(|f| {
                    Some((
                        f["path"].as_str()?.to_owned(),
                        f["sha256"].as_str()?.to_owned(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let bytes = client.download(slug, &version)?;
    let archive =
        crate::archive::reader::read_bytes(&bytes, &crate::archive::reader::Limits::default())
            .map_err(|source| crate::archive::install::InstallError::Archive {
                path: PathBuf::from(slug),
                source,
            })?;
    crate::archive::reader::check_hashes(&archive, &files).map_err(CliError::Registry)?;
    let installed = install(
        &Source::Bytes {
            name: slug.to_owned(),
            bytes,
        },
        &args.dir,
        args.force,
    )?;
    let owner = detail["owner"]["handle"].as_str().map(str::to_owned);
    let now = crate::registry::store::now_ms() as u64;
    let origin = Origin {
        version: 1,
        registry: registry.clone(),
        slug: slug.to_owned(),
        owner_handle: owner.clone(),
        installed_version: version.clone(),
        installed_at: now,
        fingerprint: installed.fingerprint.clone(),
    };
    write_origin(&installed.dir, &origin)?;
    let workdir = args
        .dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    update_lock(
        workdir,
        slug,
        Some(&LockEntry {
            version: Some(version),
            installed_at: now,
            owner_handle: owner,
        }),
    )?;
    Ok(installed)
}
