//! The workspace of a run: a folder (fresh and temporary unless given) with the skills installed
//! under `skills/`, the scenario's files, and the system prompt that describes it.

use super::AgentError;
use skill_archive::install::{Input, install};
use skill_model::Requirements;
use skill_model::agents::{Agent, facts};
use skill_model::catalog::{Catalog, Root};
use skill_model::environment::SystemEnvironment;
use skill_prompt::{self as prompt, PART_SEPARATOR};
use std::path::{Path, PathBuf};

/// A prepared workspace.
#[derive(Debug)]
pub struct Workspace {
    root: PathBuf,
    temporary: Option<tempfile::TempDir>,
    skills: Vec<String>,
    /// The installed skills' listings, read once: runs sharing the workspace do not change
    /// its skills.
    listings: std::sync::OnceLock<Vec<prompt::Listing>>,
    /// The declared env vars, read once likewise.
    declared: std::sync::OnceLock<Vec<String>>,
}

impl Workspace {
    /// Prepares `dir` (created when missing), or a fresh temporary folder, with `skills`
    /// installed (replacing earlier installs of the same names) and `files` (relative path,
    /// content) written.
    pub fn prepare(
        dir: Option<&Path>,
        skills: &[PathBuf],
        files: &[(String, String)],
    ) -> Result<Workspace, AgentError> {
        let fail = |path: &Path, e: std::io::Error| AgentError::Workspace {
            path: path.to_owned(),
            message: e.to_string(),
        };
        let (root, temporary) = match dir {
            Some(dir) => {
                std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
                (std::fs::canonicalize(dir).map_err(|e| fail(dir, e))?, None)
            }
            None => {
                let temp = tempfile::Builder::new()
                    .prefix("skill-try-")
                    .tempdir()
                    .map_err(|e| fail(&std::env::temp_dir(), e))?;
                let root = std::fs::canonicalize(temp.path()).map_err(|e| fail(temp.path(), e))?;
                (root, Some(temp))
            }
        };
        let skills_dir = root.join("skills");
        std::fs::create_dir_all(&skills_dir).map_err(|e| fail(&skills_dir, e))?;
        let mut names = Vec::new();
        for skill in skills {
            // The installer leaves `evals/` out, as archives do: scenarios and cassettes are the
            // author's, and a cassette present at replay but not at recording would change what
            // the model sees.
            names.push(install(&Input::Folder(skill.clone()), &skills_dir, true)?.name);
        }
        for (path, content) in files {
            let target = super::tools::resolve(&root, path).map_err(|_| AgentError::Workspace {
                path: PathBuf::from(path),
                message: "a workspace file must stay inside the workspace".to_owned(),
            })?;
            if let Some(parent) = target.parent() {
                std::fs::create_dir_all(parent).map_err(|e| fail(parent, e))?;
            }
            std::fs::write(&target, content).map_err(|e| fail(&target, e))?;
        }
        Ok(Workspace {
            root,
            temporary,
            skills: names,
            listings: std::sync::OnceLock::new(),
            declared: std::sync::OnceLock::new(),
        })
    }

    /// The workspace folder (canonical).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The names of the installed skills.
    pub fn skills(&self) -> &[String] {
        &self.skills
    }

    /// The environment variables the installed skills declare (`requires.env` and
    /// `primaryEnv`), which their commands may be given; sorted, without repeats.
    pub fn declared_env(&self) -> Vec<String> {
        self.declared
            .get_or_init(|| self.read_declared_env())
            .clone()
    }

    fn read_declared_env(&self) -> Vec<String> {
        let catalog = Catalog::load(vec![Root::plain(self.root.join("skills"))]);
        let mut names: Vec<String> = catalog
            .skills
            .iter()
            .filter_map(|entry| {
                let manifest = entry.skill.manifest()?;
                let text = &entry.skill.document.as_ref().ok()?.source.text;
                Some(Requirements::from_manifest(manifest, text))
            })
            .flat_map(|r| r.env.into_iter().chain(r.primary_env))
            .map(|item| item.value)
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// Keeps a temporary workspace on disk after the run; returns its path.
    pub fn keep(mut self) -> PathBuf {
        if let Some(temp) = self.temporary.take() {
            let _ = temp.keep();
        }
        self.root.clone()
    }

    /// The installed skills as the system prompt lists them: every one shown as available.
    pub fn listings(&self) -> Vec<prompt::Listing> {
        self.listings.get_or_init(|| self.read_listings()).clone()
    }

    fn read_listings(&self) -> Vec<prompt::Listing> {
        let catalog = Catalog::load(vec![Root {
            path: self.root.join("skills"),
            label: "workspace".to_owned(),
        }]);
        let mut listings = prompt::listings(
            &catalog,
            facts(Agent::Nanobot).reading(),
            &SystemEnvironment::default(),
        );
        for listing in &mut listings {
            listing.available = true;
            listing.missing.clear();
        }
        listings
    }

    /// The system prompt for `listings` (from [`Workspace::listings`], perhaps with skills
    /// made always-on), with the bodies of `preload` under `# Specified Skills` after the
    /// always-on ones.
    pub(crate) fn system_prompt_with(
        &self,
        listings: &[prompt::Listing],
        preload: &[String],
    ) -> String {
        let ws = self.root.display();
        let identity = format!(
            "# skill try\n\nYou are an agent with tools to read, write and edit files, list folders and run shell commands. Use them to do what the user asks, then answer with what you did.\n\n## Workspace\nYour workspace is at: {ws}\n- Skills: {ws}/skills/{{skill-name}}/SKILL.md\n- Paths you pass to the file tools are relative to the workspace; you cannot leave it."
        );
        let specified = prompt::via::specified_skills(listings, preload);
        let skills = [
            prompt::active_skills(listings),
            specified,
            prompt::nanobot_section(listings),
        ]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(PART_SEPARATOR);
        if skills.is_empty() {
            identity
        } else {
            format!("{identity}{PART_SEPARATOR}{skills}")
        }
    }
}
