//! Installing and updating from a registry: download, check every file against the registry's
//! SHA-256s, install with the archive checks, and record the install in ClawHub's
//! `origin.json` and `lock.json`.

use super::client::{Client, ClientError};
use crate::archive::install::{
    InstallError, Installed, LockEntry, Origin, Source, update_lock, write_origin,
};
use crate::archive::reader::{Limits, check_hashes, read_bytes};
use crate::skill::fingerprint::{fingerprint, sha256_hex};
use std::path::{Path, PathBuf};

/// Why a registry install or update failed.
#[derive(Debug, thiserror::Error)]
pub enum RegistryInstallError {
    /// The registry call failed.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// The install failed.
    #[error(transparent)]
    Install(#[from] InstallError),
    /// The skill has no version to install.
    #[error("{0} has no published version")]
    NoVersion(String),
    /// The download does not match the registry's hashes.
    #[error("{slug}@{version}: {message}")]
    Mismatch {
        /// The skill.
        slug: String,
        /// The version.
        version: String,
        /// What differs.
        message: String,
    },
    /// Writing the origin or lock file failed.
    #[error("cannot record the install: {0}")]
    Record(#[from] std::io::Error),
}

/// Installs `slug` (at `version`, else the latest) into `dir`; `None` when the registry has no
/// such skill.
pub fn install(
    client: &Client,
    slug: &str,
    version: Option<&str>,
    dir: &Path,
    force: bool,
) -> Result<Option<Installed>, RegistryInstallError> {
    let Some(detail) = client.skill(slug)? else {
        return Ok(None);
    };
    let version = version
        .map(str::to_owned)
        .or_else(|| {
            detail["latestVersion"]["version"]
                .as_str()
                .map(str::to_owned)
        })
        .ok_or_else(|| RegistryInstallError::NoVersion(slug.to_owned()))?;
    let expected: Vec<(String, String)> = client.version(slug, &version)?["version"]["files"]
        .as_array()
        .map(|fs| {
            fs.iter()
                .filter_map(|f| {
                    Some((
                        f["path"].as_str()?.to_owned(),
                        f["sha256"].as_str()?.to_owned(),
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    let bytes = client.download(slug, &version)?;
    let archive =
        read_bytes(&bytes, &Limits::default()).map_err(|source| InstallError::Archive {
            path: PathBuf::from(slug),
            source,
        })?;
    check_hashes(&archive, &expected).map_err(|message| RegistryInstallError::Mismatch {
        slug: slug.to_owned(),
        version: version.clone(),
        message,
    })?;
    let installed = crate::archive::install::install(
        &Source::Bytes {
            name: slug.to_owned(),
            bytes,
        },
        dir,
        force,
    )?;
    let owner = detail["owner"]["handle"].as_str().map(str::to_owned);
    let now = super::store::now_ms() as u64;
    let origin = Origin {
        version: 1,
        registry: client.base().to_owned(),
        slug: slug.to_owned(),
        owner_handle: owner.clone(),
        installed_version: version.clone(),
        installed_at: now,
        fingerprint: installed.fingerprint.clone(),
    };
    write_origin(&installed.dir, &origin)?;
    update_lock(
        workdir(dir),
        slug,
        Some(&LockEntry {
            version: Some(version),
            installed_at: now,
            owner_handle: owner,
        }),
    )?;
    Ok(Some(installed))
}

/// The folder holding `.clawhub/lock.json` for a skills folder: its parent.
pub fn workdir(dir: &Path) -> &Path {
    dir.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// What `update` did for one skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UpdateOutcome {
    /// Already at the latest version.
    UpToDate(String),
    /// Replaced by a newer version.
    Updated(String),
    /// Edited locally: the files match no published version (left alone without force).
    LocalChanges,
}

/// Brings the installed skill `name` in `dir` to its registry's latest version, the way the
/// clawhub CLI decides: the local files' fingerprint, else the recorded one, names the version
/// installed.
pub fn update(
    name: &str,
    dir: &Path,
    force: bool,
    token: Option<String>,
) -> Result<UpdateOutcome, RegistryInstallError> {
    let skill_dir = dir.join(name);
    let origin_path = skill_dir.join(".clawhub/origin.json");
    let origin: Origin = std::fs::read_to_string(&origin_path)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .ok_or_else(|| InstallError::NotInstalled(skill_dir.clone()))?;
    let client = Client::new(&origin.registry, token);
    let local = local_fingerprint(&skill_dir)?;
    let resolved = client
        .resolve(&origin.slug, &local)?
        .unwrap_or(super::client::Resolved {
            matched: None,
            latest: None,
        });
    let installed = resolved
        .matched
        .or_else(|| (origin.fingerprint == local).then(|| origin.installed_version.clone()));
    let Some(latest) = resolved.latest else {
        return Err(RegistryInstallError::NoVersion(origin.slug));
    };
    match installed {
        None if !force => return Ok(UpdateOutcome::LocalChanges),
        Some(current) if is_current(&current, &latest) => {
            return Ok(UpdateOutcome::UpToDate(current));
        }
        _ => {}
    }
    install(&client, &origin.slug, Some(&latest), dir, true)?;
    Ok(UpdateOutcome::Updated(latest))
}

fn is_current(installed: &str, latest: &str) -> bool {
    match (
        semver::Version::parse(installed),
        semver::Version::parse(latest),
    ) {
        (Ok(a), Ok(b)) => a >= b,
        _ => installed == latest,
    }
}

/// The fingerprint of an installed tree, dot-paths (`.clawhub/`) and the registry's
/// `_meta.json` left out, as ClawHub does, so it matches the published version's.
fn local_fingerprint(dir: &Path) -> Result<String, RegistryInstallError> {
    let files = crate::archive::select_files(dir, false, None).map_err(InstallError::from)?;
    let mut hashes = Vec::new();
    for file in files
        .into_iter()
        .filter(|f| f.path != crate::archive::reader::META_FILE)
    {
        let bytes = std::fs::read(&file.source)?;
        hashes.push((file.path, sha256_hex(&bytes)));
    }
    Ok(fingerprint(&hashes))
}
