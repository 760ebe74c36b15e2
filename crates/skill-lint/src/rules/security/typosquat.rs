//! Typosquatted dependencies (`typosquat`): a package a skill installs whose name is one or
//! two edits from a very popular package and is not popular itself (`pip install reqeusts`,
//! `npm i lodahs`, `cargo add serde_jsn`, an install spec with `package: expresss`).
//!
//! The popular names are shipped lists (`popular/`, with their sources in its README): the
//! most-downloaded PyPI projects, npm packages and crates. Only the first [`TARGETS`] of each
//! are names an attacker imitates; the whole list says which names are popular themselves.

use super::Finding;
use super::pattern::Pattern;
use super::text::{Kind, Text, excerpt, family};
use crate::rulebook::TYPOSQUAT;
use skill_model::Span;
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

/// How many of the most popular names of each registry are checked for imitations.
const TARGETS: usize = 2000;
/// Names shorter than this are left alone: every short name is near some popular one.
const MIN_LEN: usize = 6;
/// Names this long or longer may be two edits from what they imitate; shorter ones one.
const TWO_EDITS_FROM: usize = 10;

/// A package registry, with its popular names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Registry {
    PyPi,
    Npm,
    Crates,
}

impl Registry {
    fn label(self) -> &'static str {
        match self {
            Registry::PyPi => "PyPI",
            Registry::Npm => "npm",
            Registry::Crates => "crates.io",
        }
    }

    fn list(self) -> &'static str {
        match self {
            Registry::PyPi => include_str!("popular/pypi.txt"),
            Registry::Npm => include_str!("popular/npm.txt"),
            Registry::Crates => include_str!("popular/crates.txt"),
        }
    }

    /// The name as the registry compares names.
    fn normalise(self, name: &str) -> String {
        let lower = name.to_ascii_lowercase();
        match self {
            Registry::PyPi => {
                let mut out = String::with_capacity(lower.len());
                for c in lower.chars() {
                    let c = if matches!(c, '_' | '.') { '-' } else { c };
                    if !(c == '-' && out.ends_with('-')) {
                        out.push(c);
                    }
                }
                out
            }
            Registry::Crates => lower.replace('_', "-"),
            Registry::Npm => lower,
        }
    }
}

/// One registry's popular names: all of them, the most popular by length, and the scopes
/// (`@types`, `@modelcontextprotocol`) the popular scoped names are published under.
struct Popular {
    all: HashSet<String>,
    targets_by_len: HashMap<usize, Vec<String>>,
    scopes: HashSet<String>,
}

static POPULAR: LazyLock<HashMap<Registry, Popular>> = LazyLock::new(|| {
    [Registry::PyPi, Registry::Npm, Registry::Crates]
        .into_iter()
        .map(|r| {
            let names: Vec<String> = r.list().lines().map(|n| r.normalise(n.trim())).collect();
            let mut targets_by_len: HashMap<usize, Vec<String>> = HashMap::new();
            for name in names.iter().take(TARGETS).filter(|n| n.len() >= MIN_LEN) {
                targets_by_len
                    .entry(name.len())
                    .or_default()
                    .push(name.clone());
            }
            let scopes = names
                .iter()
                .filter_map(|n| Some(n.strip_prefix('@')?.split_once('/')?.0.to_owned()))
                .collect();
            let all = names.into_iter().collect();
            (
                r,
                Popular {
                    all,
                    targets_by_len,
                    scopes,
                },
            )
        })
        .collect()
});

/// Install commands, with the registry each installs from and the arguments that follow.
static INSTALLS: LazyLock<Vec<(Pattern, Registry)>> = LazyLock::new(|| {
    [
        (r#"(?i)(?-u:\b)(?:pip[0-9.]*|pipx|uv[[:space:]]+pip|python[0-9.]*[[:space:]]+-m[[:space:]]+pip)[[:space:]]+install(?-u:\b)([^\n|;&#>`"'),]*)"#, Registry::PyPi),
        (r#"(?i)(?-u:\b)(?:uv|poetry|pdm|rye)[[:space:]]+add(?-u:\b)([^\n|;&#>`"'),]*)"#, Registry::PyPi),
        (r#"(?i)(?-u:\b)(?:npm[[:space:]]+(?:install|i|add)|yarn[[:space:]]+(?:global[[:space:]]+)?add|pnpm[[:space:]]+(?:add|install|i)|bun[[:space:]]+(?:add|install|i))(?-u:\b)([^\n|;&#>`"'),]*)"#, Registry::Npm),
        // npx runs one package; the words after it are that program's arguments.
        (r#"(?i)(?-u:\b)npx(?:[[:space:]]+-[-[:word:]]+)*[[:space:]]+([@[:word:]][-[:word:]./@]*)"#, Registry::Npm),
        (r#"(?i)(?-u:\b)cargo[[:space:]]+(?:add|install)(?-u:\b)([^\n|;&#>`"'),]*)"#, Registry::Crates),
    ]
    .into_iter()
    .map(|(p, r)| (Pattern::new(p).expect("a valid install pattern"), r))
    .collect()
});

/// A server an MCP or editor config starts through a package runner: `"command": "npx"` and
/// the `"args"` array after it, possibly on the lines below.
static LAUNCH: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r#"(?i)"command"[[:space:]]*:[[:space:]]*"(npx|bunx|pnpx|uvx|pipx)"[^\]\[]{0,400}"args"[[:space:]]*:[[:space:]]*\[([^\]]{0,400})\]"#)
        .expect("a valid launch pattern")
});

/// `package: NAME` in an install spec of the frontmatter, and the `kind` that names its registry.
static SPEC_PACKAGE: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r#"(?i)["']?(?:package|module|crate)["']?[[:space:]]*:[[:space:]]*["']?([@A-Za-z0-9][A-Za-z0-9._/@-]*)"#)
        .expect("a valid spec pattern")
});
static SPEC_KIND: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r#"(?i)["']?kind["']?[[:space:]]*:[[:space:]]*["']?(node|npm|uv|pip|python|cargo)"#,
    )
    .expect("a valid kind pattern")
});

/// Flags installs of names that imitate popular packages: in install commands, install
/// specs, and the dependency manifests a skill ships.
pub(crate) fn check_typosquat(text: &Text, out: &mut Vec<Finding>) {
    check_manifest(text, out);
    check_launches(text, out);
    if !text.triggered(family::DEPENDENCY) {
        return;
    }
    for line in text.lines_with(family::DEPENDENCY) {
        let l = &text.text[line.clone()];
        for (re, registry) in INSTALLS.iter() {
            for caps in re.captures_iter(l) {
                let Some(args) = caps.get(1) else { continue };
                for name in package_args(args.as_str()) {
                    report(text, line.start..line.end, *registry, name, out);
                }
            }
        }
        if text.in_frontmatter(line.start) {
            check_spec(text, line, out);
        }
    }
}

/// The package each config-started server runs (`"command": "npx", "args": ["-y", NAME]`),
/// checked as an install of it: the runner fetches and runs that name when the agent starts.
fn check_launches(text: &Text, out: &mut Vec<Finding>) {
    if text.kind != Kind::Data || !text.text.contains("\"args\"") {
        return;
    }
    for caps in LAUNCH.captures_iter(text.text) {
        let (Some(runner), Some(args)) = (caps.get(1), caps.get(2)) else {
            continue;
        };
        let registry = match runner.as_str().to_ascii_lowercase().as_str() {
            "uvx" | "pipx" => Registry::PyPi,
            _ => Registry::Npm,
        };
        let words = args.as_str().replace(',', " ");
        // The runner's first word that is not a flag is the package; the rest are its arguments.
        if let Some(name) = package_args(&words).first() {
            let at = args.start() + args.as_str().find(name).unwrap_or(0);
            report(text, text.line_at(at), registry, name, out);
        }
    }
}

/// The registry a dependency manifest installs from, by its file name: `requirements*.txt`
/// and `pyproject.toml` (PyPI), `package.json` (npm), `Cargo.toml` (crates.io).
fn manifest_registry(path: &str) -> Option<Registry> {
    let name = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    match name.as_str() {
        "package.json" => Some(Registry::Npm),
        "pyproject.toml" => Some(Registry::PyPi),
        "cargo.toml" => Some(Registry::Crates),
        n if n.starts_with("requirements") && (n.ends_with(".txt") || n.ends_with(".in")) => {
            Some(Registry::PyPi)
        }
        _ => None,
    }
}

/// Each dependency a manifest names, checked as an install of it, on the line that names it.
fn check_manifest(text: &Text, out: &mut Vec<Finding>) {
    let Some(registry) = manifest_registry(text.path) else {
        return;
    };
    let name = text.path.rsplit('/').next().unwrap_or(text.path);
    let names = match name.to_ascii_lowercase().as_str() {
        "package.json" => npm_dependencies(text.text),
        "pyproject.toml" | "cargo.toml" => toml_dependencies(text.text),
        _ => text
            .text
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty() && !l.starts_with('-'))
            .map(|l| strip_version(l.split_whitespace().next().unwrap_or("")).to_owned())
            .collect(),
    };
    let first = first_offsets(text.text);
    for name in names {
        let at = first.get(name.as_str()).copied().unwrap_or(0);
        report(text, text.line_at(at), registry, &name, out);
    }
}

/// Where each word that could be a package name (`@scope/name`, `name_x.y-z`) first appears,
/// found in one pass: a search per dependency would rescan the manifest for each.
fn first_offsets(text: &str) -> HashMap<&str, usize> {
    let is_name = |c: char| c.is_ascii_alphanumeric() || matches!(c, '@' | '/' | '.' | '_' | '-');
    let mut first = HashMap::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (start, is_name(c)) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                first.entry(&text[s..i]).or_insert(s);
                start = None;
            }
            _ => {}
        }
    }
    first
}

/// The keys of package.json's dependency tables.
fn npm_dependencies(json: &str) -> Vec<String> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(json) else {
        return Vec::new();
    };
    [
        "dependencies",
        "devDependencies",
        "optionalDependencies",
        "peerDependencies",
    ]
    .iter()
    .filter_map(|table| value.get(table)?.as_object())
    .flat_map(|deps| deps.keys().cloned())
    .collect()
}

/// pyproject.toml's `[project] dependencies` (and optional ones) and the keys of Poetry's and
/// Cargo's dependency tables.
fn toml_dependencies(source: &str) -> Vec<String> {
    let Ok(doc) = source.parse::<toml::Table>() else {
        return Vec::new();
    };
    let mut names = Vec::new();
    let requirement = |v: &toml::Value| {
        v.as_str()
            .map(|r| strip_version(r.split_whitespace().next().unwrap_or("")).to_owned())
    };
    if let Some(project) = doc.get("project").and_then(toml::Value::as_table) {
        let lists = project.get("dependencies").into_iter().chain(
            project
                .get("optional-dependencies")
                .and_then(toml::Value::as_table)
                .into_iter()
                .flat_map(|t| t.values()),
        );
        for list in lists.filter_map(toml::Value::as_array) {
            names.extend(list.iter().filter_map(requirement));
        }
    }
    let poetry = doc
        .get("tool")
        .and_then(|t| t.get("poetry"))
        .and_then(|p| p.get("dependencies"));
    let tables = ["dependencies", "dev-dependencies", "build-dependencies"]
        .iter()
        .filter_map(|t| doc.get(*t))
        .chain(poetry);
    for table in tables.filter_map(toml::Value::as_table) {
        names.extend(table.keys().filter(|k| *k != "python").cloned());
    }
    names
}

fn check_spec(text: &Text, line: std::ops::Range<usize>, out: &mut Vec<Finding>) {
    let l = &text.text[line.clone()];
    let Some(name) = SPEC_PACKAGE.captures_iter(l).next().and_then(|c| c.get(1)) else {
        return;
    };
    // The kind is on the same line (flow style) or on one of the lines above it.
    let above = &text.text[line.start.saturating_sub(400)..line.end];
    let kind = SPEC_KIND
        .captures_iter(above)
        .last()
        .and_then(|c| c.get(1))
        .map(|k| k.as_str().to_ascii_lowercase());
    let registry = match kind.as_deref() {
        Some("node" | "npm") => Registry::Npm,
        Some("uv" | "pip" | "python") => Registry::PyPi,
        Some("cargo") => Registry::Crates,
        _ => return,
    };
    report(text, line, registry, name.as_str(), out);
}

/// The package names among an install command's arguments: flags, their values, paths,
/// URLs, placeholders and version specifiers left out.
fn package_args(args: &str) -> Vec<&str> {
    const TAKES_VALUE: &[&str] = &[
        "-r",
        "-c",
        "-e",
        "-i",
        "-t",
        "--index-url",
        "--extra-index-url",
        "--target",
        "--requirement",
        "--constraint",
        "--prefix",
        "--root",
        "--registry",
        "--version",
        "--git",
        "--path",
        "--branch",
        "--tag",
        "--rev",
        "--features",
        "-F",
        "--python",
        "-p",
        "--package",
        "--with",
        "--from",
    ];
    let mut out = Vec::new();
    let mut skip_next = false;
    for word in args.split_whitespace() {
        let word = word.trim_matches(['"', '\'', '`', ',', ')', '(']);
        if std::mem::take(&mut skip_next) {
            continue;
        }
        if word.starts_with('-') {
            skip_next = TAKES_VALUE.contains(&word);
            continue;
        }
        let name = strip_version(word);
        let scoped = name.starts_with('@') && name.matches('/').count() == 1;
        let plain = name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
        if (plain || scoped) && !name.is_empty() && !name.starts_with('.') {
            out.push(name);
        }
    }
    out
}

/// `requests==2.0`, `requests[socks]>=2`, `lodash@4`, `serde@1.0` without the version.
fn strip_version(word: &str) -> &str {
    let cut = word
        .char_indices()
        .skip(1)
        .find(|&(_, c)| matches!(c, '=' | '<' | '>' | '~' | '!' | '[' | '@' | ';'))
        .map_or(word.len(), |(i, _)| i);
    &word[..cut]
}

fn report(
    text: &Text,
    line: std::ops::Range<usize>,
    registry: Registry,
    name: &str,
    out: &mut Vec<Finding>,
) {
    let Some(target) = imitated(registry, name) else {
        return;
    };
    out.push(text.finding(
        &TYPOSQUAT,
        Span::new(line.start, line.end),
        format!(
            "installs '{name}', a near miss of the popular {} package '{target}': `{}`",
            registry.label(),
            excerpt(&text.text[line])
        ),
        "attackers publish packages named like popular ones with a letter changed so that a \
         typo, or a skill written to look like it has one, installs their code",
        "install the package you mean by its exact name; if this name is right, allow the \
         finding with a reason",
    ));
}

/// The popular name `name` imitates, when it is not popular itself and is within one edit
/// (names up to 9 characters) or two (longer) of one of the most popular names. A name that
/// swaps a whole word of a popular one (`ai-queue` beside `p-queue`) names another package
/// of the same family, not a typo.
fn imitated(registry: Registry, name: &str) -> Option<String> {
    let popular = POPULAR.get(&registry)?;
    let name = registry.normalise(name);
    if name.len() < MIN_LEN || popular.all.contains(&name) {
        return None;
    }
    if let Some(scope) = imitated_scope(popular, &name) {
        return Some(scope);
    }
    let limit = if name.len() < TWO_EDITS_FROM { 1 } else { 2 };
    (name.len().saturating_sub(limit)..=name.len() + limit)
        .filter_map(|len| popular.targets_by_len.get(&len))
        .flatten()
        .find(|target| {
            letters_differ_by_at_most(&name, target, limit)
                && distance(&name, target, limit) <= limit
                && !swaps_a_word(&name, target)
        })
        .cloned()
}

/// The popular scope the scope of `name` imitates (`@modelcontext-protocol/x` beside
/// `@modelcontextprotocol`), with the popular package name under it, when it is within one
/// edit of a popular scope and is not one itself.
fn imitated_scope(popular: &Popular, name: &str) -> Option<String> {
    let (scope, rest) = name.strip_prefix('@')?.split_once('/')?;
    if scope.len() < MIN_LEN || popular.scopes.contains(scope) {
        return None;
    }
    popular
        .scopes
        .iter()
        .filter(|s| s.len().abs_diff(scope.len()) <= 1)
        .find(|s| distance(scope, s, 1) <= 1)
        .map(|s| format!("@{s}/{rest}"))
}

/// True when `a` and `b` have the same words (split at `-`) but one, and that one differs
/// wholly or is a short prefix or suffix word (`ai`, `js`, `cli`).
fn swaps_a_word(a: &str, b: &str) -> bool {
    let (wa, wb): (Vec<&str>, Vec<&str>) = (a.split('-').collect(), b.split('-').collect());
    if wa.len() != wb.len() || wa.len() < 2 {
        return false;
    }
    let differing: Vec<(&str, &str)> = wa.into_iter().zip(wb).filter(|(x, y)| x != y).collect();
    match differing.as_slice() {
        [(x, y)] => {
            x.len().max(y.len()) <= 3
                || distance(x, y, x.len().max(y.len())) >= x.len().min(y.len())
        }
        _ => false,
    }
}

/// Whether the letters of `a` and `b`, counted without their order, differ by at most `limit`
/// on either side: each edit or swap changes that count by at most one, so a pair over it is
/// over the distance too, found without an allocation (most popular names are).
fn letters_differ_by_at_most(a: &str, b: &str, limit: usize) -> bool {
    let mut counts = [0i32; 256];
    for &byte in a.as_bytes() {
        counts[usize::from(byte)] += 1;
    }
    for &byte in b.as_bytes() {
        counts[usize::from(byte)] -= 1;
    }
    let (mut more, mut fewer) = (0, 0);
    for &count in &counts {
        if count > 0 {
            more += count.unsigned_abs();
        } else {
            fewer += count.unsigned_abs();
        }
    }
    usize::try_from(more.max(fewer)).is_ok_and(|over| over <= limit)
}

/// The optimal string alignment distance (edits, and swaps of neighbours) between `a` and
/// `b`, or `limit + 1` once it is known to exceed `limit`. Only cells within `limit` of the
/// diagonal are computed: any alignment leaving that band costs more than `limit` already, and
/// the popular-name search asks of each candidate only whether it is within one or two edits.
pub(crate) fn distance(a: &str, b: &str, limit: usize) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len().abs_diff(b.len()) > limit {
        return limit + 1;
    }
    let over = limit + 1;
    let mut before = vec![over; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).map(|j| j.min(over)).collect();
    let mut current = vec![over; b.len() + 1];
    for i in 1..=a.len() {
        let (lo, hi) = (i.saturating_sub(limit).max(1), (i + limit).min(b.len()));
        current.fill(over);
        current[0] = i.min(over);
        for j in lo..=hi {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut cell = (previous[j] + 1)
                .min(current[j - 1] + 1)
                .min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cell = cell.min(before[j - 2] + 1);
            }
            current[j] = cell.min(over);
        }
        if current[lo - 1..=hi].iter().all(|&d| d >= over) {
            return over;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// Compiles the patterns and reads the lists now (see [`super::preload`]).
pub(super) fn compile() {
    LazyLock::force(&INSTALLS);
    LazyLock::force(&SPEC_PACKAGE);
    LazyLock::force(&SPEC_KIND);
    LazyLock::force(&LAUNCH);
    LazyLock::force(&POPULAR);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<String> {
        names_in("SKILL.md", text)
    }

    fn names_in(path: &str, text: &str) -> Vec<String> {
        let t = Text::new(path, text);
        let mut out = Vec::new();
        check_typosquat(&t, &mut out);
        out.into_iter().map(|f| f.message).collect()
    }

    #[test]
    fn near_misses_of_popular_names_are_found() {
        assert_eq!(names("Run `pip install reqeusts==2.31`.\n").len(), 1);
        assert_eq!(names("npm i -D lodahs\n").len(), 1);
        assert_eq!(names("cargo add serde_jsn\n").len(), 1);
        let spec = "---\nname: x\nmetadata:\n  openclaw:\n    install:\n      - kind: node\n        package: expresss\n---\n";
        assert_eq!(names(spec).len(), 1);
    }

    #[test]
    fn popular_and_unrelated_names_are_left_alone() {
        assert!(names("pip install requests numpy -r requirements.txt\n").is_empty());
        assert!(names("npm install @types/node lodash express\n").is_empty());
        assert!(names("cargo add serde_json tokio --features full\n").is_empty());
        assert!(names("pip install my-internal-tool ./local .\n").is_empty());
        assert!(names("pip install six\n").is_empty());
        assert!(names("npx ai-queue \"send welcome email\"\n").is_empty());
        assert!(names("npx drizzle-kit generate\n").is_empty());
        let spec = "metadata: {\"install\":[{\"command\":\"pip3 install pandas\",\"label\":\"Install Python\"}]}\n";
        assert!(names(spec).is_empty());
    }

    #[test]
    fn dependency_manifests_are_read() {
        let req = "requests==2.31.0\nreqeusts==1.0  # pinned\n-r base.txt\ncolorama\n";
        assert_eq!(names_in("requirements.txt", req).len(), 1);
        let pkg = r#"{"name": "lodahs-demo", "scripts": {"buidl": "x"}, "dependencies": {"lodahs": "^4", "express": "^4"}}"#;
        assert_eq!(names_in("scripts/package.json", pkg).len(), 1);
        let py =
            "[project]\nname = \"reqeusts-tool\"\ndependencies = [\"reqeusts>=2\", \"numpy\"]\n";
        assert_eq!(names_in("pyproject.toml", py).len(), 1);
        let cargo = "[package]\nname = \"x\"\n[dependencies]\nserde_jsn = \"1\"\ntokio = \"1\"\n";
        assert_eq!(names_in("Cargo.toml", cargo).len(), 1);
        assert!(names_in("notes.txt", "reqeusts\n").is_empty());
        // A server an MCP config starts through npx, under a scope one letter off.
        let mcp = "{\n  \"mcpServers\": {\n    \"fs\": {\n      \"command\": \"npx\",\n      \"args\": [\"-y\", \"@modelcontext-protocol/server-filesystem\", \"${HOME}\"]\n    }\n  }\n}\n";
        let found = names_in("assets/mcp.json", mcp);
        assert_eq!(found.len(), 1);
        assert!(
            found[0].contains("'@modelcontextprotocol/server-filesystem'"),
            "{found:?}"
        );
        let real = mcp.replace("modelcontext-protocol", "modelcontextprotocol");
        assert!(names_in("assets/mcp.json", &real).is_empty());
        assert!(names_in("package.json", "{not json").is_empty());
    }

    #[test]
    fn a_pair_whose_letters_differ_too_much_is_over_the_distance_too() {
        for (a, b) in [
            ("reqeusts", "requests"),
            ("lodahs", "lodash"),
            ("abcdef", "uvwxyz"),
            ("lodash", "lodash-es"),
            ("expres", "express"),
            ("react-dom", "raect-dmo"),
        ] {
            for limit in 0..4 {
                if distance(a, b, limit) <= limit {
                    assert!(letters_differ_by_at_most(a, b, limit), "{a} {b} {limit}");
                }
            }
        }
        assert!(!letters_differ_by_at_most("abcdef", "uvwxyz", 2));
    }

    #[test]
    fn distance_counts_edits_and_swaps() {
        assert_eq!(distance("reqeusts", "requests", 2), 1);
        assert_eq!(distance("lodahs", "lodash", 2), 1);
        assert_eq!(distance("abcdef", "uvwxyz", 2), 3);
        assert_eq!(distance("requests", "requests", 2), 0);
        assert_eq!(distance("reqests", "requests", 1), 1);
        assert_eq!(distance("lodash", "lodash-es", 2), 3);
        assert_eq!(distance("abc", "", 5), 3);
        // The band holds every alignment within the limit, at the ends too.
        for (a, b) in [
            ("xrequests", "requests"),
            ("requestsx", "requests"),
            ("erquests", "requests"),
        ] {
            assert_eq!(distance(a, b, 2), 1, "{a} {b}");
        }
    }
}
