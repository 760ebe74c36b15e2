//! nanobot 0.3.5's reading of skill roots (`nanobot/agent/skills.py`): every direct child
//! folder holding a file named exactly `SKILL.md`, keyed by folder name; the frontmatter read
//! with PyYAML (YAML 1.1) where any error means "no frontmatter"; the description used only
//! when it is a non-empty string, untrimmed; requirements from `metadata.nanobot`, else
//! `metadata.openclaw`, gating on bins and env only.
//!
//! nanobot lists folders in `Path.iterdir()` order, which the file system decides; we sort by
//! folder name (bytes) within each root.

use super::text::py_strip;
use super::{AgentCatalog, AgentSkill, DropReason, Dropped, Shadowed, facts, gated};
use super::{Facts, Gates};
use crate::catalog::root;
use crate::catalog::{Agent, Root};
use crate::environment::Environment;
use crate::layout::SKILL_MD;
use crate::requirements::{Item, Requirements};
use crate::span::Span;
use crate::yaml::{self, Node, Value};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// nanobot, read from PyPI `nanobot-ai==0.3.5` (`nanobot/agent/skills.py`).
pub(crate) const FACTS: Facts = Facts {
    agent: Agent::Nanobot,
    name: "nanobot",
    release: "nanobot 0.3.5",
    // skills.py `_skill_entries_from_dir`: `name = skill_dir.name`.
    identity_is_folder: true,
    skill_files: &[SKILL_MD],
    // skills.py `_parse_nanobot_metadata`: `data.get("nanobot", data.get("openclaw", {}))`.
    metadata_blocks: &["nanobot", "openclaw"],
    // skills.py `_check_requirements`: bins and env only; `os` is not enforced.
    gates: Gates {
        bins: true,
        any_bins: false,
        env: true,
        config: false,
        os: false,
    },
    yaml: "YAML 1.1 (PyYAML safe_load); unreadable YAML reads as no frontmatter",
    // skills.py `get_skill_description`: falls back to the folder name.
    requires_description: false,
    description_max: None,
    name_max: None,
    // nanobot 0.3.5 puts every skill in the prompt, with no budget.
    budget: None,
    bundled: &[],
    root_limits: None,
    skips_hidden: false,
    lists_nested: false,
    resolves_links: false,
    // skills.py `get_always_skills`: the block's `always`, else the top-level one.
    keys: &["always"],
    reserved_name_words: &[],
    description_advice: None,
    runtime: &["python3", "python"],
    // nanobot/agent/tools/*.py: each tool's `name`.
    user_folder: ".nanobot/workspace/skills",
    project_folder: "skills",
    settings_folders: &[".nanobot"],
    tools: &[
        "apply_patch",
        "create_goal",
        "cron",
        "edit_file",
        "exec",
        "exec_session",
        "generate_image",
        "list_dir",
        "list_exec_sessions",
        "message",
        "my",
        "read_file",
        "read_session",
        "run_cli_app",
        "search_sessions",
        "spawn",
        "update_goal",
        "web_fetch",
        "web_search",
        "write_file",
    ],
};

/// nanobot's one root: its workspace's `skills`.
pub(crate) fn roots(home: &Path) -> Vec<Root> {
    vec![root(home.join(".nanobot/workspace/skills"), "workspace")]
}

/// skills.py's `_STRIP_SKILL_FRONTMATTER`, `(?s)\A---\s*\r?\n(.*?)\r?\n---\s*\r?\n?`, matched by
/// hand: the YAML block (the group) and where the match ends. A regex engine needs its
/// backtracker for the group, which cost more than the rest of reading a skill.
fn frontmatter(content: &str) -> Option<(std::ops::Range<usize>, usize)> {
    let rest = content.strip_prefix("---")?;
    // `\s*\r?\n`: the group starts after a newline of the whitespace run, the last one
    // first (the greedy `\s*`); `trim_start`'s whitespace is `\s`'s, Unicode White_Space.
    let run = &rest[..rest.len() - rest.trim_start().len()];
    run.rmatch_indices('\n').find_map(|(at, _)| {
        let start = 3 + at + 1;
        // The lazy group ends at the first `\r?\n---` after it.
        let newline = start + content[start..].find("\n---")?;
        let end = if newline > start && content.as_bytes()[newline - 1] == b'\r' {
            newline - 1
        } else {
            newline
        };
        let tail = &content[newline + 4..];
        Some((start..end, content.len() - tail.trim_start().len()))
    })
}

/// True when PyYAML's implicit resolvers would not make `text`, written plain, a string
/// (YAML 1.1 booleans, null, numbers, timestamps); our parser follows YAML 1.2.
fn yaml11_not_a_string(text: &str) -> bool {
    static RE: OnceLock<regex::Regex> = OnceLock::new();
    let re = RE.get_or_init(|| {
        regex::Regex::new(concat!(
            r"^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF",
            r"|~|null|Null|NULL",
            r"|[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+",
            r"|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+",
            r"|[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9_]+(?:[eE][-+][0-9]+)?",
            r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)",
            r"|[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]",
            r"|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?",
            r")$"
        ))
        .expect("PyYAML's resolver patterns are valid regexes")
    });
    re.is_match(text)
}

/// The frontmatter mapping as `parse_skill_metadata` returns it, or `None` (no match, YAML
/// error, not a mapping). Values stay nodes; `block` is the YAML text they point into.
fn metadata(content: &str) -> Option<(String, Vec<(String, Node)>)> {
    let (yaml, _) = frontmatter(content)?;
    let block = content[yaml].to_owned();
    let root = yaml::parse(&block, 0).ok()?;
    let Value::Map(pairs) = root.value else {
        return None;
    };
    let mut out: Vec<(String, Node)> = Vec::new();
    for (k, v) in pairs {
        let key = match &k.value {
            Value::Str(s) => s.clone(),
            Value::Bool(b) => if *b { "True" } else { "False" }.to_owned(),
            Value::Null => "None".to_owned(),
            _ => k.scalar_text(&block).unwrap_or("").to_owned(),
        };
        // PyYAML keeps the last of repeated keys.
        out.retain(|(existing, _)| existing != &key);
        out.push((key, v));
    }
    Some((block, out))
}

/// A plain scalar PyYAML would type differently from a string.
fn is_py_string(node: &Node, block: &str) -> bool {
    let Value::Str(s) = &node.value else {
        return false;
    };
    let written = block.get(node.span.start..node.span.end).unwrap_or("");
    let plain = !written.starts_with(['"', '\'', '|', '>']);
    !(plain && yaml11_not_a_string(s))
}

/// A block scalar that ends the YAML text: nanobot's pattern stops before the newline that
/// precedes the closing `---`, so PyYAML sees no line break after it and clips none, where
/// our parser adds one.
fn at_end(node: &Node, block: &str, value: &str) -> String {
    let start = node.span.start.min(block.len());
    // The header line (`description: |+`) is the line before the scalar's content.
    let before = block[..start].trim_end_matches([' ', '\t']);
    let header = before
        .strip_suffix('\n')
        .unwrap_or(before)
        .rsplit('\n')
        .next()
        .unwrap_or("");
    let keep = header.contains("|+") || header.contains(">+");
    let last = block[node.span.end.min(block.len())..].trim().is_empty();
    if value.ends_with('\n') && !keep && last && !block.ends_with('\n') {
        value[..value.len() - 1].to_owned()
    } else {
        value.to_owned()
    }
}

/// Python's truthiness of a YAML value, as PyYAML would type it.
fn truthy(node: &Node, block: &str) -> bool {
    match &node.value {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Int(i) => *i != 0,
        Value::Float(f) => *f != 0.0,
        Value::Str(s) if !is_py_string(node, block) => {
            matches!(
                s.as_str(),
                "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON"
            ) || s
                .trim_start_matches(['+', '-'])
                .chars()
                .any(|c| c.is_ascii_digit() && c != '0')
        }
        Value::Str(s) => !s.is_empty(),
        Value::Seq(items) => !items.is_empty(),
        Value::Map(pairs) => !pairs.is_empty(),
    }
}

/// `_parse_nanobot_metadata`: the `nanobot` (else `openclaw`) object of `metadata`, a mapping
/// or a JSON string; anything else is empty.
fn block_of(metadata: Option<&Node>) -> Option<serde_json::Value> {
    let data: serde_json::Value = match &metadata?.value {
        Value::Map(_) => node_json(metadata?),
        Value::Str(s) => serde_json::from_str(s).ok()?,
        _ => return None,
    };
    let object = data.as_object()?;
    let [first, second] = facts(Agent::Nanobot).metadata_blocks else {
        return None;
    };
    // `data.get("nanobot", data.get("openclaw", {}))`: a present `nanobot` key wins even when
    // it is not an object.
    let payload = object.get(*first).or_else(|| object.get(*second))?;
    payload.is_object().then(|| payload.clone())
}

fn node_json(node: &Node) -> serde_json::Value {
    use serde_json::Value as J;
    match &node.value {
        Value::Null => J::Null,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i as i64),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::Str(s) => J::String(s.clone()),
        Value::Seq(items) => J::Array(items.iter().map(node_json).collect()),
        Value::Map(pairs) => J::Object(
            pairs
                .iter()
                .map(|(k, v)| (k.as_str().unwrap_or_default().to_owned(), node_json(v)))
                .collect(),
        ),
    }
}

/// `_requirement_lists`: string, non-blank entries of list-valued `bins` and `env`.
fn requirements(payload: Option<&serde_json::Value>) -> Requirements {
    let mut req = Requirements::default();
    let Some(payload) = payload else {
        return req;
    };
    let list = |key: &str| -> Vec<Item> {
        let Some(requires) = payload.get("requires").filter(|r| !r.is_null()) else {
            return Vec::new();
        };
        let Some(values) = requires.as_object().and_then(|r| r.get(key)) else {
            return Vec::new();
        };
        values
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .filter_map(serde_json::Value::as_str)
                    .filter(|s| !py_strip(s).is_empty())
                    .map(|s| Item {
                        value: s.to_owned(),
                        span: Span::default(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    req.bins = list("bins");
    req.env = list("env");
    req.block = Some(
        if payload.get("nanobot").is_some() {
            "nanobot"
        } else {
            "openclaw"
        }
        .to_owned(),
    );
    req
}

fn json_truthy(value: Option<&serde_json::Value>) -> bool {
    match value {
        None | Some(serde_json::Value::Null) => false,
        Some(serde_json::Value::Bool(b)) => *b,
        Some(serde_json::Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(serde_json::Value::String(s)) => !s.is_empty(),
        Some(serde_json::Value::Array(a)) => !a.is_empty(),
        Some(serde_json::Value::Object(o)) => !o.is_empty(),
    }
}

/// `_strip_frontmatter`: the body after the frontmatter, stripped; the whole file when it does
/// not start with `---` or the pattern does not match.
pub fn body(content: &str) -> String {
    if !content.starts_with("---") {
        return content.to_owned();
    }
    match frontmatter(content) {
        Some((_, end)) => py_strip(&content[end..]).to_owned(),
        None => content.to_owned(),
    }
}

/// What nanobot reads of one `SKILL.md` text in folder `name`.
pub fn read(
    content: &str,
    name: &str,
    env: &dyn Environment,
) -> (String, Requirements, bool, bool) {
    let meta = metadata(content);
    let description = meta
        .as_ref()
        .and_then(|(block, pairs)| {
            let (_, node) = pairs.iter().find(|(k, _)| k == "description")?;
            let Value::Str(s) = &node.value else {
                return None;
            };
            (is_py_string(node, block) && !s.is_empty()).then(|| at_end(node, block, s))
        })
        .unwrap_or_else(|| name.to_owned());
    let payload = meta.as_ref().and_then(|(_, pairs)| {
        block_of(pairs.iter().find(|(k, _)| k == "metadata").map(|(_, v)| v))
    });
    let requirements = requirements(payload.as_ref());
    let available = gated(&requirements, facts(Agent::Nanobot).gates, env).is_available();
    let always = json_truthy(payload.as_ref().and_then(|p| p.get("always")))
        || meta.as_ref().is_some_and(|(block, pairs)| {
            pairs
                .iter()
                .find(|(k, _)| k == "always")
                .is_some_and(|(_, v)| truthy(v, block))
        });
    (description, requirements, available, always)
}

/// Loads `roots` as nanobot does: the first root is its workspace's `skills/`, later roots
/// come after it with names already seen skipped (as the built-in root is).
pub fn load(roots: Vec<Root>, env: &dyn Environment) -> AgentCatalog {
    let mut merge = NanobotMerge::default();
    for (index, root) in roots.iter().enumerate() {
        let Some(folders) = read_root(root, env) else {
            continue;
        };
        for ((name, dir), outcome) in folders {
            merge.add(index, name, dir, outcome, env);
        }
    }
    AgentCatalog {
        agent: Agent::Nanobot,
        roots,
        skills: merge.skills,
        dropped: merge.dropped,
        shadowed: merge.shadowed,
    }
}

/// Every entry of `root` in name order with what reading it gave; `None` when the root cannot
/// be listed.
fn read_root(root: &Root, env: &dyn Environment) -> Option<Vec<((String, PathBuf), Read)>> {
    let entries = std::fs::read_dir(&root.path).ok()?;
    let mut dirs: Vec<(String, std::path::PathBuf)> = entries
        .flatten()
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .collect();
    dirs.sort();
    // Telling folders from files, reading and parsing is the work, done for every entry
    // in parallel; who wins and what is dropped is then decided in folder order, as
    // nanobot does.
    let read_all: Vec<Read> = {
        use rayon::prelude::*;
        dirs.par_iter()
            .map(|(name, dir)| read_folder(name, dir, env))
            .collect()
    };
    Some(dirs.into_iter().zip(read_all).collect())
}

/// The catalog as the roots are read in order.
#[derive(Default)]
struct NanobotMerge {
    skills: Vec<AgentSkill>,
    dropped: Vec<Dropped>,
    shadowed: Vec<Shadowed>,
    /// Each name once: the first root's skill shadows the later ones.
    seen: std::collections::HashMap<String, usize>,
}

impl NanobotMerge {
    /// Decides what one folder of root `index` is: dropped, not a skill, shadowed, or loaded.
    fn add(
        &mut self,
        index: usize,
        name: String,
        dir: PathBuf,
        outcome: Read,
        env: &dyn Environment,
    ) {
        let file = dir.join(SKILL_MD);
        let loaded = match outcome {
            Read::Lowercase => {
                self.dropped.push(Dropped {
                    dir,
                    root: index,
                    reason: DropReason::LowercaseFile,
                });
                return;
            }
            Read::Nothing => return,
            Read::Loaded(loaded) => loaded,
        };
        if let Some(&winner) = self.seen.get(&name) {
            let winner: &AgentSkill = &self.skills[winner];
            self.shadowed.push(Shadowed {
                name: name.clone(),
                dir,
                root: index,
                by_root: winner.root,
                by_dir: winner.dir.clone(),
            });
            return;
        }
        let (body, description, requirements, always) = match *loaded {
            Ok(read) => read,
            Err(reason) => {
                self.dropped.push(Dropped {
                    dir,
                    root: index,
                    reason,
                });
                return;
            }
        };
        let availability = gated(&requirements, facts(Agent::Nanobot).gates, env);
        self.seen.insert(name.clone(), self.skills.len());
        self.skills.push(AgentSkill {
            declared_name: name.clone(),
            name: name.clone(),
            dir_name: name,
            file: super::openclaw::resolve(&file),
            dir,
            root: index,
            description,
            requirements,
            availability,
            always,
            hidden: None,
            body,
        });
    }
}

/// What reading one folder of a root gave, before nanobot's order decides what it means.
enum Read {
    /// Only a lower-case `skill.md`: dropped.
    Lowercase,
    /// No manifest at all: not a skill.
    Nothing,
    /// The body, description, requirements and `always`, or why it could not be read.
    Loaded(Box<Result<(String, String, Requirements, bool), DropReason>>),
}

fn read_folder(name: &str, dir: &std::path::Path, env: &dyn Environment) -> Read {
    if !dir.is_dir() {
        return Read::Nothing;
    }
    let file = dir.join(SKILL_MD);
    if !file.exists() {
        return if dir.join("skill.md").is_file() && !has_exact(dir) {
            Read::Lowercase
        } else {
            Read::Nothing
        };
    }
    // read_text: universal newlines; a file that is not UTF-8 raises, which would stop
    // nanobot's whole summary, so we report it and leave the skill out.
    Read::Loaded(Box::new(
        match std::fs::read(&file).map(String::from_utf8) {
            Ok(Ok(text)) => {
                let content = if text.contains('\r') {
                    text.replace("\r\n", "\n").replace('\r', "\n")
                } else {
                    text
                };
                let (description, requirements, _, always) = read(&content, name, env);
                Ok((body(&content), description, requirements, always))
            }
            Ok(Err(_)) => Err(DropReason::Unreadable {
                detail: "not UTF-8 (nanobot raises UnicodeDecodeError)".to_owned(),
            }),
            Err(e) => Err(DropReason::Unreadable {
                detail: e.to_string(),
            }),
        },
    ))
}

/// True when the folder lists a file named exactly `SKILL.md` (on a case-insensitive file
/// system `skill.md` also "exists" as `SKILL.md`).
fn has_exact(dir: &Path) -> bool {
    std::fs::read_dir(dir)
        .map(|entries| entries.flatten().any(|e| e.file_name() == SKILL_MD))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::environment::FakeEnvironment;

    #[test]
    fn frontmatter_matches_as_the_skills_py_pattern_does() {
        let re = regex::Regex::new(r"(?s)\A---\s*\r?\n(.*?)\r?\n---\s*\r?\n?").unwrap();
        let pieces = [
            "---", "-", "\n", "\r", "\r\n", " ", "\t", "a: 1", "\u{2003}", "\u{1c}", "é",
        ];
        // Every text of up to 5 pieces after an opening `---`, and a pseudo-random sample of
        // longer ones.
        let mut texts: Vec<String> = vec![String::new()];
        let mut all = Vec::new();
        for _ in 0..5 {
            texts = texts
                .iter()
                .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
                .collect();
            all.extend(texts.iter().map(|t| format!("---{t}")));
        }
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..100_000 {
            let mut text = String::from("---");
            for _ in 0..12 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                text.push_str(pieces[(seed % pieces.len() as u64) as usize]);
            }
            all.push(text);
        }
        for text in &all {
            let expected = re
                .captures(text)
                .map(|c| (c.get(1).unwrap().range(), c.get(0).unwrap().end()));
            assert_eq!(frontmatter(text), expected, "{text:?}");
        }
    }

    #[test]
    fn block_scalar_keeps_its_newline_and_yaml11_types_fall_back() {
        let env = FakeEnvironment::default();
        let (d, ..) = read(
            "---\ndescription: |\n  Two\n  lines\nname: x\n---\n",
            "x",
            &env,
        );
        assert_eq!(d, "Two\nlines\n");
        // Last in the frontmatter, PyYAML sees the block end at the closing line: no newline.
        let (d, ..) = read("---\ndescription: |\n  Two\n  lines\n---\n", "x", &env);
        assert_eq!(d, "Two\nlines");
        let (d, ..) = read("---\ndescription: yes\n---\n", "x", &env);
        assert_eq!(d, "x");
        let (d, ..) = read("---\ndescription: \"yes\"\n---\n", "x", &env);
        assert_eq!(d, "yes");
        let (d, ..) = read("---\ndescription: a: b\n---\n", "x", &env);
        assert_eq!(d, "x", "broken YAML reads as no frontmatter");
    }

    #[test]
    fn nanobot_block_hides_openclaw_and_os_is_ignored() {
        let env = FakeEnvironment::default();
        let (_, r, available, _) = read(
            "---\ndescription: d\nmetadata: {\"nanobot\": {}, \"openclaw\": {\"requires\": {\"bins\": [\"gh\"]}, \"os\": [\"darwin\"]}}\n---\n",
            "x",
            &env,
        );
        assert!(r.bins.is_empty() && available);
        let (_, r, available, always) = read(
            "---\ndescription: d\nalways: \"false\"\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"gh\"]}, \"os\": [\"darwin\"]}}\n---\n",
            "x",
            &env,
        );
        assert_eq!(r.bins.len(), 1);
        assert!(
            !available && always,
            "a quoted \"false\" is truthy in Python"
        );
    }
}
