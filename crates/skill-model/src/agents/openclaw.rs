//! OpenClaw's reading of skill roots (2026.9.2, unchanged in 2026.9.6), ported from its `dist/` (the function names in
//! comments are OpenClaw's): discovery below each root (`discoverSkillCandidates`), the
//! frontmatter (`parseFrontmatterBlockResult`: YAML core schema, a line parser as fallback, and
//! a retry that re-quotes a broken `description:` line), the skip rules (`loadSingleSkillDirectory`),
//! the merge by name across roots (`loadSkillEntries`) and the gates (`shouldIncludeSkill`).

use super::text::{js_code_unit_cmp, js_trim, locale_compare};
use super::{ALL_GATES, Facts, Measure, PromptBudget};
use super::{AgentCatalog, AgentSkill, DropReason, Dropped, RootLimits, Shadowed, facts, gated};
use crate::availability::Availability;
use crate::catalog::SHARED_ROOT;
use crate::catalog::root;
use crate::catalog::{Agent, Root};
use crate::environment::Environment;
use crate::layout::SKILL_MD;
use crate::requirements::{Item, Requirements};
use crate::span::Span;
use crate::yaml::{self, Node, Value};
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

/// OpenClaw, read from the npm package `openclaw@2026.9.2` (`dist/`, file names carry a hash) and
/// checked against `openclaw@2026.9.6`, whose reading and catalog are the same.
pub(crate) const FACTS: Facts = Facts {
    agent: Agent::Openclaw,
    name: "OpenClaw",
    release: "OpenClaw 2026.9.6",
    // local-loader: `name = frontmatter.name?.trim() || basename(skillDir)`, merged by name.
    identity_is_folder: false,
    // local-loader: `path.join(skillDir, "SKILL.md")`, no lower-case fallback.
    skill_files: &[SKILL_MD],
    // legacy-names: MANIFEST_KEY "openclaw", LEGACY_MANIFEST_KEYS ["clawdbot"]. Neither
    // `moltbot` nor `clawdis` is read any more.
    metadata_blocks: &["openclaw", "clawdbot"],
    // config-eval `evaluateRuntimeEligibility`: os first, then `always` skips the rest.
    gates: ALL_GATES,
    // markdown-core frontmatter: the `yaml` package, core schema, with a line-parser fallback
    // and a retry that JSON-quotes a broken `description:` line.
    yaml: "YAML 1.2 core (npm yaml), broken description lines re-quoted",
    // local-loader: "description is required".
    requires_description: true,
    description_max: None,
    name_max: None,
    budget: Some(PromptBudget {
        // skill-prompt-limits: DEFAULT_MAX_SKILLS_PROMPT_CHARS = 18e3, compared with `.length`.
        default_chars: 18_000,
        measure: Measure::Utf16,
        context_percent: None,
        env_override: None,
        description_cap: None,
        // skill-prompt-limits: DEFAULT_MAX_SKILLS_IN_PROMPT = 150.
        max_skills: Some(150),
        steps: &[
            "descriptions shortened",
            "descriptions omitted",
            "skills dropped",
        ],
    }),
    // skill-root-discovery: 300 candidates, 200 loaded, 256,000 bytes, 6 levels.
    bundled: &[],
    root_limits: Some(RootLimits {
        candidates: 300,
        loaded: 200,
        file_bytes: 256_000,
        depth: 6,
    }),
    // skill-root-discovery `listChildDirectories`: `!entry.name.startsWith(".")`.
    skips_hidden: true,
    lists_nested: false,
    // local-loader: `path.resolve(dir, "SKILL.md")`, symlinks left alone.
    resolves_links: false,
    // frontmatter `resolveSkillInvocationPolicy` (user-invocable, disable-model-invocation),
    // chat-commands (command-dispatch, -tool, -arg-mode), entry-status (`metadata.homepage ??
    // frontmatter.homepage ?? frontmatter.website ?? frontmatter.url`).
    keys: &[
        "homepage",
        "website",
        "url",
        "user-invocable",
        "disable-model-invocation",
        "command-dispatch",
        "command-tool",
        "command-arg-mode",
    ],
    reserved_name_words: &[],
    description_advice: None,
    runtime: &["node"],
    // embedded-agent-messaging-extraction: TRUSTED_TOOL_RESULT_MEDIA, the core tools
    // (AUTOMATIONS_TOOL_NAME is "automations").
    user_folder: ".openclaw/skills",
    project_folder: SHARED_ROOT,
    settings_folders: &[".openclaw"],
    tools: &[
        "agents_list",
        "apply_patch",
        "automations",
        "browser",
        "canvas",
        "edit",
        "exec",
        "gateway",
        "view_image",
        "image_generate",
        "memory_get",
        "memory_search",
        "message",
        "music_generate",
        "nodes",
        "process",
        "read",
        "session_status",
        "sessions_history",
        "sessions_list",
        "sessions_search",
        "sessions_send",
        "sessions_spawn",
        "subagents",
        "tts",
        "video_generate",
        "web_fetch",
        "web_search",
        "x_search",
        "write",
    ],
};

/// OpenClaw's roots: its workspace's `skills` and `.agents/skills` (the workspace is
/// `$OPENCLAW_WORKSPACE`, else `~/.openclaw/workspace`), the user's `.agents/skills`, then its
/// managed skills.
pub(crate) fn roots(home: &Path, env: &dyn Environment) -> Vec<Root> {
    let workspace = env
        .var("OPENCLAW_WORKSPACE")
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(".openclaw/workspace"));
    vec![
        root(workspace.join("skills"), "openclaw-workspace"),
        root(workspace.join(".agents/skills"), "workspace-agents"),
        root(home.join(".agents/skills"), "user-agents"),
        root(home.join(".openclaw/skills"), "openclaw-managed"),
    ]
}

/// The frontmatter as OpenClaw holds it: every value a string.
pub type Frontmatter = BTreeMap<String, String>;

/// Config paths OpenClaw treats as true when its config does not set them
/// (`DEFAULT_CONFIG_VALUES` in `skills/loading/config`).
const DEFAULT_TRUE_CONFIG: [&str; 2] = ["browser.enabled", "browser.evaluateEnabled"];

/// The fields whose broken line OpenClaw re-quotes (`FREEFORM_TEXT_FIELDS`).
const FREEFORM_FIELDS: [&str; 3] = ["description", "read_when", "summary"];

/// BOM dropped, CRLF and CR made LF (`normalizeFrontmatterContent`).
fn normalise(content: &str) -> String {
    content
        .strip_prefix('\u{feff}')
        .unwrap_or(content)
        .replace("\r\n", "\n")
        .replace('\r', "\n")
}

/// `[^\S\n]*` then a newline or the end, after `---`.
fn closes_delimiter(rest: &str) -> Option<usize> {
    let spaces = rest
        .char_indices()
        .find(|(_, c)| *c == '\n' || !super::text::is_js_space(*c))
        .map(|(i, _)| i)
        .unwrap_or(rest.len());
    match rest[spaces..].chars().next() {
        None => Some(spaces),
        Some('\n') => Some(spaces + 1),
        Some(_) => None,
    }
}

/// The block between the delimiters (`extractFrontmatterBlockFromNormalized`): `None` when
/// there is no opening line, `Some(None)` when it is never closed.
fn block(normalised: &str) -> Option<Option<&str>> {
    let after = normalised.strip_prefix("---")?;
    let opening = closes_delimiter(after).filter(|n| after[..*n].ends_with('\n'))?;
    let tail = &after[opening..];
    // The closing `---` starts the tail or follows a newline.
    let mut at = 0;
    loop {
        let candidate = if at == 0 && tail.starts_with("---") {
            Some(0)
        } else {
            tail[at..].find("\n---").map(|i| at + i + 1)
        };
        let Some(start) = candidate else {
            return Some(None);
        };
        if closes_delimiter(&tail[start + 3..]).is_some() {
            let end = if start == 0 { 0 } else { start - 1 };
            return Some(Some(&tail[..end]));
        }
        at = start + 1;
        if at >= tail.len() {
            return Some(None);
        }
    }
}

/// `parseLineFrontmatter`: `key: value` lines, an empty value continued by indented lines.
fn line_frontmatter(block: &str) -> Frontmatter {
    let mut out = Frontmatter::new();
    let lines: Vec<&str> = block.split('\n').collect();
    let mut i = 0;
    while i < lines.len() {
        if let Some((key, raw)) = key_line(lines[i], false) {
            let mut value = js_trim(raw).to_owned();
            let indented = |l: &str| l.starts_with([' ', '\t']);
            if value.is_empty() && lines.get(i + 1).is_some_and(|l| indented(l)) {
                let mut taken = Vec::new();
                while i + 1 < lines.len() {
                    let line = lines[i + 1];
                    if !line.is_empty() && !indented(line) {
                        break;
                    }
                    taken.push(line);
                    i += 1;
                }
                value = js_trim(&taken.join("\n")).to_owned();
            } else {
                value = strip_quotes(&value).to_owned();
            }
            if !value.is_empty() {
                out.insert(key.to_owned(), value);
            }
        }
        i += 1;
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// `^([\w-]+):\s*(.*)$` on one line (with `quoted`, also `"key":` and `'key':`).
fn key_line(line: &str, quoted: bool) -> Option<(&str, &str)> {
    let (key, rest) = match line.chars().next() {
        Some(q @ ('"' | '\'')) if quoted => {
            let inner = &line[1..];
            let end = inner.find(q)?;
            let key = &inner[..end];
            (key, &inner[end + 1..])
        }
        _ => {
            let end = line.find(|c: char| !is_word(c)).unwrap_or(line.len());
            (&line[..end], &line[end..])
        }
    };
    if key.is_empty() || !key.chars().all(is_word) {
        return None;
    }
    let rest = rest.strip_prefix(':')?;
    Some((key, rest.trim_start_matches(super::text::is_js_space)))
}

fn strip_quotes(value: &str) -> &str {
    let mut chars = value.chars();
    match (chars.next(), value.chars().last()) {
        (Some(q @ ('"' | '\'')), Some(l)) if l == q && value.len() >= 2 => {
            &value[1..value.len() - 1]
        }
        _ => value,
    }
}

/// A YAML node as JavaScript sees it after `doc.toJS()`.
fn to_json(node: &Node) -> serde_json::Value {
    use serde_json::Value as J;
    match &node.value {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => serde_json::Number::from_f64(*i as f64).map_or(J::Null, J::Number),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::Str(s) => J::String(s.clone()),
        Value::Seq(items) => J::Array(items.iter().map(to_json).collect()),
        Value::Map(pairs) => {
            J::Object(pairs.iter().map(|(k, v)| (js_key(k), to_json(v))).collect())
        }
    }
}

fn js_key(node: &Node) -> String {
    match &node.value {
        Value::Str(s) => s.clone(),
        _ => js_string(&to_json(node)),
    }
}

/// `String(value)` for a number: integers without a fraction, as JavaScript prints them.
fn js_number(f: f64) -> String {
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e21 {
        format!("{f:.0}")
    } else if f.is_nan() {
        "NaN".to_owned()
    } else if f.is_infinite() {
        if f > 0.0 { "Infinity" } else { "-Infinity" }.to_owned()
    } else {
        f.to_string()
    }
}

fn js_string(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Number(n) => js_number(n.as_f64().unwrap_or(0.0)),
        serde_json::Value::Bool(b) => b.to_string(),
        serde_json::Value::Null => "null".to_owned(),
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// One parse of the block (`parseYamlFrontmatterOnce`).
fn yaml_once(block: &str, fallback: &Frontmatter) -> Result<Frontmatter, yaml::YamlError> {
    let root = yaml::parse(block, 0)?;
    let not_mapping = || yaml::YamlError {
        message: "INVALID_ROOT: frontmatter must be a YAML mapping".to_owned(),
        line: None,
        column: None,
    };
    let Value::Map(pairs) = &root.value else {
        return Err(not_mapping());
    };
    // The `yaml` package refuses a repeated key ("Map keys must be unique").
    let mut seen = std::collections::HashSet::new();
    for (k, _) in pairs {
        if !seen.insert(js_key(k)) {
            return Err(yaml::YamlError {
                message: "DUPLICATE_KEY: Map keys must be unique".to_owned(),
                line: None,
                column: None,
            });
        }
    }
    let mut out = Frontmatter::new();
    for (k, v) in pairs {
        let key = js_trim(&js_key(k)).to_owned();
        if key.is_empty() {
            continue;
        }
        let line_rest = {
            let start = k.span.start.min(block.len());
            let line = block[start..].split('\n').next().unwrap_or("");
            key_line(line, false).map(|(_, rest)| rest.contains(':'))
        };
        let value = match &v.value {
            Value::Null => continue,
            Value::Str(s) => js_trim(s).to_owned(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Float(f) => js_number(*f),
            Value::Seq(_) | Value::Map(_) => {
                // A one-line flow value (`metadata: {"openclaw": ...}`) is kept as written, from
                // the line parser, so JSON5 later reads what the author wrote.
                match (line_rest, fallback.get(&key)) {
                    (Some(true), Some(raw)) => raw.clone(),
                    _ => serde_json::to_string(&to_json(v)).unwrap_or_default(),
                }
            }
        };
        out.insert(key, value);
    }
    for (k, v) in fallback {
        out.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Ok(out)
}

/// `normalizeFreeformFieldAtError`: the block with the broken `description:` (or `read_when:`,
/// `summary:` holding `: `) line at the error re-written as a JSON string; `None` if no change.
fn requote(block: &str, error: &yaml::YamlError) -> Option<String> {
    let line_no = error.line?;
    let start: usize = block
        .split_inclusive('\n')
        .take(line_no - 1)
        .map(str::len)
        .sum();
    let end = block[start..].find('\n').map_or(block.len(), |i| start + i);
    let (key, raw) = key_line(&block[start..end], true)?;
    let raw = js_trim(raw);
    let block_scalar = raw.starts_with(['|', '>']) && {
        let rest = &raw[1..];
        rest.is_empty()
            || matches!(rest.len(), 1 | 2)
                && rest.chars().all(|c| matches!(c, '1'..='9' | '+' | '-'))
    };
    if raw.is_empty()
        || !FREEFORM_FIELDS.contains(&key)
        || (key != "description" && !raw.contains(": "))
        || block_scalar
    {
        return None;
    }
    let replacement = format!(
        "{key}: {}",
        serde_json::to_string(strip_quotes(raw)).unwrap_or_default()
    );
    Some(format!("{}{replacement}{}", &block[..start], &block[end..]))
}

/// The frontmatter of `content` as OpenClaw reads it, or the parser's complaint.
pub fn frontmatter(content: &str) -> Result<Frontmatter, String> {
    let normalised = normalise(content);
    let block = match block(&normalised) {
        None => return Ok(Frontmatter::new()),
        Some(None) => {
            return Err("UNTERMINATED_FRONTMATTER: missing closing --- delimiter".to_owned());
        }
        Some(Some("")) => return Ok(Frontmatter::new()),
        Some(Some(block)) => block,
    };
    let fallback = line_frontmatter(block);
    let first = match yaml_once(block, &fallback) {
        Ok(fm) => return Ok(fm),
        Err(e) => e,
    };
    let mut recovered = block.to_owned();
    let mut error = first.clone();
    for _ in 0..FREEFORM_FIELDS.len() {
        let Some(next) = requote(&recovered, &error) else {
            break;
        };
        recovered = next;
        match yaml_once(&recovered, &fallback) {
            Ok(fm) => return Ok(fm),
            Err(e) => error = e,
        }
    }
    Err(error.message)
}

/// What OpenClaw reads of one `SKILL.md`: its name, description and frontmatter.
#[derive(Debug, Clone)]
pub struct Read {
    /// `name`, else the folder name.
    pub name: String,
    /// `description`, trimmed.
    pub description: String,
    /// Every frontmatter value as a string.
    pub frontmatter: Frontmatter,
}

/// Reads `SKILL.md` text of the skill in folder `dir_name` (`loadSingleSkillDirectory`).
pub fn read(content: &str, dir_name: &str) -> Result<Read, DropReason> {
    let frontmatter = frontmatter(content).map_err(|detail| DropReason::Yaml { detail })?;
    let name = frontmatter
        .get("name")
        .map(|n| js_trim(n).to_owned())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| js_trim(dir_name).to_owned());
    if name.is_empty() {
        return Err(DropReason::Name {
            detail: "name is required".to_owned(),
        });
    }
    let description = frontmatter
        .get("description")
        .map(|d| js_trim(d).to_owned())
        .filter(|d| !d.is_empty())
        .ok_or(DropReason::NoDescription)?;
    Ok(Read {
        name,
        description,
        frontmatter,
    })
}

/// `parseBooleanValue` of a frontmatter string: `true/1/yes/on`, `false/0/no/off`.
pub fn boolean(value: Option<&String>) -> Option<bool> {
    match js_trim(value?).to_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Some(true),
        "false" | "0" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// `normalizeCsvOrLooseStringList`.
fn string_list(value: Option<&serde_json::Value>) -> Vec<Item> {
    let item = |s: &str| {
        let s = js_trim(s);
        (!s.is_empty()).then(|| Item {
            value: s.to_owned(),
            span: Span::default(),
        })
    };
    match value {
        Some(serde_json::Value::Array(items)) => {
            items.iter().filter_map(|v| item(&js_string(v))).collect()
        }
        Some(serde_json::Value::String(s)) => s.split(',').filter_map(item).collect(),
        _ => Vec::new(),
    }
}

/// The requirements block (`resolveOpenClawManifestBlock`): `metadata` parsed as JSON5, then
/// its `openclaw` or `clawdbot` object.
pub fn requirements(frontmatter: &Frontmatter) -> Requirements {
    let mut req = Requirements::default();
    let Some(raw) = frontmatter.get("metadata").filter(|m| !m.is_empty()) else {
        return req;
    };
    let Ok(parsed) = json5::from_str::<serde_json::Value>(raw) else {
        return req;
    };
    let Some((name, block)) = facts(Agent::Openclaw).metadata_blocks.iter().find_map(|k| {
        parsed
            .get(*k)
            .filter(|b| b.is_object() || b.is_array())
            .map(|b| (*k, b))
    }) else {
        return req;
    };
    if let Some(requires) = block.get("requires").filter(|r| r.is_object()) {
        req.bins = string_list(requires.get("bins"));
        req.any_bins = string_list(requires.get("anyBins"));
        req.env = string_list(requires.get("env"));
        req.config = string_list(requires.get("config"));
    }
    req.os = string_list(block.get("os"));
    req.always = block.get("always") == Some(&serde_json::Value::Bool(true));
    req.primary_env = block
        .get("primaryEnv")
        .and_then(serde_json::Value::as_str)
        .map(|s| Item {
            value: s.to_owned(),
            span: Span::default(),
        });
    req.install = block
        .get("install")
        .and_then(serde_json::Value::as_array)
        .map(|specs| {
            specs
                .iter()
                .map(|s| Node::from_json(s, Span::default()))
                .collect()
        })
        .unwrap_or_default();
    req.block = Some(name.to_owned());
    req
}

/// Where a root sits in OpenClaw's precedence, which decides whether its skills must stay
/// inside it and whether their paths are shown resolved.
fn contained(root: &Root) -> bool {
    // `shouldEnforceConfiguredSkillRootContainment`: not for managed and personal roots.
    !matches!(root.label.as_str(), "openclaw-managed" | "user-agents")
}

/// `path.resolve`: absolute and lexically normalised, symlinks left alone.
pub fn resolve(path: &Path) -> PathBuf {
    let joined = if path.is_absolute() {
        path.to_path_buf()
    } else {
        std::env::current_dir().unwrap_or_default().join(path)
    };
    let mut out = PathBuf::new();
    for part in joined.components() {
        match part {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `hasSkillFileCandidate`: anything named `SKILL.md` is there (lstat succeeds).
fn has_skill_file(dir: &Path) -> bool {
    match std::fs::symlink_metadata(dir.join(SKILL_MD)) {
        Ok(_) => true,
        Err(e) => !matches!(
            e.kind(),
            std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
        ),
    }
}

/// Child folders (symlinks followed) that are not hidden and not `node_modules`, in
/// JavaScript's default sort order.
fn child_dirs(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .flatten()
        .filter(|e| std::fs::metadata(e.path()).is_ok_and(|m| m.is_dir()))
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n != "node_modules")
        .collect();
    names.sort_by(|a, b| js_code_unit_cmp(a, b));
    names
}

/// Any `SKILL.md` below `dir` within `depth` levels, skipping the top-level `skip` folder.
fn any_skill_below(dir: &Path, depth: usize, skip: &str) -> bool {
    let mut queue = vec![(dir.to_path_buf(), 0)];
    while let Some((d, level)) = queue.pop() {
        if level > 0 && has_skill_file(&d) {
            return true;
        }
        if level >= depth {
            continue;
        }
        for child in child_dirs(&d) {
            if level == 0 && child == skip {
                continue;
            }
            queue.push((d.join(child), level + 1));
        }
    }
    false
}

/// A folder OpenClaw will try to load.
struct Candidate {
    dir: PathBuf,
    real: PathBuf,
    name: String,
}

/// `discoverSkillCandidates` for one root, sorted as OpenClaw loads them, and the folders left
/// out by the per-root limit or for leaving the root.
fn discover(root: &Root, dropped: &mut Vec<(PathBuf, DropReason)>) -> Vec<Candidate> {
    let limits = facts(Agent::Openclaw)
        .root_limits
        .expect("OpenClaw's facts carry root limits");
    let root_dir = resolve(&root.path);
    if !root_dir.exists() {
        return Vec::new();
    }
    let root_real = std::fs::canonicalize(&root_dir).unwrap_or_else(|_| root_dir.clone());
    let base = skills_base(&root_dir, limits.depth);
    let inside = |path: &Path| -> Option<PathBuf> {
        let real = std::fs::canonicalize(path).ok()?;
        (!contained(root) || real.starts_with(&root_real)).then_some(real)
    };
    if has_skill_file(&base) {
        return inside(&base)
            .map(|real| Candidate {
                name: base
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                dir: base.clone(),
                real,
            })
            .into_iter()
            .collect();
    }
    let limited = first_children(&base, limits.candidates, dropped);
    let mut found = walk(&base, limited, &limits, &inside, dropped);
    // `a.name.localeCompare(b.name)` in the process's default locale, English here.
    found.sort_by(|a, b| locale_compare(&a.name, &b.name));
    found
}

/// `resolveNestedSkillsRoot`: a root whose skills all sit in `skills/` is read from there.
fn skills_base(root_dir: &Path, depth: usize) -> PathBuf {
    let nested = root_dir.join("skills");
    if nested.is_dir()
        && !has_skill_file(root_dir)
        && !any_skill_below(root_dir, depth, "skills")
        && any_skill_below(root_dir, depth, "")
    {
        nested
    } else {
        root_dir.to_path_buf()
    }
}

/// The first `candidates` folders of `base` (and `skills` beyond them); the others are
/// dropped for the per-root limit.
fn first_children(
    base: &Path,
    candidates: usize,
    dropped: &mut Vec<(PathBuf, DropReason)>,
) -> Vec<String> {
    let children = child_dirs(base);
    let mut limited: Vec<String> = children.iter().take(candidates).cloned().collect();
    for skipped in children.iter().skip(candidates) {
        if skipped == "skills" {
            limited.push(skipped.clone());
        } else {
            dropped.push((
                base.join(skipped),
                DropReason::RootLimit {
                    detail: format!("only the first {candidates} folders are looked at"),
                },
            ));
        }
    }
    limited
}

/// Breadth first from `limited` down to the depth limit: each folder with a `SKILL.md` inside
/// the root is a candidate (named by its path below `base`); one leading out is dropped.
fn walk(
    base: &Path,
    limited: Vec<String>,
    limits: &RootLimits,
    inside: &dyn Fn(&Path) -> Option<PathBuf>,
    dropped: &mut Vec<(PathBuf, DropReason)>,
) -> Vec<Candidate> {
    let mut queue: std::collections::VecDeque<(PathBuf, String, usize)> = limited
        .into_iter()
        .map(|name| {
            let dir = base.join(&name);
            let depth = if name == "skills" && !has_skill_file(&dir) {
                0
            } else {
                1
            };
            (dir, name, depth)
        })
        .collect();
    let mut found = Vec::new();
    while let Some((dir, name, depth)) = queue.pop_front() {
        let Some(real) = inside(&dir) else {
            if std::fs::canonicalize(&dir).is_ok() {
                dropped.push((dir, DropReason::OutsideRoot));
            }
            continue;
        };
        if has_skill_file(&dir) {
            found.push(Candidate { dir, real, name });
            continue;
        }
        if depth >= limits.depth {
            continue;
        }
        for child in child_dirs(&dir).into_iter().take(limits.candidates) {
            queue.push_back((dir.join(&child), format!("{name}/{child}"), depth + 1));
        }
    }
    found
}

/// One loaded record before the merge.
struct Record {
    skill: AgentSkill,
}

/// Reads one candidate (`loadSingleSkillDirectory`): the file within the size limit, decoded
/// as Node decodes UTF-8 (bad bytes become U+FFFD), then the frontmatter.
fn load_candidate(
    candidate: &Candidate,
    root: &Root,
    index: usize,
    env: &dyn Environment,
) -> Result<Record, DropReason> {
    let bytes = read_skill_file(&candidate.dir)?;
    let content = String::from_utf8_lossy(&bytes);
    let dir_name = candidate
        .dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let read = read(&content, &dir_name)?;
    let requirements = requirements(&read.frontmatter);
    let availability = availability(&requirements, env);
    let shown_dir = if contained(root) {
        resolve(&candidate.dir)
    } else {
        candidate.real.clone()
    };
    Ok(Record {
        skill: AgentSkill {
            declared_name: read.name.clone(),
            name: read.name,
            dir_name,
            dir: candidate.dir.clone(),
            file: shown_dir.join(SKILL_MD),
            root: index,
            description: read.description,
            always: requirements.always,
            hidden: boolean(read.frontmatter.get("disable-model-invocation"))
                .unwrap_or(false)
                .then_some(super::DISABLED_INVOCATION),
            requirements,
            availability,
            body: String::new(),
        },
    })
}

/// The bytes of `dir`'s `SKILL.md`, or why OpenClaw reads none: no such file (a lowercase
/// `skill.md` is not one), unreadable, or over the size limit.
fn read_skill_file(dir: &Path) -> Result<Vec<u8>, DropReason> {
    let limits = facts(Agent::Openclaw)
        .root_limits
        .expect("OpenClaw's facts carry root limits");
    let file = dir.join(SKILL_MD);
    if !has_skill_file(dir) {
        return Err(if dir.join("skill.md").is_file() {
            DropReason::LowercaseFile
        } else {
            DropReason::Unreadable {
                detail: "no SKILL.md".to_owned(),
            }
        });
    }
    let bytes = std::fs::read(&file).map_err(|e| DropReason::Unreadable {
        detail: e.to_string(),
    })?;
    if bytes.len() > limits.file_bytes {
        return Err(DropReason::TooLarge {
            bytes: bytes.len() as u64,
            max: limits.file_bytes,
        });
    }
    Ok(bytes)
}

/// OpenClaw's gates, with the config keys it has no default for, and `always: true` passing
/// every requirement but the platform.
fn availability(requirements: &Requirements, env: &dyn Environment) -> Availability {
    let mut availability = gated(requirements, facts(Agent::Openclaw).gates, env);
    availability.missing_config = requirements
        .config
        .iter()
        .filter(|c| !DEFAULT_TRUE_CONFIG.contains(&c.value.as_str()))
        .map(|c| c.value.clone())
        .collect();
    if requirements.always && availability.unsupported_os.is_none() {
        // `always: true` skips every requirement but the platform.
        availability = Default::default();
    }
    availability
}

/// Loads `roots` (highest precedence first) as OpenClaw does.
pub fn load(roots: Vec<Root>, env: &dyn Environment) -> AgentCatalog {
    let mut dropped = Vec::new();
    let per_root: Vec<Vec<Record>> = roots
        .iter()
        .enumerate()
        .map(|(index, root)| load_root(root, index, env, &mut dropped))
        .collect();
    let mut shadowed = Vec::new();
    let mut merged = merge(per_root, &mut shadowed);
    merged.sort_by(|a, b| locale_compare(&a.name, &b.name));
    AgentCatalog {
        agent: Agent::Openclaw,
        roots,
        skills: merged,
        dropped,
        shadowed,
    }
}

/// The records of one root's candidates, up to the per-root limit (a root that is itself a
/// skill has none); the folders left out go to `dropped`, after those that failed to load.
fn load_root(
    root: &Root,
    index: usize,
    env: &dyn Environment,
    dropped: &mut Vec<Dropped>,
) -> Vec<Record> {
    let limits = facts(Agent::Openclaw)
        .root_limits
        .expect("OpenClaw's facts carry root limits");
    let mut left_out = Vec::new();
    let candidates = discover(root, &mut left_out);
    let rooted_skill = candidates.len() == 1 && candidates[0].dir == resolve(&root.path);
    let mut records = Vec::new();
    for candidate in &candidates {
        if !rooted_skill && records.len() >= limits.loaded {
            dropped.push(Dropped {
                dir: candidate.dir.clone(),
                root: index,
                reason: DropReason::RootLimit {
                    detail: format!("only {} skills are loaded per root", limits.loaded),
                },
            });
            continue;
        }
        match load_candidate(candidate, root, index, env) {
            Ok(record) => records.push(record),
            Err(reason) => dropped.push(Dropped {
                dir: candidate.dir.clone(),
                root: index,
                reason,
            }),
        }
    }
    dropped.extend(left_out.into_iter().map(|(dir, reason)| Dropped {
        dir,
        root: index,
        reason,
    }));
    records
}

/// The merge goes from the lowest root up and a later record replaces an earlier one of the
/// same name, also within one root (so there the folder sorting last wins).
fn merge(per_root: Vec<Vec<Record>>, shadowed: &mut Vec<Shadowed>) -> Vec<AgentSkill> {
    let mut merged: Vec<AgentSkill> = Vec::new();
    for records in per_root.into_iter().rev() {
        for record in records {
            let skill = record.skill;
            if let Some(at) = merged.iter().position(|s| s.name == skill.name) {
                let loser = std::mem::replace(&mut merged[at], skill);
                shadowed.push(Shadowed {
                    name: loser.name,
                    dir: loser.dir,
                    root: loser.root,
                    by_root: merged[at].root,
                    by_dir: merged[at].dir.clone(),
                });
            } else {
                merged.push(skill);
            }
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_description_line_is_requoted() {
        let fm = frontmatter("---\nname: a\ndescription: Use when: testing\n---\n").unwrap();
        assert_eq!(fm["description"], "Use when: testing");
    }

    #[test]
    fn unclosed_and_missing_frontmatter() {
        assert!(frontmatter("---\nname: a\n").is_err());
        assert!(frontmatter("# no frontmatter\n").unwrap().is_empty());
        assert!(matches!(read("# x\n", "x"), Err(DropReason::NoDescription)));
    }

    #[test]
    fn block_scalars_and_flow_metadata() {
        let fm = frontmatter(
            "---\ndescription: >\n  Folded\n  text\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"gh\"]}}}\n---\n",
        )
        .unwrap();
        assert_eq!(fm["description"], "Folded text");
        assert_eq!(requirements(&fm).bins[0].value, "gh");
    }

    #[test]
    fn moltbot_and_clawdis_are_not_read() {
        for name in ["moltbot", "clawdis"] {
            let fm = frontmatter(&format!(
                "---\ndescription: d\nmetadata: {{\"{name}\": {{\"requires\": {{\"bins\": [\"gh\"]}}}}}}\n---\n"
            ))
            .unwrap();
            assert!(requirements(&fm).bins.is_empty(), "{name}");
        }
        let fm = frontmatter(
            "---\ndescription: d\nmetadata: {\"clawdbot\": {\"requires\": {\"bins\": [\"gh\"]}}}\n---\n",
        )
        .unwrap();
        assert_eq!(requirements(&fm).bins.len(), 1);
    }
}
