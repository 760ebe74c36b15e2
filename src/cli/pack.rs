//! `skill pack [PATH]`.

use super::CliError;
use skill_archive::plugin::{PluginFormat, PluginOptions, pack_plugins};
use skill_archive::{PackOptions, pack, signature};
use skill_model::layout::SKILL_MD;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `skill pack`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill pack my-skill\n  skill pack my-skill -o dist/my-skill.skill --json\n  SOURCE_DATE_EPOCH=1700000000 skill pack my-skill\n  skill pack my-skill --list\n  skill pack my-skill --plugin claude     ./my-skill-plugins: a marketplace of one plugin"
)]
pub(crate) struct Args {
    /// The skill folder (or its SKILL.md).
    #[arg(default_value = ".")]
    pub(crate) path: PathBuf,
    /// Where to write the archive [default: ./<name>.skill]
    #[arg(short, long)]
    pub(crate) output: Option<PathBuf>,
    /// Print what would go in, and write nothing.
    #[arg(long)]
    pub(crate) list: bool,
    /// Pack even when lint finds errors.
    #[arg(long)]
    pub(crate) no_lint: bool,
    /// Pack the targets of symlinks that point inside the skill (otherwise a symlink is an error).
    #[arg(long)]
    pub(crate) follow_symlinks: bool,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub(crate) json: bool,
    /// Sign the archive with this minisign secret key (writes ARCHIVE.minisig beside it).
    #[arg(long, value_name = "KEY")]
    pub(crate) sign: Option<PathBuf>,
    /// Write a plugin marketplace folder for this agent instead of archives: one plugin per
    /// skill (`-o` names the folder [default: ./NAME-plugins]).
    #[arg(long, value_name = "AGENT", value_parser = super::choice::parser::<PluginFormat>(), conflicts_with_all = ["list", "json", "sign"])]
    pub(crate) plugin: Option<PluginFormat>,
    /// The marketplace's name, with --plugin [default: the skill's or the folder's name].
    #[arg(long, requires = "plugin")]
    pub(crate) marketplace: Option<String>,
    /// The marketplace's owner and the plugins' author, with --plugin [default: $USER].
    #[arg(long, requires = "plugin")]
    pub(crate) owner: Option<String>,
}

/// Lints, then packs; prints the summary.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let dir = if args.path.is_file() {
        args.path.parent().map(PathBuf::from).unwrap_or_default()
    } else {
        args.path.clone()
    };
    let dir = if dir.as_os_str().is_empty() {
        PathBuf::from(".")
    } else {
        dir
    };
    if let Some(format) = args.plugin {
        return run_plugin(&args, &dir, format);
    }
    if !dir.join(SKILL_MD).is_file() && !args.list {
        return run_tree(&args, &dir);
    }
    let options = PackOptions {
        output: args.output.clone(),
        follow_symlinks: args.follow_symlinks,
        timestamp: source_date_epoch(),
    };
    if args.list {
        for file in skill_archive::pack::plan(&dir, &options)? {
            println!("{:>10}  {}", file.size, file.path);
        }
        return Ok(ExitCode::SUCCESS);
    }
    if !args.no_lint && !super::lint_gate(std::slice::from_ref(&dir), "not packed")? {
        return Ok(ExitCode::from(1));
    }
    let bar = progress_bar(&dir, &options);
    let report = pack(&dir, &options, &mut |n| bar.inc(n))?;
    bar.finish_and_clear();
    let signature = match &args.sign {
        Some(key) => Some(sign(&dir, &report, key)?),
        None => None,
    };
    if args.json {
        super::output::print_json(&serde_json::json!({"archives": [&report]}), true)?;
    } else {
        println!(
            "Packed {}: {}, {} bytes ({} packed)",
            report.path.display(),
            super::output::plural(report.files as u64, "file", "files"),
            report.bytes,
            report.packed_bytes
        );
        println!("sha256       {}", report.sha256);
        println!("fingerprint  {}", report.fingerprint);
        note_left_out(&report.left_out);
        if let Some(signature) = signature {
            println!("signature    {}", signature.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The one note for ClawHub install metadata a downloaded skill carried, which pack and publish
/// leave out.
pub(super) fn note_left_out(left_out: &[&str]) {
    if !left_out.is_empty() {
        eprintln!(
            "note: left out ClawHub's install metadata ({}); the registry writes its own",
            left_out
                .iter()
                .map(|name| match *name {
                    skill_model::layout::CLAWHUB_DIR => format!("{name}/"),
                    _ => (*name).to_owned(),
                })
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

/// Signs the packed archive; the trusted comment names the skill, its `metadata.version` and
/// the archive's SHA-256.
fn sign(
    dir: &std::path::Path,
    report: &skill_archive::PackReport,
    key: &std::path::Path,
) -> Result<PathBuf, CliError> {
    let location = skill_model::discover(&[dir.to_path_buf()])?
        .into_iter()
        .next()
        .ok_or_else(|| CliError::Usage(format!("{}: no skill to sign", dir.display())))?;
    let skill = skill_model::Skill::load(location);
    let version = skill.manifest().and_then(signature::signed_version);
    let name = skill_archive::pack::archive_name(dir);
    let comment = signature::trusted_comment(&name, version.as_deref(), &report.sha256);
    Ok(signature::sign(
        &report.path,
        key,
        super::keygen::password(),
        &comment,
    )?)
}

/// A byte-count bar for skills over a megabyte.
fn progress_bar(dir: &std::path::Path, options: &PackOptions) -> indicatif::ProgressBar {
    let total: u64 = skill_archive::pack::plan(dir, options)
        .map(|f| f.iter().map(|f| f.size).sum())
        .unwrap_or(0);
    super::progress::bytes("packing", total, 1024 * 1024)
}

/// `--plugin`: the skill (or every skill of the tree) as a marketplace of plugins.
fn run_plugin(
    args: &Args,
    dir: &std::path::Path,
    format: PluginFormat,
) -> Result<ExitCode, CliError> {
    let skills: Vec<PathBuf> = if dir.join(SKILL_MD).is_file() {
        vec![dir.to_path_buf()]
    } else {
        skills_of_tree(dir)?
    };
    if !args.no_lint && !super::lint_gate(&skills, "not packed")? {
        return Ok(ExitCode::from(1));
    }
    let skills = outermost(skills);
    let name = skill_archive::pack::archive_name(dir);
    let marketplace = args.marketplace.clone().unwrap_or_else(|| name.clone());
    let options = PluginOptions {
        format,
        output: args
            .output
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("{name}-plugins"))),
        owner: args
            .owner
            .clone()
            .or_else(|| std::env::var("USER").ok().filter(|u| !u.is_empty()))
            .unwrap_or_else(|| marketplace.clone()),
        marketplace,
        follow_symlinks: args.follow_symlinks,
        inside: Some(dir.to_path_buf()),
    };
    let plugins = pack_plugins(&skills, &options)?;
    for plugin in &plugins {
        println!(
            "Packed plugin {} {} ({})",
            plugin.name,
            plugin.version,
            super::output::plural(plugin.files as u64, "file", "files")
        );
    }
    println!(
        "Wrote the {} marketplace {} in {}",
        format.name(),
        options.marketplace,
        options.output.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The skill folders below `root`, sub-skills of bundles included.
fn skills_of_tree(root: &std::path::Path) -> Result<Vec<PathBuf>, CliError> {
    Ok(
        skill_model::discover(std::slice::from_ref(&root.to_path_buf()))?
            .into_iter()
            .filter(|l| l.file.is_some())
            .map(|l| l.dir)
            .collect(),
    )
}

/// `skills` less those inside another of them: a sub-skill ships inside its bundle, as ClawHub
/// serves it, not again as an archive of its own.
fn outermost(skills: Vec<PathBuf>) -> Vec<PathBuf> {
    let inside = |s: &PathBuf| skills.iter().any(|o| o != s && s.starts_with(o));
    skills.iter().filter(|s| !inside(s)).cloned().collect()
}

/// Packs every skill under `root` in parallel, each archive at its skill's relative place under
/// the output folder. Every skill is linted, sub-skills of bundles too.
fn run_tree(args: &Args, root: &std::path::Path) -> Result<ExitCode, CliError> {
    let skills = skills_of_tree(root)?;
    if !args.no_lint && !super::lint_gate(&skills, "not packed")? {
        return Ok(ExitCode::from(1));
    }
    let skills = outermost(skills);
    let out_dir = args.output.clone().unwrap_or_else(|| PathBuf::from("."));
    let mut not_packed = 0;
    let options = PackOptions {
        output: None,
        follow_symlinks: args.follow_symlinks,
        timestamp: source_date_epoch(),
    };
    let (reports, failed): (Vec<_>, Vec<_>) =
        skill_archive::pack::pack_tree(root, &skills, &out_dir, &options)
            .into_iter()
            .partition(Result::is_ok);
    let reports: Vec<_> = reports.into_iter().flatten().collect();
    for error in failed.into_iter().filter_map(Result::err) {
        eprintln!("error: {error}");
        not_packed += 1;
    }
    if args.json {
        super::output::print_json(&serde_json::json!({"archives": &reports}), true)?;
    } else {
        for report in &reports {
            println!(
                "Packed {}: {}, {} bytes ({} packed)",
                report.path.display(),
                super::output::plural(report.files as u64, "file", "files"),
                report.bytes,
                report.packed_bytes
            );
        }
        let carrying = reports.iter().filter(|r| !r.left_out.is_empty()).count();
        if carrying > 0 {
            eprintln!(
                "note: left out ClawHub's install metadata (_meta.json, .clawhub/) of {carrying} skill(s); the registry writes its own"
            );
        }
    }
    if not_packed > 0 {
        return Err(CliError::Usage(format!(
            "{} not packed (above); the others were",
            super::output::plural(not_packed, "skill", "skills")
        )));
    }
    Ok(ExitCode::SUCCESS)
}

/// `SOURCE_DATE_EPOCH`, the reproducible-builds convention for timestamps.
fn source_date_epoch() -> Option<i64> {
    std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|v| v.trim().parse().ok())
}
