//! Commands that destroy wholesale (`destructive-command`, an error): a recursive delete of the
//! home folder or the filesystem, a `find` from there that deletes with nothing narrowing it,
//! a disk wiped with zeros or random bytes or formatted (writing an image to a USB stick is
//! what `dd` is for), a fork bomb that is started. Read in scripts and in Markdown code blocks,
//! one command at a time; comments are left alone.

use super::Finding;
use super::flow::logical_lines;
use super::pattern::Pattern;
use super::text::{Kind, Text, excerpt, family};
use crate::rulebook::DESTRUCTIVE_COMMAND;
use skill_model::Span;
use std::ops::Range;
use std::sync::LazyLock;

/// Paths whose recursive deletion takes the user's files or the system with it.
const WHOLESALE: &[&str] = &[
    "/",
    "/*",
    "/.",
    "~",
    "~/",
    "~/*",
    "~/.",
    "$HOME",
    "$HOME/",
    "$HOME/*",
    "${HOME}",
    "${HOME}/",
    "${HOME}/*",
    "/home",
    "/home/",
    "/home/*",
    "/Users",
    "/Users/",
    "/Users/*",
    "/root",
    "/root/",
    "$env:USERPROFILE",
    "$env:USERPROFILE\\",
    "$env:USERPROFILE\\*",
    "C:\\",
    "C:\\*",
    "C:/",
    "~\\",
];

/// `find` tests that narrow what a delete reaches.
const NARROWING: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
    "-regex",
    "-iregex",
    "-lname",
    "-ilname",
];

/// A disk overwritten or formatted, or a fork bomb.
static DEVICE_OR_BOMB: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r"(?-u:\b)dd(?-u:\b)[^\n;|&]*[[:space:]]if=/dev/(?:zero|u?random)[^\n;|&]*[[:space:]]of=/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk)[[:alnum:]]*|(?-u:\b)dd(?-u:\b)[^\n;|&]*[[:space:]]of=/dev/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk)[[:alnum:]]*[^\n;|&]*[[:space:]]if=/dev/(?:zero|u?random)|(?-u:\b)mkfs(?:\.[[:alnum:]]+)?[[:space:]]+(?:-[^\n;|&]*[[:space:]])?/dev/|:[[:space:]]*\([[:space:]]*\)[[:space:]]*\{[[:space:]]*:[[:space:]]*\|[[:space:]]*:[[:space:]]*&[[:space:]]*\}[[:space:]]*;[[:space:]]*:",
    )
    .expect("a valid device pattern")
});

/// Flags commands that destroy the home folder, the filesystem or a disk.
pub(crate) fn check_destructive(text: &Text, out: &mut Vec<Finding>) {
    if !text.triggered(family::DESTROY) {
        return;
    }
    for (start, statement) in logical_lines(text.text, false, text.kind == Kind::Script) {
        let line = text.line_at(start);
        let l = statement.as_str();
        if !runs_here(text, &line, l) {
            continue;
        }
        let what = DEVICE_OR_BOMB
            .find(l)
            .map(|_| "overwrites a disk or exhausts the machine")
            .or_else(|| commands(l).find_map(destroys))
            .or_else(|| {
                (text.kind == Kind::Script)
                    .then(|| commands(l).find_map(|w| deletes_from_an_unset_root(text.text, &w)))
                    .flatten()
            });
        if let Some(what) = what {
            out.push(text.finding(
                &DESTRUCTIVE_COMMAND,
                Span::new(line.start, line.end),
                format!("{what}: `{}`", excerpt(l)),
                "one run deletes what the user cannot get back; cleanup written this way is how \
                 a skill that looks harmless wipes a machine",
                "delete only what the skill made: a folder it created, or files by name \
                 (`find \"$dir\" -name '*.tmp' -delete`)",
            ));
        }
    }
    if let Some(line) = precious_in_cleanup(text) {
        out.push(text.finding(
            &DESTRUCTIVE_COMMAND,
            Span::new(line.start, line.end),
            format!(
                "deletes repositories or keys across the home folder, listed among build \
                 artefacts: `{}`",
                excerpt(&text.text[line])
            ),
            "a .git folder is a repository's whole history and .ssh or .gnupg hold keys; \
             none of them is rebuilt like node_modules, and a cleanup that walks the home \
             folder reaches every one",
            "list only folders a build regenerates, and skip .git, .ssh and .gnupg by name",
        ));
    }
}

/// A recursive delete in any language a script is written in.
static RECURSIVE_DELETE: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r"(?i)(?-u:\b)rm[[:space:]]+(?:-[[:alpha:]]*r|--recursive)|shutil\.rmtree|(?:^|[[:space:]])-delete(?-u:\b)|-exec(?:dir)?[[:space:]]+rm(?-u:\b)|remove-item(?-u:\b)[^\n]*-recurse|rmsync\([^\n]*recursive|fileutils\.rm_r|os\.removeall\(",
    )
    .expect("a valid delete pattern")
});

/// A walk from the home folder: `find ~`, `os.walk(Path.home())`, `Path.home().rglob(…)`.
static WALKS_HOME: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r#"(?-u:\b)find[[:space:]]+['"]?(?:~|\$HOME|\$\{HOME\}|/home|/Users)(?:/)?['"]?[[:space:]]|(?:walk|glob|rglob|scandir)\([^\n]*(?:home\(\)|expanduser\([[:space:]]*['"]~['"]?|homedir\(\))|(?:home\(\)|homedir\(\))[^\n]*\.(?:r?glob|walk)\("#,
    )
    .expect("a valid walk pattern")
});

/// A list of names that rebuild themselves (`node_modules`, `__pycache__`, `dist`...) with a
/// folder no build makes in it: a repository's history or a key store.
static PRECIOUS_AMONG_ARTEFACTS: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r#"(?:^|[[:space:](\[,='"])\.(?:git|ssh|gnupg)['"]?(?:[[:space:]),\]]|$)"#)
        .expect("a valid precious-name pattern")
});
static ARTEFACT: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"(?-u:\b)(?:node_modules|__pycache__|\.pytest_cache|\.mypy_cache|\.gradle|\.tox|\.next|\.turbo|\.venv|\.parcel-cache)(?-u:\b)")
        .expect("a valid artefact pattern")
});
/// Words that keep a name out of a delete rather than in it.
static EXCLUDES: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"(?i)exclude|prune|-not(?-u:\b)|![[:space:]]|skip|ignore|keep|protect|never")
        .expect("a valid exclusion pattern")
});

/// A cleanup script that walks the home folder deleting folders by name, where the names to
/// delete hide `.git`, `.ssh` or `.gnupg` among build artefacts: the line of that list.
fn precious_in_cleanup(text: &Text) -> Option<Range<usize>> {
    if text.kind != Kind::Script
        || !RECURSIVE_DELETE.is_match(text.text)
        || !WALKS_HOME.is_match(text.text)
    {
        return None;
    }
    for (start, statement) in logical_lines(text.text, true, text.kind == Kind::Script) {
        let t = statement.trim_start();
        if t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        if PRECIOUS_AMONG_ARTEFACTS.is_match(&statement)
            && ARTEFACT.find_iter(&statement).count() >= 2
            && !EXCLUDES.is_match(&statement)
        {
            return Some(text.line_at(start));
        }
    }
    None
}

/// Whether the line is run rather than discussed: in a script, not a comment; in Markdown,
/// inside a fenced code block.
fn runs_here(text: &Text, line: &Range<usize>, l: &str) -> bool {
    let t = l.trim_start();
    if t.starts_with('#') || t.starts_with("//") || t.starts_with("REM ") {
        return false;
    }
    match text.kind {
        Kind::Script => true,
        Kind::SkillMd | Kind::Markdown => in_block(text, line),
        Kind::Data => false,
    }
}

/// Whether `line` is in a fenced code block rather than inline code in prose (a cheat-sheet's
/// marked examples are dropped with every rule's, above).
fn in_block(text: &Text, line: &Range<usize>) -> bool {
    let code = &text.markdown().code;
    let i = code.partition_point(|c| c.end <= line.start);
    code.get(i)
        .is_some_and(|c| c.start <= line.start && text.text[c.clone()].contains('\n'))
}

/// The commands of a statement: split where the shell starts a new one, each as its words with
/// quotes and subshell parentheses removed and a leading `sudo` dropped. `find`'s grouping
/// (`\\(`, `(`) stays a word of its own.
fn commands(line: &str) -> impl Iterator<Item = Vec<String>> + '_ {
    line.split([';', '|', '&', '`'])
        .map(|segment| {
            segment
                .split_whitespace()
                .map(|w| {
                    let w = w.trim_matches(['"', '\'']);
                    if matches!(w, "(" | "\\(" | ")" | "\\)") {
                        w
                    } else {
                        w.trim_start_matches('(').trim_end_matches(')')
                    }
                })
                .filter(|w| !w.is_empty())
                .skip_while(|w| *w == "sudo" || *w == "$" || w.starts_with("$("))
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter(|words| !words.is_empty())
}

/// What the command `words` destroys, if it does.
fn destroys(words: Vec<String>) -> Option<&'static str> {
    let (command, args) = words.split_first()?;
    match command.to_ascii_lowercase().as_str() {
        "rm" => recursive_delete_of_everything(args, |f| {
            f == "--recursive" || (!f.starts_with("--") && f.contains(['r', 'R']))
        }),
        "remove-item" | "ri" | "del" | "rd" | "rmdir" => {
            recursive_delete_of_everything(args, |f| f.eq_ignore_ascii_case("-recurse"))
        }
        "find" => unnarrowed_find(args),
        _ => None,
    }
}

fn recursive_delete_of_everything(
    args: &[String],
    recursive: impl Fn(&str) -> bool,
) -> Option<&'static str> {
    let flags = || args.iter().filter(|a| a.starts_with('-'));
    if !flags().any(|f| recursive(f)) {
        return None;
    }
    let everything = flags().any(|f| f == "--no-preserve-root")
        || args
            .iter()
            .any(|a| !a.starts_with('-') && WHOLESALE.contains(&a.as_str()));
    everything.then_some("deletes the home folder or the whole filesystem")
}

/// An `rm -r` of `$NAME/…` in a script that never gives `NAME` a value nor guards it
/// (`${NAME:?}`, `set -u`): when the variable is unset or empty, the path starts at `/`.
/// One assignment is followed (`T="${ROOT}/"` then `rm -rf "$T"*`).
fn deletes_from_an_unset_root(script: &str, words: &[String]) -> Option<&'static str> {
    let (command, args) = words.split_first()?;
    let recursive =
        |f: &String| f == "--recursive" || (!f.starts_with("--") && f.contains(['r', 'R']));
    if command != "rm" || !args.iter().any(|a| a.starts_with('-') && recursive(a)) {
        return None;
    }
    if script.contains("set -u") || script.contains("nounset") || script.contains("set -eu") {
        return None;
    }
    let unset = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .filter_map(|a| leading_variable(a))
        .any(|name| unset_root(script, &name, 1));
    unset.then_some("deletes from `/` when a variable it never sets is empty")
}

/// Whether the value of `name` in `script` may be empty at a path's start: never assigned or
/// guarded, or assigned (within `depth` more steps) a path that starts with such a variable.
fn unset_root(script: &str, name: &str, depth: usize) -> bool {
    if script.contains(&format!("${{{name}:?")) || script.contains(&format!("${{{name}:-")) {
        return false;
    }
    let assigned = script.lines().find_map(|line| {
        let line = line.trim_start();
        let line = line
            .strip_prefix("export ")
            .or_else(|| line.strip_prefix("local "))
            .unwrap_or(line);
        line.strip_prefix(name)?.strip_prefix('=')
    });
    match assigned {
        None => !SETS_A_NAME
            .find_iter(script)
            .any(|m| m.as_str().ends_with(name)),
        Some(value) if depth > 0 => {
            let value = value.trim_matches(['"', '\'']);
            leading_variable(value).is_some_and(|inner| unset_root(script, &inner, depth - 1))
        }
        Some(_) => false,
    }
}

/// The variable a path starts with, when a `/` or a glob follows it: `$X/`, `${X}/`,
/// `"$X"*`. Not the variables a shell always sets.
fn leading_variable(path: &str) -> Option<String> {
    let path = path.replace(['"', '\''], "");
    let rest = path.strip_prefix('$')?;
    let (name, after) = match rest.strip_prefix('{') {
        Some(braced) => {
            let end = braced.find('}')?;
            (&braced[..end], &braced[end + 1..])
        }
        None => {
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            (&rest[..end], &rest[end..])
        }
    };
    let valid = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !matches!(name, "HOME" | "PWD" | "USER" | "PATH");
    (valid && (after.starts_with('/') || after.starts_with('*'))).then(|| name.to_owned())
}

/// Ways a shell gives a variable a value besides `NAME=`: `read`, `for`, `getopts`, `declare`.
static SETS_A_NAME: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"(?-u:\b)(?:read(?:[[:space:]]+-[[:alpha:]]+)*|for|getopts[[:space:]]+[^[:space:]]+|declare(?:[[:space:]]+-[[:alpha:]]+)*|mapfile|readarray)[[:space:]]+[[:word:]]+")
        .expect("a valid set-name pattern")
});

/// A `find` that deletes more than its tests say: from the home folder or `/` with no test on
/// names or paths, or anywhere with an `-o` outside parentheses whose last alternative (the
/// only one `-delete` binds to) tests no name or path.
fn unnarrowed_find(args: &[String]) -> Option<&'static str> {
    let deletes = args.iter().any(|a| a == "-delete")
        || args
            .windows(2)
            .any(|w| matches!(w[0].as_str(), "-exec" | "-execdir") && w[1] == "rm");
    if !deletes {
        return None;
    }
    let narrows = |tests: &[String]| {
        tests
            .windows(2)
            .any(|w| NARROWING.contains(&w[1].as_str()) && !matches!(w[0].as_str(), "-not" | "!"))
            || tests
                .first()
                .is_some_and(|t| NARROWING.contains(&t.as_str()))
    };
    let grouped = args.iter().any(|a| a == "\\(" || a == "(");
    let last_or = args.iter().rposition(|a| a == "-o" || a == "-or");
    if last_or.is_some_and(|at| !grouped && !narrows(&args[at + 1..])) {
        return Some(
            "deletes more than its tests say: -delete binds only to the last alternative of \
             an -o without parentheses",
        );
    }
    let from_everything = args
        .iter()
        .take_while(|a| !a.starts_with(['-', '(', '!', '\\']))
        .any(|a| WHOLESALE.contains(&a.as_str()));
    (from_everything && !narrows(args))
        .then_some("deletes across the home folder or the filesystem")
}

/// Compiles the patterns of this file now (see [`super::preload`]).
pub(super) fn compile() {
    LazyLock::force(&DEVICE_OR_BOMB);
    LazyLock::force(&SETS_A_NAME);
    for pattern in [
        &RECURSIVE_DELETE,
        &WALKS_HOME,
        &PRECIOUS_AMONG_ARTEFACTS,
        &ARTEFACT,
        &EXCLUDES,
    ] {
        LazyLock::force(pattern);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(path: &str, text: &str) -> usize {
        let t = Text::new(path, text);
        let mut out = Vec::new();
        check_destructive(&t, &mut out);
        out.len()
    }

    #[test]
    fn wholesale_deletes_are_found() {
        for bad in [
            "rm -rf ~/\n",
            "sudo rm -fr \"$HOME\"\n",
            "rm -r --no-preserve-root /\n",
            "cd /tmp && rm -Rf /*\n",
            "find $HOME -size +1M -delete\n",
            "find ~ -name '*.log' -o -size +1M -delete\n",
            "find \"$ROOT\" -type f -mtime +14 \\\n  -name '*.log' -o -size +1M \\\n  -delete\n",
            "find / -type f -exec rm -f {} +\n",
            "find ~ \\( -size +1M \\) -delete\n",
            "Remove-Item -Recurse -Force $env:USERPROFILE\n",
            "dd if=/dev/zero of=/dev/sda bs=1M\n",
            "dd of=/dev/disk2 if=/dev/urandom\n",
            "mkfs.ext4 /dev/nvme0n1\n",
            ":(){ :|:& };:\n",
        ] {
            assert_eq!(count("scripts/clean.sh", bad), 1, "{bad}");
        }
    }

    #[test]
    fn a_delete_rooted_at_a_variable_the_script_never_sets() {
        let sh = "T=\"${CACHE_ROOT}/\"\nrm -rf \"$T\"*\n";
        assert_eq!(count("scripts/clean.sh", sh), 1);
        assert_eq!(count("scripts/clean.sh", "rm -rf \"$BUILD/\"\n"), 1);
        for fine in [
            "BUILD=./out\nrm -rf \"$BUILD/\"\n",
            "rm -rf \"${BUILD:?}/\"\n",
            "set -euo pipefail\nrm -rf \"$BUILD/\"\n",
            "read -r BUILD\nrm -rf \"$BUILD/\"\n",
            "for d in */; do rm -rf \"$d/\"; done\n",
            "rm -rf \"$HOME/.cache/tool\"\n",
            "rm -rf \"$BUILD\"\n",
        ] {
            assert_eq!(count("scripts/clean.sh", fine), 0, "{fine}");
        }
        // A Markdown block's `$BUILD/` is a placeholder for the reader.
        assert_eq!(count("SKILL.md", "```sh\nrm -rf \"$BUILD/\"\n```\n"), 0);
    }

    #[test]
    fn a_cleanup_of_the_home_folder_that_lists_git_among_artefacts() {
        let sh = "ARTEFACTS=(node_modules __pycache__ .git dist)\nfind \"$HOME\" -type d -prune -print0 | xargs -0 rm -rf\n";
        assert_eq!(count("scripts/clean.sh", sh), 1);
        let py = "NAMES = ['node_modules', '__pycache__', '.ssh']\nfor root, dirs, _ in os.walk(Path.home()):\n    for d in dirs:\n        if d in NAMES:\n            shutil.rmtree(os.path.join(root, d))\n";
        assert_eq!(count("scripts/clean.py", py), 1);
        for good in [
            // .git kept out by name.
            "find ~ -name .git -prune -o -name node_modules -name __pycache__ -exec rm -rf {} +\n",
            "SKIP=(.git node_modules .venv)\nfind \"$HOME\" -type d -name build -exec rm -rf {} +\n",
            // The project's own folder, not the home folder.
            "ARTEFACTS=(node_modules __pycache__ .git)\nfind . -type d -name x -exec rm -rf {} +\n",
        ] {
            assert_eq!(count("scripts/clean.sh", good), 0, "{good}");
        }
    }

    #[test]
    fn narrow_cleanups_and_discussion_are_left_alone() {
        for good in [
            "rm -rf ~/.cache/my-skill\n",
            "rm -rf \"$HOME/.local/share/tool/tmp\"\n",
            "rm ~/notes.txt\n",
            "find ~ -name '*.pyc' -delete\n",
            "find . -name '*.tmp' -o -name '*.bak' -delete\n",
            "find ~ -not -path '*/.git/*' -name '*.orig' -delete\n",
            "find ~ \\( -name '*.log' -o -name '*.tmp' \\) -mtime +30 -delete\n",
            "find $HOME/Downloads -size +1M -delete\n",
            "find ~ -size +1M\n",
            "# never run rm -rf ~/\n",
            "dd if=disk.img of=./copy.img\n",
            "dd if=kali.iso of=/dev/sdb bs=4M status=progress\n",
            "PATTERNS = [\":(){:|:&}\"]\n",
        ] {
            assert_eq!(count("scripts/clean.sh", good), 0, "{good}");
        }
        assert_eq!(count("SKILL.md", "Never run `rm -rf ~` here.\n"), 0);
        assert_eq!(count("SKILL.md", "Clean:\n\n```bash\nrm -rf ~/\n```\n"), 1);
        assert_eq!(count("notes.txt", "rm -rf ~/\n"), 0);
    }
}
