//! `skill install SOURCE` and `skill uninstall NAME`.

use super::CliError;
use crate::git_source::GitSource;
use crate::shared_install::lock::{LOCAL_SOURCE, LockedSkill, REGISTRY_SOURCE, SkillsLock};
use crate::shared_install::sources::{Refreshed, Restored};
use crate::shared_install::{Placement, Reach, Scope, SharedError};
use skill_archive::install::{Input, InstallPolicy, Installed, Risk, install_with, name_of};
use skill_archive::signature::TrustPolicy;
use skill_lint::{Options, Selection, lint_paths};
use skill_registry::client::Client;
use skill_registry::{credentials, install as registry_install};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `skill install`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill install pdf-tools                 from the registry (pdf-tools@1.2.0 pins a version)\n  skill install ./my-skill.skill\n  skill install ../other-repo/skills/pdf-tools --dir ~/.claude/skills\n  skill install ./my-skill --force        a folder here: write ./NAME\n  skill install ./my-skill --agent claude --agent codex\n                                          one copy in .agents/skills, linked into .claude/skills\n  skill install pdf-tools --all-agents --global\n  skill install git:https://example.com/tools.git@v1#skills/pdf --agent codex\n  skill install acme/tools/skills/pdf --agent claude   GitHub: acme/tools, folder skills/pdf\n\nEvery install is scanned first (the SK9xx security rules, on the files in memory); a\nsecurity error refuses it, listing the findings, unless --allow-risky."
)]
pub(crate) struct Args {
    /// A registry skill (`NAME[@VERSION]`), a path to a `.skill`/`.zip` archive or a skill
    /// folder, a git repository (`git:URL[@REF][#PATH]`), or a GitHub one (`OWNER/REPO[/PATH]`,
    /// when no such path exists here).
    #[arg(required_unless_present = "frozen")]
    pub(crate) source: Option<String>,
    /// Install exactly what the lock file pins (versions and file hashes; in a shared install
    /// also local folders and git commits, checked by folder hash), resolving nothing.
    #[arg(long, conflicts_with = "source")]
    pub(crate) frozen: bool,
    /// The skills folder to install into.
    #[command(flatten)]
    pub(crate) skills: super::skills_dir::SkillsDir,
    /// Replace an existing install (atomically).
    #[arg(long)]
    pub(crate) force: bool,
    /// The registry, for `SLUG[@VERSION]` sources.
    #[arg(long)]
    pub(crate) registry: Option<String>,
    /// Trust signatures by this minisign public key (an archive's ARCHIVE.minisig beside it, a
    /// registry version's signature); repeatable, added to [trust] keys of the config files. A
    /// bad signature, or one by another key, refuses the install.
    #[arg(long, value_name = "KEY.pub")]
    pub(crate) trust: Vec<PathBuf>,
    /// Refuse archives and registry versions without a good signature by a trusted key (also
    /// [trust] require = true).
    #[arg(long)]
    pub(crate) require_signature: bool,
    /// Install even when the security scan finds errors (they are printed).
    #[arg(long)]
    pub(crate) allow_risky: bool,
}

/// Arguments of `skill uninstall`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill uninstall pdf-tools\n  skill uninstall pdf-tools --dir ~/.claude/skills"
)]
pub(crate) struct UninstallArgs {
    /// The installed skill's name (its folder name).
    pub(crate) name: String,
    /// The skills folder it is in.
    #[command(flatten)]
    pub(crate) skills: super::skills_dir::SkillsDir,
}

/// Arguments of `skill update`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill update\n  skill update pdf-tools --dir ~/.claude/skills --force"
)]
pub(crate) struct UpdateArgs {
    /// Skills to update [default: every registry install in the folder].
    pub(crate) names: Vec<String>,
    /// The skills folder.
    #[command(flatten)]
    pub(crate) skills: super::skills_dir::SkillsDir,
    /// Overwrite local changes.
    #[arg(long)]
    pub(crate) force: bool,
    /// The registry to update from (installs from another registry are refused).
    #[arg(long)]
    pub(crate) registry: Option<String>,
}

/// Installs, then lints the installed skill and shows its findings.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let policy = policy(&args);
    let Some(source) = args.source.clone() else {
        return run_frozen(&args, &policy);
    };
    // A broken lock file stops the install before anything is written.
    let shared = match args.skills.placement()? {
        Some(mut placement) => {
            // A folder installed from is never replaced by a link to its own copy.
            let path = std::path::Path::new(&source);
            placement.source = path.is_dir().then(|| path.to_path_buf());
            Some((placement.lock()?, placement))
        }
        None => None,
    };
    let room = shared.as_ref().map(|(lock, placement)| (placement, lock));
    let (installed, entry) = if let Some(git) = git_source(&source) {
        install_git(&args, &policy, &git, room)?
    } else if looks_like_slug(&source) {
        install_registry(&args, &policy, &source, room)?
    } else {
        install_local(&args, &policy, &source, room)?
    };
    report_installed(&installed);
    if let Some((_, placement)) = &shared {
        share(placement, &installed.name, entry, args.force)?;
    }
    if installed.unchanged {
        return Ok(ExitCode::SUCCESS);
    }
    lint_installed(&installed)?;
    Ok(ExitCode::SUCCESS)
}

/// The scan's findings, the notes, and what was installed where.
fn report_installed(installed: &Installed) {
    report_scan(installed);
    for note in &installed.notes {
        eprintln!("note: {note}");
    }
    let files = super::output::plural(installed.files as u64, "file", "files");
    if installed.unchanged {
        println!(
            "{} is installed already in {}, unchanged ({files})",
            installed.name,
            installed.dir.display()
        );
    } else {
        let verb = if installed.replaced {
            "Replaced"
        } else {
            "Installed"
        };
        println!(
            "{verb} {} in {} ({files})",
            installed.name,
            installed.dir.display()
        );
    }
}

/// The lint findings of the installed skill other than security ones.
fn lint_installed(installed: &Installed) -> Result<(), CliError> {
    // The security findings were shown above, from the scan of what was written; the rest
    // are those that matter to the agent the skill was written for, as `skill lint` says them.
    let options = Options {
        selection: Selection::new(Vec::new(), vec!["SK9".to_owned()])?,
        ..Options::inferring()
    };
    let run = lint_paths(std::slice::from_ref(&installed.dir), &options)?;
    let findings = skill_lint::report::render_concise(&run);
    if !findings.is_empty() {
        eprint!("{findings}");
    }
    Ok(())
}

/// Installs the registry skill `source` (`SLUG[@VERSION]`); the lock entry a shared install
/// records for it.
fn install_registry(
    args: &Args,
    policy: &InstallPolicy,
    source: &str,
    shared: Option<(&Placement, &SkillsLock)>,
) -> Result<(Installed, LockedSkill), CliError> {
    let (slug, version) = source
        .split_once('@')
        .map_or((source, None), |(s, v)| (s, Some(v)));
    let registry = super::registry_url(args.registry.as_deref());
    // A bare name that is also a path here could mean either; installing the wrong one
    // silently is how a planted folder (or a squatted slug) gets in. `--registry` on the
    // command line says which.
    if args.registry.is_none() && std::path::Path::new(source).exists() {
        return Err(CliError::Usage(format!(
            "`{source}` names both the path ./{source} and the skill {slug} in the registry \
             {registry}\nhint: write ./{source} to install the path, or --registry \
             {registry} to install the registry skill"
        )));
    }
    if let Some((placement, lock)) = shared {
        placement.check_room(slug, args.force, lock)?;
    }
    let client = Client::new(&registry, credentials::token(&registry));
    let installed = registry_install::install_with(
        &client,
        slug,
        version,
        &args.skills.path(),
        args.force,
        policy,
    )?
    .ok_or_else(|| {
        CliError::Usage(format!(
            "{source}: no such skill in the registry {registry}"
        ))
    })?;
    let entry = LockedSkill {
        source: slug.to_owned(),
        source_type: REGISTRY_SOURCE.to_owned(),
        source_url: Some(registry),
        ..LockedSkill::default()
    };
    Ok((installed, entry))
}

/// `git:URL[@REF][#PATH]`, or GitHub's `OWNER/REPO[/PATH]` when no such path exists here.
fn git_source(source: &str) -> Option<GitSource> {
    if let Some(git) = GitSource::parse(source) {
        return Some(git);
    }
    // A missing archive is a missing file, not a repository.
    let archive = [".skill", ".zip"].iter().any(|ext| source.ends_with(ext));
    if archive || std::path::Path::new(source).exists() {
        return None;
    }
    GitSource::github(source)
}

/// Installs a skill from a git repository; the lock entry (with the commit) a shared install
/// records for it.
fn install_git(
    args: &Args,
    policy: &InstallPolicy,
    git: &GitSource,
    shared: Option<(&Placement, &SkillsLock)>,
) -> Result<(Installed, LockedSkill), CliError> {
    // A checkout carries no signature: the policy that refuses an unsigned archive refuses it
    // too, before anything is fetched.
    skill_archive::signature::check(&git.url, &[], None, &policy.trust)?;
    let checkout = git.fetch(None).map_err(|e| match &git.github {
        // The argument may have been meant as a path.
        Some(repo) => CliError::Usage(format!(
            "{repo}: no such file or folder here, and as the GitHub repository {}: {e}",
            git.url
        )),
        None => e.into(),
    })?;
    if let Some(repo) = &git.github {
        eprintln!(
            "note: no path {repo} here; installing the GitHub repository {}",
            git.url
        );
    }
    let input = Input::Folder(checkout.skill.clone());
    if let Some((placement, lock)) = shared {
        placement.check_room(&name_of(&input)?, args.force, lock)?;
    }
    let installed = install_with(&input, &args.skills.path(), args.force, policy.risk)?;
    eprintln!("note: {} at commit {}", git.url, checkout.commit);
    Ok((installed, LockedSkill::from_git(git, &checkout.commit)))
}

/// Installs an archive or a folder; the lock entry a shared install records for it.
fn install_local(
    args: &Args,
    policy: &InstallPolicy,
    source: &str,
    shared: Option<(&Placement, &SkillsLock)>,
) -> Result<(Installed, LockedSkill), CliError> {
    let input = match Input::from_arg(source)? {
        Input::Archive(path) => verified(path, &policy.trust)?,
        // A folder carries no signature: the policy that refuses an unsigned archive refuses
        // it too.
        Input::Folder(path) => {
            skill_archive::signature::check(&path.display().to_string(), &[], None, &policy.trust)?;
            Input::Folder(path)
        }
        other => other,
    };
    if let Some((placement, lock)) = shared {
        placement.check_room(&name_of(&input)?, args.force, lock)?;
    }
    let installed = install_with(&input, &args.skills.path(), args.force, policy.risk)?;
    let (path, source_type) = match &input {
        Input::Folder(path) | Input::FolderAs { path, .. } => (path.as_path(), LOCAL_SOURCE),
        Input::Archive(path) | Input::ArchiveBytes { path, .. } => (path.as_path(), "archive"),
        Input::Bytes { .. } => (std::path::Path::new(source), "archive"),
    };
    let source = shared.map_or_else(|| source.to_owned(), |(p, _)| p.lock_source(path));
    if shared.is_some_and(|(p, _)| {
        p.scope == Scope::Project && source.starts_with(['.', '/']) && !source.starts_with("./")
    }) {
        eprintln!(
            "note: {source} is outside the project: `update` and `install --frozen` will not read it from the lock (a lock that came with a project may not name folders outside it)"
        );
    }
    let entry = LockedSkill {
        source,
        source_type: source_type.to_owned(),
        ..LockedSkill::default()
    };
    Ok((installed, entry))
}

/// Places an installed skill for the agents of a shared install, records it in the lock
/// file, and says where each agent finds it.
pub(super) fn share(
    placement: &Placement,
    name: &str,
    entry: LockedSkill,
    force: bool,
) -> Result<(), CliError> {
    let mut lock = placement.lock()?;
    let placed = placement.record(name, entry, &mut lock, force);
    // What is installed is recorded even when an agent's link could not be made.
    let wrote = lock.write().map_err(SharedError::from)?;
    let reaches = placed?;
    for (agent, reach) in &reaches {
        println!("  {agent}: {}", describe(placement, reach));
    }
    if wrote {
        println!("Recorded {name} in {}", placement.shown(&lock.path));
    }
    Ok(())
}

/// How an agent finds a shared skill, in words.
fn describe(placement: &Placement, reach: &Reach) -> String {
    let shown = |path: &std::path::Path| placement.shown(path);
    match reach {
        Reach::Reads => format!("reads {}", shown(&placement.shared())),
        Reach::Linked { path } => format!("linked {}", shown(path)),
        Reach::Copied { path } => format!("copied to {}", shown(path)),
        Reach::Holds { path } => format!("holds it in {}", shown(path)),
        Reach::Stale { path } => format!("an older copy is at {}", shown(path)),
        Reach::Dangling { path } => format!("{} links to a copy that is gone", shown(path)),
        Reach::Source { path } => format!("{} is the skill's own source", shown(path)),
        Reach::Missing { path } => format!("missing {}", shown(path)),
        Reach::Other { path } => format!("something else is at {}", shown(path)),
    }
}

/// What this install accepts, decided here once: `--allow-risky`, and the `--trust` keys and
/// `--require-signature` with the config files' `[trust]` table.
fn policy(args: &Args) -> InstallPolicy {
    InstallPolicy {
        risk: if args.allow_risky {
            Risk::Allow
        } else {
            Risk::Refuse
        },
        trust: crate::config::current().trust(&args.trust, args.require_signature),
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

/// `install --frozen`: every locked skill exactly as pinned, from the configured registry, and
/// in a shared install every skill of its lock file from its local source, hash-checked,
/// placed again for its agents.
fn run_frozen(args: &Args, policy: &InstallPolicy) -> Result<ExitCode, CliError> {
    use skill_registry::install::{FrozenOutcome, install_frozen_with};
    let placement = args.skills.placement()?;
    let shared_lock = placement.as_ref().map(Placement::lock).transpose()?;
    let registry = super::registry_url(args.registry.as_deref());
    let client = Client::new(&registry, credentials::token(&registry));
    for (name, outcome) in install_frozen_with(&client, &args.skills.path(), policy)? {
        match outcome {
            FrozenOutcome::Exact(v) => println!("{name} v{v}: as locked"),
            FrozenOutcome::Installed(v) => println!("Installed {name} v{v} as locked"),
        }
    }
    if let (Some(placement), Some(lock)) = (placement, shared_lock) {
        // Every skill is tried: one that cannot be restored does not keep the rest away.
        let mut failed = 0;
        for (name, entry) in &lock.skills {
            if let Err(e) = restore(args, policy, &placement, &lock, name, entry) {
                failed += 1;
                eprintln!("error: {e}");
            }
        }
        if failed > 0 {
            return Err(CliError::Usage(format!(
                "{} could not be installed as locked",
                super::output::plural(failed, "skill", "skills")
            )));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Puts one skill of a shared install's lock back as locked, and its agents' links.
fn restore(
    args: &Args,
    policy: &InstallPolicy,
    placement: &Placement,
    lock: &SkillsLock,
    name: &str,
    entry: &LockedSkill,
) -> Result<(), CliError> {
    match placement.restore(name, entry, policy)? {
        Restored::AsLocked => println!("{name}: as locked"),
        Restored::Installed => println!("Installed {name} as locked from {}", entry.source),
    }
    let placed = placement.for_entry(entry).place(name, lock, args.force)?;
    for (agent, reach) in &placed {
        println!("  {agent}: {}", describe(placement, reach));
    }
    Ok(())
}

/// The archive at `path`, read once and its signature checked under `trust`.
fn verified(path: PathBuf, trust: &TrustPolicy) -> Result<Input, CliError> {
    let (bytes, signer) = skill_archive::signature::check_file(&path, trust)?;
    if let Some(signer) = signer {
        eprintln!(
            "note: signed by key {} ({})",
            signer.key_id, signer.trusted_comment
        );
    }
    Ok(Input::ArchiveBytes { path, bytes })
}

/// Removes an installed skill: from a shared install, its copy, every agent's link to it and
/// its lock entry.
pub(crate) fn run_uninstall(args: UninstallArgs) -> Result<ExitCode, CliError> {
    let Some(placement) = args.skills.placement()? else {
        let removed = registry_install::uninstall(&args.skills.path(), &args.name)?;
        println!("Removed {}", removed.display());
        return Ok(ExitCode::SUCCESS);
    };
    skill_model::layout::check_skill_name(&args.name)
        .map_err(|rule| CliError::Usage(format!("{:?}: {rule}", args.name)))?;
    // The lock is read (and a broken one refused) before anything is removed.
    let mut lock = placement.lock()?;
    let copy = placement.copy_of(&args.name)?;
    if !copy.is_dir() && !lock.skills.contains_key(&args.name) {
        return Err(CliError::Usage(format!(
            "{} is not installed in {}",
            args.name,
            placement.shown(&placement.shared())
        )));
    }
    // Checked before anything is removed: a copy that is no skill is left whole.
    if copy.is_dir() && !copy.join(skill_model::layout::SKILL_MD).is_file() {
        return Err(skill_archive::install::InstallError::NotInstalled(copy).into());
    }
    for link in placement.unplace(&args.name, &lock)? {
        println!("Removed {}", placement.shown(&link));
    }
    if copy.is_dir() {
        let removed = registry_install::uninstall(&placement.shared(), &args.name)?;
        println!("Removed {}", placement.shown(&removed));
    }
    if lock.skills.remove(&args.name).is_some() {
        lock.write().map_err(SharedError::from)?;
        println!("Removed {} from {}", args.name, placement.shown(&lock.path));
    }
    Ok(ExitCode::SUCCESS)
}

/// `pdf-tools` or `pdf-tools@1.2.0`: a registry reference rather than a path (`./pdf-tools`,
/// `skills/pdf-tools`, `pdf-tools.skill`).
fn looks_like_slug(arg: &str) -> bool {
    let slug = arg.split('@').next().unwrap_or("");
    !slug.is_empty() && slug.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// Updates registry installs, one line each as the clawhub CLI prints them, and in a shared
/// install also skills installed from a local folder or a git repository; goes on past a skill that fails and
/// exits 1 at the end if any did.
pub(crate) fn run_update(args: UpdateArgs) -> Result<ExitCode, CliError> {
    use skill_registry::install::update_targets;
    let placement = args.skills.placement()?;
    let lock = placement.as_ref().map(Placement::lock).transpose()?;
    let local: Vec<String> = lock
        .iter()
        .flat_map(|l| l.skills.iter())
        .filter(|(_, e)| e.source_type != REGISTRY_SOURCE)
        .map(|(n, _)| n.clone())
        .collect();
    let named: Vec<String> = args
        .names
        .iter()
        .filter(|n| !local.contains(n))
        .cloned()
        .collect();
    let registry_names = if args.names.is_empty() || !named.is_empty() {
        update_targets(&args.skills.path(), &named)?
    } else {
        Vec::new()
    };
    if registry_names.is_empty() && local.is_empty() {
        println!("No registry installs in {}", args.skills.path().display());
    }
    let mut failed = update_registry(&args, registry_names);
    if let (Some(placement), Some(lock)) = (placement, lock) {
        failed += update_shared(&args, &placement, lock)?;
    }
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Updates the registry installs `names`; how many failed.
fn update_registry(args: &UpdateArgs, names: Vec<String>) -> usize {
    use skill_registry::install::{UpdateOutcome, update};
    // Tokens go only to the registry the user configured or logged in to.
    let registry = super::registry_url(args.registry.as_deref());
    let client = Client::new(&registry, credentials::token(&registry));
    // `update` takes no --allow-risky and no --trust: the settings' keys, and risky refused.
    let policy = InstallPolicy {
        risk: Risk::Refuse,
        trust: crate::config::current().trust(&[], false),
    };
    let mut failed = 0;
    for name in names {
        match update(&client, &name, &args.skills.path(), args.force, &policy) {
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
    failed
}

/// In a shared install: reinstalls each skill whose source is a local folder or a git
/// repository from it (unless its copy was edited, without `--force`), places every skill for
/// its agents again and records the folder hashes; how many failed.
fn update_shared(
    args: &UpdateArgs,
    placement: &Placement,
    mut lock: SkillsLock,
) -> Result<usize, CliError> {
    let mut failed = 0;
    let names: Vec<String> = lock
        .skills
        .keys()
        .filter(|n| args.names.is_empty() || args.names.contains(n))
        .cloned()
        .collect();
    for name in names {
        let mut entry = lock.skills[&name].clone();
        let copy = placement.shared().join(&name);
        let refetched = entry.is_refetchable();
        if refetched {
            match refetch(placement, &name, &mut entry, args.force) {
                Refetched::Place => {}
                Refetched::Skip => continue,
                Refetched::Failed => {
                    failed += 1;
                    continue;
                }
            }
        }
        if !copy.is_dir() {
            println!("{name}: its copy is gone; `install --frozen` puts it back");
            continue;
        }
        // A skill got again is recorded anew; any other keeps its recorded hash, so an edited
        // copy stays an edited copy for `verify`.
        let mine = placement.for_entry(&entry);
        let placed = if refetched {
            mine.record(&name, entry, &mut lock, args.force).map(|_| ())
        } else {
            mine.place(&name, &lock, args.force).map(|_| ())
        };
        if let Err(e) = placed {
            failed += 1;
            eprintln!("error: {name}: {e}");
        }
    }
    lock.write().map_err(SharedError::from)?;
    Ok(failed)
}

/// What [`refetch`] leaves to do with a skill.
enum Refetched {
    /// Place it again.
    Place,
    /// Leave it as it is.
    Skip,
    /// Count a failure, already reported.
    Failed,
}

/// Gets a skill again from its folder or repository and says what came of it.
fn refetch(placement: &Placement, name: &str, entry: &mut LockedSkill, force: bool) -> Refetched {
    let at = |commit: &Option<String>| {
        commit
            .as_deref()
            .map(|c| format!(" at {}", c.chars().take(12).collect::<String>()))
            .unwrap_or_default()
    };
    match placement.refresh(name, entry, force) {
        Ok(Refreshed::LocalChanges) => {
            println!(
                "{name}: local changes (its folder hash is not the locked one). Use --force to overwrite."
            );
            Refetched::Skip
        }
        Ok(Refreshed::UpToDate { commit }) => {
            println!("{name} up to date{}", at(&commit));
            Refetched::Place
        }
        Ok(Refreshed::Updated { commit }) => {
            println!("Updated {name} from {}{}", entry.source, at(&commit));
            Refetched::Place
        }
        Err(e) => {
            eprintln!("error: {e}");
            Refetched::Failed
        }
    }
}
