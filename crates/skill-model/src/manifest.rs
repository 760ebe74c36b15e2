//! The manifest: the frontmatter mapping as a list of entries in source order, each with the
//! span of its key and its value node.

use super::span::Span;
use super::yaml::{Node, Value};

/// One `key: value` entry of the frontmatter.
#[derive(Debug, Clone, PartialEq)]
pub struct FrontmatterField {
    /// The key as written (non-string keys as their source text).
    pub key: String,
    /// Where the key is.
    pub key_span: Span,
    /// The value node.
    pub value: Node,
}

/// The typed frontmatter: every top-level entry in source order, duplicates included.
#[derive(Debug, Clone, PartialEq)]
pub struct Manifest {
    /// The whole frontmatter mapping.
    pub root: Node,
    /// Top-level entries in source order.
    pub entries: Vec<FrontmatterField>,
}

impl Manifest {
    /// Builds the manifest from a parsed mapping; `None` when `root` is not a mapping.
    pub(crate) fn from_node(root: Node, source: &str) -> Option<Manifest> {
        let Value::Map(pairs) = &root.value else {
            return None;
        };
        let entries = pairs
            .iter()
            .map(|(k, v)| FrontmatterField {
                key: k.scalar_text(source).unwrap_or("").to_owned(),
                key_span: k.span,
                value: v.clone(),
            })
            .collect();
        Some(Manifest { root, entries })
    }

    /// The entry for `key`; the last one when the key repeats (as PyYAML-based agents read it).
    pub fn get(&self, key: &str) -> Option<&FrontmatterField> {
        self.entries.iter().rev().find(|e| e.key == key)
    }

    /// The value node for `key`.
    pub fn value(&self, key: &str) -> Option<&Node> {
        self.get(key).map(|e| &e.value)
    }

    /// Pairs of (first entry, later entry) for every key written more than once.
    pub fn duplicates(&self) -> Vec<(&FrontmatterField, &FrontmatterField)> {
        let mut seen: std::collections::HashMap<&str, &FrontmatterField> =
            std::collections::HashMap::new();
        let mut out = Vec::new();
        for entry in &self.entries {
            match seen.get(entry.key.as_str()) {
                Some(first) => out.push((*first, entry)),
                None => {
                    seen.insert(&entry.key, entry);
                }
            }
        }
        out
    }
}
