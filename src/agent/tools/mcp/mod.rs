//! MCP tools in the loop: the servers the installed skills declare ([`declared`]), started over
//! stdio (confined like `exec`) or reached over streamable HTTP with the official SDK (`rmcp`),
//! their tools offered to the model as `mcp__<server>__<tool>` with their own schemas. A replay
//! starts no server: the tool list and every result come from the cassette, where they were
//! recorded as every tool call and result is.

pub mod declared;

use super::ToolOutput;
use crate::agent::message::{Message, ToolCall, ToolSpec};
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
pub const PREFIX: &str = "mcp__";

/// The longest tool name the model APIs take.
const NAME_MAX: usize = 64;

/// How long a server may take to start and list its tools.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// The MCP tools of one run.
pub enum McpTools {
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
    pub fn recorded<'a>(
        requests: impl Iterator<Item = &'a crate::agent::message::Request>,
    ) -> McpTools {
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

struct Live {
    name: String,
    client: RunningService<RoleClient, ()>,
    group: Option<u32>,
}

/// How a stdio server's process is made: the run's confinement applied to it, with the folders
/// its program was installed in to read.
pub type Confine<'a> = dyn Fn(&mut std::process::Command, &[&Path]) -> Result<(), String> + 'a;

impl Hub {
    /// Starts (or connects to) every server and lists its tools; `timeout` bounds each call.
    pub fn start(servers: &[Server], confine: &Confine, timeout: Duration) -> Result<Hub, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| format!("starting the MCP client: {e}"))?;
        let mut hub = Hub {
            runtime,
            servers: Vec::new(),
            specs: Vec::new(),
            routes: HashMap::new(),
            timeout,
        };
        for server in servers {
            let live = hub.connect(server, confine)?;
            let listed = hub.within(START_TIMEOUT, live.client.list_all_tools());
            let tools = match listed {
                Ok(Ok(tools)) => tools,
                Ok(Err(e)) => {
                    return Err(format!(
                        "MCP server '{}': listing its tools: {e}",
                        server.name
                    ));
                }
                Err(_) => {
                    return Err(format!(
                        "MCP server '{}' did not list its tools within {} s",
                        server.name,
                        START_TIMEOUT.as_secs()
                    ));
                }
            };
            let index = hub.servers.len();
            for tool in tools {
                let name = tool_name(&server.name, &tool.name);
                hub.routes
                    .insert(name.clone(), (index, tool.name.to_string()));
                hub.specs.push(ToolSpec {
                    name,
                    description: tool.description.as_deref().unwrap_or_default().to_owned(),
                    parameters: Value::Object((*tool.input_schema).clone()),
                });
            }
            hub.servers.push(live);
        }
        Ok(hub)
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

    fn connect(&self, server: &Server, confine: &Confine) -> Result<Live, String> {
        let fail = |e: String| format!("MCP server '{}' did not start: {e}", server.name);
        // The transports spawn their tasks and processes on the runtime they are made in.
        let _context = self.runtime.enter();
        let (client, group) = match &server.transport {
            Transport::Stdio { command, args } => {
                let mut std_command = std::process::Command::new(command);
                std_command.args(args).current_dir(&server.skill_dir);
                let installed = installation(command);
                let readable: Vec<&Path> = installed.iter().map(PathBuf::as_path).collect();
                confine(&mut std_command, &readable).map_err(fail)?;
                let (process, _) =
                    TokioChildProcess::builder(tokio::process::Command::from(std_command))
                        .stderr(std::process::Stdio::null())
                        .spawn()
                        .map_err(|e| fail(e.to_string()))?;
                let group = process.id();
                let started = self.within(START_TIMEOUT, ().serve(process));
                (flatten(started).map_err(fail)?, group)
            }
            Transport::Http { url } => {
                let transport = StreamableHttpClientTransport::from_uri(url.as_str());
                let started = self.within(START_TIMEOUT, ().serve(transport));
                (flatten(started).map_err(fail)?, None)
            }
        };
        Ok(Live {
            name: server.name.clone(),
            client,
            group,
        })
    }

    fn call(&self, name: &str, arguments: Value) -> ToolOutput {
        let Some((index, tool)) = self.routes.get(name) else {
            return ToolOutput::error(format!("Error: Tool '{name}' not found"));
        };
        let server = &self.servers[*index];
        let mut params = CallToolRequestParams::new(tool.clone());
        if let Value::Object(map) = arguments {
            params = params.with_arguments(map);
        }
        let answered = self.within(self.timeout, server.client.call_tool(params));
        match answered {
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

impl Drop for Hub {
    fn drop(&mut self) {
        for server in &self.servers {
            if let Some(group) = server.group {
                // SAFETY: the server was made the leader of a session of its own by the
                // confinement, so this ends it and whatever it started.
                unsafe {
                    libc::kill(-(group as i32), libc::SIGKILL);
                }
            }
        }
    }
}

/// The folders a program was installed in: above its `bin/` (a virtualenv, an npm or cargo
/// prefix), else its own folder, for the program as named (a virtualenv's `python` is a link)
/// and for the file it resolves to (the interpreter the virtualenv was made from); none for a
/// program not found.
fn installation(command: &str) -> Vec<PathBuf> {
    let named = if command.contains('/') {
        std::path::absolute(command).ok()
    } else {
        which::which(command).ok()
    };
    let Some(named) = named else {
        return Vec::new();
    };
    let prefix = |program: &Path| {
        let folder = program.parent()?;
        match folder.file_name() {
            Some(name) if name == "bin" => folder.parent().map(Path::to_path_buf),
            _ => Some(folder.to_path_buf()),
        }
    };
    let mut folders: Vec<PathBuf> = prefix(&named).into_iter().collect();
    if let Some(resolved) = std::fs::canonicalize(&named)
        .ok()
        .as_deref()
        .and_then(prefix)
        && !folders.contains(&resolved)
    {
        folders.push(resolved);
    }
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
