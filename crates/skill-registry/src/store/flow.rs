//! The store's write flows, written once for every backend: what a publish, a review, a version's
//! withdrawal, a tag, a star and a skill's soft delete check, in what order, and what they say
//! when they refuse. A backend supplies the SQL of each step through [`Steps`] and a connection or
//! transaction to run them on through [`Backend`]. Not here: the read queries (search, lists, a
//! skill's details), which are one query each and differ between backends only in their SQL.

use super::*;
use crate::rules;
use skill_model::fingerprint::{fingerprint, sha256_hex};
use skill_model::layout::SKILL_MD;

/// Where a backend runs a flow's steps.
pub(super) trait Backend {
    /// The object store that keeps file contents, when the database does not.
    fn blobs(&self) -> Option<&S3Blobs>;

    /// Runs `flow` in one write transaction: committed when it returns `Ok`, rolled back when it
    /// returns an error.
    fn in_transaction<T>(
        &self,
        flow: impl FnOnce(&mut dyn Steps) -> Result<T, StoreError>,
    ) -> Result<T, StoreError>;

    /// Runs `flow` on one connection, each step on its own.
    fn on_connection<T>(
        &self,
        flow: impl FnOnce(&mut dyn Steps) -> Result<T, StoreError>,
    ) -> Result<T, StoreError>;
}

/// A version row as a publish inserts it.
pub(super) struct NewVersion<'a> {
    /// The skill's id.
    pub skill_id: i64,
    /// The version number, trimmed.
    pub version: &'a str,
    /// The changelog.
    pub changelog: &'a str,
    /// The fingerprint of its files.
    pub fingerprint: &'a str,
    /// When, ms since the epoch.
    pub created_at: i64,
    /// Live or quarantined.
    pub moderation: Moderation,
    /// The publish scan's findings, as JSON.
    pub findings: &'a str,
    /// What applies once a held version goes live, as JSON ([`Pending`]); `None` for a live one.
    pub pending: Option<&'a str>,
    /// The author's signature, if any.
    pub signature: Option<&'a str>,
}

/// What a skill shows and is searched by once a version becomes its latest.
pub(super) struct Listing<'a> {
    /// The skill's id.
    pub skill_id: i64,
    /// Its slug.
    pub slug: &'a str,
    /// Its display name, trimmed.
    pub display_name: &'a str,
    /// Its summary.
    pub summary: Option<&'a str>,
    /// The tags to search by, as text ([`search_tags`]).
    pub tags: String,
    /// The latest version's SKILL.md.
    pub skill_md: &'a str,
    /// When, ms since the epoch (the skill's last-published time).
    pub now: i64,
}

/// A version a review decides on.
pub(super) struct ReviewRow {
    /// The version's id.
    pub version_id: i64,
    /// Its skill's id.
    pub skill_id: i64,
    /// Its moderation, as stored.
    pub moderation: String,
    /// What applies once it goes live, as JSON ([`Pending`]).
    pub pending: Option<String>,
}

/// The SQL of the flows' steps, one implementation per backend.
pub(super) trait Steps {
    /// Serialises the transaction with every other write to `slug` (nothing to do where write
    /// transactions already run one at a time).
    fn lock_slug(&mut self, slug: &str) -> Result<(), StoreError>;
    /// Uses up `user_id`'s uploaded ticket `id`; false when there is none.
    fn use_ticket(&mut self, id: &str, user_id: i64) -> Result<bool, StoreError>;
    /// A skill's id and owner id, deleted or not.
    fn skill_owner(&mut self, slug: &str) -> Result<Option<(i64, i64)>, StoreError>;
    /// A live (not deleted) skill's id and owner id.
    fn live_skill(&mut self, slug: &str) -> Result<Option<(i64, i64)>, StoreError>;
    /// Creates a skill and returns its id.
    fn insert_skill(
        &mut self,
        slug: &str,
        owner_id: i64,
        display_name: &str,
        summary: Option<&str>,
        now: i64,
    ) -> Result<i64, StoreError>;
    /// Every version number a skill has used, withdrawn, held and rejected ones too.
    fn version_numbers(&mut self, skill_id: i64) -> Result<Vec<String>, StoreError>;
    /// Inserts a version and returns its id.
    fn insert_version(&mut self, row: &NewVersion) -> Result<i64, StoreError>;
    /// Keeps a file's bytes under their SHA-256, once.
    fn put_blob(&mut self, sha256: &str, bytes: &[u8]) -> Result<(), StoreError>;
    /// Adds a kept blob to a version at `path`; false when the version has that path already.
    fn insert_file(
        &mut self,
        version_id: i64,
        path: &str,
        size: i64,
        sha256: &str,
        content_type: Option<&str>,
    ) -> Result<bool, StoreError>;
    /// The live versions of a skill (not withdrawn), by id and number.
    fn live_versions(&mut self, skill_id: i64) -> Result<Vec<(i64, String)>, StoreError>;
    /// The id of the version `latest` points at.
    fn latest_tag(&mut self, skill_id: i64) -> Result<Option<i64>, StoreError>;
    /// Points `tag` of a skill at a version.
    fn put_tag(&mut self, skill_id: i64, tag: &str, version_id: i64) -> Result<(), StoreError>;
    /// Writes the skill's name, summary, last-published time and search entry.
    fn set_listing(&mut self, listing: &Listing) -> Result<(), StoreError>;
    /// Sets only the skill's last-published time.
    fn touch_skill(&mut self, skill_id: i64, now: i64) -> Result<(), StoreError>;
    /// Writes a line to the audit log.
    fn audit(&mut self, entry: &AuditEntry) -> Result<(), StoreError>;
    /// The version `version` of `slug` that is not removed, for a review (row-locked where the
    /// backend locks rows).
    fn review_row(&mut self, slug: &str, version: &str) -> Result<Option<ReviewRow>, StoreError>;
    /// The hash of a version's SKILL.md (any case) and the bytes its blob row keeps (see
    /// [`blobs::load`]); `None` when it has none.
    fn skill_md(&mut self, version_id: i64) -> Result<Option<(String, Vec<u8>)>, StoreError>;
    /// Sets a version's moderation and removed time, and forgets what was pending.
    fn set_moderation(
        &mut self,
        version_id: i64,
        moderation: Moderation,
        deleted_at: Option<i64>,
    ) -> Result<(), StoreError>;
    /// A version of a skill that went live: its id, and whether it is withdrawn.
    fn live_version_row(
        &mut self,
        skill_id: i64,
        version: &str,
    ) -> Result<Option<(i64, bool)>, StoreError>;
    /// Withdraws a version at `now` and removes the tags pointing at it.
    fn withdraw_version(&mut self, version_id: i64, now: i64) -> Result<(), StoreError>;
    /// Restores a withdrawn version.
    fn restore_version(&mut self, version_id: i64) -> Result<(), StoreError>;
    /// Soft-deletes a skill at `at`, or restores it (`None`).
    fn set_skill_deleted(&mut self, skill_id: i64, at: Option<i64>) -> Result<(), StoreError>;
    /// Stars a skill for a user (`on`) or takes the star off; false when nothing changed.
    fn set_star(
        &mut self,
        user_id: i64,
        skill_id: i64,
        on: bool,
        now: i64,
    ) -> Result<bool, StoreError>;
}

/// [`Store::publish`]: the checks that need no database, then tickets, the slug's owner, the
/// version number, the rows, and going live or into quarantine, in one transaction.
pub(super) fn publish(
    backend: &impl Backend,
    user: &User,
    request: &PublishRequest,
) -> Result<Published, StoreError> {
    let files = validate(request)?;
    let verdict = scan(&files);
    let slug = rules::normalise_slug(&request.slug);
    let version = request.version.trim().to_owned();
    let hashes: Vec<(String, String)> = files
        .iter()
        .map(|(p, f)| (p.clone(), sha256_hex(&f.bytes)))
        .collect();
    let fp = fingerprint(&hashes);
    check_signature(request, &fp)?;
    let now = now_ms();
    // The bytes go to the object store first, so that no committed version lacks them; the
    // checks that need only reads come before, so a refused publish leaves nothing there.
    if let Some(blobs) = backend.blobs() {
        backend.on_connection(|tx| may_publish(tx, user, &slug, &version))?;
        for ((_, file), (_, sha)) in files.iter().zip(&hashes) {
            blobs.put(sha, &file.bytes)?;
        }
    }
    let checked = CheckedPublish {
        files,
        hashes,
        verdict,
        slug,
        version,
        fingerprint: fp,
        now,
    };
    backend.in_transaction(move |tx| record_publish(tx, backend.blobs(), user, request, checked))
}

/// A publish that passed the checks needing no database, ready for its transaction.
struct CheckedPublish<'r> {
    /// The files, by path.
    files: Vec<(String, &'r NewFile)>,
    /// Each file's path and SHA-256, in the order of `files`.
    hashes: Vec<(String, String)>,
    /// The security scan's verdict.
    verdict: Verdict,
    /// The normalised slug.
    slug: String,
    /// The trimmed version number.
    version: String,
    /// The files' fingerprint.
    fingerprint: String,
    /// When, ms since the epoch.
    now: i64,
}

/// The transaction of [`publish`]: tickets, the slug's owner, the version number, the rows, and
/// going live or into quarantine.
fn record_publish(
    tx: &mut dyn Steps,
    blobs: Option<&S3Blobs>,
    user: &User,
    request: &PublishRequest,
    checked: CheckedPublish,
) -> Result<Published, StoreError> {
    let (slug, version, now) = (&checked.slug, &checked.version, checked.now);
    tx.lock_slug(slug)?;
    for id in &request.tickets {
        if !tx.use_ticket(id, user.id)? {
            return Err(StoreError::Invalid(REUSED_TICKET.into()));
        }
    }
    let skill_id = publishers_skill(tx, user, slug, request, now)?;
    check_version_free(version, &tx.version_numbers(skill_id)?)?;
    let pending = Pending {
        display_name: request.display_name.clone(),
        summary: request.summary.clone(),
        tags: request.tags.clone(),
    };
    let verdict = &checked.verdict;
    let held = verdict.moderation == Moderation::Quarantined;
    let findings = serde_json::to_string(&verdict.findings).unwrap_or_else(|_| "[]".into());
    let pending_json = held.then(|| serde_json::to_string(&pending).unwrap_or_default());
    let version_id = tx.insert_version(&NewVersion {
        skill_id,
        version,
        changelog: &request.changelog,
        fingerprint: &checked.fingerprint,
        created_at: now,
        moderation: verdict.moderation,
        findings: &findings,
        pending: pending_json.as_deref(),
        signature: request.signature.as_deref(),
    })?;
    insert_files(tx, blobs, version_id, &checked.files, &checked.hashes)?;
    let live = LiveVersion {
        skill_id,
        version_id,
        slug,
        version,
    };
    hold_or_go_live(tx, user, &live, verdict, &pending, &checked.files, now)?;
    Ok(Published {
        skill_id,
        version_id,
        slug: checked.slug,
        version: checked.version,
        fingerprint: checked.fingerprint,
        moderation: checked.verdict.moderation,
        findings: checked.verdict.findings,
    })
}

/// Adds a publish's files to its version, keeping each blob in its row unless the object store
/// has it.
fn insert_files(
    tx: &mut dyn Steps,
    blobs: Option<&S3Blobs>,
    version_id: i64,
    files: &[(String, &NewFile)],
    hashes: &[(String, String)],
) -> Result<(), StoreError> {
    for ((path, file), (_, sha)) in files.iter().zip(hashes) {
        tx.put_blob(sha, blobs::kept_in_row(blobs, &file.bytes))?;
        let size = file.bytes.len() as i64;
        if !tx.insert_file(version_id, path, size, sha, file.content_type.as_deref())? {
            return Err(StoreError::Invalid(format!("Duplicate file path: {path}")));
        }
    }
    Ok(())
}

/// A new version goes live at once, or, quarantined, is only written to the audit log.
fn hold_or_go_live(
    tx: &mut dyn Steps,
    user: &User,
    live: &LiveVersion,
    verdict: &Verdict,
    pending: &Pending,
    files: &[(String, &NewFile)],
    now: i64,
) -> Result<(), StoreError> {
    if verdict.moderation == Moderation::Quarantined {
        // Stored, but nothing public moves: no tag, no `latest`, no search entry.
        let note = quarantine_note(&verdict.findings);
        tx.audit(&audit_entry(
            &user.handle,
            "quarantine",
            live.slug,
            live.version,
            note,
        ))?;
    } else {
        let skill_md = files
            .iter()
            .find(|(p, _)| p.eq_ignore_ascii_case(SKILL_MD))
            .map(|(_, f)| String::from_utf8_lossy(&f.bytes).into_owned())
            .unwrap_or_default();
        go_live(tx, live, pending, &skill_md, now)?;
    }
    Ok(())
}

/// Whether `user` may publish `version` of `slug` as the store stands: the checks the publish's
/// transaction makes again, read-only.
fn may_publish(
    tx: &mut dyn Steps,
    user: &User,
    slug: &str,
    version: &str,
) -> Result<(), StoreError> {
    match tx.skill_owner(slug)? {
        Some((_, owner)) if owner != user.id => Err(StoreError::Forbidden(SLUG_TAKEN.into())),
        Some((id, _)) => check_version_free(version, &tx.version_numbers(id)?),
        None => rules::check_new_slug(slug).map_err(StoreError::Invalid),
    }
}

/// The id of the skill a publish adds to: `user`'s own, or a new one; someone else's slug is
/// refused.
fn publishers_skill(
    tx: &mut dyn Steps,
    user: &User,
    slug: &str,
    request: &PublishRequest,
    now: i64,
) -> Result<i64, StoreError> {
    match tx.skill_owner(slug)? {
        Some((_, owner)) if owner != user.id => Err(StoreError::Forbidden(SLUG_TAKEN.into())),
        Some((id, _)) => Ok(id),
        None => {
            rules::check_new_slug(slug).map_err(StoreError::Invalid)?;
            let name = request.display_name.trim();
            tx.insert_skill(slug, user.id, name, request.summary.as_deref(), now)
        }
    }
}

/// A version going live.
struct LiveVersion<'a> {
    skill_id: i64,
    version_id: i64,
    slug: &'a str,
    version: &'a str,
}

/// What going live does to a skill: tags (and `latest`, which moves only forward in semver: a
/// backport leaves it where it is), the skill's name and summary, and its search entry.
fn go_live(
    tx: &mut dyn Steps,
    live: &LiveVersion,
    pending: &Pending,
    skill_md: &str,
    now: i64,
) -> Result<(), StoreError> {
    let previous_latest =
        latest_version(tx, live.skill_id)?.filter(|(id, _)| *id != live.version_id);
    for tag in pending
        .tags
        .iter()
        .map(|t| t.trim())
        .filter(|t| *t != "latest")
    {
        tx.put_tag(live.skill_id, tag, live.version_id)?;
    }
    let newer = previous_latest.as_ref().is_none_or(|(_, v)| {
        semver::Version::parse(live.version).ok() > semver::Version::parse(v).ok()
    });
    if !newer {
        return tx.touch_skill(live.skill_id, now);
    }
    tx.put_tag(live.skill_id, "latest", live.version_id)?;
    tx.set_listing(&Listing {
        skill_id: live.skill_id,
        slug: live.slug,
        display_name: pending.display_name.trim(),
        summary: pending.summary.as_deref(),
        tags: search_tags(&pending.tags),
        skill_md,
        now,
    })
}

/// The highest live version of a skill by semver: its id and number.
pub(super) fn latest_version(
    steps: &mut dyn Steps,
    skill_id: i64,
) -> Result<Option<(i64, String)>, StoreError> {
    let mut best: Option<(semver::Version, i64, String)> = None;
    for (id, v) in steps.live_versions(skill_id)? {
        let Ok(parsed) = semver::Version::parse(&v) else {
            continue;
        };
        if best.as_ref().is_none_or(|(b, _, _)| parsed > *b) {
            best = Some((parsed, id, v));
        }
    }
    Ok(best.map(|(_, id, v)| (id, v)))
}

/// An audit line written now.
fn audit_entry(actor: &str, action: &str, slug: &str, version: &str, note: String) -> AuditEntry {
    AuditEntry {
        at: now_ms(),
        actor: actor.to_owned(),
        action: action.to_owned(),
        slug: slug.to_owned(),
        version: version.to_owned(),
        note,
    }
}

/// [`Store::review`]: releases or removes a quarantined version, with a line in the audit log.
pub(super) fn review(
    backend: &impl Backend,
    slug: &str,
    version: &str,
    decision: Decision,
    actor: &str,
    note: Option<&str>,
) -> Result<Moderation, StoreError> {
    let slug = rules::normalise_slug(slug);
    let version = version.trim();
    backend.in_transaction(|tx| {
        // The same lock as publishes of this slug, so a review and a publish do not interleave.
        tx.lock_slug(&slug)?;
        let Some(row) = tx.review_row(&slug, version)? else {
            return Err(StoreError::NotFound(format!(
                "{slug}@{version}: no such version"
            )));
        };
        let moderation = &row.moderation;
        if Moderation::parse(moderation) != Moderation::Quarantined {
            return Err(StoreError::Conflict(format!(
                "{slug}@{version} is {moderation}, not quarantined; only quarantined versions are reviewed"
            )));
        }
        let now = now_ms();
        let said = note.map(|n| format!(": {n}")).unwrap_or_default();
        match decision {
            Decision::Approve => {
                let pending: Pending = row
                    .pending
                    .and_then(|p| serde_json::from_str(&p).ok())
                    .unwrap_or_default();
                let skill_md = match tx.skill_md(row.version_id)? {
                    Some((sha, data)) => blobs::load(backend.blobs(), &sha, data)?,
                    None => Vec::new(),
                };
                tx.set_moderation(row.version_id, Moderation::Live, None)?;
                let live = LiveVersion {
                    skill_id: row.skill_id,
                    version_id: row.version_id,
                    slug: &slug,
                    version,
                };
                go_live(tx, &live, &pending, &String::from_utf8_lossy(&skill_md), now)?;
                let note = format!("released after review{said}");
                tx.audit(&audit_entry(actor, "approve", &slug, version, note))?;
                Ok(Moderation::Live)
            }
            Decision::Reject => {
                tx.set_moderation(row.version_id, Moderation::Rejected, Some(now))?;
                let note = format!("removed after review{said}");
                tx.audit(&audit_entry(actor, "reject", &slug, version, note))?;
                Ok(Moderation::Rejected)
            }
        }
    })
}

/// The id of a live skill `user` owns: `NotFound` when there is none, `Forbidden` when it is
/// someone else's.
fn owned_skill(steps: &mut dyn Steps, user: &User, slug: &str) -> Result<i64, StoreError> {
    match steps.live_skill(&rules::normalise_slug(slug))? {
        None => Err(StoreError::NotFound("Skill not found".into())),
        Some((_, owner)) if owner != user.id => Err(StoreError::Forbidden(
            "Only the owner can change this skill.".into(),
        )),
        Some((id, _)) => Ok(id),
    }
}

/// [`Store::delete_version`] (`withdraw`) and [`Store::restore_version`]; the version `latest`
/// points at, or the highest, is not withdrawn.
pub(super) fn withdraw(
    backend: &impl Backend,
    user: &User,
    slug: &str,
    version: &str,
    withdraw: bool,
) -> Result<(), StoreError> {
    backend.in_transaction(|tx| {
        // Serialised with publishes of the slug, which move `latest`.
        tx.lock_slug(&rules::normalise_slug(slug))?;
        let skill_id = owned_skill(tx, user, slug)?;
        let Some((version_id, withdrawn)) = tx.live_version_row(skill_id, version)? else {
            return Err(StoreError::NotFound("Version not found".into()));
        };
        if withdraw && !withdrawn {
            let latest = tx.latest_tag(skill_id)?;
            let highest = latest_version(tx, skill_id)?.map(|(id, _)| id);
            if latest == Some(version_id) || highest == Some(version_id) {
                return Err(StoreError::Invalid(LATEST_VERSION_REFUSED.into()));
            }
            tx.withdraw_version(version_id, now_ms())?;
        } else if !withdraw && withdrawn {
            tx.restore_version(version_id)?;
        }
        Ok(())
    })
}

/// [`Store::withdrawn`].
pub(super) fn withdrawn(
    backend: &impl Backend,
    slug: &str,
    version: &str,
) -> Result<bool, StoreError> {
    backend.on_connection(|c| {
        let Some((skill_id, _)) = c.live_skill(&rules::normalise_slug(slug))? else {
            return Ok(false);
        };
        Ok(matches!(
            c.live_version_row(skill_id, version)?,
            Some((_, true))
        ))
    })
}

/// [`Store::set_tag`].
pub(super) fn set_tag(
    backend: &impl Backend,
    user: &User,
    slug: &str,
    tag: &str,
    version: &str,
) -> Result<(), StoreError> {
    let tag = tag.trim();
    rules::check_tag(tag).map_err(StoreError::Invalid)?;
    backend.on_connection(|c| {
        let skill_id = owned_skill(c, user, slug)?;
        let version_id = match c.live_version_row(skill_id, version)? {
            Some((id, false)) => id,
            _ => return Err(StoreError::NotFound("Version not found".into())),
        };
        c.put_tag(skill_id, tag, version_id)
    })
}

/// [`Store::delete_skill`] (`at` given) and [`Store::undelete_skill`] (owner only).
pub(super) fn set_deleted(
    backend: &impl Backend,
    user: &User,
    slug: &str,
    at: Option<i64>,
) -> Result<(), StoreError> {
    backend.on_connection(|c| match c.skill_owner(&rules::normalise_slug(slug))? {
        None => Err(StoreError::NotFound("Skill not found".into())),
        Some((_, owner)) if owner != user.id => Err(StoreError::Forbidden(
            "Only the owner can delete or restore this skill.".into(),
        )),
        Some((id, _)) => c.set_skill_deleted(id, at),
    })
}

/// [`Store::star`] (`on`) and [`Store::unstar`]: false when nothing changed.
pub(super) fn set_star(
    backend: &impl Backend,
    user: &User,
    slug: &str,
    on: bool,
) -> Result<bool, StoreError> {
    backend.on_connection(|c| {
        let Some((skill_id, _)) = c.live_skill(&rules::normalise_slug(slug))? else {
            return Err(StoreError::NotFound("Skill not found".into()));
        };
        c.set_star(user.id, skill_id, on, now_ms())
    })
}
