//! How much the commands say: `--quiet` keeps only results and errors (no progress bars, notes,
//! file lists, live transcripts or passing lines); `--verbose` adds detail (whole tool results
//! in `skill try`, scenario paths in `skill test`).

use std::sync::atomic::{AtomicI8, Ordering};

static LEVEL: AtomicI8 = AtomicI8::new(0);

/// Sets the level from the global flags.
pub(crate) fn set(quiet: bool, verbose: bool) {
    let level = if quiet {
        -1
    } else if verbose {
        1
    } else {
        0
    };
    LEVEL.store(level, Ordering::Relaxed);
}

/// `--quiet` was given.
pub(crate) fn quiet() -> bool {
    LEVEL.load(Ordering::Relaxed) < 0
}

/// `--verbose` was given.
pub(crate) fn verbose() -> bool {
    LEVEL.load(Ordering::Relaxed) > 0
}

/// Prints `body` as one JSON document on stdout, pretty or on one line: `{"version": N, ...}`
/// with the body's fields after the version. A body must be an object (a struct or a map),
/// so that every command's document can grow a field without breaking its readers; one that is
/// not, or that cannot be written as JSON, is an error that says so, never an empty line.
pub(crate) fn print_json<T: serde::Serialize>(
    body: &T,
    pretty: bool,
) -> Result<(), super::CliError> {
    #[derive(serde::Serialize)]
    struct Versioned<'a, T> {
        version: u32,
        #[serde(flatten)]
        body: &'a T,
    }
    let document = Versioned {
        version: skill_model::JSON_VERSION,
        body,
    };
    let text = if pretty {
        serde_json::to_string_pretty(&document)
    } else {
        serde_json::to_string(&document)
    }
    .map_err(|e| {
        super::CliError::Output(std::io::Error::other(format!("cannot write JSON: {e}")))
    })?;
    println!("{text}");
    Ok(())
}

/// Registry text (names, summaries, tags, versions, cursors) made safe for a terminal: control
/// characters (escape sequences that clear the screen, retitle the window or draw a fake
/// "Installed OK"), bidirectional controls and invisible characters are dropped, and line
/// breaks become spaces unless `multiline`. A publisher chooses this text; the user's terminal
/// must not obey it.
pub(crate) fn untrusted(text: &str, multiline: bool) -> String {
    text.chars()
        .filter_map(|c| match c {
            '\n' if multiline => Some('\n'),
            '\t' | '\n' | '\r' => Some(' '),
            c if c.is_control() || skill_model::layout::is_invisible(c) => None,
            c => Some(c),
        })
        .collect()
}

/// `n` and the noun it counts, singular for one: "1 file", "3 files".
pub(crate) fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    #[test]
    fn registry_text_loses_escapes_and_invisible_characters() {
        let hostile = "ok\u{1b}[2J\u{1b}]0;title\u{7}\u{9b}31m\u{202e}txt.exe\nInstalled OK";
        assert_eq!(
            super::untrusted(hostile, false),
            "ok[2J]0;title31mtxt.exe Installed OK"
        );
        assert_eq!(super::untrusted("a\nb\u{1b}", true), "a\nb");
    }
}
