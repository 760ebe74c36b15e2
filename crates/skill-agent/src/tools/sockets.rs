//! Sockets under the test policy without the network. Landlock's network rights cover TCP only
//! (`IPPROTO_TCP`), so MPTCP, UDP (DNS lookups carry data out too), raw and netlink sockets would
//! pass; a seccomp filter refuses `socket(2)` itself, for every family, and `io_uring_setup(2)`,
//! through which a socket can be made without that call. `socketpair(2)`, which reaches nothing,
//! stays allowed.

use seccompiler::{BackendError, BpfProgram, SeccompAction, SeccompFilter, TargetArch};
use std::collections::BTreeMap;

/// The filter, compiled in this process for each command to install between fork and exec.
pub(crate) fn no_network_filter() -> Result<BpfProgram, BackendError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH)?;
    // An empty rule list matches every call of that system call.
    let rules = BTreeMap::from([
        (libc::SYS_socket, Vec::new()),
        (libc::SYS_io_uring_setup, Vec::new()),
    ]);
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EACCES as u32),
        arch,
    )?;
    BpfProgram::try_from(filter)
}

/// Installs `program` on the calling process (and what it executes). Async-signal-safe.
pub fn install(program: &BpfProgram) -> std::io::Result<()> {
    seccompiler::apply_filter(program).map_err(|e| match e {
        seccompiler::Error::Prctl(e) | seccompiler::Error::Seccomp(e) => e,
        _ => std::io::Error::from_raw_os_error(libc::EINVAL),
    })
}
