//! The model review on publish (`skill registry serve --review`): after a version is stored, its
//! files go to the configured provider with `skill lint --review`'s rubric, and what the model
//! says is added to the version's findings as `SK990 model-review`, severity `info`. It never
//! holds a version back or releases one: a moderator reads it beside the scan's findings.

use super::store::{Store, StoreError, StoredFinding};
use skill_agent::cassette::Mode;
use skill_agent::provider::HttpConfig;
use skill_lint::diagnostic::Location;
use skill_model::Skill;
use skill_model::discovery::SkillLocation;
use skill_model::files::SkillFiles;

/// Why a version could not be reviewed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PublishReviewError {
    /// The store could not give the files, or take the findings.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The version is gone (rejected or withdrawn before its review).
    #[error("{0} is no longer stored")]
    Gone(String),
    /// Writing the files to review failed.
    #[error("writing the files to review: {0}")]
    Io(#[from] std::io::Error),
    /// The model could not be asked, or answered off the rubric.
    #[error(transparent)]
    Review(#[from] skill_agent::review::ReviewError),
}

/// Reviews `version` of `slug` (stored as `version_id`, live or held) with the model `http`
/// names and adds its findings to the version; returns how many it added.
pub(crate) fn review_version(
    store: &dyn Store,
    http: &HttpConfig,
    slug: &str,
    version: &str,
    version_id: i64,
) -> Result<usize, PublishReviewError> {
    let work = tempfile::tempdir()?;
    let dir = work.path().join(slug);
    let mut entries = Vec::new();
    for (path, bytes) in version_files(store, slug, version)? {
        let target = dir.join(&path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, bytes)?;
        entries.extend(skill_model::files::entry(&dir, &target));
    }
    // Every stored file is the model's to read: a listing of the folder would leave out a
    // bundle's sub-skills and whatever an uploaded ignore file names.
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    let skill = Skill::load(SkillLocation {
        file: Some(dir.join(skill_model::layout::SKILL_MD)),
        dir: dir.clone(),
        files: Some(SkillFiles {
            entries,
            modified: None,
        }),
    });
    let said = skill_agent::review::review(&skill, Mode::Live, || Ok(http.clone()), "")?;
    let findings: Vec<StoredFinding> = said
        .iter()
        .map(|d| StoredFinding {
            code: d.rule.code.to_owned(),
            slug: d.rule.slug.to_owned(),
            severity: d.severity.as_str().to_owned(),
            path: d
                .file
                .strip_prefix(&dir)
                .map(|p| p.to_string_lossy().into_owned())
                .unwrap_or_default(),
            line: match &d.location {
                Location::Point(at) => at.line,
                _ => 0,
            },
            message: d.message.clone(),
            excerpt: String::new(),
            allowed: None,
        })
        .collect();
    store.add_findings(version_id, &findings)?;
    Ok(findings.len())
}

/// The files of a stored version, live or held.
fn version_files(
    store: &dyn Store,
    slug: &str,
    version: &str,
) -> Result<Vec<(String, Vec<u8>)>, PublishReviewError> {
    let gone = || PublishReviewError::Gone(format!("{slug}@{version}"));
    let mut out = Vec::new();
    if let Some(live) = store.version(slug, version)? {
        for file in live.files {
            let bytes = store.file(slug, version, &file.path)?.ok_or_else(gone)?;
            out.push((file.path, bytes));
        }
    } else {
        let held = store.held_version(slug, version)?.ok_or_else(gone)?;
        for file in held.version.files {
            let bytes = store
                .held_file(slug, version, &file.path)?
                .ok_or_else(gone)?;
            out.push((file.path, bytes));
        }
    }
    Ok(out)
}
