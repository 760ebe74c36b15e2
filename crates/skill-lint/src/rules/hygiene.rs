//! Hygiene rules: secrets, symlinks, junk files, `{baseDir}` and leftover TODOs.

use super::Context;
use crate::diagnostic::{Diagnostic, Location};
use crate::rulebook::*;
use skill_model::Span;
use skill_model::files::FileKind;
use skill_model::layout::{SKILL_MD, is_install_metadata};
use skill_model::secrets;
use skill_model::span::Position;

/// Largest file scanned for secrets.
const MAX_SCAN_BYTES: u64 = 1024 * 1024;

/// Symbolic links anywhere in the skill.
pub(crate) fn check_symlinks(cx: &Context, out: &mut Vec<Diagnostic>) {
    for entry in &cx.files().entries {
        if let FileKind::Symlink(target) = &entry.kind {
            out.push(cx.diagnostic(
                &SYMLINK,
                format!(
                    "'{}' is a symlink to '{}'; archives and registries do not carry symlinks",
                    entry.path,
                    target.display()
                ),
                Location::Folder,
            ));
        }
    }
}

/// ClawHub's install metadata in a downloaded skill, which pack and publish leave out.
pub(crate) fn check_install_metadata(cx: &Context, out: &mut Vec<Diagnostic>) {
    let mut found: Vec<String> = cx
        .files()
        .entries
        .iter()
        .filter(|e| !e.path.contains('/') && is_install_metadata(&e.path))
        .map(|e| match e.kind {
            FileKind::Dir => format!("{}/", e.path),
            _ => e.path.clone(),
        })
        .collect();
    found.sort_by_key(|name| name.starts_with('.'));
    if found.is_empty() {
        return;
    }
    out.push(
        cx.diagnostic(
            &INSTALL_METADATA,
            format!(
                "ClawHub's install metadata ({}) is in the skill; pack and publish leave it out",
                found.join(", ")
            ),
            Location::Folder,
        )
        .with_help("nothing to do for a downloaded skill; delete it where you write the skill"),
    );
}

/// OS and build leftovers.
pub(crate) fn check_junk(cx: &Context, out: &mut Vec<Diagnostic>) {
    let mut reported_dirs: Vec<&str> = Vec::new();
    for entry in &cx.files().entries {
        if reported_dirs
            .iter()
            .any(|d| entry.path.starts_with(d) && entry.path.as_bytes().get(d.len()) == Some(&b'/'))
        {
            continue;
        }
        let name = entry.path.rsplit('/').next().unwrap_or(&entry.path);
        let junk = match entry.kind {
            FileKind::Dir => matches!(
                name,
                "__MACOSX" | "__pycache__" | ".pytest_cache" | ".mypy_cache"
            ),
            _ => {
                matches!(name, ".DS_Store" | "Thumbs.db" | "desktop.ini")
                    || name.ends_with(".pyc")
                    || name.ends_with(".pyo")
                    || name.ends_with(".swp")
                    || (name.ends_with('~') && name.len() > 1)
            }
        };
        if junk {
            if entry.kind == FileKind::Dir {
                reported_dirs.push(&entry.path);
            }
            out.push(
                cx.diagnostic(
                    &JUNK_FILE,
                    format!("'{}' is an OS or build leftover", entry.path),
                    Location::Folder,
                )
                .with_help("delete it, or list it in .skillignore"),
            );
        }
    }
}

/// Secrets in text files, and `.env` files.
pub(crate) fn check_secrets(cx: &Context, out: &mut Vec<Diagnostic>) {
    // The contents are in file order, a subsequence of the files (large and unreadable ones
    // left out), so one walk pairs them.
    let mut contents = cx.contents().iter().peekable();
    for file in cx.files().files() {
        let here = contents.next_if(|c| std::ptr::eq(c.entry, file));
        let name = file.path.rsplit('/').next().unwrap_or(&file.path);
        if is_env_file(name) {
            out.push(
                cx.diagnostic(
                    &SECRET,
                    format!("'{}' is an env file; it usually holds secrets", file.path),
                    Location::Folder,
                )
                .with_help("delete it and ship a .env.example without values"),
            );
            continue;
        }
        let Some(contents) = here else {
            continue;
        };
        // The shortest pattern is 20 characters.
        if file.size > MAX_SCAN_BYTES || file.size < 20 {
            continue;
        }
        let is_skill_md = contents.is_skill_md && file.path.eq_ignore_ascii_case(SKILL_MD);
        let Some(text) = contents.text() else {
            continue;
        };
        for found in secrets::find(text) {
            let message = format!(
                "{} '{}' is committed in the skill",
                found.kind,
                secrets::redact(&text[found.start..found.end])
            );
            let d = if is_skill_md {
                cx.diagnostic(
                    &SECRET,
                    message,
                    Location::Span(Span::new(found.start, found.end)),
                )
            } else {
                let mut d = cx.diagnostic(
                    &SECRET,
                    message,
                    Location::Point(Position::of(text, found.start)),
                );
                d.file = cx.skill.dir.join(&file.path);
                d
            };
            out.push(d.with_help(
                "revoke it, remove it, and read it from an env var declared in requires.env",
            ));
        }
    }
}

fn is_env_file(name: &str) -> bool {
    (name == ".env" || name.starts_with(".env."))
        && !["example", "sample", "template", "dist", "defaults"]
            .iter()
            .any(|s| name.contains(s))
}

/// `{baseDir}` in the body: only OpenClaw substitutes it.
pub(crate) fn check_base_dir(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(fm) = cx.document().and_then(|d| d.frontmatter) else {
        return;
    };
    let body = cx.text().get(fm.body.range()).unwrap_or("");
    // memchr's searcher: str::find's two-way search was 1% of lint over the corpus's bodies.
    if let Some(i) = memchr::memmem::find(body.as_bytes(), b"{baseDir}") {
        let at = fm.body.start + i;
        out.push(
            cx.diagnostic(
                &BASE_DIR_PLACEHOLDER,
                "'{baseDir}' is replaced by OpenClaw only; other agents show it as written".into(),
                Location::Span(Span::new(at, at + "{baseDir}".len())),
            )
            .with_help("use paths relative to the skill folder, such as scripts/run.sh"),
        );
    }
}

/// Scaffold placeholders left in the body, each one: `[TODO ...]` or a line starting with
/// `TODO:`.
pub(crate) fn check_todo_in_body(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(fm) = cx.document().and_then(|d| d.frontmatter) else {
        return;
    };
    let body = cx.text().get(fm.body.range()).unwrap_or("");
    // Both forms hold `TODO`; one search of the body spares most skills the walk line by line.
    if memchr::memmem::find(body.as_bytes(), b"TODO").is_none() {
        return;
    }
    let mut offset = fm.body.start;
    for line in body.split_inclusive('\n') {
        let trimmed = line.trim_start_matches(|c: char| c.is_whitespace() || "#-*>".contains(c));
        let mut found: Vec<usize> = line.match_indices("[TODO").map(|(i, _)| i).collect();
        if found.is_empty() && trimmed.starts_with("TODO:") {
            found.push(line.len() - trimmed.len());
        }
        for i in found {
            out.push(cx.diagnostic(
                &TODO_PLACEHOLDER,
                "a TODO placeholder is left in the body".into(),
                Location::Span(Span::new(offset + i, offset + i + 5)),
            ));
        }
        offset += line.len();
    }
}
