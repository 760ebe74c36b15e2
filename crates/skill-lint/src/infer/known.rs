//! Commands every POSIX system has and env vars every shell or agent provides: never reported
//! as undeclared requirements.

use std::collections::HashSet;
use std::sync::LazyLock;

/// Commands of POSIX, coreutils and the usual base system, plus shell builtins and keywords.
pub(crate) const COMMON_COMMANDS: &[&str] = &[
    // shells and builtins
    "sh",
    "bash",
    "alias",
    "bg",
    "break",
    "builtin",
    "cd",
    "command",
    "continue",
    "declare",
    "dirs",
    "disown",
    "echo",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fg",
    "getopts",
    "hash",
    "help",
    "history",
    "jobs",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
    // coreutils and POSIX utilities
    "arch",
    "awk",
    "base32",
    "base64",
    "basename",
    "cat",
    "chgrp",
    "chmod",
    "chown",
    "cksum",
    "clear",
    "cmp",
    "comm",
    "cp",
    "csplit",
    "cut",
    "date",
    "dd",
    "df",
    "diff",
    "dirname",
    "du",
    "egrep",
    "env",
    "expand",
    "expr",
    "factor",
    "fgrep",
    "file",
    "find",
    "fmt",
    "fold",
    "grep",
    "groups",
    "gunzip",
    "gzip",
    "head",
    "hostname",
    "iconv",
    "id",
    "install",
    "join",
    "kill",
    "less",
    "ln",
    "locale",
    "logger",
    "logname",
    "ls",
    "md5sum",
    "mkdir",
    "mkfifo",
    "mktemp",
    "more",
    "mv",
    "nice",
    "nl",
    "nohup",
    "nproc",
    "od",
    "paste",
    "patch",
    "pathchk",
    "pr",
    "ps",
    "printenv",
    "ptx",
    "readlink",
    "realpath",
    "rm",
    "rmdir",
    "sed",
    "seq",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "shasum",
    "shred",
    "shuf",
    "sleep",
    "sort",
    "split",
    "stat",
    "stty",
    "sum",
    "sync",
    "tac",
    "tail",
    "tar",
    "tee",
    "time",
    "timeout",
    "touch",
    "tput",
    "tr",
    "truncate",
    "tsort",
    "tty",
    "uname",
    "unexpand",
    "uniq",
    "unlink",
    "uptime",
    "users",
    "wc",
    "which",
    "who",
    "whoami",
    "xargs",
    "yes",
    "zcat",
    "[",
    "[[",
];

/// Shell keywords: not commands themselves; what follows some of them is.
pub(crate) const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac",
    "in", "function", "select", "!", "{", "}", "]]", "coproc",
];

/// Env vars every shell, OS or agent sets.
pub(crate) const COMMON_ENV: &[&str] = &[
    "HOME",
    "PATH",
    "USER",
    "PWD",
    "OLDPWD",
    "SHELL",
    "TERM",
    "LANG",
    "LANGUAGE",
    "TMPDIR",
    "TMP",
    "TEMP",
    "HOSTNAME",
    "HOST",
    "UID",
    "EUID",
    "GID",
    "PPID",
    "RANDOM",
    "SECONDS",
    "LINENO",
    "IFS",
    "PS1",
    "PS2",
    "PS4",
    "SHLVL",
    "OSTYPE",
    "MACHTYPE",
    "HOSTTYPE",
    "EDITOR",
    "VISUAL",
    "PAGER",
    "DISPLAY",
    "TZ",
    "LOGNAME",
    "MAIL",
    "COLUMNS",
    "LINES",
    "REPLY",
    "OPTARG",
    "OPTIND",
    "FUNCNAME",
    "PIPESTATUS",
    "BASHPID",
    "CI",
    "NO_COLOR",
    "DEBUG",
    "VERBOSE",
    // Claude Code substitutes these in skill bodies.
    "ARGUMENTS",
];

/// Prefixes of env var families set by the OS, the shell or the agent running the skill.
pub(crate) const COMMON_ENV_PREFIXES: &[&str] = &[
    "LC_",
    "XDG_",
    "BASH_",
    "CLAUDE_",
    "OPENCLAW_",
    "NANOBOT_",
    "CODEX_",
];

/// True for a command every system has.
pub(crate) fn is_common_command(name: &str) -> bool {
    // Asked for every command word of every script and shell block: a set, not the list.
    static COMMON: LazyLock<HashSet<&str>> =
        LazyLock::new(|| COMMON_COMMANDS.iter().chain(KEYWORDS).copied().collect());
    COMMON.contains(name)
}

/// True for an env var every shell or agent provides.
pub(crate) fn is_common_env(name: &str) -> bool {
    COMMON_ENV.contains(&name) || COMMON_ENV_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// Prefixes of the programs whose names are joined with underscores (`pg_dump`,
/// `mysql_config`): the exceptions to [`is_program_name`].
const UNDERSCORED_PROGRAMS: &[&str] = &["pg_", "mysql_"];

/// Whether `name` can be a program on PATH. Installed programs join words with hyphens
/// (`docker-compose`, `yt-dlp`); a name joined with underscores alone (`sage_rpc`,
/// `web_search`, `process_data`) is a shell function, an agent's or an MCP server's tool, or a
/// placeholder in an example.
pub(crate) fn is_program_name(name: &str) -> bool {
    !name.contains('_')
        || name.contains('-')
        || UNDERSCORED_PROGRAMS.iter().any(|p| name.starts_with(p))
}

/// The words an env var made for one example is named with. A variable the user must set is
/// named for the service it configures (`PAPERLESS_TOKEN`, `GEMINI_API_KEY`), since every
/// skill shares the user's environment; one named with these alone (`$API_KEY`, `${PORT}`,
/// `$MEDIA_ID`) is a value the reader fills in.
const PLACEHOLDER_WORDS: &[&str] = &[
    "ACCESS",
    "ACCOUNT",
    "API",
    "APP",
    "AUDIO",
    "AUTH",
    "BASE",
    "BOT",
    "BRANCH",
    "BUCKET",
    "CHANNEL",
    "CHAT",
    "CLIENT",
    "CLUSTER",
    "CONFIG",
    "DATA",
    "DB",
    "DIR",
    "DOMAIN",
    "EMAIL",
    "ENDPOINT",
    "FILE",
    "GROUP",
    "HOST",
    "ID",
    "IMAGE",
    "INPUT",
    "KEY",
    "MEDIA",
    "MODEL",
    "NAME",
    "NAMESPACE",
    "NS",
    "ORG",
    "OUTPUT",
    "PASSWORD",
    "PATH",
    "PORT",
    "PROJECT",
    "QUERY",
    "REGION",
    "REPO",
    "RESOURCE",
    "RG",
    "RPC",
    "SECRET",
    "SERVER",
    "SERVICE",
    "SKILL",
    "SVC",
    "TOKEN",
    "URI",
    "URL",
    "USER",
    "USERNAME",
    "VERSION",
    "VIDEO",
    "WEBHOOK",
    "WORKSPACE",
    "ZONE",
];

/// Whether the env var `name` is a fill-in value of an example: see [`PLACEHOLDER_WORDS`].
pub(crate) fn is_placeholder_env(name: &str) -> bool {
    name.split('_')
        .all(|word| PLACEHOLDER_WORDS.binary_search(&word).is_ok())
}

/// Programs that reshape, search or compute over the output piped into them. A skill that only
/// pipes an answer through one (`| jq -r .count`, `| bc -l`) works without it: the agent reads
/// the answer as it is.
const OUTPUT_FILTERS: &[&str] = &[
    "jq", "yq", "gron", "fx", "jless", "dasel", "xq", "xmllint", "mlr", "csvlook", "column", "bc",
    "rg", "ag", "bat", "less", "fzf",
];

/// Whether `name` is one of the [`OUTPUT_FILTERS`].
pub(crate) fn is_output_filter(name: &str) -> bool {
    OUTPUT_FILTERS.contains(&name)
}

/// The agents' own command-line tools: a skill that runs `openclaw cron add` runs inside that
/// agent, whose command is there whenever the skill is. `clawdhub` is ClawHub's CLI under its
/// earlier name.
const AGENT_COMMANDS: &[&str] = &[
    "openclaw", "clawdbot", "moltbot", "clawdis", "clawhub", "clawdhub", "nanobot",
];

/// True for an agent's own command-line tool.
pub(crate) fn is_agent_command(name: &str) -> bool {
    AGENT_COMMANDS.contains(&name)
}

/// True when `command` followed by `rest` is an agent's tool called in the pseudo-syntax skills
/// write for it (`process action:log sessionId:X`, `message action=send ...`): a tool the model
/// calls, not a command on PATH. A program of the same name run as one (`tts --text hi`) is not.
pub(crate) fn is_tool_call(command: &str, rest: &str) -> bool {
    let Some(first) = rest.split_whitespace().next() else {
        return false;
    };
    let keyed = first.split_once([':', '=']).is_some_and(|(key, value)| {
        !key.is_empty()
            && !value.is_empty()
            && key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
    });
    keyed
        && skill_model::agents::AGENTS
            .iter()
            .any(|a| skill_model::agents::facts(*a).tools.contains(&command))
}

/// Package managers and the words after them that install something: `pip install x` is run
/// once, to get `x`, not each time the skill is used.
const INSTALLERS: &[(&str, &[&str])] = &[
    ("pip", &["install"]),
    ("pip3", &["install"]),
    ("pipx", &["install"]),
    ("uv", &["pip", "tool", "add", "sync"]),
    ("npm", &["install", "i", "ci", "add"]),
    ("pnpm", &["install", "i", "add"]),
    ("yarn", &["install", "add", "global"]),
    ("bun", &["install", "i", "add"]),
    ("brew", &["install", "tap", "upgrade"]),
    ("cargo", &["install", "add", "binstall"]),
    ("go", &["install", "get"]),
    ("gem", &["install"]),
    ("apt", &["install"]),
    ("apt-get", &["install"]),
    ("dnf", &["install"]),
    ("yum", &["install"]),
    ("apk", &["add"]),
    ("pacman", &["-S", "-Syu"]),
    ("conda", &["install"]),
    ("mamba", &["install"]),
    ("snap", &["install"]),
    ("choco", &["install"]),
    ("winget", &["install"]),
    ("scoop", &["install"]),
    ("port", &["install"]),
    ("nix-env", &["-i", "-iA"]),
    ("composer", &["require", "install"]),
];

/// True when `command` followed by `rest` (the text after it on its line) installs a package.
pub(crate) fn is_install(command: &str, rest: &str) -> bool {
    let Some((_, verbs)) = INSTALLERS.iter().find(|(name, _)| *name == command) else {
        return false;
    };
    rest.split_whitespace()
        .find(|w| !w.starts_with('-') || verbs.contains(w))
        .is_some_and(|w| verbs.contains(&w))
}

/// Words of a section title whose code blocks are run once or only sometimes (installing,
/// setting up, troubleshooting, optional extras): their commands are not what the skill
/// needs each time it runs.
const SETUP_SECTION_WORDS: &[&str] = &[
    "install",
    "setup",
    "set up",
    "set-up",
    "prerequisite",
    "requirement",
    "dependenc",
    "troubleshoot",
    "optional",
    "uninstall",
    "development",
    "contributing",
    "build from source",
    "alternative",
    // Companion tools shown beside the skill's own ("Integration Examples > With ripgrep"),
    // and the author's checks of the skill itself ("For Developers > Manual Testing"). A bare
    // "integration" is left out: it is often the skill's own name ("Zoho Email Integration").
    "integration example",
    "integration pattern",
    "integration with",
    "shell integration",
    "with other tools",
    "for developers",
    "for skill authors",
    "for maintainers",
    "manual testing",
    "testing with",
];

/// Whole section titles of the same kind, too common as words to match inside a title.
const SETUP_SECTION_TITLES: &[&str] = &["testing", "tests", "integrations"];

/// True for the title of a section of one-off or optional commands.
pub(crate) fn is_setup_section(title: &str) -> bool {
    SETUP_SECTION_WORDS.iter().any(|w| title.contains(w))
        || SETUP_SECTION_TITLES.contains(&title.trim())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholder_words_are_sorted_for_binary_search() {
        assert!(PLACEHOLDER_WORDS.is_sorted());
        assert!(is_placeholder_env("API_KEY") && is_placeholder_env("PORT"));
        assert!(!is_placeholder_env("GEMINI_API_KEY") && !is_placeholder_env("DATABASE_URL"));
    }
}
