//! Codex 0.169.1's skills listing, as its real CLI sends it: a developer message part
//! `<skills_instructions>` with a table of skill roots (`r0`, `r1`, ... for the roots that list
//! a skill) and one `- name: description (file: rN/…/SKILL.md)` line per skill. Its budget is
//! 2% of the context window in tokens, each line costing `ceil((bytes + 1) / 4)`: over it,
//! every description is trimmed alike (a character per skill per pass, silently), and when
//! even bare lines do not fit, descriptions go and skills are left out from the end.

use super::Listing;
use skill_model::catalog::Root;
use std::path::{Path, PathBuf};

/// The lines before the roots table.
pub(crate) const HEADER: &str = "<skills_instructions>\n## Skills\nA skill is a set of local instructions to follow that is stored in a `SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, and a short path that can be expanded into an absolute path using the skill roots table.";

/// One skill's line before any trimming.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CodexLine {
    /// The name.
    pub name: String,
    /// The description.
    pub description: String,
    /// Index of its root among the renderer's roots.
    pub root: usize,
    /// Its root's alias (`rN`) while every entry is listed.
    pub alias: usize,
    /// The `SKILL.md` path below that root.
    pub relative: PathBuf,
}

/// What the budget leaves of each entry: `None` when left out, else the characters of its
/// description kept.
pub(crate) type Fit = Vec<Option<usize>>;

fn line(e: &CodexLine, alias: usize, kept: usize) -> String {
    let file = format!("r{alias}/{}", e.relative.display());
    match kept {
        0 => format!("- {}: (file: {file})", e.name),
        n => {
            let description: String = e.description.chars().take(n).collect();
            format!("- {}: {description} (file: {file})", e.name)
        }
    }
}

/// A line's cost in tokens: its bytes and newline, four to a token, rounded up.
fn cost(line: &str) -> usize {
    (line.len() + 1).div_ceil(4)
}

/// The root a listing came from: the longest root path its file lies under.
fn root_of(location: &Path, roots: &[Root]) -> Option<(usize, PathBuf)> {
    roots
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some((i, location.strip_prefix(&r.path).ok()?.to_path_buf())))
        .min_by_key(|(_, rel)| rel.components().count())
}

/// The entries of the skills the model is told about, in listing order.
pub(crate) fn entries(listings: &[Listing], roots: &[Root]) -> Vec<CodexLine> {
    let mut entries: Vec<CodexLine> = listings
        .iter()
        .filter(|l| !l.hidden)
        .filter_map(|l| {
            let (root, relative) = root_of(&l.location, roots)?;
            Some(CodexLine {
                name: l.name.clone(),
                description: l.description.clone(),
                root,
                alias: 0,
                relative,
            })
        })
        .collect();
    let used = used_roots(entries.iter());
    for e in &mut entries {
        e.alias = used.iter().position(|&r| r == e.root).unwrap_or(0);
    }
    entries
}

/// The roots that list a skill, in table order.
fn used_roots<'a>(entries: impl Iterator<Item = &'a CodexLine>) -> Vec<usize> {
    let mut used: Vec<usize> = entries.map(|e| e.root).collect();
    used.sort_unstable();
    used.dedup();
    used
}

/// Fits `entries` into `budget` tokens.
pub(crate) fn prepare(entries: &[CodexLine], budget: usize) -> Fit {
    let full = |e: &CodexLine| cost(&line(e, e.alias, e.description.chars().count()));
    if entries.iter().map(full).sum::<usize>() <= budget {
        return entries
            .iter()
            .map(|e| Some(e.description.chars().count()))
            .collect();
    }
    let bare: Vec<usize> = entries.iter().map(|e| cost(&line(e, e.alias, 0))).collect();
    let floor: usize = bare.iter().sum();
    if floor > budget {
        let mut used = 0;
        return bare
            .iter()
            .map(|&c| {
                (used + c <= budget).then(|| {
                    used += c;
                    0
                })
            })
            .collect();
    }
    let mut left = budget - floor;
    let mut kept = vec![0usize; entries.len()];
    let mut paid = vec![0usize; entries.len()];
    loop {
        let mut grew = false;
        for (i, e) in entries.iter().enumerate() {
            if kept[i] >= e.description.chars().count() {
                continue;
            }
            let extra = cost(&line(e, e.alias, kept[i] + 1)) - bare[i];
            let delta = extra.saturating_sub(paid[i]);
            if delta <= left {
                kept[i] += 1;
                paid[i] = extra;
                left -= delta;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    kept.into_iter().map(Some).collect()
}

/// The tokens the listed lines cost.
pub(crate) fn size(entries: &[CodexLine], fit: &Fit) -> usize {
    entries
        .iter()
        .zip(fit)
        .filter_map(|(e, k)| Some(cost(&line(e, e.alias, (*k)?))))
        .sum()
}

/// The `<skills_instructions>` part, or nothing when no skill is listed.
pub fn render(listings: &[Listing], roots: &[Root], budget: usize) -> String {
    let entries = entries(listings, roots);
    let fit = prepare(&entries, budget);
    let listed: Vec<(&CodexLine, usize)> = entries
        .iter()
        .zip(&fit)
        .filter_map(|(e, k)| Some((e, (*k)?)))
        .collect();
    if listed.is_empty() {
        return String::new();
    }
    let used = used_roots(listed.iter().map(|(e, _)| *e));
    let alias = |root: usize| used.iter().position(|&r| r == root).unwrap_or(0);
    let mut out = vec![HEADER.to_owned(), "### Skill roots".to_owned()];
    for (i, &root) in used.iter().enumerate() {
        let path = std::fs::canonicalize(&roots[root].path).unwrap_or(roots[root].path.clone());
        out.push(format!("- `r{i}` = `{}`", path.display()));
    }
    out.push("### Available skills".to_owned());
    out.extend(listed.iter().map(|(e, k)| line(e, alias(e.root), *k)));
    out.push("</skills_instructions>".to_owned());
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(name: &str, description: &str) -> CodexLine {
        CodexLine {
            name: name.to_owned(),
            description: description.to_owned(),
            root: 0,
            alias: 0,
            relative: PathBuf::from(format!("{name}/SKILL.md")),
        }
    }

    #[test]
    fn each_line_costs_its_own_tokens_and_trimming_shares_the_rest() {
        let entries = vec![entry("a", &"x".repeat(40)), entry("b", &"y".repeat(40))];
        let full: usize = entries.iter().map(|e| cost(&line(e, 0, 40))).sum();
        assert_eq!(prepare(&entries, full), vec![Some(40), Some(40)]);
        let fit = prepare(&entries, full - 2);
        assert!(
            fit.iter().all(|k| k.is_some_and(|n| n < 40 && n > 30)),
            "{fit:?}"
        );
        let bare = cost(&line(&entries[0], 0, 0));
        assert_eq!(prepare(&entries, bare), vec![Some(0), None]);
    }
}
