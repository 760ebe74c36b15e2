//! ClawHub's publish rules, with its exact messages: slugs (pattern, length, reserved names,
//! protected affixes), versions (semver), tags, and file paths.

/// Slugs no new skill may take.
const RESERVED: &[&str] = &[
    // Not ClawHub's: this registry's `GET /api/v1/skills/export` takes the name.
    "export",
    "about",
    "account-banned",
    "admin",
    "cli",
    "dashboard",
    "import",
    "management",
    "orgs",
    "packages",
    "plugins",
    "official",
    "publishers",
    "publish",
    "publish-plugin",
    "publish-skill",
    "search",
    "settings",
    "skills",
    "souls",
    "stars",
    "u",
    "upload",
    "users",
    "api",
    "auth",
    "oauth",
    "callback",
    "login",
    "logout",
    "signin",
    "signout",
    "signup",
    "register",
    "docs",
    "doc",
    "help",
    "support",
    "status",
    "health",
    "blog",
    "news",
    "pricing",
    "terms",
    "privacy",
    "legal",
    "contact",
    "home",
    "explore",
    "openclaw",
    "clawhub",
    "clawd",
    "clawdbot",
    "onlycrabs",
    "soulhub",
    "me",
    "self",
    "system",
    "root",
    "owner",
    "staff",
    "team",
    "mod",
    "moderator",
    "new",
    "edit",
    "delete",
    "create",
    "update",
    "remove",
    "public",
    "private",
    "internal",
    "null",
    "undefined",
    "true",
    "false",
];

/// Words no new slug may start (`<a>-`) or end (`-<a>`) with.
const PROTECTED_AFFIXES: &[&str] = &[
    "openclaw",
    "clawhub",
    "clawd",
    "clawdbot",
    "onlycrabs",
    "soulhub",
    "official",
    "verified",
    "staff",
    "admin",
    "moderator",
];

/// Checks the slug of a new skill; the error is ClawHub's message.
pub(crate) fn check_new_slug(slug: &str) -> Result<(), String> {
    let len = slug.chars().count();
    if len < 3 {
        return Err("Slug must be at least 3 characters.".into());
    }
    if len > 96 {
        return Err("Slug must be at most 96 characters.".into());
    }
    let bytes = slug.as_bytes();
    let edge_ok = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let pattern_ok = edge_ok(bytes[0])
        && edge_ok(bytes[bytes.len() - 1])
        && bytes.iter().all(|b| edge_ok(*b) || *b == b'-')
        && !slug.contains("--");
    if !pattern_ok {
        return Err("Slug must start and end with a letter or digit, contain only lowercase letters, digits, and single hyphens, and not contain consecutive hyphens.".into());
    }
    let protected = PROTECTED_AFFIXES
        .iter()
        .any(|a| slug.starts_with(&format!("{a}-")) || slug.ends_with(&format!("-{a}")));
    if RESERVED.contains(&slug) || protected {
        return Err(format!(
            "\"{slug}\" is reserved and cannot be used as a slug."
        ));
    }
    Ok(())
}

/// A slug as ClawHub takes it: trimmed and lower-cased.
pub(crate) fn normalise_slug(slug: &str) -> String {
    slug.trim().to_lowercase()
}

/// Longest prerelease part of a version, and longest build metadata, in characters.
pub(crate) const MAX_VERSION_LABEL: usize = 64;

/// Parses a version; the error is ClawHub's message, or says which label is too long (the
/// numbers are bounded by `u64`, so these bound the whole version).
pub(crate) fn parse_version(version: &str) -> Result<semver::Version, String> {
    let parsed = semver::Version::parse(version.trim())
        .map_err(|_| "Version must be valid semver".to_owned())?;
    if parsed.pre.len() > MAX_VERSION_LABEL {
        return Err(format!(
            "Version prerelease must be at most {MAX_VERSION_LABEL} characters"
        ));
    }
    if parsed.build.len() > MAX_VERSION_LABEL {
        return Err(format!(
            "Version build metadata must be at most {MAX_VERSION_LABEL} characters"
        ));
    }
    Ok(parsed)
}

/// Longest display name, in characters.
pub(crate) const MAX_DISPLAY_NAME: usize = 128;
/// Longest summary, in characters: the Agent Skills limit on a description.
pub(crate) const MAX_SUMMARY: usize = 1024;
/// Longest changelog, in bytes.
pub(crate) const MAX_CHANGELOG_BYTES: usize = 64 * 1024;
/// Most tags on one publish.
pub(crate) const MAX_TAGS: usize = 32;
/// Longest tag name, in bytes.
pub(crate) const MAX_TAG_BYTES: usize = 64;
/// Most bytes of items in one page of a list (skills, versions): a page stops early, with a
/// cursor to the rest, rather than grow with what publishers write.
pub(crate) const MAX_PAGE_BYTES: usize = 1 << 20;

/// Bounds the text a publisher writes into every listing, so that one publish cannot make the
/// skills list or a search page megabytes long for every reader.
pub(crate) fn check_listing_text(
    display_name: &str,
    summary: Option<&str>,
    changelog: &str,
    tags: &[String],
) -> Result<(), String> {
    if display_name.chars().count() > MAX_DISPLAY_NAME {
        return Err(format!(
            "displayName must be at most {MAX_DISPLAY_NAME} characters"
        ));
    }
    if summary.is_some_and(|s| s.chars().count() > MAX_SUMMARY) {
        return Err(format!("summary must be at most {MAX_SUMMARY} characters"));
    }
    if changelog.len() > MAX_CHANGELOG_BYTES {
        return Err(format!(
            "changelog must be at most {MAX_CHANGELOG_BYTES} bytes"
        ));
    }
    if tags.len() > MAX_TAGS {
        return Err(format!("at most {MAX_TAGS} tags"));
    }
    if let Some(tag) = tags.iter().find(|t| t.len() > MAX_TAG_BYTES) {
        return Err(format!(
            "tag \"{}...\" is longer than {MAX_TAG_BYTES} bytes",
            tag.chars().take(16).collect::<String>()
        ));
    }
    Ok(())
}

/// Checks a tag name: printable ASCII without spaces, not starting with `$` or `_`. (`latest`
/// is accepted, as ClawHub accepts it; the server then moves it to the published version.)
pub(crate) fn check_tag(tag: &str) -> Result<(), String> {
    let ok = !tag.is_empty()
        && tag.bytes().all(|b| (0x21..0x7f).contains(&b))
        && !tag.starts_with(['$', '_']);
    if ok {
        Ok(())
    } else {
        Err(format!("Invalid tag \"{tag}\""))
    }
}

/// Sanitises an uploaded path as ClawHub does: a leading `/` stripped; `..`, backslashes, empty
/// segments and control characters refused. `Ok(None)` for files ClawHub drops silently
/// (`__MACOSX/`, `.DS_Store`, `._*`).
pub(crate) fn sanitise_path(path: &str) -> Result<Option<String>, String> {
    let path = path.trim_start_matches('/');
    let bad = path.is_empty()
        || path.contains('\\')
        || path.chars().any(char::is_control)
        || path
            .split('/')
            .any(|s| s.is_empty() || s == ".." || s == ".");
    if bad {
        return Err(format!("Invalid file path: {path:?}"));
    }
    let name = path.rsplit('/').next().unwrap_or(path);
    let dropped =
        path.split('/').any(|s| s == "__MACOSX") || name == ".DS_Store" || name.starts_with("._");
    Ok((!dropped).then(|| path.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert!(check_new_slug("pdf-tools").is_ok());
        assert_eq!(
            check_new_slug("ab").unwrap_err(),
            "Slug must be at least 3 characters."
        );
        assert_eq!(
            check_new_slug(&"a".repeat(97)).unwrap_err(),
            "Slug must be at most 96 characters."
        );
        assert!(
            check_new_slug("Bad_Slug")
                .unwrap_err()
                .starts_with("Slug must start and end")
        );
        assert!(check_new_slug("a--b").is_err());
        assert_eq!(
            check_new_slug("admin").unwrap_err(),
            "\"admin\" is reserved and cannot be used as a slug."
        );
        assert!(check_new_slug("official-tools").is_err());
        assert!(check_new_slug("tools-verified").is_err());
        assert_eq!(normalise_slug("  PDF-Tools "), "pdf-tools");
    }

    #[test]
    fn versions_tags_paths() {
        assert!(parse_version("1.2.3-beta.1").is_ok());
        assert_eq!(
            parse_version("1.2").unwrap_err(),
            "Version must be valid semver"
        );
        let label = "a".repeat(MAX_VERSION_LABEL);
        assert!(parse_version(&format!("1.0.0-{label}+{label}")).is_ok());
        assert_eq!(
            parse_version(&format!("1.0.0-{label}b")).unwrap_err(),
            "Version prerelease must be at most 64 characters"
        );
        assert_eq!(
            parse_version(&format!("1.0.0+{label}b")).unwrap_err(),
            "Version build metadata must be at most 64 characters"
        );
        assert!(check_tag("beta").is_ok());
        assert!(check_tag("$x").is_err() && check_tag("").is_err() && check_tag("a b").is_err());
        assert_eq!(
            sanitise_path("/SKILL.md").unwrap().as_deref(),
            Some("SKILL.md")
        );
        assert_eq!(sanitise_path("a/.DS_Store").unwrap(), None);
        assert!(
            sanitise_path("../x").is_err()
                && sanitise_path("a\\b").is_err()
                && sanitise_path("a//b").is_err()
        );
    }
}
