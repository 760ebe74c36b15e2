//! OpenClaw's skills catalog (2026.9.2, unchanged in 2026.9.6), ported from `skill-contract` and `skill-prompt-limits` in
//! its `dist/`: eligible, model-invocable skills sorted with `localeCompare(…, "en")`, values
//! XML-escaped, paths under the home folder shown as `~/…`, and its budget (18,000 UTF-16 code
//! units and 150 skills by default). Over budget it first shortens every description (to the
//! longest length that fits, at least 4), then omits them, then keeps the longest prefix of
//! skills that fits, with a notice line saying which.

use super::Listing;
use skill_model::agents::text::{
    js_collapse_spaces, js_len, js_trim, js_trim_end, js_truncate, locale_compare,
};
use skill_model::agents::{Agent, PromptBudget, facts};
use std::path::{Path, PathBuf};

/// OpenClaw's prompt budget, as the agents table records it.
const BUDGET: PromptBudget = match facts(Agent::Openclaw).budget {
    Some(budget) => budget,
    None => panic!("the agents table gives OpenClaw a prompt budget"),
};

/// OpenClaw's `DEFAULT_MAX_SKILLS_IN_PROMPT`.
pub(crate) const MAX_SKILLS: usize = match BUDGET.max_skills {
    Some(n) => n,
    None => usize::MAX,
};

/// OpenClaw's `DEFAULT_MAX_SKILLS_PROMPT_CHARS`.
pub(crate) const DEFAULT_BUDGET: usize = BUDGET.default_chars;

/// `COMPACT_DESCRIPTION_MIN_CHARS`: shorter cuts are not tried.
const MIN_DESCRIPTION: usize = 4;

/// The longest cut tried for compact descriptions.
const MAX_DESCRIPTION: usize = 220;

const INTRO: &str = "The following skills provide specialized instructions for specific tasks.";
const RELATIVE: &str = "When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.";

/// The lines OpenClaw's system prompt puts before the catalog (`buildSkillsSection`, with the
/// `read` tool and code mode off).
pub(crate) const HEADING: &str = "## Skills\nScan <available_skills>. Clear match: read exact <location> with `read`; obey.\nSeveral: most specific. None: read none.\nUp-front max one. Never invent paths.\nExternal writes: batch safely; no tight loops; honor 429/Retry-After.";

fn escape(text: &str) -> String {
    super::escape_xml(text, "&apos;")
}

/// One skill as the catalog shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct OpenclawSkill {
    /// The skill's name.
    pub name: String,
    /// Its description.
    pub description: String,
    /// Its `SKILL.md` path, home compacted to `~`.
    pub location: String,
}

/// `truncateSkillDescription`.
fn shorten(description: &str, max: usize) -> String {
    let normalised = js_collapse_spaces(description);
    if js_len(&normalised) <= max {
        return normalised;
    }
    if max <= 3 {
        return js_truncate(&normalised, max).to_owned();
    }
    format!("{}...", js_trim_end(js_truncate(&normalised, max - 3)))
}

/// `formatSkillsForPromptCore` (`compact: None`) or `formatSkillsCompactForPrompt` with the
/// description cut to `Some(n)` (0: no descriptions).
fn catalog(entries: &[OpenclawSkill], compact: Option<usize>) -> String {
    if entries.is_empty() {
        return String::new();
    }
    let read = match compact {
        None => "Read a skill's file at its listed location when the task matches its description.",
        Some(0) => "Read a skill's file at its listed location when the task matches its name.",
        Some(_) => {
            "Read a skill's file at its listed location when the task matches its name or description."
        }
    };
    let mut lines = vec![
        format!("\n\n{INTRO}"),
        read.to_owned(),
        RELATIVE.to_owned(),
        String::new(),
        "<available_skills>".to_owned(),
    ];
    for e in entries {
        lines.push("  <skill>".to_owned());
        lines.push(format!("    <name>{}</name>", escape(&e.name)));
        match compact {
            None => lines.push(format!(
                "    <description>{}</description>",
                escape(&e.description)
            )),
            Some(0) => {}
            Some(max) => {
                let short = shorten(&e.description, max);
                if !short.is_empty() {
                    lines.push(format!("    <description>{}</description>", escape(&short)));
                }
            }
        }
        lines.push(format!("    <location>{}</location>", escape(&e.location)));
        lines.push("  </skill>".to_owned());
    }
    lines.push("</available_skills>".to_owned());
    lines.join("\n")
}

/// `buildSkillsLimitNote`.
fn note(included: usize, total: usize, compact: Option<usize>) -> String {
    let how = |max: usize| {
        if max > 0 {
            "descriptions shortened"
        } else {
            "descriptions omitted"
        }
    };
    if included < total {
        let details = compact.map_or(String::new(), |max| {
            format!(" (compact format, {})", how(max))
        });
        format!(
            "⚠️ Skills truncated: included {included} of {total}{details}. Run `openclaw skills check` to audit."
        )
    } else if let Some(max) = compact {
        format!(
            "⚠️ Skills catalog using compact format ({}). Run `openclaw skills check` to audit.",
            how(max)
        )
    } else {
        String::new()
    }
}

/// What the budget let through.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Prepared {
    /// The catalog text exactly as OpenClaw's `buildSkillSnapshot` returns it (it starts with
    /// two newlines; empty when no skill is shown).
    pub text: String,
    /// How many skills it lists (the first ones of `names`).
    pub included: usize,
    /// The skills in OpenClaw's order.
    pub names: Vec<String>,
    /// `None`: full descriptions; `Some(n)`: compact, descriptions cut to `n` code units
    /// (`Some(0)`: omitted).
    pub compact: Option<usize>,
    /// The size of `text` in UTF-16 code units, as OpenClaw measures it.
    pub size: usize,
}

/// `prepareSkillsForPrompt`: `entries` sorted, then fitted into `max_chars` and `max_skills`.
pub(crate) fn prepare(entries: &[OpenclawSkill], max_skills: usize, max_chars: usize) -> Prepared {
    let mut ordered = entries.to_vec();
    ordered.sort_by(|a, b| locale_compare(&a.name, &b.name));
    let total = ordered.len();
    let by_count = &ordered[..total.min(max_skills)];
    let budget = CharBudget { total, max_chars };
    let done = |text: String, included: usize, compact: Option<usize>| Prepared {
        size: js_len(&text),
        text,
        included,
        names: ordered.iter().map(|e| e.name.clone()).collect(),
        compact,
    };
    if let Some(text) = budget.render(by_count, None, true) {
        return done(text, by_count.len(), None);
    }
    let mut shown = by_count.len();
    if !budget.fits(by_count, 0, true) {
        shown = budget.longest_prefix(by_count, true);
    }
    if shown == 0 && !by_count.is_empty() {
        // Not even one skill fits with the notice: try without it.
        if let Some(text) = budget.render(by_count, None, false) {
            return done(text, by_count.len(), None);
        }
        let lo = budget.longest_prefix(by_count, false);
        if lo > 0 {
            shown = lo;
        }
    }
    let skills = &by_count[..shown];
    let with_note = budget.fits(skills, 0, true);
    let max = budget.longest_description(skills, with_note);
    let text = budget
        .render(skills, Some(max), with_note)
        .unwrap_or_default();
    let included = if text.is_empty() { 0 } else { shown };
    done(text, included, Some(max))
}

/// The character budget [`prepare`] fits the catalog into.
struct CharBudget {
    /// How many skills there are before any is left out, for the notice.
    total: usize,
    /// The most UTF-16 code units the catalog may take.
    max_chars: usize,
}

impl CharBudget {
    /// The catalog of `skills` (after the notice, `with_note`), if it fits.
    fn render(
        &self,
        skills: &[OpenclawSkill],
        compact: Option<usize>,
        with_note: bool,
    ) -> Option<String> {
        let body = catalog(skills, compact);
        let prompt = if with_note {
            let n = note(skills.len(), self.total, compact);
            [n, body]
                .into_iter()
                .filter(|p| !p.is_empty())
                .collect::<Vec<_>>()
                .join("\n")
        } else {
            body
        };
        (js_len(&prompt) <= self.max_chars).then_some(prompt)
    }

    /// Whether the compact catalog with descriptions cut to `max` fits.
    fn fits(&self, skills: &[OpenclawSkill], max: usize, with_note: bool) -> bool {
        self.render(skills, Some(max), with_note).is_some()
    }

    /// How many of `skills`, from the first, fit without descriptions (a binary search).
    fn longest_prefix(&self, skills: &[OpenclawSkill], with_note: bool) -> usize {
        let (mut lo, mut hi) = (0, skills.len());
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if self.fits(&skills[..mid], 0, with_note) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }

    /// The longest description cut that fits, from [`MIN_DESCRIPTION`] to [`MAX_DESCRIPTION`];
    /// 0 (no descriptions) when even the shortest does not.
    fn longest_description(&self, skills: &[OpenclawSkill], with_note: bool) -> usize {
        if skills.is_empty() || !self.fits(skills, MIN_DESCRIPTION, with_note) {
            return 0;
        }
        let (mut lo, mut hi) = (MIN_DESCRIPTION, MAX_DESCRIPTION);
        while lo < hi {
            let mid = (lo + hi).div_ceil(2);
            if self.fits(skills, mid, with_note) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        lo
    }
}

/// The home folders whose paths OpenClaw shows as `~` (`resolveCompactHomePrefixes`): the
/// home as given and as resolved, longest first.
fn home_prefixes(home: Option<&Path>) -> Vec<String> {
    let Some(home) = home else {
        return Vec::new();
    };
    let resolved = skill_model::agents::openclaw::resolve(home);
    let mut homes: Vec<PathBuf> = vec![resolved.clone()];
    if let Ok(real) = std::fs::canonicalize(&resolved)
        && real != resolved
    {
        homes.push(real);
    }
    let mut prefixes: Vec<String> = homes
        .iter()
        .map(|h| {
            let s = h.display().to_string();
            if s.ends_with('/') { s } else { format!("{s}/") }
        })
        .collect();
    prefixes.sort_by_key(|p| std::cmp::Reverse(p.len()));
    prefixes
}

/// The entries of the listings OpenClaw would put in the prompt: eligible and model-invocable.
pub(crate) fn entries(listings: &[Listing], home: Option<&Path>) -> Vec<OpenclawSkill> {
    let prefixes = home_prefixes(home);
    listings
        .iter()
        .filter(|l| l.available && !l.hidden)
        .map(|l| {
            let path = l.location.display().to_string();
            let location = prefixes
                .iter()
                .find_map(|p| {
                    path.strip_prefix(p.as_str())
                        .map(|rest| format!("~/{rest}"))
                })
                .unwrap_or(path);
            OpenclawSkill {
                name: l.declared_name.clone(),
                description: l.description.clone(),
                location,
            }
        })
        .collect()
}

/// The catalog for `listings` within `budget` code units, exactly as OpenClaw builds it.
pub fn render(listings: &[Listing], budget: usize, home: Option<&Path>) -> String {
    prepare(&entries(listings, home), MAX_SKILLS, budget).text
}

/// The skills section of OpenClaw's system prompt, or empty when no skill is shown.
pub fn section(listings: &[Listing], budget: usize, home: Option<&Path>) -> String {
    let catalog = render(listings, budget, home);
    let trimmed = js_trim(&catalog);
    if trimmed.is_empty() {
        String::new()
    } else {
        format!("{HEADING}\n{trimmed}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, description: &str) -> OpenclawSkill {
        OpenclawSkill {
            name: name.to_owned(),
            description: description.to_owned(),
            location: format!("~/s/{name}/SKILL.md"),
        }
    }

    #[test]
    fn each_step_of_the_budget() {
        let entries: Vec<OpenclawSkill> = (0..4)
            .map(|i| entry(&format!("s{i}"), &"word ".repeat(40)))
            .collect();
        let full = prepare(&entries, MAX_SKILLS, DEFAULT_BUDGET);
        assert_eq!((full.compact, full.included), (None, 4));
        let size = full.size;
        let shortened = prepare(&entries, MAX_SKILLS, size - 100);
        assert!(matches!(shortened.compact, Some(n) if n >= MIN_DESCRIPTION));
        assert!(
            shortened
                .text
                .starts_with("⚠️ Skills catalog using compact format (descriptions shortened).")
        );
        // As the budget shrinks: descriptions shortened, then names only, then skills dropped,
        // never over the budget.
        let steps: Vec<_> = (100..size)
            .rev()
            .step_by(10)
            .map(|budget| {
                let p = prepare(&entries, MAX_SKILLS, budget);
                assert!(p.size <= budget, "{budget}: {}", p.text);
                p
            })
            .collect();
        let names_only = steps
            .iter()
            .position(|p| p.compact == Some(0) && p.included == 4)
            .expect("a budget that fits names only");
        let dropped = steps
            .iter()
            .position(|p| p.included < 4)
            .expect("a budget that drops skills");
        assert!(names_only < dropped);
        assert!(
            steps[dropped]
                .text
                .starts_with("⚠️ Skills truncated: included")
        );
        let by_count = prepare(&entries, 2, DEFAULT_BUDGET);
        assert_eq!(by_count.included, 2);
    }

    #[test]
    fn shortening_matches_openclaw() {
        assert_eq!(shorten("  a   b\n c ", 10), "a b c");
        assert_eq!(shorten("abcdefghij", 7), "abcd...");
        // OpenClaw cuts at the character, then trims trailing spaces.
        assert_eq!(shorten("abc def ghi", 8), "abc d...");
        assert_eq!(shorten("abcd efg", 8), "abcd efg");
        assert_eq!(shorten("abcd efgh", 8), "abcd...");
    }
}
