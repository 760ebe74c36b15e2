//! Commands and env vars the skill uses without declaring them, with one fix that declares them
//! all; and declared ones the skill never mentions.

use crate::diagnostic::{Diagnostic, Fix, Location};
use crate::infer::{Site, Use};
use crate::rulebook::*;
use crate::rules::Context;
use crate::yaml_edit::{New, insert_top_level, merge};
use skill_model::yaml::Node;
use skill_model::{Requirements, Span};

/// The declarations undeclared-* compares with: the block the target reads, else the first
/// block of any name, since a declaration in a block the agent does not read is
/// `requirements-block-name`'s finding, not a missing one.
fn declarations<'a>(cx: &'a Context) -> std::borrow::Cow<'a, Requirements> {
    match (&cx.requirements.block, cx.manifest()) {
        (None, Some(manifest)) => {
            std::borrow::Cow::Owned(Requirements::from_manifest(manifest, cx.text()))
        }
        _ => std::borrow::Cow::Borrowed(&cx.requirements),
    }
}

/// Whether the skill ships the program `name` itself (`crypto-monitor.sh` beside SKILL.md,
/// run as `crypto-monitor`).
fn ships_program(cx: &Context, name: &str) -> bool {
    cx.files().files().any(|e| {
        let file = e.path.rsplit('/').next().unwrap_or(&e.path);
        file.split_once('.').map_or(file, |(stem, _)| stem) == name
    })
}

/// Whether `name` is a companion of a declared command, shipped in the same suite and named
/// after it (`solana-keygen` beside `solana`, `docker-compose` beside `docker`): declaring the
/// suite's main command already gates the skill on the suite.
fn is_companion(name: &str, bins: &[&str]) -> bool {
    bins.iter().any(|bin| {
        name.strip_prefix(bin)
            .is_some_and(|rest| rest.starts_with(['-', '_']) && rest.len() > 1)
    })
}

/// Names declared for the skill, by kind.
fn declared_bins(r: &Requirements) -> Vec<&str> {
    r.bins
        .iter()
        .chain(&r.any_bins)
        .map(|i| i.value.as_str())
        .collect()
}

fn declared_env(r: &Requirements) -> Vec<String> {
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
    // A skill inside another's folder gates nothing: its parent is what the agents load.
    if cx.manifest().is_none() || cx.nested {
        return;
    }
    let declared = declarations(cx);
    let bins = declared_bins(&declared);
    let env = declared_env(&declared);
    let runtime = cx.target.facts().map_or(&[][..], |f| f.runtime);
    let missing_bins: Vec<&Use> = cx
        .uses()
        .commands
        .iter()
        .filter(|u| {
            let name = u.name.as_str();
            !bins.contains(&name)
                && !runtime.contains(&name)
                && !ships_program(cx, name)
                && !is_companion(name, &bins)
        })
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
        Site::Script { line, column, .. } => Location::Point(skill_model::span::Position {
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
    let unsafe_because = Some(gating_consequence(block, &bin_names, &env_names));
    let names: Vec<String> = bin_names.into_iter().chain(env_names).collect();
    Some(Fix {
        adds_key: None,
        unsafe_because,
        message: format!("declare {} in metadata.{block}.requires", names.join(", ")),
        edits,
    })
}

/// What declaring requirements does: the agents that read `block` stop offering the skill
/// wherever one is missing.
fn gating_consequence(block: &str, bins: &[String], env: &[String]) -> String {
    let agents: Vec<&str> = skill_model::agents::readers_of_block(block)
        .map(|f| f.name)
        .collect();
    let who = match agents.as_slice() {
        [] => "agents that gate on requirements hide".to_owned(),
        [one] => format!("{one} hides"),
        names => format!("{} hide", names.join(" and ")),
    };
    let mut missing = Vec::new();
    if !bins.is_empty() {
        missing.push(format!("{} is not on PATH", quoted_list(bins)));
    }
    if !env.is_empty() {
        missing.push(format!("{} is unset", quoted_list(env)));
    }
    format!("{who} this skill where {}", missing.join(" or "))
}

/// `jq`, `` `jq` or `gh` `` as a message lists names.
fn quoted_list(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// Declared bins and env vars the skill never mentions. A base-system command (`date`, `sh`)
/// is left alone: every machine has it, so its gate neither hides the skill nor matters.
pub fn check_unused(cx: &Context, out: &mut Vec<Diagnostic>) {
    let r = &cx.requirements;
    // An always-on skill is never gated, nor one inside another's folder: its requirements
    // hide nothing. Without a body nothing is mentioned: `empty-body` says what is wrong.
    if r.always || cx.nested || (r.bins.is_empty() && r.env.is_empty()) || cx.has_no_body() {
        return;
    }
    for (kind, items) in [("bin", &r.bins), ("env var", &r.env)] {
        let base_system =
            |name: &str| kind == "bin" && crate::infer::known::is_common_command(name);
        for item in items
            .iter()
            .filter(|i| !base_system(&i.value) && !used(cx, &i.value))
        {
            out.push(cx.diagnostic(
                &UNUSED_REQUIREMENT,
                format!("declared {kind} '{}' is never mentioned in the skill's files; it gates the skill for nothing", item.value),
                Location::Span(item.span),
            ));
        }
    }
}

/// Commands that need another to run: `npx cli` needs node, `pip install` needs python.
const RUNTIMES: &[(&str, &[&str])] = &[
    ("node", &["npx", "npm", "pnpm", "yarn", "node.js", "nodejs"]),
    ("python3", &["pip", "pip3", "python", "uv", "uvx"]),
    ("python", &["pip", "pip3", "python3", "uv", "uvx"]),
];

/// Whether the skill uses `name`: mentioned in the body or scripts in any case (`Nix` for
/// `nix`), through a command that needs it (`npx` for `node`), or in code outside `scripts/`
/// (a root `server.py` whose shebang names `python3.10`, a `package.json` that starts the
/// program with `node`). Documents other than SKILL.md do not count: the agent does not read
/// them.
fn used(cx: &Context, name: &str) -> bool {
    let uses = cx.uses();
    let lower = name.to_lowercase();
    if uses.mentions(name)
        || uses.mentions_ignoring_case(&lower)
        || RUNTIMES
            .iter()
            .filter(|(runtime, _)| *runtime == name)
            .flat_map(|(_, users)| users.iter())
            .any(|user| uses.mentions_ignoring_case(user))
    {
        return true;
    }
    cx.files()
        .files()
        .filter(|e| e.size <= MAX_TEXT_FILE_BYTES && !e.path.starts_with("scripts/"))
        .filter_map(|e| {
            let text = std::fs::read_to_string(cx.skill.dir.join(&e.path)).ok()?;
            (text.starts_with("#!") || is_code_file(&e.path)).then_some(text)
        })
        .any(|text| crate::infer::mentions_in(&text.to_lowercase(), &lower))
}

/// Whether `path` names a program by its extension.
fn is_code_file(path: &str) -> bool {
    const CODE: &[&str] = &[
        ".py", ".sh", ".bash", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl",
    ];
    // Entry-point manifests name the runtime of the program they start (`"start": "node
    // filesystem"`, a Makefile's recipes).
    const MANIFESTS: &[&str] = &["package.json", "pyproject.toml", "Makefile"];
    let file = path.rsplit('/').next().unwrap_or(path);
    CODE.iter().any(|ext| path.ends_with(ext)) || MANIFESTS.contains(&file)
}

/// Largest other file searched for a declared name.
const MAX_TEXT_FILE_BYTES: u64 = 1024 * 1024;
