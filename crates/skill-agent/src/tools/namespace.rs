//! A PID and mount namespace for each `exec` command, where the kernel lets this process make
//! one (as root, as in CI containers): the command is the namespace's init, so when it ends the
//! kernel kills everything it started, however deep and however detached; and it gets its own
//! `/proc`, so it sees no process outside, nor their environments. Everything here runs between
//! fork and exec and is async-signal-safe: system calls only, no allocation.

use std::os::fd::{FromRawFd, OwnedFd};

/// Whether commands can get a namespace of their own here: a forked child makes one exactly as
/// each command will, mounts its `/proc`, and exits.
pub fn available() -> bool {
    // SAFETY: the child only makes system calls and _exits.
    unsafe {
        match libc::fork() {
            -1 => false,
            0 => libc::_exit(match enter() {
                Ok(()) => 0,
                Err(_) => 1,
            }),
            child => {
                let mut status = 0;
                while libc::waitpid(child, &mut status, 0) == -1 {
                    if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                        return false;
                    }
                }
                libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
            }
        }
    }
}

/// Moves the calling (forked, not yet exec'd) process's future into a new PID and mount
/// namespace. The calling process stays outside as a relay: it closes every descriptor, waits
/// for the namespace's init and ends as it ended, so the parent sees one child as before. The
/// init returns from here, with its own `/proc` mounted, and goes on to exec; it dies with the
/// relay.
pub(crate) fn enter() -> std::io::Result<()> {
    // SAFETY: system calls with valid arguments; after fork each side only makes system calls.
    unsafe {
        check(libc::unshare(libc::CLONE_NEWPID | libc::CLONE_NEWNS))?;
        match check(libc::fork())? {
            0 => {
                check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0))?;
                // Mounts made here must not reach the parent's namespace.
                check(libc::mount(
                    std::ptr::null(),
                    c"/".as_ptr(),
                    std::ptr::null(),
                    libc::MS_REC | libc::MS_PRIVATE,
                    std::ptr::null(),
                ))?;
                check(libc::mount(
                    c"proc".as_ptr(),
                    c"/proc".as_ptr(),
                    c"proc".as_ptr(),
                    libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
                    std::ptr::null(),
                ))?;
                Ok(())
            }
            init => relay(init),
        }
    }
}

/// The new `/proc`, opened for a Landlock rule (a rule on the old one does not cover it).
pub(crate) fn open_proc() -> std::io::Result<OwnedFd> {
    // SAFETY: open with a valid C string; the descriptor is owned from here on.
    unsafe {
        let fd = check(libc::open(
            c"/proc".as_ptr(),
            libc::O_PATH | libc::O_CLOEXEC | libc::O_DIRECTORY,
        ))?;
        Ok(OwnedFd::from_raw_fd(fd))
    }
}

/// Waits for `init` and ends the way it ended. Never returns.
unsafe fn relay(init: libc::pid_t) -> ! {
    // SAFETY: system calls only; the descriptors closed are this process's own copies (the
    // pipes to the parent and its exec-error channel among them, so they close when init's do).
    unsafe {
        libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32);
        let mut status = 0;
        while libc::waitpid(init, &mut status, 0) == -1 {
            if *libc::__errno_location() != libc::EINTR {
                libc::_exit(127);
            }
        }
        if libc::WIFSIGNALED(status) {
            let signal = libc::WTERMSIG(status);
            libc::signal(signal, libc::SIG_DFL);
            libc::kill(libc::getpid(), signal);
        }
        libc::_exit(libc::WEXITSTATUS(status))
    }
}

fn check(result: libc::c_int) -> std::io::Result<libc::c_int> {
    if result == -1 {
        Err(std::io::Error::last_os_error())
    } else {
        Ok(result)
    }
}
