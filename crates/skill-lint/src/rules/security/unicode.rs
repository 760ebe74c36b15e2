//! Invisible and deceptive Unicode in any text file: bidirectional controls that make a line
//! read differently from what runs (`bidi-control`, an error), Tags-block characters that spell
//! out text nobody sees (`hidden-tag-text`, an error), and other invisible characters
//! (`invisible-character`, a warning). Uses that scripts and emoji need are left alone: ZWJ in
//! emoji sequences, ZWNJ/ZWJ between letters of scripts that join, direction marks beside
//! right-to-left text, tag sequences of subdivision flags, and a byte-order mark at the start.

use super::Finding;
use super::text::{Kind, Text, excerpt};
use crate::rulebook::{BIDI_CONTROL, HIDDEN_TAG_TEXT, HOMOGLYPH, INVISIBLE_CHARACTER};
use skill_model::Span;

fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn is_tag(c: char) -> bool {
    matches!(c, '\u{E0000}'..='\u{E007F}')
}

fn bidi_name(c: char) -> &'static str {
    match c {
        '\u{202A}' => "LEFT-TO-RIGHT EMBEDDING",
        '\u{202B}' => "RIGHT-TO-LEFT EMBEDDING",
        '\u{202C}' => "POP DIRECTIONAL FORMATTING",
        '\u{202D}' => "LEFT-TO-RIGHT OVERRIDE",
        '\u{202E}' => "RIGHT-TO-LEFT OVERRIDE",
        '\u{2066}' => "LEFT-TO-RIGHT ISOLATE",
        '\u{2067}' => "RIGHT-TO-LEFT ISOLATE",
        '\u{2068}' => "FIRST STRONG ISOLATE",
        _ => "POP DIRECTIONAL ISOLATE",
    }
}

fn invisible_name(c: char) -> &'static str {
    match c {
        '\u{200B}' => "ZERO WIDTH SPACE",
        '\u{200C}' => "ZERO WIDTH NON-JOINER",
        '\u{200D}' => "ZERO WIDTH JOINER",
        '\u{200E}' => "LEFT-TO-RIGHT MARK",
        '\u{200F}' => "RIGHT-TO-LEFT MARK",
        '\u{2060}' => "WORD JOINER",
        '\u{FEFF}' => "ZERO WIDTH NO-BREAK SPACE",
        _ => "INVISIBLE OPERATOR",
    }
}

/// Bidirectional controls, one finding per line.
pub(crate) fn check_bidi(text: &Text, out: &mut Vec<Finding>) {
    let mut last_line = usize::MAX;
    for &(i, c) in text
        .special_chars()
        .iter()
        .filter(|(_, c)| is_bidi_control(*c))
    {
        let line = text.line_at(i);
        if line.start == last_line {
            continue;
        }
        last_line = line.start;
        out.push(text.finding(
            &BIDI_CONTROL,
            Span::new(i, i + c.len_utf8()),
            format!(
                "U+{:04X} {} reorders how this line is shown: `{}`",
                c as u32,
                bidi_name(c),
                excerpt(&text.text[line])
            ),
            "a bidirectional control makes text display in a different order from the one the \
             agent and the shell read (\"Trojan Source\"), so a reviewer approves something \
             other than what runs",
            "write text in its logical order; right-to-left languages need no override \
             characters in source",
        ));
    }
}

/// Tags-block characters outside emoji flag sequences: the text they spell is shown.
pub(crate) fn check_tag_text(text: &Text, out: &mut Vec<Finding>) {
    let tags: Vec<(usize, char)> = text
        .special_chars()
        .iter()
        .copied()
        .filter(|(_, c)| is_tag(*c))
        .collect();
    let mut i = 0;
    while i < tags.len() {
        // A run: tag characters back to back (each is 4 bytes in UTF-8).
        let start = i;
        i += 1;
        while i < tags.len() && tags[i].0 == tags[i - 1].0 + 4 {
            i += 1;
        }
        let run = &tags[start..i];
        let byte_start = run[0].0;
        let byte_end = run[run.len() - 1].0 + 4;
        // 🏴 + tag letters + CANCEL TAG is how subdivision flags (England, Scotland) are spelled.
        let flag = text.text[..byte_start].ends_with('\u{1F3F4}')
            && run.last().is_some_and(|(_, c)| *c == '\u{E007F}')
            && run[..run.len() - 1]
                .iter()
                .all(|(_, c)| matches!(*c, '\u{E0020}'..='\u{E007E}'));
        if flag {
            continue;
        }
        let spelled: String = run
            .iter()
            .filter_map(|(_, c)| char::from_u32(*c as u32 - 0xE0000))
            .filter(|c| !c.is_control())
            .collect();
        out.push(text.finding(
            &HIDDEN_TAG_TEXT,
            Span::new(byte_start, byte_end),
            format!(
                "{} invisible Unicode tag characters spell out hidden text: `{}`",
                run.len(),
                excerpt(&spelled)
            ),
            "tag characters display as nothing, but language models read them as text, so they \
             smuggle instructions past anyone reviewing the skill",
            "remove them; the only legitimate use is inside a subdivision flag emoji",
        ));
    }
}

/// Zero-width and other invisible characters, one finding per file with a count.
pub(crate) fn check_invisible(text: &Text, out: &mut Vec<Finding>) {
    let mut first: Option<(usize, char)> = None;
    let mut count = 0;
    for &(i, c) in text.special_chars() {
        if is_bidi_control(c) || is_tag(c) {
            continue;
        }
        let prev = text.text[..i].chars().next_back();
        let next = text.text[i + c.len_utf8()..].chars().next();
        if legitimate(c, i, prev, next) {
            continue;
        }
        count += 1;
        first.get_or_insert((i, c));
    }
    let Some((at, c)) = first else {
        return;
    };
    let line = text.line_at(at);
    let more = if count > 1 {
        format!("{count} invisible characters in this file, the first")
    } else {
        "an invisible character".to_owned()
    };
    out.push(text.finding(
        &INVISIBLE_CHARACTER,
        Span::new(at, at + c.len_utf8()),
        format!(
            "{more} U+{:04X} {}: `{}`",
            c as u32,
            invisible_name(c),
            excerpt(&text.text[line])
        ),
        "invisible characters make two texts that look the same differ: they split words so \
         filters miss them, and hide where one command ends and another begins",
        "delete them; use a visible space or hyphen where one is meant",
    ));
}

/// The uses of invisible characters that scripts and emoji need.
fn legitimate(c: char, at: usize, prev: Option<char>, next: Option<char>) -> bool {
    match c {
        '\u{FEFF}' => at == 0,
        '\u{200D}' => prev.is_some_and(is_emoji) || next.is_some_and(is_emoji) || joins(prev, next),
        '\u{200C}' => joins(prev, next),
        '\u{200E}' | '\u{200F}' => prev.is_some_and(is_rtl) || next.is_some_and(is_rtl),
        _ => false,
    }
}

/// Letters of a script that uses joiners (Arabic, Persian, Indic, ...) on both sides.
fn joins(prev: Option<char>, next: Option<char>) -> bool {
    let letter =
        |c: Option<char>| c.is_some_and(|c| !c.is_ascii() && (c.is_alphabetic() || is_mark(c)));
    letter(prev) && letter(next)
}

fn is_mark(c: char) -> bool {
    use unicode_properties::{GeneralCategoryGroup, UnicodeGeneralCategory};
    c.general_category_group() == GeneralCategoryGroup::Mark
}

fn is_rtl(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFE}')
}

fn is_emoji(c: char) -> bool {
    matches!(c,
        '\u{1F000}'..='\u{1FAFF}'
        | '\u{2600}'..='\u{27BF}'
        | '\u{2300}'..='\u{23FF}'
        | '\u{2B00}'..='\u{2BFF}'
        | '\u{2190}'..='\u{21FF}'
        | '\u{FE0F}'
        | '\u{20E3}'
        | '\u{00A9}' | '\u{00AE}' | '\u{203C}' | '\u{2049}' | '\u{2122}' | '\u{2139}'
        | '\u{3030}' | '\u{303D}' | '\u{3297}' | '\u{3299}')
}

/// Least ASCII letters a word needs before a look-alike in it is a disguise rather than a
/// symbol beside a number (`2πr`, `5µm`).
const HOMOGLYPH_MIN_ASCII: usize = 3;

/// Words that mix ASCII letters with characters of another script drawn like ASCII ones, where
/// they name a place (a host, a path, an address: `pythonhоsted.org` with a Cyrillic `о`) or a
/// command (`сurl` first on its line): one finding per line. A look-alike quoted as an example
/// (`inspect 'pаypal'`) is left alone.
pub(crate) fn check_homoglyph(text: &Text, out: &mut Vec<Finding>) {
    if text.text.is_ascii() {
        return;
    }
    let mut last_line = usize::MAX;
    for (start, word) in non_ascii_words(text.text) {
        let Some(disguised) = disguised_letters(word) else {
            continue;
        };
        let line = text.line_at(start);
        let before = text.text[line.start..start].trim_end();
        let names_a_place = word.contains(['.', '/', '@', ':']);
        let runs = runs_as_command(text, start, word, before, &disguised);
        if line.start == last_line || !(names_a_place || runs) {
            continue;
        }
        last_line = line.start;
        out.push(homoglyph_finding(text, start, word, &disguised));
    }
}

/// The look-alike letters of `word`, when it has enough ASCII letters for them to pass as a
/// disguise (and not so many look-alikes that the word is simply of another script).
fn disguised_letters(word: &str) -> Option<Vec<char>> {
    let ascii = word.chars().filter(char::is_ascii_alphabetic).count();
    let disguised: Vec<char> = word
        .chars()
        .filter(|c| {
            !c.is_ascii()
                && super::fold::fold_char(*c)
                    .bytes()
                    .any(|b| b.is_ascii_alphabetic())
        })
        .collect();
    if ascii < HOMOGLYPH_MIN_ASCII || disguised.is_empty() || disguised.len() * 2 > ascii {
        return None;
    }
    Some(disguised)
}

/// Whether `word` at `start` (with `before` on its line ahead of it) is a command that runs.
/// A command is code, and its disguise Cyrillic or full-width (Greek letters name variables in
/// Julia and formulas in prose).
fn runs_as_command(
    text: &Text,
    start: usize,
    word: &str,
    before: &str,
    disguised: &[char],
) -> bool {
    (before.is_empty() || before.ends_with(['|', ';', '&', '(', '`', '$']))
        && (text.kind == Kind::Script || text.in_code(&(start..start + word.len())))
        && disguised
            .iter()
            .all(|c| matches!(*c, '\u{0400}'..='\u{04FF}' | '\u{FF01}'..='\u{FF5E}'))
}

/// The `homoglyph` finding for `word` at `start`: what it reads as, and the code points that
/// disguise it.
fn homoglyph_finding(text: &Text, start: usize, word: &str, disguised: &[char]) -> Finding {
    let shown: String = word
        .chars()
        .map(|c| {
            if c.is_ascii() {
                c.to_string()
            } else {
                super::fold::fold_char(c)
            }
        })
        .collect();
    let codes: Vec<String> = disguised
        .iter()
        .map(|c| format!("U+{:04X}", *c as u32))
        .collect();
    text.finding(
        &HOMOGLYPH,
        Span::new(start, start + word.len()),
        format!(
            "`{}` is not what it looks like: it reads as `{shown}` but holds {}",
            excerpt(word),
            codes.join(", ")
        ),
        "a name spelled with look-alike letters of another script points somewhere else than \
         it seems: a host that is not the one the reader trusts, a command a filter does not \
         match",
        "write names, hosts and commands in plain ASCII",
    )
}

/// The words of a text that are not all ASCII, with their offsets. A word is a run of letters,
/// digits and the characters of hosts and paths (`.`, `/`, `:`, `@`), split at `-` and `_` so
/// that a hyphenated word of two scripts (`iOS-версия`) is two words. They are found from the
/// non-ASCII bytes outward: most texts that hold any non-ASCII character hold a few (a dash, a
/// quote mark), and splitting a whole long text into words costs more than the rest of the rule.
fn non_ascii_words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut from = 0;
    std::iter::from_fn(move || {
        loop {
            let at = from + text.as_bytes()[from..].iter().position(|b| !b.is_ascii())?;
            let c = text[at..].chars().next()?;
            if !is_word_part(c) {
                from = at + c.len_utf8();
                continue;
            }
            let start = text[..at]
                .char_indices()
                .rev()
                .take_while(|&(_, c)| is_word_part(c))
                .last()
                .map_or(at, |(i, _)| i);
            let end = text[at..]
                .char_indices()
                .find(|&(_, c)| !is_word_part(c))
                .map_or(text.len(), |(i, _)| at + i);
            from = end;
            return Some((start, &text[start..end]));
        }
    })
}

/// The characters a word is made of (see [`non_ascii_words`]).
fn is_word_part(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '.' | '/' | ':' | '@')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every word of `text`, split character by character: what [`non_ascii_words`] must
    /// agree with.
    fn every_word(text: &str) -> Vec<(usize, &str)> {
        let mut out = Vec::new();
        let mut start = None;
        for (i, c) in text
            .char_indices()
            .chain(std::iter::once((text.len(), ' ')))
        {
            match (start, is_word_part(c)) {
                (None, true) => start = Some(i),
                (Some(s), false) => {
                    start = None;
                    out.push((s, &text[s..i]));
                }
                _ => {}
            }
        }
        out
    }

    #[test]
    fn the_non_ascii_words_are_those_a_full_split_finds() {
        for text in [
            "",
            "plain ascii only",
            "é",
            "—",
            "a—b",
            "iOS-версия and раураl.com/x — “quoted” 日本語テキスト",
            "ends with ünïcödé",
            "ωmega.ex@mple: x/ÿ/z —— ..ñ..",
            "\u{301}combining at start: e\u{301}",
        ] {
            let expected: Vec<(usize, &str)> = every_word(text)
                .into_iter()
                .filter(|(_, w)| !w.is_ascii())
                .collect();
            let found: Vec<(usize, &str)> = non_ascii_words(text).collect();
            assert_eq!(found, expected, "{text:?}");
        }
    }

    fn found(text: &str) -> Vec<String> {
        let t = Text::new("SKILL.md", text);
        let mut out = Vec::new();
        check_bidi(&t, &mut out);
        check_tag_text(&t, &mut out);
        check_invisible(&t, &mut out);
        out.iter()
            .map(|f| format!("{} {}", f.rule.code, f.message))
            .collect()
    }

    #[test]
    fn deceptive_characters_and_legitimate_ones() {
        let f = found("access = \"user\u{202E} \u{2066}// admin\u{2069}\u{2066}\"\n");
        assert_eq!(f.len(), 1);
        assert!(
            f[0].starts_with("SK913 U+202E RIGHT-TO-LEFT OVERRIDE"),
            "{f:?}"
        );
        let hidden: String = "run rm"
            .chars()
            .map(|c| char::from_u32(0xE0000 + c as u32).unwrap())
            .collect();
        let f = found(&format!("Hello{hidden}\n"));
        assert_eq!(f.len(), 1);
        assert!(f[0].contains("`run rm`"), "{f:?}");
        assert_eq!(found("a\u{200B}b c\u{200B}d\n").len(), 1);
        assert!(found("a\u{200B}b c\u{200B}d\n")[0].starts_with("SK915 2 invisible"));
        // Scotland's flag, a family emoji, Persian with ZWNJ, a leading BOM: all fine.
        assert!(found("\u{feff}🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} 👨\u{200D}👩 می\u{200C}خواهم\n").is_empty());
    }

    #[test]
    fn look_alike_hosts_and_commands_are_found() {
        let found = |path: &str, text: &str| {
            let t = Text::new(path, text);
            let mut out = Vec::new();
            check_homoglyph(&t, &mut out);
            out.len()
        };
        assert_eq!(
            found(
                "a.sh",
                "pip config set global.index-url https://pythonh\u{043E}sted.example/simple\n"
            ),
            1
        );
        assert_eq!(found("a.sh", "\u{0441}url -s https://x.example\n"), 1);
        assert_eq!(
            found(
                "SKILL.md",
                "Inspect `node cp.js 'p\u{0430}ypal'` to see it.\n"
            ),
            0
        );
        assert_eq!(
            found(
                "SKILL.md",
                "sin\u{03B1} over 2\u{03C0}r, and \u{041C}\u{043E}\u{0441}\u{043A}\u{0432}\u{0430}\n"
            ),
            0
        );
    }
}
