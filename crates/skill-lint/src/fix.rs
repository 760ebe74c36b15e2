//! `--fix`: applies the fixes of a lint run to each `SKILL.md` by editing text at spans, and
//! writes the result atomically (or only diffs it).

use super::diagnostic::{Edit, Fix};
use super::edit::apply;
use super::{Options, SkillReport, lint_skill};
use skill_model::span::Position;
use std::path::{Path, PathBuf};

/// One fix that was applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Applied {
    /// The rule's slug.
    pub slug: &'static str,
    /// What the fix did.
    pub message: String,
    /// Where the diagnostic was.
    pub position: Option<Position>,
    /// For an unsafe fix, what it changes for agents.
    pub unsafe_because: Option<String>,
    /// The top-level key the fix adds, if any besides `metadata`.
    pub adds_key: Option<std::borrow::Cow<'static, str>>,
}

/// The new text of one `SKILL.md` and what changed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixedFile {
    /// The file.
    pub path: PathBuf,
    /// Its text before.
    pub before: String,
    /// Its text after.
    pub after: String,
    /// The fixes applied, in file order.
    pub applied: Vec<Applied>,
}

/// Why fixed text could not be written.
#[derive(Debug, thiserror::Error)]
#[error("cannot write {path}: {source}")]
pub struct WriteError {
    /// The file.
    pub path: PathBuf,
    /// The I/O error.
    pub source: std::io::Error,
}

/// Rounds of fixing beyond one per frontmatter line: each round re-lints the fixed text, so
/// fixes that touch the same place, or whose result needs another fix (CRLF in inserted lines),
/// settle. A YAML error names one line, so quoting the values of many broken lines takes a
/// round each (a fixed eight rounds left the lint fuzz target's sixteen half fixed); the bound
/// only stops fixes that would undo each other.
const EXTRA_ROUNDS: usize = 8;

/// Which fixes to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Applying {
    /// Only those that cannot change what an agent loads, lists or runs (`--fix`).
    Safe,
    /// Unsafe ones too (`--fix --unsafe-fixes`).
    Unsafe,
}

impl Applying {
    fn allows(self, fix: &Fix) -> bool {
        self == Applying::Unsafe || fix.is_safe()
    }
}

/// The fixed text of the skill's `SKILL.md`, when any fix applies. Fixes are applied in rounds
/// until the text offers none, so a second `--fix` changes nothing. A round whose result no
/// longer parses as YAML, or whose top-level keys change beyond moving some under `metadata`,
/// is dropped and fixing stops there.
pub fn plan(report: &SkillReport, options: &Options, applying: Applying) -> Option<FixedFile> {
    let doc = report.skill.document.as_ref().ok()?;
    let before = doc.source.text.clone();
    let frontmatter_lines = doc
        .frontmatter
        .map_or(0, |f| doc.source.slice(f.yaml).lines().count());
    let mut applied = Vec::new();
    let mut current: Option<SkillReport> = None;
    for _ in 0..frontmatter_lines + EXTRA_ROUNDS {
        let round = current.as_ref().unwrap_or(report);
        let Some((text, done)) = one_round(round, applying) else {
            break;
        };
        let next = lint_skill(report.skill.with_text(text), options);
        let adds: Vec<&str> = done.iter().filter_map(|a| a.adds_key.as_deref()).collect();
        if !keeps_keys(round, &next, &adds) {
            break;
        }
        for fix in done {
            // A later round finishing the same fix (CRLF in inserted lines) is one report.
            if !applied
                .iter()
                .any(|a: &Applied| a.slug == fix.slug && a.message == fix.message)
            {
                applied.push(fix);
            }
        }
        current = Some(next);
    }
    let after = current?.skill.document.ok()?.source.text;
    (after != before).then(|| FixedFile {
        path: report.skill.file_path(),
        before,
        after,
        applied,
    })
}

/// Applies the fixes of one lint pass. Fixes overlapping an earlier one wait for the next
/// round; the same fix offered by several diagnostics (one declaration of every undeclared
/// command) is applied once.
fn one_round(report: &SkillReport, applying: Applying) -> Option<(String, Vec<Applied>)> {
    let doc = report.skill.document.as_ref().ok()?;
    let path = report.skill.file_path();
    let mut taken: Vec<&Fix> = Vec::new();
    let mut edits: Vec<Edit> = Vec::new();
    let mut applied = Vec::new();
    for d in report.diagnostics.iter().filter(|d| d.file == path) {
        let Some(fix) = d.fix.as_ref().filter(|f| applying.allows(f)) else {
            continue;
        };
        if taken.contains(&fix) || fix.edits.iter().any(|e| overlaps(e, &edits)) {
            continue;
        }
        taken.push(fix);
        edits.extend(fix.edits.iter().cloned());
        let position = super::report::positions(report, d).map(|(start, _)| start);
        applied.push(Applied {
            slug: d.rule.slug,
            message: fix.message.clone(),
            position,
            unsafe_because: fix.unsafe_because.clone(),
            adds_key: fix.adds_key.clone(),
        });
    }
    if edits.is_empty() {
        return None;
    }
    let after = apply(&doc.source.text, &edits)?;
    (after != doc.source.text).then_some((after, applied))
}

/// Whether a round kept the frontmatter whole: it still parses (when it did before), and every
/// top-level key is still there or now sits under `metadata`; the only keys it may add are
/// `metadata` and those its fixes say they add (`adds`).
fn keeps_keys(before: &SkillReport, after: &SkillReport, adds: &[&str]) -> bool {
    let Some(old) = before.skill.manifest() else {
        return true;
    };
    let Some(new) = after.skill.manifest() else {
        return false;
    };
    let metadata = new
        .value("metadata")
        .and_then(skill_model::requirements::metadata_node);
    let moved = |key: &str| metadata.as_ref().is_some_and(|m| m.get(key).is_some());
    let kept = old
        .entries
        .iter()
        .all(|e| new.get(&e.key).is_some() || moved(&e.key));
    let added = new.entries.iter().all(|e| {
        e.key == "metadata" || adds.contains(&e.key.as_str()) || old.get(&e.key).is_some()
    });
    kept && added
}

fn overlaps(edit: &Edit, taken: &[Edit]) -> bool {
    taken.iter().any(|t| {
        let (a, b) = (edit.span, t.span);
        // Two insertions at one point conflict too: their order would be arbitrary.
        (a.start < b.end && b.start < a.end) || (a.start == b.start)
    })
}

/// A unified diff of the change.
pub fn diff(file: &FixedFile) -> String {
    let name = file.path.display().to_string();
    similar::TextDiff::from_lines(&file.before, &file.after)
        .unified_diff()
        .context_radius(2)
        .header(&name, &name)
        .to_string()
}

/// Writes the fixed text beside the file and renames it over, keeping the file's permissions.
pub fn write(file: &FixedFile) -> Result<(), WriteError> {
    let error = |source| WriteError {
        path: file.path.clone(),
        source,
    };
    let dir = file
        .path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let permissions = std::fs::metadata(&file.path).map_err(error)?.permissions();
    let mut temp = tempfile::NamedTempFile::new_in(dir).map_err(error)?;
    std::io::Write::write_all(&mut temp, file.after.as_bytes()).map_err(error)?;
    std::fs::set_permissions(temp.path(), permissions).map_err(error)?;
    temp.persist(&file.path).map_err(|e| error(e.error))?;
    Ok(())
}
