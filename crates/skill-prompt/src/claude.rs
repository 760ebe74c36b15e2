//! Claude Code 2.1.328's skills listing, as its real CLI sends it (renderer `skill_listing`,
//! budget `_3n` in its bundle): a `<system-reminder>` text block in the first user message,
//! one `- label: description` line per skill, then its own bundled skills. Over budget,
//! descriptions are never shortened: whole entries collapse to `- label`, granted greedily in
//! listing order (the order a fresh home's usage scores leave) while the room lasts; most
//! bundled entries never collapse.

use super::Listing;
use skill_model::agents::text::{js_len, terminal_width};
use skill_model::agents::{Agent, BundledSkill, PromptBudget, facts};

/// The line before the entries (`skill_listing`).
pub(crate) const HEADER: &str = "The following skills are available for use with the Skill tool:";

/// Longest description kept whole, in UTF-16 code units (`jEs`); longer ones end in `…`.
pub(crate) const DESCRIPTION_CAP: usize = match facts(Agent::Claude).budget {
    Some(PromptBudget {
        description_cap: Some(cap),
        ..
    }) => cap,
    _ => panic!("the agents table gives Claude Code a description cap"),
};

/// One line of the listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ClaudeLine {
    /// The skill's name (its folder's).
    pub name: String,
    /// The folder name, with the frontmatter name in parentheses when Claude Code shows it.
    pub label: String,
    /// The description as listed (capped), `when_to_use` included.
    pub description: String,
    /// The description was longer than the cap.
    pub capped: bool,
}

impl ClaudeLine {
    fn full(&self) -> String {
        format!("- {}: {}", self.label, self.description)
    }

    fn bare(&self) -> String {
        format!("- {}", self.label)
    }
}

/// A frontmatter name Claude Code shows beside the folder name (`CSn`): at most 256
/// characters of letters, marks, digits, `_`, `:`, `.` and `-`.
fn shown_name(name: &str) -> bool {
    name.chars().count() <= 256
        && !name.is_empty()
        && name.chars().all(|c| {
            c.is_alphanumeric()
                || matches!(c, '_' | ':' | '.' | '-')
                || unicode_properties::UnicodeGeneralCategory::general_category_group(c)
                    == unicode_properties::GeneralCategoryGroup::Mark
        })
}

fn cap(description: &str) -> (String, bool) {
    if js_len(description) <= DESCRIPTION_CAP {
        return (description.to_owned(), false);
    }
    let mut units = 0;
    let kept: String = description
        .chars()
        .take_while(|c| {
            units += c.len_utf16();
            units < DESCRIPTION_CAP
        })
        .collect();
    (format!("{kept}…"), true)
}

/// The label of `shown[i]` (`CSn`): its folder name, with its frontmatter name beside it when
/// that name is valid, differs, and finds this skill (`Ws`: a skill whose folder has that
/// name wins anywhere in the list, bundled ones included, else the first whose frontmatter
/// name it is).
fn label(shown: &[&Listing], i: usize) -> String {
    let l = shown[i];
    let alias = &l.declared_name;
    let folder_of_that_name = shown.iter().any(|o| o.name == *alias)
        || bundled().iter().any(|b| b.name == alias.as_str());
    let finds_this =
        !folder_of_that_name && shown.iter().position(|o| o.declared_name == *alias) == Some(i);
    if *alias == l.name
        || l.name.ends_with(&format!(":{alias}"))
        || !shown_name(alias)
        || !finds_this
    {
        l.name.clone()
    } else {
        format!("{} ({alias})", l.name)
    }
}

/// The entries of the skills the model is told about, in listing order.
pub(crate) fn entries(listings: &[Listing]) -> Vec<ClaudeLine> {
    let shown: Vec<&Listing> = listings.iter().filter(|l| !l.hidden).collect();
    (0..shown.len())
        .map(|i| {
            let (description, capped) = cap(&shown[i].description);
            ClaudeLine {
                name: shown[i].name.clone(),
                label: label(&shown, i),
                description,
                capped,
            }
        })
        .collect()
}

/// Claude Code's own skills, listed after the user's.
pub fn bundled() -> &'static [BundledSkill] {
    facts(Agent::Claude).bundled
}

/// The listing under a budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Prepared {
    /// Per entry: collapsed to its bare label.
    pub collapsed: Vec<bool>,
    /// Bundled skills that collapsed.
    pub bundled_collapsed: Vec<&'static str>,
    /// The listing's size in terminal columns, bundled entries included.
    pub size: usize,
}

/// Decides which entries keep their description under `budget` columns, the bundled entries
/// (those no user skill shadows) counted as Claude Code counts them.
pub(crate) fn prepare(entries: &[ClaudeLine], budget: usize) -> Prepared {
    let bundled: Vec<&BundledSkill> = bundled()
        .iter()
        .filter(|b| !entries.iter().any(|e| e.name == b.name))
        .collect();
    let count = entries.len() + bundled.len();
    let gaps = count.saturating_sub(1);
    let full: usize = entries
        .iter()
        .map(|e| terminal_width(&e.full()))
        .sum::<usize>()
        + bundled.iter().map(|b| b.size).sum::<usize>()
        + gaps;
    if full <= budget {
        return Prepared {
            collapsed: vec![false; entries.len()],
            bundled_collapsed: Vec::new(),
            size: full,
        };
    }
    let bare = |b: &BundledSkill| 2 + terminal_width(b.name);
    let floor: usize = entries
        .iter()
        .map(|e| terminal_width(&e.bare()))
        .sum::<usize>()
        + bundled
            .iter()
            .map(|b| if b.collapsible { bare(b) } else { b.size })
            .sum::<usize>()
        + gaps;
    let mut left = budget.saturating_sub(floor) as isize;
    let mut size = floor;
    let mut grant = |extra: usize| {
        if extra as isize <= left {
            left -= extra as isize;
            size += extra;
            true
        } else {
            false
        }
    };
    let collapsed = entries
        .iter()
        .map(|e| !grant(terminal_width(&e.full()) - terminal_width(&e.bare())))
        .collect();
    let bundled_collapsed = bundled
        .iter()
        .filter(|b| b.collapsible && !grant(b.size - bare(b)))
        .map(|b| b.name)
        .collect();
    Prepared {
        collapsed,
        bundled_collapsed,
        size,
    }
}

/// The listing block as Claude Code sends it, its bundled entries left out (their text is
/// Claude Code's own; they are counted in the budget).
pub fn render(listings: &[Listing], budget: usize) -> String {
    let entries = entries(listings);
    let prepared = prepare(&entries, budget);
    let lines: Vec<String> = entries
        .iter()
        .zip(&prepared.collapsed)
        .map(|(e, &bare)| if bare { e.bare() } else { e.full() })
        .collect();
    format!(
        "<system-reminder>\n{HEADER}\n\n{}\n</system-reminder>",
        lines.join("\n")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(label: &str, description: &str) -> ClaudeLine {
        ClaudeLine {
            name: label.to_owned(),
            label: label.to_owned(),
            description: description.to_owned(),
            capped: false,
        }
    }

    #[test]
    fn long_descriptions_end_in_an_ellipsis_at_the_cap() {
        let (text, capped) = cap(&"x".repeat(2000));
        assert!(capped);
        assert_eq!(js_len(&text), DESCRIPTION_CAP);
        assert!(text.ends_with('…'));
        assert_eq!(cap("short"), ("short".to_owned(), false));
    }

    #[test]
    fn over_budget_entries_collapse_whole_and_later_short_ones_still_fit() {
        let entries = vec![entry("a", &"x".repeat(500)), entry("b", "short")];
        let fixed: usize = bundled()
            .iter()
            .map(|b| {
                if b.collapsible {
                    2 + b.name.len()
                } else {
                    b.size
                }
            })
            .sum();
        let floor = fixed + "- a".len() + "- b".len() + entries.len() + bundled().len() - 1;
        let prepared = prepare(&entries, floor + 10);
        assert_eq!(prepared.collapsed, [true, false]);
        assert_eq!(
            prepared.bundled_collapsed.len(),
            bundled().iter().filter(|b| b.collapsible).count()
        );
    }
}
