//! Claude Code 2.1.328's reading of skill roots, seen in the requests the real CLI sends and
//! found in its bundle (`bin/claude.exe` holds the JavaScript as text; anchors in quotes):
//! direct child folders with a `SKILL.md` (symlinked folders too), each root sorted by name
//! with `localeCompare`, the first of a name winning. A skill is keyed by its folder name; the
//! frontmatter `name` is only shown beside it. Frontmatter that does not parse is ignored and
//! the skill stays, described by its body. Nothing is gated on requirements.

use super::text::{js_len, js_trim, locale_compare};
use super::{Advice, BundledSkill, Facts, Measure, NO_GATES, PromptBudget};
use super::{AgentCatalog, AgentSkill, DropReason, Dropped, Shadowed};
use crate::availability::Availability;
use crate::catalog::{Agent, Root};
use crate::catalog::{project_dirs, root};
use crate::layout::SKILL_MD;
use crate::requirements::Requirements;
use crate::yaml::{self, Node, Value};
use std::path::{Path, PathBuf};
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Claude Code, read from the requests the real CLI (npm `@anthropic-ai/claude-code@2.1.328`)
/// sends and from its bundle (`bin/claude.exe` holds the JavaScript as text; the anchors in
/// quotes are its minified names). The oracle test is `tests/agent_clis.rs`.
pub(crate) const FACTS: Facts = Facts {
    agent: Agent::Claude,
    name: "Claude Code",
    release: "Claude Code 2.1.328",
    // `CSn`: a skill is keyed by its folder; a valid frontmatter name is shown beside it.
    identity_is_folder: true,
    skill_files: &[SKILL_MD],
    metadata_blocks: &[],
    gates: NO_GATES,
    // `EKe`: frontmatter that does not parse is ignored (a line in ~/.claude/debug only).
    yaml: "YAML frontmatter; unreadable frontmatter is ignored, the skill kept",
    // `xdt`: the first body line (97 characters and "..." past 100), else "Skill".
    requires_description: false,
    description_max: None,
    name_max: None,
    budget: Some(PromptBudget {
        // `o5t`: 1% (`skillListingBudgetFraction`) of the context window at 4 characters per
        // token for the models up to Sonnet 4.6 (3 for later ones): 8,000 for a 200k window.
        default_chars: 8_000,
        measure: Measure::Columns,
        context_percent: Some(1),
        env_override: Some("SLASH_COMMAND_TOOL_CHAR_BUDGET"),
        // `jEs = 1536`: a longer `description - when_to_use` keeps 1,535 and gets `…`.
        description_cap: Some(1536),
        max_skills: None,
        // `_3n`: whole entries collapse to `- name`; descriptions are never shortened.
        steps: &["names only"],
    }),
    // The 13 skills 2.1.328 lists after the user's (with claude-sonnet-4-5, offline), with
    // the columns of each entry; `init` and `security-review` may collapse, the rest never.
    bundled: &[
        BundledSkill {
            name: "dataviz",
            size: 1447,
            collapsible: false,
        },
        BundledSkill {
            name: "update-config",
            size: 707,
            collapsible: false,
        },
        BundledSkill {
            name: "keybindings-help",
            size: 248,
            collapsible: false,
        },
        BundledSkill {
            name: "code-review",
            size: 850,
            collapsible: false,
        },
        BundledSkill {
            name: "simplify",
            size: 188,
            collapsible: false,
        },
        BundledSkill {
            name: "fewer-permission-prompts",
            size: 191,
            collapsible: false,
        },
        BundledSkill {
            name: "loop",
            size: 344,
            collapsible: false,
        },
        BundledSkill {
            name: "claude-api",
            size: 1169,
            collapsible: false,
        },
        BundledSkill {
            name: "workflow-authoring",
            size: 252,
            collapsible: false,
        },
        BundledSkill {
            name: "run",
            size: 368,
            collapsible: false,
        },
        BundledSkill {
            name: "plugin-authoring",
            size: 275,
            collapsible: false,
        },
        BundledSkill {
            name: "init",
            size: 67,
            collapsible: true,
        },
        BundledSkill {
            name: "security-review",
            size: 90,
            collapsible: true,
        },
    ],
    root_limits: None,
    skips_hidden: false,
    lists_nested: false,
    resolves_links: false,
    // code.claude.com/docs/en/skills (the frontmatter table; the reference's section 6).
    keys: &[
        "user-invocable",
        "disable-model-invocation",
        "when_to_use",
        "argument-hint",
        "arguments",
        "model",
        "effort",
        "context",
        "agent",
        "hooks",
        "paths",
        "shell",
    ],
    // Claude's skill upload refuses names with these words (the reference's section 5.4).
    reserved_name_words: &["anthropic", "claude"],
    // The help centre has cited 200 characters for uploads, while 1,024 are accepted: a
    // warning, not a refusal (section 5.4).
    description_advice: Some(Advice {
        max: 200,
        cited_by: "Claude's upload form",
    }),
    runtime: &["node"],
    user_folder: ".claude/skills",
    project_folder: ".claude/skills",
    settings_folders: &[".claude"],
    tools: &[],
};

/// Claude Code 2.1.328's roots (`xne`): the personal root, then `.claude/skills` of every
/// folder from here up to the repository's root, or, outside a repository, up to the home folder
/// (left out: it is the personal root's parent) or the file system's root.
pub(crate) fn roots(home: &Path, cwd: &Path) -> Vec<Root> {
    std::iter::once(root(home.join(".claude/skills"), "personal"))
        .chain(project_dirs(cwd, home).map(|d| root(d.join(".claude/skills"), "project")))
        .collect()
}

/// The description when neither the frontmatter nor the body gives one (`xdt`).
const NO_DESCRIPTION: &str = "Skill";

/// A body line longer than this is cut for the fallback description (`xdt`: 97 + "...").
const FALLBACK_MAX: usize = 100;

/// What Claude Code makes of one skill's `SKILL.md`.
struct Read {
    declared_name: Option<String>,
    description: String,
    hidden: Option<&'static str>,
}

/// Whether `c` is one of the characters Claude Code turns into a space in descriptions
/// (`Eyi`: control, format, surrogate, private-use and unassigned code points, the line and
/// paragraph separators, and the blank Hangul and Braille fillers). The zero-width joiner is
/// kept, as it joins emoji.
fn replaced(c: char) -> bool {
    if matches!(
        c,
        '\u{2028}' | '\u{2029}' | '\u{2800}' | '\u{115f}' | '\u{1160}' | '\u{3164}' | '\u{ffa0}'
    ) {
        return true;
    }
    c != '\u{200d}'
        && matches!(
            c.general_category(),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::Surrogate
                | GeneralCategory::PrivateUse
                | GeneralCategory::Unassigned
        )
}

/// Removes ANSI escape sequences (`Bun.stripANSI`): CSI sequences and two-character escapes.
fn strip_ansi(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            out.push(c);
            continue;
        }
        // A CSI sequence runs to its final byte; any other escape takes one character.
        if chars.next() == Some('[') {
            for c in chars.by_ref() {
                if ('\u{40}'..='\u{7e}').contains(&c) {
                    break;
                }
            }
        }
    }
    out
}

/// A description as Claude Code keeps it: ANSI removed, each run of invisible characters one
/// space (ordinary spaces kept), `<` and `>` escaped.
fn normalise(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_run = false;
    for c in strip_ansi(text).chars() {
        if replaced(c) {
            if !in_run {
                out.push(' ');
            }
            in_run = true;
            continue;
        }
        in_run = false;
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
    out
}

/// The first non-blank line of the body, without a heading's `#`s, cut at 100 characters.
fn from_body(body: &str) -> String {
    let Some(line) = body.lines().map(js_trim).find(|l| !l.is_empty()) else {
        return NO_DESCRIPTION.to_owned();
    };
    let hashes = line.trim_start_matches('#');
    let line = if hashes.len() < line.len() && hashes.starts_with(char::is_whitespace) {
        hashes.trim_start()
    } else {
        line
    };
    if js_len(line) > FALLBACK_MAX {
        let cut: String = line
            .chars()
            .scan(0, |units, c| {
                *units += c.len_utf16();
                (*units <= FALLBACK_MAX - 3).then_some(c)
            })
            .collect();
        format!("{cut}...")
    } else {
        line.to_owned()
    }
}

/// `disable-model-invocation` as Claude Code reads it (`Abe`): true, or the words it accepts.
fn disables(node: &Node, text_of: &dyn Fn(&Node) -> Option<String>) -> bool {
    text_of(node).is_some_and(|s| matches!(s.trim(), "true" | "yes" | "on" | "1"))
}

/// A line whose value Claude Code's retry quotes (`tu`): YAML indicators, or `: ` inside, and
/// the values Bun's YAML accepts plain where ours does not.
fn needs_quotes(value: &str) -> bool {
    // A plain value may not start with `,` in YAML 1.2, which Bun's parser lets pass.
    value.starts_with(',')
        || value.contains(": ")
        || value.chars().any(|c| {
            matches!(
                c,
                '{' | '}' | '[' | ']' | '*' | '&' | '#' | '!' | '|' | '>' | '%' | '@' | '`'
            )
        })
}

/// `nu`: each `key: value` line whose value would trip YAML, re-written double-quoted.
fn quote_lines(block: &str) -> String {
    let quoted = |line: &str| -> Option<String> {
        let (key, rest) = line.split_once(':')?;
        if key.is_empty()
            || !key
                .chars()
                .all(|c| c.is_ascii_alphabetic() || c == '_' || c == '-')
        {
            return None;
        }
        let value = rest.trim_start();
        if value.len() == rest.len() || value.is_empty() {
            return None;
        }
        let wrapped = |q: char| value.len() >= 2 && value.starts_with(q) && value.ends_with(q);
        let list = value.starts_with('[')
            && value.ends_with(']')
            && yaml::parse(value, 0).is_ok_and(|n| matches!(n.value, Value::Seq(_)));
        if wrapped('"') || wrapped('\'') || list || !needs_quotes(value) {
            return None;
        }
        Some(format!(
            "{key}: \"{}\"",
            value.replace('\\', "\\\\").replace('"', "\\\"")
        ))
    };
    block
        .split('\n')
        .map(|line| quoted(line).unwrap_or_else(|| line.to_owned()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Leading tabs as two spaces each, as the retry writes them.
fn untab(block: &str) -> String {
    block
        .split('\n')
        .map(|line| {
            let tabs = line.len() - line.trim_start_matches('\t').len();
            format!("{}{}", "  ".repeat(tabs), &line[tabs..])
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The frontmatter's keys (the last of a repeated key wins, as Bun's YAML keeps it) and the
/// body, as `qc` splits a file: the block runs from a first `---` line to the next `---`;
/// YAML that fails is retried with risky values quoted (`Bar`), then ignored.
fn split(text: &str) -> (Vec<(String, Node)>, String) {
    let text = text.replace("\r\n", "\n");
    let opened = text
        .strip_prefix("---")
        .map(|rest| rest.trim_start_matches([' ', '\t', '\r']))
        .and_then(|rest| rest.strip_prefix('\n'));
    let Some((block, after)) = opened.and_then(|rest| rest.split_once("---")) else {
        return (Vec::new(), text);
    };
    let after = after.trim_start_matches([' ', '\t', '\r']);
    let body = after.strip_prefix('\n').unwrap_or(after).to_owned();
    let parsed = yaml::parse(block, 0).or_else(|_| yaml::parse(&untab(&quote_lines(block)), 0));
    let mut keys: Vec<(String, Node)> = Vec::new();
    if let Ok(Node {
        value: Value::Map(pairs),
        ..
    }) = parsed
    {
        for (k, v) in pairs {
            if let Some(key) = k.as_str().map(str::to_owned) {
                keys.retain(|(seen, _)| *seen != key);
                keys.push((key, v));
            }
        }
    }
    (keys, body)
}

fn read(file: &Path) -> Result<Read, DropReason> {
    // Read as Bun reads UTF-8: a byte that is not UTF-8 becomes U+FFFD.
    let bytes = std::fs::read(file).map_err(|e| DropReason::Unreadable {
        detail: e.to_string(),
    })?;
    let (keys, body) = split(&String::from_utf8_lossy(&bytes));
    let field = |key: &str| keys.iter().find(|(k, _)| k == key).map(|(_, v)| v);
    let text_of = |node: &Node| match &node.value {
        Value::Str(s) => Some(s.clone()),
        Value::Bool(b) => Some(b.to_string()),
        Value::Int(i) => Some(i.to_string()),
        Value::Float(f) => Some(f.to_string()),
        Value::Null | Value::Seq(_) | Value::Map(_) => None,
    };
    let description = field("description")
        .and_then(text_of)
        .map(|d| js_trim(&normalise(&d)).to_owned())
        .filter(|d| !d.is_empty())
        .unwrap_or_else(|| from_body(&body));
    let when_to_use = field("when_to_use")
        .and_then(text_of)
        .map(|w| normalise(&w))
        .filter(|w| !w.is_empty());
    Ok(Read {
        declared_name: field("name")
            .and_then(text_of)
            .map(|n| js_trim(&n).to_owned())
            .filter(|n| !n.is_empty()),
        description: match when_to_use {
            Some(w) => format!("{description} - {w}"),
            None => description,
        },
        hidden: if field("disable-model-invocation").is_some_and(|n| disables(n, &text_of)) {
            Some(super::DISABLED_INVOCATION)
        } else if field("paths").is_some_and(|p| !matches!(p.value, Value::Null)) {
            // A conditional skill joins the list once a file matching `paths` is touched.
            Some("paths: listed once a file matching them is touched")
        } else {
            None
        },
    })
}

/// The skill folders of one root, sorted as Claude Code sorts them.
fn folders(root: &Root) -> Vec<(String, PathBuf)> {
    let Ok(entries) = std::fs::read_dir(&root.path) else {
        return Vec::new();
    };
    let mut dirs: Vec<(String, PathBuf)> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir() && (p.join(SKILL_MD).is_file() || p.join("skill.md").is_file()))
        .filter_map(|p| Some((p.file_name()?.to_str()?.to_owned(), p)))
        .collect();
    dirs.sort_by(|a, b| locale_compare(&a.0, &b.0));
    dirs
}

/// Loads `roots` (highest precedence first) as Claude Code does.
pub fn load(roots: Vec<Root>) -> AgentCatalog {
    let mut merge = ClaudeMerge::default();
    for (index, root) in roots.iter().enumerate() {
        for (name, dir) in folders(root) {
            merge.add(index, name, dir);
        }
    }
    AgentCatalog {
        agent: Agent::Claude,
        roots,
        skills: merge.skills,
        dropped: merge.dropped,
        shadowed: merge.shadowed,
    }
}

/// The catalog as the roots are read, highest precedence first.
#[derive(Default)]
struct ClaudeMerge {
    skills: Vec<AgentSkill>,
    dropped: Vec<Dropped>,
    shadowed: Vec<Shadowed>,
    /// The resolved `SKILL.md` of each loaded skill, by index in `skills`.
    real_files: Vec<PathBuf>,
}

impl ClaudeMerge {
    /// Decides what one folder of root `index` is: dropped, shadowed, or loaded.
    fn add(&mut self, index: usize, name: String, dir: PathBuf) {
        if !dir.join(SKILL_MD).is_file() {
            self.dropped.push(Dropped {
                dir,
                root: index,
                reason: DropReason::LowercaseFile,
            });
            return;
        }
        // Two folders that resolve to one file are one skill ("Skipping duplicate skill").
        let real = std::fs::canonicalize(dir.join(SKILL_MD)).ok();
        let same_file = real
            .as_ref()
            .and_then(|r| self.real_files.iter().position(|f| f == r));
        let winner = self
            .skills
            .iter()
            .find(|s| s.name == name)
            .or(same_file.map(|i| &self.skills[i]));
        if let Some(winner) = winner {
            self.shadowed.push(Shadowed {
                name,
                dir,
                root: index,
                by_root: winner.root,
                by_dir: winner.dir.clone(),
            });
            return;
        }
        let file = dir.join(SKILL_MD);
        match read(&file) {
            Ok(read) => {
                self.real_files.push(real.unwrap_or_else(|| file.clone()));
                self.skills.push(AgentSkill {
                    declared_name: read.declared_name.unwrap_or_else(|| name.clone()),
                    dir_name: name.clone(),
                    name,
                    file: std::path::absolute(&file).unwrap_or(file),
                    dir,
                    root: index,
                    description: read.description,
                    requirements: Requirements::default(),
                    availability: Availability::default(),
                    always: false,
                    hidden: read.hidden,
                    body: String::new(),
                });
            }
            Err(reason) => self.dropped.push(Dropped {
                dir,
                root: index,
                reason,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descriptions_as_claude_code_keeps_them() {
        assert_eq!(
            normalise("tab\there  two  spaces\r\nCRLF \u{1b}[31mansi"),
            "tab here  two  spaces CRLF ansi"
        );
        assert_eq!(normalise("a <b> & \"c\""), "a &lt;b&gt; & \"c\"");
        assert_eq!(from_body("\n\n## Heading line\nmore"), "Heading line");
        assert_eq!(from_body(""), "Skill");
        let long = "x".repeat(101);
        assert_eq!(from_body(&long), format!("{}...", "x".repeat(97)));
    }
}
