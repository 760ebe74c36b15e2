//! Opening paths beneath the workspace with `openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS)`:
//! the kernel refuses any step of the walk that leaves the workspace, so a folder swapped for a
//! symlink between the check in `paths::resolve` and the open cannot send a read or a write
//! outside. Folders are made one level at a time from an open parent for the same reason. What
//! the file tools do with the file (and what they tell the model) lives in `files`.

use rustix::fd::OwnedFd;
use rustix::fs::{Mode, OFlags, ResolveFlags};
use rustix::io::Errno;
use std::path::{Component, Path};

/// How every path is resolved: never above the folder it starts from, never through
/// `/proc/*/fd`-style links.
const RESOLVE: ResolveFlags = ResolveFlags::BENEATH.union(ResolveFlags::NO_MAGICLINKS);

/// Times an open is retried when the kernel reports a concurrent rename (`EAGAIN`).
const RETRIES: usize = 16;

/// An open workspace folder.
pub(crate) struct Beneath {
    root: OwnedFd,
}

impl Beneath {
    /// Opens `workspace` (canonical, trusted: the run made or was given it).
    pub fn open(workspace: &Path) -> rustix::io::Result<Beneath> {
        let root = rustix::fs::open(
            workspace,
            OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(Beneath { root })
    }

    /// Opens `relative` (beneath the workspace) with `flags`; symlinks are followed only as far
    /// as they stay beneath. `O_NONBLOCK` is always added: opening a FIFO must not hang.
    pub(crate) fn open_at(&self, relative: &Path, flags: OFlags) -> rustix::io::Result<OwnedFd> {
        open_beneath(&self.root, relative, flags, Mode::empty())
    }

    /// Opens the file `relative` for writing, creating it and its folders when missing. The
    /// last component is never followed if it is a symlink.
    pub(crate) fn create_at(&self, relative: &Path) -> rustix::io::Result<OwnedFd> {
        let names: Vec<&std::ffi::OsStr> = relative
            .components()
            .filter_map(|c| match c {
                Component::Normal(name) => Some(name),
                _ => None,
            })
            .collect();
        let Some((file, folders)) = names.split_last() else {
            return Err(Errno::ISDIR);
        };
        let mut parent: Option<OwnedFd> = None;
        for name in folders {
            let at = parent.as_ref().unwrap_or(&self.root);
            let folder_flags = OFlags::PATH | OFlags::DIRECTORY;
            let next = match open_beneath(at, Path::new(name), folder_flags, Mode::empty()) {
                Err(Errno::NOENT) => {
                    match rustix::fs::mkdirat(at, *name, Mode::from_raw_mode(0o777)) {
                        Ok(()) | Err(Errno::EXIST) => {}
                        Err(e) => return Err(e),
                    }
                    open_beneath(at, Path::new(name), folder_flags, Mode::empty())?
                }
                other => other?,
            };
            parent = Some(next);
        }
        let at = parent.as_ref().unwrap_or(&self.root);
        open_beneath(
            at,
            Path::new(file),
            OFlags::WRONLY | OFlags::CREATE | OFlags::NOFOLLOW,
            Mode::from_raw_mode(0o666),
        )
    }
}

fn open_beneath(
    at: &OwnedFd,
    relative: &Path,
    flags: OFlags,
    mode: Mode,
) -> rustix::io::Result<OwnedFd> {
    let relative = if relative.as_os_str().is_empty() {
        Path::new(".")
    } else {
        relative
    };
    // openat2 refuses O_PATH with any flag it ignores.
    let flags = if flags.contains(OFlags::PATH) {
        flags | OFlags::CLOEXEC
    } else {
        flags | OFlags::CLOEXEC | OFlags::NONBLOCK | OFlags::NOCTTY
    };
    let mut tries = 0;
    loop {
        match rustix::fs::openat2(at, relative, flags, mode, RESOLVE) {
            Err(Errno::AGAIN) if tries < RETRIES => tries += 1,
            other => return other,
        }
    }
}

/// True when `errno` means the path left the workspace (or went through a link it may not
/// follow) on the way.
pub(crate) fn is_escape(errno: Errno) -> bool {
    matches!(errno, Errno::XDEV | Errno::LOOP)
}
