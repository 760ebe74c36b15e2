//! `skill registry mirror`: copies the live skills of a ClawHub-compatible registry into this
//! registry's store, for teams behind a firewall. It pages through the source's
//! `GET /api/v1/skills/export`, downloads each version this store lacks, recomputes its
//! fingerprint from the files before storing anything, and publishes it as the source's owner.
//! A version the source serves live stays live here even when this registry's scan would hold
//! it (the source's moderators released it); the approval is in the audit log. The last page's
//! cursor lets a later run copy only what changed since.

use super::api::{ExportedSkill, ExportedVersion};
use super::client::{Client, ClientError};
use super::store::{Decision, Moderation, NewFile, PublishRequest, Store, StoreError, User};
use crate::archive::reader::{Limits, META_FILE, read_bytes};
use crate::skill::fingerprint::{fingerprint, sha256_hex};

/// What a run copied.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Mirrored {
    /// Skills the source listed as changed.
    pub skills: usize,
    /// Versions copied.
    pub versions: usize,
    /// Versions already here.
    pub present: usize,
    /// Copied versions this registry's scan would have held, released as the source serves them.
    pub released: usize,
    /// Where a later run starts (`--since`), when the source listed anything.
    pub cursor: Option<String>,
}

/// Why a mirror run stopped.
#[derive(Debug, thiserror::Error)]
pub enum MirrorError {
    /// The source did not answer as a registry does.
    #[error(transparent)]
    Source(#[from] ClientError),
    /// This registry's store refused.
    #[error("{slug}@{version}: {source}")]
    Store {
        /// The skill.
        slug: String,
        /// The version.
        version: String,
        /// Why.
        source: StoreError,
    },
    /// A download is not the version the source listed.
    #[error("{slug}@{version}: {message}; nothing of it was stored")]
    Mismatch {
        /// The skill.
        slug: String,
        /// The version.
        version: String,
        /// What differed.
        message: String,
    },
}

/// Copies what changed on the source after `since` (everything without it) into `store`.
pub fn mirror(
    client: &Client,
    store: &dyn Store,
    since: Option<&str>,
) -> Result<Mirrored, MirrorError> {
    let mut done = Mirrored {
        cursor: since.map(str::to_owned),
        ..Mirrored::default()
    };
    loop {
        let page = client.export(done.cursor.as_deref())?;
        for skill in &page.items {
            copy_skill(client, store, skill, &mut done)?;
        }
        done.skills += page.items.len();
        done.cursor = page.next_cursor.or(done.cursor);
        if !page.more || page.items.is_empty() {
            return Ok(done);
        }
    }
}

fn copy_skill(
    client: &Client,
    store: &dyn Store,
    skill: &ExportedSkill,
    done: &mut Mirrored,
) -> Result<(), MirrorError> {
    let at = |version: &str| {
        let (slug, version) = (skill.slug.clone(), version.to_owned());
        move |source| MirrorError::Store {
            slug,
            version,
            source,
        }
    };
    // Made only once a version has passed its checks, so a refused source leaves no trace.
    let mut owner: Option<User> = None;
    for version in &skill.versions {
        let number = version.version.as_str();
        let here = store.version(&skill.slug, number).map_err(at(number))?;
        // A version withdrawn here stays withdrawn: this registry's owner decided.
        if here.is_some() || store.withdrawn(&skill.slug, number).map_err(at(number))? {
            done.present += 1;
            continue;
        }
        // Held by an earlier run that stopped before releasing it.
        if store
            .held_version(&skill.slug, number)
            .map_err(at(number))?
            .is_some()
        {
            release(client, store, &skill.slug, number).map_err(at(number))?;
            done.released += 1;
            continue;
        }
        let files = verified_files(client, &skill.slug, version)?;
        let request = PublishRequest {
            slug: skill.slug.clone(),
            display_name: skill.display_name.clone(),
            summary: skill.summary.clone(),
            version: version.version.clone(),
            changelog: version.changelog.clone(),
            tags: Vec::new(),
            files,
            tickets: Vec::new(),
            signature: version.signature.clone(),
        };
        let publisher = match owner.take() {
            Some(user) => user,
            None => local_owner(store, &skill.owner).map_err(at(number))?,
        };
        let published = store.publish(&publisher, &request).map_err(at(number))?;
        owner = Some(publisher);
        if published.moderation != Moderation::Live {
            release(client, store, &skill.slug, number).map_err(at(number))?;
            done.released += 1;
        }
        done.versions += 1;
    }
    let owner = match owner {
        Some(user) => user,
        None => local_owner(store, &skill.owner).map_err(at(""))?,
    };
    for (tag, version) in &skill.tags {
        store
            .set_tag(&owner, &skill.slug, tag, version)
            .map_err(at(version))?;
    }
    Ok(())
}

/// Approves a version this registry's scan held: the source serves it live.
fn release(
    client: &Client,
    store: &dyn Store,
    slug: &str,
    version: &str,
) -> Result<(), StoreError> {
    let note = format!("live at {}", client.base());
    store
        .review(slug, version, Decision::Approve, "mirror", Some(&note))
        .map(drop)
}

/// The local publisher with the source owner's handle, made when missing.
fn local_owner(store: &dyn Store, handle: &str) -> Result<User, StoreError> {
    match store.user(handle)? {
        Some(user) => Ok(user),
        None => store.add_user(handle, None),
    }
}

/// The files of `version`'s download, the registry's `_meta.json` left out, once their
/// fingerprint is the one the source listed.
fn verified_files(
    client: &Client,
    slug: &str,
    version: &ExportedVersion,
) -> Result<Vec<NewFile>, MirrorError> {
    let mismatch = |message: String| MirrorError::Mismatch {
        slug: slug.to_owned(),
        version: version.version.clone(),
        message,
    };
    let bytes = client.download(slug, &version.version)?;
    let archive = read_bytes(&bytes, &Limits::default())
        .map_err(|e| mismatch(format!("the download is not a readable archive: {e}")))?;
    let files: Vec<NewFile> = archive
        .files
        .into_iter()
        .filter(|f| f.path != META_FILE)
        .map(|f| NewFile {
            path: f.path,
            bytes: f.bytes,
            content_type: None,
        })
        .collect();
    let hashes: Vec<(String, String)> = files
        .iter()
        .map(|f| (f.path.clone(), sha256_hex(&f.bytes)))
        .collect();
    let found = fingerprint(&hashes);
    if found != version.fingerprint {
        return Err(mismatch(format!(
            "its files' fingerprint is {found}, the source listed {}",
            version.fingerprint
        )));
    }
    Ok(files)
}
