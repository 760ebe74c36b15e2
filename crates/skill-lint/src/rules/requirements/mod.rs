//! Requirement rules: the shape of the requirements block (here), gating on this machine
//! (`gating`), and what the skill uses but does not declare, or declares but never uses
//! (`inference`).

mod gating;
mod inference;

pub use gating::check_gating;
pub use inference::{check_undeclared, check_unused};

use super::Context;
use crate::Severity;
use crate::diagnostic::{Diagnostic, Location};
use crate::rulebook::*;
use skill_model::requirements::REQUIRES_KEYS;
use skill_model::yaml::{Node, Value};
use skill_model::{Span, agents, requirements};

const PLATFORMS: [&str; 3] = ["darwin", "linux", "win32"];

/// Which agents read the block name used (the agents table); for an agent's target, a block
/// that agent does not read (nothing for an agent that reads no block: no name would do).
pub(crate) fn check_block_name(cx: &Context, out: &mut Vec<Diagnostic>) {
    let finding = match cx.target.facts() {
        None => cx
            .requirements
            .block
            .as_deref()
            .and_then(portable_block_finding),
        Some(facts) if facts.metadata_blocks.is_empty() => None,
        Some(facts) => unread_block(cx).map(|name| {
            let message = format!(
                "metadata.{name} is not read by {}, which reads {}; rename it to '{}'",
                facts.release,
                facts.metadata_blocks.join(" or "),
                agents::universal_block()
            );
            (name, message, Severity::Warning)
        }),
    };
    let Some((name, message, severity)) = finding else {
        return;
    };
    let Some(span) = block_key_span(cx, name) else {
        return;
    };
    let mut d = cx.diagnostic(&REQUIREMENTS_BLOCK_NAME, message, Location::Span(span));
    d.severity = severity;
    out.push(d);
}

/// For the portable target: who reads `name` and who does not, unless every agent does.
fn portable_block_finding(name: &str) -> Option<(&str, String, Severity)> {
    let readers: Vec<&str> = agents::readers_of_block(name).map(|f| f.name).collect();
    let others: Vec<&str> = agents::AGENTS
        .iter()
        .map(|a| agents::facts(*a))
        .filter(|f| !f.metadata_blocks.is_empty() && !f.metadata_blocks.contains(&name))
        .map(|f| f.name)
        .collect();
    let rename = agents::universal_block();
    match (readers.is_empty(), others.is_empty()) {
        (_, true) => None,
        (true, false) => Some((
            name,
            format!("metadata.{name} is read by no current agent; rename it to '{rename}'"),
            Severity::Warning,
        )),
        (false, false) => Some((
            name,
            format!(
                "metadata.{name} is read by {} but not by {}; rename it to '{rename}'",
                readers.join(" and "),
                others.join(" and ")
            ),
            Severity::Info,
        )),
    }
}

/// A requirements block under `metadata` that the target agent does not read, when it reads
/// none of those present.
fn unread_block<'a>(cx: &'a Context) -> Option<&'a str> {
    if cx.requirements.block.is_some() {
        return None;
    }
    let metadata = cx.manifest()?.value("metadata")?;
    let metadata = requirements::metadata_node(metadata)?;
    requirements::BLOCK_NAMES
        .into_iter()
        .find(|name| metadata.get(name).is_some())
}

/// The span of `name`'s key in `metadata` (the `metadata` key when it is a JSON string).
fn block_key_span(cx: &Context, name: &str) -> Option<Span> {
    let meta = cx.manifest()?.get("metadata")?;
    let key = meta.value.as_map().and_then(|m| {
        m.iter()
            .find(|(k, _)| k.as_str() == Some(name))
            .map(|(k, _)| k.span)
    });
    Some(key.unwrap_or(meta.key_span))
}

/// The block, `requires` and its lists have the right types.
pub(crate) fn check_shape(cx: &Context, out: &mut Vec<Diagnostic>) {
    if let Some(problem) = unparsable_json_metadata(cx) {
        out.push(problem);
        return;
    }
    let Some(block) = &cx.requirements.block_node else {
        return;
    };
    let name = cx.requirements.block.as_deref().unwrap_or("openclaw");
    let mut bad = |node: &Node, message: String| {
        out.push(cx.diagnostic(&INVALID_REQUIRES, message, Location::Span(span_of(node))));
    };
    let Some(entries) = block.as_map() else {
        bad(
            block,
            format!(
                "metadata.{name} is {}; it should be a mapping",
                block.type_name()
            ),
        );
        return;
    };
    for (key, value) in entries {
        check_block_key(name, key, value, &mut bad);
    }
}

/// One key of the `metadata.{name}` block: reports through `bad` when its value has the wrong
/// type (keys this rule does not know are left alone).
fn check_block_key(name: &str, key: &Node, value: &Node, bad: &mut impl FnMut(&Node, String)) {
    match key.as_str() {
        Some("requires") => check_requires(name, value, bad),
        // A null `primaryEnv` reads as none in OpenClaw and nanobot alike.
        Some("primaryEnv") if value.as_str().is_none() && !matches!(value.value, Value::Null) => {
            bad(value, "primaryEnv should be the name of an env var".into())
        }
        Some("always") if !matches!(value.value, Value::Bool(_)) => bad(
            value,
            format!(
                "metadata.{name}.always is {}; it should be true or false",
                value.type_name()
            ),
        ),
        Some("os") if !is_name_list(value, false) => bad(
            value,
            format!(
                "os is {}; it should be a list such as [\"darwin\", \"linux\"]",
                value.type_name()
            ),
        ),
        Some("install") if value.as_seq().is_none() => bad(
            value,
            format!(
                "install is {}; it should be a list of installer specs",
                value.type_name()
            ),
        ),
        _ => {}
    }
}

/// `requires`: a mapping (or nothing) of known keys, each a list of names.
fn check_requires(name: &str, value: &Node, bad: &mut impl FnMut(&Node, String)) {
    match value.as_map() {
        Some(requires) => {
            for (k, v) in requires {
                let k_name = k.as_str().unwrap_or("");
                if !REQUIRES_KEYS.contains(&k_name) {
                    // Agents skip a key they do not know and gate on the rest. A key that
                    // lists what is optional (`optionalEnv`) is skipped as its author wants.
                    if !k_name.to_ascii_lowercase().contains("optional") {
                        bad(k, unknown_requires_key(name, k_name));
                    }
                } else if !is_name_list(v, k_name == "bins") {
                    bad(
                        v,
                        format!(
                            "requires.{k_name} is {}; it should be a list of names",
                            v.type_name()
                        ),
                    );
                }
            }
        }
        None if matches!(value.value, Value::Null) => {}
        None => bad(
            value,
            format!(
                "metadata.{name}.requires is {}; it should be a mapping",
                value.type_name()
            ),
        ),
    }
}

/// Keys of the `metadata.{name}` block itself, sometimes written under `requires`.
const BLOCK_KEYS: &[&str] = &["os", "primaryEnv", "always", "install", "emoji", "homepage"];

/// What is wrong with the unknown key `key` of `metadata.{name}.requires`.
fn unknown_requires_key(name: &str, key: &str) -> String {
    const SKIPPED: &str = "agents skip it, so the skill is not gated on it";
    if BLOCK_KEYS.contains(&key) {
        format!("requires.{key} belongs at metadata.{name}.{key}; under requires {SKIPPED}")
    } else if let Some(meant) = misspelt_requires_key(key) {
        format!("unknown key requires.{key} (did you mean requires.{meant}?); {SKIPPED}")
    } else {
        format!("unknown key requires.{key}; {SKIPPED} (requires takes bins, anyBins, env, config)")
    }
}

/// The `requires` key `key` was meant to be: one within two edits of it in any case (`bin`,
/// `anybins`, `envs`).
fn misspelt_requires_key(key: &str) -> Option<&'static str> {
    let lower = key.to_ascii_lowercase();
    REQUIRES_KEYS.into_iter().find(|known| {
        let limit = if known.len() <= 3 { 1 } else { 2 };
        crate::rules::security::typosquat::distance(&lower, &known.to_ascii_lowercase(), limit)
            <= limit
    })
}

fn unparsable_json_metadata(cx: &Context) -> Option<Diagnostic> {
    let entry = cx.manifest()?.get("metadata")?;
    let text = entry.value.as_str()?;
    if !text.trim_start().starts_with('{') {
        return None;
    }
    let error = serde_json::from_str::<serde_json::Value>(text).err()?;
    Some(cx.diagnostic(
        &INVALID_REQUIRES,
        format!("metadata is a JSON string that does not parse ({error}); agents then see no requirements"),
        Location::Span(entry.value.span),
    ))
}

fn span_of(node: &Node) -> Span {
    if node.span.end > node.span.start {
        node.span
    } else {
        Span::new(node.span.start, node.span.start + 1)
    }
}

fn is_name_list(node: &Node, csv_ok: bool) -> bool {
    match &node.value {
        Value::Seq(items) => items
            .iter()
            .all(|i| i.as_str().is_some_and(|s| !s.trim().is_empty())),
        Value::Str(_) => csv_ok,
        _ => false,
    }
}

/// `os` values are platform names agents know.
pub(crate) fn check_os(cx: &Context, out: &mut Vec<Diagnostic>) {
    for item in &cx.requirements.os {
        if PLATFORMS.contains(&item.value.as_str()) {
            continue;
        }
        let hint = match item.value.to_ascii_lowercase().as_str() {
            "macos" | "mac" | "osx" | "macosx" | "apple" => " (macOS is 'darwin')",
            "windows" | "win" | "win64" | "windows_nt" => " (Windows is 'win32')",
            "ubuntu" | "debian" | "unix" | "gnu/linux" => " (use 'linux')",
            _ => "",
        };
        out.push(cx.diagnostic(
            &INVALID_OS,
            format!(
                "os value '{}' never matches; use darwin, linux or win32{hint}",
                item.value
            ),
            Location::Span(item.span),
        ));
    }
}

/// Installer specs have a known kind and that kind's required field.
pub(crate) fn check_install(cx: &Context, out: &mut Vec<Diagnostic>) {
    for spec in &cx.requirements.install {
        if let Some(problem) = install_spec_problem(cx, spec) {
            out.push(problem);
        }
    }
}

/// What is wrong with one install spec, if anything: its shape, its kind, the field its kind
/// needs, and a download's scheme.
fn install_spec_problem(cx: &Context, spec: &Node) -> Option<Diagnostic> {
    let at = Location::Span(span_of(spec));
    if spec.as_map().is_none() {
        return Some(cx.diagnostic(
            &INVALID_INSTALL,
            format!(
                "install spec is {}; it should be a mapping with a kind",
                spec.type_name()
            ),
            at,
        ));
    }
    let kind = spec
        .get("kind")
        .or_else(|| spec.get("type"))
        .and_then(Node::as_str);
    let Some(kind) = kind else {
        return Some(cx.diagnostic(
            &INVALID_INSTALL,
            "install spec has no kind (brew, node, uv, go, download or apt)".into(),
            at,
        ));
    };
    let Some(needed) = fields_of_kind(kind) else {
        // An unknown kind is skipped by OpenClaw rather than breaking the skill.
        let mut d = cx.diagnostic(&INVALID_INSTALL, format!("install kind '{kind}' is unknown to OpenClaw (brew, node, uv, go, download) and nanobot (apt); it is skipped"), at);
        d.severity = crate::Severity::Warning;
        return Some(d);
    };
    let present = needed
        .iter()
        .find_map(|k| spec.get(k).and_then(Node::as_str));
    match present {
        None => Some(cx.diagnostic(
            &INVALID_INSTALL,
            format!(
                "install spec of kind '{kind}' needs {}",
                needed
                    .iter()
                    .map(|k| format!("'{k}'"))
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
            at,
        )),
        Some(url)
            if kind == "download"
                && !(url.starts_with("https://") || url.starts_with("http://")) =>
        {
            Some(cx.diagnostic(
                &INVALID_INSTALL,
                format!("download url '{url}' is not http(s)"),
                at,
            ))
        }
        Some(_) => None,
    }
}

/// The fields an install spec of `kind` names its package by (any one will do), or `None`
/// for a kind no agent knows.
fn fields_of_kind(kind: &str) -> Option<&'static [&'static str]> {
    match kind {
        "brew" => Some(&["formula", "cask"]),
        "node" | "uv" | "apt" => Some(&["package"]),
        "go" => Some(&["module"]),
        "download" => Some(&["url"]),
        _ => None,
    }
}
