//! The frontmatter splitter: finds the `---` lines that fence the YAML, keeping byte offsets so
//! that every later diagnostic can point into `SKILL.md`.

use super::source::BOM;
use super::span::Span;

/// Where the frontmatter and the body lie in a `SKILL.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frontmatter {
    /// The opening `---` line (without its line ending).
    pub open: Span,
    /// The YAML between the fences, line endings included.
    pub yaml: Span,
    /// The closing `---` line (without its line ending).
    pub close: Span,
    /// Everything after the closing line.
    pub body: Span,
}

/// Why no frontmatter could be split off.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitError {
    /// The first line (after a BOM) is not `---`.
    Missing,
    /// No line after the first is `---`.
    Unclosed,
}

/// Splits `text` into frontmatter and body. Line 1 must be `---` (a BOM before it and trailing
/// whitespace after it are tolerated); the frontmatter ends at the next line whose trimmed
/// content is `---`.
pub fn split(text: &str) -> Result<Frontmatter, SplitError> {
    let start = if text.starts_with(BOM) { BOM.len() } else { 0 };
    let mut lines = Lines { text, pos: start };
    let open = lines.next().ok_or(SplitError::Missing)?;
    if text[open.range()].trim_end() != "---" {
        return Err(SplitError::Missing);
    }
    let yaml_start = lines.pos;
    while let Some(line) = lines.next() {
        if text[line.range()].trim() == "---" {
            return Ok(Frontmatter {
                open,
                yaml: Span::new(yaml_start, line.start),
                close: line,
                body: Span::new(lines.pos, text.len()),
            });
        }
    }
    Err(SplitError::Unclosed)
}

/// Lines of a text as spans without their `\n` or `\r\n`.
struct Lines<'a> {
    text: &'a str,
    pos: usize,
}

impl Iterator for Lines<'_> {
    type Item = Span;

    fn next(&mut self) -> Option<Span> {
        if self.pos >= self.text.len() {
            return None;
        }
        let rest = &self.text[self.pos..];
        let (len, advance) = match rest.find('\n') {
            Some(i) => (i, i + 1),
            None => (rest.len(), rest.len()),
        };
        let len = if rest[..len].ends_with('\r') {
            len - 1
        } else {
            len
        };
        let span = Span::new(self.pos, self.pos + len);
        self.pos += advance;
        Some(span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_on_lines() {
        let text = "---\nname: a\n---\nbody\n";
        let fm = split(text).unwrap();
        assert_eq!(&text[fm.yaml.range()], "name: a\n");
        assert_eq!(&text[fm.body.range()], "body\n");
        assert_eq!(&text[fm.close.range()], "---");
    }

    #[test]
    fn tolerates_bom_crlf_and_padding() {
        let text = "\u{feff}---  \r\nname: a\r\n --- \r\nbody";
        let fm = split(text).unwrap();
        assert_eq!(&text[fm.yaml.range()], "name: a\r\n");
        assert_eq!(&text[fm.body.range()], "body");
    }

    #[test]
    fn dashes_inside_a_value_do_not_close() {
        let text = "---\ndescription: a --- b\n---\n";
        let fm = split(text).unwrap();
        assert_eq!(&text[fm.yaml.range()], "description: a --- b\n");
    }

    #[test]
    fn errors() {
        assert_eq!(split(""), Err(SplitError::Missing));
        assert_eq!(split("# title\n"), Err(SplitError::Missing));
        assert_eq!(split("----\n---\n"), Err(SplitError::Missing));
        assert_eq!(split("---\nname: a\n"), Err(SplitError::Unclosed));
        assert_eq!(split("---"), Err(SplitError::Unclosed));
    }

    #[test]
    fn empty_frontmatter() {
        let fm = split("---\n---\n").unwrap();
        assert_eq!(fm.yaml.start, fm.yaml.end);
    }
}
