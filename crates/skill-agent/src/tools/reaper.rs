//! What `exec` commands leave behind after they leave their process group (`setsid`, a double
//! fork): this process becomes their subreaper, so they are re-parented here instead of to
//! init, and every child it has is killed once a command is over. Killing is async-signal-safe
//! (no allocation, only system calls), so the Ctrl-C handler uses it too.

use rustix::fd::AsFd;
use rustix::fs::{Mode, OFlags, RawDir};
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// Whether this process adopts orphans, and so whether every child it has is a command's.
static ADOPTING: AtomicBool = AtomicBool::new(false);

/// Children that are not commands and outlive them (a run's MCP servers): spared by
/// [`kill_strays`], killed by [`kill_adopted`]. A fixed table: the signal handler reads it.
static SPARED: [AtomicI32; 32] = [const { AtomicI32::new(0) }; 32];

/// Spares the child `pid` from [`kill_strays`] until [`unspare`]; false when the table is full.
pub fn spare(pid: libc::pid_t) -> bool {
    SPARED.iter().any(|slot| {
        slot.compare_exchange(0, pid, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    })
}

/// Ends what [`spare`] did.
pub(crate) fn unspare(pid: libc::pid_t) {
    for slot in &SPARED {
        let _ = slot.compare_exchange(pid, 0, Ordering::SeqCst, Ordering::SeqCst);
    }
}

fn spared(pid: libc::pid_t) -> bool {
    SPARED.iter().any(|slot| slot.load(Ordering::SeqCst) == pid)
}

/// Rounds of killing (each kills one more level of a detached chain, 2 ms apart) before giving
/// up on children that keep appearing (a fork loop).
const ROUNDS: usize = 5_000;

/// Makes this process the subreaper of whatever its commands start. Process-wide, so only a
/// process whose children are all `exec` commands may call it (the `skill` binary does; a test
/// process running other children must not, or they would be killed too).
pub fn adopt_orphans() -> std::io::Result<()> {
    // SAFETY: prctl with integer arguments only.
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } == -1 {
        return Err(std::io::Error::last_os_error());
    }
    ADOPTING.store(true, Ordering::SeqCst);
    Ok(())
}

/// Kills and reaps every child of this process, round after round, until none is left alive
/// (each one killed hands its own children to this process). Does nothing unless
/// [`adopt_orphans`] succeeded. Async-signal-safe.
pub fn kill_adopted() {
    kill_children(false);
}

/// [`kill_adopted`], sparing the children [`spare`] named: what a command left behind goes,
/// the run's servers stay.
pub(crate) fn kill_strays() {
    kill_children(true);
}

fn kill_children(sparing: bool) {
    if !ADOPTING.load(Ordering::SeqCst) {
        return;
    }
    // SAFETY: getpid has no preconditions.
    let me = unsafe { libc::getpid() };
    for _ in 0..ROUNDS {
        let mut alive = false;
        for_each_child(me, |pid, state| {
            if sparing && spared(pid) {
                return;
            }
            // SAFETY: `pid` is a child of this process, so its id cannot be reused by another
            // process until this process reaps it.
            unsafe {
                if state == b'Z' {
                    libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG);
                } else {
                    libc::kill(pid, libc::SIGKILL);
                    alive = true;
                }
            }
        });
        if !alive {
            return;
        }
        let pause = libc::timespec {
            tv_sec: 0,
            tv_nsec: 2_000_000,
        };
        // SAFETY: nanosleep with a valid timespec.
        unsafe {
            libc::nanosleep(&pause, std::ptr::null_mut());
        }
    }
}

/// Calls `found(pid, state)` for each process whose parent is `parent`, from `/proc`, with
/// buffers on the stack.
fn for_each_child(parent: libc::pid_t, mut found: impl FnMut(libc::pid_t, u8)) {
    let Ok(proc_dir) = rustix::fs::open(
        c"/proc",
        OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
        Mode::empty(),
    ) else {
        return;
    };
    let mut buf = [MaybeUninit::<u8>::uninit(); 8192];
    let mut entries = RawDir::new(proc_dir.as_fd(), &mut buf);
    while let Some(entry) = entries.next() {
        let Ok(entry) = entry else {
            return;
        };
        let Some(pid) = parse_pid(entry.file_name().to_bytes()) else {
            continue;
        };
        if let Some((ppid, state)) = stat_of(pid)
            && ppid == parent
        {
            found(pid, state);
        }
    }
}

/// A process id from a `/proc` entry name, if it is one.
fn parse_pid(name: &[u8]) -> Option<libc::pid_t> {
    if name.is_empty() || name.len() > 10 || !name.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let value = name.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
    libc::pid_t::try_from(value).ok()
}

/// The parent and state of `pid`, from `/proc/PID/stat`.
fn stat_of(pid: libc::pid_t) -> Option<(libc::pid_t, u8)> {
    // "/proc/" + at most 10 digits + "/stat" + NUL.
    let mut path = [0u8; 24];
    let mut len = 0;
    let mut push = |bytes: &[u8]| {
        path[len..len + bytes.len()].copy_from_slice(bytes);
        len += bytes.len();
    };
    push(b"/proc/");
    let mut digits = [0u8; 10];
    let mut n = pid.unsigned_abs();
    let mut count = 0;
    loop {
        digits[count] = b'0' + (n % 10) as u8;
        count += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    digits[..count].reverse();
    push(&digits[..count]);
    push(b"/stat");
    let name = std::ffi::CStr::from_bytes_until_nul(&path).ok()?;
    let file = rustix::fs::open(name, OFlags::RDONLY | OFlags::CLOEXEC, Mode::empty()).ok()?;
    let mut text = [0u8; 1024];
    let read = rustix::io::read(&file, &mut text).ok()?;
    parse_stat(&text[..read])
}

/// The parent and state from the text of a `stat` file: `PID (COMM) STATE PPID ...`, where
/// COMM may itself hold spaces and parentheses, so the last `)` ends it.
fn parse_stat(text: &[u8]) -> Option<(libc::pid_t, u8)> {
    let close = text.iter().rposition(|&b| b == b')')?;
    let rest = text.get(close + 2..)?;
    let state = *rest.first()?;
    let ppid = rest.get(2..)?;
    let end = ppid.iter().position(|&b| b == b' ').unwrap_or(ppid.len());
    Some((parse_pid(&ppid[..end])?, state))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_give_parent_and_state() {
        assert_eq!(parse_stat(b"42 (sh) S 7 42 42 0"), Some((7, b'S')));
        assert_eq!(parse_stat(b"42 (a) b) (c) Z 1 0"), Some((1, b'Z')));
        assert_eq!(parse_stat(b"garbage"), None);
        assert_eq!(parse_pid(b"self"), None);
        assert_eq!(parse_pid(b"123"), Some(123));
    }
}
