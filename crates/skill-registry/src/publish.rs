//! Preparing a publish: the skill's files (the installer's path rules applied), their ClawHub
//! fingerprint, the version (the registry's latest bumped, unless given; unchanged content is
//! recognised by fingerprint and not sent again), and ClawHub's publish payload.

use super::api::PublishPayload;
use super::client::{Client, ClientError, Resolved, UploadFile};
use skill_model::fingerprint::{fingerprint, sha256_hex};
use std::path::Path;

skill_model::choices! {
    /// Which part of the version a bump raises.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Bump {
        Patch = "patch": "1.2.3 → 1.2.4 (a prerelease loses its label instead).",
        Minor = "minor": "1.2.3 → 1.3.0.",
        Major = "major": "1.2.3 → 2.0.0.",
    }
}

/// What the author asked for.
#[derive(Debug, Clone)]
pub struct Request {
    /// The slug (default: the folder name).
    pub slug: Option<String>,
    /// The exact version (default: the latest, bumped; 1.0.0 for a new skill).
    pub version: Option<String>,
    /// Which part to bump.
    pub bump: Bump,
    /// What changed.
    pub changelog: String,
    /// Tags to point at the version.
    pub tags: Vec<String>,
}

/// A publish ready to send.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The slug.
    pub slug: String,
    /// The version.
    pub version: String,
    /// ClawHub's fingerprint of the files.
    pub fingerprint: String,
    /// The files.
    pub files: Vec<UploadFile>,
    /// ClawHub's publish payload (without the files).
    pub payload: PublishPayload,
}

/// What preparing found.
#[derive(Debug, Clone)]
pub enum Planned {
    /// These exact files are already published as `version`.
    Unchanged {
        /// The slug.
        slug: String,
        /// The version that has them.
        version: String,
    },
    /// A new version to send.
    Publish(Box<Plan>),
}

/// Why a publish could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    /// The folder is not a skill.
    #[error("{0}: not a skill folder (no SKILL.md in it)")]
    NotASkill(std::path::PathBuf),
    /// The file set could not be built.
    #[error(transparent)]
    Pack(#[from] skill_archive::pack::PackError),
    /// A file could not be read.
    #[error("{0}")]
    Read(String),
    /// The registry's latest version cannot be bumped.
    #[error("the registry's latest version {0:?} is not semver")]
    NotSemver(String),
    /// The security scan found errors in the files (the author's allow comments honoured).
    #[error(
        "the security scan found {count} error(s):\n{findings}",
        count = .0.errors().count(),
        findings = .0.render(true)
    )]
    Risky(skill_lint::security::Scan),
    /// The registry call failed.
    #[error(transparent)]
    Client(#[from] ClientError),
}

/// Reads the skill in `dir` and works out what to publish to `client`'s registry.
pub fn plan(client: &Client, dir: &Path, request: &Request) -> Result<Planned, PublishError> {
    use skill_model::layout::{SKILL_MD, SKILL_MD_LOWER};
    if !dir.join(SKILL_MD).is_file() && !dir.join(SKILL_MD_LOWER).is_file() {
        return Err(PublishError::NotASkill(dir.to_path_buf()));
    }
    let folder = skill_archive::pack::archive_name(dir);
    let slug = super::rules::normalise_slug(request.slug.as_deref().unwrap_or(&folder));
    let files = read_files(dir)?;
    // The registry's own scan, run here first on exactly the files that would be sent, so a
    // refusal costs no upload.
    check_scan(&files)?;
    let fp = fingerprint(
        &files
            .iter()
            .map(|f| (f.path.clone(), sha256_hex(&f.bytes)))
            .collect::<Vec<_>>(),
    );
    let version = match client.resolve(&slug, &fp)? {
        Some(Resolved {
            matched: Some(matched),
            ..
        }) if request.version.is_none() => {
            return Ok(Planned::Unchanged {
                slug,
                version: matched,
            });
        }
        Some(Resolved {
            latest: Some(latest),
            ..
        }) => match &request.version {
            Some(v) => v.clone(),
            None => bump(&latest, request.bump)?,
        },
        _ => request
            .version
            .clone()
            .unwrap_or_else(|| "1.0.0".to_owned()),
    };
    let payload = payload(dir, &folder, &slug, &version, request);
    Ok(Planned::Publish(Box::new(Plan {
        slug,
        version,
        fingerprint: fp,
        files,
        payload,
    })))
}

/// ClawHub's publish payload, without the files, for the skill in `dir` (its folder named
/// `folder`).
fn payload(
    dir: &Path,
    folder: &str,
    slug: &str,
    version: &str,
    request: &Request,
) -> PublishPayload {
    PublishPayload {
        slug: Some(slug.to_owned()),
        display_name: Some(skill_model::layout::title_case(folder)),
        summary: description(dir),
        version: Some(version.to_owned()),
        changelog: Some(request.changelog.clone()),
        tags: Some(request.tags.clone()),
        ..PublishPayload::default()
    }
}

/// The files a publish of `dir` sends: those a pack would hold, read.
fn read_files(dir: &Path) -> Result<Vec<UploadFile>, PublishError> {
    let mut files = Vec::new();
    for file in skill_archive::pack::plan(dir, &Default::default())? {
        let bytes = std::fs::read(&file.source)
            .map_err(|e| PublishError::Read(format!("{}: {e}", file.source.display())))?;
        files.push(UploadFile {
            path: file.path,
            bytes,
        });
    }
    Ok(files)
}

/// Refuses files the security scan finds errors in, the author's allow comments honoured.
fn check_scan(files: &[UploadFile]) -> Result<(), PublishError> {
    let scan = skill_lint::security::scan(
        files.iter().map(|f| skill_lint::security::ScanFile {
            path: &f.path,
            bytes: &f.bytes,
        }),
        skill_lint::security::Allows::Honour,
    );
    if scan.has_errors() {
        return Err(PublishError::Risky(scan));
    }
    Ok(())
}

/// The trimmed description of the skill in `dir`, ClawHub's summary.
fn description(dir: &Path) -> Option<String> {
    let location = skill_model::discover(&[dir.to_path_buf()])
        .ok()?
        .into_iter()
        .next()?;
    skill_model::Skill::load(location)
        .manifest()?
        .value("description")?
        .as_str()
        .map(|d| d.trim().to_owned())
}

/// `latest` with `part` raised (lower parts reset, the prerelease label dropped).
pub fn bump(latest: &str, part: Bump) -> Result<String, PublishError> {
    let mut v =
        semver::Version::parse(latest).map_err(|_| PublishError::NotSemver(latest.to_owned()))?;
    match part {
        Bump::Patch if !v.pre.is_empty() => {}
        Bump::Patch => v.patch += 1,
        Bump::Minor => {
            v.minor += 1;
            v.patch = 0;
        }
        Bump::Major => {
            v.major += 1;
            v.minor = 0;
            v.patch = 0;
        }
    }
    v.pre = semver::Prerelease::EMPTY;
    Ok(v.to_string())
}

/// Signs the plan's file manifest with the minisign secret key at `key` (see
/// [`skill_archive::signature::sign_bytes`] for `password`) and adds the signature to the
/// payload, so the registry stores it with the version and serves it with the download; returns
/// the key id.
pub fn sign(
    plan: &mut Plan,
    key: &Path,
    password: Option<String>,
) -> Result<String, skill_archive::signature::SignatureError> {
    use skill_archive::signature;
    let hashes: Vec<(String, String)> = plan
        .files
        .iter()
        .map(|f| (f.path.clone(), sha256_hex(&f.bytes)))
        .collect();
    let comment = signature::manifest_comment(&plan.slug, &plan.version, &plan.fingerprint);
    let text = signature::sign_bytes(
        skill_model::fingerprint::manifest(&hashes).as_bytes(),
        key,
        password,
        &comment,
    )?;
    let key_id = signature::describe("signature", &text)?.key_id;
    plan.payload.signature = Some(text);
    Ok(key_id)
}

/// What the registry said about a publish.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sent {
    /// The registry's version id.
    pub version_id: String,
    /// True when the registry holds the version for review (`publicationStatus: "pending"`,
    /// which `skill registry serve` answers for a version its scan quarantines).
    pub held: bool,
}

/// Sends `plan`, calling `progress(bytes)` as files upload.
pub fn send(
    client: &Client,
    plan: &Plan,
    progress: &mut dyn FnMut(u64),
) -> Result<Sent, ClientError> {
    let result = client.publish(&plan.payload, &plan.files, progress)?;
    let pending = |status: &Option<String>| status.as_deref() == Some("pending");
    Ok(Sent {
        held: pending(&result.publication_status) || pending(&result.status),
        version_id: result.version_id,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bumps() {
        assert_eq!(bump("1.2.3", Bump::Patch).unwrap(), "1.2.4");
        assert_eq!(bump("1.2.3", Bump::Minor).unwrap(), "1.3.0");
        assert_eq!(bump("1.2.3", Bump::Major).unwrap(), "2.0.0");
        assert_eq!(bump("1.3.0-beta.1", Bump::Patch).unwrap(), "1.3.0");
        assert!(bump("latest", Bump::Patch).is_err());
    }
}
