//! `skill lsp`: a language server over stdio for skill folders. An open `SKILL.md` is linted as
//! the editor holds it (the rest of its folder as on disk), with `skill lint`'s rules, codes,
//! messages and configuration; its fixes are code actions, safe ones preferred and unsafe ones
//! labelled with what they change; a security finding can be allowed in place with a reason.
//! Hover explains a frontmatter key, a rule code or the description's token cost; completion
//! offers frontmatter keys; the body's relative links are document links. Changes that arrive
//! together are linted once, after the last of them.

mod assist;
mod position;

use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::{self, Notification as _};
use lsp_types::request::{self, Request as _};
use lsp_types::{PublishDiagnosticsParams, Uri};
use skill_lint::{self as lint, Diagnostic};
use skill_model::{Skill, SkillLocation};
use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

/// Why the server stopped other than by the client's `shutdown` and `exit`.
#[derive(Debug, thiserror::Error)]
pub(crate) enum LspError {
    /// The client broke the protocol (or went away during initialisation).
    #[error("language server protocol: {0}")]
    Protocol(#[from] lsp_server::ProtocolError),
    /// A message could not be written as JSON.
    #[error("language server message: {0}")]
    Json(#[from] serde_json::Error),
    /// Reading or writing stdio failed.
    #[error("language server I/O: {0}")]
    Io(#[from] std::io::Error),
    /// The connection closed before `shutdown`.
    #[error("the client closed the connection without a shutdown request")]
    Disconnected,
}

/// Serves one client on stdin and stdout until it asks the server to exit.
pub(crate) fn serve(options: lint::Options) -> Result<(), LspError> {
    let (connection, io_threads) = Connection::stdio();
    let client = connection.initialize(serde_json::to_value(assist::capabilities())?)?;
    Server {
        connection: &connection,
        options,
        workspace: workspace_root(&client),
        documents: HashMap::new(),
        dirty: BTreeSet::new(),
        described: HashMap::new(),
    }
    .run()?;
    drop(connection);
    io_threads.join()?;
    Ok(())
}

/// An open document.
struct Document {
    uri: Uri,
    text: String,
    /// Lint's findings in this document's skill, from its last lint.
    findings: Vec<Diagnostic>,
    /// The other files of the skill that were given findings, to clear them later.
    published: BTreeSet<PathBuf>,
}

struct Server<'a> {
    connection: &'a Connection,
    options: lint::Options,
    /// The folder the editor opened: skills are compared only with others inside it.
    workspace: Option<PathBuf>,
    documents: HashMap<PathBuf, Document>,
    /// Documents changed since their last lint.
    dirty: BTreeSet<PathBuf>,
    /// The skills of each folder that holds an open skill, as on disk (folder, name,
    /// description): read once, again after a save in that folder.
    described: HashMap<PathBuf, Vec<(PathBuf, String, String)>>,
}

impl Server<'_> {
    fn run(&mut self) -> Result<(), LspError> {
        let receiver = &self.connection.receiver;
        loop {
            let Ok(first) = receiver.recv() else {
                return Err(LspError::Disconnected);
            };
            if self.handle(first)? {
                return Ok(());
            }
            // Whatever else already arrived is handled before linting, so a burst of typing
            // is linted once.
            while let Ok(next) = receiver.try_recv() {
                if self.handle(next)? {
                    return Ok(());
                }
            }
            self.lint_dirty()?;
        }
    }

    /// Handles one message; true when the client asked to shut down.
    fn handle(&mut self, message: Message) -> Result<bool, LspError> {
        match message {
            Message::Request(request) => {
                if self.connection.handle_shutdown(&request)? {
                    return Ok(true);
                }
                self.lint_dirty()?;
                let response = self.answer(request);
                self.send(Message::Response(response))?;
            }
            Message::Notification(note) => self.notice(note),
            Message::Response(_) => {}
        }
        Ok(false)
    }

    fn answer(&self, request: Request) -> Response {
        let id = request.id.clone();
        let result = match request.method.as_str() {
            request::HoverRequest::METHOD => answer_with(request, |p| assist::hover(self, p)),
            request::Completion::METHOD => answer_with(request, |p| assist::completion(self, p)),
            request::CodeActionRequest::METHOD => {
                answer_with(request, |p| assist::code_actions(self, p))
            }
            request::DocumentLinkRequest::METHOD => {
                answer_with(request, |p| assist::links(self, p))
            }
            request::GotoDefinition::METHOD => {
                answer_with(request, |p| assist::definition(self, p))
            }
            _ => {
                return Response::new_err(
                    id,
                    lsp_server::ErrorCode::MethodNotFound as i32,
                    format!("skill lsp does not answer {}", request.method),
                );
            }
        };
        match result {
            Ok(value) => Response::new_ok(id, value),
            Err(e) => Response::new_err(id, e.code() as i32, e.to_string()),
        }
    }

    fn notice(&mut self, note: Notification) {
        match note.method.as_str() {
            notification::DidOpenTextDocument::METHOD => {
                if let Ok(p) = note.extract::<lsp_types::DidOpenTextDocumentParams>(
                    notification::DidOpenTextDocument::METHOD,
                ) {
                    self.set_text(p.text_document.uri, p.text_document.text);
                }
            }
            notification::DidChangeTextDocument::METHOD => {
                if let Ok(p) = note.extract::<lsp_types::DidChangeTextDocumentParams>(
                    notification::DidChangeTextDocument::METHOD,
                ) && let Some(change) = p.content_changes.into_iter().last()
                {
                    self.set_text(p.text_document.uri, change.text);
                }
            }
            notification::DidSaveTextDocument::METHOD => {
                if let Ok(p) = note.extract::<lsp_types::DidSaveTextDocumentParams>(
                    notification::DidSaveTextDocument::METHOD,
                ) && let Some(path) = file_path(&p.text_document.uri)
                {
                    self.siblings_changed(&path);
                }
            }
            notification::DidCloseTextDocument::METHOD => {
                if let Ok(p) = note.extract::<lsp_types::DidCloseTextDocumentParams>(
                    notification::DidCloseTextDocument::METHOD,
                ) && let Some(path) = file_path(&p.text_document.uri)
                {
                    self.dirty.remove(&path);
                    if let Some(closed) = self.documents.remove(&path) {
                        self.clear(&closed);
                    }
                }
            }
            _ => {}
        }
    }

    /// A saved `SKILL.md` is what the other skills of its folder are compared with: the open
    /// ones are linted again, so their `description-overlap` findings follow.
    fn siblings_changed(&mut self, saved: &Path) {
        let root = saved.parent().and_then(Path::parent);
        if let Some(root) = root {
            self.described.remove(root);
        }
        let open = self
            .documents
            .keys()
            .filter(|p| *p != saved && is_skill_md(p) && p.parent().and_then(Path::parent) == root);
        self.dirty.extend(open.cloned().collect::<Vec<_>>());
    }

    /// The whole new text of a document (the server asks for full syncs).
    fn set_text(&mut self, uri: Uri, text: String) {
        let Some(path) = file_path(&uri) else {
            return;
        };
        let document = self.documents.entry(path.clone()).or_insert(Document {
            uri,
            text: String::new(),
            findings: Vec::new(),
            published: BTreeSet::new(),
        });
        document.text = text;
        self.dirty.insert(path);
    }

    /// Lints every changed `SKILL.md` as its buffer holds it and publishes the findings of its
    /// skill, file by file.
    fn lint_dirty(&mut self) -> Result<(), LspError> {
        for path in std::mem::take(&mut self.dirty) {
            if !is_skill_md(&path) {
                continue;
            }
            let Some(document) = self.documents.get(&path) else {
                continue;
            };
            let text = document.text.clone();
            let siblings = self.siblings_of(&path);
            let findings = lint_buffer(&path, &text, &siblings, &self.options);
            let published = self.publish(&path, &findings)?;
            if let Some(document) = self.documents.get_mut(&path) {
                document.findings = findings;
                document.published = published;
            }
        }
        Ok(())
    }

    /// Sends each file's findings (an empty list to files that had some before); returns the
    /// files that now have some.
    fn publish(
        &self,
        skill_md: &Path,
        findings: &[Diagnostic],
    ) -> Result<BTreeSet<PathBuf>, LspError> {
        let mut by_file: HashMap<PathBuf, Vec<lsp_types::Diagnostic>> = HashMap::new();
        by_file.insert(skill_md.to_path_buf(), Vec::new());
        let mut texts: HashMap<PathBuf, String> = HashMap::new();
        for finding in findings {
            let file = if finding.file.is_file() {
                finding.file.clone()
            } else {
                skill_md.to_path_buf()
            };
            let text = texts
                .entry(file.clone())
                .or_insert_with(|| self.text_of(&file));
            let diagnostic = assist::diagnostic(text, finding);
            by_file.entry(file).or_default().push(diagnostic);
        }
        for stale in &self.documents[skill_md].published {
            by_file.entry(stale.clone()).or_default();
        }
        let now = by_file
            .iter()
            .filter(|(f, d)| !d.is_empty() && f.as_path() != skill_md)
            .map(|(f, _)| f.clone())
            .collect();
        for (file, diagnostics) in by_file {
            let open = self.documents.get(&file).map(|d| d.uri.clone());
            let Some(uri) = open.or_else(|| file_uri(&file)) else {
                continue;
            };
            let params = PublishDiagnosticsParams {
                uri,
                diagnostics,
                version: None,
            };
            let note =
                Notification::new(notification::PublishDiagnostics::METHOD.to_owned(), params);
            self.send(Message::Notification(note))?;
        }
        Ok(now)
    }

    /// Empties the findings a closed document had published, on it and on its skill's files.
    fn clear(&self, closed: &Document) {
        let files = closed.published.iter().filter_map(|f| file_uri(f));
        for uri in std::iter::once(closed.uri.clone()).chain(files) {
            let params = PublishDiagnosticsParams {
                uri,
                diagnostics: Vec::new(),
                version: None,
            };
            let note =
                Notification::new(notification::PublishDiagnostics::METHOD.to_owned(), params);
            // A client that is gone needs no clearing.
            let _ = self.send(Message::Notification(note));
        }
    }

    /// The text of `file`: the editor's buffer when it is open, else the disk's.
    fn text_of(&self, file: &Path) -> String {
        match self.documents.get(file) {
            Some(document) => document.text.clone(),
            None => std::fs::read(file)
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_default(),
        }
    }

    fn send(&self, message: Message) -> Result<(), LspError> {
        self.connection
            .sender
            .send(message)
            .map_err(|_| LspError::Disconnected)
    }
}

/// Why a request got an error response instead of an answer.
#[derive(Debug, thiserror::Error)]
enum Refusal {
    /// The request's parameters are not what its method takes.
    #[error("{method}: {source}")]
    Params {
        method: String,
        #[source]
        source: serde_json::Error,
    },
    /// The answer could not be written as JSON.
    #[error("the answer could not be written: {0}")]
    Answer(#[source] serde_json::Error),
}

impl Refusal {
    fn code(&self) -> lsp_server::ErrorCode {
        match self {
            Refusal::Params { .. } => lsp_server::ErrorCode::InvalidParams,
            Refusal::Answer(_) => lsp_server::ErrorCode::InternalError,
        }
    }
}

/// The answer `f` gives to a request's parameters as JSON, or why they do not parse.
fn answer_with<P: serde::de::DeserializeOwned, R: serde::Serialize>(
    request: Request,
    f: impl FnOnce(P) -> R,
) -> Result<serde_json::Value, Refusal> {
    let params = serde_json::from_value(request.params).map_err(|source| Refusal::Params {
        method: request.method,
        source,
    })?;
    serde_json::to_value(f(params)).map_err(Refusal::Answer)
}

/// The folder the client opened (its first workspace folder, else its root), from its
/// `initialize` parameters.
fn workspace_root(params: &serde_json::Value) -> Option<PathBuf> {
    let uri = params["workspaceFolders"][0]["uri"]
        .as_str()
        .or_else(|| params["rootUri"].as_str())?;
    reqwest::Url::parse(uri).ok()?.to_file_path().ok()
}

/// Lint's findings in the skill of `skill_md`, with `text` as its `SKILL.md`, and its
/// `description-overlap` with `siblings` (name, description).
fn lint_buffer(
    skill_md: &Path,
    text: &str,
    siblings: &[(String, String)],
    options: &lint::Options,
) -> Vec<Diagnostic> {
    let dir = skill_md.parent().unwrap_or(Path::new(".")).to_path_buf();
    let skill = Skill::load(SkillLocation {
        dir,
        file: Some(skill_md.to_path_buf()),
        files: None,
    })
    .with_text(text.to_owned());
    let overlap = lint::overlap_of(&skill, siblings, options);
    let mut findings = lint::lint_skill(skill, options).diagnostics;
    findings.extend(overlap);
    findings
}

impl Server<'_> {
    /// The name and description of every other skill in the folder that holds the skill of
    /// `skill_md`.
    fn siblings_of(&mut self, skill_md: &Path) -> Vec<(String, String)> {
        let Some(dir) = skill_md.parent() else {
            return Vec::new();
        };
        let Some(root) = dir.parent() else {
            return Vec::new();
        };
        // A skill at a repository's top has the user's other projects beside it, not skills.
        if !self.workspace.as_ref().is_some_and(|w| root.starts_with(w)) {
            return Vec::new();
        }
        self.described
            .entry(root.to_path_buf())
            .or_insert_with(|| described_skills(root))
            .iter()
            .filter(|(folder, _, _)| folder != dir)
            .map(|(_, name, description)| (name.clone(), description.clone()))
            .collect()
    }
}

/// Each skill folder directly in `root`, with its name and description.
fn described_skills(root: &Path) -> Vec<(PathBuf, String, String)> {
    std::fs::read_dir(root)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .filter_map(|folder| {
            let described = skill_model::similarity::described_in(std::slice::from_ref(&folder));
            let (name, description) = described.into_iter().next()?;
            Some((folder, name, description))
        })
        .collect()
}

fn is_skill_md(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| n.eq_ignore_ascii_case(skill_model::layout::SKILL_MD))
}

/// The local path a `file:` URI names.
fn file_path(uri: &Uri) -> Option<PathBuf> {
    reqwest::Url::parse(uri.as_str()).ok()?.to_file_path().ok()
}

/// The `file:` URI of a local path.
fn file_uri(path: &Path) -> Option<Uri> {
    reqwest::Url::from_file_path(path)
        .ok()?
        .as_str()
        .parse()
        .ok()
}
