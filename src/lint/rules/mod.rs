//! The checks, one small function per rule, grouped by family. `CHECKS` fixes the order they
//! run in, which is the order diagnostics are reported in: for the rules skills-ref also has,
//! that is skills-ref's own order, so messages can be compared one for one.

mod budgets;
mod descriptions;
mod format;
mod hygiene;
mod keys;
mod names;
pub mod overlap;
mod references;
mod requirements;
pub mod security;

use super::Options;
use super::catalog::Rule;
use super::diagnostic::{Diagnostic, Location};
use super::infer::Usage;
use super::target::Target;
use crate::skill::body::Body;
use crate::skill::files::{FileEntry, SkillFiles};
use crate::skill::{Document, Manifest, Requirements, Skill};

/// What every check sees: the skill, what was derived from it once, and the options.
pub struct Context<'a> {
    /// The skill being linted.
    pub skill: &'a Skill,
    /// The target chosen on the command line.
    pub target: Target,
    /// All options (environment, budgets).
    pub options: &'a Options,
    /// The files of the skill folder.
    pub files: &'a SkillFiles,
    /// Declared requirements (empty without a manifest).
    pub requirements: Requirements,
    /// The parsed body, built on first use (see [`Context::body`]).
    body: std::cell::OnceCell<Body>,
    /// What the body and scripts use, built on first use (see [`Context::usage`]).
    usage: std::cell::OnceCell<Usage>,
    /// The files' contents, read once for the rules that read them all (see [`Context::contents`]).
    contents: std::cell::OnceCell<Vec<FileContents<'a>>>,
}

/// One regular file of the skill and its contents.
pub struct FileContents<'a> {
    /// The file.
    pub entry: &'a FileEntry,
    /// True for the skill's manifest file (SKILL.md, or skill.md).
    pub is_skill_md: bool,
    /// The contents, decoded once: text when they are UTF-8.
    contents: Contents<'a>,
}

/// A file's bytes, as text when they are UTF-8.
enum Contents<'a> {
    Text(std::borrow::Cow<'a, str>),
    Binary(Vec<u8>),
}

impl FileContents<'_> {
    /// The bytes (for SKILL.md, the document's text, not read again; empty when unreadable).
    pub fn bytes(&self) -> &[u8] {
        match &self.contents {
            Contents::Text(text) => text.as_bytes(),
            Contents::Binary(bytes) => bytes,
        }
    }

    /// The contents as text, when they are UTF-8.
    pub fn text(&self) -> Option<&str> {
        match &self.contents {
            Contents::Text(text) => Some(text),
            Contents::Binary(_) => None,
        }
    }
}

impl<'a> Context<'a> {
    /// The parsed document, if the file could be read.
    pub fn document(&self) -> Option<&'a Document> {
        self.skill.document.as_ref().ok()
    }

    /// The manifest, if the frontmatter parsed into a mapping.
    pub fn manifest(&self) -> Option<&'a Manifest> {
        self.skill.manifest()
    }

    /// The text of `SKILL.md` (empty when unread).
    pub fn text(&self) -> &'a str {
        self.document().map_or("", |d| d.source.text.as_str())
    }

    /// The body of `SKILL.md` and its offset (the whole text without frontmatter; empty when
    /// unread).
    fn body_text(&self) -> (&'a str, usize) {
        match self.document() {
            Some(doc) => match doc.frontmatter {
                Some(fm) => (doc.source.slice(fm.body), fm.body.start),
                None => (doc.source.text.as_str(), 0),
            },
            None => ("", 0),
        }
    }

    /// The parsed body (empty when SKILL.md was not read), parsed on first use: a run that
    /// selects no rule reading it (`--select SK1`) skips the Markdown parse.
    pub fn body(&self) -> &Body {
        self.body.get_or_init(|| {
            let (text, offset) = self.body_text();
            if self.document().is_some() {
                Body::parse(text, offset)
            } else {
                Body::default()
            }
        })
    }

    /// Commands and env vars the body and scripts use, inferred on first use (it reads the
    /// scripts too).
    pub fn usage(&self) -> &Usage {
        self.usage.get_or_init(|| {
            Usage::collect(self.body(), self.body_text().0, &self.skill.dir, self.files)
        })
    }

    /// Whether any of `rules` runs: checks whose work is costly return early when none does.
    pub fn selects_any(&self, rules: &[&Rule]) -> bool {
        rules.iter().any(|r| self.options.selection.allows(r))
    }

    /// Every regular file of the skill up to [`security::MAX_FILE_BYTES`], read once on first
    /// use and shared by the rules that read every file (secrets, security): reading the
    /// corpus twice costs more than both rules' matching. Unreadable files are left out.
    pub fn contents(&self) -> &[FileContents<'a>] {
        self.contents.get_or_init(|| {
            let skill_md = self.skill.file.as_deref().and_then(|f| f.file_name());
            let files: &'a SkillFiles = self.files;
            let skill = self.skill;
            let text = self.text();
            files
                .files()
                .filter(|e| e.size <= security::MAX_FILE_BYTES as u64)
                .filter_map(|entry| {
                    let is_skill_md = !entry.path.contains('/')
                        && skill_md.is_some_and(|n| n == std::ffi::OsStr::new(&entry.path));
                    // An unreadable SKILL.md is its own finding; its text is then empty.
                    let contents = if is_skill_md {
                        Contents::Text(std::borrow::Cow::Borrowed(text))
                    } else {
                        match String::from_utf8(std::fs::read(skill.dir.join(&entry.path)).ok()?) {
                            Ok(text) => Contents::Text(std::borrow::Cow::Owned(text)),
                            Err(e) => Contents::Binary(e.into_bytes()),
                        }
                    };
                    Some(FileContents {
                        entry,
                        is_skill_md,
                        contents,
                    })
                })
                .collect()
        })
    }

    /// A diagnostic of `rule` at `location` in SKILL.md, with the target's severity.
    pub fn diagnostic(
        &self,
        rule: &'static Rule,
        message: String,
        location: Location,
    ) -> Diagnostic {
        let file = match location {
            Location::Folder => self.skill.dir.clone(),
            _ => self.skill.file_path(),
        };
        Diagnostic {
            rule,
            severity: rule.severity_for(self.target),
            message,
            file,
            location,
            note: None,
            help: None,
            fix: None,
        }
    }
}

/// A check: reads the context, appends what it finds.
pub type Check = fn(&Context, &mut Vec<Diagnostic>);

/// Every check, in reporting order.
pub const CHECKS: &[Check] = &[
    hygiene::check_symlinks,
    format::check_file,
    format::check_lowercase_file,
    budgets::check_skill_md_size,
    format::check_bom,
    format::check_frontmatter,
    format::check_duplicate_keys,
    keys::check_unknown,
    names::check_name,
    descriptions::check_description,
    keys::check_compatibility,
    keys::check_allowed_tools,
    keys::check_metadata,
    keys::check_types,
    format::check_tabs,
    format::check_dashes,
    format::check_crlf,
    format::check_strict_yaml,
    requirements::check_block_name,
    requirements::check_shape,
    requirements::check_os,
    requirements::check_install,
    requirements::check_gating,
    requirements::check_undeclared,
    requirements::check_unused,
    references::check_links,
    references::check_scripts_executable,
    budgets::check_body_lines,
    budgets::check_tokens,
    budgets::check_file_sizes,
    hygiene::check_junk,
    hygiene::check_secrets,
    hygiene::check_base_dir,
    hygiene::check_todo_in_body,
    security::check,
];

/// Runs every check on `skill`.
pub fn check(skill: &Skill, options: &Options) -> Vec<Diagnostic> {
    let files = skill.files();
    let requirements = match (skill.manifest(), &skill.document) {
        (Some(m), Ok(doc)) => Requirements::from_manifest(m, &doc.source.text),
        _ => Requirements::default(),
    };
    let cx = Context {
        skill,
        target: options.target,
        options,
        files,
        requirements,
        body: std::cell::OnceCell::new(),
        usage: std::cell::OnceCell::new(),
        contents: std::cell::OnceCell::new(),
    };
    let mut out = Vec::new();
    for check in CHECKS {
        check(&cx, &mut out);
    }
    out
}
