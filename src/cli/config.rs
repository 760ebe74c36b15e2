//! `skill config show`: each shared setting, its value, and where it came from.

use super::CliError;
use crate::config::{self, Setting};
use std::process::ExitCode;

/// Arguments of `skill config`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  skill config show --json")]
pub struct Args {
    /// What to do.
    #[command(subcommand)]
    pub action: Action,
}

/// `skill config` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum Action {
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
pub fn run(args: Args) -> Result<ExitCode, CliError> {
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
    let files = [
        (
            "project",
            settings
                .project
                .as_ref()
                .map(|(p, _)| p.display().to_string()),
        ),
        (
            "user",
            Some(config::user_file().display().to_string()).filter(|_| settings.user.is_some()),
        ),
    ];
    if json {
        let mut settings = serde_json::Map::new();
        for (name, setting) in &rows {
            settings.insert(
                (*name).to_owned(),
                serde_json::json!({"value": setting.value, "origin": setting.origin}),
            );
        }
        let out = serde_json::json!({
            "settings": settings,
            "files": {"project": files[0].1, "user": config::user_file(),
                "user_exists": files[1].1.is_some()},
        });
        super::output::print_json(&out, true)?;
        return Ok(ExitCode::SUCCESS);
    }
    let width = rows.iter().map(|(_, s)| s.value.len()).max().unwrap_or(0);
    for (name, setting) in &rows {
        println!("{name:<9} {:<width$}  ({})", setting.value, setting.origin);
    }
    println!();
    println!(
        "project file  {}",
        files[0].1.clone().unwrap_or_else(|| format!(
            "none ({} not found from here upwards)",
            skill_model::layout::PROJECT_FILE
        ))
    );
    println!(
        "user file     {}{}",
        config::user_file().display(),
        if settings.user.is_some() {
            ""
        } else {
            " (not found)"
        }
    );
    Ok(ExitCode::SUCCESS)
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
