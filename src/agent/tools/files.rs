//! The file tools: `read_file`, `write_file`, `edit_file` and `list_dir`, confined to the
//! workspace. Results and errors are plain text for the model, in nanobot's wording.

use super::paths::resolve;
use serde::Deserialize;
use std::path::Path;

/// Lines `read_file` returns when no limit is given.
const DEFAULT_LIMIT: usize = 2000;
/// Largest file the file tools read whole.
const MAX_READ: u64 = 16 * 1024 * 1024;

/// Why a path cannot be read as a text file, if it cannot: FIFOs and devices would block or
/// never end, and huge files would fill memory.
fn unreadable(path: &Path, shown: &str) -> Option<String> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Some(format!("Error: File not found: {shown}"))
        }
        Err(e) => Some(format!("Error reading {shown}: {e}")),
        Ok(m) if !m.is_file() => Some(format!("Error: Not a file: {shown}")),
        Ok(m) if m.len() > MAX_READ => Some(format!(
            "Error: {shown} is {} bytes, more than the {MAX_READ} the file tools read",
            m.len()
        )),
        Ok(_) => None,
    }
}

/// `read_file` arguments.
#[derive(Debug, Deserialize)]
pub struct ReadArgs {
    path: String,
    offset: Option<usize>,
    limit: Option<usize>,
}

/// `write_file` arguments.
#[derive(Debug, Deserialize)]
pub struct WriteArgs {
    path: String,
    content: String,
}

/// `edit_file` arguments.
#[derive(Debug, Deserialize)]
pub struct EditArgs {
    path: String,
    old_text: String,
    new_text: String,
}

/// `list_dir` arguments.
#[derive(Debug, Deserialize)]
pub struct ListArgs {
    path: String,
}

/// Lines `offset..offset+limit` (from 1) of a text file, with a note when there is more.
pub fn read_file(workspace: &Path, args: ReadArgs) -> String {
    let path = match resolve(workspace, &args.path) {
        Ok(p) => p,
        Err(e) => return e,
    };
    if let Some(error) = unreadable(&path, &args.path) {
        return error;
    }
    let text = match std::fs::read(&path) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(t) => t,
            Err(_) => return format!("Error: Not a text file: {}", args.path),
        },
        Err(e) => return format!("Error reading {}: {e}", args.path),
    };
    let offset = args.offset.unwrap_or(1).max(1);
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT).max(1);
    let total = text.lines().count();
    if offset == 1 && total <= limit {
        return text;
    }
    let shown: Vec<&str> = text.lines().skip(offset - 1).take(limit).collect();
    if shown.is_empty() {
        return format!(
            "Error: offset {offset} is past the end of {} ({total} lines)",
            args.path
        );
    }
    let last = offset + shown.len() - 1;
    let mut out = shown.join("\n");
    if last < total {
        out.push_str(&format!(
            "\n\n(lines {offset}-{last} of {total}; read on with offset={})",
            last + 1
        ));
    }
    out
}

/// Writes a file, creating its folders.
pub fn write_file(workspace: &Path, args: WriteArgs) -> String {
    let path = match resolve(workspace, &args.path) {
        Ok(p) => p,
        Err(e) => return e,
    };
    // Writing into a FIFO or a device would block or do harm; only files are replaced.
    if path.symlink_metadata().is_ok_and(|m| !m.is_file()) {
        return format!("Error: Not a file: {}", args.path);
    }
    if let Some(parent) = path.parent()
        && let Err(e) = std::fs::create_dir_all(parent)
    {
        return format!("Error writing {}: {e}", args.path);
    }
    match std::fs::write(&path, &args.content) {
        Ok(()) => format!(
            "Successfully wrote {} bytes to {}",
            args.content.len(),
            args.path
        ),
        Err(e) => format!("Error writing {}: {e}", args.path),
    }
}

/// Replaces the one occurrence of `old_text`.
pub fn edit_file(workspace: &Path, args: EditArgs) -> String {
    let path = match resolve(workspace, &args.path) {
        Ok(p) => p,
        Err(e) => return e,
    };
    if let Some(error) = unreadable(&path, &args.path) {
        return error;
    }
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => return format!("Error reading {}: {e}", args.path),
    };
    if args.old_text.is_empty() {
        return "Error: old_text is empty".to_owned();
    }
    match text.matches(&args.old_text).count() {
        0 => format!("Error: old_text not found in {}", args.path),
        1 => match std::fs::write(&path, text.replacen(&args.old_text, &args.new_text, 1)) {
            Ok(()) => format!("Successfully edited {}", args.path),
            Err(e) => format!("Error writing {}: {e}", args.path),
        },
        n => format!(
            "Error: old_text appears {n} times in {}; include more surrounding text to make it unique",
            args.path
        ),
    }
}

/// The entries of a folder sorted by name, folders marked 📁 and files 📄.
pub fn list_dir(workspace: &Path, args: ListArgs) -> String {
    let path = match resolve(workspace, &args.path) {
        Ok(p) => p,
        Err(e) => return e,
    };
    let entries = match std::fs::read_dir(&path) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return format!("Error: Directory not found: {}", args.path);
        }
        Err(_) if path.is_file() => return format!("Error: Not a directory: {}", args.path),
        Err(e) => return format!("Error listing {}: {e}", args.path),
    };
    let mut lines: Vec<(String, bool)> = entries
        .filter_map(Result::ok)
        .map(|e| {
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            (e.file_name().to_string_lossy().into_owned(), is_dir)
        })
        .collect();
    if lines.is_empty() {
        return format!("Directory {} is empty", args.path);
    }
    lines.sort();
    lines
        .into_iter()
        .map(|(name, is_dir)| format!("{} {name}", if is_dir { "📁" } else { "📄" }))
        .collect::<Vec<_>>()
        .join("\n")
}
