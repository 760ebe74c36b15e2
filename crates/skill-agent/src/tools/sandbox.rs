//! The confinement of `exec` commands: what is needed is prepared in this process (the Landlock
//! ruleset, the socket filter), and each command applies it to itself between fork and exec, so
//! this process is never restricted. In every run a command gets its own session, no descriptor
//! this process inherited, and (where the kernel allows) its own PID namespace and `/proc`.
//! With the sandbox on, writes are confined to the workspace and the command's private TMPDIR;
//! under the test policy (`skill test`, every replay, `skill try --strict`) reads are confined to
//! the system's folders and the workspace, and no socket is made unless the scenario allows the
//! network. [`decide`] chooses the confinement for every command that runs commands; this module
//! does not build the environment (see `environment`).

use landlock::{
    ABI, Access, AccessFs, AccessNet, BitFlags, CompatLevel, Compatible, PathBeneath, PathFd,
    Ruleset, RulesetAttr, RulesetCreated, RulesetCreatedAttr, RulesetStatus, Scope,
};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The newest Landlock ABI whose rights this policy was written and tested for; newer kernels
/// are used at this level, older ones at theirs (with the minimums below).
const TARGET: ABI = ABI::V6;

/// Folders a shell and common command-line tools read under the test policy. The user's home,
/// `/tmp`, `/var` and `/run/user` (where agents and keyrings keep their sockets and secrets)
/// are not among them.
const SYSTEM_READS: &[&str] = &[
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/proc",
    "/sys",
    // Not the whole of /dev: /dev/shm holds other programs' shared memory.
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/nix/store",
    "/snap",
    // /etc/resolv.conf is often a link into these.
    "/run/systemd/resolve",
    "/run/resolvconf",
];

/// Devices every command may write (`> /dev/null`), under either policy.
const WRITABLE_DEVICES: &[&str] = &["/dev/null", "/dev/zero", "/dev/full"];

/// What `exec` commands may read and connect to, and which HOME they get.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// A live `skill try`: reads anywhere and the network, as real CLIs need for their own
    /// configuration; HOME is the user's.
    Live,
    /// `skill test`, replays and `skill try --strict`: the tool calls may come from a file
    /// anyone wrote, so reads stay in the system's folders and the workspace, HOME is the
    /// workspace, and TCP connects are refused unless `network`.
    Test {
        /// The scenario allows TCP connects (`network: true`).
        network: bool,
    },
}

/// How `exec` commands are confined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Confinement {
    /// What they may do.
    pub policy: Policy,
    /// Whether the sandbox (Landlock, and the socket filter of the test policy without network)
    /// enforces the policy. `false` (`--no-sandbox`, or a kernel without Landlock after a
    /// warning) leaves the deny-list, the environment allow-list and the process-tree kill, and
    /// nothing that stops a command reading or writing files.
    pub landlock: bool,
    /// Whether each command gets its own PID namespace and `/proc` (see `namespace`).
    pub pid_namespace: bool,
}

impl Default for Confinement {
    /// The test policy without network, enforced: what a stranger's tool calls get.
    fn default() -> Confinement {
        Confinement {
            policy: Policy::Test { network: false },
            landlock: true,
            pid_namespace: false,
        }
    }
}

impl Confinement {
    /// This confinement for a scenario that does or does not allow the network (the test
    /// policy only: a live run connects freely).
    pub fn with_network(self, network: bool) -> Confinement {
        match self.policy {
            Policy::Test { .. } => Confinement {
                policy: Policy::Test { network },
                ..self
            },
            Policy::Live => self,
        }
    }
}

impl Policy {
    /// True when reads are confined and HOME is the workspace.
    pub(crate) fn is_test(self) -> bool {
        matches!(self, Policy::Test { .. })
    }
}

/// Where a run's tool calls come from, which decides how its commands are confined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// A live model in `skill try`: the live policy, or the test policy with `--strict`.
    Live {
        /// `--strict`.
        strict: bool,
    },
    /// Calls that a file may hold, which anyone could have written: every replay, `skill test`
    /// and `skill eval` in every mode. The test policy, and no run at all where it cannot be
    /// enforced (unless `--no-sandbox`).
    Recorded,
}

/// How a run's commands are confined, and what the user should be told about it.
#[derive(Debug)]
pub struct Decision {
    /// The confinement (without network, under the test policy: see
    /// [`Confinement::with_network`]).
    pub confinement: Confinement,
    /// Warnings to show once, before the run.
    pub warnings: Vec<String>,
}

/// The one place the confinement of a run's commands is decided, for `try` (live or replayed),
/// `test` and `eval` alike. This process also becomes the subreaper of the commands and hides
/// its memory from them. An error means recorded calls must not run here.
pub fn decide(origin: Origin, no_sandbox: bool) -> Result<Decision, SandboxError> {
    let policy = match origin {
        Origin::Live { strict: false } => Policy::Live,
        _ => Policy::Test { network: false },
    };
    let mut warnings = Vec::new();
    if let Err(e) = super::reaper::adopt_orphans() {
        warnings.push(format!("commands that detach may outlive this run: {e}"));
    }
    if let Err(e) = seal_process() {
        warnings.push(format!("commands may read this process's environment: {e}"));
    }
    let pid_namespace = super::namespace::available();
    // SAFETY: geteuid has no preconditions.
    if !pid_namespace && policy.is_test() && unsafe { libc::geteuid() } == 0 {
        warnings.push(
            "commands run as root without a PID namespace of their own and can read other processes' environments".to_owned(),
        );
    }
    let landlock = if no_sandbox {
        warnings.push(
            "the sandbox is off: commands are not confined and can read and write anything you can"
                .to_owned(),
        );
        false
    } else {
        match (probe(policy), origin) {
            (Ok(()), _) => true,
            (Err(e), Origin::Recorded) => return Err(e),
            (Err(e), Origin::Live { .. }) => {
                warnings.push(format!(
                    "commands are not confined ({e}); they can read and write anything you can"
                ));
                false
            }
        }
    };
    Ok(Decision {
        confinement: Confinement {
            policy,
            landlock,
            pid_namespace,
        },
        warnings,
    })
}

/// Why commands cannot be confined here.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// The kernel lacks Landlock, or the features this policy needs.
    #[error("Landlock cannot enforce this policy on this kernel: {0}")]
    Unsupported(String),
    /// A folder the policy names could not be opened.
    #[error("{path}: {message}")]
    Path {
        /// The folder.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The seccomp filter that refuses sockets could not be built for this machine.
    #[error("the filter that refuses sockets cannot be built here: {0}")]
    SocketFilter(#[source] seccompiler::BackendError),
    /// A process could not restrict itself (for instance, too many Landlock layers already).
    #[error("a process could not restrict itself with Landlock: {0}")]
    Restrict(std::io::Error),
}

/// Makes this process non-dumpable, so its commands cannot read its memory or its environment
/// (where the model's keys are) through `/proc/PID/mem` or `/proc/PID/environ`, nor attach to it.
/// Landlock's own ptrace scoping is not relied on: some kernels let a sandboxed child read its
/// parent's `/proc` files. Process-wide, so the CLI calls it.
pub fn seal_process() -> std::io::Result<()> {
    // SAFETY: prctl with integer arguments only.
    if unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) } == -1 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// `CAP_SYS_PTRACE` from linux/capability.h (libc does not define the capability numbers).
const CAP_SYS_PTRACE: libc::c_ulong = 19;

/// Drops CAP_SYS_PTRACE from the calling process's bounding set, so a command run as root
/// cannot get past [`seal_process`]. Async-signal-safe; a process without CAP_SETPCAP (not
/// root) has nothing to drop, so failure is ignored.
pub(crate) fn drop_ptrace_capability() {
    // SAFETY: prctl with integer arguments only.
    unsafe {
        libc::prctl(libc::PR_CAPBSET_DROP, CAP_SYS_PTRACE, 0, 0, 0);
    }
}

/// Checks that `policy` can be enforced here: prepares its sandbox and has a forked child
/// apply it, exactly as each command will.
pub fn probe(policy: Policy) -> Result<(), SandboxError> {
    let mut steps = Steps::sandbox(policy, &[], &[])?;
    // SAFETY: the child only makes system calls (prctl, seccomp, landlock_restrict_self) and
    // _exits; nothing in it allocates or takes a lock another thread may hold.
    unsafe {
        match libc::fork() {
            -1 => Err(SandboxError::Restrict(std::io::Error::last_os_error())),
            0 => {
                let code = match steps.enforce(None) {
                    Ok(()) => 0,
                    Err(e) => e.raw_os_error().unwrap_or(libc::EPERM),
                };
                libc::_exit(code)
            }
            child => {
                drop(steps);
                let mut status = 0;
                while libc::waitpid(child, &mut status, 0) == -1 {
                    if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                        return Err(SandboxError::Restrict(std::io::Error::last_os_error()));
                    }
                }
                match (libc::WIFEXITED(status), libc::WEXITSTATUS(status)) {
                    (true, 0) => Ok(()),
                    (true, errno) => Err(SandboxError::Restrict(
                        std::io::Error::from_raw_os_error(errno),
                    )),
                    _ => Err(SandboxError::Restrict(std::io::Error::other(
                        "the probe process was killed",
                    ))),
                }
            }
        }
    }
}

/// Makes `command` confine itself as `confinement` says before it executes, with writable
/// folders `writable` (the workspace and the command's TMPDIR), under the test policy the
/// system's folders and `readable` to read, and nothing else.
pub fn confine(
    command: &mut Command,
    confinement: Confinement,
    writable: &[&Path],
    readable: &[&Path],
) -> Result<(), SandboxError> {
    let mut steps = if confinement.landlock {
        Steps::sandbox(confinement.policy, writable, readable)?
    } else {
        Steps::default()
    };
    let namespace = confinement.pid_namespace;
    // SAFETY: the closure runs in the forked child and only makes system calls; what it needs
    // (the ruleset, its folders opened, the socket filter) was made in the parent.
    unsafe {
        command.pre_exec(move || {
            drop_ptrace_capability();
            // A session of its own gives the command no controlling terminal to read or inject
            // into, and a process group to kill.
            if libc::setsid() == -1 {
                return Err(std::io::Error::last_os_error());
            }
            close_inherited();
            let proc = if namespace {
                super::namespace::enter()?;
                Some(super::namespace::open_proc()?)
            } else {
                None
            };
            steps.enforce(proc)
        });
    }
    Ok(())
}

/// What a command applies to itself after any namespace is made: nothing without the sandbox.
#[derive(Default)]
struct Steps {
    sockets: Option<seccompiler::BpfProgram>,
    ruleset: Option<(RulesetCreated, Policy)>,
}

impl Steps {
    /// The sandbox of `policy`: its Landlock ruleset, and the socket filter when it refuses
    /// the network.
    fn sandbox(
        policy: Policy,
        writable: &[&Path],
        readable: &[&Path],
    ) -> Result<Steps, SandboxError> {
        let sockets = match policy {
            Policy::Test { network: false } => {
                Some(super::sockets::no_network_filter().map_err(SandboxError::SocketFilter)?)
            }
            _ => None,
        };
        Ok(Steps {
            sockets,
            ruleset: Some((build(policy, writable, readable)?, policy)),
        })
    }

    /// Applies the steps to the calling process; `proc` is a `/proc` mounted since the ruleset
    /// was built, which the test policy must also let the command read. Async-signal-safe.
    fn enforce(&mut self, proc: Option<std::os::fd::OwnedFd>) -> std::io::Result<()> {
        if let Some(program) = &self.sockets {
            super::sockets::install(program)?;
        }
        let Some((mut ruleset, policy)) = self.ruleset.take() else {
            return Ok(());
        };
        if let (Some(fd), true) = (proc, policy.is_test()) {
            ruleset = ruleset
                .add_rule(PathBeneath::new(fd, AccessFs::from_read(TARGET)))
                .map_err(|_| std::io::Error::from_raw_os_error(libc::EINVAL))?;
        }
        restrict(ruleset)
    }
}

/// Marks every descriptor from 3 up close-on-exec: what this process inherited (a `9>>log` of
/// the shell that started it) must not reach a command. Closing them here would also close the
/// channel through which the spawn reports a failed exec, which is close-on-exec already.
fn close_inherited() {
    // SAFETY: close_range and fcntl on descriptor numbers; none is dereferenced.
    unsafe {
        if libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        ) == 0
        {
            return;
        }
        // Kernels before 5.11: one descriptor at a time, up to the limit.
        let limit = libc::sysconf(libc::_SC_OPEN_MAX).clamp(0, 1 << 16) as libc::c_int;
        for fd in 3..limit {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
}

/// Restricts the calling thread (in a child: the whole child) with `ruleset`. A ruleset the
/// kernel did not enforce is an error: a command must never run unconfined by surprise.
fn restrict(ruleset: RulesetCreated) -> std::io::Result<()> {
    match ruleset.restrict_self() {
        Ok(status) if status.ruleset != RulesetStatus::NotEnforced => Ok(()),
        Ok(_) => Err(std::io::Error::from_raw_os_error(libc::ENOSYS)),
        Err(_) => Err(std::io::Error::last_os_error()),
    }
}

/// The ruleset of `policy` with `writable` folders.
fn build(
    policy: Policy,
    writable: &[&Path],
    readable: &[&Path],
) -> Result<RulesetCreated, SandboxError> {
    let (mut created, wanted) = create_ruleset(policy)?;
    // Device nodes made in the workspace would reach the disks behind them (as root).
    let folder = wanted & !(AccessFs::MakeChar | AccessFs::MakeBlock);
    for path in writable {
        created = allow(created, path, folder, true)?;
    }
    let device = AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate | AccessFs::IoctlDev;
    for path in WRITABLE_DEVICES {
        created = allow(created, Path::new(path), device & wanted, false)?;
    }
    if policy.is_test() {
        for path in SYSTEM_READS
            .iter()
            .map(Path::new)
            .chain(readable.iter().copied())
        {
            created = allow(created, path, AccessFs::from_read(TARGET), false)?;
        }
    }
    Ok(created)
}

/// The ruleset of `policy`, no path granted yet, and the file rights it handles.
fn create_ruleset(policy: Policy) -> Result<(RulesetCreated, BitFlags<AccessFs>), SandboxError> {
    let unsupported = |e: landlock::RulesetError| SandboxError::Unsupported(e.to_string());
    // The V1 rights are the floor: without them there is no confinement. Later rights
    // (cross-folder links, truncation, device ioctls) are used where the kernel has them.
    let (floor, wanted) = match policy {
        Policy::Live => (AccessFs::from_write(ABI::V1), AccessFs::from_write(TARGET)),
        Policy::Test { .. } => (AccessFs::from_all(ABI::V1), AccessFs::from_all(TARGET)),
    };
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(floor)
        .map_err(unsupported)?
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(wanted)
        .map_err(unsupported)?;
    if let Policy::Test { network } = policy {
        if !network {
            ruleset = ruleset
                .set_compatibility(CompatLevel::HardRequirement)
                .handle_access(AccessNet::ConnectTcp)
                .map_err(unsupported)?;
        }
        // Signals and abstract sockets reaching out of the sandbox (to this process, to the
        // user's agents) are refused where the kernel can (ABI 6).
        ruleset = ruleset
            .set_compatibility(CompatLevel::BestEffort)
            .scope(Scope::from_all(TARGET))
            .map_err(unsupported)?;
    }
    Ok((ruleset.create().map_err(unsupported)?, wanted))
}

/// `created` granting `access` beneath `path` (file rights only, for a file); a missing path
/// that is not `required` grants nothing.
fn allow(
    created: RulesetCreated,
    path: &Path,
    access: BitFlags<AccessFs>,
    required: bool,
) -> Result<RulesetCreated, SandboxError> {
    let fd = match PathFd::new(path) {
        Ok(fd) => fd,
        // A system folder this machine does not have grants nothing.
        Err(_) if !required => return Ok(created),
        Err(e) => {
            return Err(SandboxError::Path {
                path: path.to_owned(),
                message: e.to_string(),
            });
        }
    };
    let access = if path.is_dir() {
        access
    } else {
        access & AccessFs::from_file(TARGET)
    };
    created
        .add_rule(PathBeneath::new(fd, access))
        .map_err(|e| SandboxError::Path {
            path: path.to_owned(),
            message: e.to_string(),
        })
}
