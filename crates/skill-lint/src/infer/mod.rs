//! Inference of what a skill needs from what it does: the commands its shell code blocks and
//! scripts run, and the env vars they read.

pub mod known;
pub mod scripts;
pub mod shell;

use skill_model::Span;
use skill_model::body::{Body, CodeBlock};
use skill_model::files::FileEntry;

/// Where a command or env var was seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Site {
    /// In SKILL.md.
    SkillMd(Span),
    /// In a script, at a byte offset of its text.
    Script {
        /// The script's path relative to the skill.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
}

/// A command or env var and where it was first seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Use {
    /// The command or variable name.
    pub name: String,
    /// The first place it is used.
    pub site: Site,
}

/// What a skill uses, each name once, in order of first use.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Uses {
    /// Commands run (common ones excluded).
    pub commands: Vec<Use>,
    /// Env vars read (common ones excluded).
    pub env: Vec<Use>,
    /// Relative paths the body runs directly as commands (`./scripts/x.sh`).
    pub run_paths: Vec<Use>,
    /// All text read (body and scripts), to tell whether a declared name is mentioned at all.
    pub text: String,
    /// `text` in lower case, made on first use.
    lowered: std::sync::OnceLock<String>,
}

/// Largest script read for inference.
const MAX_SCRIPT_BYTES: u64 = 1024 * 1024;

/// Whether inference reads `file` as a script: under `scripts/` and at most 1 MiB.
pub(crate) fn reads_as_script(file: &FileEntry) -> bool {
    file.path.starts_with("scripts/") && file.size <= MAX_SCRIPT_BYTES
}

/// Shell-like code block languages.
const SHELL_LANGS: &[&str] = &[
    "bash",
    "sh",
    "shell",
    "zsh",
    "console",
    "shellsession",
    "sh-session",
    "terminal",
    "ksh",
];

/// Fewest shell blocks running commands a body has before a command seen in only one of them is
/// taken for a side
/// use (an example, an alternative, an optional extra) rather than a tool the skill needs: the
/// tools a skill of several blocks runs recur, and what it shows once it can do without. Measured
/// on the labelled corpus findings (tests/precision): below five blocks, a command seen once is
/// as often the skill's one API call.
const SIDE_USE_MIN_BLOCKS: usize = 5;

/// A shell block's text as inference reads it, and the way back to `SKILL.md` offsets.
struct BlockText {
    text: String,
    /// (offset in `text`, offset in SKILL.md) of each line.
    starts: Vec<(usize, usize)>,
}

impl BlockText {
    /// One text per block, so heredocs spanning lines are skipped. A transcript (`$ cmd` lines
    /// and their output) keeps only its prompt lines.
    fn of(block: &CodeBlock) -> BlockText {
        let lines = block.lines();
        let console = block.lang.as_deref() == Some("console")
            || (block.lang.is_none()
                && lines
                    .iter()
                    .find(|(l, _)| !l.trim().is_empty())
                    .is_some_and(|(l, _)| l.trim_start().starts_with("$ ")));
        let mut text = String::new();
        let mut starts = Vec::new();
        for (line, offset) in lines {
            starts.push((text.len(), offset));
            if !console || line.trim_start().starts_with("$ ") {
                text.push_str(line);
            }
            text.push('\n');
        }
        BlockText { text, starts }
    }

    /// The `SKILL.md` site of offset `at` in the text, `len` bytes long.
    fn site(&self, at: usize, len: usize) -> Site {
        let i = self
            .starts
            .partition_point(|(s, _)| *s <= at)
            .saturating_sub(1);
        let start = self.starts.get(i).map_or(0, |(s, o)| o + (at - s));
        Site::SkillMd(Span::new(start, start + len))
    }
}

/// A command a body's block runs, before the body as a whole is known.
struct BodyCommand {
    name: String,
    site: Site,
    block: usize,
    /// Whether it reads the output of the command before it (`... | jq .data`).
    piped: bool,
}

/// Whether a command that starts right after `before` is the reading end of a pipe (`|`, not
/// the list operator `||`).
fn reads_a_pipe(before: &str) -> bool {
    let before = before.trim_end_matches([' ', '\t']);
    before.ends_with('|') && !before.ends_with("||")
}

/// What the body's shell blocks hold, gathered block by block before the body as a whole (and
/// the scripts) decide which of it the skill needs.
#[derive(Default)]
struct BodyReading {
    commands: Vec<BodyCommand>,
    env_refs: Vec<(String, Site)>,
    run_paths: Vec<Use>,
    functions: Vec<String>,
    assigned: Vec<String>,
}

impl BodyReading {
    /// Reads the shell block `block`, the `index`th of the body.
    fn block(&mut self, index: usize, block: &CodeBlock, settings: &Settings) {
        let read = BlockText::of(block);
        let text = &read.text;
        let (found, paths) = shell::commands_and_paths(text);
        let setup = std::iter::once(&block.section)
            .chain(&block.outer_sections)
            .any(|title| known::is_setup_section(title));
        for (name, at) in found {
            let line_rest = text[at + name.len()..].lines().next().unwrap_or("");
            if !setup
                && !known::is_install(&name, line_rest)
                && !known::is_tool_call(&name, line_rest)
            {
                let site = read.site(at, 1);
                let block = index;
                let piped = reads_a_pipe(&text[..at]);
                self.commands.push(BodyCommand {
                    name,
                    site,
                    block,
                    piped,
                });
            }
        }
        // A block that sources a file reads what that file sets, not the environment; one in
        // a setup or optional section reads what only that setup or option needs.
        let sources = text.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with("source ") || l.starts_with(". ")
        });
        for (name, at) in shell::env_refs(text) {
            if !sources && !setup && settings.holds(&name) && !settings.is_optional(&name) {
                self.env_refs.push((name, read.site(at, 1)));
            }
        }
        for (path, at) in paths {
            let site = read.site(at, path.len());
            self.run_paths.push(Use { name: path, site });
        }
        self.functions.extend(
            shell::functions_defined(text)
                .into_iter()
                .map(str::to_owned),
        );
        self.assigned
            .extend(shell::assigned_names(text).into_iter().map(str::to_owned));
    }
}

impl Uses {
    /// Collects what is used in the body's code blocks and in `scripts`: the path and text of
    /// each file [`reads_as_script`] picks that is UTF-8, in listing order.
    pub fn collect<'s>(
        body: &Body,
        body_text: &str,
        scripts: impl IntoIterator<Item = (&'s str, &'s str)>,
    ) -> Uses {
        let settings = Settings::of(body, body_text);
        let mut reading = BodyReading::default();
        for (index, block) in body.code_blocks.iter().filter(|b| is_shell(b)).enumerate() {
            reading.block(index, block, &settings);
        }
        let BodyReading {
            commands,
            env_refs,
            run_paths,
            functions,
            mut assigned,
        } = reading;
        let mut uses = Uses {
            text: body_text.to_owned(),
            run_paths,
            ..Uses::default()
        };
        let mut functions = functions;
        let script_commands = uses.read_scripts(scripts, &mut assigned, &mut functions);
        let script_names: Vec<&str> = script_commands.iter().map(|(n, _)| n.as_str()).collect();
        // A command in the prose's inline code (`git fetch --prune`) is a use too.
        let inline: Vec<&str> = body
            .inline_code
            .iter()
            .filter_map(|(code, _)| code.split_whitespace().next())
            .collect();
        let defined = |name: &str| functions.iter().any(|f| f == name);
        let elsewhere = |name: &str| script_names.contains(&name) || inline.contains(&name);
        for c in needed(commands, defined, elsewhere) {
            uses.add_command(c.name, c.site);
        }
        for (name, site) in script_commands {
            uses.add_command(name, site);
        }
        // A variable one block assigns and another reads is the skill's own, not the
        // environment's. A variable read once is not a side use as a command is: a key is
        // often read once into the name every request uses (`API_KEY="${BYBIT_API_KEY}"`).
        for (name, site) in env_refs {
            if !assigned.contains(&name) && !known::is_placeholder_env(&name) {
                uses.add_env(name, site);
            }
        }
        uses
    }

    /// Reads `scripts`: their env vars and text go into `self`, the names they assign into
    /// `assigned`, the shell functions they define (which a body that sources the script calls)
    /// into `functions`; returns the commands they run.
    fn read_scripts<'s>(
        &mut self,
        scripts: impl IntoIterator<Item = (&'s str, &'s str)>,
        assigned: &mut Vec<String>,
        functions: &mut Vec<String>,
    ) -> Vec<(String, Site)> {
        let mut commands = Vec::new();
        for (path, text) in scripts {
            let Some(lang) = scripts::language(path, text) else {
                continue;
            };
            let site = |at: usize| {
                let position = skill_model::span::Position::of(text, at);
                Site::Script {
                    path: path.to_owned(),
                    line: position.line,
                    column: position.column,
                }
            };
            for (name, at) in scripts::commands(lang, text) {
                commands.push((name, site(at)));
            }
            for (name, at) in scripts::env_vars(lang, text) {
                self.add_env(name, site(at));
            }
            assigned.extend(shell::assigned_names(text).into_iter().map(str::to_owned));
            if lang == scripts::Language::Shell {
                functions.extend(
                    shell::functions_defined(text)
                        .into_iter()
                        .map(str::to_owned),
                );
            }
            self.text.push('\n');
            self.text.push_str(text);
            self.text.push_str(interpreter_hint(lang));
        }
        commands
    }

    fn add_command(&mut self, name: String, site: Site) {
        let name = name.strip_suffix(".exe").map(str::to_owned).unwrap_or(name);
        if !known::is_common_command(&name)
            && !known::is_agent_command(&name)
            && known::is_program_name(&name)
            && !self.commands.iter().any(|u| u.name == name)
        {
            self.commands.push(Use { name, site });
        }
    }

    fn add_env(&mut self, name: String, site: Site) {
        if !known::is_common_env(&name) && !self.env.iter().any(|u| u.name == name) {
            self.env.push(Use { name, site });
        }
    }

    /// True when `name` appears as a whole word anywhere in the body or scripts.
    pub fn mentions(&self, name: &str) -> bool {
        mentions_in(&self.text, name)
    }

    /// [`Uses::mentions`] in any case; `lower` is lower case.
    pub(crate) fn mentions_ignoring_case(&self, lower: &str) -> bool {
        let text = self.lowered.get_or_init(|| self.text.to_lowercase());
        mentions_in(text, lower)
    }
}

/// True when `name` appears in `text` as a whole word.
pub(crate) fn mentions_in(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        let boundary =
            |c: Option<char>| c.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '-'));
        boundary(before) && boundary(after)
    })
}

/// Parts of a variable's name that say it holds a setting the user provides (a key, a token, an
/// address), rather than a value the reader fills in (`$POD`, `${CLUSTER}`, `$AUDIO_PATH`).
const SETTING_WORDS: &[&str] = &[
    "KEY",
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "API",
    "AUTH",
    "CREDENTIAL",
    "_URL",
    "URI",
    "ENDPOINT",
    "ACCOUNT",
    "_ID",
    "EMAIL",
    "USERNAME",
    "LOGIN",
    "WEBHOOK",
    "DSN",
    "PROFILE",
    "REGION",
    "ORG",
    "TENANT",
];

/// The names a body gives as settings besides their use in code: those its prose names outside
/// code ("set `FOO_HOME`", an env table) and those a line exports (`export FOO_HOME=...`).
/// Built once per body by counting upper-case words, so every variable is looked up in
/// constant time.
struct Settings<'a> {
    named: std::collections::HashSet<&'a str>,
    /// Names the body documents as optional: declaring them would hide the skill from every
    /// user who goes without.
    optional: std::collections::HashSet<&'a str>,
}

impl<'a> Settings<'a> {
    fn of(body: &'a Body, body_text: &'a str) -> Settings<'a> {
        let mut count: std::collections::HashMap<&str, isize> = Default::default();
        for w in naming_words(body_text) {
            *count.entry(w).or_default() += 1;
        }
        for w in body
            .code_blocks
            .iter()
            .flat_map(|b| &b.pieces)
            .flat_map(|(t, _)| naming_words(t))
        {
            *count.entry(w).or_default() -= 1;
        }
        let mut named: std::collections::HashSet<&str> = count
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(w, _)| w)
            .collect();
        named.extend(
            body_text
                .match_indices("export ")
                .filter_map(|(at, _)| body_text[at + 7..].split_once('=').map(|(w, _)| w))
                .filter(|w| shell::is_env_name(w)),
        );
        let optional = optional_parts(body_text)
            .into_iter()
            .flat_map(upper_words)
            .collect();
        Settings { named, optional }
    }

    /// Whether the body documents `name` as optional.
    fn is_optional(&self, name: &str) -> bool {
        self.optional.contains(name)
    }

    /// Whether a variable a body's code block reads is a setting of the environment: its name
    /// says so ([`SETTING_WORDS`]), or the body names it as one.
    fn holds(&self, name: &str) -> bool {
        SETTING_WORDS.iter().any(|w| name.contains(w)) || self.named.contains(name)
    }
}

/// The parts of a body that document something as optional: a sentence that says "optional", a
/// row of a table whose "Required" column says no or that says "optional", and every line of a
/// section whose heading (or an enclosing one) says "optional" ("### 3. (Optional) Add Your
/// Beeper Token").
fn optional_parts(body_text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut headings: Vec<(usize, bool)> = Vec::new();
    let mut fence: Option<&str> = None;
    let mut required_column: Option<usize> = None;
    for line in body_text.lines() {
        let trimmed = line.trim_start();
        if let Some(open) = fence {
            fence = (!trimmed.starts_with(open)).then_some(open);
        } else if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
        } else if let Some(level) = heading_level(trimmed) {
            headings.retain(|(l, _)| *l < level);
            headings.push((level, says_optional(trimmed)));
            continue;
        }
        let row = fence.is_none() && trimmed.starts_with('|');
        if !row {
            required_column = None;
        }
        if headings.iter().any(|(_, optional)| *optional) {
            parts.push(line);
        } else if row {
            let cells: Vec<&str> = trimmed.split('|').map(str::trim).collect();
            if let Some(i) = cells
                .iter()
                .position(|c| c.eq_ignore_ascii_case("required"))
            {
                required_column = Some(i);
            } else if says_optional(trimmed)
                || required_column
                    .and_then(|i| cells.get(i))
                    .is_some_and(|c| c.eq_ignore_ascii_case("no"))
            {
                parts.push(line);
            }
        } else {
            parts.extend(line.split(". ").filter(|s| says_optional(s)));
        }
    }
    parts
}

fn says_optional(text: &str) -> bool {
    text.to_ascii_lowercase().contains("optional")
}

/// The level of a Markdown ATX heading (`## Setup` is 2), or nothing for another line.
fn heading_level(line: &str) -> Option<usize> {
    let level = line.bytes().take_while(|b| *b == b'#').count();
    ((1..=6).contains(&level) && line[level..].starts_with(' ')).then_some(level)
}

/// The upper-case words of `text` that could name a setting: not a use (`$POD`, `${POD}` in
/// an example command) and not on a heading or comment line (`## 1. CLUSTER OPERATIONS`).
fn naming_words(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|line| !line.trim_start().starts_with('#'))
        .flat_map(upper_words)
}

/// The runs of upper-case letters, digits and `_` in `line` longer than one, except those
/// right after `$` or `${`.
fn upper_words(line: &str) -> impl Iterator<Item = &str> {
    let is_word = |b: u8| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_';
    let bytes = line.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            if !is_word(bytes[i]) {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && is_word(bytes[i]) {
                i += 1;
            }
            let used = bytes[..start].ends_with(b"$") || bytes[..start].ends_with(b"${");
            if i - start > 1 && !used {
                // Only ASCII bytes were matched, so both ends are character boundaries.
                return Some(&line[start..i]);
            }
        }
        None
    })
}

/// Interpreters a script's language implies, counted as mentioned for `unused-requirement`.
fn interpreter_hint(lang: scripts::Language) -> &'static str {
    match lang {
        scripts::Language::Shell => "\nbash sh\n",
        scripts::Language::Python => "\npython3 python uv pip\n",
        scripts::Language::Node => "\nnode npx npm bun deno\n",
    }
}

/// The commands of `uses` that tell what the skill needs: not those `own` says are the skill's
/// own (a function the body defines), and neither a side use (a command seen in one block of a
/// body with [`SIDE_USE_MIN_BLOCKS`] or more) nor an output filter the body only ever pipes
/// another command's output into (`| jq -r .count`, [`known::is_output_filter`]) unless
/// `elsewhere` runs it too (a script, a command in the prose). In the labelled corpus findings,
/// every such filter was an optional extra.
fn needed(
    uses: Vec<BodyCommand>,
    own: impl Fn(&str) -> bool,
    elsewhere: impl Fn(&str) -> bool,
) -> impl Iterator<Item = BodyCommand> {
    // Blocks that run something count; one of only exports or output does not.
    let blocks = uses
        .iter()
        .map(|u| u.block)
        .collect::<std::collections::BTreeSet<_>>()
        .len();
    let mut seen_in: std::collections::HashMap<&str, std::collections::BTreeSet<usize>> =
        std::collections::HashMap::new();
    for u in &uses {
        seen_in.entry(&u.name).or_default().insert(u.block);
    }
    let side = |name: &str| {
        blocks >= SIDE_USE_MIN_BLOCKS && seen_in.get(name).is_some_and(|b| b.len() == 1)
    };
    let filter = |name: &str| {
        known::is_output_filter(name) && uses.iter().filter(|u| u.name == name).all(|u| u.piped)
    };
    let keep: Vec<bool> = uses
        .iter()
        .map(|u| !own(&u.name) && (elsewhere(&u.name) || !(side(&u.name) || filter(&u.name))))
        .collect();
    uses.into_iter()
        .zip(keep)
        .filter_map(|(u, k)| k.then_some(u))
}

/// A block is shell when labelled so, or unlabelled and starting like a command line.
fn is_shell(block: &CodeBlock) -> bool {
    match block.lang.as_deref() {
        Some(lang) => SHELL_LANGS.contains(&lang),
        None => block
            .lines()
            .iter()
            .find(|(l, _)| !l.trim().is_empty())
            .is_some_and(|(l, _)| {
                let l = l.trim_start();
                l.starts_with("$ ")
                    || l.split_whitespace().next().is_some_and(|w| {
                        known::COMMON_COMMANDS.contains(&w)
                            && !matches!(w, "[" | "[[" | "time" | "test" | "type")
                    }) && !l.ends_with('.')
            }),
    }
}
