//! Reference rules: relative links and paths in the body must resolve inside the skill folder,
//! with the exact case, and scripts the body runs directly must be runnable.

use super::Context;
use crate::diagnostic::{Diagnostic, Location};
use crate::infer::Site;
use crate::rulebook::*;
use skill_model::Span;
use skill_model::files::FileKind;
use skill_model::layout::SKILL_MD;

/// Folders whose paths in inline code are taken as references.
const RESOURCE_DIRS: [&str; 3] = ["scripts/", "references/", "assets/"];

/// A path the body refers to and where.
struct Reference<'a> {
    target: String,
    span: Span,
    written: &'a str,
    /// From inline code (a mention, maybe an example) rather than a Markdown link.
    mention: bool,
}

/// Broken, case-mismatched and escaping links and inline-code paths.
pub(crate) fn check_links(cx: &Context, out: &mut Vec<Diagnostic>) {
    if cx.document().is_none() {
        return;
    }
    let mut seen = std::collections::HashSet::new();
    for reference in references(cx) {
        if !seen.insert(reference.target.clone()) {
            continue;
        }
        if let Some(problem) = reference_problem(cx, &reference) {
            out.push(problem);
        }
    }
}

/// What is wrong with one reference, if anything: it leaves the folder, or names no file.
fn reference_problem(cx: &Context, reference: &Reference) -> Option<Diagnostic> {
    let Some(path) = normalise(&reference.target) else {
        return Some(cx.diagnostic(
            &LINK_OUTSIDE_SKILL,
            format!(
                "'{}' leaves the skill folder; packing and installing copy only the folder",
                reference.written
            ),
            Location::Span(reference.span),
        ));
    };
    if path.is_empty() || cx.files().get(&path).is_some() || in_nested_skill(cx, &path) {
        return None;
    }
    missing_file(cx, reference, &path)
}

/// The finding for a reference to `path`, which is not among the skill's files: a case
/// mismatch, an ignored file, a mention (unless an example) or a broken link.
fn missing_file(cx: &Context, reference: &Reference, path: &str) -> Option<Diagnostic> {
    let at = Location::Span(reference.span);
    if let Some(actual) = cx.files().get_ignore_case(path) {
        Some(
            cx.diagnostic(
                &LINK_CASE_MISMATCH,
                format!(
                    "'{}' differs in case from the file '{}'; this fails on Linux",
                    reference.written, actual.path
                ),
                at,
            )
            .with_help(format!("write '{}'", actual.path)),
        )
    } else if cx.skill.dir.join(path).exists() {
        Some(cx.diagnostic(
            &BROKEN_LINK,
            format!(
                "'{}' exists but is excluded by an ignore file, so it will not be published",
                reference.written
            ),
            at,
        ))
    } else if reference.mention
        && (is_example(cx.text(), reference.span) || is_made(cx.text(), reference.span))
    {
        None
    } else if reference.mention {
        // Inline code may be an example path (skill-creator skills teach with them).
        let mut d = cx.diagnostic(
            &BROKEN_LINK,
            format!(
                "'{}' is mentioned but does not exist in the skill folder",
                reference.written
            ),
            at,
        );
        d.severity = crate::Severity::Warning;
        Some(d)
    } else {
        Some(cx.diagnostic(
            &BROKEN_LINK,
            format!("'{}' does not exist in the skill folder", reference.written),
            at,
        ))
    }
}

/// Whether `path` lies in a folder below the skill that holds a SKILL.md of its own: a nested
/// skill, linted, packed and loaded as a skill of its own (a bundle's sub-skills).
fn in_nested_skill(cx: &Context, path: &str) -> bool {
    let mut folder = std::path::Path::new(path);
    while let Some(parent) = folder.parent().filter(|p| !p.as_os_str().is_empty()) {
        if cx.skill.dir.join(parent).join(SKILL_MD).is_file() {
            return true;
        }
        folder = parent;
    }
    false
}

/// Words that make a path mentioned on a line an illustration, not a file the skill ships
/// (skill-creator's own teaching: "**Examples**: `assets/logo.png`", "a `references/schema.md`
/// file ... would be helpful").
const EXAMPLE_WORDS: &[&str] = &[
    "example",
    "e.g.",
    "for instance",
    "such as",
    "would",
    "could",
];

/// Whether the line of `SKILL.md` around `span` presents what it mentions as an example.
fn is_example(text: &str, span: Span) -> bool {
    let (before, after) = line_around(text, span);
    let line = before
        + &text[span.start.min(text.len())..span.end.min(text.len())].to_lowercase()
        + &after;
    EXAMPLE_WORDS.iter().any(|w| line.contains(w))
}

/// Verbs that, right before a mentioned path, tell the reader to make the file ("create/update
/// `references/lesson_X.md`", "output `assets/env.example`").
const MAKE_VERBS: &[&str] = &[
    "create",
    "create/update",
    "save",
    "write",
    "output",
    "touch",
];
/// Verbs that make the file under a new name ("Save `a.ps1.txt` as `a.ps1`", "copy ... to").
const RENAME_VERBS: &[&str] = &["save", "rename", "copy", "move"];
/// Words after a mentioned path that say a run makes it ("`data/cache.db` (created by setup)").
const MADE_AFTER: &[&str] = &[
    "created by",
    "is created",
    "will be created",
    "generated by",
];

/// Whether the line around `span` says the mentioned file is one the reader or a run makes,
/// not one the skill ships.
fn is_made(text: &str, span: Span) -> bool {
    let (before, after) = line_around(text, span);
    let words: Vec<&str> = before
        .split(|c: char| c.is_whitespace() || "`*:".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let last = words.last().copied().unwrap_or_default();
    MAKE_VERBS.contains(&last)
        || (matches!(last, "as" | "to") && RENAME_VERBS.iter().any(|v| before.contains(v)))
        || MADE_AFTER.iter().any(|w| after.contains(w))
}

/// The line of `text` around `span`, lower-cased: the part before the span and the part after.
fn line_around(text: &str, span: Span) -> (String, String) {
    let (at, end) = (span.start.min(text.len()), span.end.min(text.len()));
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let stop = text[end..].find('\n').map_or(text.len(), |i| end + i);
    (
        text[start..at].to_lowercase(),
        text[end..stop].to_lowercase(),
    )
}

/// The command that runs a script of this name.
fn interpreter_of(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("py") => "python3",
        Some("js" | "mjs" | "cjs") => "node",
        Some("rb") => "ruby",
        Some("pl") => "perl",
        _ => "bash",
    }
}

fn references<'a>(cx: &'a Context) -> Vec<Reference<'a>> {
    let mut refs = Vec::new();
    for link in &cx.body().links {
        if let Some(target) = local_target(&link.dest) {
            refs.push(Reference {
                target,
                span: link.span,
                written: &link.dest,
                mention: false,
            });
        }
    }
    for (code, span) in &cx.body().inline_code {
        let path = code.trim().trim_start_matches("./");
        let plain = !path.contains(|c: char| c.is_whitespace() || "*<>{}$`?[]|".contains(c));
        if plain
            && RESOURCE_DIRS.iter().any(|d| path.starts_with(d))
            && !path.ends_with('/')
            && path.len() > 8
        {
            refs.push(Reference {
                target: path.to_owned(),
                span: *span,
                written: code.trim(),
                mention: true,
            });
        }
    }
    refs
}

/// The file part of a link destination that points inside the skill, if it is a local path.
fn local_target(dest: &str) -> Option<String> {
    let dest = dest.trim();
    let has_scheme = dest.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"+.-".contains(&b))
    });
    // A leading `/` is a site-relative URL (docs copied from a website), not a skill path.
    if dest.is_empty()
        || dest.starts_with(['#', '/'])
        || has_scheme
        || dest.contains(['{', '<', '$'])
    {
        return None;
    }
    let path = dest.split(['#', '?']).next().unwrap_or("");
    Some(percent_decode(path))
}

fn percent_decode(path: &str) -> String {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `a/./b/../c` → `a/c`; `None` when the path leaves the folder (or is absolute).
fn normalise(path: &str) -> Option<String> {
    if path.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

/// Whether `before` (the `SKILL.md` text above where the body runs `path`) sets the executable
/// bit of `path` itself (`chmod +x install.sh`, `` `chmod 755 scripts/*.sh` ``): installs that
/// drop the bit do no harm then.
fn made_executable(before: &str, path: &str) -> bool {
    before
        .match_indices("chmod ")
        .map(|(at, _)| before[at + "chmod ".len()..].lines().next().unwrap_or(""))
        .any(|args| {
            let args: Vec<&str> = args
                .split(|c: char| c.is_whitespace() || c == '`')
                .take_while(|a| !matches!(*a, "&&" | ";" | "|"))
                .collect();
            args.iter().any(|a| sets_executable(a)) && args.iter().any(|a| names_path(a, path))
        })
}

/// True for a `chmod` mode that gives the owner the executable bit (`+x`, `u+x`, `755`).
fn sets_executable(mode: &str) -> bool {
    mode.contains("+x")
        || (mode.len() >= 3
            && mode.bytes().all(|b| b.is_ascii_digit())
            && (mode.as_bytes()[mode.len() - 3] - b'0') % 2 == 1)
}

/// True when a `chmod` argument names `path`: itself, a path ending in it, or a glob over its
/// folder and extension (`scripts/*.sh`).
fn names_path(arg: &str, path: &str) -> bool {
    let arg = arg.trim_matches(['"', '\'']).trim_start_matches("./");
    let file = path.rsplit('/').next().unwrap_or(path);
    if arg == path || arg == file || arg.ends_with(&format!("/{path}")) {
        return true;
    }
    match arg.split_once('*') {
        Some((prefix, suffix)) if !suffix.contains(['*', '/']) => {
            path.len() >= prefix.len() + suffix.len()
                && path.starts_with(prefix)
                && path.ends_with(suffix)
                && !path[prefix.len()..path.len() - suffix.len()].contains('/')
        }
        _ => false,
    }
}

/// Scripts the body runs directly need an executable bit and a shebang.
pub(crate) fn check_scripts_executable(cx: &Context, out: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    for run in &cx.uses().run_paths {
        let Site::SkillMd(span) = run.site else {
            continue;
        };
        let Some(path) = normalise(run.name.trim_start_matches("./")) else {
            continue;
        };
        if !seen.insert(path.clone()) {
            continue;
        }
        let Some(entry) = cx.files().get(&path).filter(|e| e.kind == FileKind::File) else {
            continue;
        };
        let before = cx.text().get(cx.body_offset()..span.start).unwrap_or("");
        let problem = if !entry.executable && !made_executable(before, &path) {
            Some(format!(
                "'{path}' is run directly but is not executable; write `{} {path}` (registries and installers drop the executable bit)",
                interpreter_of(&path)
            ))
        } else if !has_shebang(&cx.skill.dir.join(&path)) {
            Some(format!(
                "'{path}' is run directly but has no '#!' line naming its interpreter"
            ))
        } else {
            None
        };
        if let Some(message) = problem {
            out.push(cx.diagnostic(&SCRIPT_NOT_EXECUTABLE, message, Location::Span(span)));
        }
    }
}

fn has_shebang(path: &std::path::Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut head))
        .is_ok()
        && &head == b"#!"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chmod_above_the_run_names_the_script_by_path_file_or_glob() {
        let path = "scripts/run.sh";
        for made in [
            "chmod +x scripts/run.sh\n",
            "chmod 755 ./scripts/run.sh && echo ok\n",
            "Make the scripts executable: `chmod +x scripts/*.sh`.\n",
            "chmod u+x ~/skills/demo/scripts/run.sh\n",
        ] {
            assert!(made_executable(made, path), "{made}");
        }
        for not_made in [
            "chmod +x scripts/*.py\n",
            "chmod 644 scripts/run.sh\n",
            "chmod +x scripts/other.sh\n",
            "chmod -R go-w . && ./scripts/run.sh\n",
        ] {
            assert!(!made_executable(not_made, path), "{not_made}");
        }
    }

    #[test]
    fn targets_and_normalisation() {
        assert_eq!(
            local_target("references/a%20b.md#top"),
            Some("references/a b.md".into())
        );
        assert_eq!(local_target("https://x.io/a"), None);
        assert_eq!(local_target("mailto:a@b"), None);
        assert_eq!(local_target("#anchor"), None);
        assert_eq!(normalise("./a/../b/c.md"), Some("b/c.md".into()));
        assert_eq!(normalise("../other/SKILL.md"), None);
        assert_eq!(normalise("/etc/passwd"), None);
        assert_eq!(local_target("/docs/security"), None);
    }
}
