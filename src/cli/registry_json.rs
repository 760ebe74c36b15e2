//! The JSON of `skill search`, `skill info` and `skill explore`: one shape for a registry skill,
//! named the way the rest of `skill`'s JSON is (snake_case, `latest_version`, `owner` as a
//! handle), whatever the registry's wire calls the same facts. The wire types stay ClawHub's.

use serde::Serialize;
use skill_registry::api::{ListedSkill, SearchHit, SkillDetail, SkillPage};
use std::collections::BTreeMap;

/// A skill as the registry commands print it; a fact the registry did not send is `null`.
#[derive(Debug, Serialize)]
pub(crate) struct RegistrySkill {
    slug: String,
    display_name: Option<String>,
    summary: Option<String>,
    latest_version: Option<String>,
    owner: Option<String>,
    downloads: Option<u64>,
    stars: Option<u64>,
    versions: Option<u64>,
    tags: BTreeMap<String, String>,
    /// Milliseconds since the Unix epoch, as the registry sends them.
    updated_at: Option<i64>,
}

/// `skill search --json`: the hits, best first, each with its score.
#[derive(Debug, Serialize)]
pub(crate) struct SearchDocument {
    results: Vec<Scored>,
}

#[derive(Debug, Serialize)]
struct Scored {
    score: f64,
    #[serde(flatten)]
    skill: RegistrySkill,
}

/// `skill info --json`: the skill, its latest version's details and the scan's verdict.
#[derive(Debug, Serialize)]
pub(crate) struct InfoDocument {
    skill: RegistrySkill,
    changelog: Option<String>,
    license: Option<String>,
    moderation: Option<Moderation>,
}

#[derive(Debug, Serialize)]
struct Moderation {
    verdict: String,
    suspicious: bool,
    blocked: bool,
    reason_codes: Vec<String>,
}

/// `skill explore --json`: one page, and the cursor of the next.
#[derive(Debug, Serialize)]
pub(crate) struct ExploreDocument {
    skills: Vec<RegistrySkill>,
    next_cursor: Option<String>,
}

impl From<&[SearchHit]> for SearchDocument {
    fn from(hits: &[SearchHit]) -> Self {
        let results = hits
            .iter()
            .map(|hit| Scored {
                score: hit.score,
                skill: RegistrySkill {
                    slug: hit.slug.clone(),
                    display_name: hit.display_name.clone(),
                    summary: hit.summary.clone(),
                    latest_version: hit.version.clone(),
                    owner: hit
                        .owner_handle
                        .clone()
                        .or_else(|| hit.owner.as_ref().map(|o| o.handle.clone())),
                    downloads: None,
                    stars: None,
                    versions: None,
                    tags: BTreeMap::new(),
                    updated_at: Some(hit.updated_at),
                },
            })
            .collect();
        SearchDocument { results }
    }
}

impl From<&SkillDetail> for InfoDocument {
    fn from(detail: &SkillDetail) -> Self {
        let listed = ListedSkill {
            skill: detail.skill.clone(),
            latest_version: detail.latest_version.clone(),
            metadata: None,
            owner: detail.owner.clone(),
        };
        let latest = detail.latest_version.as_ref();
        InfoDocument {
            skill: RegistrySkill::from(&listed),
            changelog: latest.and_then(|v| v.changelog.clone()),
            license: latest.and_then(|v| v.license.clone()),
            moderation: detail.moderation.as_ref().map(|m| Moderation {
                verdict: m.verdict.clone(),
                suspicious: m.is_suspicious,
                blocked: m.is_malware_blocked,
                reason_codes: m.reason_codes.clone(),
            }),
        }
    }
}

impl From<&SkillPage> for ExploreDocument {
    fn from(page: &SkillPage) -> Self {
        ExploreDocument {
            skills: page.items.iter().map(RegistrySkill::from).collect(),
            next_cursor: page.next_cursor.clone(),
        }
    }
}

impl From<&ListedSkill> for RegistrySkill {
    fn from(listed: &ListedSkill) -> Self {
        let skill = &listed.skill;
        let stats = skill.stats.as_ref();
        RegistrySkill {
            slug: skill.slug.clone(),
            display_name: skill.display_name.clone(),
            summary: skill.summary.clone(),
            latest_version: listed.latest_version.as_ref().map(|v| v.version.clone()),
            owner: listed.owner.as_ref().map(|o| o.handle.clone()),
            downloads: stats.map(|s| s.downloads),
            stars: stats.map(|s| s.stars),
            versions: stats.map(|s| s.versions),
            tags: skill.tags.clone(),
            updated_at: Some(skill.updated_at),
        }
    }
}
