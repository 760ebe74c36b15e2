//! The checks, one small function per rule, grouped by family. `CHECKS` fixes the order they
//! run in, which is the order diagnostics are reported in: for the rules skills-ref also has,
//! that is skills-ref's own order, so messages can be compared one for one.

mod agent_files;
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

pub use keys::SPEC_KEYS;

use super::diagnostic::{Diagnostic, Location};
use super::infer::{self, Uses};
use super::rulebook::*;
use super::target::Target;
use super::{Options, Selection};
use skill_model::body::Body;
use skill_model::environment::Environment;
use skill_model::files::{FileEntry, SkillFiles};
use skill_model::{Document, Manifest, Requirements, Skill};
use std::borrow::Cow;

/// What every check sees: the skill, what was derived from it once, and the options.
pub struct Context<'a> {
    /// The skill being linted.
    pub skill: &'a Skill,
    /// The target the skill is linted for (given, or inferred from the skill).
    pub target: Target,
    /// Whether the skill lies inside another skill's folder, where no agent that gates skills
    /// lists it on its own.
    pub nested: bool,
    /// All options (budgets, which rules run).
    pub options: &'a Options,
    /// The machine the env checks ask about: the options' own, or one recording the answers
    /// for the lint cache.
    pub environment: &'a dyn Environment,
    /// Declared requirements (empty without a manifest).
    pub requirements: Requirements,
    /// The parsed body, built on first use (see [`Context::body`]).
    body: std::cell::OnceCell<Body>,
    /// What the body and scripts use, built on first use (see [`Context::uses`]).
    uses: std::cell::OnceCell<Uses>,
    /// The files' contents, read once for the rules that read them all (see [`Context::contents`]).
    contents: std::cell::OnceCell<Vec<FileContents<'a>>>,
    /// Set when a check asks for the files, so debug builds can hold each check to what
    /// [`CheckEntry::reads_files`] says of it.
    files_asked: std::cell::Cell<bool>,
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
    /// Whether the target lists the skill on its own, so that its description routes: not a
    /// skill inside another's folder, unless the agent keeps searching below a `SKILL.md`.
    pub(crate) fn listed_on_its_own(&self) -> bool {
        !self.nested || self.target.facts().is_some_and(|f| f.lists_nested)
    }

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
    pub(crate) fn body_text(&self) -> (&'a str, usize) {
        match self.document() {
            Some(doc) => match doc.frontmatter {
                Some(fm) => (doc.source.slice(fm.body), fm.body.start),
                None => (doc.source.text.as_str(), 0),
            },
            None => ("", 0),
        }
    }

    /// Whether `SKILL.md` has frontmatter and nothing but blank lines after it.
    pub(crate) fn has_no_body(&self) -> bool {
        self.document()
            .and_then(|d| d.frontmatter)
            .is_some_and(|_| self.body_text().0.trim().is_empty())
    }

    /// Where the body starts in `SKILL.md` (0 without frontmatter, or when unread).
    pub(crate) fn body_offset(&self) -> usize {
        self.body_text().1
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

    /// The files of the skill folder: listed by discovery when a selected check reads them
    /// (see [`reads_files`]), otherwise on first use.
    pub fn files(&self) -> &'a SkillFiles {
        self.files_asked.set(true);
        self.skill.files()
    }

    /// Commands and env vars the body and scripts use, inferred on first use: the scripts come
    /// from [`Context::contents`] when a selected rule reads every file anyway, and are read
    /// from disk otherwise.
    pub fn uses(&self) -> &Uses {
        self.uses.get_or_init(|| {
            let scripts: Vec<(&str, Cow<str>)> = if self.reads_contents() {
                self.contents()
                    .iter()
                    .filter(|f| infer::reads_as_script(f.entry))
                    .filter_map(|f| Some((f.entry.path.as_str(), Cow::Borrowed(f.text()?))))
                    .collect()
            } else {
                self.files()
                    .files()
                    .filter(|e| infer::reads_as_script(e))
                    .filter_map(|e| {
                        let text = std::fs::read_to_string(self.skill.dir.join(&e.path)).ok()?;
                        Some((e.path.as_str(), Cow::Owned(text)))
                    })
                    .collect()
            };
            let scripts = scripts.iter().map(|(path, text)| (*path, text.as_ref()));
            Uses::collect(self.body(), self.body_text().0, scripts)
        })
    }

    /// Whether a selected check reads every file's contents (see [`CheckEntry::reads_contents`]).
    fn reads_contents(&self) -> bool {
        CHECKS
            .iter()
            .any(|c| c.reads_contents && self.selects_any(c.rules))
    }

    /// Whether any of `rules` runs: a check none of whose rules runs is skipped.
    pub(crate) fn selects_any(&self, rules: &[&Rule]) -> bool {
        rules.iter().any(|r| self.options.selection.allows(r))
    }

    /// Every regular file of the skill up to [`security::MAX_FILE_BYTES`], read once on first
    /// use and shared by the rules that read every file (secrets, security): reading the
    /// corpus twice costs more than both rules' matching. Unreadable files are left out.
    pub fn contents(&self) -> &[FileContents<'a>] {
        self.contents.get_or_init(|| {
            let skill_md = self.skill.file.as_deref().and_then(|f| f.file_name());
            let files: &'a SkillFiles = self.files();
            let skill = self.skill;
            let text = self.text();
            files
                .files()
                .filter(|e| e.size <= skill_model::limits::FILE_BYTES)
                .filter_map(|entry| {
                    let is_skill_md = !entry.path.contains('/')
                        && skill_md.is_some_and(|n| n == std::ffi::OsStr::new(&entry.path));
                    // An unreadable SKILL.md is its own finding; its text is then empty.
                    let contents = if is_skill_md {
                        Contents::Text(std::borrow::Cow::Borrowed(text))
                    } else {
                        let bytes = skill_model::files::read_sized(
                            &skill.dir.join(&entry.path),
                            entry.size,
                        );
                        match String::from_utf8(bytes.ok()?) {
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
            for_every_target: false,
        }
    }
}

/// A check: reads the context, appends what it finds.
pub type Check = fn(&Context, &mut Vec<Diagnostic>);

/// A check and the rules it reports: the way from a rule's code to the code that finds it
/// (`skill explain` prints it). Debug builds assert that a check reports only its rules.
#[derive(Debug)]
pub(crate) struct CheckEntry {
    /// The check's path under `skill_lint::rules`.
    pub name: &'static str,
    /// The rules it reports.
    pub rules: &'static [&'static Rule],
    /// The check.
    pub run: Check,
    /// Whether it reads the skill's files (their list or contents): a run none of whose checks
    /// does is spared listing them (written `check => files [RULES]` in [`CHECKS`]).
    pub reads_files: bool,
    /// Whether it reads every file's contents through [`Context::contents`], so other checks
    /// take their files from there rather than reading them again (written `check =>
    /// contents [RULES]`; it implies `files`).
    pub reads_contents: bool,
}

macro_rules! checks {
    ($($check:path => $($files:ident)? [$($rule:ident),+ $(,)?]),+ $(,)?) => {
        &[$(CheckEntry {
            name: stringify!($check),
            rules: &[$(&$rule),+],
            run: $check,
            reads_files: checks!(@files $($files)?),
            reads_contents: checks!(@contents $($files)?),
        }),+]
    };
    (@files) => { false };
    (@files files) => { true };
    (@files contents) => { true };
    (@contents) => { false };
    (@contents files) => { false };
    (@contents contents) => { true };
}

/// Every check, in reporting order, with the rules each reports.
pub(crate) static CHECKS: &[CheckEntry] = checks![
    hygiene::check_symlinks => files [SYMLINK],
    format::check_file => [MISSING_SKILL_MD, UNREADABLE, NOT_UTF8, BINARY_FILE, FILE_TOO_LARGE],
    format::check_lowercase_file => [SKILL_MD_LOWERCASE],
    budgets::check_skill_md_size => [FILE_TOO_LARGE],
    format::check_bom => [BOM],
    format::check_frontmatter => [
        MISSING_FRONTMATTER,
        UNCLOSED_FRONTMATTER,
        INVALID_YAML,
        FRONTMATTER_NOT_MAPPING,
    ],
    format::check_duplicate_keys => [DUPLICATE_KEY],
    keys::check_unknown => [UNKNOWN_KEY],
    names::check_name => [
        NAME_MISSING,
        NAME_NOT_STRING,
        NAME_TOO_LONG,
        NAME_NOT_LOWERCASE,
        NAME_HYPHEN_EDGE,
        NAME_CONSECUTIVE_HYPHENS,
        NAME_INVALID_CHARS,
        NAME_DIR_MISMATCH,
        NAME_NON_ASCII,
        NAME_RESERVED,
        TODO_PLACEHOLDER,
    ],
    descriptions::check_description => [
        DESCRIPTION_MISSING,
        DESCRIPTION_EMPTY,
        DESCRIPTION_TOO_LONG,
        DESCRIPTION_ANGLE_BRACKETS,
        DESCRIPTION_NO_TRIGGER,
        TODO_PLACEHOLDER,
    ],
    keys::check_compatibility => [COMPATIBILITY_TYPE, COMPATIBILITY_TOO_LONG, COMPATIBILITY_EMPTY],
    keys::check_allowed_tools => [ALLOWED_TOOLS_LIST],
    keys::check_metadata => [METADATA_TYPE],
    keys::check_types => [KEY_TYPE],
    agent_files::check_openai_yaml => [OPENAI_YAML],
    agent_files::check_invocation_mismatch => [INVOCATION_MISMATCH],
    format::check_tabs => [TAB],
    format::check_dashes => [FRONTMATTER_DASHES],
    format::check_crlf => [CRLF],
    format::check_strict_yaml => [STRICT_YAML],
    requirements::check_block_name => [REQUIREMENTS_BLOCK_NAME],
    requirements::check_shape => [INVALID_REQUIRES],
    requirements::check_os => [INVALID_OS],
    requirements::check_install => [INVALID_INSTALL],
    requirements::check_gating => [BIN_MISSING, ANY_BIN_MISSING, ENV_MISSING, OS_UNSUPPORTED],
    requirements::check_undeclared => files [UNDECLARED_BIN, UNDECLARED_ENV],
    requirements::check_unused => files [UNUSED_REQUIREMENT],
    references::check_links => files [BROKEN_LINK, LINK_CASE_MISMATCH, LINK_OUTSIDE_SKILL],
    references::check_scripts_executable => files [SCRIPT_NOT_EXECUTABLE],
    budgets::check_body_lines => [BODY_TOO_LONG, EMPTY_BODY],
    budgets::check_tokens => [TOKEN_BUDGET],
    budgets::check_file_sizes => files [FILE_TOO_LARGE],
    hygiene::check_junk => files [JUNK_FILE],
    hygiene::check_secrets => contents [SECRET],
    hygiene::check_base_dir => [BASE_DIR_PLACEHOLDER],
    hygiene::check_install_metadata => files [INSTALL_METADATA],
    hygiene::check_todo_in_body => [TODO_PLACEHOLDER],
    security::check => contents [
        DOWNLOAD_EXEC_INSECURE,
        DOWNLOAD_EXEC,
        OBFUSCATED_EXEC,
        ENCODED_BLOB,
        ENCRYPTED_ARCHIVE,
        DISABLE_SECURITY,
        CREDENTIAL_ACCESS,
        EXFILTRATION,
        PASSWORD_PROMPT,
        PERSISTENCE,
        INSTRUCTION_OVERRIDE,
        HIDDEN_INSTRUCTIONS,
        BIDI_CONTROL,
        HIDDEN_TAG_TEXT,
        INVISIBLE_CHARACTER,
        INVALID_ALLOW,
        TYPOSQUAT,
        HOMOGLYPH,
        INDEX_REDIRECT,
        REMOTE_CODE_IN_SCRIPT,
        PERSISTENT_REMOTE_CODE,
        DESTRUCTIVE_COMMAND,
        CLIPBOARD_HIJACK,
    ],
];

/// Rules reported across the skills of a run rather than by a check of one skill (the model's
/// review is asked for by `skill lint --review`, outside the rules: see `review` in the `skill` crate).
pub(crate) static RUN_RULES: &[(&str, &[&Rule])] = &[
    ("overlap::check_run", &[&DESCRIPTION_OVERLAP]),
    ("skill_agent::review::review", &[&MODEL_REVIEW]),
];

/// The checks that report `rule`, by name (see [`CHECKS`] and [`RUN_RULES`]).
pub fn checks_of(rule: &Rule) -> Vec<&'static str> {
    let per_skill = CHECKS
        .iter()
        .filter(|c| c.rules.iter().any(|r| r.code == rule.code))
        .map(|c| c.name);
    let per_run = RUN_RULES
        .iter()
        .filter(|(_, rules)| rules.iter().any(|r| r.code == rule.code))
        .map(|(name, _)| *name);
    per_skill.chain(per_run).collect()
}

/// Whether any check `selection` runs reads the skill's files.
pub(crate) fn reads_files(selection: &Selection) -> bool {
    CHECKS
        .iter()
        .any(|c| c.reads_files && c.rules.iter().any(|r| selection.allows(r)))
}

/// Runs every check on `skill`, for `target`; `nested` when it lies inside another skill's
/// folder.
pub fn check(
    skill: &Skill,
    target: Target,
    nested: bool,
    options: &Options,
    environment: &dyn Environment,
) -> Vec<Diagnostic> {
    let requirements = match (skill.manifest(), &skill.document) {
        (Some(m), Ok(doc)) => {
            Requirements::from_blocks(m, &doc.source.text, target.declared_blocks())
        }
        _ => Requirements::default(),
    };
    let cx = Context {
        skill,
        target,
        nested,
        options,
        environment,
        requirements,
        body: std::cell::OnceCell::new(),
        uses: std::cell::OnceCell::new(),
        contents: std::cell::OnceCell::new(),
        files_asked: std::cell::Cell::new(false),
    };
    let mut out = Vec::new();
    // A check none of whose rules is selected would only produce what is filtered out.
    for check in CHECKS.iter().filter(|c| cx.selects_any(c.rules)) {
        let start = out.len();
        cx.files_asked.set(false);
        (check.run)(&cx, &mut out);
        debug_assert!(
            check.reads_files || !cx.files_asked.get(),
            "{} reads the skill's files but CHECKS does not mark it `files`",
            check.name
        );
        debug_assert!(
            out[start..]
                .iter()
                .all(|d| check.rules.iter().any(|r| r.code == d.rule.code)),
            "{} reported a rule CHECKS does not list for it",
            check.name
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_leads_to_a_check() {
        for rule in crate::rulebook::ALL {
            assert!(
                !checks_of(rule).is_empty(),
                "{} {} is reported by no check in CHECKS or RUN_RULES",
                rule.code,
                rule.slug
            );
        }
        assert_eq!(checks_of(&NAME_RESERVED), ["names::check_name"]);
    }
}
