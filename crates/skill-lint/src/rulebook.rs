//! The rule table: every lint rule's stable code, slug, default severity, per-target
//! severities, one-line summary and the documentation `skill explain` prints. Checks live in
//! `rules/`; this file is the single list a reader scans to know what lint can say.

use super::diagnostic::Severity::{self, Error, Info, Warning};
use super::target::Target::{
    self, Agentskills, Claude, Codex, Copilot, Gemini, Nanobot, Openclaw, Opencode, Portable,
};

// Who a rule's findings matter to. A finding that matters to no agent the skill was written for
// is left out of the report and counted in one line, so a skill written for OpenClaw is not
// told what only skills-ref or a claude.ai upload would refuse.

/// Every consumer.
const EVERY: &[Target] = &[
    Portable,
    Agentskills,
    Openclaw,
    Nanobot,
    Claude,
    Codex,
    Gemini,
    Opencode,
    Copilot,
];
/// Every consumer but OpenClaw, whose loader is lenient where the spec is strict: it reads
/// frontmatter a YAML parser refuses line by line, names a nameless skill after its folder,
/// accepts any name, and substitutes `{baseDir}`.
/// Gemini CLI, OpenCode and Copilot CLI are left out too: none checks a name against the
/// spec's (Copilot's own charset takes capitals, dots and spaces).
const LENIENT: &[Target] = &[Portable, Agentskills, Nanobot, Claude, Codex];
/// Only the reference validator, skills-ref (strictyaml, byte-level splitting, CRLF).
const SKILLS_REF: &[Target] = &[Agentskills];
/// The validators that refuse what agents ignore: skills-ref and Claude's upload form.
const UPLOADS: &[Target] = &[Agentskills, Claude];
/// Consumers that key or invoke a skill by its folder name: the spec, and nanobot.
const BY_FOLDER: &[Target] = &[Portable, Agentskills, Nanobot];
/// The agents that gate a skill on its declared requirements.
const GATING: &[Target] = &[Openclaw, Nanobot];
/// No agent: facts about the folder that change nothing an agent does, counted in the run's
/// last lines and shown with `--select`.
const NO_AGENT: &[Target] = &[];
/// Codex, whose own file `agents/openai.yaml` is, and the portable target.
const CODEX_FILES: &[Target] = &[Portable, Codex];
/// The agents whose invocation controls can disagree, and the portable target.
const INVOCATION: &[Target] = &[Portable, Claude, Codex];
/// Claude alone.
const CLAUDE: &[Target] = &[Claude];

/// A lint rule's identity and documentation.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    /// Stable code, `SK` and three digits; the hundreds digit is the family.
    pub code: &'static str,
    /// Stable kebab-case name.
    pub slug: &'static str,
    /// Severity when no target override applies.
    pub severity: Severity,
    /// Severities that differ for some targets.
    pub overrides: &'static [(Target, Severity)],
    /// The targets a finding of this rule is worth telling about; for the others it is left
    /// out of the report and counted (see [`Rule::matters_to`]).
    pub matters: &'static [Target],
    /// One line for listings.
    pub summary: &'static str,
    /// What `skill explain` prints after the summary.
    pub doc: &'static str,
}

impl Rule {
    /// The rule's severity when linting for `target`.
    pub fn severity_for(&self, target: Target) -> Severity {
        self.overrides
            .iter()
            .find(|(t, _)| *t == target)
            .map_or(self.severity, |(_, s)| *s)
    }

    /// Whether a finding matters to a skill written for `target`.
    pub fn matters_to(&self, target: Target) -> bool {
        self.matters.contains(&target)
    }

    /// The family name, from the code's hundreds digit.
    pub fn family(&self) -> &'static str {
        match self.code.as_bytes().get(2) {
            Some(b'0') => "file",
            Some(b'1') => "format",
            Some(b'2') => "name",
            Some(b'3') => "description",
            Some(b'4') => "keys",
            Some(b'5') => "requirements",
            Some(b'6') => "references",
            Some(b'7') => "budgets",
            Some(b'8') => "hygiene",
            Some(b'9') => "security",
            _ => "other",
        }
    }
}

macro_rules! rules {
    ($($id:ident = $code:literal $slug:literal $sev:ident [$(($t:ident, $ts:ident)),*] for $matters:ident $summary:literal $doc:literal;)*) => {
        $(
            #[doc = $summary]
            pub static $id: Rule = Rule {
                code: $code,
                slug: $slug,
                severity: $sev,
                overrides: &[$(($t, $ts)),*],
                matters: $matters,
                summary: $summary,
                doc: $doc,
            };
        )*
        /// Every rule, in code order.
        pub static ALL: &[&Rule] = &[$(&$id),*];
    };
}

rules! {
    MISSING_SKILL_MD = "SK001" "missing-skill-md" Error [] for EVERY
        "The skill folder has no SKILL.md."
        "Every skill is a folder with a SKILL.md file at its root. Agents skip folders without one.\nCreate it with `skill new`, or move the folder's SKILL.md to its root.";
    SKILL_MD_LOWERCASE = "SK002" "skill-md-lowercase" Warning [] for EVERY
        "The manifest is named skill.md, not SKILL.md."
        "skills-ref accepts a lower-case skill.md as a fallback, but nanobot, Codex, quick_validate and\nmost agents look only for SKILL.md, so on a case-sensitive file system they do not see the skill.\nRename the file to SKILL.md.";
    UNREADABLE = "SK003" "unreadable" Error [] for EVERY
        "SKILL.md cannot be read."
        "The file exists but reading it failed: it is a directory, a dangling or looping symlink, or\nthe permissions forbid it. The run exits with code 2.";
    NOT_UTF8 = "SK004" "not-utf8" Error [] for EVERY
        "SKILL.md is not valid UTF-8."
        "Agents read SKILL.md as UTF-8. The diagnostic points at the first byte that is not; re-save\nthe file as UTF-8.";
    BINARY_FILE = "SK005" "binary-file" Error [] for EVERY
        "SKILL.md is a binary file."
        "The file holds NUL bytes, so it is not text at all (an image or an archive saved under the\nwrong name, say).";
    MISSING_FRONTMATTER = "SK101" "missing-frontmatter" Error [] for EVERY
        "SKILL.md does not start with a `---` frontmatter line."
        "The first line of SKILL.md must be `---`, followed by YAML and a closing `---` line. Without\nit, agents cannot read the skill's name and description.";
    UNCLOSED_FRONTMATTER = "SK102" "unclosed-frontmatter" Error [] for EVERY
        "The frontmatter has no closing `---` line."
        "After the opening `---`, a line holding only `---` must end the YAML frontmatter.";
    INVALID_YAML = "SK103" "invalid-yaml" Error [] for LENIENT
        "The frontmatter is not valid YAML."
        "The message is the YAML parser's, at the line and column where it stopped. The commonest cause\nin real skills is an unquoted `: ` inside a one-line value (`description: Use when: ...`): YAML\nreads the second colon as a nested mapping. Quote the value; the fix does.";
    FRONTMATTER_NOT_MAPPING = "SK104" "frontmatter-not-mapping" Error [] for EVERY
        "The frontmatter is not a YAML mapping."
        "The frontmatter must be `key: value` pairs. A list, a lone scalar or an empty frontmatter\ngives no name or description.";
    DUPLICATE_KEY = "SK105" "duplicate-key" Error [] for EVERY
        "A key appears twice in the frontmatter."
        "YAML forbids duplicate keys. Parsers disagree on which value wins (PyYAML keeps the last,\nstrictyaml and skills-ref reject the file), so the skill means different things to different\nagents. Remove one.";
    BOM = "SK106" "bom" Warning [(Agentskills, Error)] for EVERY
        "SKILL.md starts with a UTF-8 byte-order mark."
        "skills-ref, nanobot and other agents then do not see `---` at the start and report no\nfrontmatter. The fix removes the mark.";
    CRLF = "SK107" "crlf" Info [] for SKILLS_REF
        "SKILL.md uses CRLF line endings."
        "Agents that read in text mode cope, but byte-level tools and regex-based parsers do not, and\ndiffs get noisy. Convert to LF.";
    TAB = "SK108" "tab-character" Warning [] for EVERY
        "The frontmatter contains a tab character."
        "YAML forbids tabs in indentation and strict parsers reject them elsewhere too. Use spaces.";
    FRONTMATTER_DASHES = "SK109" "frontmatter-dashes" Warning [] for SKILLS_REF
        "The frontmatter contains `---` inside a value."
        "skills-ref splits SKILL.md on the text `---`, not on lines, so a value such as\n`description: a --- b` ends its frontmatter early and the rest becomes body.";
    STRICT_YAML = "SK110" "strict-yaml" Info [(Agentskills, Warning)] for SKILLS_REF
        "YAML that strictyaml-based tools (skills-ref) read differently or refuse."
        "skills-ref parses the frontmatter with strictyaml, which rejects flow collections (`{...}`,\n`[...]`) and anchors or aliases, and reads every scalar as a string. Full YAML parsers (and\nagents such as OpenClaw and nanobot) accept them, so `skill` does too, and says so here.\nOne-line JSON `metadata`, which OpenClaw's docs recommend, is the common case.";
    NAME_MISSING = "SK201" "name-missing" Error [] for LENIENT
        "The frontmatter has no `name`."
        "`name` is required: 1-64 lowercase letters, digits and hyphens, equal to the folder name.";
    NAME_NOT_STRING = "SK202" "name-not-string" Error [] for EVERY
        "`name` is empty or not a string."
        "`name` must be a non-empty string.";
    NAME_TOO_LONG = "SK203" "name-too-long" Error [] for EVERY
        "`name` is longer than 64 characters."
        "Names are at most 64 characters (Unicode code points, after NFKC normalisation).";
    NAME_NOT_LOWERCASE = "SK204" "name-not-lowercase" Error [] for LENIENT
        "`name` has upper-case letters."
        "Names are lower case. The check uses full Unicode case mapping, as skills-ref does.";
    NAME_HYPHEN_EDGE = "SK205" "name-hyphen-edge" Error [] for EVERY
        "`name` starts or ends with a hyphen."
        "Hyphens separate words; a name cannot start or end with one.";
    NAME_CONSECUTIVE_HYPHENS = "SK206" "name-consecutive-hyphens" Error [] for EVERY
        "`name` contains `--`."
        "A name cannot contain two hyphens in a row.";
    NAME_INVALID_CHARS = "SK207" "name-invalid-chars" Error [] for EVERY
        "`name` has characters other than letters, digits and hyphens."
        "skills-ref accepts Unicode letters and digits (Python's str.isalnum) and hyphens; spaces,\nunderscores, dots and combining marks are refused.";
    NAME_DIR_MISMATCH = "SK208" "name-dir-mismatch" Error [] for BY_FOLDER
        "`name` differs from the folder name."
        "The folder name must equal `name` (both NFKC-normalised). Some agents hide such skills, and\nslash commands use the folder name while the catalog shows `name`.";
    NAME_NON_ASCII = "SK209" "name-non-ascii" Warning [(Claude, Error)] for LENIENT
        "`name` is not plain ASCII."
        "The spec's examples and Claude, quick_validate, `gh skill` and several clients accept only\n`^[a-z0-9]+(-[a-z0-9]+)*$`, even though skills-ref accepts any Unicode letter.";
    NAME_RESERVED = "SK210" "name-reserved" Error [] for CLAUDE
        "`name` contains a word Claude reserves."
        "Claude refuses skills whose name contains `anthropic` or `claude`. Checked for `--target claude`.";
    DESCRIPTION_MISSING = "SK301" "description-missing" Error [] for EVERY
        "The frontmatter has no `description`."
        "`description` is required: what the skill does and when to use it, at most 1024 characters.\nAgents decide whether to load a skill from its description alone.";
    DESCRIPTION_EMPTY = "SK302" "description-empty" Error [] for EVERY
        "`description` is empty or not a string."
        "`description` must be a non-empty string.";
    DESCRIPTION_TOO_LONG = "SK303" "description-too-long" Error [] for EVERY
        "`description` is too long."
        "At most 1024 characters (an error). With `--target claude`, over 200 characters is also a\nwarning: Claude's upload form has cited that limit.";
    DESCRIPTION_ANGLE_BRACKETS = "SK304" "description-angle-brackets" Warning [(Claude, Error)] for UPLOADS
        "`description` contains `<` or `>`."
        "quick_validate and Claude uploads refuse angle brackets (they look like XML tags), and the\ndescription is embedded in XML prompts.";
    TODO_PLACEHOLDER = "SK305" "todo-placeholder" Warning [] for EVERY
        "A `TODO` placeholder is left in the name, description or body."
        "Scaffolds (skill-creator's init_skill.py, `skill new`) leave TODOs for the author to replace.";
    DESCRIPTION_NO_TRIGGER = "SK306" "description-no-trigger" Info [] for EVERY
        "`description` does not say when to use the skill."
        "The spec asks descriptions to say what the skill does and when to use it (\"Use when ...\"),\nas do Claude Code's and nanobot's guides: the model sees only this text when choosing skills.\nOpenClaw 2026.9.6 asks for one short line instead and its own skills state their task without\na \"Use when\", so a skill linted for OpenClaw is told only when its body holds the routing the\ndescription lacks (\"## When to Use\", \"Use this skill when ...\"): OpenClaw's skill-creator\nkeeps routing conditions in the description, and the body is read only after the choice. A\nskill inside another skill's folder is not told, unless the target lists it on its own (Codex,\nCopilot CLI, OpenCode): the others choose the outer skill.";
    DESCRIPTION_OVERLAP = "SK307" "description-overlap" Warning [] for EVERY
        "Two skills linted together have descriptions too alike to route."
        "A model picks a skill from its name and description alone. When two skills linted together\n(one root, several paths, or `--with` roots) say nearly the same thing, it picks either, or\nthe wrong one. The similarity is a TF-IDF cosine over name and description (stop words\ndropped, IDF over the skills compared); at 0.70 and above both skills are named with the terms\nthey share. A skill inside another skill's folder is compared only for a target that lists it\non its own (Codex, Copilot CLI, OpenCode). `skill doctor` checks an agent's whole install the\nsame way; `skill eval` measures which one the model really reads.";
    UNKNOWN_KEY = "SK401" "unknown-key" Warning [(Agentskills, Error)] for UPLOADS
        "A top-level key the target does not know."
        "The Agent Skills spec allows name, description, license, compatibility, metadata and\nallowed-tools; skills-ref rejects anything else. Agents add their own keys (OpenClaw's\n`homepage`, nanobot's `always`, Claude Code's `when_to_use`...). The message names the agents\nthat read the key. Top-level `version` and `author` belong under `metadata`; the fix moves them.";
    ALLOWED_TOOLS_LIST = "SK402" "allowed-tools-list" Warning [] for UPLOADS
        "`allowed-tools` is a list, not a string."
        "The spec defines `allowed-tools` as one space-separated string (`Bash(git:*) Read`). Claude\nCode accepts a list, but `gh skill` and Claude uploads refuse it. The fix joins the items.";
    METADATA_TYPE = "SK403" "metadata-type" Warning [] for UPLOADS
        "`metadata` is not a mapping of strings to strings."
        "The spec defines `metadata` as string keys to string values. Agent blocks (`openclaw`,\n`clawdbot`, `moltbot`, `clawdis`, `nanobot`) are nested on purpose and not reported; other\nnon-string values are (quote numbers such as `version: \"1.0\"`).";
    COMPATIBILITY_TYPE = "SK404" "compatibility-type" Error [] for UPLOADS
        "`compatibility` is not a string."
        "`compatibility` is a string of 1-500 characters describing environment needs.";
    COMPATIBILITY_TOO_LONG = "SK405" "compatibility-too-long" Error [] for UPLOADS
        "`compatibility` is longer than 500 characters."
        "`compatibility` is at most 500 characters.";
    COMPATIBILITY_EMPTY = "SK406" "compatibility-empty" Warning [] for UPLOADS
        "`compatibility` is empty."
        "The spec asks for 1-500 characters when the key is present; skills-ref lets an empty value\npass. Remove the key or say what the skill needs.";
    KEY_TYPE = "SK407" "key-type" Warning [] for EVERY
        "A known key has a value of the wrong type."
        "`license` and `homepage` are strings; `always`, `user-invocable` and\n`disable-model-invocation` are booleans. nanobot v0.1 reads `always: \"false\"` as true.";
    OPENAI_YAML = "SK408" "openai-yaml" Warning [] for CODEX_FILES
        "Codex's `agents/openai.yaml` holds something Codex does not read or takes otherwise."
        "Codex reads `interface` (display_name, short_description of 25-64 characters, icon_small\nand icon_large as files of the skill, brand_color as #RRGGBB, default_prompt naming the skill as\n`$name`), `dependencies.tools` (each of type `mcp` with a `value`) and\n`policy.allow_implicit_invocation` (true or false), as the skill-creator skill Codex 0.169.1\nships describes them.\n\nRight: `interface: {short_description: \"Draft weekly status updates from notes\"}`.\nWrong: `interface: {brand_color: blue}` (not #RRGGBB), `dependencies: {tools: [{type: npm}]}`.";
    INVOCATION_MISMATCH = "SK409" "invocation-mismatch" Warning [] for INVOCATION
        "The frontmatter and Codex's `agents/openai.yaml` disagree on whether the model may pick the skill."
        "`disable-model-invocation: true` keeps a skill from Claude Code's and OpenClaw's model;\nCodex reads only `policy.allow_implicit_invocation: false` in `agents/openai.yaml`. When one\nhides the skill and the other does not, agents disagree on whether it is offered. The unsafe\nfix writes `disable-model-invocation: true` when the policy hides it.\n\nRight: both hide it, or neither. Wrong: `policy: {allow_implicit_invocation: false}` with no\n`disable-model-invocation` in SKILL.md.";
    REQUIREMENTS_BLOCK_NAME = "SK501" "requirements-block-name" Info [] for GATING
        "Says which agents read the requirements block the skill uses."
        "Requirements live under `metadata.openclaw`. OpenClaw 2026.9.6 also reads the older\n`clawdbot`; nanobot 0.3.5 reads `nanobot`, else `openclaw`; `moltbot` and `clawdis` are read by no\ncurrent agent. Write `openclaw` to reach both. With an agent's `--target`, a block that agent\ndoes not read is a warning.";
    INVALID_REQUIRES = "SK502" "invalid-requires" Error [] for GATING
        "The requirements block is malformed."
        "`requires` is a mapping with `bins`, `anyBins`, `env` and `config`, each a list of names;\n`primaryEnv` is a string, `always` a boolean. OpenClaw 2026.9.6 and nanobot 0.3.5 skip what they\ncannot read, so a misspelt key (`bin`), a value of the wrong type or metadata JSON that does not\nparse leaves the skill ungated on what the author meant (`requires.os`, `requires.commands`).\nA key that lists what is optional (`optionalEnv`) is skipped as its author wants and not\nreported; a null `primaryEnv` reads as none.";
    INVALID_OS = "SK503" "invalid-os" Error [] for GATING
        "`os` names a platform agents do not know."
        "`os` takes Node.js platform names: `darwin`, `linux`, `win32`. `macos` (the common mistake)\nnever matches, so OpenClaw never loads the skill.";
    INVALID_INSTALL = "SK504" "invalid-install" Error [] for GATING
        "An `install[]` spec is malformed."
        "Each spec has a `kind` (`type` is an alias): `brew` needs `formula` (or `cask`), `node` and\n`uv` need `package`, `go` needs `module`, `download` needs an http(s) `url`, `apt` (nanobot)\nneeds `package`. OpenClaw drops specs missing their field.";
    BIN_MISSING = "SK505" "bin-missing" Warning [] for GATING
        "A declared binary is not on PATH here."
        "Agents gate skills on `requires.bins`: on this machine the skill is unavailable until the\nbinary is installed. Skipped with `--no-env-checks` (for CI).";
    ANY_BIN_MISSING = "SK506" "any-bin-missing" Warning [] for GATING
        "None of the `anyBins` is on PATH here."
        "OpenClaw needs at least one of `requires.anyBins`. Skipped with `--no-env-checks`.";
    ENV_MISSING = "SK507" "env-missing" Warning [] for GATING
        "A declared env var is unset or empty here."
        "Agents gate skills on `requires.env` (set and non-empty). Skipped with `--no-env-checks`.";
    OS_UNSUPPORTED = "SK508" "os-unsupported" Warning [] for GATING
        "The skill's `os` list excludes this platform."
        "OpenClaw does not load the skill on this platform. Skipped with `--no-env-checks`.";
    UNDECLARED_BIN = "SK509" "undeclared-bin" Warning [] for GATING
        "A command the skill runs is not declared in `requires.bins`."
        "Found in the body's shell code blocks (bash, sh, shell, zsh, console, and unlabelled blocks\nthat start like a command line) and in scripts under `scripts/`: first words of commands,\nthrough pipes, lists, `$(...)`, `sudo`, `env X=1`, `xargs`, `time`, `exec`, `nohup`. Shell\nbuiltins, coreutils and the skill's own scripts are not reported, nor what the skill runs only\nsometimes: commands under setup, install or optional headings, functions the body or the\nskill's shell scripts define, names joined with underscores alone (`sage_rpc`, `web_search`:\nshell functions, agents' and MCP tools, placeholders; programs join words with hyphens, and\n`pg_*` and `mysql_*` are still reported), the agent's own tools called in their `key:value`\nsyntax, a command seen in one block of five or more, and an output filter (`jq`, `yq`, `bc`,\n`rg`, ...) the body only ever pipes another command's answer into (`| jq -r .count`), when no\nscript or inline code in the prose runs them; nor anything of a skill inside another\nskill's folder (OpenClaw and nanobot load the outer one and never list the inner one on its\nown). Without the declaration an agent offers the skill on machines where it cannot work.\nThe fix adds every undeclared command and env var to `metadata.openclaw.requires` in the\nstyle the file uses.";
    UNDECLARED_ENV = "SK510" "undeclared-env" Warning [] for GATING
        "An env var the skill reads is not declared in `requires.env`."
        "Found as `$FOO` / `${FOO}` in shell code blocks and shell scripts, `os.environ[...]` /\n`os.getenv(...)` in Python, `process.env.FOO` in JavaScript. Upper-case names only; variables\nwith a default (`${FOO:-x}`), variables the script assigns, those every shell or agent sets\n(HOME, PATH, LC_*, ...), and, in the body's code blocks, names made only of generic words\n(`$API_KEY`, `${PORT}`, `$MEDIA_ID`: values the reader fills in, where a variable the user\nsets is named for its service, `PAPERLESS_TOKEN`) are not reported. `primaryEnv` and ClawHub's `envVars` count as\ndeclared.";
    UNUSED_REQUIREMENT = "SK511" "unused-requirement" Warning [] for GATING
        "A declared requirement is never mentioned by the body or scripts."
        "Every declared bin and env var gates the skill; one the skill never uses hides it for no\nreason. Reported only when the name appears nowhere in SKILL.md's body or in `scripts/`; not\nfor a base-system command (`date`, `sh`: every machine has it, so its gate hides nothing),\nnor for a skill inside another skill's folder, which no agent gates on its own.";
    BROKEN_LINK = "SK601" "broken-link" Error [] for EVERY
        "A relative link or path points at a file that does not exist."
        "Relative Markdown links and inline-code paths under `scripts/`, `references/` and `assets/`\nare resolved from the skill folder. The agent will try to read them.";
    LINK_CASE_MISMATCH = "SK602" "link-case-mismatch" Error [] for EVERY
        "A link differs from the file only by letter case."
        "It works on macOS and Windows and fails on Linux, where agents usually run.";
    LINK_OUTSIDE_SKILL = "SK603" "link-outside-skill" Warning [] for EVERY
        "A link leaves the skill folder."
        "Packing and installing copy only the skill folder, so the target will be missing.";
    SCRIPT_NOT_EXECUTABLE = "SK604" "script-not-executable" Warning [] for EVERY
        "A referenced script has no executable bit or no shebang."
        "An agent told to run `scripts/x.sh` fails with `permission denied` (no executable bit) or runs\nit with the wrong interpreter (no `#!` line). `chmod +x` and add a shebang.";
    FILE_TOO_LARGE = "SK701" "file-too-large" Warning [] for EVERY
        "SKILL.md, a file, or the whole skill is too large."
        "OpenClaw skips SKILL.md files over 256 KiB (a warning). ClawHub refuses any file over 10 MiB and\nskills over 50 MiB (errors); a SKILL.md over 10 MiB is not even read.";
    BODY_TOO_LONG = "SK702" "body-too-long" Warning [] for EVERY
        "The body is longer than 500 lines."
        "The spec asks for bodies under 500 lines: the whole body enters the context when the skill is\nactivated. Move detail into `references/`. The limit is `body-lines` in skill.toml.";
    TOKEN_BUDGET = "SK703" "token-budget" Warning [] for EVERY
        "The body or the description is over its token budget."
        "Counted with OpenAI's o200k tokenizer. Defaults: body 5000 tokens (the spec's advice),\ndescription 200 (every prompt carries every description). Set `body-tokens` and\n`description-tokens` under `[lint.budgets]` in skill.toml.";
    EMPTY_BODY = "SK704" "empty-body" Warning [] for EVERY
        "SKILL.md has frontmatter and no body."
        "The body is what the agent reads once it picks the skill; with none, the model has the\ndescription alone, and nothing says how to use what the skill declares or ships. Agents load\nsuch a skill all the same. `unused-requirement` is not reported beside it: its requirements\nare unused because the body is missing.";
    SECRET = "SK801" "secret" Error [] for EVERY
        "A secret is committed with the skill."
        "Token-shaped strings (GitHub, OpenAI, Anthropic, AWS, Slack, Google, Stripe keys...), private\nkey blocks, and `.env` files. Anyone who installs the skill gets them. Only a redacted prefix\nis shown.";
    SYMLINK = "SK802" "symlink" Warning [] for EVERY
        "The skill contains a symbolic link."
        "Archives and registries do not carry symlinks (`skill pack` refuses them unless they point\ninside the skill and `--follow-symlinks` is given).";
    JUNK_FILE = "SK803" "junk-file" Warning [] for EVERY
        "An OS or build leftover is in the skill."
        "`.DS_Store`, `Thumbs.db`, `__MACOSX/`, `__pycache__/`, `*.pyc`: noise in every install. Delete\nthem or add them to `.skillignore`.";
    BASE_DIR_PLACEHOLDER = "SK804" "base-dir-placeholder" Warning [(Openclaw, Info)] for LENIENT
        "The body uses `{baseDir}`, which only OpenClaw substitutes."
        "OpenClaw replaces `{baseDir}` with the skill folder; other agents show it literally. Use paths\nrelative to the skill folder (`scripts/x.sh`).";
    INSTALL_METADATA = "SK805" "install-metadata" Info [] for NO_AGENT
        "The skill carries ClawHub's install metadata (`_meta.json`, `.clawhub/`)."
        "A skill downloaded from ClawHub holds the registry's `_meta.json` and the installer's\n`.clawhub/` folder. No agent reads them and the registry writes its own for each version, so\n`skill pack` and `skill publish` leave them out (with a note) and nothing refuses them. Delete\nthem from the source folder if it is where you write the skill.";
    DOWNLOAD_EXEC_INSECURE = "SK901" "download-exec-insecure" Error [] for EVERY
        "A download from a bare IP address or over plain http is run as code."
        "Found in SKILL.md and every text file of the skill: a download piped into a shell or an\ninterpreter (`curl ... | sh`, `wget -O- ... | bash`, `irm ... | iex`), fed to one (`bash <(curl ...)`,\n`eval \"$(curl ...)\"`, `python -c \"$(curl ...)\"`, `iex (iwr ...)`), or saved, made executable and run.\nFrom a bare IP address, over http, or with no scheme (curl and wget then use http), nobody can tell\nwho sent what runs: this is how the 2026 ClawHub droppers were written. Ship the script in\n`scripts/`, or install the tool with a package manager declared in `metadata.openclaw.install`.";
    DOWNLOAD_EXEC = "SK902" "download-exec" Warning [] for EVERY
        "A download from an https host is run as code."
        "The same forms as SK901 from an https host, such as the official installers of Docker, uv or\nBun (`curl -fsSL https://get.docker.com | sh`). Common and often legitimate, but the script runs\nunread and changes when its server changes it. Prefer a package manager; otherwise pin a version,\ncheck a checksum and allow the finding with a reason:\n`<!-- skill: allow SK902 the official Docker installer -->`. In a Markdown file's install\ninstructions (its line, the two above or its heading say install, setup or prerequisites, or the\naddress is named `install…`) it is not reported: that is how vendors document installing their\ntool. In a script, or in an install spec the agent runs itself, it is; in a script from a host\nthat is not a well-known installer it is SK920, an error.";
    OBFUSCATED_EXEC = "SK903" "obfuscated-exec" Error [] for EVERY
        "Encoded text is decoded and run."
        "base64, hex, rot13 or character codes decoded into a shell, `eval`, `exec()`, `child_process`,\n`Function` or `iex` (`echo ... | base64 -d | bash`, `exec(base64.b64decode(...))`,\n`eval(atob(...))`, `powershell -EncodedCommand ...`). Encoding hides the command from whoever\nreads the skill; the finding shows what a written-out literal decodes to. Also an address or a\ncredential path hidden in a script as bytes XORed with one key (`bytes([0x32, 0x2e, ...])` and\n`c ^ key`), shown decoded; and base64, hex or a list of character codes (`{ 99, 117, 114, 108,\n... }`) in a script or config that decodes to such code.";
    ENCODED_BLOB = "SK904" "encoded-blob" Warning [] for EVERY
        "A long base64 or hex blob in a script."
        "A run of 256 or more base64 or hex characters in a script cannot be reviewed and often holds a\nsecond stage. Images and fonts as `data:` URIs and PEM blocks are left alone. Ship data as a\nfile under `assets/`.";
    ENCRYPTED_ARCHIVE = "SK905" "encrypted-archive" Error [] for EVERY
        "A password-protected archive, or instructions to open one."
        "A zip, 7z or RAR file inside the skill with encrypted entries, or text telling the user to\nextract an archive with a password (`unzip -P`, \"EXTRACT with password: 1234\"). Encryption keeps\nscanners out; that is its only use in a skill.";
    DISABLE_SECURITY = "SK906" "disable-security" Error [] for EVERY
        "Instructions to turn off antivirus, Gatekeeper, SIP, SELinux, certificate checks or an agent's approvals."
        "`spctl --master-disable`, `csrutil disable`, `setenforce 0`, `Set-MpPreference -Disable...`,\n`Add-MpPreference -Exclusion...`, or prose such as \"disable your antivirus\". Also certificate\nchecks turned off for package managers and git (`strict-ssl=false`, `trusted-host`,\n`NODE_TLS_REJECT_UNAUTHORIZED=0`, `GIT_SSL_NO_VERIFY=1`, `http.sslVerify false`, CMake's\n`TLS_VERIFY OFF`, Go's `GOINSECURE=` and `GOSUMDB=off`), which let a look-alike mirror serve any\npackage. Also a PostgreSQL `SECURITY DEFINER` function that runs\n`COPY … FROM PROGRAM` and that PUBLIC may execute: every database user gets a shell on the server. Also an agent's own approvals or sandbox turned off in\nits configuration by a script or code block (Codex's `approval_policy = \"never\"` or\n`sandbox_mode = \"danger-full-access\"`, Claude Code's `bypassPermissions`, a `Bash(*)` or bare `\"Bash\"` allow\nrule or `enableAllProjectMcpServers`, Gemini CLI's `approvalMode: yolo`, `autoAccept`, a server's `\"trust\": true` or folder\ntrust off, VS Code's automatic tasks on or workspace trust off), a container given the host's\nwhole filesystem to write (`docker run -v /:/host`), and `NOPASSWD: ALL` written to sudoers. A skill that needs the user's protections off is asking\nthem to let its payload run.";
    CREDENTIAL_ACCESS = "SK907" "credential-access" Warning [] for EVERY
        "The skill reads a credential store."
        "A command or call that reads SSH private keys, `~/.aws/credentials`, gcloud, Azure, kube or\nDocker credentials, `.netrc`, the macOS keychain (a dump, or a search naming no item: one item\nnamed by `-s` or `-l` is a tool's own secret), browser profiles (saved passwords, cookies) or\ncryptocurrency wallets. A warning, because a few tools read their own; a script that also sends\ndata anywhere is an SK908 error, whatever it read.";
    EXFILTRATION = "SK908" "exfiltration" Error [] for EVERY
        "Secrets or files are sent where someone else collects them."
        "A network send (`curl -d/-F/-T`, `wget --post-file`, `nc`, `requests.post`, `fetch` with POST,\n`Invoke-RestMethod -Body`, `scp`) of the whole environment, a credential file or a key the script\nmints (`aws iam create-access-key`, `az ad sp create-for-rbac`); any data sent to\na request collector, tunnel or paste site (webhook.site, ngrok, pastebin...); a file uploaded to\na bare IP address; a send from a script that reads a credential store; a script that gathers\ncredentials (a store, the whole environment, secret variables listed by name) and sends to a bare\nIP address, a collector or an address it hides (encoded as `pack('H*', …)`, an IP address as four\nnumbers, a host joined from pieces), by any means, a socket included; a script that\ngathers credentials and looks up names (`getaddrinfo`, `nslookup`), which carry data to any zone's\nserver; a script that picks\nsecrets out of the environment by their names' words (`\"TOKEN\"`, `\"PASSWORD\"`) and sends them\nanywhere; a git hook that pushes the repository to an address of its own (`git push --mirror\n\"$cache\"`); a CI workflow\nthat hands every secret to a step (`${{ toJSON(secrets) }}`) and publishes an artifact or sends; an agent hook whose command sends what the agent's steps hand it\nto another host; a Markdown image whose address the model is told to fill with the user's data\n(the client loads it unasked); a named service's key (`$GITHUB_TOKEN`, `$NPM_TOKEN`) in the\nquery string of another host's address; one secret a script sends to its service and to another\nsite (a \"license check\", a \"usage ping\"), however its names and payloads carry it; or prose telling the agent to send keys or tokens to an\naddress. Posting a message to a chat webhook is not reported.";
    PASSWORD_PROMPT = "SK909" "password-prompt" Error [] for EVERY
        "A script shows its own password dialog."
        "`osascript` dialogs asking for a password (`display dialog ... with hidden answer`) and\n`dscl ... -authonly` password checks: how macOS stealers obtain the login password. A script\nprinting sudo's own prompt (`[sudo] password for %s:`) to read the password itself does the\nsame on Linux. Let the command that needs privileges ask for them itself.";
    PERSISTENCE = "SK910" "persistence" Warning [] for EVERY
        "The skill installs something that starts again on its own."
        "crontab edits, launchd agents and daemons, systemd user units, edits of shell start-up files\n(`>> ~/.zshrc`), login items, Windows Run keys and scheduled tasks, keys appended to\n`~/.ssh/authorized_keys`, `/etc/ld.so.preload`, writes into an agent's own instructions file\n(`~/.claude/CLAUDE.md`, `~/.codex/AGENTS.md`, `~/.gemini/GEMINI.md`; telling it there to stop\nasking before it acts is SK911), and VS Code tasks that run when a folder opens (`\"runOn\": \"folderOpen\"`). A warning: a scheduler or backup skill may need one. A description\nthat says what runs on its own (a cron job, a watcher, every night, automated backups) is that\ndisclosure for a cron job, a launchd or systemd job, a login item or an autostart entry, and\nthe warning is not given; what persists a download stays an SK921 error.";
    INSTRUCTION_OVERRIDE = "SK911" "instruction-override" Error [] for EVERY
        "Text that overrides the agent or hides things from the user."
        "In the frontmatter and in Markdown prose (not in code, not inside double quotes, where guides\nquote attacks): \"ignore previous instructions\", \"do not tell the user\", \"without telling the\nuser\", \"you are now in developer mode\", a fake `<system>` tag, \"reveal your system prompt\", \"keep it to\nyourself\", \"do not redact them\" of secrets, \"do not ask the user for confirmation\". Also a script that writes into an agent's own instructions file\n(`~/.codex/AGENTS.md`, ...) that it should stop asking before it acts. Invisible characters are\nremoved before matching.";
    HIDDEN_INSTRUCTIONS = "SK912" "hidden-instructions" Error [] for EVERY
        "Instructions hidden in a comment or a data: URI."
        "HTML comments (`<!-- ... -->`) and Markdown comments (`[//]: # (...)`) outside code, and base64\ntext in `data:` URIs, that give the agent instructions: overrides, commands, addresses to send\nsecrets to, or orders to the agent. Rendered Markdown does not show them, the agent reads them.\nTool directives (`markdownlint-disable`, `toc`, `wp:`...) are left alone.";
    BIDI_CONTROL = "SK913" "bidi-control" Error [] for EVERY
        "A bidirectional control character (U+202A-202E, U+2066-2069)."
        "Overrides and isolates make a line display in another order than it is read (\"Trojan\nSource\"), so what a reviewer sees is not what the agent or the shell runs. Anywhere in any text\nfile of the skill.";
    HIDDEN_TAG_TEXT = "SK914" "hidden-tag-text" Error [] for EVERY
        "Unicode tag characters (U+E0000-E007F) that spell out invisible text."
        "Tag characters render as nothing but models read them as ASCII, which smuggles instructions\npast review. The finding spells out the hidden text. Subdivision flag emoji (England, Scotland,\nWales) are left alone.";
    INVISIBLE_CHARACTER = "SK915" "invisible-character" Warning [] for EVERY
        "Zero-width or other invisible characters."
        "Zero-width spaces and joiners, word joiners, direction marks and stray byte-order marks,\nwhich split words past filters and make identical-looking text differ. One finding per file,\nwith a count. Joiners in emoji and between letters of joining scripts, marks beside\nright-to-left text and a leading BOM are left alone.";
    INVALID_ALLOW = "SK916" "invalid-allow" Error [] for EVERY
        "A `skill: allow` comment without a security rule or a reason."
        "Suppressions are written `<!-- skill: allow SK902 reason -->` (or after `#` or `//`) on the\nfinding's line or the line above it. They name SK9xx rules by code or slug and must give a\nreason. Other rules are turned off with `--ignore` or `[lint] ignore`. `skill install` and the\nregistry show the reason and do not let the finding through.";
    TYPOSQUAT = "SK917" "typosquat" Error [] for EVERY
        "A package whose name is a near miss of a very popular one."
        "An install command (`pip install`, `uv add`, `npm install`, `npx`, `cargo add`...) or an\ninstall spec (`package:` beside `kind: node|uv|cargo`) naming a package one edit (names up to\nseven characters) or two edits (longer) from one of the 2,000 most-downloaded PyPI, npm or\ncrates.io packages, and not itself among the most popular (`reqeusts`, `lodahs`, `serde_jsn`).\nTyposquats install an attacker's code under a name a reader skims past.";
    HOMOGLYPH = "SK918" "homoglyph" Error [] for EVERY
        "A word that mixes ASCII with look-alike letters of another script."
        "A host, command or name written with ASCII letters and characters of another script that are\ndrawn the same (Unicode's confusables: Cyrillic `о` for `o`, `с` for `c`), such as\n`files.pythonhоsted.org` or `сurl`, where the word names a host, path or address, or is the\ncommand of its line. Words wholly in one script, examples quoted as arguments, and symbols\nbeside numbers (`2πr`, `5µm`) are left alone.";
    INDEX_REDIRECT = "SK919" "index-redirect" Error [] for EVERY
        "A package index the skill chose, set in a configuration that outlives the command."
        "A package manager's index set where every later install reads it (`pip.conf`, `pip config\nset`, `.npmrc`, `npm config set registry`, `.yarnrc`, `bunfig.toml`, Homebrew's\n`HOMEBREW_BOTTLE_DOMAIN` and its siblings, in a profile or a launchd job's environment) to a host written in the\nskill that is not a public index or its well-known mirror. A package there with a higher\nversion or an internal package's name wins over the real one (dependency confusion). An index\nthe user supplies (a placeholder, an argument), one on this machine or a private network, a\nscoped registry (`@corp:registry=`) and `--index-url` given to one install are left alone.\nAlso a global git rewrite (`git config --global url.<mirror>.insteadOf https://github.com/`)\nthat sends every later fetch of one host to another, and a lockfile whose package addresses are\nrewritten to such a host (`sed` of `registry.npmjs.org` in `package-lock.json`).";
    REMOTE_CODE_IN_SCRIPT = "SK920" "remote-code-in-script" Error [] for EVERY
        "A script the skill runs downloads code from an https host and runs it."
        "The forms of SK902 (a download piped or fed into a shell or an interpreter, or saved, made\nexecutable and run) inside a script or another code file of the skill, from an https host that\nis not a well-known installer (rustup, Homebrew, Docker, uv, Bun, nvm...) or from an address\nthat cannot be read before the script runs; a download a makefile includes is run by make, and\none a program loads into itself (PHP's `include`, Node's `require`, Lua's `dofile`, CMake's\n`include` after `file(DOWNLOAD …)`) is run by it;\na GitLab pipeline's `include: remote:` from a host other than GitLab, GitHub or Bitbucket gives\nthat host the pipeline's jobs and CI variables, and an MCP server an agent's configuration starts\nfrom an archive on such a host (`npx -y https://…/server.tgz`) runs with the agent's access. A\nscript runs without anyone reading it first, so what that host sends runs with the user's rights\nevery time. In Markdown the same command is shown to whoever follows the steps and stays SK902.\nShip the code in the skill, or install the tool with a package manager declared in\n`metadata.openclaw.install`.";
    PERSISTENT_REMOTE_CODE = "SK921" "persistent-remote-code" Error [] for EVERY
        "Something installed to start again on its own fetches code or opens a login."
        "A persistence of SK910 (a cron job, a launchd or systemd unit, a shell start-up file, a git\nhook, a login item, a Windows autostart entry, an IPython start-up file or `sitecustomize.py`)\nwhose command downloads something or that is written with decoded bytes, an agent's hook\n(`PreToolUse`, `BeforeTool`, ...) whose command downloads, a key written into\n`~/.ssh/authorized_keys` from the skill's own text, from a `.pub` file in a folder of the skill's,\nor from a download, or a tunnel that forwards a remote port to this machine's SSH server (`ssh -R\n0:127.0.0.1:22 relay`, `RemoteForward 2222 localhost:22`). Either gives whoever controls\nthe host or the key a way back into the machine after the skill is gone. No scheduler or backup\nskill needs it; there is no reason for which to allow it.";
    DESTRUCTIVE_COMMAND = "SK922" "destructive-command" Error [] for EVERY
        "A command that destroys the user's home folder, the whole filesystem or a disk."
        "`rm -r` of `/`, `/*`, `~`, `$HOME` or `/home`; `find` from `~`, `$HOME` or `/` that deletes\n(`-delete`, `-exec rm`) with no name or path test, or with an `-o` that is not in parentheses\n(so the delete applies to one side only and everything else matches); `Remove-Item -Recurse`\nof the user's profile or a drive; in a script, `rm -r` of a path that starts with a variable the\nscript never sets nor guards (`rm -rf \"$ROOT/\"*` deletes from `/` when it is empty, which\n`${ROOT:?}` or `set -u` prevents); `dd` or `mkfs` onto a disk device; a fork bomb; a cleanup\nthat walks the home folder deleting folders by name with `.git`, `.ssh` or `.gnupg` among the\nbuild artefacts it lists. In a script or\nin code the agent runs; a cheat-sheet's marked examples are left alone. Cleanup names what it\ncleans: a folder the skill made, or files by name.";
    CLIPBOARD_HIJACK = "SK923" "clipboard-hijack" Error [] for EVERY
        "Code that watches the clipboard and puts a wallet address of its own there."
        "A script that reads the clipboard (`pbpaste`, `xclip -o`, `Get-Clipboard`,\n`pyperclip.paste`, `navigator.clipboard.readText`...), writes it (`pbcopy`, `Set-Clipboard`,\n`pyperclip.copy`...) and holds a cryptocurrency address (Bitcoin, Ethereum, Tron, Monero,\nLitecoin): a \"clipper\", which swaps the address a user copied for the attacker's, so that the\npayment goes to the wrong wallet. A script that only copies (a donation address piped to\n`pbcopy`), a clipboard helper with no address of its own, and prose about clippers are left\nalone.";
    MODEL_REVIEW = "SK990" "model-review" Info [] for EVERY
        "What a model asked to review the skill found (`skill lint --review`)."
        "With `--review`, `skill lint` sends each skill's text files to the configured provider with\na fixed rubric (what could harm the user or mislead the agent: exfiltration, downloads that\nrun, hidden commands, secrecy, instructions that override the agent's) and reports what it\nanswers here, marked as the model's opinion. These findings are notes: they never fail a run,\nand a model can be wrong both ways. The exchange is recorded in the skill's\n`evals/cassettes/review.yaml` and replayed offline (`--mode record` records it again).";
}

/// A category of the OWASP Agentic Skills Top 10 (AST10): its identifier and name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owasp {
    /// `AST01` to `AST10`.
    pub id: &'static str,
    /// The category's name as OWASP writes it.
    pub name: &'static str,
}

const MALICIOUS: Owasp = Owasp {
    id: "AST01",
    name: "Malicious Skills",
};
const SUPPLY_CHAIN: Owasp = Owasp {
    id: "AST02",
    name: "Supply Chain Compromise",
};
const OVER_PRIVILEGED: Owasp = Owasp {
    id: "AST03",
    name: "Over-Privileged Skills",
};
const INSECURE_METADATA: Owasp = Owasp {
    id: "AST04",
    name: "Insecure Metadata",
};
const WEAK_ISOLATION: Owasp = Owasp {
    id: "AST06",
    name: "Weak Isolation",
};
const NO_GOVERNANCE: Owasp = Owasp {
    id: "AST09",
    name: "No Governance",
};

/// The OWASP Agentic Skills Top 10 category of each security rule.
const OWASP_CATEGORIES: &[(&str, Owasp)] = &[
    ("SK901", MALICIOUS),
    ("SK902", SUPPLY_CHAIN),
    ("SK903", MALICIOUS),
    ("SK904", MALICIOUS),
    ("SK905", MALICIOUS),
    ("SK906", WEAK_ISOLATION),
    ("SK907", OVER_PRIVILEGED),
    ("SK908", MALICIOUS),
    ("SK909", MALICIOUS),
    ("SK910", OVER_PRIVILEGED),
    ("SK911", MALICIOUS),
    ("SK912", MALICIOUS),
    ("SK913", INSECURE_METADATA),
    ("SK914", INSECURE_METADATA),
    ("SK915", INSECURE_METADATA),
    ("SK916", NO_GOVERNANCE),
    ("SK917", SUPPLY_CHAIN),
    ("SK918", INSECURE_METADATA),
    ("SK919", SUPPLY_CHAIN),
    ("SK920", MALICIOUS),
    ("SK921", MALICIOUS),
    ("SK922", MALICIOUS),
    ("SK923", MALICIOUS),
];

/// The OWASP Agentic Skills Top 10 category a rule's findings fall in (security rules only).
pub fn owasp(rule: &Rule) -> Option<Owasp> {
    OWASP_CATEGORIES
        .iter()
        .find(|(code, _)| *code == rule.code)
        .map(|(_, category)| *category)
}

/// Finds a rule by code (`SK201`, any case) or slug (`name-dir-mismatch`).
pub fn find(id: &str) -> Option<&'static Rule> {
    ALL.iter()
        .copied()
        .find(|r| r.code.eq_ignore_ascii_case(id) || r.slug == id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_slugs_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for rule in ALL {
            assert!(seen.insert(rule.code), "{}", rule.code);
            assert!(seen.insert(rule.slug), "{}", rule.slug);
            assert!(rule.code.len() == 5 && rule.code.starts_with("SK"));
            assert!(
                rule.slug
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b == b'-' || b.is_ascii_digit())
            );
        }
    }
}
