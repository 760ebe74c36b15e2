//! An agent's own files beside `SKILL.md`: Codex's `agents/openai.yaml` (its `interface`,
//! `dependencies` and `policy`, as the `skill-creator` system skill Codex 0.169.1 ships
//! describes them), and whether it agrees with the frontmatter on who may invoke the skill.

use super::Context;
use crate::diagnostic::{Diagnostic, Edit, Fix, Location};
use crate::rulebook::{INVOCATION_MISMATCH, OPENAI_YAML};
use crate::yaml_edit::key_indent;
use skill_model::Span;
use skill_model::yaml::{self, Node, Value};

/// Where Codex reads a skill's own settings.
pub(crate) const OPENAI_YAML_PATH: &str = "agents/openai.yaml";

/// The keys each part of `agents/openai.yaml` takes.
const TOP_KEYS: [&str; 3] = ["interface", "dependencies", "policy"];
const INTERFACE_KEYS: [&str; 6] = [
    "display_name",
    "short_description",
    "icon_small",
    "icon_large",
    "brand_color",
    "default_prompt",
];

/// The length `interface.short_description` is written to (characters).
const SHORT_DESCRIPTION: std::ops::RangeInclusive<usize> = 25..=64;

/// The file, parsed; `Err` with what is wrong. A link is not followed (`symlink` reports it):
/// a skill's file must not make lint read what lies outside it.
fn openai_yaml(cx: &Context) -> Option<Result<Node, String>> {
    let path = cx.skill.dir.join(OPENAI_YAML_PATH);
    if !std::fs::symlink_metadata(&path).ok()?.is_file() {
        return None;
    }
    let bytes = match std::fs::read(&path) {
        Ok(bytes) => bytes,
        Err(e) => return Some(Err(format!("it cannot be read: {e}"))),
    };
    let Ok(text) = String::from_utf8(bytes) else {
        return Some(Err("it is not UTF-8 text".to_owned()));
    };
    Some(yaml::parse(&text, 0).map_err(|e| format!("it is not YAML Codex can read: {}", e.message)))
}

fn at_file(cx: &Context, mut d: Diagnostic) -> Diagnostic {
    d.file = cx.skill.dir.join(OPENAI_YAML_PATH);
    d
}

/// What is wrong with one `interface` value, if anything.
fn interface_problem(key: &str, value: &Node, cx: &Context) -> Option<String> {
    if !INTERFACE_KEYS.contains(&key) {
        return Some(format!("interface.{key} is not a field Codex reads"));
    }
    let Some(text) = value.as_str() else {
        return Some(format!(
            "interface.{key} is a {}, not a string",
            value.type_name()
        ));
    };
    match key {
        "short_description" if !SHORT_DESCRIPTION.contains(&text.chars().count()) => Some(format!(
            "interface.short_description has {} characters; Codex's lists show 25 to 64",
            text.chars().count()
        )),
        "brand_color"
            if !(text.len() == 7
                && text.starts_with('#')
                && text[1..].chars().all(|c| c.is_ascii_hexdigit())) =>
        {
            Some(format!(
                "interface.brand_color '{text}' is not a #RRGGBB colour"
            ))
        }
        "icon_small" | "icon_large" if !cx.skill.dir.join(text).is_file() => Some(format!(
            "interface.{key} names '{text}', which is not a file of the skill"
        )),
        "default_prompt" if !text.contains(&format!("${}", cx.skill.dir_name)) => Some(format!(
            "interface.default_prompt does not name the skill as ${}",
            cx.skill.dir_name
        )),
        _ => None,
    }
}

/// What is wrong with `dependencies.tools`, item by item.
fn tool_problems(tools: &Node) -> Vec<String> {
    let Some(items) = tools.as_seq() else {
        return vec!["dependencies.tools is not a list".to_owned()];
    };
    let mut out = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item.get("type").and_then(Node::as_str) {
            Some("mcp") => {}
            Some(other) => out.push(format!(
                "dependencies.tools[{i}].type is '{other}'; Codex supports only 'mcp'"
            )),
            None => out.push(format!("dependencies.tools[{i}] has no type")),
        }
        if item
            .get("value")
            .and_then(Node::as_str)
            .is_none_or(str::is_empty)
        {
            out.push(format!(
                "dependencies.tools[{i}] has no value naming the tool"
            ));
        }
    }
    out
}

/// Every problem of a parsed `agents/openai.yaml`.
fn problems(root: &Node, cx: &Context) -> Vec<String> {
    let Some(entries) = root.as_map() else {
        return vec!["it is not a mapping".to_owned()];
    };
    let mut out = Vec::new();
    for (k, v) in entries {
        let key = k.as_str().unwrap_or_default();
        match key {
            "interface" => match v.as_map() {
                Some(fields) => out.extend(fields.iter().filter_map(|(fk, fv)| {
                    interface_problem(fk.as_str().unwrap_or_default(), fv, cx)
                })),
                None => out.push("interface is not a mapping".to_owned()),
            },
            "dependencies" => {
                if let Some(tools) = v.get("tools") {
                    out.extend(tool_problems(tools));
                }
            }
            "policy" => {
                if let Some(allow) = v.get("allow_implicit_invocation")
                    && !matches!(allow.value, Value::Bool(_))
                {
                    out.push("policy.allow_implicit_invocation is not true or false".to_owned());
                }
            }
            _ if !TOP_KEYS.contains(&key) => {
                out.push(format!(
                    "'{key}' is not a part Codex reads (interface, dependencies, policy)"
                ));
            }
            _ => {}
        }
    }
    out
}

/// `openai-yaml`: Codex's file for the skill holds what Codex reads.
pub(crate) fn check_openai_yaml(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(parsed) = openai_yaml(cx) else {
        return;
    };
    let found = match parsed {
        Ok(root) => problems(&root, cx),
        Err(problem) => vec![problem],
    };
    for problem in found {
        let d = cx.diagnostic(
            &OPENAI_YAML,
            format!("{OPENAI_YAML_PATH}: {problem}"),
            Location::Folder,
        );
        out.push(at_file(cx, d));
    }
}

/// Whether the frontmatter keeps the skill from the model (`disable-model-invocation: true`).
fn frontmatter_hides(cx: &Context) -> bool {
    cx.manifest()
        .and_then(|m| m.value("disable-model-invocation"))
        .is_some_and(|v| {
            matches!(v.value, Value::Bool(true)) || v.as_str().is_some_and(|s| s.trim() == "true")
        })
}

/// The fix that writes `disable-model-invocation: true` into a block frontmatter.
fn hide_fix(cx: &Context) -> Option<Fix> {
    let doc = cx.document()?;
    let manifest = cx.manifest()?;
    let close = doc.frontmatter?.close;
    if manifest.root.is_flow(&doc.source.text) {
        return None;
    }
    let indent = manifest
        .root
        .as_map()
        .and_then(|entries| entries.first())
        .map_or(0, |(first, _)| key_indent(&doc.source, first));
    let nl = if doc.source.text.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    };
    Some(Fix {
        adds_key: Some("disable-model-invocation".into()),
        unsafe_because: Some(
            "Claude Code and OpenClaw stop offering the skill to the model; it stays invocable by name"
                .to_owned(),
        ),
        message: "write disable-model-invocation: true".to_owned(),
        edits: vec![Edit {
            span: Span::new(close.start, close.start),
            replacement: format!("{}disable-model-invocation: true{nl}", " ".repeat(indent)),
        }],
    })
}

/// `invocation-mismatch`: Codex's policy and the frontmatter disagree on whether the model may
/// pick the skill on its own.
pub(crate) fn check_invocation_mismatch(cx: &Context, out: &mut Vec<Diagnostic>) {
    // Without the file, nothing says the author meant the skill for Codex.
    let Some(Ok(root)) = openai_yaml(cx) else {
        return;
    };
    let codex_hides = root
        .get("policy")
        .and_then(|p| p.get("allow_implicit_invocation"))
        .is_some_and(|v| matches!(v.value, Value::Bool(false)));
    match (frontmatter_hides(cx), codex_hides) {
        (true, false) => out.push(at_file(
            cx,
            cx.diagnostic(
                &INVOCATION_MISMATCH,
                "disable-model-invocation: true hides the skill from Claude Code and OpenClaw, but Codex lists it (policy.allow_implicit_invocation is not false)".to_owned(),
                Location::Folder,
            )
            .with_help("set `policy.allow_implicit_invocation: false` in agents/openai.yaml"),
        )),
        (false, true) => {
            let mut d = cx
                .diagnostic(
                    &INVOCATION_MISMATCH,
                    "agents/openai.yaml keeps the skill from Codex's model, but the frontmatter lets Claude Code and OpenClaw offer it".to_owned(),
                    Location::Folder,
                )
                .with_fix(hide_fix(cx));
            // The fix edits SKILL.md, so the finding is SKILL.md's.
            d.file = cx.skill.file_path();
            out.push(d);
        }
        _ => {}
    }
}
