//! The hash vercel's `skills` CLI records for an installed skill folder (`computedHash` in a
//! project's `skills-lock.json`, `skillFolderHash` in the global lock): SHA-256 over each
//! regular file's path (relative, `/`-separated) and then its bytes, files in `localeCompare`
//! order of their paths, `.git` and `node_modules` folders and symbolic links left out
//! (`computeSkillFolderHash` in skills 1.7.4's `dist/cli.mjs`).

use sha2::{Digest, Sha256};
use skill_model::agents::text::locale_compare;
use std::path::{Path, PathBuf};

/// Folders the hash does not descend into.
const SKIPPED: [&str; 2] = [".git", "node_modules"];

/// The folder's hash, as lowercase hex. Paths are gathered first and each file is read only
/// while it is hashed, so memory holds one file at a time.
pub(crate) fn folder_hash(dir: &Path) -> std::io::Result<String> {
    let mut files = Vec::new();
    collect(dir, "", &mut files)?;
    files.sort_by(|(a, _), (b, _)| locale_compare(a, b));
    let mut hash = Sha256::new();
    let mut buffer = vec![0; 64 * 1024];
    for (path, file) in &files {
        hash.update(path.as_bytes());
        let mut file = std::fs::File::open(file)?;
        loop {
            let read = std::io::Read::read(&mut file, &mut buffer)?;
            if read == 0 {
                break;
            }
            hash.update(&buffer[..read]);
        }
    }
    Ok(hex::encode(hash.finalize()))
}

fn collect(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = format!("{prefix}{name}");
        // The file type of the entry itself: a link is neither a folder nor a file here.
        let kind = entry.file_type()?;
        if kind.is_dir() {
            if !SKIPPED.contains(&name.as_str()) {
                collect(&entry.path(), &format!("{path}/"), out)?;
            }
        } else if kind.is_file() {
            out.push((path, entry.path()));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::folder_hash;

    #[test]
    fn the_hash_is_the_one_vercels_cli_recorded_for_the_same_folder() {
        let tmp = tempfile::tempdir().unwrap();
        let skill = "---\nname: notes\ndescription: Keeps notes. Use when asked.\n---\n\nBody.\n";
        std::fs::write(tmp.path().join("SKILL.md"), skill).unwrap();
        std::fs::write(tmp.path().join("extra.txt"), "hi\n").unwrap();
        // What `skills add` (1.7.4) wrote as `computedHash` for these two files.
        let vercel = "eddbc07c36c62a3257a279c0d38060b43cbff4ca074f4cc7e464338dfca91e44";
        assert_eq!(folder_hash(tmp.path()).unwrap(), vercel);
        // Its skipped folders and links change nothing.
        std::fs::create_dir_all(tmp.path().join(".git")).unwrap();
        std::fs::write(tmp.path().join(".git/HEAD"), "ref").unwrap();
        std::os::unix::fs::symlink("extra.txt", tmp.path().join("link.txt")).unwrap();
        assert_eq!(folder_hash(tmp.path()).unwrap(), vercel);
    }
}
