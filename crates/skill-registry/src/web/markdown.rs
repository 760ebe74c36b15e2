//! A skill's body as HTML for its page: CommonMark (tables, strikethrough) through
//! pulldown-cmark, then an allow-list sanitiser (ammonia), because a body is written by anyone
//! who can publish and read by everyone who opens the page. What survives: text formatting,
//! lists, tables, code, links to http(s)/mailto (marked `nofollow noopener noreferrer`) and to
//! the version's own files, images of the version's own files. What does not: scripts, styles,
//! event handlers, forms, frames, SVG, comments, `javascript:`/`data:` URLs.

use super::text::{decode_percent, encode_path, reveal_bidi};
use pulldown_cmark::{Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use std::borrow::Cow;
use std::collections::HashSet;

/// Where a body's relative links and images point: the files of one version.
#[derive(Debug, Clone)]
pub(crate) struct FileLinks {
    /// The version's page prefix, `/skills/{slug}/{version}`, segments encoded.
    pub base: String,
    /// The version's file paths.
    pub files: HashSet<String>,
}

/// What a relative URL in the body is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    /// A link: the file's page (escaped text), or the file list.
    Page,
    /// An image: the file itself.
    Raw,
}

impl FileLinks {
    /// The attribute's value as the page should have it, `None` to drop the attribute. Runs
    /// after ammonia has removed disallowed schemes, so a value here is http(s)/mailto or
    /// relative.
    fn rewrite<'u>(&self, element: &str, attribute: &str, value: &'u str) -> Option<Cow<'u, str>> {
        let target = match (element, attribute) {
            ("a", "href") => Target::Page,
            ("img", "src") => Target::Raw,
            // A relative `cite` names nothing a reader can follow.
            (_, "cite") if !has_scheme(value) => return None,
            _ => return Some(value.into()),
        };
        let trimmed =
            value.trim_start_matches(|c: char| c.is_ascii_whitespace() || c.is_ascii_control());
        let protocol_relative = trimmed
            .chars()
            .take(2)
            .filter(|c| *c == '/' || *c == '\\')
            .count()
            == 2;
        if has_scheme(trimmed)
            || protocol_relative
            || (target == Target::Page && trimmed.starts_with('#'))
        {
            return Some(value.into());
        }
        let path = resolve(trimmed)?;
        let url = match target {
            Target::Page if self.files.contains(&path) => {
                format!("{}/files/{}", self.base, encode_path(&path))
            }
            Target::Page => format!("{}/files", self.base),
            Target::Raw => format!("{}/raw/{}", self.base, encode_path(&path)),
        };
        Some(url.into())
    }
}

/// True when `url` starts with a scheme (`https:`, `mailto:`), as URL parsers read one.
fn has_scheme(url: &str) -> bool {
    let url = url.trim_start_matches(|c: char| c.is_ascii_whitespace() || c.is_ascii_control());
    let Some((scheme, _)) = url.split_once(':') else {
        return false;
    };
    let mut chars = scheme.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
}

/// The skill-root path a relative URL names (SKILL.md sits at the root, and a leading `/` means
/// the root too); `None` when it climbs out of the skill or its escapes are not UTF-8.
fn resolve(url: &str) -> Option<String> {
    let path = url.split(['#', '?']).next().unwrap_or("");
    let path = decode_percent(path)?;
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop()?;
            }
            s => segments.push(s),
        }
    }
    Some(segments.join("/"))
}

/// One level down, so the page's own `<h1>` (the skill's name) stays the only one.
fn demote(level: HeadingLevel) -> HeadingLevel {
    match level {
        HeadingLevel::H1 => HeadingLevel::H2,
        HeadingLevel::H2 => HeadingLevel::H3,
        HeadingLevel::H3 => HeadingLevel::H4,
        HeadingLevel::H4 => HeadingLevel::H5,
        HeadingLevel::H5 | HeadingLevel::H6 => HeadingLevel::H6,
    }
}

/// `body` (Markdown, untrusted) as sanitised HTML whose relative links and images point into
/// `links`.
pub fn render(body: &str, links: FileLinks) -> String {
    let body = reveal_bidi(body);
    let parser = Parser::new_ext(
        &body,
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH,
    )
    .map(|event| match event {
        Event::Start(Tag::Heading {
            level,
            id,
            classes,
            attrs,
        }) => Event::Start(Tag::Heading {
            level: demote(level),
            id,
            classes,
            attrs,
        }),
        Event::End(TagEnd::Heading(level)) => Event::End(TagEnd::Heading(demote(level))),
        other => other,
    });
    let mut html = String::with_capacity(body.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, parser);
    let mut sanitiser = ammonia::Builder::default();
    sanitiser
        .url_schemes(HashSet::from(["http", "https", "mailto"]))
        // Image maps carry links of their own that nothing here would rewrite.
        .rm_tags(["map", "area"])
        .link_rel(Some("nofollow noopener noreferrer"))
        .url_relative(ammonia::UrlRelative::PassThrough)
        .strip_comments(true)
        .attribute_filter(move |element, attribute, value| {
            links.rewrite(element, attribute, value)
        });
    sanitiser.clean(&html).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn links() -> FileLinks {
        FileLinks {
            base: "/skills/demo/1.0.0".into(),
            files: HashSet::from([
                "references/guide.md".to_owned(),
                "assets/logo.png".to_owned(),
            ]),
        }
    }

    #[test]
    fn relative_links_and_images_point_at_the_versions_files() {
        let html = render(
            "[g](references/guide.md#top) [d](./references/) ![l](assets/logo.png) [x](../../etc/passwd) [a](#here)",
            links(),
        );
        assert!(
            html.contains(r#"href="/skills/demo/1.0.0/files/references/guide.md""#),
            "{html}"
        );
        assert!(
            html.contains(r#"href="/skills/demo/1.0.0/files""#),
            "{html}"
        );
        assert!(
            html.contains(r#"src="/skills/demo/1.0.0/raw/assets/logo.png""#),
            "{html}"
        );
        assert!(!html.contains("passwd\""), "{html}");
        assert!(html.contains(r##"href="#here""##), "{html}");
    }

    #[test]
    fn external_links_are_nofollow_and_headings_move_down() {
        let html = render("# Title\n\n[site](https://example.com)", links());
        assert!(html.contains("<h2>Title</h2>"), "{html}");
        assert!(
            html.contains(r#"rel="nofollow noopener noreferrer""#),
            "{html}"
        );
    }

    #[test]
    fn paths_resolve_inside_the_skill() {
        assert_eq!(resolve("a/./b/../c.md?x#y").as_deref(), Some("a/c.md"));
        assert_eq!(
            resolve("/scripts/run.sh").as_deref(),
            Some("scripts/run.sh")
        );
        assert_eq!(resolve("a%20b.md").as_deref(), Some("a b.md"));
        assert_eq!(resolve("../x"), None);
        assert!(
            has_scheme("https://x")
                && has_scheme("mailto:a@b")
                && !has_scheme("a b:c")
                && !has_scheme("1a:b")
        );
    }
}
