//! The tools the model may call, confined to one workspace: their JSON-schema definitions, and
//! running one turn's calls (consecutive read-only calls together, the others one by one, results
//! in call order).

mod beneath;
mod environment;
mod exec;
mod files;
pub mod mcp;
mod namespace;
mod paths;
mod reaper;
pub mod sandbox;
mod sockets;

pub use environment::Passed;
pub use paths::resolve;
pub use reaper::{adopt_orphans, kill_adopted};
pub(crate) use reaper::{spare, unspare};
pub use sandbox::{Confinement, Decision, Origin, Policy, decide, seal_process};

use super::message::{ToolCall, ToolSpec};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Seconds before an `exec` call that names no timeout is killed (nanobot's default).
pub const DEFAULT_EXEC_TIMEOUT: Duration = Duration::from_secs(60);

/// Characters of any tool result passed back to the model.
pub(crate) const RESULT_CAP: usize = 16_000;

/// What `exec` answers for a command that printed nothing.
pub(crate) const NO_OUTPUT: &str = "(no output)";

/// What one call gave back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutput {
    /// The text for the model.
    pub content: String,
    /// Whether the tool failed: the text then says why (Anthropic's `is_error`).
    pub is_error: bool,
}

impl ToolOutput {
    /// A failure saying `why`.
    pub fn error(why: String) -> ToolOutput {
        ToolOutput {
            content: why,
            is_error: true,
        }
    }
}

/// The tools of one workspace.
#[derive(Clone)]
pub struct ToolBox {
    workspace: PathBuf,
    exec_timeout: Duration,
    exec: Arc<exec::Setup>,
    mcp: Option<Arc<mcp::McpTools>>,
}

impl std::fmt::Debug for ToolBox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolBox")
            .field("workspace", &self.workspace)
            .field("exec_timeout", &self.exec_timeout)
            .field("mcp", &self.mcp.is_some())
            .finish()
    }
}

impl ToolBox {
    /// Tools for `workspace` (canonical), with `exec_timeout` for commands that name none,
    /// commands confined by the test policy (see [`Confinement::default`]).
    pub fn new(workspace: PathBuf, exec_timeout: Duration) -> ToolBox {
        ToolBox {
            workspace,
            exec_timeout,
            exec: Arc::default(),
            mcp: None,
        }
    }

    /// The same tools and these MCP tools.
    pub(crate) fn with_mcp(self, tools: mcp::McpTools) -> ToolBox {
        ToolBox {
            mcp: Some(Arc::new(tools)),
            ..self
        }
    }

    /// The definitions sent to the model: the builtin tools, then the MCP tools.
    pub fn specs(&self) -> Vec<ToolSpec> {
        let mut all = specs();
        if let Some(mcp) = &self.mcp {
            all.extend(mcp.specs());
        }
        all
    }

    /// A stdio MCP server's command, confined as `exec` confines commands (the environment
    /// allow-list, the sandbox, a session of its own); under the test policy it may also read
    /// `installation`, the folders its program was installed in.
    pub(crate) fn confine_server(
        &self,
        command: &mut std::process::Command,
        installation: &[&Path],
    ) -> Result<(), String> {
        exec::confine_like_exec(&self.workspace, &self.exec, command, installation)
    }

    /// The same tools with commands confined by `confinement` and given `passed` on top of the
    /// allow-list.
    pub fn confined(self, confinement: Confinement, passed: Passed) -> ToolBox {
        ToolBox {
            exec: Arc::new(exec::Setup::new(confinement, passed)),
            ..self
        }
    }

    /// The private TMPDIR of the commands (made on first use, removed with the last clone of
    /// these tools), or why it could not be made.
    pub fn tmpdir(&self) -> Result<PathBuf, String> {
        self.exec.tmpdir()
    }

    /// Seconds before a command (or an MCP call) is given up.
    pub fn exec_timeout(&self) -> Duration {
        self.exec_timeout
    }

    /// The workspace.
    pub fn workspace(&self) -> &Path {
        &self.workspace
    }

    /// Runs one turn's calls and returns their results in call order.
    pub fn run_all(&self, calls: &[ToolCall]) -> Vec<ToolOutput> {
        let mut results = Vec::with_capacity(calls.len());
        let mut start = 0;
        while start < calls.len() {
            let end = if is_read_only(&calls[start].name) {
                start
                    + calls[start..]
                        .iter()
                        .take_while(|c| is_read_only(&c.name))
                        .count()
            } else {
                start + 1
            };
            let batch = &calls[start..end];
            if batch.len() == 1 {
                results.push(self.run(&batch[0]));
            } else {
                std::thread::scope(|scope| {
                    let handles: Vec<_> = batch
                        .iter()
                        .map(|call| scope.spawn(move || self.run(call)))
                        .collect();
                    for handle in handles {
                        results.push(handle.join().unwrap_or_else(|_| {
                            ToolOutput::error("Error: the tool stopped unexpectedly".to_owned())
                        }));
                    }
                });
            }
            start = end;
        }
        results
    }

    /// Runs one call; every failure is a result the model can read.
    pub fn run(&self, call: &ToolCall) -> ToolOutput {
        let name = call.name.as_str();
        let arguments = match arguments(call) {
            Ok(v) => v,
            Err(why) => return ToolOutput::error(why),
        };
        let ws = &self.workspace;
        let result = match name {
            "read_file" => parse(name, arguments).map(|a| files::read_file(ws, a)),
            "write_file" => parse(name, arguments).map(|a| files::write_file(ws, a)),
            "edit_file" => parse(name, arguments).map(|a| files::edit_file(ws, a)),
            "list_dir" => parse(name, arguments).map(|a| files::list_dir(ws, a)),
            "exec" => {
                parse(name, arguments).map(|a| exec::exec(ws, &self.exec, a, self.exec_timeout))
            }
            _ if name.starts_with(mcp::PREFIX) && self.mcp.is_some() => {
                return self
                    .mcp
                    .as_ref()
                    .map(|m| m.call(call, arguments))
                    .unwrap_or_else(|| {
                        ToolOutput::error(format!("Error: Tool '{name}' not found"))
                    });
            }
            _ => Err(format!("Error: Tool '{name}' not found")),
        };
        let (content, is_error) = match result.and_then(|r| r) {
            Ok(text) => (text, false),
            Err(why) => (why, true),
        };
        ToolOutput {
            content: exec::cap_at(content, RESULT_CAP, 0),
            is_error,
        }
    }
}

/// The arguments of `call` as a JSON object (none at all counts as `{}`), or the error the
/// model is answered with.
pub fn arguments(call: &ToolCall) -> Result<serde_json::Value, String> {
    let name = call.name.as_str();
    let raw = if call.arguments.trim().is_empty() {
        "{}"
    } else {
        call.arguments.as_str()
    };
    match serde_json::from_str(raw) {
        Ok(v @ serde_json::Value::Object(_)) => Ok(v),
        Ok(_) => Err(format!(
            "Error: Invalid arguments for tool '{name}': not a JSON object"
        )),
        Err(e) => Err(format!(
            "Error: Invalid arguments for tool '{name}': not valid JSON ({e})"
        )),
    }
}

fn parse<T: serde::de::DeserializeOwned>(
    name: &str,
    arguments: serde_json::Value,
) -> Result<T, String> {
    serde_json::from_value(arguments)
        .map_err(|e| format!("Error: Invalid parameters for tool '{name}': {e}"))
}

/// Tools that change nothing, so several can run at once.
fn is_read_only(name: &str) -> bool {
    matches!(name, "read_file" | "list_dir")
}

/// The definitions sent to the model, in registration order.
pub fn specs() -> Vec<ToolSpec> {
    let spec = |name: &str, description: &str, parameters: serde_json::Value| ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        parameters,
    };
    vec![
        spec(
            "read_file",
            "Read a text file in the workspace. Returns its text; for long files, pass offset (first line, from 1) and limit (number of lines).",
            json!({"type": "object", "properties": {
                "path": {"type": "string", "description": "The file, relative to the workspace or absolute inside it"},
                "offset": {"type": "integer", "minimum": 1, "description": "First line to read, from 1"},
                "limit": {"type": "integer", "minimum": 1, "description": "Most lines to read (default 2000)"}},
                "required": ["path"]}),
        ),
        spec(
            "write_file",
            "Write a text file in the workspace, creating folders as needed and replacing the file if it exists.",
            json!({"type": "object", "properties": {
                "path": {"type": "string", "description": "The file to write"},
                "content": {"type": "string", "description": "The whole new content"}},
                "required": ["path", "content"]}),
        ),
        spec(
            "edit_file",
            "Replace old_text with new_text in a file. old_text must appear exactly once.",
            json!({"type": "object", "properties": {
                "path": {"type": "string", "description": "The file to edit"},
                "old_text": {"type": "string", "description": "The exact text to replace"},
                "new_text": {"type": "string", "description": "The text to put in its place"}},
                "required": ["path", "old_text", "new_text"]}),
        ),
        spec(
            "list_dir",
            "List a folder of the workspace.",
            json!({"type": "object", "properties": {
                "path": {"type": "string", "description": "The folder"}},
                "required": ["path"]}),
        ),
        spec(
            "exec",
            "Run a shell command in the workspace and return its output and exit code. Pass command (run by sh -c) or argv (run without a shell).",
            json!({"type": "object", "properties": {
                "command": {"type": "string", "description": "The shell command"},
                "argv": {"type": "array", "items": {"type": "string"}, "description": "Program and arguments, run without a shell"},
                "working_dir": {"type": "string", "description": "Folder to run in (default: the workspace)"},
                "timeout": {"type": "integer", "minimum": 1, "maximum": 600, "description": "Seconds before the command is killed (the run sets the default)"}}}),
        ),
    ]
}
