//! The skills shipped inside the binary (`builtin-skills/`). They are the lowest-precedence root
//! of every catalog; to give agents a real path to read, they are written once per version into
//! the user's cache folder.

use std::path::{Path, PathBuf};

/// One embedded skill: its name and files (relative path, contents).
#[derive(Debug)]
pub struct BuiltinSkill {
    /// The skill's name (its folder name).
    pub name: &'static str,
    /// Its files.
    pub files: &'static [(&'static str, &'static str)],
}

/// A file of a builtin skill: its path and contents.
macro_rules! file {
    ($name:literal, $path:literal) => {
        (
            $path,
            include_str!(concat!("../../../builtin-skills/", $name, "/", $path)),
        )
    };
}

/// A builtin skill: SKILL.md, the files named, and the starter impact eval every builtin
/// ships (`skill eval --impact --init`: its evals file and three runs a configuration).
macro_rules! builtin {
    ($name:literal $(, $extra:literal)*) => {
        BuiltinSkill {
            name: $name,
            files: &[
                file!($name, "SKILL.md"),
                $(file!($name, $extra),)*
                file!($name, "evals/evals.json"),
                file!($name, "evals/cassettes/impact/eval-starter/with_skill.1.yaml"),
                file!($name, "evals/cassettes/impact/eval-starter/with_skill.2.yaml"),
                file!($name, "evals/cassettes/impact/eval-starter/with_skill.3.yaml"),
                file!($name, "evals/cassettes/impact/eval-starter/without_skill.1.yaml"),
                file!($name, "evals/cassettes/impact/eval-starter/without_skill.2.yaml"),
                file!($name, "evals/cassettes/impact/eval-starter/without_skill.3.yaml"),
            ],
        }
    };
}

/// Every builtin skill, sorted by name.
pub static BUILTINS: &[BuiltinSkill] = &[
    builtin!(
        "docker",
        "evals/basic.yaml",
        "evals/cassettes/basic.yaml",
        "evals/triggers.yaml",
        "evals/cassettes/triggers/q01-containerise-this-flask-app-and-run.1.yaml",
        "evals/cassettes/triggers/q02-free-the-disk-space-docker-images.1.yaml",
        "evals/cassettes/triggers/q03-what-is-the-capital-of-france.1.yaml"
    ),
    builtin!(
        "github",
        "evals/basic.yaml",
        "evals/cassettes/basic.yaml",
        "evals/triggers.yaml",
        "evals/cassettes/triggers/q01-why-did-the-ci-run-on.1.yaml",
        "evals/cassettes/triggers/q02-translate-this-sentence-into-german.1.yaml"
    ),
    builtin!(
        "safe-shell",
        "evals/basic.yaml",
        "evals/cassettes/basic.yaml",
        "evals/triggers.yaml",
        "evals/cassettes/triggers/q01-delete-every-log-file-under-var.1.yaml"
    ),
    builtin!(
        "skill-creator",
        "evals/basic.yaml",
        "evals/cassettes/basic.yaml",
        "evals/triggers.yaml",
        "evals/cassettes/triggers/q01-turn-my-release-checklist-into-a.1.yaml",
        "evals/cassettes/triggers/q02-install-a-skill-that-summarises-pdfs.1.yaml"
    ),
    builtin!(
        "skill-registry",
        "evals/basic.yaml",
        "evals/cassettes/basic.yaml",
        "evals/triggers.yaml",
        "evals/cassettes/triggers/q01-install-a-skill-that-summarises-pdfs.1.yaml",
        "evals/cassettes/triggers/q02-write-a-haiku-about-autumn.1.yaml"
    ),
    builtin!(
        "tmux",
        "evals/basic.yaml",
        "evals/cassettes/basic.yaml",
        "evals/triggers.yaml",
        "evals/cassettes/triggers/q01-start-the-dev-server-in-the.1.yaml",
        "evals/cassettes/triggers/q02-what-is-17-times-23.1.yaml"
    ),
];

/// The builtin skill called `name`.
pub fn find(name: &str) -> Option<&'static BuiltinSkill> {
    BUILTINS.iter().find(|b| b.name == name)
}

/// The folder builtins are written to: `builtin-skills/<version>-<digest>` in
/// [`crate::folders::cache`]; the digest of the contents keeps two builds of one version from
/// sharing a stale copy.
pub(crate) fn cache_root() -> PathBuf {
    crate::folders::cache().join("builtin-skills").join(format!(
        "{}-{}",
        env!("CARGO_PKG_VERSION"),
        &contents_digest()[..12]
    ))
}

fn contents_digest() -> String {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    for skill in BUILTINS {
        for (path, contents) in skill.files {
            for part in [skill.name, path, contents] {
                hasher.update(part.as_bytes());
                hasher.update([0]);
            }
        }
    }
    hex::encode(hasher.finalize())
}

/// Writes the builtins under [`cache_root`] unless they are there already, and returns that
/// folder. The folder appears whole or not at all (written aside, then renamed).
pub fn materialize() -> std::io::Result<PathBuf> {
    let root = cache_root();
    if root.join(".complete").is_file() {
        return Ok(root);
    }
    let parent = root.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)?;
    let staging = tempfile::tempdir_in(parent)?;
    for skill in BUILTINS {
        write_skill(skill, &staging.path().join(skill.name))?;
    }
    std::fs::write(staging.path().join(".complete"), "")?;
    match std::fs::rename(staging.path(), &root) {
        Ok(()) => {
            // Renamed away: nothing for the guard to delete.
            let _ = staging.keep();
            Ok(root)
        }
        // Another process won the race; its copy is identical.
        Err(_) if root.join(".complete").is_file() => Ok(root),
        Err(e) => Err(e),
    }
}

/// Writes `skill`'s files into `dir`, which must not exist.
pub fn write_skill(skill: &BuiltinSkill, dir: &Path) -> std::io::Result<()> {
    for (path, contents) in skill.files {
        let target = dir.join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(target, contents)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_folder_is_embedded() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../builtin-skills");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        let embedded: Vec<&str> = BUILTINS.iter().map(|b| b.name).collect();
        assert_eq!(on_disk, embedded);
        for skill in BUILTINS {
            let files = walkdir(&dir.join(skill.name));
            assert_eq!(files, skill.files.len(), "{}: embed every file", skill.name);
        }
    }

    fn walkdir(dir: &Path) -> usize {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .map(|p| if p.is_dir() { walkdir(&p) } else { 1 })
            .sum()
    }
}
