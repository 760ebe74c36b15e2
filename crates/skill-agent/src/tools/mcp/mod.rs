//! MCP tools in the loop: the servers the installed skills declare ([`declared`]), started over
//! stdio (confined like `exec`) or reached over streamable HTTP with the official SDK (`rmcp`),
//! their tools offered to the model as `mcp__<server>__<tool>` with their own schemas. A replay
//! starts no server: the tool list and every result come from the cassette, where they were
//! recorded as every tool call and result is.

pub mod declared;

use super::ToolOutput;
use crate::message::{Message, ToolCall, ToolSpec};
use declared::{Server, Transport};
use rmcp::model::CallToolRequestParams;
use rmcp::service::RunningService;
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{RoleClient, ServiceExt};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What begins the name of every MCP tool.
pub(crate) const PREFIX: &str = "mcp__";

/// The longest tool name the model APIs take.
const NAME_MAX: usize = 64;

/// How long a server may take to start and list its tools.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// The MCP tools of one run.
pub(crate) enum McpTools {
    /// Servers running for this run.
    Live(Hub),
    /// A replay: the tools and results a cassette recorded.
    Recorded {
        /// The tools as offered when recorded.
        specs: Vec<ToolSpec>,
        /// Each recorded result, by call id.
        results: HashMap<String, ToolOutput>,
    },
}

impl McpTools {
    /// The tools recorded in a cassette's requests (`requests` in order).
    pub fn recorded<'a>(requests: impl Iterator<Item = &'a crate::message::Request>) -> McpTools {
        let mut specs = Vec::new();
        let mut results = HashMap::new();
        for request in requests {
            if specs.is_empty() {
                specs = request
                    .tools
                    .iter()
                    .filter(|t| t.name.starts_with(PREFIX))
                    .cloned()
                    .collect();
            }
            for message in &request.messages {
                if let Message::Tool {
                    call_id,
                    name,
                    content,
                    is_error,
                } = message
                    && name.starts_with(PREFIX)
                {
                    results.insert(
                        call_id.clone(),
                        ToolOutput {
                            content: content.clone(),
                            is_error: *is_error,
                        },
                    );
                }
            }
        }
        McpTools::Recorded { specs, results }
    }

    /// The tools offered to the model.
    pub fn specs(&self) -> Vec<ToolSpec> {
        match self {
            McpTools::Live(hub) => hub.specs.clone(),
            McpTools::Recorded { specs, .. } => specs.clone(),
        }
    }

    /// Runs one call of an MCP tool; every failure is a result the model reads.
    pub fn call(&self, call: &ToolCall, arguments: Value) -> ToolOutput {
        match self {
            McpTools::Live(hub) => hub.call(&call.name, arguments),
            McpTools::Recorded { results, .. } => results.get(&call.id).cloned().unwrap_or_else(|| {
                ToolOutput::error(format!(
                    "Error: the cassette holds no result of MCP tool '{}' for this call; record again",
                    call.name
                ))
            }),
        }
    }
}

/// Running servers and their tools.
pub struct Hub {
    runtime: tokio::runtime::Runtime,
    servers: Vec<Live>,
    specs: Vec<ToolSpec>,
    /// Tool name → (server index, the tool's own name).
    routes: HashMap<String, (usize, String)>,
    timeout: Duration,
}

/// A connected server. A stdio server's process group is killed when it is dropped, whether
/// it started or not.
struct Live {
    name: String,
    skill_dir: PathBuf,
    client: Option<RunningService<RoleClient, ()>>,
    group: Option<u32>,
}

impl Drop for Live {
    fn drop(&mut self) {
        if let Some(group) = self.group {
            // SAFETY: the server leads a session of its own (the confinement's setsid), and
            // it stays this process's unreaped child until killed, so the id is its own.
            unsafe {
                libc::kill(-(group as i32), libc::SIGKILL);
            }
            super::unspare(group as i32);
        }
    }
}

/// How a stdio server's process is made: the run's confinement applied to it, with the folders
/// its program was installed in to read.
pub type Confine<'a> = dyn Fn(&mut std::process::Command, &[&Path]) -> Result<(), String> + 'a;

/// What a run allows its servers.
pub struct Limits<'a> {
    /// Confines a stdio server's process.
    pub confine: &'a Confine<'a>,
    /// How long one call may take.
    pub timeout: Duration,
    /// Reach only servers on 127.0.0.0/8 or ::1 (the test policy without `network`).
    pub loopback_only: bool,
}

impl Hub {
    /// Starts (or connects to) every server and lists its tools. An error names the server and
    /// the skill folder that declares it.
    pub fn start(servers: &[Server], limits: &Limits) -> Result<Hub, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("starting the MCP client: {e}"))?;
        let mut hub = Hub {
            runtime,
            servers: Vec::new(),
            specs: Vec::new(),
            routes: HashMap::new(),
            timeout: limits.timeout,
        };
        for server in servers {
            let named = |e: String| {
                format!(
                    "{}: MCP server '{}' {e}",
                    server.skill_dir.display(),
                    server.name
                )
            };
            let live = hub.connect(server, limits).map_err(named)?;
            let tools = hub.list(&live).map_err(named)?;
            hub.add(server, live, tools)?;
        }
        Ok(hub)
    }

    fn list(&self, live: &Live) -> Result<Vec<rmcp::model::Tool>, String> {
        let client = live.client.as_ref().ok_or("is not connected")?;
        match self.within(START_TIMEOUT, client.list_all_tools()) {
            Ok(Ok(tools)) => Ok(tools),
            Ok(Err(e)) => Err(format!("did not list its tools: {e}")),
            Err(_) => Err(format!(
                "did not list its tools within {} s",
                START_TIMEOUT.as_secs()
            )),
        }
    }

    /// Offers `tools` of `server`; two tools of one name (two servers of one name, or names
    /// that differ only in what is replaced or cut) are refused.
    fn add(
        &mut self,
        server: &Server,
        live: Live,
        tools: Vec<rmcp::model::Tool>,
    ) -> Result<(), String> {
        let index = self.servers.len();
        for tool in tools {
            let name = tool_name(&server.name, &tool.name);
            if let Some((other, _)) = self.routes.get(&name) {
                let other = self.servers.get(*other).unwrap_or(&live);
                return Err(format!(
                    "{}: MCP tool name {name} of server '{}' is taken by server '{}' of {}",
                    server.skill_dir.display(),
                    server.name,
                    other.name,
                    other.skill_dir.display()
                ));
            }
            self.routes
                .insert(name.clone(), (index, tool.name.to_string()));
            self.specs.push(ToolSpec {
                name,
                description: tool.description.as_deref().unwrap_or_default().to_owned(),
                parameters: Value::Object((*tool.input_schema).clone()),
            });
        }
        self.servers.push(live);
        Ok(())
    }

    /// Runs `future` on the hub's runtime for at most `limit`.
    fn within<F: std::future::Future>(
        &self,
        limit: Duration,
        future: F,
    ) -> Result<F::Output, tokio::time::error::Elapsed> {
        self.runtime
            .block_on(async { tokio::time::timeout(limit, future).await })
    }

    fn connect(&self, server: &Server, limits: &Limits) -> Result<Live, String> {
        let mut live = Live {
            name: server.name.clone(),
            skill_dir: server.skill_dir.clone(),
            client: None,
            group: None,
        };
        // The transports spawn their tasks and processes on the runtime they are made in.
        let _context = self.runtime.enter();
        match &server.transport {
            Transport::Stdio { command, args } => {
                let log = tempfile::NamedTempFile::new()
                    .map_err(|e| format!("cannot make the server's log file: {e}"))?;
                let process = spawn(server, command, args, limits.confine, &log)?;
                live.group = process.id();
                if let Some(pid) = live.group {
                    super::spare(pid as i32);
                }
                let started = self.within(START_TIMEOUT, ().serve(process));
                live.client = Some(
                    flatten(started)
                        .map_err(|e| format!("did not start: {e}{}", tail(log.path())))?,
                );
            }
            Transport::Http { url } => {
                if limits.loopback_only && !on_loopback(url) {
                    return Err(format!(
                        "at {url} is not on 127.0.0.1 or ::1, the only hosts the test policy reaches (a scenario's `network: true` allows others)"
                    ));
                }
                skill_http::install_tls_provider();
                let transport = StreamableHttpClientTransport::from_uri(url.as_str());
                let started = self.within(START_TIMEOUT, ().serve(transport));
                live.client = Some(flatten(started).map_err(|e| format!("did not answer: {e}"))?);
            }
        }
        Ok(live)
    }

    fn call(&self, name: &str, arguments: Value) -> ToolOutput {
        let Some((index, tool)) = self.routes.get(name) else {
            return ToolOutput::error(format!("Error: Tool '{name}' not found"));
        };
        let server = &self.servers[*index];
        let Some(client) = &server.client else {
            return ToolOutput::error(format!(
                "Error: MCP server '{}' is not connected",
                server.name
            ));
        };
        let mut params = CallToolRequestParams::new(tool.clone());
        if let Value::Object(map) = arguments {
            params = params.with_arguments(map);
        }
        match self.within(self.timeout, client.call_tool(params)) {
            Ok(Ok(result)) => {
                let content = serde_json::to_value(&result.content).unwrap_or_default();
                let mut text = text_of(&content);
                if text.is_empty()
                    && let Some(structured) = &result.structured_content
                {
                    text = structured.to_string();
                }
                ToolOutput {
                    content: super::exec::cap_at(text, super::RESULT_CAP, 0),
                    is_error: result.is_error.unwrap_or(false),
                }
            }
            Ok(Err(e)) => ToolOutput::error(format!(
                "Error: MCP server '{}' failed on '{tool}': {e}",
                server.name
            )),
            Err(_) => ToolOutput::error(format!(
                "Error: MCP server '{}' did not answer '{tool}' within {} s",
                server.name,
                self.timeout.as_secs()
            )),
        }
    }
}

/// Starts a stdio server confined, its standard error into `log`. A program named with a `/`
/// is found from the skill's folder, where the server runs.
fn spawn(
    server: &Server,
    command: &str,
    args: &[String],
    confine: &Confine,
    log: &tempfile::NamedTempFile,
) -> Result<TokioChildProcess, String> {
    let program = if command.contains('/') {
        server.skill_dir.join(command)
    } else {
        PathBuf::from(command)
    };
    let mut std_command = std::process::Command::new(&program);
    std_command.args(args).current_dir(&server.skill_dir);
    let installed = installation(&program);
    let readable: Vec<&Path> = installed.iter().map(PathBuf::as_path).collect();
    confine(&mut std_command, &readable).map_err(|e| format!("was not started: {e}"))?;
    let stderr = log
        .reopen()
        .map_err(|e| format!("cannot open the server's log file: {e}"))?;
    let (process, _) = TokioChildProcess::builder(tokio::process::Command::from(std_command))
        .stderr(std::process::Stdio::from(stderr))
        .spawn()
        .map_err(|e| format!("did not start: {} ({e})", program.display()))?;
    Ok(process)
}

/// The last lines a server wrote on its standard error, to follow an error.
fn tail(log: &Path) -> String {
    let text = std::fs::read(log).unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let lines: Vec<&str> = text.trim().lines().collect();
    match lines.len() {
        0 => String::new(),
        n => format!("\n{}", lines[n.saturating_sub(5)..].join("\n")),
    }
}

/// Whether `url`'s host is a loopback address or `localhost`.
fn on_loopback(url: &str) -> bool {
    let Some((_, rest)) = url.split_once("://") else {
        return false;
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host.split(':').next().unwrap_or_default(),
    };
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// The folders a program was installed in, for a server that runs under the test policy to
/// read: the prefix above its `bin/`, as named (a virtualenv's `python` is a link) and as
/// resolved (the interpreter the virtualenv was made from), each kept only when it looks like
/// an installation (`pyvenv.cfg`, `lib/` or `node_modules/` in it) and is not `/`, a folder
/// holding HOME, or a folder under HOME's top level (`~/.cargo`, `~/bin`).
fn installation(program: &Path) -> Vec<PathBuf> {
    let named = if program.components().count() > 1 {
        std::path::absolute(program).ok()
    } else {
        which::which(program).ok()
    };
    let Some(named) = named else {
        return Vec::new();
    };
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let prefix = |program: &Path| {
        let bin = program.parent()?;
        let prefix = bin.parent()?;
        (bin.file_name()? == "bin").then(|| prefix.to_path_buf())
    };
    let allowed = |prefix: &PathBuf| {
        let installed = ["pyvenv.cfg", "lib", "node_modules"]
            .iter()
            .any(|marker| prefix.join(marker).exists());
        let too_wide = prefix.components().count() < 3
            || home.as_ref().is_some_and(|home| {
                home.starts_with(prefix) || prefix.parent() == Some(home.as_path())
            });
        installed && !too_wide
    };
    let mut folders: Vec<PathBuf> = prefix(&named).into_iter().collect();
    folders.extend(
        std::fs::canonicalize(&named)
            .ok()
            .as_deref()
            .and_then(prefix),
    );
    folders.dedup();
    folders.retain(allowed);
    folders
}

fn flatten<T, E: std::fmt::Display>(
    started: Result<Result<T, E>, tokio::time::error::Elapsed>,
) -> Result<T, String> {
    match started {
        Ok(Ok(client)) => Ok(client),
        Ok(Err(e)) => Err(e.to_string()),
        Err(_) => Err(format!("no answer within {} s", START_TIMEOUT.as_secs())),
    }
}

/// The text of a result's content blocks; other blocks are named by their type.
fn text_of(content: &Value) -> String {
    content
        .as_array()
        .into_iter()
        .flatten()
        .map(|block| match block["text"].as_str() {
            Some(text) => text.to_owned(),
            None => format!("[{} content]", block["type"].as_str().unwrap_or("other")),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `mcp__<server>__<tool>`, with what the model APIs refuse in a name replaced by `_`, at most
/// 64 characters.
fn tool_name(server: &str, tool: &str) -> String {
    let clean = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let mut name = format!("{PREFIX}{}__{}", clean(server), clean(tool));
    name.truncate(NAME_MAX);
    name
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_are_prefixed_clean_and_short() {
        assert_eq!(tool_name("notes", "add_note"), "mcp__notes__add_note");
        assert_eq!(tool_name("my docs", "search.v2"), "mcp__my_docs__search_v2");
        assert_eq!(tool_name("s", &"x".repeat(100)).len(), 64);
    }
}
