//! The MCP servers a skill declares: Codex's `agents/openai.yaml` (`dependencies.tools` entries
//! of type `mcp`, over `streamable_http` at a `url` or `stdio` with a `command`), and a `[mcp]`
//! table in the skill's own `skill.toml` for tests and local use:
//!
//! ```toml
//! [mcp.notes]
//! command = "python3"
//! args = ["server.py"]      # run in the skill's folder
//!
//! [mcp.docs]
//! url = "http://127.0.0.1:8000/mcp"
//! ```

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A server, and how to reach it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Server {
    /// Its name, as declared (the prefix of its tools' names).
    pub name: String,
    /// The installed skill folder that declares it (a stdio server runs there).
    pub skill_dir: PathBuf,
    /// How it is reached.
    pub transport: Transport,
}

/// How a server is reached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// A process started for the run, spoken to over its standard input and output.
    Stdio {
        /// The program.
        command: String,
        /// Its arguments.
        args: Vec<String>,
    },
    /// A server already running, over streamable HTTP.
    Http {
        /// Its endpoint.
        url: String,
    },
}

#[derive(Deserialize)]
struct OpenAiYaml {
    dependencies: Option<Dependencies>,
}

#[derive(Deserialize)]
struct Dependencies {
    #[serde(default)]
    tools: Vec<Dependency>,
}

#[derive(Deserialize)]
struct Dependency {
    #[serde(rename = "type")]
    kind: String,
    value: String,
    transport: Option<String>,
    command: Option<String>,
    url: Option<String>,
}

#[derive(Deserialize)]
struct SkillToml {
    #[serde(default)]
    mcp: BTreeMap<String, TomlServer>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlServer {
    command: Option<String>,
    #[serde(default)]
    args: Vec<String>,
    url: Option<String>,
}

/// The servers `skill_dir` declares, in file order (`agents/openai.yaml`, then `skill.toml`);
/// an unreadable or contradictory declaration is an error naming its file.
pub fn declared(skill_dir: &Path) -> Result<Vec<Server>, String> {
    let mut servers = Vec::new();
    let yaml = skill_dir.join("agents/openai.yaml");
    if yaml.is_file() {
        let text = read(&yaml)?;
        let file: OpenAiYaml =
            serde_saphyr::from_str(&text).map_err(|e| format!("{}: {e}", yaml.display()))?;
        let tools = file.dependencies.map(|d| d.tools).unwrap_or_default();
        for dep in tools.into_iter().filter(|d| d.kind == "mcp") {
            let transport = match (dep.transport.as_deref(), dep.command, dep.url) {
                (Some("stdio") | None, Some(command), None) => stdio(&command, Vec::new()),
                (Some("streamable_http") | None, None, Some(url)) => Transport::Http { url },
                _ => {
                    return Err(format!(
                        "{}: MCP server '{}' needs a url (streamable_http) or a command (stdio)",
                        yaml.display(),
                        dep.value
                    ));
                }
            };
            servers.push(server(skill_dir, dep.value, transport));
        }
    }
    let toml_path = skill_dir.join("skill.toml");
    if toml_path.is_file() {
        let text = read(&toml_path)?;
        let file: SkillToml =
            toml::from_str(&text).map_err(|e| format!("{}: {e}", toml_path.display()))?;
        for (name, entry) in file.mcp {
            let transport = match (entry.command, entry.url) {
                (Some(command), None) => stdio(&command, entry.args),
                (None, Some(url)) => Transport::Http { url },
                _ => {
                    return Err(format!(
                        "{}: [mcp.{name}] needs either command or url",
                        toml_path.display()
                    ));
                }
            };
            servers.push(server(skill_dir, name, transport));
        }
    }
    Ok(servers)
}

fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|_| format!("{}: not UTF-8", path.display()))
}

/// A stdio transport; Codex's `command` is one string, split at whitespace.
fn stdio(command: &str, mut args: Vec<String>) -> Transport {
    let mut words = command.split_whitespace().map(str::to_owned);
    let program = words.next().unwrap_or_default();
    let mut all: Vec<String> = words.collect();
    all.append(&mut args);
    Transport::Stdio {
        command: program,
        args: all,
    }
}

fn server(skill_dir: &Path, name: String, transport: Transport) -> Server {
    Server {
        name,
        skill_dir: skill_dir.to_owned(),
        transport,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codex_and_skill_toml_declarations_are_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("agents")).unwrap();
        std::fs::write(
            dir.path().join("agents/openai.yaml"),
            "interface:\n  display_name: Docs\ndependencies:\n  tools:\n    - type: env_var\n      value: TOKEN\n    - type: mcp\n      value: docs\n      transport: streamable_http\n      url: http://127.0.0.1:1/mcp\n    - type: mcp\n      value: gh\n      transport: stdio\n      command: gh-mcp --read-only\n",
        )
        .unwrap();
        std::fs::write(
            dir.path().join("skill.toml"),
            "[mcp.notes]\ncommand = \"python3\"\nargs = [\"server.py\"]\n",
        )
        .unwrap();
        let names: Vec<(String, Transport)> = declared(dir.path())
            .unwrap()
            .into_iter()
            .map(|s| (s.name, s.transport))
            .collect();
        assert_eq!(
            names,
            [
                (
                    "docs".into(),
                    Transport::Http {
                        url: "http://127.0.0.1:1/mcp".into()
                    }
                ),
                (
                    "gh".into(),
                    Transport::Stdio {
                        command: "gh-mcp".into(),
                        args: vec!["--read-only".into()]
                    }
                ),
                (
                    "notes".into(),
                    Transport::Stdio {
                        command: "python3".into(),
                        args: vec!["server.py".into()]
                    }
                ),
            ]
        );
        std::fs::write(
            dir.path().join("skill.toml"),
            "[mcp.both]\ncommand = \"x\"\nurl = \"y\"\n",
        )
        .unwrap();
        let error = declared(dir.path()).unwrap_err();
        assert!(
            error.contains("skill.toml: [mcp.both] needs either command or url"),
            "{error}"
        );
    }
}
