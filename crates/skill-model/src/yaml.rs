//! YAML nodes with spans. The frontmatter is parsed with serde-saphyr into a small tree that
//! keeps every mapping entry in source order (duplicates included) and the byte span of every
//! node in `SKILL.md`, so rules can point at keys and values and fixes can edit them in place.

use super::span::Span;
use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::{Budget, DuplicateKeyPolicy, Options, Spanned};
use std::fmt;

/// Deepest nesting accepted in a frontmatter; real ones stay under 8 levels.
const MAX_DEPTH: usize = 24;
/// Most nodes accepted (also bounds alias expansion, the billion-laughs attack).
const MAX_NODES: usize = 250_000;

/// A YAML node and where it is in `SKILL.md`.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// The node's value.
    pub value: Value,
    /// The bytes of the node in `SKILL.md` (for block scalars, their content lines).
    pub span: Span,
    /// True when the node came from an alias (`*name`).
    pub alias: bool,
}

/// The value of a YAML node (YAML 1.2 core schema: `yes`/`no` stay strings).
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// `null`, `~` or nothing.
    Null,
    /// `true` / `false`.
    Bool(bool),
    /// An integer.
    Int(i128),
    /// A float.
    Float(f64),
    /// A string, quoted or plain or block.
    Str(String),
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping, entries in source order, duplicate keys kept.
    Map(Vec<(Node, Node)>),
}

/// A YAML syntax error with the parser's own position inside the YAML text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct YamlError {
    /// The parser's message, without position.
    pub message: String,
    /// 1-based line within the YAML text, if the parser gave one.
    pub line: Option<usize>,
    /// 1-based column within that line.
    pub column: Option<usize>,
}

/// Parses `yaml`, which starts at byte `base` of `SKILL.md`, into a spanned node.
pub fn parse(yaml: &str, base: usize) -> Result<Node, YamlError> {
    let raw: Spanned<RawNode> =
        serde_saphyr::from_str_with_options(yaml, options()).map_err(|e| yaml_error(&e))?;
    Ok(convert(raw, base, yaml.len()))
}

fn options() -> Options {
    let mut budget = Budget::default();
    budget.max_depth = MAX_DEPTH;
    budget.flow_nesting_limit = MAX_DEPTH;
    budget.max_nodes = MAX_NODES;
    let mut options = Options::default();
    options.budget = Some(budget);
    // Duplicates reach our visitor so lint can point at both keys instead of failing the parse.
    options.duplicate_keys = DuplicateKeyPolicy::PassThrough;
    options.strict_booleans = true;
    options.with_snippet = false;
    options
}

fn yaml_error(error: &serde_saphyr::Error) -> YamlError {
    let location = error.location();
    let mut message = error.to_string();
    // The parser appends its own position; we report a SKILL.md position instead.
    if let Some(cut) = message.find(" at line ") {
        message.truncate(cut);
    }
    YamlError {
        message: explain_limit(message),
        line: location.map(|l| l.line() as usize).filter(|l| *l > 0),
        column: location.map(|l| l.column() as usize).filter(|c| *c > 0),
    }
}

/// `value` as a YAML double-quoted scalar (JSON string escaping is valid YAML).
pub fn quote_yaml(value: &str) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| format!("\"{value}\""))
}

/// `value` as a plain YAML scalar when that is safe, else double-quoted.
pub fn plain_or_quoted(value: &str) -> String {
    let risky = value.is_empty()
        || value.contains(": ")
        || value.contains(" #")
        || value.ends_with(':')
        || value.starts_with([
            '"', '\'', '[', '{', '&', '*', '!', '|', '>', '%', '@', '`', '-', '?', '#', ',', ' ',
        ])
        || value.ends_with(' ')
        || matches!(value, "true" | "false" | "null" | "~" | "yes" | "no")
        || value.parse::<f64>().is_ok();
    if risky {
        quote_yaml(value)
    } else {
        value.to_owned()
    }
}

/// Rewrites the parser's safety-limit messages into words a skill author can act on.
fn explain_limit(message: String) -> String {
    if message.starts_with("recursion limit exceeded") || message.contains("Depth {") {
        format!("nesting is deeper than {MAX_DEPTH} levels")
    } else if message.contains("Nodes {") || message.contains("Alias") {
        format!(
            "more than {MAX_NODES} nodes after expanding aliases (a YAML bomb?); budget breached"
        )
    } else {
        message
    }
}

impl Node {
    /// The string of a scalar as strictyaml (and skills-ref) reads it: strings as parsed,
    /// other scalars as written (`1.0` stays `"1.0"`, an empty value is `""`). `None` for
    /// sequences and mappings.
    pub fn scalar_text<'a>(&'a self, source: &'a str) -> Option<&'a str> {
        match &self.value {
            Value::Str(s) => Some(s),
            Value::Seq(_) | Value::Map(_) => None,
            _ => Some(source.get(self.span.range()).unwrap_or("").trim()),
        }
    }

    /// The string, if this node is a YAML string.
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The entries, if this node is a mapping.
    pub fn as_map(&self) -> Option<&[(Node, Node)]> {
        match &self.value {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// The items, if this node is a sequence.
    pub fn as_seq(&self) -> Option<&[Node]> {
        match &self.value {
            Value::Seq(items) => Some(items),
            _ => None,
        }
    }

    /// The value under `key` in a mapping (the last one when the key repeats).
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.as_map()?
            .iter()
            .rev()
            .find(|(k, _)| k.as_str() == Some(key))
            .map(|(_, v)| v)
    }

    /// True when the node is written in flow style (`{...}` or `[...]`).
    pub fn is_flow(&self, source: &str) -> bool {
        matches!(self.value, Value::Seq(_) | Value::Map(_))
            && matches!(source.as_bytes().get(self.span.start), Some(b'{' | b'['))
    }

    /// Where the node's text ends. Serde-saphyr spans cover only a collection's first token, so
    /// for a flow collection this is after its closing bracket, for a block one after its last
    /// item (a closing quote included).
    pub fn end(&self, source: &str) -> usize {
        if self.is_flow(source) {
            // After the last item's own end (a nested collection closes there), the next
            // closing bracket is this collection's.
            let last = match &self.value {
                Value::Seq(items) => items.last(),
                Value::Map(entries) => entries.last().map(|(_, v)| v),
                _ => None,
            };
            let from = last.map_or(self.span.end, |n| n.end(source).max(self.span.end));
            let close = if self.as_map().is_some() { '}' } else { ']' };
            let rest = source.get(from..).unwrap_or("");
            return rest.find(close).map_or(from, |i| from + i + 1);
        }
        let mut end = self.span.end;
        self.walk(&mut |n| end = end.max(n.end_of_token(source)));
        end
    }

    /// Where this node's own token ends: a nested flow collection's closing bracket, or a
    /// scalar's closing quote.
    fn end_of_token(&self, source: &str) -> usize {
        if self.is_flow(source) {
            return self.end(source);
        }
        let rest = source.get(self.span.end..).unwrap_or("");
        let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'');
        self.span.end + quote.map_or(0, char::len_utf8)
    }

    /// A short name of the node's type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Int(_) => "an integer",
            Value::Float(_) => "a number",
            Value::Str(_) => "a string",
            Value::Seq(_) => "a list",
            Value::Map(_) => "a mapping",
        }
    }

    /// Builds a node from JSON (the JSON-string form of `metadata`); every node gets `span`.
    pub(crate) fn from_json(value: &serde_json::Value, span: Span) -> Node {
        use serde_json::Value as J;
        let value = match value {
            J::Null => Value::Null,
            J::Bool(b) => Value::Bool(*b),
            J::Number(n) => match n.as_i64() {
                Some(i) => Value::Int(i.into()),
                None => Value::Float(n.as_f64().unwrap_or(f64::NAN)),
            },
            J::String(s) => Value::Str(s.clone()),
            J::Array(items) => Value::Seq(items.iter().map(|v| Node::from_json(v, span)).collect()),
            J::Object(map) => Value::Map(
                map.iter()
                    .map(|(k, v)| {
                        let key = Node {
                            value: Value::Str(k.clone()),
                            span,
                            alias: false,
                        };
                        (key, Node::from_json(v, span))
                    })
                    .collect(),
            ),
        };
        Node {
            value,
            span,
            alias: false,
        }
    }

    /// Calls `f` on this node and every node below it.
    pub fn walk<'a>(&'a self, f: &mut impl FnMut(&'a Node)) {
        f(self);
        match &self.value {
            Value::Seq(items) => items.iter().for_each(|n| n.walk(f)),
            Value::Map(entries) => entries.iter().for_each(|(k, v)| {
                k.walk(f);
                v.walk(f);
            }),
            _ => {}
        }
    }
}

/// The tree as serde-saphyr hands it over, before spans are rebased onto `SKILL.md`.
enum RawNode {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(String),
    Seq(Vec<Spanned<RawNode>>),
    Map(Vec<(Spanned<RawNode>, Spanned<RawNode>)>),
}

fn convert(raw: Spanned<RawNode>, base: usize, len: usize) -> Node {
    let span = rebase(&raw.referenced, base, len);
    let alias = raw.referenced != raw.defined;
    let value = match raw.value {
        RawNode::Null => Value::Null,
        RawNode::Bool(b) => Value::Bool(b),
        RawNode::Int(i) => Value::Int(i),
        RawNode::Float(f) => Value::Float(f),
        RawNode::Str(s) => Value::Str(s),
        RawNode::Seq(items) => {
            Value::Seq(items.into_iter().map(|n| convert(n, base, len)).collect())
        }
        RawNode::Map(entries) => Value::Map(
            entries
                .into_iter()
                .map(|(k, v)| (convert(k, base, len), convert(v, base, len)))
                .collect(),
        ),
    };
    Node { value, span, alias }
}

fn rebase(location: &serde_saphyr::Location, base: usize, len: usize) -> Span {
    let span = location.span();
    let start = (span.byte_offset().unwrap_or(0) as usize).min(len);
    let end = (start + span.byte_len().unwrap_or(0) as usize).min(len);
    Span::new(base + start, base + end)
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = RawNode;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML node")
    }
    fn visit_unit<E>(self) -> Result<RawNode, E> {
        Ok(RawNode::Null)
    }
    fn visit_none<E>(self) -> Result<RawNode, E> {
        Ok(RawNode::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<RawNode, E> {
        Ok(RawNode::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<RawNode, E> {
        Ok(RawNode::Int(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<RawNode, E> {
        Ok(RawNode::Int(v.into()))
    }
    fn visit_i128<E>(self, v: i128) -> Result<RawNode, E> {
        Ok(RawNode::Int(v))
    }
    fn visit_u128<E>(self, v: u128) -> Result<RawNode, E> {
        Ok(RawNode::Int(i128::try_from(v).unwrap_or(i128::MAX)))
    }
    fn visit_f64<E>(self, v: f64) -> Result<RawNode, E> {
        Ok(RawNode::Float(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<RawNode, E> {
        Ok(RawNode::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<RawNode, E> {
        Ok(RawNode::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<RawNode, E> {
        Ok(RawNode::Str(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawNode, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<Spanned<RawNode>>()? {
            items.push(item);
        }
        Ok(RawNode::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawNode, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key::<Spanned<RawNode>>()? {
            let value = map.next_value::<Spanned<RawNode>>()?;
            entries.push((key, value));
        }
        Ok(RawNode::Map(entries))
    }
}

impl<'de> Deserialize<'de> for RawNode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<RawNode, D::Error> {
        deserializer.deserialize_any(RawVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_order_duplicates_and_spans() {
        let yaml = "name: x\ndescription: 'hé'\nname: y\n";
        let node = parse(yaml, 4).unwrap();
        let map = node.as_map().unwrap();
        assert_eq!(map.len(), 3);
        assert_eq!(map[1].1.span, Span::new(4 + 21, 4 + 26));
        assert_eq!(node.get("name").unwrap().as_str(), Some("y"));
    }

    #[test]
    fn scalars_read_as_written() {
        let yaml = "v: 1.0\ne:\nn: null\nb: yes\n";
        let node = parse(yaml, 0).unwrap();
        assert_eq!(node.get("v").unwrap().scalar_text(yaml), Some("1.0"));
        assert_eq!(node.get("e").unwrap().scalar_text(yaml), Some(""));
        assert_eq!(node.get("n").unwrap().scalar_text(yaml), Some("null"));
        assert_eq!(node.get("b").unwrap().as_str(), Some("yes"));
    }

    #[test]
    fn flow_and_alias() {
        let yaml = "m: {\"a\": [1]}\nx: &a foo\ny: *a\n";
        let node = parse(yaml, 0).unwrap();
        assert!(node.get("m").unwrap().is_flow(yaml));
        assert!(node.get("y").unwrap().alias);
        assert!(!node.get("x").unwrap().alias);
    }

    #[test]
    fn a_flow_collection_ends_at_its_own_bracket() {
        let yaml = "metadata: {\"author\": {\"x\": [1, \"]\"]}, \"k\": 'v'}\nnext: 1\n";
        let node = parse(yaml, 0).unwrap();
        let metadata = node.get("metadata").unwrap();
        assert_eq!(metadata.end(yaml), yaml.find("\nnext").unwrap());
        let author = metadata.get("author").unwrap();
        assert_eq!(
            &yaml[..author.end(yaml)],
            "metadata: {\"author\": {\"x\": [1, \"]\"]}"
        );
    }

    #[test]
    fn errors_carry_positions() {
        let err = parse("a: b\ndescription: Use when: x\n", 0).unwrap_err();
        assert_eq!((err.line, err.column), (Some(2), Some(22)));
        assert!(!err.message.contains("at line"));
    }

    #[test]
    fn bombs_are_bounded() {
        let deep = format!("a: {}{}\n", "[".repeat(500), "]".repeat(500));
        assert!(parse(&deep, 0).is_err());
        let mut laughs = String::from("a: &a [x,x,x,x,x,x,x,x,x]\n");
        for (prev, name) in ["a", "b", "c", "d", "e", "f", "g", "h"]
            .windows(2)
            .map(|w| (w[0], w[1]))
        {
            laughs.push_str(&format!(
                "{name}: &{name} [{}]\n",
                vec![format!("*{prev}"); 9].join(",")
            ));
        }
        assert!(parse(&laughs, 0).is_err());
    }
}
