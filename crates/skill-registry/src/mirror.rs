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
use skill_archive::reader::{Limits, META_FILE, read_bytes};
use skill_model::fingerprint::{fingerprint, sha256_hex};

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
    /// What was passed over rather than override what is here.
    pub skipped: Vec<Skipped>,
}

/// A skill, version or tag a run passed over, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// `slug`, `slug@version` or `slug tag NAME`.
    pub what: String,
    /// Why, in words.
    pub why: String,
}

/// Why a mirror run stopped.
#[derive(Debug, thiserror::Error)]
pub enum MirrorError {
    /// The source did not answer as a registry does.
    #[error(transparent)]
    Source(#[from] ClientError),
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

/// How far a run starts before the cursor it is given: a publish that read the clock before a
/// later one committed can land behind a cursor already handed out, and what is copied twice
/// is only counted as already here.
const REWIND_MS: i64 = 60_000;

/// `cursor` moved back by [`REWIND_MS`]; a cursor of another form is passed on as it is.
fn rewound(cursor: &str) -> String {
    match cursor
        .split_once(':')
        .and_then(|(at, _)| at.parse::<i64>().ok())
    {
        Some(at) => format!("{}:", at.saturating_sub(REWIND_MS)),
        None => cursor.to_owned(),
    }
}

/// Copies what changed on the source after `since` (everything without it) into `store`.
/// A skill or version that cannot be copied without overriding what is here is passed over
/// and listed in [`Mirrored::skipped`]; a source that serves other files than it lists, or
/// stops answering as a registry, ends the run.
pub fn mirror(
    client: &Client,
    store: &dyn Store,
    since: Option<&str>,
) -> Result<Mirrored, MirrorError> {
    let mut done = Mirrored {
        cursor: since.map(str::to_owned),
        ..Mirrored::default()
    };
    let mut asked = since.map(rewound);
    loop {
        let page = client.export(asked.as_deref())?;
        for skill in &page.items {
            copy_skill(client, store, skill, &mut done)?;
        }
        done.skills += page.items.len();
        let moved = page.next_cursor.is_some() && page.next_cursor != asked;
        // An empty page hands back the (rewound) cursor it was asked with: keeping the one the
        // run was given stops a quiet registry's cursor from drifting back a minute a run.
        if let Some(next) = page.next_cursor.filter(|_| !page.items.is_empty()) {
            done.cursor = Some(next.clone());
            asked = Some(next);
        }
        // A source that says there is more without moving its cursor would loop forever.
        if !page.more || page.items.is_empty() || !moved {
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
    let mut skip = |what: String, why: String| done.skipped.push(Skipped { what, why });
    let slug = skill.slug.as_str();
    let refused = |what: &str, e: StoreError| (format!("{slug}{what}"), e.to_string());
    match store.skill(slug) {
        Ok(Some(here)) if here.owner_handle != skill.owner => {
            skip(
                slug.to_owned(),
                format!(
                    "here it belongs to @{}, at the source to @{}",
                    here.owner_handle, skill.owner
                ),
            );
            return Ok(());
        }
        Ok(_) => {}
        Err(e) => {
            let (what, why) = refused("", e);
            skip(what, why);
            return Ok(());
        }
    }
    for version in &skill.versions {
        match copy_version(client, store, skill, version)? {
            Ok(Copied::Present) => done.present += 1,
            Ok(Copied::Published) => done.versions += 1,
            Ok(Copied::Released) => {
                done.versions += 1;
                done.released += 1;
            }
            Err(why) => skip(format!("{slug}@{}", version.version), why.to_string()),
        }
    }
    for (tag, version) in &skill.tags {
        let live_here = matches!(store.version(slug, version), Ok(Some(_)));
        if !live_here {
            continue;
        }
        let owner = match store.user(&skill.owner) {
            Ok(Some(owner)) => owner,
            _ => continue,
        };
        if let Err(e) = store.set_tag(&owner, slug, tag, version) {
            let (what, why) = refused(&format!(" tag {tag}"), e);
            skip(what, why);
        }
    }
    Ok(())
}

/// What became of one version.
enum Copied {
    /// Already here, with the source's files.
    Present,
    /// Published here, live.
    Published,
    /// Published or found held here, and released as the source serves it.
    Released,
}

/// Why one version is passed over while the run goes on.
#[derive(Debug, thiserror::Error)]
enum PassedOver {
    /// This registry's store refused or failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// This registry has the version with other files.
    #[error(
        "here it has other files than at the source (fingerprint {found}, the source's {source_fingerprint})"
    )]
    OtherFiles {
        /// The fingerprint here.
        found: String,
        /// The source's.
        source_fingerprint: String,
    },
}

/// Copies one version: `Err(MirrorError)` ends the run, `Ok(Err(why))` passes the version over.
fn copy_version(
    client: &Client,
    store: &dyn Store,
    skill: &ExportedSkill,
    version: &ExportedVersion,
) -> Result<Result<Copied, PassedOver>, MirrorError> {
    let (slug, number) = (skill.slug.as_str(), version.version.as_str());
    if let Some(outcome) = found_here(client, store, skill, version) {
        return Ok(outcome);
    }
    // Checked before anything is stored, so a refused source leaves no trace.
    let files = verified_files(client, slug, version)?;
    let request = PublishRequest {
        slug: slug.to_owned(),
        display_name: skill.display_name.clone(),
        summary: skill.summary.clone(),
        version: number.to_owned(),
        changelog: version.changelog.clone(),
        tags: Vec::new(),
        files,
        tickets: Vec::new(),
        signature: version.signature.clone(),
    };
    let published =
        local_owner(store, &skill.owner).and_then(|owner| store.publish(&owner, &request));
    Ok(match published {
        Err(e) => Err(e.into()),
        Ok(p) if p.moderation == Moderation::Live => Ok(Copied::Published),
        Ok(_) => release(client, store, slug, number)
            .map(|()| Copied::Released)
            .map_err(PassedOver::from),
    })
}

/// What becomes of a version this registry has already, live, withdrawn or held; `None` when it
/// has none.
fn found_here(
    client: &Client,
    store: &dyn Store,
    skill: &ExportedSkill,
    version: &ExportedVersion,
) -> Option<Result<Copied, PassedOver>> {
    let (slug, number) = (skill.slug.as_str(), version.version.as_str());
    let other_files = |found: &str| PassedOver::OtherFiles {
        found: found.to_owned(),
        source_fingerprint: version.fingerprint.clone(),
    };
    let here = (|| {
        Ok::<_, StoreError>((
            store.version(slug, number)?,
            store.withdrawn(slug, number)?,
            store.held_version(slug, number)?,
        ))
    })();
    match here {
        Err(e) => Some(Err(e.into())),
        Ok((Some(live), _, _)) if live.fingerprint != version.fingerprint => {
            Some(Err(other_files(&live.fingerprint)))
        }
        // A version withdrawn here stays withdrawn: this registry's owner decided.
        Ok((Some(_), _, _) | (None, true, _)) => Some(Ok(Copied::Present)),
        // Held by an earlier run that stopped before releasing it, if it is the source's.
        Ok((None, false, Some(held))) => {
            if held.version.fingerprint != version.fingerprint || held.owner_handle != skill.owner {
                return Some(Err(other_files(&held.version.fingerprint)));
            }
            Some(
                release(client, store, slug, number)
                    .map(|()| Copied::Released)
                    .map_err(PassedOver::from),
            )
        }
        Ok((None, false, None)) => None,
    }
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
