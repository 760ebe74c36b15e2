//! Budget rules: size limits agents and registries enforce.

use super::Context;
use crate::lint::catalog::FILE_TOO_LARGE;
use crate::lint::diagnostic::{Diagnostic, Location};

/// OpenClaw skips larger SKILL.md files.
const MAX_SKILL_MD: usize = 256 * 1024;

/// A SKILL.md that was read but is over OpenClaw's limit (larger ones are refused unread).
pub fn check_skill_md_size(cx: &Context, out: &mut Vec<Diagnostic>) {
    let Some(doc) = cx.document() else { return };
    let len = doc.source.text.len();
    if len > MAX_SKILL_MD {
        out.push(
            cx.diagnostic(
                &FILE_TOO_LARGE,
                format!("SKILL.md is {len} bytes; OpenClaw skips SKILL.md files over 256 KiB"),
                Location::Folder,
            )
            .with_help("move long material into references/ and link to it"),
        );
    }
}
