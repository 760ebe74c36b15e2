//! `skill install SOURCE` and `skill uninstall NAME`.

use super::CliError;
use crate::archive::install::{Input, Installed, Risk, install_with};
use crate::archive::signature::TrustPolicy;
use crate::lint::{Options, Selection, lint_paths};
use crate::registry::client::Client;
use crate::registry::{credentials, install as registry_install};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `skill install`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill install pdf-tools                 from the registry (pdf-tools@1.2.0 pins a version)\n  skill install ./my-skill.skill\n  skill install ../other-repo/skills/pdf-tools --dir ~/.claude/skills\n  skill install ./my-skill --force        a folder here: write ./NAME\n\nEvery install is scanned first (the SK9xx security rules, on the files in memory); a\nsecurity error refuses it, listing the findings, unless --allow-risky."
)]
pub struct Args {
    /// A registry skill (`NAME[@VERSION]`), or a path to a `.skill`/`.zip` archive or a skill
    /// folder.
    #[arg(required_unless_present = "frozen")]
    pub source: Option<String>,
    /// Install exactly what the lock file pins (versions and file hashes), resolving nothing.
    #[arg(long, conflicts_with = "source")]
    pub frozen: bool,
    /// The skills folder to install into.
    #[command(flatten)]
    pub skills: super::skills_dir::SkillsDir,
    /// Replace an existing install (atomically).
    #[arg(long)]
    pub force: bool,
    /// The registry, for `SLUG[@VERSION]` sources.
    #[arg(long)]
    pub registry: Option<String>,
    /// Trust signatures by this minisign public key (an archive's ARCHIVE.minisig beside it, a
    /// registry version's signature); repeatable, added to [trust] keys of the config files. A
    /// bad signature, or one by another key, refuses the install.
    #[arg(long, value_name = "KEY.pub")]
    pub trust: Vec<PathBuf>,
    /// Refuse archives and registry versions without a good signature by a trusted key (also
    /// [trust] require = true).
    #[arg(long)]
    pub require_signature: bool,
    /// Install even when the security scan finds errors (they are printed).
    #[arg(long)]
    pub allow_risky: bool,
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
    #[command(flatten)]
    pub skills: super::skills_dir::SkillsDir,
}

/// Arguments of `skill update`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill update\n  skill update pdf-tools --dir ~/.claude/skills --force"
)]
pub struct UpdateArgs {
    /// Skills to update [default: every registry install in the folder].
    pub names: Vec<String>,
    /// The skills folder.
    #[command(flatten)]
    pub skills: super::skills_dir::SkillsDir,
    /// Overwrite local changes.
    #[arg(long)]
    pub force: bool,
    /// The registry to update from (installs from another registry are refused).
    #[arg(long)]
    pub registry: Option<String>,
}

/// Installs, then lints the installed skill and shows its findings.
pub fn run(args: Args) -> Result<ExitCode, CliError> {
    let Some(source) = args.source.clone() else {
        return run_frozen(&args);
    };
    // As with npm and cargo, a bare name is a registry skill; folders and archives are paths.
    let installed = if looks_like_slug(&source) {
        let (slug, version) = source
            .split_once('@')
            .map_or((source.as_str(), None), |(s, v)| (s, Some(v)));
        let registry = super::registry_url(args.registry.as_deref());
        // A bare name that is also a path here could mean either; installing the wrong one
        // silently is how a planted folder (or a squatted slug) gets in. `--registry` on the
        // command line says which.
        if args.registry.is_none() && std::path::Path::new(&source).exists() {
            return Err(CliError::Usage(format!(
                "`{source}` names both the path ./{source} and the skill {slug} in the registry \
                 {registry}\nhint: write ./{source} to install the path, or --registry \
                 {registry} to install the registry skill"
            )));
        }
        let client = Client::new(&registry, credentials::token(&registry));
        match registry_install::install_with(
            &client,
            slug,
            version,
            &args.skills.path(),
            args.force,
            risk(&args),
            &trust(&args),
        ) {
            Ok(Some(installed)) => installed,
            Ok(None) => {
                return Err(CliError::Usage(format!(
                    "{}: no such skill in the registry {registry}",
                    source
                )));
            }
            Err(e) => return Err(e.into()),
        }
    } else {
        let source = match Input::from_arg(&source)? {
            Input::Archive(path) => verified(path, &args)?,
            // A folder carries no signature: the policy that refuses an unsigned archive
            // refuses it too.
            Input::Folder(path) => {
                crate::archive::signature::check(
                    &path.display().to_string(),
                    &[],
                    None,
                    &trust(&args),
                )
                .map_err(|e| CliError::Usage(e.to_string()))?;
                Input::Folder(path)
            }
            other => other,
        };
        install_with(&source, &args.skills.path(), args.force, risk(&args))?
    };
    report_scan(&installed);
    for note in &installed.notes {
        eprintln!("note: {note}");
    }
    let verb = if installed.replaced {
        "Replaced"
    } else {
        "Installed"
    };
    println!(
        "{verb} {} in {} ({})",
        installed.name,
        installed.dir.display(),
        super::output::plural(installed.files as u64, "file", "files")
    );
    // The security findings were shown above, from the scan of what was written; the rest
    // are those that matter to the agent the skill was written for, as `skill lint` says them.
    let options = Options {
        selection: Selection::new(Vec::new(), vec!["SK9".to_owned()])?,
        ..Options::inferring()
    };
    let run = lint_paths(std::slice::from_ref(&installed.dir), &options)?;
    let findings = crate::lint::report::render_concise(&run);
    if !findings.is_empty() {
        eprint!("{findings}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The `--trust` keys and `--require-signature`, with the config files' `[trust]` table.
fn trust(args: &Args) -> TrustPolicy {
    crate::config::current().trust(&args.trust, args.require_signature)
}

fn risk(args: &Args) -> Risk {
    if args.allow_risky {
        Risk::Allow
    } else {
        Risk::Refuse
    }
}

/// Says what the security scan found in what was installed: the errors `--allow-risky` let
/// through, and warnings.
fn report_scan(installed: &Installed) {
    let scan = &installed.scan;
    if scan.has_errors() {
        eprint!(
            "warning: installed {} despite {} security error(s), because of --allow-risky:\n{}",
            installed.name,
            scan.errors().count(),
            scan.render(false)
        );
    } else if !scan.findings.is_empty() {
        eprint!(
            "note: the security scan found {} warning(s) in {}:\n{}",
            scan.findings.len(),
            installed.name,
            scan.render(false)
        );
    }
}

/// `install --frozen`: every locked skill exactly as pinned, from the configured registry.
fn run_frozen(args: &Args) -> Result<ExitCode, CliError> {
    use crate::registry::install::{FrozenOutcome, install_frozen_with};
    let registry = super::registry_url(args.registry.as_deref());
    let client = Client::new(&registry, credentials::token(&registry));
    for (name, outcome) in
        install_frozen_with(&client, &args.skills.path(), risk(args), &trust(args))?
    {
        match outcome {
            FrozenOutcome::Exact(v) => println!("{name} v{v}: as locked"),
            FrozenOutcome::Installed(v) => println!("Installed {name} v{v} as locked"),
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The archive at `path`, read once and its signature checked under the `--trust` keys.
fn verified(path: PathBuf, args: &Args) -> Result<Input, CliError> {
    let policy = trust(args);
    let (bytes, signer) = crate::archive::signature::check_file(&path, &policy)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    if let Some(signer) = signer {
        eprintln!(
            "note: signed by key {} ({})",
            signer.key_id, signer.trusted_comment
        );
    }
    Ok(Input::ArchiveBytes { path, bytes })
}

/// Removes an installed skill.
pub fn run_uninstall(args: UninstallArgs) -> Result<ExitCode, CliError> {
    let removed = registry_install::uninstall(&args.skills.path(), &args.name)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    println!("Removed {}", removed.display());
    Ok(ExitCode::SUCCESS)
}

/// `pdf-tools` or `pdf-tools@1.2.0`: a registry reference rather than a path (`./pdf-tools`,
/// `skills/pdf-tools`, `pdf-tools.skill`).
fn looks_like_slug(arg: &str) -> bool {
    let slug = arg.split('@').next().unwrap_or("");
    !slug.is_empty() && slug.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Updates registry installs, one line each as the clawhub CLI prints them; goes on past a
/// skill that fails and exits 1 at the end if any did.
pub fn run_update(args: UpdateArgs) -> Result<ExitCode, CliError> {
    use crate::registry::install::{UpdateOutcome, update, update_targets};
    let names = update_targets(&args.skills.path(), &args.names)
        .map_err(|e| CliError::Usage(e.to_string()))?;
    if names.is_empty() {
        println!("No registry installs in {}", args.skills.path().display());
    }
    // Tokens go only to the registry the user configured or logged in to.
    let registry = super::registry_url(args.registry.as_deref());
    let client = Client::new(&registry, credentials::token(&registry));
    let trust = crate::config::current().trust(&[], false);
    let mut failed = 0;
    for name in names {
        match update(&client, &name, &args.skills.path(), args.force, &trust) {
            Ok(UpdateOutcome::UpToDate(v)) => println!("{name} up to date v{v}"),
            Ok(UpdateOutcome::Updated(v)) => println!("Updated {name} -> v{v}"),
            Ok(UpdateOutcome::Withdrawn { installed, to }) => println!(
                "{name}: installed v{installed} was withdrawn from the registry; updated to v{to}"
            ),
            Ok(UpdateOutcome::LocalChanges) => {
                println!("{name}: local changes (no match). Use --force to overwrite.")
            }
            Err(e) => {
                failed += 1;
                eprintln!("error: {e}");
            }
        }
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
