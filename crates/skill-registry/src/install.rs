//! Installing and updating from a registry: download, check every file against the registry's
//! SHA-256s, install with the archive checks, and record the install in ClawHub's
//! `origin.json` and `lock.json`.

use super::client::{Client, ClientError};
use super::lock::{LockEntry, LockError, LockFile, LockGuard, Origin};
use skill_archive::install::{Input, InstallError, InstallPolicy, Installed, Pending};
use skill_archive::reader::{Limits, check_hashes, read_bytes};
use skill_archive::signature::{self, SignatureError, Signer, TrustPolicy};
use skill_model::fingerprint::{fingerprint, manifest, sha256_hex};
use skill_model::layout::ORIGIN_FILE;
use std::collections::BTreeMap;
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
    /// A lock or origin file is unusable, or writing one failed.
    #[error(transparent)]
    Lock(#[from] LockError),
    /// The version's signature is missing where required, bad, or by an untrusted key.
    #[error(transparent)]
    Signature(#[from] SignatureError),
    /// An installed file could not be read.
    #[error("{}: {source}", path.display())]
    Read {
        /// The file.
        path: std::path::PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// `update` of a skill the lock file does not list.
    #[error("{name}: not in {lock}; only registry installs can be updated")]
    NotLocked {
        /// The skill.
        name: String,
        /// The lock file.
        lock: PathBuf,
    },
    /// The install has no origin record.
    #[error("{0}: no .clawhub/origin.json; reinstall it from the registry")]
    NoOrigin(PathBuf),
    /// The lock entry, the folder and origin.json name different skills or versions.
    #[error("{name}: {message}; reinstall it from the registry")]
    Disagree {
        /// The skill.
        name: String,
        /// What differs.
        message: String,
    },
    /// The install came from another registry than the one configured.
    #[error("{name}: installed from {origin}, but the registry is {configured}")]
    OtherRegistry {
        /// The skill.
        name: String,
        /// The registry in origin.json.
        origin: String,
        /// The registry configured.
        configured: String,
    },
}

/// Installs `slug` (at `version`, else the latest) into `dir`; `None` when the registry has no
/// such skill. A download the security scan finds errors in is refused.
pub fn install(
    client: &Client,
    slug: &str,
    version: Option<&str>,
    dir: &Path,
    force: bool,
) -> Result<Option<Installed>, RegistryInstallError> {
    install_with(client, slug, version, dir, force, &InstallPolicy::default())
}

/// [`install`] under `policy`: what a security error in the download does, and the version's
/// signature checked under its trust (not fetched when that has no keys and requires none).
pub fn install_with(
    client: &Client,
    slug: &str,
    version: Option<&str>,
    dir: &Path,
    force: bool,
    policy: &InstallPolicy,
) -> Result<Option<Installed>, RegistryInstallError> {
    // A broken lock file stops the install before anything is downloaded or written.
    LockFile::read(workdir(dir))?;
    let Some(detail) = client.skill(slug)? else {
        return Ok(None);
    };
    let version = version
        .map(str::to_owned)
        .or_else(|| detail.latest_version.as_ref().map(|v| v.version.clone()))
        .ok_or_else(|| RegistryInstallError::NoVersion(slug.to_owned()))?;
    let CheckedDownload {
        bytes,
        sha256,
        signer,
    } = download_checked(client, slug, &version, &policy.trust)?;
    // Held until the lock file is written: another install into this root waits, then reads
    // the lock file with this one's entry in it.
    let _guard = LockGuard::take(workdir(dir))?;
    let mut lock = LockFile::read(workdir(dir))?;
    let pending = skill_archive::install::install_pending(
        &Input::Bytes {
            name: slug.to_owned(),
            bytes,
        },
        dir,
        force,
        policy.risk,
    )?;
    // Installed already, exactly, at this version: nothing is written, records included.
    if pending.installed.unchanged
        && lock
            .get(slug)
            .is_some_and(|e| e.version.as_deref() == Some(version.as_str()))
    {
        return Ok(Some(pending.commit()));
    }
    let record = Record {
        client,
        slug,
        version,
        owner: detail.owner.map(|o| o.handle),
        sha256,
        signer: signer.map(|s| s.key_id),
    };
    record.write_or_roll_back(pending, &mut lock).map(Some)
}

/// A version's download, checked against the registry's file list and the version's signature.
struct CheckedDownload {
    /// The archive.
    bytes: Vec<u8>,
    /// The archive's SHA-256.
    sha256: String,
    /// Who signed the version, when the trust policy checked a signature.
    signer: Option<Signer>,
}

/// Downloads `version` of `slug` and checks it against the registry's file list and, under
/// `trust`, the version's signature.
fn download_checked(
    client: &Client,
    slug: &str,
    version: &str,
    trust: &TrustPolicy,
) -> Result<CheckedDownload, RegistryInstallError> {
    let expected = listed_files(client, slug, version)?;
    let bytes = client.download(slug, version)?;
    let sha256 = sha256_hex(&bytes);
    let archive =
        read_bytes(&bytes, &Limits::default()).map_err(|source| InstallError::Archive {
            path: PathBuf::from(slug),
            source,
        })?;
    check_hashes(&archive, &expected).map_err(|message| RegistryInstallError::Mismatch {
        slug: slug.to_owned(),
        version: version.to_owned(),
        message,
    })?;
    let signer = check_signature(client, slug, version, &expected, trust)?;
    Ok(CheckedDownload {
        bytes,
        sha256,
        signer,
    })
}

/// What a registry install writes down: `origin.json` in the skill, its entry in the lock file.
struct Record<'a> {
    client: &'a Client,
    slug: &'a str,
    version: String,
    owner: Option<String>,
    sha256: String,
    signer: Option<String>,
}

impl Record<'_> {
    /// Writes the records and commits `pending`. An install the lock file does not list is one
    /// `verify` and `--frozen` never see: when the records cannot be written, the install is
    /// undone.
    fn write_or_roll_back(
        self,
        pending: Pending,
        lock: &mut LockFile,
    ) -> Result<Installed, RegistryInstallError> {
        match self.write(&pending.installed, lock) {
            Ok(()) => Ok(pending.commit()),
            Err(e) => {
                pending.roll_back()?;
                Err(e)
            }
        }
    }

    fn write(self, installed: &Installed, lock: &mut LockFile) -> Result<(), RegistryInstallError> {
        let Record {
            client,
            slug,
            version,
            owner,
            sha256,
            signer,
        } = self;
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
        origin.write(&installed.dir)?;
        let extra = lock.get(slug).map(|e| e.extra.clone()).unwrap_or_default();
        lock.set(
            slug,
            LockEntry {
                version: Some(version),
                installed_at: now,
                owner_handle: owner,
                sha256: Some(sha256),
                fingerprint: Some(installed.fingerprint.clone()),
                signer,
                files: Some(skill_files(installed.hashes.iter().cloned()).collect()),
                extra,
            },
        );
        lock.write()?;
        Ok(())
    }
}

/// The version's files as the registry lists them: (path, SHA-256), what a download is checked
/// against and what its signature covers.
fn listed_files(
    client: &Client,
    slug: &str,
    version: &str,
) -> Result<Vec<(String, String)>, RegistryInstallError> {
    Ok(client
        .version(slug, version)?
        .version
        .files
        .into_iter()
        .map(|f| (f.path, f.sha256))
        .collect())
}

/// Checks the version's signature of its file manifest (`files`, which the download has just
/// been checked against) under `trust`; the signer, or `None` for an unsigned version the
/// policy allows. A good signature whose trusted comment names another skill, version or file
/// set is refused too.
fn check_signature(
    client: &Client,
    slug: &str,
    version: &str,
    files: &[(String, String)],
    trust: &TrustPolicy,
) -> Result<Option<Signer>, RegistryInstallError> {
    if trust.keys.is_empty() && !trust.require {
        return Ok(None);
    }
    let text = client.signature(slug, version)?;
    let name = format!("{slug}@{version}");
    let signer = signature::check(&name, manifest(files).as_bytes(), text.as_deref(), trust)?;
    if let Some(signer) = &signer {
        let expected = signature::manifest_comment(slug, version, &fingerprint(files));
        signature::check_comment(&name, signer, &expected)?;
    }
    Ok(signer)
}

/// The folder holding `.clawhub/lock.json` for a skills folder: its parent.
pub(crate) fn workdir(dir: &Path) -> &Path {
    dir.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Removes the installed skill `name` from `dir` and its lock entry; the lock file is read and
/// checked before anything is removed.
pub fn uninstall(dir: &Path, name: &str) -> Result<PathBuf, RegistryInstallError> {
    let listed = LockFile::read(workdir(dir))?.get(name).is_some();
    let removed = skill_archive::install::remove(dir, name)?;
    if listed {
        // Read again under the hold: another install may have written it since.
        let _guard = LockGuard::take(workdir(dir))?;
        let mut lock = LockFile::read(workdir(dir))?;
        lock.remove(name);
        lock.write()?;
    }
    Ok(removed)
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
    /// The installed version was withdrawn from the registry (the files are as installed): it
    /// was replaced by the latest.
    Withdrawn {
        /// The version installed before.
        installed: String,
        /// The version installed now.
        to: String,
    },
}

/// The skills `update` works on: `names`, or every entry of the lock file. The lock file is
/// read and checked first, so a broken one stops the update before anything changes.
pub fn update_targets(dir: &Path, names: &[String]) -> Result<Vec<String>, RegistryInstallError> {
    let lock = LockFile::read(workdir(dir))?;
    Ok(if names.is_empty() {
        lock.skills.iter().map(|(slug, _)| slug.clone()).collect()
    } else {
        names.to_vec()
    })
}

/// Brings the installed skill `name` in `dir` to the latest version on `client`'s registry,
/// the way the clawhub CLI decides (the local files' fingerprint, else the recorded one, names
/// the version installed). Only the skill the lock file lists under `name` is touched, only
/// when its folder and origin.json agree with that entry, and only from the registry the
/// user configured: a URL inside a skill folder never receives a token. The new version is
/// installed under `policy`.
pub fn update(
    client: &Client,
    name: &str,
    dir: &Path,
    force: bool,
    policy: &InstallPolicy,
) -> Result<UpdateOutcome, RegistryInstallError> {
    let lock = LockFile::read(workdir(dir))?;
    let entry = lock
        .get(name)
        .ok_or_else(|| RegistryInstallError::NotLocked {
            name: name.to_owned(),
            lock: lock.path.clone(),
        })?;
    skill_model::layout::check_skill_name(name)
        .map_err(|rule| InstallError::BadName(name.to_owned(), rule))?;
    let skill_dir = dir.join(name);
    let origin = Origin::read(&skill_dir)?
        .ok_or_else(|| RegistryInstallError::NoOrigin(skill_dir.clone()))?;
    check_origin(client, name, entry, &origin)?;
    let local = local_fingerprint(&skill_dir)?;
    let resolved = client
        .resolve(name, &local)?
        .unwrap_or(super::client::Resolved {
            matched: None,
            latest: None,
        });
    // Files exactly as the lock recorded them are the installed version, whether or not the
    // registry still serves it (a withdrawn version resolves to nothing).
    let untouched = entry.files.is_some() && verify_one(&skill_dir, name, entry)?.is_clean();
    let withdrawn = resolved.matched.is_none() && (untouched || origin.fingerprint == local);
    let installed = resolved
        .matched
        .or_else(|| withdrawn.then(|| origin.installed_version.clone()));
    let Some(latest) = resolved.latest else {
        return Err(RegistryInstallError::NoVersion(name.to_owned()));
    };
    match installed {
        None if !force => return Ok(UpdateOutcome::LocalChanges),
        Some(current) if !withdrawn && is_current(&current, &latest) => {
            return Ok(UpdateOutcome::UpToDate(current));
        }
        _ => {}
    }
    install_with(client, name, Some(&latest), dir, true, policy)?;
    Ok(if withdrawn {
        UpdateOutcome::Withdrawn {
            installed: origin.installed_version,
            to: latest,
        }
    } else {
        UpdateOutcome::Updated(latest)
    })
}

/// Refuses to update `name` unless its lock `entry` and `origin.json` name the same skill and
/// version, from the registry `client` talks to.
fn check_origin(
    client: &Client,
    name: &str,
    entry: &LockEntry,
    origin: &Origin,
) -> Result<(), RegistryInstallError> {
    if origin.slug != name {
        return Err(disagree(
            name,
            format!(
                "origin.json names the skill {:?}, the lock entry and the folder {name:?}",
                origin.slug
            ),
        ));
    }
    if entry.version.as_deref() != Some(origin.installed_version.as_str()) {
        return Err(disagree(
            name,
            format!(
                "the lock entry says version {}, origin.json {}",
                entry.version.as_deref().unwrap_or("none"),
                origin.installed_version
            ),
        ));
    }
    if origin.registry.trim_end_matches('/') != client.base() {
        return Err(RegistryInstallError::OtherRegistry {
            name: name.to_owned(),
            origin: origin.registry.clone(),
            configured: client.base().to_owned(),
        });
    }
    Ok(())
}

/// The error for a lock entry that disagrees with the skill's folder, records or download.
fn disagree(name: &str, message: String) -> RegistryInstallError {
    RegistryInstallError::Disagree {
        name: name.to_owned(),
        message,
    }
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
    let files = skill_archive::select_files(dir, false, None).map_err(InstallError::from)?;
    let mut hashes = Vec::new();
    for file in files
        .into_iter()
        .filter(|f| f.path != skill_model::layout::META_FILE)
    {
        let bytes = std::fs::read(&file.source).map_err(|source| RegistryInstallError::Read {
            path: file.source.clone(),
            source,
        })?;
        hashes.push((file.path, sha256_hex(&bytes)));
    }
    Ok(fingerprint(&hashes))
}

/// `(path, hash)` pairs without the registry's `_meta.json`: its publish time and owner are the
/// serving registry's (a mirror's differ), not the skill's, so no lock pins it and nothing
/// trusts it.
fn skill_files(
    files: impl IntoIterator<Item = (String, String)>,
) -> impl Iterator<Item = (String, String)> {
    files
        .into_iter()
        .filter(|(path, _)| path != skill_model::layout::META_FILE)
}

/// What `skill verify` found for one locked skill.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Verified {
    /// The skill (its lock key and folder name).
    pub name: String,
    /// Files there now that were not installed.
    pub added: Vec<String>,
    /// Installed files that are gone.
    pub removed: Vec<String>,
    /// Installed files whose bytes changed (or that became links or folders).
    pub changed: Vec<String>,
    /// The skill's folder is gone.
    pub folder_removed: bool,
    /// The lock entry has no file list (another tool installed it): only the fingerprint was
    /// compared.
    pub fingerprint_only: bool,
    /// Where the skill's own install record (`.clawhub/`) disagrees with the lock entry, or
    /// holds what the installer never writes.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub records: Vec<String>,
}

impl Verified {
    /// True when the install is exactly what was installed.
    pub fn is_clean(&self) -> bool {
        !self.folder_removed
            && self.added.is_empty()
            && self.removed.is_empty()
            && self.changed.is_empty()
            && self.records.is_empty()
    }
}

/// How `skill_dir/.clawhub/` disagrees with `name`'s lock entry: an `origin.json` that is
/// missing, unreadable or names another skill, version or fingerprint, and any other file
/// (the installer writes only `origin.json`; `update` trusts it to say where a skill is from).
fn check_records(skill_dir: &Path, name: &str, entry: &LockEntry) -> Vec<String> {
    let mut found = Vec::new();
    let dir = skill_dir.join(skill_model::layout::CLAWHUB_DIR);
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for other in entries.flatten() {
            let file = other.file_name().to_string_lossy().into_owned();
            if format!("{}/{file}", skill_model::layout::CLAWHUB_DIR) != ORIGIN_FILE {
                found.push(format!(".clawhub/{file}: not written by the installer"));
            }
        }
    }
    let origin = match Origin::read(skill_dir) {
        Ok(Some(origin)) => origin,
        Ok(None) => {
            found.push(format!("{ORIGIN_FILE}: missing"));
            return found;
        }
        Err(e) => {
            found.push(e.to_string());
            return found;
        }
    };
    let mut differs = |field: &str, now: &str, locked: &str| {
        if now != locked {
            found.push(format!(
                "{ORIGIN_FILE}: {field} is {now}, the lock file says {locked}"
            ));
        }
    };
    differs("slug", &origin.slug, name);
    if let Some(version) = &entry.version {
        differs("installedVersion", &origin.installed_version, version);
    }
    if let Some(fingerprint) = &entry.fingerprint {
        differs("fingerprint", &origin.fingerprint, fingerprint);
    }
    found
}

/// Compares each skill the lock file of `dir` lists with what was installed.
pub fn verify(dir: &Path) -> Result<Vec<Verified>, RegistryInstallError> {
    let lock = LockFile::read(workdir(dir))?;
    let mut out = Vec::new();
    for (name, entry) in &lock.skills {
        skill_model::layout::check_skill_name(name)
            .map_err(|rule| InstallError::BadName(name.clone(), rule))?;
        out.push(verify_one(&dir.join(name), name, entry)?);
    }
    Ok(out)
}

fn verify_one(
    skill_dir: &Path,
    name: &str,
    entry: &LockEntry,
) -> Result<Verified, RegistryInstallError> {
    let mut verified = Verified {
        name: name.to_owned(),
        added: Vec::new(),
        removed: Vec::new(),
        changed: Vec::new(),
        folder_removed: !skill_dir.is_dir(),
        fingerprint_only: entry.files.is_none(),
        records: Vec::new(),
    };
    if verified.folder_removed {
        return Ok(verified);
    }
    verified.records = check_records(skill_dir, name, entry);
    let now: BTreeMap<String, String> =
        skill_files(skill_archive::install::installed_files(skill_dir)?).collect();
    match &entry.files {
        Some(recorded) => {
            for (path, sha) in skill_files(recorded.clone()) {
                match now.get(&path) {
                    None => verified.removed.push(path),
                    Some(current) if *current != sha => verified.changed.push(path),
                    Some(_) => {}
                }
            }
            verified.added = now
                .keys()
                .filter(|p| !recorded.contains_key(*p))
                .cloned()
                .collect();
        }
        None => {
            let local = local_fingerprint(skill_dir)?;
            if entry.fingerprint.as_deref().is_some_and(|f| f != local) {
                verified.changed.push("(fingerprint)".to_owned());
            }
        }
    }
    Ok(verified)
}

/// What `install --frozen` did for one locked skill.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FrozenOutcome {
    /// Already exactly as locked.
    Exact(String),
    /// Installed (again) at the locked version, hash-checked.
    Installed(String),
}

/// Installs exactly what the lock file of `dir` pins, from `client`'s registry: each entry's
/// version, its files checked against the recorded hashes; nothing is resolved. A skill whose
/// download differs from its lock entry is an error naming it, and nothing of it is written.
/// Each download is installed under `policy` (a skill installed with `--allow-risky` is
/// reinstalled frozen only with it again).
pub fn install_frozen_with(
    client: &Client,
    dir: &Path,
    policy: &InstallPolicy,
) -> Result<Vec<(String, FrozenOutcome)>, RegistryInstallError> {
    let lock = LockFile::read(workdir(dir))?;
    let mut out = Vec::new();
    for (name, entry) in &lock.skills {
        let version = entry
            .version
            .clone()
            .ok_or_else(|| RegistryInstallError::NoVersion(name.clone()))?;
        let recorded = entry.files.clone().ok_or_else(|| {
            disagree(name, "the lock entry has no file hashes (installed by another tool), so it cannot be installed frozen".to_owned())
        })?;
        if verify_one(&dir.join(name), name, entry)?.is_clean() {
            out.push((name.clone(), FrozenOutcome::Exact(version)));
            continue;
        }
        let bytes = frozen_download(client, name, entry, &version, recorded, &policy.trust)?;
        let installed = skill_archive::install::install_with(
            &Input::Bytes {
                name: name.clone(),
                bytes,
            },
            dir,
            true,
            policy.risk,
        )?;
        Origin {
            version: 1,
            registry: client.base().to_owned(),
            slug: name.clone(),
            owner_handle: entry.owner_handle.clone(),
            installed_version: version.clone(),
            installed_at: entry.installed_at,
            fingerprint: installed.fingerprint.clone(),
        }
        .write(&installed.dir)?;
        // The lock entry stays as it was: a frozen install changes nothing in the lock.
        out.push((name.clone(), FrozenOutcome::Installed(version)));
    }
    Ok(out)
}

/// Downloads the locked `version` of `name` and checks it against the lock entry's file hashes
/// and signer, the registry's file list, and the signature policy.
fn frozen_download(
    client: &Client,
    name: &str,
    entry: &LockEntry,
    version: &str,
    recorded: BTreeMap<String, String>,
    trust: &TrustPolicy,
) -> Result<Vec<u8>, RegistryInstallError> {
    let bytes = client.download(name, version)?;
    let archive =
        read_bytes(&bytes, &Limits::default()).map_err(|source| InstallError::Archive {
            path: PathBuf::from(name),
            source,
        })?;
    let downloaded: BTreeMap<String, String> = skill_files(
        archive
            .files
            .iter()
            .map(|f| (f.path.clone(), sha256_hex(&f.bytes))),
    )
    .collect();
    if downloaded != skill_files(recorded).collect() {
        return Err(disagree(
            name,
            format!("the registry's {version} is not what the lock file pins (its files differ)"),
        ));
    }
    // The signature policy of every other install; where it verifies a signer, the one the
    // lock recorded.
    let expected = listed_files(client, name, version)?;
    check_hashes(&archive, &expected).map_err(|message| RegistryInstallError::Mismatch {
        slug: name.to_owned(),
        version: version.to_owned(),
        message,
    })?;
    let signer = check_signature(client, name, version, &expected, trust)?;
    if let (Some(pinned), Some(signer)) = (&entry.signer, &signer)
        && &signer.key_id != pinned
    {
        return Err(disagree(
            name,
            format!(
                "signed by key {}, but the lock file pins key {pinned}",
                signer.key_id
            ),
        ));
    }
    Ok(bytes)
}
