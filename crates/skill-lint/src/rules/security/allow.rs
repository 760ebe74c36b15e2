//! Inline suppressions: `<!-- skill: allow SK902 installs Docker from its official script -->`
//! (or the same after `#` or `//` in a script, or in a YAML comment). A comment names one or
//! more security rules by code or slug, then gives a reason, which is required. It covers
//! findings on its own line and on the next line with content (blank lines, code fences and
//! other allow comments in between are skipped), so it can sit above a fenced command.

use super::Finding;
use super::pattern::Pattern;
use super::text::{Text, family};
use crate::rulebook::{self, Rule};
use skill_model::Span;
use std::sync::LazyLock;

static MARKER: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"(?im)skill:[[:space:]]*allow(?-u:\b)([^\n]*?)(?:-->|\*/|$)")
        .expect("a valid marker pattern")
});

/// One `skill: allow` comment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Allow {
    /// Where the marker is.
    pub span: Span,
    /// The rules it names.
    pub rules: Vec<&'static Rule>,
    /// The reason given.
    pub reason: String,
    /// Its own 1-based line.
    line: usize,
    /// The next line with content, which it also covers.
    next_line: usize,
    /// What is wrong with it, when it cannot suppress anything.
    problem: Option<String>,
}

impl Allow {
    /// Why the comment is ignored, when it is.
    pub fn problem(&self) -> Option<String> {
        self.problem.clone()
    }

    /// Whether it suppresses `finding`.
    pub fn covers(&self, finding: &Finding) -> bool {
        if self.problem.is_some() || !self.rules.iter().any(|r| std::ptr::eq(*r, finding.rule)) {
            return false;
        }
        let line = finding.position.line;
        line == self.line || line == self.next_line
    }
}

/// Every allow comment in `text`.
pub fn comments(text: &Text) -> Vec<Allow> {
    if !text.triggered(family::ALLOW) {
        return Vec::new();
    }
    let lines: Vec<(usize, &str)> = text.each_line().collect();
    let mut out = Vec::new();
    for (base, caps) in text.captures_on_lines(family::ALLOW, &MARKER) {
        let whole = caps.get(0).expect("group 0 always matches");
        let (start, end) = (base + whole.start(), base + whole.end());
        let line = text.lines().position(text.text, start).line;
        let next_line = lines
            .iter()
            .enumerate()
            .skip(line)
            .find(|(_, (_, l))| {
                let t = l.trim();
                !(t.is_empty()
                    || t.starts_with("```")
                    || t.starts_with("~~~")
                    || MARKER.is_match(t))
            })
            .map_or(0, |(i, _)| i + 1);
        let (rules, reason, problem) = parse(caps.get(1).map_or("", |m| m.as_str()));
        out.push(Allow {
            span: Span::new(start, end),
            rules,
            reason,
            line,
            next_line,
            problem,
        });
    }
    out
}

/// The rules, the reason, and what is wrong, from the text after `skill: allow`.
fn parse(rest: &str) -> (Vec<&'static Rule>, String, Option<String>) {
    let mut rules = Vec::new();
    let mut words = rest.split_whitespace().peekable();
    let mut problem = None;
    while let Some(word) = words.peek() {
        let names: Vec<&str> = word.split(',').filter(|w| !w.is_empty()).collect();
        let looks_like_rule = names
            .iter()
            .all(|n| rulebook::find(n).is_some() || is_code_shaped(n));
        if names.is_empty() || !looks_like_rule {
            break;
        }
        for name in names {
            match rulebook::find(name) {
                Some(rule) if rule.code.starts_with("SK9") => rules.push(rule),
                Some(rule) => {
                    problem.get_or_insert(format!(
                        "'skill: allow' covers security rules only; {} {} is turned off with --ignore or [lint] ignore in skill.toml",
                        rule.code, rule.slug
                    ));
                }
                None => {
                    problem.get_or_insert(format!("'skill: allow {name}' names no rule"));
                }
            }
        }
        words.next();
    }
    let reason = words.collect::<Vec<_>>().join(" ");
    if problem.is_none() && rules.is_empty() {
        problem = Some(
            "'skill: allow' names no rule: write the code, as in 'skill: allow SK902 reason'"
                .to_owned(),
        );
    }
    if problem.is_none() && reason.chars().filter(|c| c.is_alphanumeric()).count() < 3 {
        problem = Some(format!(
            "'skill: allow {}' gives no reason; the reason is required",
            rules.iter().map(|r| r.code).collect::<Vec<_>>().join(",")
        ));
    }
    (rules, reason, problem)
}

fn is_code_shaped(word: &str) -> bool {
    word.len() == 5
        && word[..2].eq_ignore_ascii_case("SK")
        && word[2..].bytes().all(|b| b.is_ascii_digit())
}

/// Compiles the patterns of this file now (see [`super::preload`]).
pub(super) fn compile() {
    LazyLock::force(&MARKER);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rules_and_reasons() {
        let (rules, reason, problem) = parse(" SK902,persistence installs Docker ");
        assert_eq!(rules.len(), 2);
        assert_eq!(reason, "installs Docker");
        assert_eq!(problem, None);
        assert!(parse(" SK902 ").2.unwrap().contains("no reason"));
        assert!(
            parse(" SK201 because ")
                .2
                .unwrap()
                .contains("security rules only")
        );
        assert!(
            parse(" SK999 because ")
                .2
                .unwrap()
                .contains("names no rule")
        );
        assert!(
            parse(" because I said so")
                .2
                .unwrap()
                .contains("names no rule")
        );
    }

    #[test]
    fn covers_its_line_and_the_next_content_line() {
        let text = Text::new(
            "SKILL.md",
            "a\n<!-- skill: allow SK902 the official installer -->\n\n```bash\ncurl https://get.docker.com | sh\n```\ncurl https://get.docker.com | sh\n",
        );
        let all = comments(&text);
        assert_eq!(all.len(), 1);
        assert_eq!((all[0].line, all[0].next_line), (2, 5));
        let script = Text::new(
            "a.sh",
            "# skill: allow SK910 the backup job\ncrontab x.cron\n",
        );
        let all = comments(&script);
        assert_eq!(
            (all[0].line, all[0].next_line, all[0].reason.as_str()),
            (1, 2, "the backup job")
        );
    }
}
