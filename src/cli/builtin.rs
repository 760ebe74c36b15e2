//! `skill builtin list` and `skill builtin show NAME`.

use super::CliError;
use skill_model::builtin::{self, BUILTINS};
use skill_model::layout::SKILL_MD;
use skill_model::{Document, Source};
use std::process::ExitCode;

/// Arguments of `skill builtin`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill builtin list\n  skill builtin show tmux\n  skill new my-tmux --from tmux"
)]
pub(crate) struct Args {
    /// What to do.
    #[command(subcommand)]
    pub(crate) action: Action,
}

/// `skill builtin` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Action {
    /// List the skills shipped with skill.
    #[command(after_help = "Example:\n  skill builtin list")]
    List,
    /// Print a builtin skill's SKILL.md.
    #[command(after_help = "Example:\n  skill builtin show safe-shell")]
    Show {
        /// The skill's name.
        name: String,
    },
    /// Write a builtin skill into a skills folder, where agents load it (builtins are
    /// otherwise in no agent's view).
    #[command(
        after_help = "Examples:\n  skill builtin install tmux                  into ./skills\n  skill builtin install github --agent claude  into .agents/skills, linked from .claude/skills"
    )]
    Install {
        /// The skill's name.
        name: String,
        /// The skills folder to install into.
        #[command(flatten)]
        skills: super::skills_dir::SkillsDir,
    },
}

/// Writes the builtin `name` into `root`; an existing folder of that name is left alone.
fn install(name: &str, root: &std::path::Path) -> Result<(), CliError> {
    let skill = builtin::find(name).ok_or_else(|| CliError::UnknownSkills(name.to_owned()))?;
    let target = root.join(skill.name);
    if target.exists() {
        return Err(CliError::Usage(format!(
            "{} exists; remove it first to install the builtin {name} again",
            target.display()
        )));
    }
    // Written beside its place and renamed in, so a failure leaves no half skill.
    std::fs::create_dir_all(root)?;
    let temp = tempfile::tempdir_in(root)?;
    // The scenarios and cassettes stay with skill, as pack leaves them out of an archive.
    let evals = format!("{}/", skill_model::layout::EVALS_DIR);
    for (path, contents) in skill.files.iter().filter(|(p, _)| !p.starts_with(&evals)) {
        let file = temp.path().join(skill.name).join(path);
        std::fs::create_dir_all(file.parent().unwrap_or(temp.path()))?;
        std::fs::write(file, contents)?;
    }
    std::fs::rename(temp.path().join(skill.name), &target)?;
    println!("Installed the builtin {name} into {}", target.display());
    Ok(())
}

/// Lists or shows builtin skills.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    match args.action {
        Action::List => list(),
        Action::Install { name, skills } => install_into(&name, &skills)?,
        Action::Show { name } => show(&name)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// One line per builtin: its name and the first sentence of its description.
fn list() {
    for skill in BUILTINS {
        let (_, text) = skill
            .files
            .iter()
            .find(|(p, _)| *p == SKILL_MD)
            .copied()
            .unwrap_or(("", ""));
        let doc = Document::parse(Source::new(text.to_owned()));
        let description = doc
            .manifest()
            .as_ref()
            .ok()
            .and_then(|m| m.value("description"))
            .and_then(|v| v.as_str())
            .unwrap_or("");
        let short = description
            .split(". ")
            .next()
            .unwrap_or(description)
            .trim_end_matches('.');
        println!("{:<15} {short}", skill.name);
    }
}

/// `skill builtin install`: writes the skill, and in a shared install records and places it.
fn install_into(name: &str, skills: &super::skills_dir::SkillsDir) -> Result<(), CliError> {
    let placement = skills.placement()?;
    if let Some(placement) = &placement {
        placement.check_room(name, false, &placement.lock()?)?;
    }
    install(name, &skills.path())?;
    if let Some(placement) = &placement {
        let entry = crate::shared_install::lock::LockedSkill {
            source: name.to_owned(),
            source_type: "builtin".to_owned(),
            ..Default::default()
        };
        super::install::share(placement, name, entry, false)?;
    }
    Ok(())
}

/// `skill builtin show`: its SKILL.md on stdout, the names of its other files on stderr.
fn show(name: &str) -> Result<(), CliError> {
    let skill = builtin::find(name).ok_or_else(|| CliError::UnknownSkills(name.to_owned()))?;
    let mut others = Vec::new();
    for (path, contents) in skill.files {
        if *path == SKILL_MD {
            print!("{contents}");
        } else {
            others.push(*path);
        }
    }
    if !others.is_empty() {
        eprintln!(
            "also in {name}: {} (`skill new NAME --from {name}` copies the skill)",
            others.join(", ")
        );
    }
    Ok(())
}
