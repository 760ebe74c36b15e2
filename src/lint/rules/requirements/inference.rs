//! Commands and env vars the skill uses without declaring them, with one fix that declares them
//! all; and declared ones the skill never mentions.

use crate::lint::diagnostic::{Diagnostic, Fix, Location};
use crate::lint::infer::{Site, Use};
use crate::lint::rulebook::*;
use crate::lint::rules::Context;
use crate::lint::yaml_edit::{New, insert_top_level, merge};
use crate::skill::Span;
use crate::skill::yaml::Node;

/// Names declared for the skill, by kind.
fn declared_bins<'a>(cx: &'a Context) -> Vec<&'a str> {
    let r = &cx.requirements;
    r.bins
        .iter()
        .chain(&r.any_bins)
        .map(|i| i.value.as_str())
        .collect()
}

fn declared_env(cx: &Context) -> Vec<String> {
    let r = &cx.requirements;
    let mut names: Vec<String> = r
        .env
        .iter()
        .chain(&r.primary_env)
        .map(|i| i.value.clone())
        .collect();
    // ClawHub's `envVars` declares optional variables: used, but not a gate.
    if let Some(vars) = r
        .block_node
        .as_ref()
        .and_then(|b| b.get("envVars"))
        .and_then(Node::as_seq)
    {
        names.extend(
            vars.iter()
                .filter_map(|v| v.get("name").and_then(Node::as_str).map(str::to_owned)),
        );
    }
    names
}

/// Commands and env vars used but not declared, with one fix that declares them all.
pub fn check_undeclared(cx: &Context, out: &mut Vec<Diagnostic>) {
    if cx.manifest().is_none() {
        return;
    }
    let bins = declared_bins(cx);
    let env = declared_env(cx);
    let missing_bins: Vec<&Use> = cx
        .uses()
        .commands
        .iter()
        .filter(|u| !bins.contains(&u.name.as_str()))
        .collect();
    let missing_env: Vec<&Use> = cx
        .uses()
        .env
        .iter()
        .filter(|u| !env.contains(&u.name))
        .collect();
    if missing_bins.is_empty() && missing_env.is_empty() {
        return;
    }
    let fix = declare_fix(cx, &missing_bins, &missing_env);
    for u in missing_bins {
        let d = cx.diagnostic(
            &UNDECLARED_BIN,
            format!("'{}' is run but not declared in requires.bins", u.name),
            location(u),
        );
        out.push(at_site(d, cx, u).with_fix(fix.clone()));
    }
    for u in missing_env {
        let d = cx.diagnostic(
            &UNDECLARED_ENV,
            format!(
                "env var '{}' is read but not declared in requires.env",
                u.name
            ),
            location(u),
        );
        out.push(at_site(d, cx, u).with_fix(fix.clone()));
    }
}

fn location(u: &Use) -> Location {
    match &u.site {
        Site::SkillMd(span) => Location::Span(Span::new(span.start, span.start + u.name.len())),
        Site::Script { line, column, .. } => Location::Point(crate::skill::span::Position {
            line: *line,
            column: *column,
        }),
    }
}

fn at_site(mut d: Diagnostic, cx: &Context, u: &Use) -> Diagnostic {
    if let Site::Script { path, .. } = &u.site {
        d.file = cx.skill.dir.join(path);
    }
    d
}

/// One fix adding every undeclared command and env var to the requirements block.
fn declare_fix(cx: &Context, bins: &[&Use], env: &[&Use]) -> Option<Fix> {
    let doc = cx.document()?;
    let manifest = cx.manifest()?;
    let block = cx.requirements.block.as_deref().unwrap_or("openclaw");
    let bin_names: Vec<String> = bins.iter().map(|u| u.name.clone()).collect();
    let env_names: Vec<String> = env.iter().map(|u| u.name.clone()).collect();
    let mut lists = Vec::new();
    if !bin_names.is_empty() {
        lists.push(("bins", New::List(&bin_names)));
    }
    if !env_names.is_empty() {
        lists.push(("env", New::List(&env_names)));
    }
    let value = New::nested(&[block, "requires"], New::Map(lists));
    let edits = match manifest.value("metadata") {
        None => insert_top_level(
            &doc.source,
            &manifest.root,
            doc.frontmatter?.close,
            "metadata",
            &value,
        )?,
        Some(meta) => merge(&doc.source, meta, &value)?,
    };
    let names: Vec<String> = bin_names.into_iter().chain(env_names).collect();
    Some(Fix {
        message: format!("declare {} in metadata.{block}.requires", names.join(", ")),
        edits,
    })
}

/// Declared bins and env vars the skill never mentions.
pub fn check_unused(cx: &Context, out: &mut Vec<Diagnostic>) {
    let r = &cx.requirements;
    if r.bins.is_empty() && r.env.is_empty() {
        return;
    }
    for (kind, items) in [("bin", &r.bins), ("env var", &r.env)] {
        for item in items.iter().filter(|i| !cx.uses().mentions(&i.value)) {
            out.push(cx.diagnostic(
                &UNUSED_REQUIREMENT,
                format!("declared {kind} '{}' is never mentioned in the body or scripts; it gates the skill for nothing", item.value),
                Location::Span(item.span),
            ));
        }
    }
}
