//! `description-overlap`: across the skills linted together, two whose name and description
//! are so alike that a model choosing from the summary cannot tell them apart. Unlike the other
//! rules it sees the whole run, not one skill; the similarity is `skill::similarity`'s.

use super::names::value_span;
use crate::lint::SkillReport;
use crate::lint::diagnostic::{Diagnostic, Location};
use crate::lint::rulebook::DESCRIPTION_OVERLAP;
use crate::lint::target::Target;
use crate::skill::similarity::{OVERLAP_THRESHOLD, described, similar_pairs};

/// Adds a `description-overlap` finding to both skills of every pair in `skills` that is too
/// alike; `others` (name, description) are compared too but not reported on.
pub fn check_run(skills: &mut [SkillReport], others: &[(String, String)], target: Target) {
    let shown: Vec<(usize, (String, String))> = skills
        .iter()
        .enumerate()
        .filter_map(|(i, r)| described(&r.skill).map(|s| (i, s)))
        .collect();
    let mut compared: Vec<(&str, &str)> = shown
        .iter()
        .map(|(_, (n, d))| (n.as_str(), d.as_str()))
        .collect();
    compared.extend(others.iter().map(|(n, d)| (n.as_str(), d.as_str())));
    let name_of = |k: usize| compared[k].0.to_owned();
    let mut found: Vec<(usize, Diagnostic)> = Vec::new();
    for pair in similar_pairs(&compared, OVERLAP_THRESHOLD) {
        for (me, other) in [(pair.a, pair.b), (pair.b, pair.a)] {
            let Some((index, _)) = shown.get(me) else {
                continue;
            };
            let report = &skills[*index];
            let location = report
                .skill
                .manifest()
                .and_then(|m| m.get("description"))
                .map_or(Location::Folder, |e| {
                    Location::Span(value_span(e.key_span, e.value.span))
                });
            let file = match location {
                Location::Folder => report.skill.dir.clone(),
                _ => report.skill.file_path(),
            };
            let where_other = shown
                .get(other)
                .map(|(i, _)| format!(" ({})", skills[*i].skill.dir.display()))
                .unwrap_or_default();
            found.push((
                *index,
                Diagnostic {
                    rule: &DESCRIPTION_OVERLAP,
                    severity: DESCRIPTION_OVERLAP.severity_for(target),
                    message: format!(
                        "the description of '{}' is {:.0}% alike to that of '{}'{where_other}: a model choosing from the summary cannot tell them apart",
                        name_of(me),
                        pair.score * 100.0,
                        name_of(other)
                    ),
                    file,
                    location,
                    note: Some(format!("shared terms: {}", pair.shared.join(", "))),
                    help: Some(format!(
                        "say what sets '{}' apart and when to use it rather than '{}', or keep one of the two",
                        name_of(me),
                        name_of(other)
                    )),
                    fix: None,
                },
            ));
        }
    }
    for (index, diagnostic) in found {
        skills[index].diagnostics.push(diagnostic);
    }
}
