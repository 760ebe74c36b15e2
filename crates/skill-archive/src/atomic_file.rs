//! Writing a file whole or not at all: through a temporary file beside it and a rename, with
//! the mode a plain create would give it (0666 less the umask), so a file written atomically
//! looks like every other file `skill` writes (a temporary file is made 0600).

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

/// Writes `bytes` to `path` atomically; the folder must exist.
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    temp.write_all(bytes)?;
    std::fs::set_permissions(
        temp.path(),
        std::fs::Permissions::from_mode(0o666 & !umask()),
    )?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// This process's umask, from `/proc/self/status` (reading it with umask(2) would change it
/// for a moment under other threads); 022 where it cannot be read.
fn umask() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| {
            let line = status.lines().find(|l| l.starts_with("Umask:"))?;
            u32::from_str_radix(line.trim_start_matches("Umask:").trim(), 8).ok()
        })
        .unwrap_or(0o022)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_atomic_write_gets_the_mode_of_a_plain_create() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("plain"), "x").unwrap();
        write(&dir.path().join("atomic"), b"x").unwrap();
        let mode = |name: &str| {
            std::fs::metadata(dir.path().join(name))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        assert_eq!(mode("atomic"), mode("plain"));
        assert_eq!(std::fs::read(dir.path().join("atomic")).unwrap(), b"x");
    }
}
