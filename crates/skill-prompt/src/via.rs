//! The four ways a skill's instructions reach the model, with nanobot's texts: the summary the
//! model chooses from (it reads SKILL.md itself), always-on (the body under `# Active Skills`
//! in the system prompt), a mention in the user's message (the body appended to that message
//! in nanobot 0.3.5's `[Active Skills — instructions for this user turn]` block), and a preload
//! by the caller (the bodies under `# Specified Skills` in the system prompt). Not the loop
//! that uses them (`agent`), nor the summary itself (`nanobot`).

use super::Listing;
use super::system::PART_SEPARATOR;
use regex::Regex;
use std::sync::OnceLock;

skill_model::choices! {
    /// How a skill reaches the model.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub enum Via {
        Summary = "summary": "Listed in the summary; the model decides to read its SKILL.md.",
        Always = "always": "Always-on: its body is in the system prompt under `# Active Skills`.",
        Mention = "mention": "Named in the user's message (`@name` or `$name`): its body follows the message.",
        Preload = "preload": "Preloaded by the caller: its body is in the system prompt under `# Specified Skills`.",
    }
}

impl Default for Via {
    /// The way every agent offers: the summary.
    fn default() -> Via {
        Via::Summary
    }
}

/// nanobot 0.3.5's `load_skills_for_context`: `### Skill: <name>\n\n<body>` for each named
/// skill that exists, joined by the part separator.
fn bodies(listings: &[Listing], names: &[String]) -> String {
    names
        .iter()
        .filter_map(|name| listings.iter().find(|l| &l.name == name))
        .map(|l| format!("### Skill: {}\n\n{}", l.name, l.body))
        .collect::<Vec<_>>()
        .join(PART_SEPARATOR)
}

/// `# Specified Skills` with the bodies of `names` (the caller's `skill_names`); empty when
/// none of them exists.
pub fn specified_skills(listings: &[Listing], names: &[String]) -> String {
    let content = bodies(listings, names);
    if content.is_empty() {
        content
    } else {
        format!("# Specified Skills\n\n{content}")
    }
}

/// The skills named in `text` as `$name` (nanobot's syntax, regex `(?<![\w$])\$([A-Za-z0-9_-]+)`)
/// or `@name`, that are in `listings`: de-duplicated, in first-mention order.
pub fn mentioned(text: &str, listings: &[Listing]) -> Vec<String> {
    static MENTION: OnceLock<Regex> = OnceLock::new();
    let regex = MENTION
        .get_or_init(|| Regex::new(r"(^|[^\w$@])[$@]([A-Za-z0-9_-]+)").expect("valid regex"));
    let mut names: Vec<String> = Vec::new();
    for captures in regex.captures_iter(text) {
        let Some(name) = captures.get(2).map(|m| m.as_str()) else {
            continue;
        };
        if listings.iter().any(|l| l.name == name) && !names.iter().any(|n| n == name) {
            names.push(name.to_owned());
        }
    }
    names
}

/// The user's message with the bodies of the mentioned skills appended as nanobot 0.3.5 does
/// (`build_explicit_skill_runtime_context`, then `append_runtime_context`): always-on skills
/// are skipped (their body is in the system prompt already); the message is unchanged when no
/// body is left.
pub fn with_mentions(text: &str, listings: &[Listing], names: &[String]) -> String {
    let names: Vec<String> = names
        .iter()
        .filter(|n| {
            !listings
                .iter()
                .any(|l| &l.name == *n && l.always && l.available)
        })
        .cloned()
        .collect();
    let content = bodies(listings, &names);
    if content.is_empty() {
        return text.to_owned();
    }
    let block =
        format!("[Active Skills — instructions for this user turn]\n{content}\n[/Active Skills]");
    if text.is_empty() {
        block
    } else {
        format!("{text}\n\n{block}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(name: &str, body: &str) -> Listing {
        Listing {
            name: name.to_owned(),
            declared_name: name.to_owned(),
            description: String::new(),
            location: Default::default(),
            root: String::new(),
            available: true,
            missing: String::new(),
            always: false,
            hidden: false,
            body: body.to_owned(),
        }
    }

    #[test]
    fn mentions_follow_nanobot() {
        let listings = [listing("a", "Do A."), listing("b-c", "Do B.")];
        assert_eq!(
            mentioned("use $b-c and @a, $a again; x$a", &listings),
            ["b-c", "a"]
        );
        assert!(mentioned("$HOME and @nobody", &listings).is_empty());
        assert_eq!(
            with_mentions("hi $a", &listings, &["a".into()]),
            "hi $a\n\n[Active Skills — instructions for this user turn]\n### Skill: a\n\nDo A.\n[/Active Skills]"
        );
        assert_eq!(
            specified_skills(&listings, &["a".into(), "b-c".into()]),
            "# Specified Skills\n\n### Skill: a\n\nDo A.\n\n---\n\n### Skill: b-c\n\nDo B."
        );
    }
}
