//! The file tools: `read_file`, `write_file`, `edit_file` and `list_dir`, confined to the
//! workspace. Results and errors are plain text for the model, in nanobot's wording.

use super::beneath::{Beneath, is_escape};
use super::paths::resolve;
use rustix::fs::{FileType, OFlags};
use rustix::io::Errno;
use serde::Deserialize;
use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// Lines `read_file` returns when no limit is given.
const DEFAULT_LIMIT: usize = 2000;
/// Largest file the file tools read whole.
const MAX_READ: u64 = 16 * 1024 * 1024;

/// A path the model named, checked and made relative to the workspace, with the workspace
/// opened for `openat2`.
struct Target {
    beneath: Beneath,
    relative: PathBuf,
}

impl Target {
    /// `shown` (as the model wrote it) resolved beneath `workspace`, or the error to return.
    fn new(workspace: &Path, shown: &str) -> Result<Target, String> {
        // The lexical check gives the model a clear refusal; openat2 is what enforces it.
        let path = resolve(workspace, shown)?;
        let relative = path
            .strip_prefix(workspace)
            .map_err(|_| outside(shown))?
            .to_owned();
        let beneath = Beneath::open(workspace)
            .map_err(|e| format!("Error: cannot open the workspace: {e}"))?;
        Ok(Target { beneath, relative })
    }

    /// The file opened with `flags` after the checks every tool makes: a regular file (FIFOs
    /// and devices would block or never end), not huge, and for writing not hard-linked (a
    /// second name may be a file outside the workspace).
    fn open_file(&self, shown: &str, flags: OFlags, writing: bool) -> Result<File, String> {
        let fd = self
            .beneath
            .open_at(&self.relative, flags)
            .map_err(|e| match e {
                Errno::NOENT => format!("Error: File not found: {shown}"),
                Errno::ISDIR | Errno::NXIO => format!("Error: Not a file: {shown}"),
                e if is_escape(e) => outside(shown),
                e => format!("Error reading {shown}: {e}"),
            })?;
        check_file(fd, shown, writing)
    }
}

/// `fd` as a `File` if it is one the tools may use, else the error.
fn check_file(fd: rustix::fd::OwnedFd, shown: &str, writing: bool) -> Result<File, String> {
    let stat = rustix::fs::fstat(&fd).map_err(|e| format!("Error reading {shown}: {e}"))?;
    if FileType::from_raw_mode(stat.st_mode) != FileType::RegularFile {
        return Err(format!("Error: Not a file: {shown}"));
    }
    if writing && stat.st_nlink > 1 {
        return Err(format!(
            "Error: {shown} has {} hard links; the file tools do not write to a file that has other names, which may be outside the workspace",
            stat.st_nlink
        ));
    }
    let size = u64::try_from(stat.st_size).unwrap_or(0);
    if !writing && size > MAX_READ {
        return Err(format!(
            "Error: {shown} is {size} bytes, more than the {MAX_READ} the file tools read"
        ));
    }
    // A regular file never blocks, so the non-blocking flag of the open can stay.
    Ok(File::from(fd))
}

/// The whole file as bytes, refusing what grew past the limit since it was checked.
fn read_all(file: &mut File, shown: &str) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    file.take(MAX_READ + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("Error reading {shown}: {e}"))?;
    if bytes.len() as u64 > MAX_READ {
        return Err(format!(
            "Error: {shown} is more than the {MAX_READ} bytes the file tools read"
        ));
    }
    Ok(bytes)
}

fn outside(path: &str) -> String {
    format!("Error: Access denied: {path} is outside the workspace")
}

/// `read_file` arguments.
#[derive(Debug, Deserialize)]
pub(crate) struct ReadArgs {
    path: String,
    offset: Option<usize>,
    limit: Option<usize>,
}

/// `write_file` arguments.
#[derive(Debug, Deserialize)]
pub(crate) struct WriteArgs {
    path: String,
    content: String,
}

/// `edit_file` arguments.
#[derive(Debug, Deserialize)]
pub(crate) struct EditArgs {
    path: String,
    old_text: String,
    new_text: String,
}

/// `list_dir` arguments.
#[derive(Debug, Deserialize)]
pub(crate) struct ListArgs {
    path: String,
}

/// Lines `offset..offset+limit` (from 1) of a text file, with a note when there is more.
pub fn read_file(workspace: &Path, args: ReadArgs) -> Result<String, String> {
    let read = Target::new(workspace, &args.path).and_then(|target| {
        let mut file = target.open_file(&args.path, OFlags::RDONLY, false)?;
        read_all(&mut file, &args.path)
    });
    let text = match read.map(String::from_utf8) {
        Ok(Ok(t)) => t,
        Ok(Err(_)) => return Err(format!("Error: Not a text file: {}", args.path)),
        Err(e) => return Err(e),
    };
    let offset = args.offset.unwrap_or(1).max(1);
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT).max(1);
    let total = text.lines().count();
    if offset == 1 && total <= limit {
        return Ok(text);
    }
    let shown: Vec<&str> = text.lines().skip(offset - 1).take(limit).collect();
    if shown.is_empty() {
        return Err(format!(
            "Error: offset {offset} is past the end of {} ({total} lines)",
            args.path
        ));
    }
    let last = offset + shown.len() - 1;
    let mut out = shown.join("\n");
    if last < total {
        out.push_str(&format!(
            "\n\n(lines {offset}-{last} of {total}; read on with offset={})",
            last + 1
        ));
    }
    Ok(out)
}

/// Writes a file, creating its folders.
pub fn write_file(workspace: &Path, args: WriteArgs) -> Result<String, String> {
    let written = Target::new(workspace, &args.path).and_then(|target| {
        let fd = target
            .beneath
            .create_at(&target.relative)
            .map_err(|e| match e {
                // A FIFO without a reader, or a folder: only files are replaced.
                Errno::NXIO | Errno::ISDIR => format!("Error: Not a file: {}", args.path),
                e if is_escape(e) => outside(&args.path),
                e => format!("Error writing {}: {e}", args.path),
            })?;
        let mut file = check_file(fd, &args.path, true)?;
        // Truncated only now, after the checks: a refused file is left as it was.
        replace(&mut file, args.content.as_bytes())
            .map_err(|e| format!("Error writing {}: {e}", args.path))
    });
    written.map(|()| {
        format!(
            "Successfully wrote {} bytes to {}",
            args.content.len(),
            args.path
        )
    })
}

/// Replaces the one occurrence of `old_text`.
pub fn edit_file(workspace: &Path, args: EditArgs) -> Result<String, String> {
    let mut file = Target::new(workspace, &args.path)
        .and_then(|target| target.open_file(&args.path, OFlags::RDWR | OFlags::NOFOLLOW, true))?;
    let text = String::from_utf8(read_all(&mut file, &args.path)?).map_err(|_| {
        format!(
            "Error reading {}: stream did not contain valid UTF-8",
            args.path
        )
    })?;
    if args.old_text.is_empty() {
        return Err("Error: old_text is empty".to_owned());
    }
    match text.matches(&args.old_text).count() {
        0 => Err(format!("Error: old_text not found in {}", args.path)),
        1 => {
            let edited = text.replacen(&args.old_text, &args.new_text, 1);
            // The same open file is rewritten: nothing can swap the path in between.
            replace(&mut file, edited.as_bytes())
                .map(|()| format!("Successfully edited {}", args.path))
                .map_err(|e| format!("Error writing {}: {e}", args.path))
        }
        n => Err(format!(
            "Error: old_text appears {n} times in {}; include more surrounding text to make it unique",
            args.path
        )),
    }
}

/// Makes `content` the whole of `file`.
fn replace(file: &mut File, content: &[u8]) -> std::io::Result<()> {
    file.set_len(0)?;
    file.rewind()?;
    file.write_all(content)
}

/// The entries of a folder sorted by name, folders marked 📁 and files 📄.
pub fn list_dir(workspace: &Path, args: ListArgs) -> Result<String, String> {
    let target = Target::new(workspace, &args.path)?;
    let fd = target
        .beneath
        .open_at(&target.relative, OFlags::RDONLY | OFlags::DIRECTORY)
        .map_err(|e| match e {
            Errno::NOENT => format!("Error: Directory not found: {}", args.path),
            Errno::NOTDIR => format!("Error: Not a directory: {}", args.path),
            e if is_escape(e) => outside(&args.path),
            e => format!("Error listing {}: {e}", args.path),
        })?;
    let entries =
        rustix::fs::Dir::read_from(&fd).map_err(|e| format!("Error listing {}: {e}", args.path))?;
    let mut lines: Vec<(String, bool)> = entries
        .filter_map(Result::ok)
        .filter(|e| !matches!(e.file_name().to_bytes(), b"." | b".."))
        .map(|e| {
            let is_dir = match e.file_type() {
                FileType::Directory => true,
                // Some file systems do not say; ask without following a link.
                FileType::Unknown => {
                    rustix::fs::statat(&fd, e.file_name(), rustix::fs::AtFlags::SYMLINK_NOFOLLOW)
                        .is_ok_and(|st| FileType::from_raw_mode(st.st_mode) == FileType::Directory)
                }
                _ => false,
            };
            (
                String::from_utf8_lossy(e.file_name().to_bytes()).into_owned(),
                is_dir,
            )
        })
        .collect();
    if lines.is_empty() {
        return Ok(format!("Directory {} is empty", args.path));
    }
    lines.sort();
    Ok(lines
        .into_iter()
        .map(|(name, is_dir)| format!("{} {name}", if is_dir { "📁" } else { "📄" }))
        .collect::<Vec<_>>()
        .join("\n"))
}
