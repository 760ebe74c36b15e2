//! `skill new NAME`.

use super::CliError;
use super::output::quiet;
use crate::scaffold::{self, NewSkill, TEMPLATES};
use skill_agent::test::starter::write_starter;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `skill new`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill new pdf-tools --description \"Extract text from PDFs. Use when the user shares a PDF.\"\n  skill new docker-deploy --template cli-tool --bins docker\n  skill new my-github --from github\n  skill new --list-templates"
)]
pub(crate) struct Args {
    /// The skill's name (lowercase letters, digits and hyphens; other forms are normalised).
    #[arg(required_unless_present = "list_templates")]
    pub(crate) name: Option<String>,
    /// The template to start from.
    #[arg(long, short, default_value = "basic", value_parser = templates())]
    pub(crate) template: String,
    /// Start from a copy of a builtin skill instead (`skill builtin list`).
    #[arg(long, conflicts_with = "template")]
    pub(crate) from: Option<String>,
    /// The folder to create the skill in.
    #[arg(long, default_value = ".")]
    pub(crate) dir: PathBuf,
    /// What the skill does and when to use it.
    #[arg(long)]
    pub(crate) description: Option<String>,
    /// Commands the skill runs (comma-separated), declared in requires.bins.
    #[arg(long, value_delimiter = ',')]
    pub(crate) bins: Vec<String>,
    /// Env vars the skill reads (comma-separated), declared in requires.env.
    #[arg(long, value_delimiter = ',')]
    pub(crate) env: Vec<String>,
    /// Resource folders to create: scripts, references, assets (comma-separated).
    #[arg(long, value_delimiter = ',')]
    pub(crate) resources: Vec<String>,
    /// SPDX licence identifier.
    #[arg(long)]
    pub(crate) license: Option<String>,
    /// Do not write the starter scenario (evals/basic.yaml and its cassette).
    #[arg(long)]
    pub(crate) no_evals: bool,
    /// List the templates and exit.
    #[arg(long)]
    pub(crate) list_templates: bool,
}

/// The templates as clap's possible values, each with its line, so `--help` lists them.
fn templates() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(
        TEMPLATES
            .iter()
            .map(|t| clap::builder::PossibleValue::new(t.name).help(t.summary)),
    )
}

/// Creates the skill and says what was written.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    if args.list_templates {
        for t in TEMPLATES {
            println!("{:<10} {}", t.name, t.summary);
        }
        return Ok(ExitCode::SUCCESS);
    }
    let request = NewSkill {
        name: args.name.unwrap_or_default(),
        template: args.template,
        from: args.from,
        parent: args.dir,
        description: args.description,
        bins: args.bins,
        env: args.env,
        resources: args.resources,
        license: args.license,
    };
    let no_evals = args.no_evals;
    let created = scaffold::create(&request)?;
    if let Some(original) = &created.normalised_from {
        eprintln!(
            "note: normalised the name from '{original}' to '{}'",
            created.name
        );
    }
    let mut files = created.files.clone();
    if !no_evals {
        write_eval_starters(&created.dir, &mut files);
    }
    println!("Created {}", created.dir.display());
    if quiet() {
        return Ok(ExitCode::SUCCESS);
    }
    for file in &files {
        println!("  {file}");
    }
    println!(
        "Next: edit {dir}/SKILL.md, then run `skill lint {dir}` and `skill test {dir}`.",
        dir = created.dir.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Writes the starter scenario, trigger set and impact eval into the new skill, adding each to
/// `files`; one that cannot be written is a warning, as the skill itself was created.
fn write_eval_starters(dir: &Path, files: &mut Vec<String>) {
    match write_starter(dir) {
        Ok(_) => files.extend([
            "evals/basic.yaml".into(),
            "evals/cassettes/basic.yaml".into(),
        ]),
        Err(e) => eprintln!("warning: no starter scenario: {e}"),
    }
    let triggers = skill_model::builtin::materialize()
        .map_err(CliError::Builtin)
        .and_then(|root| {
            let distractors =
                skill_agent::eval::skills_of_roots(&[skill_model::catalog::Root::plain(root)]);
            Ok(skill_agent::eval::starter::write_trigger_starter(
                dir,
                &distractors,
            )?)
        });
    match triggers {
        Ok(_) => files.push(format!(
            "{} (and its cassettes)",
            skill_agent::eval::TRIGGERS_FILE
        )),
        Err(e) => eprintln!("warning: no starter trigger set: {e}"),
    }
    match skill_agent::eval::impact::starter::write_impact_starter(dir) {
        Ok(_) => files.push(format!(
            "{} (and its cassettes)",
            skill_agent::eval::impact::EVALS_FILE
        )),
        Err(e) => eprintln!("warning: no starter impact eval: {e}"),
    }
}
