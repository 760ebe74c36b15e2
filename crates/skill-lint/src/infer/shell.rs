//! Reading shell text for the commands it runs and the env vars it reads. Deliberately a
//! scanner, not a parser: it splits pipelines and lists, looks through wrappers such as `sudo`
//! and `env X=1`, skips comments, heredoc bodies and assignments, and reports each command word
//! with its byte offset.

use super::known::KEYWORDS;
use std::borrow::Cow;

/// A name found in text, with the byte offset where it starts.
pub type Found = (String, usize);

/// Commands run by `script` (first words of simple commands that are names), with offsets.
pub fn commands(script: &str) -> Vec<Found> {
    first_words(script)
        .into_iter()
        .filter(|(w, _)| is_command_name(w))
        .collect()
}

/// Commands run by `script`, as [`commands`] finds them, and the relative paths it runs
/// directly as commands (`./scripts/x.sh`, `scripts/x.py`), with offsets: one scan for both.
pub(crate) fn commands_and_paths(script: &str) -> (Vec<Found>, Vec<Found>) {
    let mut commands = Vec::new();
    let mut paths = Vec::new();
    for (word, at) in first_words(script) {
        if word.contains('/')
            && !word.starts_with('/')
            && !word.contains('$')
            && !word.contains('{')
        {
            paths.push((word, at));
        } else if is_command_name(&word) {
            commands.push((word, at));
        }
    }
    (commands, paths)
}

/// The first word of every simple command, quotes trimmed, with offsets. A quoted string or a
/// `\` continuation spanning lines is read as one logical line.
fn first_words(script: &str) -> Vec<Found> {
    let mut out: Vec<Found> = Vec::new();
    let mut defined: Vec<String> = Vec::new();
    let mut heredoc: Option<String> = None;
    let mut offset = 0;
    // (start, text so far, the line ending that follows it): joined lines keep their own
    // endings so offsets in the logical line stay offsets in the script (CRLF included).
    let mut pending: Option<(usize, String, &str)> = None;
    for raw in script.split_inclusive('\n') {
        let line_start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let ending = &raw[line.len()..];
        if let Some(end) = &heredoc {
            if line.trim() == end {
                heredoc = None;
            }
            continue;
        }
        let (start, logical) = match pending.take() {
            Some((start, mut text, previous_ending)) => {
                text.push_str(previous_ending);
                text.push_str(line);
                (start, Cow::Owned(text))
            }
            None => (line_start, Cow::Borrowed(line)),
        };
        if open_quote(&logical) || logical.ends_with('\\') {
            pending = Some((start, logical.into_owned(), ending));
            continue;
        }
        let (line, start) = strip_prompt(&logical, start);
        let code = strip_comment(line);
        heredoc = heredoc_delimiter(code);
        if is_not_a_command_line(code) {
            continue;
        }
        defined.extend(function_defined(code).map(str::to_owned));
        let pattern = case_pattern_len(code);
        for_each_segment(&code[pattern..], |segment| {
            if let Some((word, at)) = command_word(segment) {
                out.push((
                    word.trim_matches(['"', '\'']).to_owned(),
                    start + pattern + at,
                ));
            }
        });
    }
    // A function the script defines is the script's own, where it is defined and called.
    out.retain(|(word, _)| !defined.contains(word));
    out
}

/// The functions `script` defines, in order.
pub(crate) fn functions_defined(script: &str) -> Vec<&str> {
    let mut defined = Vec::new();
    // A here-document's body is text for another program (`python3 - <<EOF`), not shell.
    let mut heredoc: Option<String> = None;
    for line in script.lines() {
        if let Some(end) = &heredoc {
            if line.trim() == end {
                heredoc = None;
            }
            continue;
        }
        let code = strip_comment(line);
        heredoc = heredoc_delimiter(code);
        defined.extend(function_defined(code));
    }
    defined
}

/// The function a line defines (`usage() {`, `function list_sessions {`), if any.
fn function_defined(code: &str) -> Option<&str> {
    let code = code.trim_start();
    let is_name = |w: &str| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-:.".contains(&b))
    };
    if let Some(rest) = code.strip_prefix("function ") {
        let name = rest.split(|c: char| c.is_whitespace() || c == '(').next()?;
        return is_name(name).then_some(name);
    }
    let (name, rest) = code.split_once('(')?;
    let name = name.trim_end();
    (is_name(name) && rest.trim_start().starts_with(')')).then_some(name)
}

/// A line of a shell block that is not shell: a `key: value` field of a request body or a YAML
/// snippet (`avatar: <image file (max 2MB)>`), or a usage synopsis whose `|` separates the
/// choices of a placeholder (`--sort <relevance|date|price-asc>`).
fn is_not_a_command_line(code: &str) -> bool {
    let field = code
        .split_whitespace()
        .next()
        .is_some_and(|first| first.len() > 1 && first.ends_with(':') && !first.contains("://"));
    let synopsis = code.split('<').skip(1).any(|after| {
        after.starts_with(|c: char| c.is_ascii_alphanumeric())
            && after
                .split('>')
                .next()
                .is_some_and(|inside| inside.contains('|') && !inside.contains(' '))
    });
    field || synopsis
}

/// The length of a `case` arm's pattern at the start of `code` (`  stats) `, `start|stop)`), 0
/// when there is none: the commands of the arm follow it.
fn case_pattern_len(code: &str) -> usize {
    match code.find(')') {
        Some(close) if !code[..close].contains(['(', '$', '=', '"', '\'', '`', ';', '&']) => {
            close + 1
        }
        _ => 0,
    }
}

/// True when `text` ends inside a single- or double-quoted string. Bytes rather than
/// characters: every byte that matters is ASCII, and any other byte clears an escape just as
/// the character it belongs to would.
fn open_quote(text: &str) -> bool {
    let mut quote: Option<u8> = None;
    let mut escaped = false;
    for &b in strip_comment(text).as_bytes() {
        match (quote, b) {
            (_, b'\\') if !escaped && quote != Some(b'\'') => {
                escaped = true;
                continue;
            }
            (Some(q), b) if b == q && !escaped => quote = None,
            (None, b'\'' | b'"') if !escaped => quote = Some(b),
            _ => {}
        }
        escaped = false;
    }
    quote.is_some()
}

/// Env vars read by `script` as `$NAME` or `${NAME}` (not `${NAME:-default}`), minus those the
/// script assigns itself.
pub(crate) fn env_vars(script: &str) -> Vec<Found> {
    let assigned = assigned_names(script);
    env_refs(script)
        .into_iter()
        .filter(|(n, _)| !assigned.contains(&n.as_str()))
        .collect()
}

/// Every `$NAME` / `${NAME}` reference without a default, assigned or not.
pub(crate) fn env_refs(script: &str) -> Vec<Found> {
    let bytes = script.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(pos) = memchr::memchr(b'$', &bytes[i..]) {
        let at = i + pos + 1;
        i = at;
        let braced = bytes.get(at) == Some(&b'{');
        let name_start = at + usize::from(braced);
        let name_len = bytes[name_start..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let name = &script[name_start..name_start + name_len];
        if !is_env_name(name) {
            continue;
        }
        let rest = &script[name_start + name_len..];
        let has_default = braced
            && (rest.starts_with(":-")
                || rest.starts_with(":=")
                || rest.starts_with('-')
                || rest.starts_with('='));
        if !has_default {
            out.push((name.to_owned(), name_start));
        }
    }
    out
}

/// Upper-case names of at least two characters: the convention for environment variables
/// (lower-case ones are script locals).
pub(crate) fn is_env_name(name: &str) -> bool {
    name.len() >= 2
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && name.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
        && name.bytes().any(|b| b.is_ascii_uppercase())
}

/// Names the script assigns (`X=`, `export X=`, `read X`, `for X in`, `local X`), in no
/// particular order: callers only ask whether a name is among them.
///
/// An assignment is a word (split at whitespace, `;`, `(` and backquotes) whose text before its
/// first `=` is an env name; a declaration is an env name that is the whole word after `read`,
/// `for`, `local`, `export` or `declare` on the same line. Both are found from their `=` or
/// keyword with memchr rather than by splitting every word of the script.
pub(crate) fn assigned_names(script: &str) -> Vec<&str> {
    let bytes = script.as_bytes();
    let mut names = Vec::new();
    for eq in memchr::memchr_iter(b'=', bytes) {
        let start = eq - env_run_before(&bytes[..eq]);
        let name = &script[start..eq];
        if is_env_name(name) && char_before(script, start).is_none_or(is_word_separator) {
            names.push(name);
        }
    }
    for keyword in ["read", "for", "local", "export", "declare"] {
        for at in memchr::memmem::find_iter(bytes, keyword) {
            if char_before(script, at).is_some_and(|c| !c.is_whitespace()) {
                continue;
            }
            if let Some(name) = declared_after(&script[at + keyword.len()..]) {
                names.push(name);
            }
        }
    }
    names
}

/// How many bytes at the end of `bytes` can belong to an env name.
fn env_run_before(bytes: &[u8]) -> usize {
    bytes
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || **b == b'_')
        .count()
}

/// The character that ends just before byte `at` of `text`.
fn char_before(text: &str, at: usize) -> Option<char> {
    text[..at].chars().next_back()
}

/// What ends a word for assignments: whitespace, `;`, `(` and backquotes.
fn is_word_separator(c: char) -> bool {
    c.is_whitespace() || c == ';' || c == '(' || c == '`'
}

/// The env name that is the next whole word of `rest` (what follows a keyword) on the same
/// line, if the keyword is a word of its own and such a name follows it.
fn declared_after(rest: &str) -> Option<&str> {
    let gap = rest
        .char_indices()
        .find(|&(_, c)| c == '\n' || !c.is_whitespace())
        .map_or(rest.len(), |(i, _)| i);
    if gap == 0 {
        return None;
    }
    let word = &rest[gap..];
    let end = word.find(char::is_whitespace).unwrap_or(word.len());
    let name = &word[..end];
    is_env_name(name).then_some(name)
}

/// Drops a leading `$ ` prompt (console transcripts) and returns the line and its new start.
fn strip_prompt(line: &str, start: usize) -> (&str, usize) {
    let trimmed = line.trim_start();
    let indent = line.len() - trimmed.len();
    match trimmed.strip_prefix("$ ") {
        Some(rest) => (rest, start + indent + 2),
        None => (line, start),
    }
}

/// The line up to an unquoted `#` that starts a comment (one after whitespace or at the
/// start). Quotes and `#` are ASCII, so the scan jumps from one to the next with memchr.
fn strip_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut i = 0;
    while let Some(found) = memchr::memchr3(b'\'', b'"', b'#', &bytes[i..]) {
        let at = i + found;
        if bytes[at] == b'#' {
            if char_before(line, at).is_none_or(char::is_whitespace) {
                return &line[..at];
            }
            i = at + 1;
            continue;
        }
        match memchr::memchr(bytes[at], &bytes[at + 1..]) {
            Some(close) => i = at + 1 + close + 1,
            None => return line,
        }
    }
    line
}

/// The delimiter of a heredoc started on this line (`<<EOF`, `<<-'EOF'`), if any.
fn heredoc_delimiter(code: &str) -> Option<String> {
    let at = code.find("<<")?;
    let rest = code[at + 2..].trim_start_matches(['-', '~']).trim_start();
    if rest.starts_with('<') {
        return None;
    }
    let word: String = rest
        .trim_start_matches(['\'', '"'])
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!word.is_empty()).then_some(word)
}

/// A word of a segment and its byte offset in the line.
type Word<'a> = (&'a str, usize);

/// Splits a line into simple commands at `&&`, `||`, `;`, `|`, `&`, `$(`, backticks and
/// parentheses outside quotes, and hands each non-empty one to `each` as its words with their
/// offsets (one buffer for the line's words, reused from segment to segment).
fn for_each_segment<'a>(code: &'a str, mut each: impl FnMut(&[Word<'a>])) {
    let mut words: Vec<Word<'a>> = Vec::new();
    let mut word_start: Option<usize> = None;
    let end_word = |words: &mut Vec<Word<'a>>, start: &mut Option<usize>, end: usize| {
        if let Some(s) = start.take() {
            words.push((&code[s..end], s));
        }
    };
    let mut end_segment = |words: &mut Vec<Word<'a>>| {
        if !words.is_empty() {
            each(words);
            words.clear();
        }
    };
    let bytes = code.as_bytes();
    let mut i = 0;
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        if let Some(q) = quote {
            if bytes[i] == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        match step_at(code, i) {
            Step::Quote(q) => {
                quote = Some(q);
                word_start.get_or_insert(i);
                i += 1;
            }
            Step::Word(len) => {
                word_start.get_or_insert(i);
                i += len;
            }
            Step::Gap(len) => {
                end_word(&mut words, &mut word_start, i);
                i += len;
            }
            Step::Separator(len) => {
                end_word(&mut words, &mut word_start, i);
                end_segment(&mut words);
                i += len;
            }
            Step::Stop => break,
        }
    }
    end_word(&mut words, &mut word_start, bytes.len());
    end_segment(&mut words);
}

/// What the text at an offset outside quotes does to the words [`for_each_segment`] collects.
enum Step {
    /// Opens a quote, which is part of a word.
    Quote(u8),
    /// Part of a word this many bytes long.
    Word(usize),
    /// Ends the word: whitespace, or a line continuation this many bytes long.
    Gap(usize),
    /// Ends the word and the simple command: a separator this many bytes long.
    Separator(usize),
    /// An arithmetic expansion that does not close: reading stops here.
    Stop,
}

/// The step at byte `i` of `code`, which is not inside quotes.
fn step_at(code: &str, i: usize) -> Step {
    let bytes = code.as_bytes();
    let b = bytes[i];
    // Arithmetic (`$(( now - start ))`, `(( n++ ))`) names variables, not commands.
    if bytes[i..].starts_with(b"$((") || bytes[i..].starts_with(b"((") {
        let open = if b == b'$' { 3 } else { 2 };
        return match code[i + open..].find("))") {
            Some(close) => Step::Word(open + close + 2),
            None => Step::Stop,
        };
    }
    match b {
        b'\'' | b'"' => Step::Quote(b),
        b'$' if bytes.get(i + 1) == Some(&b'(') => Step::Separator(2),
        b';' | b'|' | b'&' | b'`' | b'(' | b')' | b'\n' => Step::Separator(1),
        b'\\' if bytes.get(i + 1) == Some(&b'\n') => Step::Gap(2),
        b'\\' if bytes[i + 1..].starts_with(b"\r\n") => Step::Gap(3),
        _ if b.is_ascii_whitespace() => Step::Gap(1),
        _ => Step::Word(1),
    }
}

/// The command a simple command runs: skips assignments, keywords and wrappers.
fn command_word<'a>(words: &[Word<'a>]) -> Option<Word<'a>> {
    let mut i = 0;
    while i < words.len() {
        let word = words[i].0;
        if is_assignment(word)
            || matches!(
                word,
                "then" | "do" | "else" | "elif" | "if" | "while" | "until" | "!" | "{"
            )
        {
            i += 1;
            continue;
        }
        let skip_flags_with_value: &[&str] = match word {
            "sudo" => &["-u", "-g", "-C", "-D", "-h", "-p", "-U"],
            "env" => &["-u", "-C", "-S"],
            "xargs" => &["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a"],
            "nice" => &["-n"],
            "time" | "exec" | "nohup" | "command" => &[],
            "timeout" => {
                i += 1;
                while i < words.len() && words[i].0.starts_with('-') {
                    i += 1;
                }
                i += 1; // the duration
                continue;
            }
            _ => return Some(words[i]),
        };
        if word == "command" && words.get(i + 1).is_some_and(|w| w.0 == "-v" || w.0 == "-V") {
            return None;
        }
        i += 1;
        while i < words.len() && (words[i].0.starts_with('-') || is_assignment(words[i].0)) {
            if skip_flags_with_value.contains(&words[i].0) {
                i += 1;
            }
            i += 1;
        }
    }
    None
}

/// True when the word is a command name: not a path, variable, number, keyword, capitalised
/// word (`GET`, `Note`) or dotted expression (`console.log`; `python3.11` is fine).
fn is_command_name(name: &str) -> bool {
    let dotted = name
        .split('.')
        .skip(1)
        .any(|part| !part.bytes().all(|b| b.is_ascii_digit()));
    let capitalised = name.bytes().next().is_some_and(|b| b.is_ascii_uppercase());
    !dotted
        && !capitalised
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-' | b'+'))
        && !name.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && !KEYWORDS.contains(&name)
}

fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(script: &str) -> Vec<String> {
        commands(script).into_iter().map(|(n, _)| n).collect()
    }

    #[test]
    fn finds_commands_through_lists_pipes_and_wrappers() {
        assert_eq!(
            names("jq . a.json | sort && curl -s x || echo no; gh pr list"),
            ["jq", "sort", "curl", "echo", "gh"]
        );
        assert_eq!(names("sudo -u me apt-get install -y ffmpeg"), ["apt-get"]);
        assert_eq!(names("env FOO=1 BAR=2 node app.js"), ["node"]);
        assert_eq!(names("FOO=1 python3 x.py"), ["python3"]);
        assert_eq!(names("x=$(git rev-parse HEAD)"), ["git"]);
        assert_eq!(
            names("find . -name '*.md' | xargs -I {} wc -l {}"),
            ["find", "wc"]
        );
        assert_eq!(names("timeout 10 ffmpeg -i a b"), ["ffmpeg"]);
        assert_eq!(names("if command -v rg >/dev/null; then rg x; fi"), ["rg"]);
        assert_eq!(names("$ docker ps"), ["docker"]);
        assert_eq!(
            names("./scripts/run.sh --x && /usr/bin/env"),
            Vec::<String>::new()
        );
        let (commands, paths) = commands_and_paths("./scripts/run.sh --x && python3 scripts/a.py");
        let only_names = |found: Vec<Found>| found.into_iter().map(|(n, _)| n).collect::<Vec<_>>();
        assert_eq!(only_names(paths), ["./scripts/run.sh"]);
        assert_eq!(only_names(commands), ["python3"]);
        assert_eq!(names("echo 'a | b; c' # gh comment"), ["echo"]);
        assert_eq!(
            names("GET /api/v1\nconsole.log\npython3.11 -m venv v"),
            ["python3.11"]
        );
    }

    #[test]
    fn multi_line_strings_and_continuations() {
        assert_eq!(
            names("docker run \\\r\n  --rm ü \\\r\n  && gh x"),
            ["docker", "gh"]
        );
        assert_eq!(
            names("node -e \"\nimport x from 'y';\nprint(1)\n\"\njq ."),
            ["node", "jq"]
        );
        assert_eq!(
            names("docker run \\\n  --rm image \\\n  && gh x"),
            ["docker", "gh"]
        );
    }

    #[test]
    fn skips_functions_arithmetic_and_case_alternatives() {
        let script = "usage() {\n  echo hi\n}\nfunction list_sessions {\n  tmux ls\n}\nusage\nlist_sessions\nelapsed=$(( now - start_epoch ))\n(( n++ ))\ncase $m in\n  gpt-4o | gpt-4o-mini) curl -s x ;;\nesac\n";
        assert_eq!(names(script), ["echo", "tmux", "curl"]);
    }

    #[test]
    fn functions_defined_are_read_outside_here_documents() {
        let script = "check() {\n  wx \"$1\"\n}\npython3 - <<EOF\ndef main():\n    pass\nmain()\nEOF\nfunction report {\n  true\n}\n";
        assert_eq!(functions_defined(script), ["check", "report"]);
    }

    #[test]
    fn skips_usage_synopses() {
        assert_eq!(
            names("marktplaats search --sort <relevance|date|price-asc> x\njq . <in.json | gh x\n"),
            ["jq", "gh"]
        );
    }

    #[test]
    fn skips_fields_of_request_bodies() {
        assert_eq!(
            names(
                "avatar: <image file (max 2MB)>\ncase $1 in\n  stats) jq . x ;;\nesac\ngh pr list\n"
            ),
            ["jq", "gh"]
        );
    }

    #[test]
    fn skips_heredoc_bodies() {
        let script = "cat <<EOF > f\nnotacommand here\nEOF\nrg x\n";
        assert_eq!(names(script), ["cat", "rg"]);
    }

    #[test]
    fn offsets_point_at_the_word() {
        let script = "echo a\n  jq .x\n";
        let found = commands(script);
        assert_eq!(&script[found[1].1..found[1].1 + 2], "jq");
    }

    #[test]
    fn env_vars_skip_defaults_locals_and_assignments() {
        let script =
            "curl -H \"Bearer $GITHUB_TOKEN\" ${API_URL} ${PORT:-80} $lower\nOUT=1; echo $OUT\n";
        let vars: Vec<String> = env_vars(script).into_iter().map(|(n, _)| n).collect();
        assert_eq!(vars, ["GITHUB_TOKEN", "API_URL"]);
    }

    /// Assignments and declarations as words split one by one find them: the definition the
    /// memchr search must agree with.
    fn assigned_by_words(script: &str) -> std::collections::BTreeSet<&str> {
        let mut names = std::collections::BTreeSet::new();
        for word in script.split(is_word_separator) {
            if let Some((name, _)) = word.split_once('=').filter(|(n, _)| is_env_name(n)) {
                names.insert(name);
            }
        }
        for line in script.lines() {
            let mut previous = "";
            for word in line.split_whitespace() {
                if matches!(previous, "read" | "for" | "local" | "export" | "declare")
                    && is_env_name(word)
                {
                    names.insert(word);
                }
                previous = word;
            }
        }
        names
    }

    #[test]
    fn assigned_names_are_the_words_that_assign_or_declare() {
        let scripts = [
            "OUT=1; echo $OUT\nexport API_URL=x\nread NAME\nfor FILE in *; do :; done",
            "A=1 B==2 x+C=3 D=E=4 =5 (F=6) `G=7` ;H=8 lower=9 Ab=1 _X=1 X1=1",
            "export\nFOO\nlocal\r\nBAR\nlocal BAZ\r\ndeclare QUX=1 for  SPACED  x",
            "format FOO\nxfor BAR\nfor for LOOP\nread\u{a0}NBSP \u{2003}EM=1 \u{85}NEL=1",
            "é=1 éFOO=1 FOOé=1 for FOOé\nfor\tTAB\texport ONE TWO\ndeclare -x NOPE",
            "",
            "for",
            "X=",
            "=",
        ];
        for script in scripts {
            let found: std::collections::BTreeSet<&str> =
                assigned_names(script).into_iter().collect();
            assert_eq!(found, assigned_by_words(script), "{script:?}");
        }
        let found = assigned_names(scripts[0]);
        for name in ["OUT", "API_URL", "NAME", "FILE"] {
            assert!(found.contains(&name), "{name}");
        }
    }

    /// Every text file of the shared corpus (needs ../shared; skipped without it).
    #[test]
    fn assigned_names_agree_with_the_words_on_every_corpus_file() {
        let Some(corpus) = crate::testing::shared_corpus() else {
            return;
        };
        let mut checked = 0;
        for (path, text) in crate::testing::texts_under(&corpus, |_| true) {
            let found: std::collections::BTreeSet<&str> =
                assigned_names(&text).into_iter().collect();
            assert_eq!(found, assigned_by_words(&text), "{}", path.display());
            checked += 1;
        }
        assert!(checked > 10_000, "only {checked} files read");
    }

    /// `strip_comment` and `open_quote` as a character-by-character scan reads them: the
    /// definition the byte scans must agree with.
    fn strip_comment_by_chars(line: &str) -> &str {
        let mut quote: Option<char> = None;
        let mut prev = ' ';
        for (i, c) in line.char_indices() {
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None if c == '\'' || c == '"' => quote = Some(c),
                None if c == '#' && prev.is_whitespace() => return &line[..i],
                None => {}
            }
            prev = c;
        }
        line
    }

    fn open_quote_by_chars(text: &str) -> bool {
        let mut quote: Option<char> = None;
        let mut escaped = false;
        for c in strip_comment_by_chars(text).chars() {
            match (quote, c) {
                (_, '\\') if !escaped && quote != Some('\'') => {
                    escaped = true;
                    continue;
                }
                (Some(q), c) if c == q && !escaped => quote = None,
                (None, '\'' | '"') if !escaped => quote = Some(c),
                _ => {}
            }
            escaped = false;
        }
        quote.is_some()
    }

    fn assert_line_scans_agree(line: &str) {
        assert_eq!(
            strip_comment(line),
            strip_comment_by_chars(line),
            "{line:?}"
        );
        assert_eq!(open_quote(line), open_quote_by_chars(line), "{line:?}");
    }

    #[test]
    fn comments_and_open_quotes_are_found_as_by_characters() {
        let lines = [
            "echo a # comment",
            "#!/bin/sh",
            "echo a#b",
            "echo 'a # b' # c",
            "echo \"a # b\" c",
            "echo \"it's\" # x",
            "echo 'open",
            "echo \"open \\\" still",
            "echo \\'x",
            "é# not a comment é #yes",
            "x\u{a0}# after a no-break space",
            "x\u{3000}#ideographic",
            "\t#tab",
            "echo \"unclosed # in quote",
            "'",
            "",
            "\\\\'",
            "a \\é' b",
        ];
        for line in lines {
            assert_line_scans_agree(line);
        }
        assert_eq!(strip_comment("echo 'a # b' # c"), "echo 'a # b' ");
        assert!(open_quote("echo \"open \\\" still"));
    }

    /// Every line of every text file of the shared corpus (needs ../shared; skipped without it).
    #[test]
    fn comments_and_open_quotes_agree_on_every_corpus_line() {
        let Some(corpus) = crate::testing::shared_corpus() else {
            return;
        };
        let mut lines = 0;
        for (_, text) in crate::testing::texts_under(&corpus, |_| true) {
            for line in text.lines() {
                assert_line_scans_agree(line);
                lines += 1;
            }
        }
        assert!(lines > 100_000, "only {lines} lines read");
    }
}
