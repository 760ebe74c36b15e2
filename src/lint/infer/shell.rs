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
pub fn commands_and_paths(script: &str) -> (Vec<Found>, Vec<Found>) {
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
    let mut out = Vec::new();
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
        for segment in segments(code) {
            if let Some((word, at)) = command_word(&segment) {
                out.push((word.trim_matches(['"', '\'']).to_owned(), start + at));
            }
        }
    }
    out
}

/// True when `text` ends inside a single- or double-quoted string.
fn open_quote(text: &str) -> bool {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in strip_comment(text).chars() {
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

/// Env vars read by `script` as `$NAME` or `${NAME}` (not `${NAME:-default}`), minus those the
/// script assigns itself.
pub fn env_vars(script: &str) -> Vec<Found> {
    let assigned = assigned_names(script);
    env_refs(script)
        .into_iter()
        .filter(|(n, _)| !assigned.contains(&n.as_str()))
        .collect()
}

/// Every `$NAME` / `${NAME}` reference without a default, assigned or not.
pub fn env_refs(script: &str) -> Vec<Found> {
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
pub fn is_env_name(name: &str) -> bool {
    name.len() >= 2
        && name
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
        && name.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
        && name.bytes().any(|b| b.is_ascii_uppercase())
}

/// Names the script assigns (`X=`, `export X=`, `read X`, `for X in`, `local X`).
pub fn assigned_names(script: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for word in script.split(|c: char| c.is_whitespace() || c == ';' || c == '(' || c == '`') {
        if let Some((name, _)) = word.split_once('=').filter(|(n, _)| is_env_name(n)) {
            names.push(name);
        }
    }
    for line in script.lines() {
        let mut previous = "";
        for word in line.split_whitespace() {
            if matches!(previous, "read" | "for" | "local" | "export" | "declare")
                && is_env_name(word)
            {
                names.push(word);
            }
            previous = word;
        }
    }
    names
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

/// The line up to an unquoted `#` that starts a comment.
fn strip_comment(line: &str) -> &str {
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
/// parentheses outside quotes; each segment is a list of words with offsets.
fn segments(code: &str) -> Vec<Vec<Word<'_>>> {
    fn flush<'a>(code: &'a str, out: &mut [Vec<Word<'a>>], start: &mut Option<usize>, end: usize) {
        if let (Some(s), Some(last)) = (start.take(), out.last_mut()) {
            last.push((&code[s..end], s));
        }
    }
    let mut out = vec![Vec::new()];
    let bytes = code.as_bytes();
    let mut i = 0;
    let mut word_start: Option<usize> = None;
    let mut quote: Option<u8> = None;
    while i < bytes.len() {
        let b = bytes[i];
        if let Some(q) = quote {
            if b == q {
                quote = None;
            }
            i += 1;
            continue;
        }
        let separator = match b {
            b'\'' | b'"' => {
                quote = Some(b);
                word_start.get_or_insert(i);
                i += 1;
                continue;
            }
            b'$' if bytes.get(i + 1) == Some(&b'(') => 2,
            b';' | b'|' | b'&' | b'`' | b'(' | b')' => 1,
            _ => 0,
        };
        if separator > 0 {
            flush(code, &mut out, &mut word_start, i);
            out.push(Vec::new());
            i += separator;
        } else if b == b'\n' {
            flush(code, &mut out, &mut word_start, i);
            out.push(Vec::new());
            i += 1;
        } else if b == b'\\' && bytes.get(i + 1) == Some(&b'\n') {
            flush(code, &mut out, &mut word_start, i);
            i += 2;
        } else if b == b'\\' && bytes[i + 1..].starts_with(b"\r\n") {
            flush(code, &mut out, &mut word_start, i);
            i += 3;
        } else if b.is_ascii_whitespace() {
            flush(code, &mut out, &mut word_start, i);
            i += 1;
        } else {
            word_start.get_or_insert(i);
            i += 1;
        }
    }
    flush(code, &mut out, &mut word_start, bytes.len());
    out.retain(|s| !s.is_empty());
    out
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
}
