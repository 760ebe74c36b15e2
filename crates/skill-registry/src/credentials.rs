//! The token the client sends, and what `skill login` stores: `SKILL_TOKEN` / `CLAWHUB_TOKEN`,
//! else the credentials file (`~/.config/skill/credentials.json`, mode 0600), which also
//! remembers the registry last logged in to. Which registry to talk to is a shared setting
//! (`skill_model::settings_file::user_dir`).

use std::path::PathBuf;

/// What is stored after `skill login`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Credentials {
    /// The registry logged in to.
    pub registry: Option<String>,
    /// The token for it.
    pub token: Option<String>,
}

/// The credentials file: `credentials.json` in the user's config folder.
pub fn path() -> PathBuf {
    skill_model::settings_file::user_dir().join("credentials.json")
}

/// Reads the credentials file (empty when there is none).
pub fn load() -> Credentials {
    std::fs::read_to_string(path())
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

/// Writes the credentials file, readable by its owner only, through a temporary file.
pub fn save(credentials: &Credentials) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let path = path();
    let dir = path.parent().map(PathBuf::from).unwrap_or_default();
    std::fs::create_dir_all(&dir)?;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))?;
    let mut temp = tempfile::NamedTempFile::new_in(&dir)?;
    let mut text = serde_json::to_string_pretty(credentials).map_err(std::io::Error::other)?;
    text.push('\n');
    std::io::Write::write_all(&mut temp, text.as_bytes())?;
    std::fs::set_permissions(temp.path(), std::fs::Permissions::from_mode(0o600))?;
    temp.persist(&path).map_err(|e| e.error)?;
    Ok(())
}

/// The first of `names` that is set and not blank.
fn env(names: &[&str]) -> Option<String> {
    names
        .iter()
        .find_map(|n| std::env::var(n).ok().filter(|v| !v.trim().is_empty()))
}

/// The token for `registry`: the environment's, else the stored one if it was stored for that
/// registry.
pub fn token(registry: &str) -> Option<String> {
    env(&["SKILL_TOKEN", "CLAWHUB_TOKEN"]).or_else(|| {
        let stored = load();
        (stored.registry.as_deref().map(|r| r.trim_end_matches('/')) == Some(registry))
            .then_some(stored.token)
            .flatten()
    })
}
