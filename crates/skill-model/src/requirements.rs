//! Requirements a skill declares for agents to gate it: binaries, env vars, config paths and
//! operating systems, read from `metadata.openclaw` (or its older names) or `metadata.nanobot`.

use super::manifest::Manifest;
use super::span::Span;
use super::yaml::{Node, Value};

/// The names of the requirements block under `metadata`, in the order they are looked up:
/// OpenClaw's current name, its older names, then nanobot's.
pub const BLOCK_NAMES: [&str; 5] = ["openclaw", "clawdbot", "moltbot", "clawdis", "nanobot"];

/// The keys of a requirements block that are read (`metadata.openclaw.KEY`).
pub const BLOCK_KEYS: [&str; 5] = ["requires", "os", "always", "primaryEnv", "install"];

/// The keys of its `requires` mapping that are read.
pub const REQUIRES_KEYS: [&str; 4] = ["bins", "anyBins", "env", "config"];

/// A string the skill declared, with where it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// The declared value.
    pub value: String,
    /// Where it is in `SKILL.md` (the whole `metadata` value when it is a JSON string).
    pub span: Span,
}

/// What a skill needs to be available.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Requirements {
    /// The `metadata` key the block was read from (`openclaw`, `clawdbot`, ..., `nanobot`).
    pub block: Option<String>,
    /// The block node itself.
    pub block_node: Option<Node>,
    /// `requires.bins`: every one must be on PATH.
    pub bins: Vec<Item>,
    /// `requires.anyBins`: at least one must be on PATH.
    pub any_bins: Vec<Item>,
    /// `requires.env`: each must be set and non-empty.
    pub env: Vec<Item>,
    /// `requires.config`: OpenClaw config paths that must be truthy.
    pub config: Vec<Item>,
    /// `os`: the platforms the skill runs on (`darwin`, `linux`, `win32`); empty means any.
    pub os: Vec<Item>,
    /// `always`: inject the skill whole into every prompt (top level or in the block).
    pub always: bool,
    /// `primaryEnv`: the env var OpenClaw fills from the skill's API key.
    pub primary_env: Option<Item>,
    /// `install[]`: installer specs, kept as written.
    pub install: Vec<Node>,
}

impl Requirements {
    /// Reads the requirements of `manifest`; `source` is the text of `SKILL.md`.
    pub fn from_manifest(manifest: &Manifest, source: &str) -> Requirements {
        Requirements::from_blocks(manifest, source, &BLOCK_NAMES)
    }

    /// Reads the requirements from the first of `names` present under `metadata`.
    pub fn from_blocks(manifest: &Manifest, source: &str, names: &[&str]) -> Requirements {
        let mut req = Requirements {
            always: manifest.value("always").is_some_and(is_truthy),
            ..Requirements::default()
        };
        let Some(metadata) = manifest.value("metadata").and_then(metadata_node) else {
            return req;
        };
        let Some((name, block)) = names
            .iter()
            .find_map(|name| metadata.get(name).map(|b| (*name, b.clone())))
        else {
            return req;
        };
        let requires = block.get("requires");
        let list = |key: &str| {
            requires
                .and_then(|r| r.get(key))
                .map(|n| items(n, source))
                .unwrap_or_default()
        };
        req.bins = list("bins");
        req.any_bins = list("anyBins");
        req.env = list("env");
        req.config = list("config");
        req.os = block
            .get("os")
            .map(|n| items(n, source))
            .unwrap_or_default();
        req.always |= block.get("always").is_some_and(is_truthy);
        req.primary_env = block.get("primaryEnv").and_then(|n| item(n, source));
        req.install = block
            .get("install")
            .and_then(Node::as_seq)
            .map(<[Node]>::to_vec)
            .unwrap_or_default();
        req.block = Some(name.to_owned());
        req.block_node = Some(block);
        req
    }

    /// True when the skill declares nothing that could gate it.
    pub fn is_empty(&self) -> bool {
        self.bins.is_empty()
            && self.any_bins.is_empty()
            && self.env.is_empty()
            && self.config.is_empty()
            && self.os.is_empty()
    }
}

/// `metadata` as a mapping: written as YAML, or as a JSON string (the one-line form nanobot
/// v0.1 and OpenClaw's docs recommend).
pub fn metadata_node(metadata: &Node) -> Option<Node> {
    match &metadata.value {
        Value::Map(_) => Some(metadata.clone()),
        Value::Str(s) if s.trim_start().starts_with('{') => serde_json::from_str(s)
            .ok()
            .map(|json| Node::from_json(&json, metadata.span)),
        _ => None,
    }
}

/// A list of strings: a YAML list, or one comma-separated string (OpenClaw accepts both).
fn items(node: &Node, source: &str) -> Vec<Item> {
    match &node.value {
        Value::Seq(list) => list.iter().filter_map(|n| item(n, source)).collect(),
        Value::Str(s) => s
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| Item {
                value: s.to_owned(),
                span: node.span,
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn item(node: &Node, source: &str) -> Option<Item> {
    let value = node.scalar_text(source)?.trim();
    (!value.is_empty() && !matches!(node.value, Value::Null)).then(|| Item {
        value: value.to_owned(),
        span: node.span,
    })
}

/// Lenient truthiness as agents apply it: `true`, or the strings `"true"`, `"yes"`, `"1"`.
fn is_truthy(node: &Node) -> bool {
    match &node.value {
        Value::Bool(b) => *b,
        Value::Str(s) => matches!(s.trim().to_ascii_lowercase().as_str(), "true" | "yes" | "1"),
        Value::Int(i) => *i != 0,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Document, Source};

    fn requirements(text: &str) -> Requirements {
        let doc = Document::parse(Source::new(text.to_owned()));
        Requirements::from_manifest(doc.manifest().as_ref().unwrap(), &doc.source.text)
    }

    #[test]
    fn reads_a_yaml_openclaw_block() {
        let r = requirements(
            "---\nname: a\nmetadata:\n  openclaw:\n    requires:\n      bins: [gh, jq]\n      env:\n        - GITHUB_TOKEN\n    os: [linux]\n---\n",
        );
        assert_eq!(r.block.as_deref(), Some("openclaw"));
        let bins: Vec<_> = r.bins.iter().map(|i| i.value.as_str()).collect();
        assert_eq!(bins, ["gh", "jq"]);
        assert_eq!(r.env[0].value, "GITHUB_TOKEN");
        assert_eq!(r.os[0].value, "linux");
    }

    #[test]
    fn every_listed_key_is_read() {
        let r = requirements(
            "---\nname: a\nmetadata:\n  openclaw:\n    requires:\n      bins: [b]\n      anyBins: [a]\n      env: [E]\n      config: [c]\n    os: [linux]\n    always: true\n    primaryEnv: E\n    install:\n      - kind: brew\n---\n",
        );
        let read = [
            ("bins", !r.bins.is_empty()),
            ("anyBins", !r.any_bins.is_empty()),
            ("env", !r.env.is_empty()),
            ("config", !r.config.is_empty()),
        ];
        assert_eq!(read.map(|(k, _)| k), REQUIRES_KEYS);
        assert!(read.iter().all(|(_, found)| *found), "{read:?}");
        let read = [
            ("requires", !r.bins.is_empty()),
            ("os", !r.os.is_empty()),
            ("always", r.always),
            ("primaryEnv", r.primary_env.is_some()),
            ("install", !r.install.is_empty()),
        ];
        assert_eq!(read.map(|(k, _)| k), BLOCK_KEYS);
        assert!(read.iter().all(|(_, found)| *found), "{read:?}");
    }

    #[test]
    fn reads_a_json_string_nanobot_block() {
        let r = requirements(
            "---\nname: a\nmetadata: '{\"nanobot\":{\"always\":true,\"requires\":{\"bins\":[\"tmux\"]}}}'\n---\n",
        );
        assert_eq!(r.block.as_deref(), Some("nanobot"));
        assert!(r.always);
        assert_eq!(r.bins[0].value, "tmux");
    }

    #[test]
    fn older_names_and_csv_bins() {
        let r = requirements(
            "---\nmetadata: {\"clawdbot\":{\"requires\":{\"bins\":\"git, curl\",\"anyBins\":[\"rg\",\"grep\"]}}}\n---\n",
        );
        assert_eq!(r.block.as_deref(), Some("clawdbot"));
        assert_eq!(r.bins.len(), 2);
        assert_eq!(r.any_bins.len(), 2);
    }

    #[test]
    fn openclaw_wins_over_nanobot() {
        let r = requirements(
            "---\nmetadata: {\"nanobot\":{\"requires\":{\"bins\":[\"a\"]}},\"openclaw\":{\"requires\":{\"bins\":[\"b\"]}}}\n---\n",
        );
        assert_eq!(r.bins[0].value, "b");
    }
}
