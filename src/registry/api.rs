//! ClawHub's wire shapes as the client reads them: typed views of the JSON the registry sends,
//! so commands use fields rather than index into untyped values. Fields the client does not need
//! are not listed; missing optional ones read as `None`.

use serde::{Deserialize, Serialize};

/// One result of `GET /api/v1/search`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchHit {
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
    /// The publisher's handle.
    #[serde(default)]
    pub owner_handle: Option<String>,
    /// The ranking score.
    #[serde(default)]
    pub score: f64,
}

/// `GET /api/v1/search`'s body.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SearchResults {
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
    /// Its publisher.
    #[serde(default)]
    pub owner: Option<Owner>,
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
    /// Tag names and the versions they point at.
    #[serde(default)]
    pub tags: serde_json::Map<String, serde_json::Value>,
    /// Counters.
    #[serde(default)]
    pub stats: Option<Stats>,
}

/// A skill's counters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
pub struct VersionSummary {
    /// The version number.
    pub version: String,
    /// Its changelog.
    #[serde(default)]
    pub changelog: Option<String>,
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
}

/// One item of `GET /api/v1/skills` (`explore`, a prefix listing).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListedSkill {
    /// The slug.
    pub slug: String,
    /// The display name.
    #[serde(default)]
    pub display_name: Option<String>,
    /// The summary.
    #[serde(default)]
    pub summary: Option<String>,
    /// Counters.
    #[serde(default)]
    pub stats: Option<Stats>,
    /// The latest version.
    #[serde(default)]
    pub latest_version: Option<VersionSummary>,
    /// Last published, ms since the epoch.
    #[serde(default)]
    pub updated_at: i64,
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
    /// The star is off now.
    pub unstarred: bool,
    /// There was none.
    #[serde(default)]
    pub already_unstarred: bool,
}

/// `POST /api/v1/skills/{slug}/tags/{tag}`'s body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tagged {
    /// The skill.
    pub slug: String,
    /// The tag.
    pub tag: String,
    /// The version it points at now.
    pub version: String,
}
