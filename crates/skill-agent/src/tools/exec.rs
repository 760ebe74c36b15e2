//! The `exec` tool: a command through `sh -c` (or an argv without a shell) in the workspace, in
//! its own session (and PID namespace, where there is one) so a timeout kills everything it
//! started (and what left the session, through the reaper), confined by `sandbox`, with an
//! allow-listed environment, its output capped and destructive commands refused (the deny-list
//! is a first line, not the defence).

use super::paths::resolve;
use super::sandbox::Confinement;
use super::{environment, reaper, sandbox};
use regex::Regex;
use serde::Deserialize;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Characters of stdout kept.
const OUTPUT_CAP: usize = 10_000;
/// Characters of stderr kept.
const STDERR_CAP: usize = 4_000;
/// Longest timeout a call may ask for.
const MAX_TIMEOUT_SECS: u64 = 600;

/// `exec` arguments: `command` or `argv`.
#[derive(Debug, Deserialize)]
pub(crate) struct ExecArgs {
    command: Option<String>,
    argv: Option<Vec<String>>,
    working_dir: Option<String>,
    timeout: Option<u64>,
}

/// Patterns refused before anything runs: (pattern, reason).
const DENY: &[(&str, &str)] = &[
    (r"\brm\s+(-\S*\s+)*-[a-zA-Z]*[rR]", "recursive delete"),
    (
        r"\bmkfs(\.\w+)?\b|\bdiskpart\b|^\s*format\s",
        "formats a disk",
    ),
    (r"\bdd\s+.*\bof=/dev/", "writes a raw device"),
    (r">\s*/dev/(sd|hd|nvme|disk|mmcblk)", "writes a raw device"),
    (
        r"\b(shutdown|reboot|poweroff|halt)\b",
        "powers the machine off",
    ),
    (r":\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:", "fork bomb"),
    (r"\bchmod\s+-R\s+\S+\s+/(\s|$)", "changes modes under /"),
    (r"\bchown\s+-R\s+\S+\s+/(\s|$)", "changes owners under /"),
];

fn deny_list() -> &'static [(Regex, &'static str)] {
    static LIST: OnceLock<Vec<(Regex, &'static str)>> = OnceLock::new();
    LIST.get_or_init(|| {
        DENY.iter()
            .map(|(p, why)| {
                (
                    Regex::new(p).expect("deny patterns are valid regexes"),
                    *why,
                )
            })
            .collect()
    })
}

/// Why `command` is refused, if it is.
fn blocked(command: &str) -> Option<&'static str> {
    deny_list()
        .iter()
        .find(|(re, _)| re.is_match(command))
        .map(|(_, why)| *why)
}

/// What every command of a run shares: its confinement, the variables passed beyond the
/// allow-list, and the private TMPDIR (made at the first command, removed with the run's tools).
#[derive(Debug, Default)]
pub struct Setup {
    /// How commands are confined.
    pub confinement: Confinement,
    /// Variables passed beyond the allow-list.
    pub passed: environment::Passed,
    tmpdir: OnceLock<Result<(tempfile::TempDir, PathBuf), String>>,
}

impl Setup {
    /// A setup with `confinement`, passing `passed`.
    pub fn new(confinement: Confinement, passed: environment::Passed) -> Setup {
        Setup {
            confinement,
            passed,
            tmpdir: OnceLock::new(),
        }
    }

    /// The private TMPDIR, made on first use (named after this process, so a later run can
    /// remove the ones a killed run left: see [`sweep_stale`]).
    pub fn tmpdir(&self) -> Result<PathBuf, String> {
        let made = self.tmpdir.get_or_init(|| {
            sweep_stale(&std::env::temp_dir());
            let dir = tempfile::Builder::new()
                .prefix(&format!("{TMPDIR_PREFIX}{}-", std::process::id()))
                .tempdir()
                .map_err(|e| format!("cannot make the private TMPDIR: {e}"))?;
            // Canonical, as Landlock rules and the paths a command prints should be.
            let path = std::fs::canonicalize(dir.path())
                .map_err(|e| format!("cannot resolve the private TMPDIR: {e}"))?;
            Ok((dir, path))
        });
        match made {
            Ok((_, path)) => Ok(path.clone()),
            Err(e) => Err(e.clone()),
        }
    }
}

/// The start of a command TMPDIR's name, before the owning process's id.
const TMPDIR_PREFIX: &str = "skill-exec-";

/// A TMPDIR untouched this long, whose process is gone, is a killed run's: the age guards a run
/// whose process this one cannot see (another PID namespace sharing `/tmp`).
const STALE_AFTER: Duration = Duration::from_secs(24 * 60 * 60);

/// Removes the command TMPDIRs in `temp` whose process is gone (a run killed by a signal cannot
/// remove its own) and that were last changed [`STALE_AFTER`] ago. Only folders of this user,
/// named `skill-exec-PID-...`, are touched; a link is removed as a link.
fn sweep_stale(temp: &Path) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(temp) else {
        return;
    };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(TMPDIR_PREFIX))
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        let ours = entry.path().symlink_metadata().is_ok_and(|m| {
            m.is_dir()
                && m.uid() == me
                && m.modified()
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age >= STALE_AFTER)
        });
        if ours && !Path::new("/proc").join(pid.to_string()).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Runs the command; `default_timeout` applies when the call names none. A command that ran
/// and exited non-zero is a result (its exit code is in it); an error is a command that could
/// not run or did not finish.
pub fn exec(
    workspace: &Path,
    setup: &Setup,
    args: ExecArgs,
    default_timeout: Duration,
) -> Result<String, String> {
    let (mut command, shown) = match (&args.command, &args.argv) {
        (Some(text), None) if !text.trim().is_empty() => {
            let mut c = Command::new("sh");
            c.arg("-c").arg(text);
            (c, text.clone())
        }
        (None, Some(argv)) if !argv.is_empty() => {
            let mut c = Command::new(&argv[0]);
            c.args(&argv[1..]);
            (c, argv.join(" "))
        }
        _ => {
            return Err(
                "Error: Invalid parameters for tool 'exec': give either command or argv".into(),
            );
        }
    };
    if let Some(why) = blocked(&shown) {
        return Err(format!("Error: Command blocked by safety guard ({why})"));
    }
    let dir = match resolve(workspace, args.working_dir.as_deref().unwrap_or(".")) {
        Ok(d) if d.is_dir() => d,
        Ok(_) => return Err("Error: working_dir is not a folder in the workspace".to_owned()),
        Err(e) => return Err(e),
    };
    let timeout = args.timeout.map_or(default_timeout, |s| {
        Duration::from_secs(s.clamp(1, MAX_TIMEOUT_SECS))
    });
    if let Err(e) = confine_like_exec(workspace, setup, &mut command, &[]) {
        return Err(format!("Error: the command was not run: {e}"));
    }
    run(command.current_dir(dir), timeout)
}

/// Gives `command` what every command of the run gets: the environment allow-list (HOME the
/// workspace under the test policy: the user's holds keys), its private TMPDIR, the sandbox
/// (with `readable` beside the system's folders under the test policy).
pub(crate) fn confine_like_exec(
    workspace: &Path,
    setup: &Setup,
    command: &mut Command,
    readable: &[&Path],
) -> Result<(), String> {
    let tmpdir = setup
        .tmpdir()
        .map_err(|e| format!("cannot make the command's TMPDIR: {e}"))?;
    let policy = setup.confinement.policy;
    let vars: Vec<_> = std::env::vars_os().collect();
    let home = match vars.iter().find(|(name, _)| name == "HOME") {
        Some((_, home)) if !policy.is_test() => PathBuf::from(home),
        _ => workspace.to_owned(),
    };
    command
        .env_clear()
        .envs(environment::allowed(vars, &home, &tmpdir, &setup.passed));
    sandbox::confine(command, setup.confinement, &[workspace, &tmpdir], readable)
        .map_err(|e| format!("it could not be confined ({e})"))
}

/// What a stream produced: the first bytes, and how many there were in all.
#[derive(Default)]
struct Capture {
    kept: Vec<u8>,
    total: usize,
}

fn run(command: &mut Command, timeout: Duration) -> Result<String, String> {
    // Before the spawn: a signal arriving before the group is recorded must still end the
    // command (the handler then kills this process's children, the command among them).
    RunningGroup::install_handler();
    let spawned = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => return Err(format!("Error executing exec: {e}")),
    };
    let _guard = RunningGroup::enter(child.id() as i32);
    let streams = Streams::capture(&mut child);
    let status = wait_for(&mut child, timeout)?;
    // What the command left running in the background (`server &`) ends with it, and so
    // does what left its session (`setsid`, a double fork) and came to this process.
    kill_group(&child);
    reaper::kill_strays();
    streams.wait_a_little();
    report(status, timeout, &streams)
}

/// The child's stdout and stderr as threads read them, and word from each thread when its
/// stream ends.
struct Streams {
    stdout: Arc<Mutex<Capture>>,
    stderr: Arc<Mutex<Capture>>,
    done: mpsc::Receiver<()>,
}

impl Streams {
    /// Starts a thread reading each of the child's output streams.
    fn capture(child: &mut std::process::Child) -> Streams {
        let (done_tx, done_rx) = mpsc::channel();
        let out = Arc::new(Mutex::new(Capture::default()));
        let err = Arc::new(Mutex::new(Capture::default()));
        for (stream, capture) in [
            (
                child
                    .stdout
                    .take()
                    .map(|s| Box::new(s) as Box<dyn Read + Send>),
                &out,
            ),
            (
                child
                    .stderr
                    .take()
                    .map(|s| Box::new(s) as Box<dyn Read + Send>),
                &err,
            ),
        ] {
            let (Some(mut stream), capture, done) = (stream, Arc::clone(capture), done_tx.clone())
            else {
                continue;
            };
            std::thread::spawn(move || {
                keep_reading(&mut stream, &capture);
                let _ = done.send(());
            });
        }
        drop(done_tx);
        Streams {
            stdout: out,
            stderr: err,
            done: done_rx,
        }
    }

    /// A process that left the group may still hold the pipes: waits a little, not forever.
    fn wait_a_little(&self) {
        for _ in 0..2 {
            if self.done.recv_timeout(Duration::from_secs(2)).is_err() {
                break;
            }
        }
    }
}

/// Reads `stream` to its end, keeping its first bytes in `capture` and counting them all.
fn keep_reading(stream: &mut dyn Read, capture: &Mutex<Capture>) {
    let mut buf = [0u8; 8192];
    while let Ok(n) = stream.read(&mut buf) {
        if n == 0 {
            break;
        }
        let mut c = capture.lock().unwrap_or_else(|e| e.into_inner());
        c.total += n;
        let room = (OUTPUT_CAP * 4).saturating_sub(c.kept.len());
        c.kept.extend_from_slice(&buf[..n.min(room)]);
    }
}

/// The child's exit status, or `None` when `timeout` ran out first and its group was killed.
fn wait_for(
    child: &mut std::process::Child,
    timeout: Duration,
) -> Result<Option<std::process::ExitStatus>, String> {
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(Some(status)),
            Ok(None) if started.elapsed() >= timeout => {
                kill_group(child);
                let _ = child.wait();
                return Ok(None);
            }
            Ok(None) => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            Err(e) => return Err(format!("Error executing exec: {e}")),
        }
    }
}

/// The tool's result: a timeout's note, the output, the exit code when not 0; an error when
/// the command timed out.
fn report(
    status: Option<std::process::ExitStatus>,
    timeout: Duration,
    streams: &Streams,
) -> Result<String, String> {
    let text = |c: &Arc<Mutex<Capture>>, limit: usize| {
        let c = c.lock().unwrap_or_else(|e| e.into_inner());
        let text = String::from_utf8_lossy(&c.kept).into_owned();
        cap_at(text, limit, c.total - c.kept.len())
    };
    // Each stream is cut on its own, so the exit code and stderr survive a flood of stdout.
    let (stdout, stderr) = (
        text(&streams.stdout, OUTPUT_CAP),
        text(&streams.stderr, STDERR_CAP),
    );
    let mut parts = Vec::new();
    if status.is_none() {
        parts.push(format!(
            "Error: Command timed out after {} seconds",
            timeout.as_secs()
        ));
    }
    if !stdout.is_empty() {
        parts.push(stdout);
    }
    if !stderr.trim().is_empty() {
        parts.push(format!("STDERR:\n{stderr}"));
    }
    match status.map(|s| s.code()) {
        None | Some(Some(0)) => {}
        Some(Some(code)) => parts.push(format!("\nExit code: {code}")),
        Some(None) => parts.push("\nKilled by a signal".to_owned()),
    }
    if status.is_none() {
        return Err(parts.join("\n"));
    }
    if parts.is_empty() {
        return Ok(super::NO_OUTPUT.to_owned());
    }
    Ok(parts.join("\n"))
}

/// The process group of the command running now (0: none), for the signal handler.
static RUNNING_GROUP: AtomicI32 = AtomicI32::new(0);

/// Marks a command's process group as running while alive. The command's own session does not
/// get the terminal's Ctrl-C, so on SIGINT or SIGTERM the handler kills the group and what this
/// process adopted, then lets the signal end this process as it would have.
struct RunningGroup;

impl RunningGroup {
    fn install_handler() {
        static INSTALLED: std::sync::Once = std::sync::Once::new();
        INSTALLED.call_once(|| {
            // SAFETY: installing a handler that only calls async-signal-safe functions.
            unsafe {
                libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
                libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
            }
        });
    }

    fn enter(group: i32) -> RunningGroup {
        RunningGroup::install_handler();
        RUNNING_GROUP.store(group, Ordering::SeqCst);
        RunningGroup
    }
}

impl Drop for RunningGroup {
    fn drop(&mut self) {
        RUNNING_GROUP.store(0, Ordering::SeqCst);
    }
}

extern "C" fn on_signal(signal: libc::c_int) {
    let group = RUNNING_GROUP.load(Ordering::SeqCst);
    // SAFETY: kill, signal and raise are async-signal-safe.
    unsafe {
        if group > 0 {
            libc::kill(-group, libc::SIGKILL);
        }
        reaper::kill_adopted();
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
}

/// Kills every process left in the child's group.
fn kill_group(child: &std::process::Child) {
    // SAFETY: signalling the process group created for this child; an empty group is ESRCH.
    unsafe {
        libc::kill(-(child.id() as i32), libc::SIGKILL);
    }
}

/// The first `limit` characters of `text`, and a note of how many more there were (`dropped`
/// is what was read but never kept, in bytes, counted as characters: exact for ASCII).
pub(crate) fn cap_at(text: String, limit: usize, dropped: usize) -> String {
    let (kept, more) = match text.char_indices().nth(limit) {
        None => (text.as_str(), 0),
        Some((cut, _)) => (&text[..cut], text[cut..].chars().count()),
    };
    if more + dropped == 0 {
        return text;
    }
    format!("{kept}\n... (truncated, {} more chars)", more + dropped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deny_list_blocks_destructive_commands_only() {
        for bad in [
            "rm -rf /",
            "rm -fr ~",
            "cd / && rm -r x",
            "mkfs.ext4 /dev/sda1",
            "dd if=/dev/zero of=/dev/sda",
            "sudo shutdown now",
            ":(){ :|:& };:",
        ] {
            assert!(blocked(bad).is_some(), "{bad}");
        }
        for good in [
            "rm notes.txt",
            "ls -R",
            "echo --format json",
            "grep -r TODO .",
        ] {
            assert!(blocked(good).is_none(), "{good}");
        }
    }
}
