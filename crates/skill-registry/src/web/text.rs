//! Small pure functions the pages format with: dates, sizes, URL pieces, what a file is, and
//! characters that would make one text look like another. Nothing here touches the store.

use skill_model::layout::is_invisible;

/// `YYYY-MM-DD HH:MM UTC` of a time in ms since the epoch.
pub fn date_time(ms: i64) -> String {
    utc(ms, "%Y-%m-%d %H:%M UTC")
}

/// `ms` since the epoch as a UTC calendar date, `2026-11-01`.
pub fn date(ms: i64) -> String {
    utc(ms, "%Y-%m-%d")
}

/// `ms` since the epoch in UTC, as `format` (strftime) says; empty outside jiff's range.
fn utc(ms: i64, format: &str) -> String {
    jiff::Timestamp::from_millisecond(ms)
        .map(|t| t.strftime(format).to_string())
        .unwrap_or_default()
}

/// A byte count as people read it: `512 B`, `1.5 KiB`, `2.0 MiB`.
pub fn size(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// A one-line name (display name, summary, tag, handle) with every invisible and
/// bidirectional-control character removed, so `evil\u{202E}gpj.exe` cannot pass for another
/// name on the page, and with line breaks folded into spaces.
pub fn plain(text: &str) -> String {
    text.chars()
        .filter(|c| !is_invisible(*c) && *c != '\u{061C}')
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Characters that reorder the text around them (Trojan Source): shown in bodies and file views
/// as a visible `[U+202E]` rather than obeyed.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// `text` with every bidirectional control replaced by its visible code point, `[U+202E]`.
pub(crate) fn reveal_bidi(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_bidi_control) {
        return text.into();
    }
    text.chars()
        .map(|c| {
            if is_bidi_control(c) {
                format!("[U+{:04X}]", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

/// Percent-encodes everything but RFC 3986's unreserved characters (for a query value or one
/// path segment).
pub(crate) fn encode_component(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// A relative file path with each segment percent-encoded, `/` kept.
pub(crate) fn encode_path(path: &str) -> String {
    path.split('/')
        .map(encode_component)
        .collect::<Vec<_>>()
        .join("/")
}

/// Decodes `%XX` escapes; `None` when they do not make UTF-8 or one is cut short.
pub(crate) fn decode_percent(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3)?;
            let hex = std::str::from_utf8(hex).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// How a stored file may be shown and served.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// UTF-8 text: shown escaped on its page, served raw as `text/plain`.
    Text,
    /// A raster image, served as itself (raster formats run no script).
    Image(&'static str),
    /// Anything else: offered as a download only.
    Binary,
}

/// What `bytes`, stored at `path`, are. SVG is text, never an image: it can carry script.
pub(crate) fn file_kind(path: &str, bytes: &[u8]) -> FileKind {
    let extension = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    let image = match extension.as_str() {
        "png" => Some("image/png"),
        "jpg" | "jpeg" => Some("image/jpeg"),
        "gif" => Some("image/gif"),
        "webp" => Some("image/webp"),
        _ => None,
    };
    if let Some(mime) = image {
        return FileKind::Image(mime);
    }
    if !bytes.contains(&0) && std::str::from_utf8(bytes).is_ok() {
        FileKind::Text
    } else {
        FileKind::Binary
    }
}

/// True for file names a browser would render as a document if it were ever served as one
/// (HTML, SVG, XML, PDF...): served as `text/plain` with `Content-Disposition: attachment`.
pub(crate) fn could_render(path: &str) -> bool {
    let extension = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    matches!(
        extension.as_str(),
        "html"
            | "htm"
            | "xhtml"
            | "xht"
            | "shtml"
            | "svg"
            | "svgz"
            | "xml"
            | "xsl"
            | "xslt"
            | "mht"
            | "mhtml"
            | "pdf"
            | "swf"
    )
}

/// The last segment of `path`, reduced to characters that need no quoting in a
/// `Content-Disposition` header.
pub(crate) fn download_name(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if safe.trim_matches('.').is_empty() {
        "file".to_owned()
    } else {
        safe
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc_calendar_days() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(951_782_400_000), "2000-02-29");
        assert_eq!(date(1_793_404_800_000 + 86_399_999), "2026-10-31");
        assert_eq!(date(-86_400_000), "1969-12-31");
        assert_eq!(
            date_time(1_793_404_800_000 + 86_399_999),
            "2026-10-31 23:59 UTC"
        );
        assert_eq!(date_time(-60_000), "1969-12-31 23:59 UTC");
    }

    #[test]
    fn sizes() {
        assert_eq!(size(0), "0 B");
        assert_eq!(size(1023), "1023 B");
        assert_eq!(size(1536), "1.5 KiB");
        assert_eq!(size(10 * 1024 * 1024), "10.0 MiB");
    }

    #[test]
    fn names_lose_invisible_and_bidi_characters() {
        assert_eq!(plain("evil\u{202E}gpj.exe\u{200B}"), "evilgpj.exe");
        assert_eq!(plain("two\nlines"), "two lines");
        assert_eq!(reveal_bidi("a\u{2067}b"), "a[U+2067]b");
        assert_eq!(reveal_bidi("plain"), "plain");
    }

    #[test]
    fn percent_encoding_round_trips() {
        assert_eq!(encode_component("a b/ü&"), "a%20b%2F%C3%BC%26");
        assert_eq!(encode_path("refs/a b.md"), "refs/a%20b.md");
        assert_eq!(decode_percent("a%20b%C3%BC").as_deref(), Some("a bü"));
        assert_eq!(decode_percent("%zz"), None);
        assert_eq!(decode_percent("%f"), None);
    }

    #[test]
    fn file_kinds() {
        assert_eq!(
            file_kind("a.PNG", b"\x89PNG\0"),
            FileKind::Image("image/png")
        );
        assert_eq!(file_kind("a.svg", b"<svg/>"), FileKind::Text);
        assert_eq!(file_kind("a.bin", b"\0\x01"), FileKind::Binary);
        assert!(could_render("x/y.SVG") && !could_render("notes.md"));
        assert_eq!(download_name("dir/a \"b\".html"), "a__b_.html");
        assert_eq!(download_name(".."), "file");
    }
}
