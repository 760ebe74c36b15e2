//! Reproducible `.skill` archives: a zip (deflate) of `<name>/<path>` entries, files only, sorted
//! by path, each with one fixed timestamp and a normalised mode, so packing the same folder
//! twice, anywhere, gives the same bytes.

use super::select::{SelectError, ShippedFile, select_files};
use skill_model::fingerprint::{fingerprint, sha256_hex};
use skill_model::layout::{self, FileSetKind, PathError};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use zip::write::SimpleFileOptions;

/// How to pack.
#[derive(Debug, Clone, Default)]
pub struct PackOptions {
    /// Where to write (default `<name>.skill` in the current folder).
    pub output: Option<PathBuf>,
    /// Pack symlinks' targets when they lie inside the skill.
    pub follow_symlinks: bool,
    /// Seconds since the epoch for every entry's timestamp (`SOURCE_DATE_EPOCH`); 1980-01-01
    /// when `None`.
    pub timestamp: Option<i64>,
}

/// What was packed.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct PackReport {
    /// The archive.
    pub path: PathBuf,
    /// Number of files.
    pub files: usize,
    /// Their total size.
    pub bytes: u64,
    /// The archive's size.
    pub packed_bytes: u64,
    /// The archive's SHA-256.
    pub sha256: String,
    /// ClawHub's fingerprint of the files.
    pub fingerprint: String,
    /// ClawHub install metadata found in the folder and left out (`_meta.json`, `.clawhub/`).
    pub left_out: Vec<&'static str>,
}

/// Why packing failed; nothing is left behind.
#[derive(Debug, thiserror::Error)]
pub enum PackError {
    /// The file set could not be built.
    #[error(transparent)]
    Select(#[from] SelectError),
    /// The output would be written inside the skill (and packed into itself next time).
    #[error("{output} is inside the skill folder {dir}")]
    OutputInside {
        /// The output path.
        output: PathBuf,
        /// The skill folder.
        dir: PathBuf,
    },
    /// A file name that installers refuse (the skill path rules).
    #[error("{0}: {1}")]
    Layout(PathBuf, PathError),
    /// Reading or writing failed.
    #[error("{path}: {message}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The error.
        message: String,
    },
}

/// The name entries are filed under: the skill folder's own name ([`skill_model::dir_name`]),
/// `skill` for a folder that has none (`/`).
pub fn archive_name(dir: &Path) -> String {
    let name = skill_model::dir_name(dir);
    if name.is_empty() {
        "skill".to_owned()
    } else {
        name
    }
}

/// The files that would be packed, in order.
pub fn plan(dir: &Path, options: &PackOptions) -> Result<Vec<ShippedFile>, PackError> {
    let files = select_files(dir, options.follow_symlinks, options.output.as_deref())?;
    layout::check_file_set(files.iter().map(|f| f.path.as_str()), FileSetKind::Authored)
        .map_err(|rule| PackError::Layout(dir.to_path_buf(), rule))?;
    Ok(files)
}

/// Packs each skill of `skills` (folders below `root`) in parallel, each archive at its skill's
/// place relative to `root` under `out_dir`; `options.output` is ignored. Each skill's outcome,
/// in order: one that cannot be packed does not keep the others from being packed.
pub fn pack_tree(
    root: &Path,
    skills: &[PathBuf],
    out_dir: &Path,
    options: &PackOptions,
) -> Vec<Result<PackReport, PackError>> {
    use rayon::prelude::*;
    skills
        .par_iter()
        .map(|dir| {
            let relative = dir.strip_prefix(root).unwrap_or(dir);
            let parent = relative.parent().unwrap_or(Path::new(""));
            let output = out_dir
                .join(parent)
                .join(format!("{}.skill", archive_name(dir)));
            let options = PackOptions {
                output: Some(output),
                ..options.clone()
            };
            pack(dir, &options, &mut |_| {})
        })
        .collect()
}

/// Packs `dir`, calling `progress(bytes)` after each file. The archive is written beside its
/// destination and renamed over it, so a failure leaves no partial file.
pub fn pack(
    dir: &Path,
    options: &PackOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<PackReport, PackError> {
    let name = archive_name(dir);
    let output = options
        .output
        .clone()
        .unwrap_or_else(|| PathBuf::from(format!("{name}.skill")));
    refuse_inside(dir, &output)?;
    let files = plan(dir, options)?;
    let parent = output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| io_error(parent, &e))?;
    let temp = tempfile::Builder::new()
        .prefix(".skill-pack-")
        .tempfile_in(parent)
        .map_err(|e| io_error(parent, &e))?;
    let zipped = zip_files(&name, &files, options.timestamp, &output, progress)?;
    persist_archive(temp, &zipped.archive, &output)?;
    Ok(PackReport {
        path: output,
        files: files.len(),
        bytes: zipped.bytes,
        packed_bytes: zipped.archive.len() as u64,
        sha256: sha256_hex(&zipped.archive),
        fingerprint: fingerprint(&zipped.hashes),
        left_out: layout::install_metadata_in(dir),
    })
}

/// The error for a failed read or write of `path`.
fn io_error(path: &Path, e: &dyn std::fmt::Display) -> PackError {
    PackError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// A built archive and what the report needs of its files.
struct ZippedFiles {
    /// The archive's bytes.
    archive: Vec<u8>,
    /// Each file's path and SHA-256, for the fingerprint.
    hashes: Vec<(String, String)>,
    /// The files' total size.
    bytes: u64,
}

/// Zips `files` under `name/`. Built in memory (archives are at most tens of MiB) so it can be
/// hashed, then written once; write errors are reported against `output`.
fn zip_files(
    name: &str,
    files: &[ShippedFile],
    timestamp: Option<i64>,
    output: &Path,
    progress: &mut dyn FnMut(u64),
) -> Result<ZippedFiles, PackError> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let time = zip_time(timestamp);
    let mut hashes = Vec::with_capacity(files.len());
    let mut bytes = 0;
    let mut buffer = Vec::new();
    for file in files {
        buffer.clear();
        std::fs::File::open(&file.source)
            .and_then(|mut f| f.read_to_end(&mut buffer))
            .map_err(|e| io_error(&file.source, &e))?;
        let mode = if file.executable { 0o755 } else { 0o644 };
        let entry_options = SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .last_modified_time(time)
            .unix_permissions(mode);
        zip.start_file(format!("{name}/{}", file.path), entry_options)
            .map_err(|e| io_error(output, &e))?;
        zip.write_all(&buffer).map_err(|e| io_error(output, &e))?;
        hashes.push((file.path.clone(), sha256_hex(&buffer)));
        bytes += buffer.len() as u64;
        progress(buffer.len() as u64);
    }
    let archive = zip.finish().map_err(|e| io_error(output, &e))?.into_inner();
    Ok(ZippedFiles {
        archive,
        hashes,
        bytes,
    })
}

/// Writes `archive` to `temp` and renames it over `output`.
fn persist_archive(
    mut temp: tempfile::NamedTempFile,
    archive: &[u8],
    output: &Path,
) -> Result<(), PackError> {
    temp.write_all(archive).map_err(|e| io_error(output, &e))?;
    // Temporary files are private; an archive is not.
    std::fs::set_permissions(
        temp.path(),
        std::os::unix::fs::PermissionsExt::from_mode(0o644),
    )
    .map_err(|e| io_error(output, &e))?;
    temp.persist(output)
        .map_err(|e| io_error(output, &e.error))?;
    Ok(())
}

fn refuse_inside(dir: &Path, output: &Path) -> Result<(), PackError> {
    let dir = std::fs::canonicalize(dir).map_err(|e| PackError::Io {
        path: dir.to_path_buf(),
        message: e.to_string(),
    })?;
    let parent = output
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let parent = std::path::absolute(parent).unwrap_or_else(|_| parent.to_path_buf());
    let parent = std::fs::canonicalize(&parent).unwrap_or(parent);
    if parent.starts_with(&dir) {
        return Err(PackError::OutputInside {
            output: output.to_path_buf(),
            dir,
        });
    }
    Ok(())
}

/// The zip timestamp for `epoch` seconds (UTC), clamped to what zip can store (1980 to 2107).
pub(crate) fn zip_time(epoch: Option<i64>) -> zip::DateTime {
    let Some(epoch) = epoch else {
        return zip::DateTime::default();
    };
    let earliest = jiff::civil::datetime(1980, 1, 1, 0, 0, 0, 0);
    let latest = jiff::civil::datetime(2107, 12, 31, 23, 59, 59, 0);
    let time = jiff::Timestamp::from_second(epoch)
        .map(|t| jiff::tz::Offset::UTC.to_datetime(t))
        .unwrap_or(if epoch < 0 { earliest } else { latest })
        .clamp(earliest, latest);
    zip::DateTime::from_date_and_time(
        time.year() as u16,
        time.month() as u8,
        time.day() as u8,
        time.hour() as u8,
        time.minute() as u8,
        time.second() as u8,
    )
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_to_zip_time() {
        let t = zip_time(Some(1_700_000_000));
        assert_eq!(
            (
                t.year(),
                t.month(),
                t.day(),
                t.hour(),
                t.minute(),
                t.second()
            ),
            (2023, 11, 14, 22, 13, 20)
        );
        assert_eq!(zip_time(Some(0)), zip_time(Some(0)));
        assert_eq!(zip_time(Some(0)).year(), 1980);
        let last = zip_time(Some(i64::MAX));
        assert_eq!((last.year(), last.month(), last.day()), (2107, 12, 31));
        assert_eq!(zip_time(None), zip::DateTime::default());
    }
}
