//! `--select` / `--ignore`: which rules run, by code, code prefix or slug.

use super::rulebook::{self, Rule};

/// A rule filter. Selectors are a code (`SK201`), a code prefix (`SK2` for a family), a slug
/// (`name-dir-mismatch`) or `ALL`.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    select: Vec<String>,
    ignore: Vec<String>,
}

/// A selector that matches no rule.
#[derive(Debug, thiserror::Error)]
#[error(
    "unknown rule selector '{0}' (expected a code such as SK201, a prefix such as SK2, a slug, or ALL)"
)]
pub struct UnknownSelector(pub String);

impl Selection {
    /// Builds a filter; every selector must match at least one rule.
    pub fn new(select: Vec<String>, ignore: Vec<String>) -> Result<Selection, UnknownSelector> {
        for selector in select.iter().chain(&ignore) {
            if !rulebook::ALL.iter().any(|r| matches(selector, r)) {
                return Err(UnknownSelector(selector.clone()));
            }
        }
        Ok(Selection { select, ignore })
    }

    /// Whether `rule` runs.
    pub fn allows(&self, rule: &Rule) -> bool {
        let selected = self.select.is_empty() || self.select.iter().any(|s| matches(s, rule));
        selected && !self.ignore.iter().any(|s| matches(s, rule))
    }
}

impl Selection {
    /// Whether `--select` names `rule` itself, by code or slug, or asks for `ALL` (not by a
    /// family prefix): a rule asked for so is reported whatever the target.
    pub fn names(&self, rule: &Rule) -> bool {
        self.select.iter().any(|s| {
            s.eq_ignore_ascii_case(rule.code) || s == rule.slug || s.eq_ignore_ascii_case("ALL")
        })
    }
}

fn matches(selector: &str, rule: &Rule) -> bool {
    selector.eq_ignore_ascii_case("ALL")
        || selector == rule.slug
        || (selector.len() >= 3
            && rule
                .code
                .get(..selector.len())
                .is_some_and(|p| p.eq_ignore_ascii_case(selector)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulebook::{NAME_DIR_MISMATCH, UNKNOWN_KEY};

    #[test]
    fn codes_prefixes_and_slugs() {
        let s = Selection::new(vec!["SK2".into()], vec!["name-dir-mismatch".into()]).unwrap();
        assert!(!s.allows(&NAME_DIR_MISMATCH));
        assert!(!s.allows(&UNKNOWN_KEY));
        let s = Selection::new(vec![], vec!["sk401".into()]).unwrap();
        assert!(!s.allows(&UNKNOWN_KEY));
        assert!(s.allows(&NAME_DIR_MISMATCH));
        assert!(Selection::new(vec!["nope".into()], vec![]).is_err());
    }
}
