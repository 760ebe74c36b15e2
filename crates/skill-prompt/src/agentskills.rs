//! skills-ref's `to-prompt`: every tag and value on its own line, no indentation; name and
//! description stripped and HTML-escaped, the location raw. The CLI's trailing newline included.

use super::{Listing, escape_html};

/// The `<available_skills>` block exactly as `agentskills to-prompt` prints it.
pub fn render(listings: &[Listing]) -> String {
    let mut lines = vec!["<available_skills>".to_owned()];
    for l in listings {
        lines.extend([
            "<skill>".to_owned(),
            "<name>".to_owned(),
            escape_html(l.declared_name.trim()),
            "</name>".to_owned(),
            "<description>".to_owned(),
            escape_html(l.description.trim()),
            "</description>".to_owned(),
            "<location>".to_owned(),
            l.location.display().to_string(),
            "</location>".to_owned(),
            "</skill>".to_owned(),
        ]);
    }
    lines.push("</available_skills>".to_owned());
    let mut out = lines.join("\n");
    out.push('\n');
    out
}
