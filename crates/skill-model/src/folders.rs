//! Where `skill` keeps its own files on this machine.

use std::path::PathBuf;

/// The folder for what `skill` can always make again (builtin skills written out, the lint
/// cache): `$SKILL_CACHE_DIR`, else the user's cache folder (`$XDG_CACHE_HOME` or `~/.cache` on
/// Linux, `~/Library/Caches` on macOS) with `skill` below it, else one in the temporary folder.
pub fn cache() -> PathBuf {
    std::env::var_os("SKILL_CACHE_DIR")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .or_else(|| dirs::cache_dir().map(|dir| dir.join("skill")))
        .unwrap_or_else(|| std::env::temp_dir().join("skill-cache"))
}
