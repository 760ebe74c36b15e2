//! `description-overlap`: across the skills linted together, two whose name and description
//! are so alike that a model choosing from the summary cannot tell them apart. Unlike the other
//! rules it sees the whole run, not one skill; the similarity is `skill::similarity`'s.

use super::names::value_span;
use crate::lint::diagnostic::{Diagnostic, Location};
use crate::lint::rulebook::DESCRIPTION_OVERLAP;
use crate::lint::target::Target;
use crate::skill::Skill;
use crate::skill::similarity::{OVERLAP_THRESHOLD, described, similar_pairs};
use std::path::PathBuf;

/// What `description-overlap` reads of one skill, taken before the skill is linted so the
/// comparison can run while the skill itself moves on.
pub struct Entry {
    /// The name and description the summary shows, when the skill has a description.
    shown: Option<(String, String)>,
    /// The skill's folder, named in the other skill's finding.
    dir: PathBuf,
    /// Where a finding points: the description, or the folder when there is none.
    file: PathBuf,
    location: Location,
}

impl Entry {
    /// What the rule needs of `skill`.
    pub fn of(skill: &Skill) -> Entry {
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
        Entry {
            shown: described(skill),
            dir: skill.dir.clone(),
            file,
            location,
        }
    }
}

/// The `description-overlap` findings of each of `entries` (in the same order): one for each
/// skill of every pair that is too alike; `others` (name, description) are compared too but
/// not reported on.
pub fn check_run(
    entries: &[Entry],
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
    for pair in similar_pairs(&compared, OVERLAP_THRESHOLD) {
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
