//! ClawHub's wire shapes: the JSON bodies the registry server sends and the client reads, one
//! type each, so neither side spells a field by hand. Fields are in the order the server writes
//! them; what a real ClawHub may leave out reads as `None`, empty or zero.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `GET /api/v1/whoami`'s body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct WhoAmI {
    /// The token's user.
    pub user: Account,
}

/// The user of `GET /api/v1/whoami`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Account {
    /// The handle.
    pub handle: String,
    /// The display name.
    #[serde(default)]
    pub display_name: Option<String>,
    /// An avatar's URL (this registry has none).
    #[serde(default)]
    pub image: Option<String>,
    /// `admin` or `user`.
    #[serde(default)]
    pub role: Option<String>,
}

/// One result of `GET /api/v1/search`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
    /// The ranking score.
    #[serde(default)]
    pub score: f64,
    /// The skill's slug.
    pub slug: String,
    /// Its display name.
    #[serde(default)]
    pub display_name: Option<String>,
    /// Its summary.
    #[serde(default)]
    pub summary: Option<String>,
    /// The latest version.
    #[serde(default)]
    pub version: Option<String>,
    /// Last published, ms since the epoch.
    #[serde(default)]
    pub updated_at: i64,
    /// The publisher's handle.
    #[serde(default)]
    pub owner_handle: Option<String>,
    /// The publisher.
    #[serde(default)]
    pub owner: Option<Owner>,
}

/// `GET /api/v1/search`'s body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SearchResults {
    /// The hits, best first.
    pub results: Vec<SearchHit>,
}

/// `GET /api/v1/skills/{slug}`'s body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SkillDetail {
    /// The skill itself.
    pub skill: SkillSummary,
    /// Its latest version, if any is published.
    #[serde(default)]
    pub latest_version: Option<VersionSummary>,
    /// ClawHub's metadata (this registry sends none).
    #[serde(default)]
    pub metadata: Option<serde_json::Value>,
    /// Its publisher.
    #[serde(default)]
    pub owner: Option<Owner>,
    /// The security scan's verdict on the latest version.
    #[serde(default)]
    pub moderation: Option<ModerationSummary>,
}

/// The `skill` object of a skill's detail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SkillSummary {
    /// The slug.
    pub slug: String,
    /// The display name.
    #[serde(default)]
    pub display_name: Option<String>,
    /// The summary.
    #[serde(default)]
    pub summary: Option<String>,
    /// ClawHub's topics (this registry sends none).
    #[serde(default)]
    pub topics: Vec<String>,
    /// Tag names and the versions they point at.
    #[serde(default)]
    pub tags: BTreeMap<String, String>,
    /// Counters.
    #[serde(default)]
    pub stats: Option<Stats>,
    /// First published, ms since the epoch.
    #[serde(default)]
    pub created_at: i64,
    /// Last published, ms since the epoch.
    #[serde(default)]
    pub updated_at: i64,
}

/// A skill's counters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    /// Downloads so far.
    #[serde(default)]
    pub downloads: u64,
    /// Stars.
    #[serde(default)]
    pub stars: u64,
    /// Published versions.
    #[serde(default)]
    pub versions: u64,
}

/// A version as a skill's detail names it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionSummary {
    /// The version number.
    pub version: String,
    /// When it was published, ms since the epoch.
    #[serde(default)]
    pub created_at: i64,
    /// Its changelog.
    #[serde(default)]
    pub changelog: Option<String>,
    /// Its license.
    #[serde(default)]
    pub license: Option<String>,
}

/// The `moderation` object of a skill's detail.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModerationSummary {
    /// Flagged as suspicious.
    #[serde(default)]
    pub is_suspicious: bool,
    /// Blocked as malware.
    #[serde(default)]
    pub is_malware_blocked: bool,
    /// The verdict's word (`clean`).
    #[serde(default)]
    pub verdict: String,
    /// The rule codes the scan found, as warnings.
    #[serde(default)]
    pub reason_codes: Vec<String>,
}

/// A publisher.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Owner {
    /// The handle.
    pub handle: String,
    /// The display name.
    #[serde(default)]
    pub display_name: Option<String>,
    /// An avatar's URL (this registry has none).
    #[serde(default)]
    pub image: Option<String>,
}

/// One item of `GET /api/v1/skills` (`explore`, a prefix listing): a skill detail's `skill`
/// object with the detail's `latestVersion`, `metadata` and `owner` beside its fields.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedSkill {
    /// The skill.
    #[serde(flatten)]
    pub skill: SkillSummary,
    /// The latest version.
    #[serde(default)]
    pub latest_version: Option<VersionSummary>,
    /// ClawHub's metadata (this registry sends none).
    #[serde(default)]
    pub metadata: Option<serde_json::Value>,
    /// Its publisher.
    #[serde(default)]
    pub owner: Option<Owner>,
}

/// `GET /api/v1/skills`'s body: one page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SkillPage {
    /// The skills on this page.
    pub items: Vec<ListedSkill>,
    /// What to pass as `cursor` for the next page, if there is one.
    #[serde(default)]
    pub next_cursor: Option<String>,
}

/// `POST /api/v1/stars/{slug}`'s body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Starred {
    /// The request succeeded.
    #[serde(default)]
    pub ok: bool,
    /// The skill is starred now.
    pub starred: bool,
    /// It was starred before.
    #[serde(default)]
    pub already_starred: bool,
}

/// `DELETE /api/v1/stars/{slug}`'s body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Unstarred {
    /// The request succeeded.
    #[serde(default)]
    pub ok: bool,
    /// The star is off now.
    pub unstarred: bool,
    /// There was none.
    #[serde(default)]
    pub already_unstarred: bool,
}

/// `POST /api/v1/skills/{slug}/tags/{tag}`'s body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tagged {
    /// The request succeeded.
    #[serde(default)]
    pub ok: bool,
    /// The skill.
    pub slug: String,
    /// The tag.
    pub tag: String,
    /// The version it points at now.
    pub version: String,
}

/// `GET /api/v1/resolve`'s body: which version has the files a client holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Resolution {
    /// The skill.
    pub slug: String,
    /// The version whose fingerprint matches, if one does.
    #[serde(rename = "match", default)]
    pub matched: Option<VersionNumber>,
    /// The skill's latest version.
    #[serde(default)]
    pub latest_version: Option<VersionNumber>,
}

/// A version named by its number alone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct VersionNumber {
    /// The version number.
    pub version: String,
}

/// `GET /api/v1/skills/export`'s body: one page of what a mirror copies, skills in the order
/// they last changed, oldest change first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportPage {
    /// The skills on this page.
    pub items: Vec<ExportedSkill>,
    /// What to pass as `cursor` for the next page; on the last page, what a later mirror run
    /// passes to copy only what changed since (`None` when nothing was listed).
    #[serde(default)]
    pub next_cursor: Option<String>,
    /// True when more skills follow this page now.
    #[serde(default)]
    pub more: bool,
}

/// A skill as a mirror copies it: its owner, tags and live versions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportedSkill {
    /// The slug.
    pub slug: String,
    /// The display name.
    pub display_name: String,
    /// The summary.
    #[serde(default)]
    pub summary: Option<String>,
    /// The owner's handle.
    pub owner: String,
    /// Tag name to version.
    #[serde(default)]
    pub tags: BTreeMap<String, String>,
    /// Its live versions, oldest first.
    pub versions: Vec<ExportedVersion>,
}

/// A live version as a mirror checks it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportedVersion {
    /// The version.
    pub version: String,
    /// Its changelog.
    #[serde(default)]
    pub changelog: String,
    /// The fingerprint of its files, which the mirror recomputes from the download.
    pub fingerprint: String,
    /// The author's minisign signature of the file manifest, if signed.
    #[serde(default)]
    pub signature: Option<String>,
}

/// `GET /.well-known/clawhub.json`'s body: where a client finds the API and sign-in.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WellKnown {
    /// The API's base URL.
    pub api_base: String,
    /// Where sign-in starts.
    pub auth_base: String,
    /// The oldest clawhub CLI the registry serves.
    pub min_cli_version: String,
    /// The registry's own URL.
    pub registry: String,
}

/// The body of a request that changes something and answers only that it did (deletes,
/// restores, telemetry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Done {
    /// Always true: failures answer an error instead.
    pub ok: bool,
}

impl Done {
    pub(crate) const OK: Done = Done { ok: true };
}

/// A file of a version, as the version detail lists it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionFile {
    /// Path inside the skill.
    pub path: String,
    /// Size in bytes.
    pub size: u64,
    /// Lowercase hex SHA-256.
    pub sha256: String,
    /// MIME type, when known.
    #[serde(default)]
    pub content_type: Option<String>,
}

/// `GET /api/v1/skills/{slug}/versions`'s body: one page of versions, newest first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VersionsPage {
    /// The versions on this page.
    pub items: Vec<VersionEntry>,
    /// What to pass as `cursor` for the next page, when there is one.
    #[serde(default)]
    pub next_cursor: Option<String>,
}

/// A version as a list of versions shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VersionEntry {
    /// The version number.
    pub version: String,
    /// When it was published, ms since the epoch.
    pub created_at: i64,
    /// Its changelog.
    #[serde(default)]
    pub changelog: String,
    /// Who wrote the changelog (`user` here; ClawHub may generate one).
    #[serde(default)]
    pub changelog_source: String,
}

/// `GET /api/v1/skills/{slug}/versions/{version}`'s body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VersionDetail {
    /// The skill the version belongs to.
    pub skill: SkillName,
    /// The version.
    pub version: VersionFull,
}

/// A skill named by its slug and display name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SkillName {
    /// The slug.
    pub slug: String,
    /// The display name.
    #[serde(default)]
    pub display_name: String,
}

/// A version with its files, scan verdict and signature.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct VersionFull {
    /// The version number.
    pub version: String,
    /// When it was published, ms since the epoch.
    #[serde(default)]
    pub created_at: i64,
    /// Its changelog.
    #[serde(default)]
    pub changelog: String,
    /// Who wrote the changelog.
    #[serde(default)]
    pub changelog_source: String,
    /// The license every ClawHub skill is published under.
    #[serde(default)]
    pub license: String,
    /// Its files, sorted by path.
    #[serde(default)]
    pub files: Vec<VersionFile>,
    /// The security scan's verdict. ClawHub's own schema leaves it `unknown` (its statuses and
    /// fields vary), so a client reads it as any JSON; this registry answers its `Security`.
    #[serde(default)]
    pub security: serde_json::Value,
    /// Who signed it, when it is signed.
    #[serde(default)]
    pub signature: Option<SignatureSummary>,
}

/// Who signed a version and what the signature's trusted comment says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SignatureSummary {
    /// The signing key's id, as minisign prints it.
    pub key_id: String,
    /// The trusted comment.
    pub trusted_comment: String,
}

/// The answer to asking for an upload URL for one file of a publish.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UploadTicket {
    /// Where to `POST` the file's bytes.
    pub upload_url: String,
    /// The ticket naming the upload.
    pub upload_ticket: String,
}

/// The answer to an upload: the id that names the stored file in the publish request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Stored {
    /// The stored file's id.
    pub storage_id: String,
}

/// `POST /api/v1/skills`'s body: the version published, or held back by the scan. ClawHub
/// answers only `ok`, `skillId` and `versionId` for sure, so a client reads the rest as
/// optional; this registry sends every field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Published {
    /// Always true: failures answer an error instead.
    pub ok: bool,
    /// The skill's id.
    pub skill_id: String,
    /// The new version's id.
    pub version_id: String,
    /// The skill.
    #[serde(default)]
    pub slug: Option<String>,
    /// The version.
    #[serde(default)]
    pub version: Option<String>,
    /// `published`, or `pending` (ClawHub's word for held back by its scans).
    #[serde(default)]
    pub status: Option<String>,
    /// The same word, under the name newer clawhub CLIs read.
    #[serde(default)]
    pub publication_status: Option<String>,
    /// Where the scan left the version (this registry only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moderation: Option<PublishedModeration>,
}

/// The scan's verdict in a publish's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PublishedModeration {
    /// `live`, `quarantined`...
    pub state: String,
    /// How many errors the scan found.
    pub findings: usize,
}

/// The query of a route that lists by pages (`/skills`, `/skills/export`,
/// `/skills/{slug}/versions`, `/search`): `limit` and `cursor`, with what each route adds.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct ListQuery {
    /// How many items a page holds, 1 to [`MAX_LIMIT`]; each route has its default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<String>,
    /// Where the previous page ended, as that page's `nextCursor` said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
    /// The search text (`/search`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub q: Option<String>,
    /// `exact`, or `default`/`semantic` (`/search`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The order of `/skills` (`updated`, `downloads`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort: Option<String>,
    /// A slug prefix `/skills` keeps to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefix: Option<String>,
}

/// The largest page any list route serves.
pub(crate) const MAX_LIMIT: usize = 200;

/// The query naming one version of a skill (downloads, files, moderation, resolve): `version`,
/// else the version `tag` points at, else `latest`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct VersionQuery {
    /// The skill, on routes whose path does not name it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slug: Option<String>,
    /// A version number.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// A tag, when no version is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// A file of the version (`/skills/{slug}/file`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The fingerprint of files a client holds (`/resolve`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
}

impl VersionQuery {
    /// The query naming `version` of `slug`.
    pub(crate) fn of(slug: &str, version: &str) -> Self {
        VersionQuery {
            slug: Some(slug.to_owned()),
            version: Some(version.to_owned()),
            ..VersionQuery::default()
        }
    }

    /// The version number asked for, trimmed, when one is.
    pub(crate) fn version(&self) -> Option<&str> {
        self.version.as_deref().map(str::trim)
    }

    /// The tag asked for: `tag`, else `latest`.
    pub(crate) fn tag(&self) -> &str {
        self.tag.as_deref().map_or("latest", str::trim)
    }
}

/// The body naming a version: `POST /api/v1/skills/{slug}/tags/{tag}` (the version the tag
/// points at) and `DELETE /api/v1/skills/{slug}/versions/{version}` (clawhub repeats it).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct VersionBody {
    /// The version number.
    #[serde(default)]
    pub version: Option<String>,
}

/// `POST /api/v1/skills/-/upload-url`'s body: one file of a publish, announced before its
/// bytes are sent. Every field is optional on the wire so that the registry can say which
/// one is missing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UploadRequest {
    /// Path inside the skill, relative.
    #[serde(default)]
    pub path: Option<String>,
    /// Size in bytes.
    #[serde(default)]
    pub size: Option<u64>,
    /// Hex SHA-256 of the bytes.
    #[serde(default)]
    pub sha256: Option<String>,
    /// MIME type, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
}

/// A file of a ticketed publish: the announced file and the ticket its bytes were uploaded on.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct PublishedFile {
    /// What was announced for the ticket.
    #[serde(flatten)]
    pub file: UploadRequest,
    /// The id the upload answered ([`Stored`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_id: Option<String>,
    /// The ticket ([`UploadTicket`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub upload_ticket: Option<String>,
}

impl PublishedFile {
    /// The ticket naming the file's bytes: `uploadTicket`, else `storageId`.
    pub(crate) fn ticket(&self) -> Option<&str> {
        self.upload_ticket.as_deref().or(self.storage_id.as_deref())
    }
}

/// `POST /api/v1/skills`'s request: ClawHub's publish payload. A ticketed publish sends it as
/// the JSON body with `files`; the legacy one as the multipart `payload` part, the files as
/// parts of their own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PublishPayload {
    /// The skill's slug.
    #[serde(default)]
    pub slug: Option<String>,
    /// Its display name.
    #[serde(default)]
    pub display_name: Option<String>,
    /// Its summary (ClawHub's CLI sends none: the registry then reads SKILL.md's description).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    /// The version published.
    #[serde(default)]
    pub version: Option<String>,
    /// Its changelog.
    #[serde(default)]
    pub changelog: Option<String>,
    /// Tags to point at the version.
    #[serde(default)]
    pub tags: Option<Vec<String>>,
    /// The minisign signature of the file manifest, when the author signed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// The files of a ticketed publish (the client fills them in as it uploads).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) files: Option<Vec<PublishedFile>>,
    /// True when the author accepts MIT-0, which ClawHub requires of every publish.
    #[serde(default)]
    pub accept_license_terms: Option<bool>,
}

/// A version's `security` block in its detail: ClawHub's shape (`status`, `hasWarnings`,
/// `checkedAt`, `model`) with the registry's own `moderation` state and `findings`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Security {
    /// `suspicious` while the version is held, else `clean`.
    pub status: String,
    /// True when the scan found warnings.
    pub has_warnings: bool,
    /// When the scan ran, ms since the epoch (at publish).
    pub checked_at: i64,
    /// The model ClawHub's scan used; none here.
    pub model: Option<String>,
    /// The scan's name and version.
    pub engine_version: String,
    /// `live`, `quarantined` or `rejected`.
    pub moderation: String,
    /// What the scan found.
    pub findings: Vec<SecurityFinding>,
}

/// A finding of the scan in a version's `security` block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SecurityFinding {
    /// The rule's code (`SK903`).
    pub code: String,
    /// The rule's slug (`obfuscated-exec`).
    pub slug: String,
    /// `error` or `warning`.
    pub severity: String,
    /// The file, relative to the skill.
    pub file: String,
    /// The line, 1-based.
    pub line: usize,
    /// What was found.
    pub message: String,
    /// The line it was found on, made safe to print.
    pub excerpt: String,
    /// The author's reason, when an allow comment covers the finding.
    pub allowed_by_author: Option<String>,
}

/// `GET /api/v1/skills/{slug}/moderation`'s body: the newest version's verdict, or null.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ModerationAnswer {
    /// The verdict, when the skill has a version.
    pub moderation: Option<ModerationVerdict>,
}

/// The verdict the clawhub CLI's `inspect` validates, evidence included.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ModerationVerdict {
    /// True while the version is held.
    pub is_suspicious: bool,
    /// ClawHub's malware block; this registry holds instead.
    pub is_malware_blocked: bool,
    /// `suspicious` or `clean`.
    pub verdict: String,
    /// The rule codes found, each once.
    pub reason_codes: Vec<String>,
    /// When the verdict was made, ms since the epoch.
    pub updated_at: i64,
    /// The scan's name and version.
    pub engine_version: String,
    /// One sentence for people.
    pub summary: String,
    /// ClawHub's older reason field; none here.
    pub legacy_reason: Option<String>,
    /// What the scan found.
    pub evidence: Vec<Evidence>,
    /// The version judged.
    pub version: String,
    /// `live`, `quarantined` or `rejected`.
    pub state: String,
}

/// A finding as the moderation verdict lists it, in ClawHub's severities.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Evidence {
    /// The rule's code.
    pub code: String,
    /// `critical`, `warn` or `info`.
    pub severity: String,
    /// The file, relative to the skill.
    pub file: String,
    /// The line, 1-based.
    pub line: usize,
    /// What was found.
    pub message: String,
    /// The line it was found on, made safe to print.
    pub evidence: String,
}

/// `_meta.json`, the file ClawHub adds to every download: who published which version, when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DownloadMeta {
    /// The owner's handle.
    pub owner_id: String,
    /// The skill.
    pub slug: String,
    /// The version.
    pub version: String,
    /// When it was published, ms since the epoch.
    pub published_at: i64,
}
