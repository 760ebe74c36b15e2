//! Confinement of file tools to the workspace: a path is resolved (relative to the workspace,
//! `..` folded, symlinks followed as far as the path exists) and refused unless it stays inside.
//! This check gives the model a clear refusal; the open itself is made beneath the workspace by
//! `beneath`, so what changes on disk after the check cannot lead outside.

use std::path::{Component, Path, PathBuf};

/// `path` resolved against `workspace` (itself canonical), or why it is refused.
pub fn resolve(workspace: &Path, path: &str) -> Result<PathBuf, String> {
    if path.trim().is_empty() {
        return Err("Error: path is empty".to_owned());
    }
    let joined = workspace.join(path);
    let mut lexical = PathBuf::new();
    for component in joined.components() {
        match component {
            Component::ParentDir => {
                lexical.pop();
            }
            Component::CurDir => {}
            other => lexical.push(other),
        }
    }
    // Follow symlinks through the part that exists; what does not exist yet cannot be a link.
    let mut existing = lexical.as_path();
    let mut rest = Vec::new();
    let real = loop {
        match std::fs::canonicalize(existing) {
            Ok(real) => break real,
            // A link whose target does not exist would be followed by a write.
            Err(_) if existing.symlink_metadata().is_ok_and(|m| m.is_symlink()) => {
                return Err(outside(path));
            }
            Err(e) if existing.symlink_metadata().is_ok() => {
                return Err(format!("Error: cannot resolve {path}: {e}"));
            }
            Err(_) => match (existing.parent(), existing.file_name()) {
                (Some(parent), Some(name)) => {
                    rest.push(name.to_owned());
                    existing = parent;
                }
                _ => return Err(outside(path)),
            },
        }
    };
    let mut resolved = real;
    for name in rest.iter().rev() {
        resolved.push(name);
    }
    if resolved.starts_with(workspace) {
        Ok(resolved)
    } else {
        Err(outside(path))
    }
}

fn outside(path: &str) -> String {
    format!("Error: Access denied: {path} is outside the workspace")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_paths_inside_and_refuses_escapes() {
        let dir = tempfile::tempdir().unwrap();
        let ws = std::fs::canonicalize(dir.path()).unwrap();
        std::fs::create_dir(ws.join("a")).unwrap();
        assert_eq!(resolve(&ws, "a/new.txt").unwrap(), ws.join("a/new.txt"));
        assert_eq!(resolve(&ws, "a/../b").unwrap(), ws.join("b"));
        let inside = ws.join("a/x").display().to_string();
        assert_eq!(resolve(&ws, &inside).unwrap(), ws.join("a/x"));
        assert!(resolve(&ws, "../x").is_err());
        assert!(resolve(&ws, "/etc/passwd").is_err());
        std::os::unix::fs::symlink("/etc", ws.join("link")).unwrap();
        assert!(resolve(&ws, "link/passwd").is_err());
        assert!(resolve(&ws, "link/new/deeper").is_err());
        std::os::unix::fs::symlink("/nonexistent-target", ws.join("dangling")).unwrap();
        assert!(resolve(&ws, "dangling").is_err());
    }
}
