//! `description-overlap`: across the skills linted together, two whose name and description
//! are so alike that a model choosing from the summary cannot tell them apart. Unlike the other
//! rules it sees the whole run, not one skill; the similarity is `skill_model::similarity`'s.

use super::names::value_span;
use crate::diagnostic::{Diagnostic, Location};
use crate::rulebook::DESCRIPTION_OVERLAP;
use crate::target::Target;
use skill_model::Skill;
use skill_model::similarity::{OVERLAP_THRESHOLD, described, similar_pairs};
use std::path::{Path, PathBuf};

/// Whether an agent would list two skills side by side: two linted skills in one folder (a
/// skill root), or a linted skill and one of a `--with` root (`None`). Skills of different
/// roots of one run (two publishers' folders of a registry archive) are never loaded together.
fn loaded_together(a: Option<&Path>, b: Option<&Path>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.parent() == b.parent(),
        _ => true,
    }
}

/// Whether two descriptions are one template filled in with each skill's name ("Use when
/// working with glab api commands." beside "... glab schedule commands."): every word that sets
/// one description apart is a word of its own name, so name and description route alike.
fn named_template(a: (&str, &str), b: (&str, &str)) -> bool {
    // Every word counts here, stop words too: "help" and "user" are what set two apart.
    let words = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let (desc_a, desc_b) = (words(a.1), words(b.1));
    let apart = |mine: &[String], theirs: &[String], name: &str| {
        let name = words(name);
        let own: Vec<&String> = mine.iter().filter(|t| !theirs.contains(t)).collect();
        !own.is_empty() && own.iter().all(|t| name.contains(t))
    };
    a.0 != b.0 && apart(&desc_a, &desc_b, a.0) && apart(&desc_b, &desc_a, b.0)
}

/// What `description-overlap` reads of one skill, taken before the skill is linted so the
/// comparison can run while the skill itself moves on.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct ComparedSkill {
    /// The name and description the summary shows, when the skill has a description.
    shown: Option<(String, String)>,
    /// The skill's folder, named in the other skill's finding.
    dir: PathBuf,
    /// Where a finding points: the description, or the folder when there is none.
    file: PathBuf,
    location: Location,
    /// Whether it lies inside another skill's folder ([`crate::target::nested`]).
    nested: bool,
}

impl ComparedSkill {
    /// What the rule needs of `skill`.
    pub fn of(skill: &Skill) -> ComparedSkill {
        let location = skill
            .manifest()
            .and_then(|m| m.get("description"))
            .map_or(Location::Folder, |e| {
                Location::Span(value_span(e.key_span, e.value.span))
            });
        let file = match location {
            Location::Folder => skill.dir.clone(),
            _ => skill.file_path(),
        };
        ComparedSkill {
            shown: described(skill),
            dir: skill.dir.clone(),
            file,
            location,
            nested: crate::target::nested_on_disk(&skill.dir),
        }
    }
}

/// The `description-overlap` findings of each of `entries` (in the same order): one for each
/// skill of every pair that is too alike; `others` (name, description) are compared too but
/// not reported on.
pub(crate) fn check_run(
    entries: &[ComparedSkill],
    others: &[(String, String)],
    target: Target,
) -> Vec<Vec<Diagnostic>> {
    let shown: Vec<(usize, &(String, String))> = entries
        .iter()
        .enumerate()
        .filter_map(|(i, entry)| entry.shown.as_ref().map(|s| (i, s)))
        .collect();
    let mut compared: Vec<(&str, &str)> = shown
        .iter()
        .map(|(_, (n, d))| (n.as_str(), d.as_str()))
        .collect();
    compared.extend(others.iter().map(|(n, d)| (n.as_str(), d.as_str())));
    let name_of = |k: usize| compared[k].0.to_owned();
    let mut found: Vec<Vec<Diagnostic>> = entries.iter().map(|_| Vec::new()).collect();
    let linted_dir = |k: usize| shown.get(k).map(|(i, _)| entries[*i].dir.as_path());
    // A sub-skill is chosen through its parent where the agent does not list it on its own.
    let unlisted = |k: usize| {
        shown.get(k).is_some_and(|(i, _)| entries[*i].nested)
            && !target.facts().is_some_and(|f| f.lists_nested)
    };
    for pair in similar_pairs(&compared, OVERLAP_THRESHOLD) {
        if !loaded_together(linted_dir(pair.a), linted_dir(pair.b))
            || unlisted(pair.a)
            || unlisted(pair.b)
            || named_template(compared[pair.a], compared[pair.b])
        {
            continue;
        }
        for (me, other) in [(pair.a, pair.b), (pair.b, pair.a)] {
            let Some((index, _)) = shown.get(me) else {
                continue;
            };
            let entry = &entries[*index];
            let where_other = shown
                .get(other)
                .map(|(i, _)| format!(" ({})", entries[*i].dir.display()))
                .unwrap_or_default();
            found[*index].push(Diagnostic {
                rule: &DESCRIPTION_OVERLAP,
                severity: DESCRIPTION_OVERLAP.severity_for(target),
                message: format!(
                    "the description of '{}' is {:.0}% alike to that of '{}'{where_other}: a model choosing from the summary cannot tell them apart",
                    name_of(me),
                    pair.score * 100.0,
                    name_of(other)
                ),
                file: entry.file.clone(),
                location: entry.location.clone(),
                note: Some(format!("shared terms: {}", pair.shared.join(", "))),
                help: Some(format!(
                    "say what sets '{}' apart and when to use it rather than '{}', or keep one of the two",
                    name_of(me),
                    name_of(other)
                )),
                fix: None,
                for_every_target: false,
            });
        }
    }
    found
}
