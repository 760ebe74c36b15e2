//! `skill config show`: each shared setting, its value, and where it came from.

use super::CliError;
use crate::config::{self, Setting};
use std::process::ExitCode;

/// Arguments of `skill config`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  skill config show --json")]
pub(crate) struct Args {
    /// What to do.
    #[command(subcommand)]
    pub(crate) action: Action,
}

/// `skill config` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum Action {
    /// Show the settings in effect here and where each comes from.
    #[command(
        after_help = "Example:\n  skill config show\n\nPrecedence: flags > env (SKILL_REGISTRY, SKILL_TARGET, SKILL_PROVIDER, SKILL_MODEL) >\nskill.toml (from this folder upwards) > the user's config.toml > defaults."
    )]
    Show {
        /// Print JSON.
        #[arg(long)]
        json: bool,
    },
}

/// Shows the settings.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let Action::Show { json } = args.action;
    let settings = config::init()?;
    let provider = settings.provider(None);
    let model = settings.model(None, provider.value);
    let rows: Vec<(&str, Setting<String>)> = vec![
        ("registry", super::registry_setting(None)),
        ("target", text(settings.target(None))),
        ("provider", text(provider)),
        ("model", model),
    ];
    let files = Files {
        project: settings
            .project
            .as_ref()
            .map(|(p, _)| p.display().to_string()),
        user_exists: settings.user.is_some(),
    };
    if json {
        show_json(&rows, &files)?;
    } else {
        show_text(&rows, &files);
    }
    Ok(ExitCode::SUCCESS)
}

/// The settings files found.
struct Files {
    /// The project's `skill.toml`, if one was found from here upwards.
    project: Option<String>,
    /// Whether the user's `config.toml` exists.
    user_exists: bool,
}

fn show_json(rows: &[(&str, Setting<String>)], files: &Files) -> Result<(), CliError> {
    let mut settings = serde_json::Map::new();
    for (name, setting) in rows {
        settings.insert(
            (*name).to_owned(),
            serde_json::json!({"value": setting.value, "origin": setting.origin}),
        );
    }
    let out = serde_json::json!({
        "settings": settings,
        "files": {"project": files.project, "user": config::user_file(),
            "user_exists": files.user_exists},
    });
    super::output::print_json(&out, true)?;
    Ok(())
}

fn show_text(rows: &[(&str, Setting<String>)], files: &Files) {
    let width = rows.iter().map(|(_, s)| s.value.len()).max().unwrap_or(0);
    for (name, setting) in rows {
        println!("{name:<9} {:<width$}  ({})", setting.value, setting.origin);
    }
    println!();
    println!(
        "project file  {}",
        files.project.clone().unwrap_or_else(|| format!(
            "none ({} not found from here upwards)",
            skill_model::layout::PROJECT_FILE
        ))
    );
    println!(
        "user file     {}{}",
        config::user_file().display(),
        if files.user_exists {
            ""
        } else {
            " (not found)"
        }
    );
}

fn text<T: serde::Serialize>(setting: Setting<T>) -> Setting<String> {
    let value = serde_json::to_value(&setting.value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    Setting {
        value,
        origin: setting.origin,
    }
}
