//! `skill new`: a skill folder from a template in `skill-templates/` (minijinja, embedded in the
//! binary) or from a builtin skill. Never overwrites: the folder is written aside and renamed
//! into place.

use skill_model::builtin;
use skill_model::layout::{SKILL_MD, title_case};
use skill_model::yaml::plain_or_quoted;
use std::path::{Path, PathBuf};

/// A template: its name, a line about it, and its files (path template, contents template).
#[derive(Debug)]
pub struct Template {
    /// The name given to `--template`.
    pub name: &'static str,
    /// What it is for.
    pub summary: &'static str,
    /// Files; a `.j2` suffix is dropped from the path.
    pub files: &'static [(&'static str, &'static str)],
}

/// Every template.
pub static TEMPLATES: &[Template] = &[
    Template {
        name: "basic",
        summary: "instructions only: when to use the skill and the steps (the default)",
        files: &[(
            "SKILL.md.j2",
            include_str!("../skill-templates/basic/SKILL.md.j2"),
        )],
    },
    Template {
        name: "cli-tool",
        summary: "drives one command-line tool, declared in requires.bins with an install hint",
        files: &[(
            "SKILL.md.j2",
            include_str!("../skill-templates/cli-tool/SKILL.md.j2"),
        )],
    },
    Template {
        name: "scripted",
        summary: "runs an executable script in scripts/, referenced from SKILL.md",
        files: &[
            (
                "SKILL.md.j2",
                include_str!("../skill-templates/scripted/SKILL.md.j2"),
            ),
            (
                "scripts/run.sh.j2",
                include_str!("../skill-templates/scripted/scripts/run.sh.j2"),
            ),
        ],
    },
];

/// The resource folders `--resources` may create.
pub(crate) const RESOURCES: [&str; 3] = ["scripts", "references", "assets"];

/// What `skill new` needs.
#[derive(Debug, Clone, Default)]
pub(crate) struct NewSkill {
    /// The name as typed (normalised if possible).
    pub(crate) name: String,
    /// The template name (`basic` when empty).
    pub(crate) template: String,
    /// A builtin skill to copy instead of a template.
    pub(crate) from: Option<String>,
    /// The folder to create the skill in.
    pub(crate) parent: PathBuf,
    /// The description (a TODO placeholder when absent).
    pub(crate) description: Option<String>,
    /// Commands to declare.
    pub(crate) bins: Vec<String>,
    /// Env vars to declare.
    pub(crate) env: Vec<String>,
    /// Resource folders to create.
    pub(crate) resources: Vec<String>,
    /// SPDX licence.
    pub(crate) license: Option<String>,
}

/// What was created.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Created {
    /// The skill folder.
    pub(crate) dir: PathBuf,
    /// The name used.
    pub(crate) name: String,
    /// Set when the name given was normalised: the original.
    pub(crate) normalised_from: Option<String>,
    /// Files written, relative to the folder.
    pub(crate) files: Vec<String>,
}

/// Why a skill could not be created.
#[derive(Debug, thiserror::Error)]
pub(crate) enum ScaffoldError {
    /// No usable name.
    #[error("'{name}' cannot be a skill name: {reason}")]
    BadName {
        /// The name given.
        name: String,
        /// The rule it breaks.
        reason: &'static str,
    },
    /// The folder exists.
    #[error("{0} already exists; skill new never overwrites (choose another name or --dir)")]
    Exists(PathBuf),
    /// Unknown template.
    #[error("unknown template '{0}'; `skill new --list-templates` lists them")]
    UnknownTemplate(String),
    /// Unknown builtin.
    #[error("unknown builtin skill '{0}'; `skill builtin list` lists them")]
    UnknownBuiltin(String),
    /// An unknown resource folder.
    #[error("unknown resource folder '{0}'; expected scripts, references or assets")]
    UnknownResource(String),
    /// A template failed to render (a bug in a template).
    #[error("template {template}: {message}")]
    Template {
        /// The template file.
        template: String,
        /// minijinja's message.
        message: String,
    },
    /// Writing failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// What was being written.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

/// Normalises a name the way skill-creator's `init_skill.py` does: lower case, runs of other
/// characters to one `-`, no leading or trailing `-`. Errors when nothing usable is left.
pub(crate) fn normalise_name(raw: &str) -> Result<String, ScaffoldError> {
    let mut name = String::new();
    for c in raw.trim().chars().flat_map(char::to_lowercase) {
        if c.is_ascii_lowercase() || c.is_ascii_digit() {
            name.push(c);
        } else if !name.ends_with('-') {
            name.push('-');
        }
    }
    let name = name.trim_matches('-').to_owned();
    let bad = |reason| ScaffoldError::BadName {
        name: raw.to_owned(),
        reason,
    };
    if name.is_empty() {
        return Err(bad(
            "it has no letters or digits (names are lowercase a-z, 0-9 and hyphens)",
        ));
    }
    if name.chars().count() > 64 {
        return Err(bad("names are at most 64 characters"));
    }
    Ok(name)
}

/// Creates the skill.
pub(crate) fn create(request: &NewSkill) -> Result<Created, ScaffoldError> {
    let name = normalise_name(&request.name)?;
    let normalised_from = (name != request.name).then(|| request.name.clone());
    for r in &request.resources {
        if !RESOURCES.contains(&r.as_str()) {
            return Err(ScaffoldError::UnknownResource(r.clone()));
        }
    }
    let dir = request.parent.join(&name);
    if dir.exists() {
        return Err(ScaffoldError::Exists(dir));
    }
    let files = match &request.from {
        Some(from) => from_builtin(from, &name)?,
        None => from_template(request, &name)?,
    };
    write_atomically(&request.parent, &dir, &files)?;
    let files = files.into_iter().map(|f| f.path).collect();
    Ok(Created {
        dir,
        name,
        normalised_from,
        files,
    })
}

/// A file to write.
struct File {
    path: String,
    contents: String,
    executable: bool,
}

fn from_template(request: &NewSkill, name: &str) -> Result<Vec<File>, ScaffoldError> {
    let template_name = if request.template.is_empty() {
        "basic"
    } else {
        request.template.as_str()
    };
    let template = TEMPLATES
        .iter()
        .find(|t| t.name == template_name)
        .ok_or_else(|| ScaffoldError::UnknownTemplate(template_name.to_owned()))?;
    let title = title_case(name);
    let mut bins = request.bins.clone();
    if template.name == "cli-tool" && bins.is_empty() {
        bins.push(name.to_owned());
    }
    let description = request
        .description
        .clone()
        .unwrap_or_else(|| placeholder_description(template.name, &title, bins.first()));
    let mut env = minijinja::Environment::new();
    env.add_filter("yaml", |value: String| plain_or_quoted(&value));
    let tool = bins.first().cloned().unwrap_or_default();
    let context = minijinja::context! {
        name, title, description, bins, tool,
        env => request.env.clone(), license => request.license.clone(), resources => request.resources.clone(),
    };
    let mut files = Vec::new();
    for (path, source) in template.files {
        let rendered = env
            .render_str(source, &context)
            .map_err(|e| ScaffoldError::Template {
                template: format!("{}/{path}", template.name),
                message: e.to_string(),
            })?;
        let path = path.trim_end_matches(".j2").to_owned();
        let executable = path.starts_with("scripts/");
        files.push(File {
            path,
            contents: rendered.trim_end().to_owned() + "\n",
            executable,
        });
    }
    for resource in &request.resources {
        if !files
            .iter()
            .any(|f| f.path.starts_with(&format!("{resource}/")))
        {
            files.push(File {
                path: format!("{resource}/README.md"),
                contents: resource_readme(resource),
                executable: false,
            });
        }
    }
    Ok(files)
}

fn placeholder_description(template: &str, title: &str, tool: Option<&String>) -> String {
    match (template, tool) {
        ("cli-tool", Some(tool)) => {
            format!("TODO: what {title} does with {tool}. Use when the user asks to ...")
        }
        _ => format!("TODO: what {title} does. Use when the user asks to ..."),
    }
}

fn resource_readme(resource: &str) -> String {
    let what = match resource {
        "scripts" => {
            "Executable code the skill runs (give each file a `#!` line and the executable bit)."
        }
        "references" => "Documentation an agent reads on demand; link each file from SKILL.md.",
        _ => "Templates, images and data files the skill uses in its output.",
    };
    format!("# {resource}\n\n{what}\n")
}

fn from_builtin(from: &str, name: &str) -> Result<Vec<File>, ScaffoldError> {
    let skill =
        builtin::find(from).ok_or_else(|| ScaffoldError::UnknownBuiltin(from.to_owned()))?;
    // The builtin's scenarios name the builtin; the copy gets its own starter instead.
    let evals = format!("{}/", skill_model::layout::EVALS_DIR);
    Ok(skill
        .files
        .iter()
        .filter(|(path, _)| !path.starts_with(&evals))
        .map(|(path, contents)| {
            // The copy gets the new name; only the frontmatter's `name:` line changes.
            let contents = if *path == SKILL_MD {
                contents.replacen(
                    &format!("\nname: {}\n", skill.name),
                    &format!("\nname: {name}\n"),
                    1,
                )
            } else {
                (*contents).to_owned()
            };
            File {
                path: (*path).to_owned(),
                contents,
                executable: path.starts_with("scripts/"),
            }
        })
        .collect())
}

fn write_atomically(parent: &Path, dir: &Path, files: &[File]) -> Result<(), ScaffoldError> {
    use std::os::unix::fs::PermissionsExt;
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ScaffoldError::Io { path, source }
    };
    std::fs::create_dir_all(parent).map_err(io(parent))?;
    let staging = tempfile::Builder::new()
        .prefix(".skill-new-")
        .tempdir_in(parent)
        .map_err(io(parent))?;
    for file in files {
        let target = staging.path().join(&file.path);
        if let Some(folder) = target.parent() {
            std::fs::create_dir_all(folder).map_err(io(folder))?;
        }
        std::fs::write(&target, &file.contents).map_err(io(&target))?;
        let mode = if file.executable { 0o755 } else { 0o644 };
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(mode))
            .map_err(io(&target))?;
    }
    std::fs::set_permissions(staging.path(), std::fs::Permissions::from_mode(0o755))
        .map_err(io(dir))?;
    // rename(2) onto an existing folder would fail for a non-empty one; check again to be clear.
    if dir.exists() {
        return Err(ScaffoldError::Exists(dir.to_path_buf()));
    }
    std::fs::rename(staging.path(), dir).map_err(io(dir))?;
    let _ = staging.keep();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_normalise_like_init_skill() {
        assert_eq!(normalise_name("Docker Deploy").unwrap(), "docker-deploy");
        assert_eq!(normalise_name("  my__skill!! ").unwrap(), "my-skill");
        assert!(normalise_name("!!!").is_err());
        assert!(normalise_name(&"a".repeat(65)).is_err());
        assert_eq!(title_case("docker-deploy"), "Docker Deploy");
    }
}
