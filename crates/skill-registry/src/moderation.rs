//! What the registry says about a version's security scan: who may see and download a
//! quarantined version, the plain-text refusal everyone else gets, and the JSON shapes clients
//! read (ClawHub's `security` block in the version detail, and the `/moderation` endpoint that
//! the clawhub CLI's `inspect` asks). The scan itself is the lint's security family, run by the
//! store at publish; this module only words its results.

use super::api::{Evidence, ModerationAnswer, ModerationVerdict, Security, SecurityFinding};
use super::store::{Moderation, StoredFinding, User, VersionInfo};

/// What the scan is called in `engineVersion`.
pub(crate) const ENGINE: &str = concat!("skill ", env!("CARGO_PKG_VERSION"));

/// True when `viewer` may see and download the quarantined versions of `owner_handle`'s
/// skill: the owner, and the registry's admins.
pub(crate) fn may_see_held(viewer: Option<&User>, owner_handle: &str) -> bool {
    viewer.is_some_and(|u| u.admin || u.handle == owner_handle)
}

/// True when `viewer` may know `skill` exists: it has a live version, or `viewer` may see its
/// held ones. A skill whose only versions are quarantined is a 404 to everyone else, in its
/// detail, search, resolve, the listing and its page alike.
pub(crate) fn may_see_skill(viewer: Option<&User>, live_versions: u64, owner_handle: &str) -> bool {
    live_versions > 0 || may_see_held(viewer, owner_handle)
}

/// The 403 body for a quarantined version: what the scan found, and who can get it.
pub fn refusal(slug: &str, version: &VersionInfo) -> String {
    let errors: Vec<String> = version
        .findings
        .iter()
        .filter(|f| f.is_error())
        .map(|f| format!("{} {} in {} line {}", f.code, f.slug, f.path, f.line))
        .collect();
    format!(
        "{slug}@{} is quarantined: the registry's security scan found {} error(s) ({}). It is held until an admin reviews it; only its owner and the registry's admins can download it.",
        version.version,
        errors.len(),
        errors.join("; ")
    )
}

fn severity(f: &StoredFinding) -> &'static str {
    match f.severity.as_str() {
        "error" => "critical",
        "warning" => "warn",
        _ => "info",
    }
}

/// The rule codes of `findings`, each once, in order.
fn reason_codes(findings: &[StoredFinding]) -> Vec<String> {
    let mut codes: Vec<String> = Vec::new();
    for f in findings {
        if !codes.contains(&f.code) {
            codes.push(f.code.clone());
        }
    }
    codes
}

/// The `security` block of a version detail.
pub(crate) fn security(version: &VersionInfo) -> Security {
    let held = version.moderation == Moderation::Quarantined;
    let findings = version
        .findings
        .iter()
        .map(|f| SecurityFinding {
            code: f.code.clone(),
            slug: f.slug.clone(),
            severity: f.severity.clone(),
            file: f.path.clone(),
            line: f.line,
            message: f.message.clone(),
            excerpt: f.excerpt.clone(),
            allowed_by_author: f.allowed.clone(),
        })
        .collect();
    Security {
        status: verdict(held).to_owned(),
        has_warnings: warnings(version) > 0,
        checked_at: version.created_at,
        model: None,
        engine_version: ENGINE.to_owned(),
        moderation: version.moderation.as_str().to_owned(),
        findings,
    }
}

fn verdict(held: bool) -> &'static str {
    if held { "suspicious" } else { "clean" }
}

/// How many of a version's findings are the scan's warnings (a model review's notes are not).
fn warnings(version: &VersionInfo) -> usize {
    version
        .findings
        .iter()
        .filter(|f| f.severity == "warning")
        .count()
}

/// The body of `GET /api/v1/skills/{slug}/moderation` for `version` (no verdict when there is
/// none).
pub(crate) fn moderation(version: Option<&VersionInfo>) -> ModerationAnswer {
    let moderation = version.map(|v| {
        let held = v.moderation == Moderation::Quarantined;
        let evidence = v
            .findings
            .iter()
            .map(|f| Evidence {
                code: f.code.clone(),
                severity: severity(f).to_owned(),
                file: f.path.clone(),
                line: f.line,
                message: f.message.clone(),
                evidence: f.excerpt.clone(),
            })
            .collect();
        ModerationVerdict {
            is_suspicious: held,
            is_malware_blocked: false,
            verdict: verdict(held).to_owned(),
            reason_codes: reason_codes(&v.findings),
            updated_at: v.created_at,
            engine_version: ENGINE.to_owned(),
            summary: summary(v, held),
            legacy_reason: None,
            evidence,
            version: v.version.clone(),
            state: v.moderation.as_str().to_owned(),
        }
    });
    ModerationAnswer { moderation }
}

/// One sentence on where the scan left `v`.
fn summary(v: &VersionInfo, held: bool) -> String {
    let errors = v.findings.iter().filter(|f| f.is_error()).count();
    match (held, errors, warnings(v)) {
        (true, n, _) => format!(
            "Version {} is quarantined: {n} security error(s). It is out of search and downloads until an admin reviews it.",
            v.version
        ),
        (false, 0, 0) => format!("Version {}: the security scan found nothing.", v.version),
        (false, 0, n) => format!("Version {}: {n} security warning(s).", v.version),
        (false, n, _) => format!(
            "Version {} was released by a review despite {n} security error(s).",
            v.version
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(moderation: Moderation, severity: &str) -> VersionInfo {
        VersionInfo {
            version: "1.0.1".into(),
            created_at: 5,
            changelog: String::new(),
            fingerprint: String::new(),
            files: Vec::new(),
            signature: None,
            moderation,
            findings: vec![StoredFinding {
                code: "SK903".into(),
                slug: "obfuscated-exec".into(),
                severity: severity.into(),
                path: "SKILL.md".into(),
                line: 7,
                message: "decodes hidden text and runs it".into(),
                excerpt: "echo x | base64 -d | sh".into(),
                allowed: None,
            }],
        }
    }

    #[test]
    fn shapes_and_access() {
        let held = version(Moderation::Quarantined, "error");
        let m = moderation(Some(&held)).moderation.unwrap();
        assert_eq!(m.verdict, "suspicious");
        assert!(m.is_suspicious);
        assert_eq!(m.evidence[0].severity, "critical");
        assert_eq!(m.reason_codes, ["SK903"]);
        assert_eq!(
            serde_json::to_string(&moderation(None)).unwrap(),
            r#"{"moderation":null}"#
        );
        assert_eq!(security(&held).status, "suspicious");
        let live = version(Moderation::Live, "warning");
        assert_eq!(moderation(Some(&live)).moderation.unwrap().verdict, "clean");
        assert!(refusal("demo", &held).contains("SK903 obfuscated-exec in SKILL.md line 7"));
        let alice = User {
            id: 1,
            handle: "alice".into(),
            display_name: None,
            admin: false,
        };
        assert!(may_see_held(Some(&alice), "alice"));
        assert!(!may_see_held(Some(&alice), "bob"));
        assert!(!may_see_held(None, "alice"));
        let admin = User {
            admin: true,
            ..alice
        };
        assert!(may_see_held(Some(&admin), "bob"));
    }
}
