//! Which skills `summary`, `prompt`, `list` and `check` read: roots, an agent preset, the
//! builtins when asked for, and names.

use super::CliError;
use skill_model::agents::AgentCatalog;
use skill_model::catalog::{Agent, Catalog, Root, agent_roots, builtin_root};
use std::path::PathBuf;

/// Which skills a command looks at.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct SkillArgs {
    /// Skill roots (folders of skill folders) or skill folders, highest precedence first
    /// [default: the --agent preset's roots, else ./skills]
    pub(crate) roots: Vec<PathBuf>,
    /// Use this agent's roots (and its rules where a format has them).
    #[arg(long, value_parser = super::choice::parser::<Agent>())]
    pub(crate) agent: Option<Agent>,
    /// Add skill's own builtin skills as the lowest root. No agent loads them unless they are
    /// installed (`skill builtin install NAME`), so an agent's view leaves them out.
    #[arg(long)]
    pub(crate) builtin: bool,
    /// Accepted so scripts written for earlier releases keep working: the builtins are no
    /// longer an implied root.
    #[arg(long, hide = true, conflicts_with = "builtin")]
    pub(crate) no_builtin: bool,
    /// Only this skill (repeatable).
    #[arg(long = "skill", value_name = "NAME")]
    pub(crate) skills: Vec<String>,
}

impl SkillArgs {
    /// Loads the catalog the arguments describe.
    pub(crate) fn catalog(&self) -> Result<Catalog, CliError> {
        let mut catalog = Catalog::load(self.roots()?);
        if !self.skills.is_empty() {
            let missing = catalog.retain_named(&self.skills);
            if !missing.is_empty() {
                return Err(CliError::UnknownSkills(missing.join(", ")));
            }
        }
        Ok(catalog)
    }

    /// Loads the roots the way `agent` reads them (its own rules), `--skill` applied.
    pub(crate) fn agent_catalog(
        &self,
        agent: Agent,
        env: &dyn skill_model::environment::Environment,
    ) -> Result<AgentCatalog, CliError> {
        let mut catalog = AgentCatalog::load(agent, self.roots()?, env);
        if !self.skills.is_empty() {
            let missing = catalog.retain_named(&self.skills);
            if !missing.is_empty() {
                return Err(CliError::UnknownSkills(missing.join(", ")));
            }
        }
        Ok(catalog)
    }

    /// The roots, highest precedence first, the builtin root last with `--builtin`.
    pub(crate) fn roots(&self) -> Result<Vec<Root>, CliError> {
        let cwd = std::env::current_dir()?;
        let mut roots: Vec<Root> = if !self.roots.is_empty() {
            self.roots.iter().map(Root::plain).collect()
        } else if let Some(agent) = self.agent {
            let home = std::env::var_os("HOME")
                .map(PathBuf::from)
                .unwrap_or_default();
            agent_roots(
                agent,
                &home,
                &cwd,
                &skill_model::environment::SystemEnvironment::default(),
            )
        } else {
            vec![Root::plain("skills")]
        };
        if self.builtin {
            roots.push(builtin_root().map_err(CliError::Builtin)?);
        }
        Ok(roots)
    }
}
