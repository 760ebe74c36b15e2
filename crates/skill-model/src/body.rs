//! The Markdown body of a skill as lint needs it: links, fenced and indented code blocks, and
//! inline code, each with its span in `SKILL.md`.

use super::span::Span;
use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Parser, Tag, TagEnd};

/// A link or image destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The destination as written.
    pub dest: String,
    /// Where the destination (or, failing that, the whole link) is.
    pub span: Span,
}

/// A code block: its info-string language and its text in pieces with their offsets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodeBlock {
    /// The first word of the info string, lower-cased (`bash`, `python`, ...), if any.
    pub lang: Option<String>,
    /// The text, in the pieces the parser gave, each with the `SKILL.md` offset it starts at.
    pub pieces: Vec<(String, usize)>,
    /// The whole block, fences included.
    pub span: Span,
    /// The title of the heading the block sits under, lower-cased (empty before the first).
    pub section: String,
    /// The titles of the headings around that one, outermost first, lower-cased: `## Setup`
    /// for a block under `### Option 1: Docker`. The document's title (a first heading of level
    /// 1) is not one: it names the whole skill.
    pub outer_sections: Vec<String>,
}

impl CodeBlock {
    /// The lines of the block with the `SKILL.md` offset of each.
    pub fn lines(&self) -> Vec<(&str, usize)> {
        let mut out = Vec::new();
        for (text, start) in &self.pieces {
            let mut offset = *start;
            for line in text.split_inclusive('\n') {
                out.push((line.trim_end_matches(['\n', '\r']), offset));
                offset += line.len();
            }
        }
        out
    }
}

/// What lint reads from the body.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Body {
    /// Links and images.
    pub links: Vec<Link>,
    /// Code blocks.
    pub code_blocks: Vec<CodeBlock>,
    /// Inline code spans: text and span.
    pub inline_code: Vec<(String, Span)>,
}

/// Where the parser is among the headings: the title being read and the headings around it.
#[derive(Default)]
struct Headings {
    /// The current heading's title, lower-cased (empty before the first).
    section: String,
    /// Inside a heading, whose text is the title.
    reading: bool,
    level: Option<HeadingLevel>,
    /// (level, title) of each heading enclosing the current one; the document's title (a first
    /// heading of level 1) is left out.
    outer: Vec<(HeadingLevel, String)>,
    seen: usize,
}

impl Headings {
    /// A heading of `level` starts: the one before it becomes an enclosing heading, and those it
    /// does not enclose are dropped.
    fn start(&mut self, level: HeadingLevel) {
        let title = self.seen == 1 && self.level == Some(HeadingLevel::H1);
        if let Some(previous) = self.level
            && !self.section.is_empty()
            && !title
        {
            self.outer
                .push((previous, std::mem::take(&mut self.section)));
        }
        self.outer.retain(|(at, _)| *at < level);
        self.level = Some(level);
        self.seen += 1;
        self.section.clear();
        self.reading = true;
    }

    /// Text inside a heading adds to its title.
    fn read(&mut self, text: &str) {
        if self.reading {
            self.section.push_str(&text.to_lowercase());
        }
    }

    fn outer_sections(&self) -> Vec<String> {
        self.outer.iter().map(|(_, t)| t.clone()).collect()
    }
}

impl Body {
    /// Parses `text`, which starts at byte `base` of `SKILL.md`.
    pub fn parse(text: &str, base: usize) -> Body {
        let mut body = Body::default();
        let mut block: Option<CodeBlock> = None;
        let mut block_start = base;
        let mut headings = Headings::default();
        for (event, range) in Parser::new(text).into_offset_iter() {
            match event {
                Event::Start(Tag::Heading { level, .. }) => headings.start(level),
                Event::End(TagEnd::Heading(_)) => headings.reading = false,
                Event::Text(t) if headings.reading => headings.read(&t),
                Event::Start(Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. }) => {
                    body.links
                        .push(Link::at(text, base, range, dest_url.into_string()));
                }
                Event::Start(Tag::CodeBlock(kind)) => {
                    block_start = base + range.start;
                    block = Some(CodeBlock {
                        lang: language(&kind),
                        pieces: Vec::new(),
                        span: Span::new(block_start, block_start),
                        section: headings.section.clone(),
                        outer_sections: headings.outer_sections(),
                    });
                }
                Event::Text(t) => {
                    if let Some(b) = block.as_mut() {
                        b.pieces.push((t.into_string(), base + range.start));
                    }
                }
                Event::End(TagEnd::CodeBlock) => {
                    body.code_blocks.extend(block.take().map(|mut b| {
                        b.span = Span::new(block_start, base + range.end);
                        b
                    }));
                }
                Event::Code(code) => {
                    headings.read(&code);
                    body.inline_code.push((
                        code.into_string(),
                        Span::new(base + range.start, base + range.end),
                    ));
                }
                _ => {}
            }
        }
        body
    }
}

impl Link {
    /// The link to `dest` in the element at `range` of `text` (which starts at byte `base` of
    /// `SKILL.md`), spanning the destination where it is written out.
    fn at(text: &str, base: usize, range: std::ops::Range<usize>, dest: String) -> Link {
        let whole = &text[range.clone()];
        let span = match whole.rfind(dest.as_str()).filter(|_| !dest.is_empty()) {
            Some(i) => Span::new(base + range.start + i, base + range.start + i + dest.len()),
            None => Span::new(base + range.start, base + range.end),
        };
        Link { dest, span }
    }
}

/// A code block's language: the first word of a fenced block's info string, lower-cased.
fn language(kind: &CodeBlockKind) -> Option<String> {
    match kind {
        CodeBlockKind::Fenced(info) => info
            .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
            .next()
            .filter(|l| !l.is_empty())
            .map(str::to_ascii_lowercase),
        CodeBlockKind::Indented => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_blocks_know_their_section() {
        let text = "# Tool\n\n## Install `gh`\n\n```bash\nbrew install gh\n```\n\n## Use\n\n```\ngh pr list\n```\n";
        let body = Body::parse(text, 0);
        let sections: Vec<&str> = body
            .code_blocks
            .iter()
            .map(|b| b.section.as_str())
            .collect();
        assert_eq!(sections, ["install gh", "use"]);
    }

    #[test]
    fn code_blocks_know_the_sections_around_theirs() {
        let text = "# Tool

## Setup

### Option 1: Docker

```
docker run x
```

## Use

```
x run
```

### More

#### Deeper

```
x more
```
";
        let body = Body::parse(text, 0);
        let outer: Vec<&[String]> = body
            .code_blocks
            .iter()
            .map(|b| b.outer_sections.as_slice())
            .collect();
        assert_eq!(outer[0], ["setup"]);
        assert!(outer[1].is_empty());
        assert_eq!(outer[2], ["use", "more"]);
        // A later level-1 heading is a section like any other.
        let text = "# Tool\n\n# Installation\n\n## macOS\n\n```\nbrew install x\n```\n";
        let body = Body::parse(text, 0);
        assert_eq!(body.code_blocks[0].outer_sections, ["installation"]);
    }

    #[test]
    fn finds_links_code_and_inline_code() {
        let text = "See [ref](references/a.md) and `scripts/run.sh`.\n\n```bash\njq . x\ngh pr list\n```\n";
        let body = Body::parse(text, 10);
        assert_eq!(body.links[0].dest, "references/a.md");
        assert_eq!(body.links[0].span, Span::new(10 + 10, 10 + 25));
        assert_eq!(body.inline_code[0].0, "scripts/run.sh");
        let block = &body.code_blocks[0];
        assert_eq!(block.lang.as_deref(), Some("bash"));
        let lines = block.lines();
        assert_eq!(lines[1].0, "gh pr list");
        assert_eq!(&text[lines[1].1 - 10..lines[1].1 - 10 + 10], "gh pr list");
        assert_eq!(block.section, "");
        let fenced = block.span.start - 10..block.span.end - 10;
        assert_eq!(&text[fenced], "```bash\njq . x\ngh pr list\n```");
    }
}
