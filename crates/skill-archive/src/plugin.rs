//! Skills as plugins, the unit Claude Code and Codex distribute: a marketplace folder with one
//! plugin per skill. Claude Code 2.1.328 reads `.claude-plugin/marketplace.json` and each
//! plugin's `.claude-plugin/plugin.json`; Codex 0.169.1 reads `.agents/plugins/marketplace.json`
//! and `.codex-plugin/plugin.json` (the zod schemas in Claude Code's binary, `RawPluginManifest`
//! and `RawMarketplaceManifest` in Codex's, each checked against the real CLIs). Both scan a
//! plugin's `skills/NAME/SKILL.md`; Claude Code names a skill by its folder and Codex by its
//! frontmatter `name`, so the two must agree.

use super::pack::{PackError, PackOptions, plan};
use serde_json::json;
use skill_model::document::Document;
use std::path::{Path, PathBuf};

skill_model::choices! {
    /// Which agent's plugin layout to write.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum PluginFormat {
        Claude = "claude": "Claude Code: .claude-plugin/plugin.json and .claude-plugin/marketplace.json.",
        Codex = "codex": "Codex: .codex-plugin/plugin.json and .agents/plugins/marketplace.json.",
    }
}

impl PluginFormat {
    /// A plugin's manifest, relative to the plugin's folder.
    fn manifest(self) -> &'static str {
        match self {
            PluginFormat::Claude => ".claude-plugin/plugin.json",
            PluginFormat::Codex => ".codex-plugin/plugin.json",
        }
    }

    /// The marketplace file, relative to the marketplace's folder.
    fn marketplace(self) -> &'static str {
        match self {
            PluginFormat::Claude => ".claude-plugin/marketplace.json",
            PluginFormat::Codex => ".agents/plugins/marketplace.json",
        }
    }
}

/// The version a plugin gets when its skill declares none (`metadata.version`): both agents
/// want one (Codex files an unversioned plugin under `local`).
const DEFAULT_VERSION: &str = "0.1.0";

/// How to write a marketplace.
#[derive(Debug, Clone)]
pub struct PluginOptions {
    /// Whose layout.
    pub format: PluginFormat,
    /// The marketplace folder to write (must not exist).
    pub output: PathBuf,
    /// The marketplace's name: letters, digits, `_` and `-` (Codex refuses a dot).
    pub marketplace: String,
    /// The marketplace's owner (Claude Code requires `owner.name`; plugins' `author`).
    pub owner: String,
    /// Pack symlinks' targets when they lie inside the skill.
    pub follow_symlinks: bool,
    /// The folder of skills being packed, which the output must not be inside either.
    pub inside: Option<PathBuf>,
}

/// One plugin written.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PluginEntry {
    /// Its name, the skill's.
    pub name: String,
    /// Its version.
    pub version: String,
    /// Files of the skill it carries.
    pub files: usize,
}

/// Why a plugin could not be written; nothing was.
#[derive(Debug, thiserror::Error)]
pub enum PluginError {
    /// Selecting or reading a skill's files failed.
    #[error(transparent)]
    Pack(#[from] PackError),
    /// A name an agent refuses.
    #[error(
        "{0:?} cannot name a plugin: lowercase letters, digits and single hyphens only, at most 64 (Claude Code's kebab-case, which Codex accepts too)"
    )]
    BadName(String),
    /// A marketplace name Codex refuses.
    #[error("{0:?} cannot name a marketplace: letters, digits, `_` and `-` only")]
    BadMarketplace(String),
    /// The skill's SKILL.md cannot give the plugin a name and description.
    #[error("{dir}: {message}")]
    Skill {
        /// The skill folder.
        dir: PathBuf,
        /// What is missing or wrong.
        message: String,
    },
    /// Two skills of one name.
    #[error("two skills are named {0}; a marketplace lists each plugin once")]
    Duplicate(String),
    /// No skill to pack.
    #[error("no skills to pack as plugins")]
    NoSkills,
    /// An empty owner, which Claude Code refuses.
    #[error("the marketplace needs an owner's name")]
    NoOwner,
    /// The output would be inside a folder being packed.
    #[error("{0} is inside {1}, which is being packed; write the plugins elsewhere (-o)")]
    Inside(PathBuf, PathBuf),
    /// A version Codex refuses.
    #[error(
        "{dir}: metadata.version {version:?} cannot version a plugin: letters, digits, `.`, `+`, `_` and `-` only"
    )]
    BadVersion {
        /// The skill folder.
        dir: PathBuf,
        /// The version.
        version: String,
    },
    /// The output exists.
    #[error("{0} exists; remove it or write elsewhere (-o)")]
    Exists(PathBuf),
    /// Writing failed.
    #[error("{path}: {message}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        message: String,
    },
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> PluginError + '_ {
    move |e| PluginError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// What a skill's SKILL.md gives its plugin.
struct Declared {
    name: String,
    description: String,
    version: String,
    /// The frontmatter's `license`, Claude Code's plugin field of that name.
    license: Option<String>,
}

/// Writes the skills `dirs` as a marketplace of one plugin each at `options.output`, whole or
/// not at all.
pub fn pack_plugins(
    dirs: &[PathBuf],
    options: &PluginOptions,
) -> Result<Vec<PluginEntry>, PluginError> {
    if options.marketplace.is_empty()
        || !options
            .marketplace
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return Err(PluginError::BadMarketplace(options.marketplace.clone()));
    }
    if options.output.exists() {
        return Err(PluginError::Exists(options.output.clone()));
    }
    if dirs.is_empty() {
        return Err(PluginError::NoSkills);
    }
    if options.owner.trim().is_empty() {
        return Err(PluginError::NoOwner);
    }
    // Written inside a packed folder, the plugins' copies would be packed with it next time.
    let output = std::path::absolute(&options.output).map_err(io(&options.output))?;
    for dir in dirs.iter().chain(options.inside.iter()) {
        let dir = dir.canonicalize().map_err(io(dir))?;
        if output.starts_with(&dir) {
            return Err(PluginError::Inside(options.output.clone(), dir));
        }
    }
    let mut plugins: Vec<(Declared, PathBuf)> = Vec::new();
    for dir in dirs {
        let declared = declared(dir)?;
        if plugins.iter().any(|(d, _)| d.name == declared.name) {
            return Err(PluginError::Duplicate(declared.name));
        }
        plugins.push((declared, dir.clone()));
    }
    let parent = match options.output.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(io(&parent))?;
    let staging = tempfile::Builder::new()
        .prefix(".plugins.tmp-")
        .tempdir_in(&parent)
        .map_err(io(&parent))?;
    let mut written = Vec::new();
    for (declared, dir) in &plugins {
        written.push(write_plugin(staging.path(), dir, declared, options)?);
    }
    write_json(
        &staging.path().join(options.format.marketplace()),
        &marketplace(&plugins, options),
    )?;
    std::fs::rename(staging.path(), &options.output).map_err(io(&options.output))?;
    Ok(written)
}

/// The plugin's name, description and version from the skill's SKILL.md, checked as the two
/// agents need them.
fn declared(dir: &Path) -> Result<Declared, PluginError> {
    let folder = super::pack::archive_name(dir);
    let skill_error = |message: String| PluginError::Skill {
        dir: dir.to_path_buf(),
        message,
    };
    // Why it cannot be read is `skill lint`'s to say, with the line.
    let document = Document::read(&dir.join(skill_model::layout::SKILL_MD))
        .map_err(|_| skill_error("SKILL.md cannot be read; `skill lint` says why".to_owned()))?;
    let manifest = document.into_manifest().map_err(|_| {
        skill_error("SKILL.md has no frontmatter to read; `skill lint` says why".to_owned())
    })?;
    let text = |key: &str| {
        manifest
            .value(key)
            .and_then(|n| n.as_str())
            .map(str::to_owned)
    };
    let name = text("name").unwrap_or_default();
    if name != folder {
        return Err(skill_error(format!(
            "the frontmatter name is {name:?} but the folder is {folder:?}; Codex names a plugin's skill by the one and Claude Code by the other"
        )));
    }
    if !is_kebab(&name) {
        return Err(PluginError::BadName(name));
    }
    let description = text("description")
        .filter(|d| !d.trim().is_empty())
        .ok_or_else(|| skill_error("SKILL.md has no description for the plugin".to_owned()))?;
    let version = manifest
        .value("metadata")
        .and_then(|m| m.get("version"))
        .and_then(|v| v.as_str())
        .unwrap_or(DEFAULT_VERSION)
        .to_owned();
    let version_ok = !version.is_empty()
        && version
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b".+_-".contains(&b));
    if !version_ok {
        return Err(PluginError::BadVersion {
            dir: dir.to_path_buf(),
            version,
        });
    }
    Ok(Declared {
        name,
        description,
        version,
        license: text("license"),
    })
}

/// Claude Code's kebab-case, which both agents accept as a plugin name.
fn is_kebab(name: &str) -> bool {
    name.len() <= 64
        && !name.is_empty()
        && name.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// Writes `plugins/NAME/` into `root`: the manifest and `skills/NAME/` with the files `skill
/// pack` would ship.
fn write_plugin(
    root: &Path,
    dir: &Path,
    declared: &Declared,
    options: &PluginOptions,
) -> Result<PluginEntry, PluginError> {
    let plugin = root.join("plugins").join(&declared.name);
    let pack = PackOptions {
        output: None,
        follow_symlinks: options.follow_symlinks,
        timestamp: None,
    };
    let files = plan(dir, &pack)?;
    let skill = plugin.join("skills").join(&declared.name);
    for file in &files {
        let target = skill.join(&file.path);
        if let Some(folder) = target.parent() {
            std::fs::create_dir_all(folder).map_err(io(folder))?;
        }
        std::fs::copy(&file.source, &target).map_err(io(&target))?;
    }
    let mut manifest = json!({
        "name": declared.name,
        "version": declared.version,
        "description": declared.description,
    });
    if options.format == PluginFormat::Claude {
        manifest["author"] = json!({"name": options.owner});
        if let Some(license) = &declared.license {
            manifest["license"] = json!(license);
        }
    }
    write_json(&plugin.join(options.format.manifest()), &manifest)?;
    Ok(PluginEntry {
        name: declared.name.clone(),
        version: declared.version.clone(),
        files: files.len(),
    })
}

/// The marketplace file's content.
fn marketplace(plugins: &[(Declared, PathBuf)], options: &PluginOptions) -> serde_json::Value {
    let entries: Vec<serde_json::Value> = plugins
        .iter()
        .map(|(d, _)| {
            let path = format!("./plugins/{}", d.name);
            match options.format {
                PluginFormat::Claude => json!({
                    "name": d.name,
                    "source": path,
                    "description": d.description,
                    "version": d.version,
                }),
                PluginFormat::Codex => json!({
                    "name": d.name,
                    "source": {"source": "local", "path": path},
                }),
            }
        })
        .collect();
    match options.format {
        PluginFormat::Claude => json!({
            "name": options.marketplace,
            "description": format!("Skills packed by skill: {}", plugins.iter().map(|(d, _)| d.name.as_str()).collect::<Vec<_>>().join(", ")),
            "owner": {"name": options.owner},
            "plugins": entries,
        }),
        PluginFormat::Codex => json!({
            "name": options.marketplace,
            "plugins": entries,
        }),
    }
}

fn write_json(path: &Path, value: &serde_json::Value) -> Result<(), PluginError> {
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder).map_err(io(folder))?;
    }
    let mut text = serde_json::to_string_pretty(value).expect("a manifest is JSON");
    text.push('\n');
    std::fs::write(path, text).map_err(io(path))
}
