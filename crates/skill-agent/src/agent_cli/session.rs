//! One headless session of an agent CLI: a temporary home and project (a git repository) with
//! the skills installed where the agent reads them, the model proxy started for it, the agent
//! run with a clean environment and a time limit, and what it did read back from the proxy.

use super::proxy::{self, Normaliser, Proxy, Source};
pub use super::skill_of;
use super::{Harness, Purpose};
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Why a session could not run.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The agent's program is not on `PATH`.
    #[error("{program} is not on PATH: install {package} (npm install -g {package})")]
    NotFound {
        /// The program.
        program: &'static str,
        /// Its npm package.
        package: &'static str,
    },
    /// A file or folder could not be prepared.
    #[error("{path}: {message}")]
    Io {
        /// The path.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// A skill could not be installed.
    #[error("installing {path}: {message}")]
    Install {
        /// The skill folder.
        path: PathBuf,
        /// What failed.
        message: String,
    },
    /// The proxy could not start.
    #[error(transparent)]
    Proxy(#[from] proxy::ProxyError),
}

/// One session to run.
pub struct Request<'a> {
    /// The agent.
    pub harness: Harness,
    /// Its program.
    pub program: &'a Path,
    /// Its version, replaced in requests by a placeholder.
    pub version: Option<&'a str>,
    /// Skill folders installed into the project, each under its folder name.
    pub skills: &'a [PathBuf],
    /// What the user asks.
    pub prompt: &'a str,
    /// The model the agent asks for.
    pub model: &'a str,
    /// Where the answers come from.
    pub source: Source,
    /// Choose only, or work.
    pub purpose: Purpose,
    /// The longest the agent may run.
    pub timeout: Duration,
    /// Keep the home and project on disk.
    pub keep: bool,
    /// Confine the agent (a replay: the tool calls it makes come from a file anyone could have
    /// written): it reads the system's folders, its own installation and the session's folder,
    /// and writes only the session's folder. An agent with a sandbox of its own that cannot
    /// nest in this one (Codex) is left to it.
    pub confinement: Option<crate::tools::Confinement>,
}

/// What happened.
#[derive(Debug)]
pub struct Outcome {
    /// What the proxy saw.
    pub proxy: proxy::Session,
    /// The agent's exit code (`None` when it was killed).
    pub exit: Option<i32>,
    /// Whether the time limit ended it.
    pub timed_out: bool,
    /// Its standard output and error.
    pub stdout: String,
    /// Its standard error.
    pub stderr: String,
    /// The installed skills' names.
    pub skills: Vec<String>,
    /// The project the agent worked in: there until the outcome is dropped (or for good,
    /// with `keep`).
    pub project: PathBuf,
    /// The kept folder (its `home/` and `project/`), with `keep`.
    pub kept: Option<PathBuf>,
    _temp: Option<tempfile::TempDir>,
}

/// The npm package of each agent's program.
fn package(harness: Harness) -> &'static str {
    match harness {
        Harness::ClaudeCode => "@anthropic-ai/claude-code",
        Harness::Codex => "@openai/codex",
        Harness::Gemini => "@google/gemini-cli",
        Harness::Opencode => "opencode-ai",
        Harness::Copilot => "@github/copilot",
    }
}

impl Outcome {
    /// The cassette of what was recorded, stamped with the agent and its version.
    pub fn recording(&self, harness: Harness, version: Option<&str>) -> proxy::Cassette {
        proxy::Cassette {
            format: proxy::cassette::FORMAT,
            harness: harness.name().to_owned(),
            agent_version: version.map(str::to_owned),
            ..self.proxy.recorded.clone()
        }
    }
}

/// The agent's program on `PATH`.
pub fn locate(harness: Harness) -> Result<PathBuf, SessionError> {
    which::which(harness.program()).map_err(|_| SessionError::NotFound {
        program: harness.program(),
        package: package(harness),
    })
}

/// The agent's version as `PROGRAM --version` prints it (the first dotted number), run as a
/// session runs it: no variable of the user's but `PATH`, a home of its own, a time limit.
pub fn version(program: &Path) -> Option<String> {
    let home = tempfile::tempdir().ok()?;
    let mut command = Command::new(program);
    command
        .arg("--version")
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("LANG", "C.UTF-8")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    let ran = wait(command, VERSION_TIMEOUT).ok()?;
    ran.stdout
        .split(|c: char| c.is_whitespace() || c == ',')
        .find(|w| {
            w.split('.').filter(|p| !p.is_empty()).count() >= 3
                && w.starts_with(|c: char| c.is_ascii_digit())
        })
        .map(|w| w.trim_end_matches('.').to_owned())
}

/// How long `PROGRAM --version` may take.
const VERSION_TIMEOUT: Duration = Duration::from_secs(30);

/// A session ready to run: its home and project made, the skills installed.
pub struct Prepared<'a> {
    request: Request<'a>,
    temp: tempfile::TempDir,
    root: PathBuf,
    skills: Vec<String>,
}

fn io_error(path: &Path, e: std::io::Error) -> SessionError {
    SessionError::Io {
        path: path.to_owned(),
        message: e.to_string(),
    }
}

/// Makes the session's home and project (a git repository) and installs the skills.
pub fn prepare(request: Request) -> Result<Prepared, SessionError> {
    let temp = tempfile::Builder::new()
        .prefix("skill-harness-")
        .tempdir()
        .map_err(|e| io_error(&std::env::temp_dir(), e))?;
    let root = std::fs::canonicalize(temp.path()).map_err(|e| io_error(temp.path(), e))?;
    for dir in [
        root.join("home"),
        root.join("project/.git"),
        root.join("tmp"),
    ] {
        std::fs::create_dir_all(&dir).map_err(|e| io_error(&dir, e))?;
    }
    let skills_dir = root.join("project").join(request.harness.skills_dir());
    let skills = install(&skills_dir, request.skills)?;
    Ok(Prepared {
        request,
        temp,
        root,
        skills,
    })
}

/// Runs one session.
pub fn run(request: Request) -> Result<Outcome, SessionError> {
    prepare(request)?.run()
}

impl Prepared<'_> {
    /// The project the agent works in: inputs may be put there before [`Prepared::run`].
    pub fn project(&self) -> PathBuf {
        self.root.join("project")
    }

    /// Starts the proxy, runs the agent to its end or the time limit, and stops the proxy.
    pub fn run(self) -> Result<Outcome, SessionError> {
        let request = &self.request;
        let home = self.root.join("home");
        let token = format!(
            "skill-proxy-{:016x}{:016x}",
            fastrand::u64(..),
            fastrand::u64(..)
        );
        let proxy = Proxy::start(proxy::Options {
            token: token.clone(),
            source: request.source.clone(),
            stop_at_choice: (request.purpose == Purpose::Choose).then(|| self.skills.clone()),
            normaliser: self.normaliser().literal(&token, "<token>"),
        })?;
        let env = request
            .harness
            .configure(&home, (&proxy.url, &token), request.model)
            .map_err(|e| io_error(&home, e))?;
        let command = self.command(env)?;
        let ran = wait(command, request.timeout).map_err(|e| io_error(request.program, e))?;
        let (temp, kept) = if request.keep {
            let _ = self.temp.keep();
            (None, Some(self.root.clone()))
        } else {
            (Some(self.temp), None)
        };
        Ok(Outcome {
            proxy: proxy.finish(),
            exit: ran.exit,
            timed_out: ran.timed_out,
            stdout: ran.stdout,
            stderr: ran.stderr,
            skills: self.skills,
            project: self.root.join("project"),
            kept,
            _temp: temp,
        })
    }

    /// The agent's command: its arguments, a clean environment with `env`, its own process
    /// group (or, confined, its own session: setsid fails in a process that leads a group).
    fn command(&self, env: Vec<(&'static str, String)>) -> Result<Command, SessionError> {
        let request = &self.request;
        let args = request
            .harness
            .args(request.prompt, request.model, request.purpose);
        let mut command = Command::new(request.program);
        command
            .args(&args)
            .current_dir(self.project())
            .env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.root.join("home"))
            .env("TERM", "dumb")
            .env("LANG", "C.UTF-8")
            // Its temporary files stay in the session, confined or not, so that a recording
            // and its replay tell the agent the same folders.
            .env("TMPDIR", self.root.join("tmp"))
            .envs(env)
            .envs(budget(request.harness))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match request.confinement {
            Some(confinement) if !request.harness.sandboxes_itself() => {
                self.confine(&mut command, confinement)?;
            }
            _ => {
                command.process_group(0);
            }
        }
        Ok(command)
    }

    /// Confines the agent's process under the test policy, its network open (it must reach
    /// the proxy).
    fn confine(
        &self,
        command: &mut Command,
        confinement: crate::tools::Confinement,
    ) -> Result<(), SessionError> {
        let installed = agent_folders(self.request.program);
        let readable: Vec<&Path> = installed.iter().map(PathBuf::as_path).collect();
        let confinement = crate::tools::Confinement {
            policy: crate::tools::Policy::Test { network: true },
            pid_namespace: false,
            ..confinement
        };
        crate::tools::sandbox::confine(command, confinement, &[&self.root], &readable).map_err(
            |e| SessionError::Io {
                path: self.request.program.to_owned(),
                message: format!("the agent could not be confined: {e}"),
            },
        )
    }

    /// What varies with this session: its folder (also as Claude Code mangles it into a
    /// name, `-tmp-skill-harness-x-project`) and the agent's version.
    fn normaliser(&self) -> Normaliser {
        let name = self
            .root
            .file_name()
            .map(|n| n.to_string_lossy().into_owned());
        let root = self.root.display().to_string();
        let normaliser = Normaliser::default()
            .literal(&root, "$RUN")
            .literal(&root.replace('/', "-"), "%RUN%")
            .literal(name.as_deref().unwrap_or_default(), "skill-harness-RUN");
        match self.request.version {
            Some(version) => normaliser.literal(version, "<version>"),
            None => normaliser,
        }
    }
}

/// The folders an agent CLI installed from npm reads: the `node_modules` its program resolves
/// into (its code, its dependencies, a native binary) and the installation of `node`.
fn agent_folders(program: &Path) -> Vec<PathBuf> {
    let mut folders = Vec::new();
    if let Ok(resolved) = std::fs::canonicalize(program)
        && let Some(modules) = resolved
            .ancestors()
            .find(|a| a.file_name().is_some_and(|n| n == "node_modules"))
    {
        folders.push(modules.to_path_buf());
    }
    if let Some(node) = which::which("node")
        .ok()
        .and_then(|n| std::fs::canonicalize(n).ok())
        && let Some(prefix) = node.parent().and_then(Path::parent)
        && prefix.components().count() > 2
    {
        folders.push(prefix.to_path_buf());
    }
    folders
}

/// The agent's budget variable, when the user set it: `skill doctor` reads it too.
fn budget(harness: Harness) -> Option<(&'static str, std::ffi::OsString)> {
    let name = harness.budget_variable()?;
    Some((name, std::env::var_os(name)?))
}

/// Installs each skill folder into `dir` under its folder name; returns the names.
pub fn install(dir: &Path, skills: &[PathBuf]) -> Result<Vec<String>, SessionError> {
    std::fs::create_dir_all(dir).map_err(|e| SessionError::Io {
        path: dir.to_owned(),
        message: e.to_string(),
    })?;
    skills
        .iter()
        .map(|skill| {
            skill_archive::install::install(
                &skill_archive::install::Input::Folder(skill.clone()),
                dir,
                true,
            )
            .map(|installed| installed.name)
            .map_err(|e| SessionError::Install {
                path: skill.clone(),
                message: e.to_string(),
            })
        })
        .collect()
}

struct Ran {
    exit: Option<i32>,
    timed_out: bool,
    stdout: String,
    stderr: String,
}

/// How long the agent's output is read after it ended.
const DRAIN_TIMEOUT: Duration = Duration::from_secs(2);

/// Reads `pipe` to its end in a thread of its own, keeping the first [`OUTPUT_LIMIT`] bytes.
fn drain(pipe: Option<Box<dyn Read + Send>>) -> std::sync::mpsc::Receiver<String> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut text = Vec::new();
        if let Some(pipe) = pipe {
            let mut limited = pipe.take(OUTPUT_LIMIT);
            let _ = limited.read_to_end(&mut text);
            let _ = std::io::copy(&mut limited.into_inner(), &mut std::io::sink());
        }
        let _ = send.send(String::from_utf8_lossy(&text).into_owned());
    });
    receive
}

/// Most bytes of the agent's output kept.
const OUTPUT_LIMIT: u64 = 1 << 20;

fn wait(mut command: Command, timeout: Duration) -> std::io::Result<Ran> {
    let mut child = command.spawn()?;
    let stdout = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let stderr = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let start = Instant::now();
    let (status, timed_out) = loop {
        if let Some(status) = child.try_wait()? {
            break (Some(status), false);
        }
        if start.elapsed() > timeout {
            break (None, true);
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    // Whatever the agent left running (its shell, a language server) goes with it.
    // SAFETY: signalling the process group made for this child; an empty group is ESRCH.
    unsafe {
        libc::kill(-(child.id() as i32), libc::SIGKILL);
    }
    let status = match status {
        Some(status) => Some(status),
        None => child.wait().ok(),
    };
    // What the agent started and then left (a detached process) came to this process when it
    // adopts orphans: it goes too.
    crate::tools::kill_adopted();
    // A process that escaped both may still hold the pipes: wait a little, not forever.
    let collect = |output: std::sync::mpsc::Receiver<String>| {
        output.recv_timeout(DRAIN_TIMEOUT).unwrap_or_default()
    };
    Ok(Ran {
        exit: status.and_then(|s| s.code()).filter(|_| !timed_out),
        timed_out,
        stdout: collect(stdout),
        stderr: collect(stderr),
    })
}

/// The installed skills the session loaded or read, each once, in the order it first did.
pub fn skills_used(outcome: &Outcome) -> Vec<String> {
    let mut used: Vec<String> = Vec::new();
    for call in calls(&outcome.proxy) {
        if let Some(name) = skill_of(&call, &outcome.skills)
            && !used.contains(&name)
        {
            used.push(name);
        }
    }
    used
}

/// Every tool call of the session, in the order the model made them: the conversation of the
/// request that holds the most.
pub fn calls(session: &proxy::Session) -> Vec<proxy::api::ToolCall> {
    session
        .requests
        .iter()
        .map(|(api, body)| proxy::api::tool_calls(*api, body))
        .max_by_key(Vec::len)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proxy::api::ToolCall;
    use serde_json::{Value, json};

    #[test]
    fn a_skill_is_known_by_its_tool_or_a_read_of_its_file() {
        let names = vec!["pdf".to_owned(), "docx".to_owned()];
        let call = |name: &str, arguments: Value| ToolCall {
            name: name.to_owned(),
            arguments,
        };
        let of = |c: ToolCall| skill_of(&c, &names);
        assert_eq!(
            of(call("Skill", json!({"skill": "pdf"}))),
            Some("pdf".into())
        );
        assert_eq!(
            of(call("activate_skill", json!({"name": "docx"}))),
            Some("docx".into())
        );
        assert_eq!(
            of(call(
                "shell",
                json!({"command": ["bash", "-lc", "cat .agents/skills/pdf/SKILL.md"]})
            )),
            Some("pdf".into())
        );
        assert_eq!(
            of(call(
                "Read",
                json!({"file_path": "/p/.claude/skills/docx/SKILL.md"})
            )),
            Some("docx".into())
        );
        assert_eq!(
            of(call("shell", json!({"command": "cat notpdf/SKILL.md"}))),
            None
        );
        assert_eq!(of(call("Skill", json!({"skill": "other"}))), None);
    }
}
