//! `description-overlap`: across the skills linted together, two whose name and description
//! are so alike that a model choosing from the summary cannot tell them apart. Unlike the other
//! rules it sees the whole run, not one skill; the similarity is `skill::similarity`'s.

use super::names::value_span;
use crate::lint::diagnostic::{Diagnostic, Location};
use crate::lint::rulebook::DESCRIPTION_OVERLAP;
use crate::lint::target::Target;
use crate::skill::Skill;
use crate::skill::similarity::{OVERLAP_THRESHOLD, described, similar_pairs};

/// The `description-overlap` findings of each of `skills` (in the same order): one for each
/// skill of every pair that is too alike; `others` (name, description) are compared too but
/// not reported on. It reads only the manifests, so a run can call it before linting a skill.
pub fn check_run(
    skills: &[Skill],
    others: &[(String, String)],
    target: Target,
) -> Vec<Vec<Diagnostic>> {
    let shown: Vec<(usize, (String, String))> = skills
        .iter()
        .enumerate()
        .filter_map(|(i, skill)| described(skill).map(|s| (i, s)))
        .collect();
    let mut compared: Vec<(&str, &str)> = shown
        .iter()
        .map(|(_, (n, d))| (n.as_str(), d.as_str()))
        .collect();
    compared.extend(others.iter().map(|(n, d)| (n.as_str(), d.as_str())));
    let name_of = |k: usize| compared[k].0.to_owned();
    let mut found: Vec<Vec<Diagnostic>> = skills.iter().map(|_| Vec::new()).collect();
    for pair in similar_pairs(&compared, OVERLAP_THRESHOLD) {
        for (me, other) in [(pair.a, pair.b), (pair.b, pair.a)] {
            let Some((index, _)) = shown.get(me) else {
                continue;
            };
            let skill = &skills[*index];
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
            let where_other = shown
                .get(other)
                .map(|(i, _)| format!(" ({})", skills[*i].dir.display()))
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
                    file,
                    location,
                    note: Some(format!("shared terms: {}", pair.shared.join(", "))),
                    help: Some(format!(
                        "say what sets '{}' apart and when to use it rather than '{}', or keep one of the two",
                        name_of(me),
                        name_of(other)
                    )),
                fix: None,
            });
        }
    }
    found
}
