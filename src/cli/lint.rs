//! `skill lint [PATHS...]`.

use super::CliError;
use skill_lint::baseline::Baseline;
use skill_lint::cache::Cache;
use skill_lint::config::Config;
use skill_lint::report::Format;
use skill_lint::{LintRun, Options, Selection, Target, fix, lint_paths};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `skill lint`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill lint                      lint every skill under the current folder\n  skill lint skills/ --format json\n  skill lint my-skill --target agentskills --strict\n  skill lint my-skill --fix --diff\n  skill lint --write-baseline .skill-baseline.json   record today's findings\n  skill lint --baseline .skill-baseline.json         report only new ones\n\nConfiguration: [lint] in skill.toml, found from the current folder upwards; flags win."
)]
pub(crate) struct Args {
    /// Skill folders, SKILL.md files, or trees to search for skills.
    #[arg(default_value = ".")]
    pub(crate) paths: Vec<PathBuf>,
    /// Whose rules apply [default: skill.toml's, else each skill's own agent, inferred from
    /// what it declares (metadata.openclaw, agents/openai.yaml, ...), else portable]
    #[arg(long, value_parser = super::choice::parser::<Target>())]
    pub(crate) target: Option<Target>,
    /// Output format [default: human; github when GITHUB_ACTIONS=true]
    #[arg(long, value_parser = super::choice::parser::<Format>())]
    pub(crate) format: Option<Format>,
    /// Same as --format json.
    #[arg(long, conflicts_with = "format")]
    pub(crate) json: bool,
    /// Exit with 1 on warnings too, not only on errors.
    #[arg(long)]
    pub(crate) strict: bool,
    /// Run only these rules (codes, code prefixes such as SK2, or slugs; comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub(crate) select: Vec<String>,
    /// Skip these rules too (codes, code prefixes, or slugs; comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub(crate) ignore: Vec<String>,
    /// Do not check declared bins, env vars and os against this machine (for deterministic CI).
    #[arg(long)]
    pub(crate) no_env_checks: bool,
    /// Lint every skill afresh, neither reading nor writing the cache of findings (also
    /// SKILL_NO_CACHE=1).
    #[arg(long)]
    pub(crate) no_cache: bool,
    /// Apply safe fixes to SKILL.md (those that cannot change what an agent loads, lists or
    /// runs) and report each one.
    #[arg(long)]
    pub(crate) fix: bool,
    /// With --fix, also apply unsafe fixes (declaring requirements, which hides the skill where
    /// they are missing); each is reported with its consequence.
    #[arg(long)]
    pub(crate) unsafe_fixes: bool,
    /// List every fix the findings offer, safe or unsafe, with what an unsafe one changes.
    #[arg(long)]
    pub(crate) show_fixes: bool,
    /// Print how many findings each rule has, and which are fixable, instead of the findings.
    #[arg(long, conflicts_with_all = ["fix", "write_baseline"])]
    pub(crate) statistics: bool,
    /// With --fix: print a unified diff instead of writing.
    #[arg(long, requires = "fix")]
    pub(crate) diff: bool,
    /// Leave out the findings recorded in this baseline file (see --write-baseline).
    #[arg(long, value_name = "FILE")]
    pub(crate) baseline: Option<PathBuf>,
    /// Record every current finding in this file and exit 0, so that later runs with
    /// --baseline report only new ones.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["baseline", "fix"])]
    pub(crate) write_baseline: Option<PathBuf>,
    /// A folder of skills that `description-overlap` compares the linted skills with, without
    /// linting them (repeatable): an agent's install, say.
    #[arg(long = "with", value_name = "ROOT")]
    pub(crate) with: Vec<PathBuf>,
    /// Also ask a model for a second opinion on each skill: its findings are `model-review`
    /// notes that never fail the run, replayed from the skill's evals/cassettes/review.yaml
    /// (`--mode record` asks the provider and records it).
    #[arg(long, conflicts_with_all = ["fix", "write_baseline", "statistics"])]
    pub(crate) review: bool,
    /// For --review: the cassette mode and the model provider.
    #[command(flatten, next_help_heading = "Review (with --review)")]
    pub(crate) model: super::suite::ModelArgs,
}

/// Lints (and fixes), prints in the chosen format, and returns 0 (clean), 1 (errors, or
/// warnings with `--strict`, or with `--diff` changes to make) or 2 (a SKILL.md unreadable).
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let config = Config::find(&std::env::current_dir()?)?;
    let options = options(&args, &config)?;
    let code = lint_and_print(&args, &options)?;
    if let Some(cache) = &options.cache {
        if let Err(e) = cache.save() {
            eprintln!("warning: the lint cache was not written: {e}");
        }
        if super::output::verbose() {
            let counts = cache.counts();
            eprintln!(
                "lint cache: {} skills replayed, {} linted ({})",
                counts.replayed,
                counts.linted,
                cache.file().display()
            );
        }
    }
    Ok(code)
}

fn lint_and_print(args: &Args, options: &Options) -> Result<ExitCode, CliError> {
    let format = args
        .format
        .or(args.json.then_some(Format::Json))
        .unwrap_or_else(default_format);
    let whole_run_needed = args.review
        || args.fix
        || args.show_fixes
        || args.statistics
        || args.baseline.is_some()
        || args.write_baseline.is_some();
    match format {
        Format::Json if !whole_run_needed => return stream_json(args, options),
        Format::Human if !whole_run_needed => return stream_human(args, options),
        _ => {}
    }
    let lint = || -> Result<LintRun, CliError> { Ok(lint_paths(&args.paths, options)?) };
    let mut run = lint()?;
    if args.review {
        add_reviews(args, &mut run)?;
    }
    if args.show_fixes {
        super::lint_fixes::show(&run, args.unsafe_fixes)?;
    }
    if args.fix {
        if let Some(code) = apply_fixes(args, options, &run)? {
            return Ok(code);
        }
        run = lint()?;
    }
    if args.statistics {
        write(
            std::io::stdout().lock(),
            &super::lint_fixes::statistics(&run),
        )?;
        return Ok(exit_code(run.had_io_error(), run.summary(), args.strict));
    }
    if let Some(path) = &args.write_baseline {
        write_baseline(&run, path)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(path) = &args.baseline {
        let hidden = Baseline::read(path)?.apply(&mut run, path);
        if hidden > 0 {
            eprintln!("{hidden} findings recorded in {} left out", path.display());
        }
    }
    print_run(args, format, &run)?;
    Ok(exit_code(run.had_io_error(), run.summary(), args.strict))
}

/// `--fix`: writes the fixes and reports them, or with `--diff` only prints them; then the
/// exit code, as `--diff` ends the run.
fn apply_fixes(
    args: &Args,
    options: &Options,
    run: &LintRun,
) -> Result<Option<ExitCode>, CliError> {
    let applying = if args.unsafe_fixes {
        fix::Applying::Unsafe
    } else {
        fix::Applying::Safe
    };
    let fixed: Vec<fix::FixedFile> = run
        .skills
        .iter()
        .filter_map(|r| fix::plan(r, options, applying))
        .collect();
    if args.diff {
        let mut out = std::io::stdout().lock();
        for file in &fixed {
            out.write_all(fix::diff(file).as_bytes())?;
        }
        return Ok(Some(ExitCode::from(u8::from(!fixed.is_empty()))));
    }
    super::lint_fixes::report(&fixed)?;
    Ok(None)
}

fn write_baseline(run: &LintRun, path: &Path) -> Result<(), CliError> {
    let baseline = Baseline::of(run, path);
    baseline.write(path)?;
    eprintln!(
        "Wrote {} findings to {}; `skill lint --baseline {}` leaves them out",
        baseline.findings.len(),
        path.display(),
        path.display()
    );
    Ok(())
}

/// The findings in `format`, after the hint on fixes a human reader gets.
fn print_run(args: &Args, format: Format, run: &LintRun) -> Result<(), CliError> {
    let text = format.render(run, true);
    if format == Format::Human && !args.fix {
        super::lint_fixes::hint(run)?;
    }
    match format {
        // Colours go through anstream, which drops them for pipes and NO_COLOR.
        Format::Human => write(anstream::stdout().lock(), &text)?,
        _ => write(std::io::stdout().lock(), &text)?,
    }
    Ok(())
}

/// Adds each skill's model review to its findings (see `crate::review`).
fn add_reviews(args: &Args, run: &mut LintRun) -> Result<(), CliError> {
    let mode = args.model.mode()?;
    for report in &mut run.skills {
        let rerecord = format!(
            "skill lint {} --review --mode record",
            skill_agent::r#try::shell_path(&report.skill.dir)
        );
        let found =
            skill_agent::review::review(&report.skill, mode, || args.model.http(), &rerecord)
                .map_err(|source| CliError::Review {
                    dir: report.skill.dir.clone(),
                    source: Box::new(source),
                })?;
        report.diagnostics.extend(found);
    }
    Ok(())
}

/// `--format json` without fixes or baselines: each skill is rendered as soon as it is linted
/// and dropped, so the run never holds every skill's text and findings at once.
fn stream_json(args: &Args, options: &Options) -> Result<ExitCode, CliError> {
    let parts = skill_lint::lint_paths_each(&args.paths, options, |report| {
        let entry = skill_lint::report::render_json_skill(&report);
        (entry, report.summary(), report.had_io_error())
    })?;
    let mut summary = skill_lint::Summary::default();
    for (_, s, _) in &parts {
        summary += *s;
    }
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    skill_lint::report::write_json(&mut out, parts.iter().map(|(e, _, _)| e.as_str()), summary)?;
    out.flush()?;
    Ok(exit_code(
        parts.iter().any(|(_, _, io)| *io),
        summary,
        args.strict,
    ))
}

/// The human format, rendered a skill at a time as `stream_json` renders JSON: only the text
/// of the findings and the footer's counts outlive each skill.
fn stream_human(args: &Args, options: &Options) -> Result<ExitCode, CliError> {
    let parts = skill_lint::lint_paths_each(&args.paths, options, |report| {
        let mut footer = skill_lint::report::HumanFooter::default();
        footer.add(&report);
        // Colours go through anstream, which drops them for pipes and NO_COLOR.
        let text = skill_lint::report::render_human_skill(&report, true);
        let fixes = super::lint_fixes::fix_counts(&report);
        (text, footer, fixes, report.had_io_error())
    })?;
    let mut footer = skill_lint::report::HumanFooter::default();
    let (mut safe, mut unsafe_) = (0, 0);
    let mut out = String::new();
    for (text, part, (s, u), _) in &parts {
        out.push_str(text);
        footer.merge(part);
        safe += s;
        unsafe_ += u;
    }
    out.push_str(&footer.render());
    super::lint_fixes::print_hint(safe, unsafe_)?;
    write(anstream::stdout().lock(), &out)?;
    Ok(exit_code(
        parts.iter().any(|(_, _, _, io)| *io),
        footer.summary(),
        args.strict,
    ))
}

/// Whether SKILL_NO_CACHE asks for no cache: set to anything but empty, `0` or `false`.
fn no_cache_set() -> bool {
    std::env::var("SKILL_NO_CACHE").is_ok_and(|v| !matches!(v.trim(), "" | "0" | "false"))
}

fn exit_code(had_io_error: bool, summary: skill_lint::Summary, strict: bool) -> ExitCode {
    let failed = summary.errors > 0 || (strict && summary.warnings > 0);
    if had_io_error {
        ExitCode::from(2)
    } else {
        ExitCode::from(u8::from(failed))
    }
}

/// Flags over skill.toml over defaults.
fn options(args: &Args, config: &Config) -> Result<Options, CliError> {
    let mut options = configured(config, args.target, &args.select, &args.ignore)?;
    options.env_checks &= !args.no_env_checks;
    options.overlap_with = skill_model::similarity::described_in(&args.with);
    if !args.no_cache && !no_cache_set() {
        let folder = skill_model::folders::cache();
        options.cache = Some(Arc::new(Cache::open(&folder, &options)));
    }
    Ok(options)
}

/// The options skill.toml and the target setting give, with rules selected and ignored on top
/// (`skill lint`'s flags, or none for `skill lsp`).
pub(super) fn configured(
    config: &Config,
    target: Option<Target>,
    select: &[String],
    ignore: &[String],
) -> Result<Options, CliError> {
    let lint = &config.lint;
    let select = if select.is_empty() {
        lint.select.clone()
    } else {
        select.to_vec()
    };
    let ignore = lint.ignore.iter().chain(ignore).cloned().collect();
    Ok(Options {
        selection: Selection::new(select, ignore)?,
        path_ignores: config.path_ignores()?,
        env_checks: lint.env_checks.unwrap_or(true),
        budgets: lint.budgets,
        target: chosen_target(target),
        ..Options::inferring()
    })
}

/// The target from `--target`, `SKILL_TARGET` or skill.toml; `None` (each skill's own agent,
/// inferred) when none of them sets one.
fn chosen_target(flag: Option<Target>) -> Option<Target> {
    let setting = crate::config::current().target(flag);
    (setting.origin != crate::config::SettingOrigin::Default).then_some(setting.value)
}

fn default_format() -> Format {
    if std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true") {
        Format::Github
    } else {
        Format::Human
    }
}

fn write(mut out: impl Write, text: &str) -> std::io::Result<()> {
    out.write_all(text.as_bytes())?;
    out.flush()
}
