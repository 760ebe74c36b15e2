//! `skill doctor`: what each agent will really load, and why not.

use super::CliError;
use skill_model::agents::{AGENTS, AgentCatalog, facts};
use skill_model::catalog::{Agent, Root, agent_roots};
use skill_model::environment::SystemEnvironment;
use skill_prompt::doctor::{self, Report};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `skill doctor`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  skill doctor\n  skill doctor skills/ --agent openclaw --agent codex\n  skill doctor --agent claude --skill github --json\n\nExit 1 when a selected skill (with none selected: any) would not reach the model."
)]
pub(crate) struct Args {
    /// Skill roots, highest precedence first [default: each agent's own roots]
    pub(crate) roots: Vec<PathBuf>,
    /// Check this agent (repeatable) [default: every agent whose roots exist here]
    #[arg(long, value_parser = super::choice::parser::<skill_model::catalog::Agent>())]
    pub(crate) agent: Vec<Agent>,
    /// Only this skill (repeatable).
    #[arg(long = "skill", value_name = "NAME")]
    pub(crate) skills: Vec<String>,
    /// The model's context window in tokens, for the budgets that scale with it.
    #[arg(long, value_name = "TOKENS")]
    pub(crate) context: Option<usize>,
    /// OpenClaw's `maxSkillsPromptChars` [default: 18000]
    #[arg(long, value_name = "CHARS")]
    pub(crate) budget: Option<usize>,
    /// Print JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// The openclaw npm package, whose bundled skills OpenClaw loads below every other root
    /// [default: the package of the `openclaw` on PATH]
    #[arg(long, value_name = "DIR")]
    pub(crate) openclaw_dir: Option<PathBuf>,
}

/// The bundled skills folder of the openclaw package: `--openclaw-dir`, else the package the
/// `openclaw` command on PATH belongs to (its `package.json` names `openclaw`).
fn openclaw_bundled(flag: Option<&Path>) -> Option<PathBuf> {
    let package = match flag {
        Some(dir) => dir.to_path_buf(),
        None => {
            let bin = std::fs::canonicalize(which::which("openclaw").ok()?).ok()?;
            bin.ancestors()
                .find(|dir| {
                    std::fs::read_to_string(dir.join("package.json"))
                        .ok()
                        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok())
                        .is_some_and(|p| p["name"] == "openclaw")
                })?
                .to_path_buf()
        }
    };
    Some(package.join("skills")).filter(|skills| skills.is_dir())
}

fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from)
}

/// Judges every selected agent's roots and prints the reports.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    let cwd = std::env::current_dir()?;
    let home_dir = home().unwrap_or_default();
    // Named roots are looked at alone; an agent's own view has its bundled skills too.
    let bundled = args
        .roots
        .is_empty()
        .then(|| openclaw_bundled(args.openclaw_dir.as_deref()))
        .flatten();
    let roots_of = |agent: Agent| roots_for(&args, agent, &home_dir, &cwd, bundled.as_ref());
    let agents = selected_agents(&args, &roots_of);
    let env = SystemEnvironment::default();
    let mut reports: Vec<Report> = Vec::new();
    for &agent in &agents {
        let mut catalog = AgentCatalog::load(agent, roots_of(agent), &env);
        if !args.skills.is_empty() {
            catalog.retain_named(&args.skills);
        }
        reports.push(doctor::judge(
            &catalog,
            &env,
            home().as_deref(),
            args.context,
            args.budget,
        ));
    }
    if args.roots.is_empty() && agents.contains(&Agent::Openclaw) && bundled.is_none() && !args.json
    {
        eprintln!(
            "note: OpenClaw's bundled skills are not counted: no openclaw package found beside the `openclaw` on PATH (--openclaw-dir names one)"
        );
    }
    let failed = reports.iter().any(Report::failed);
    print_reports(&args, &reports, failed)?;
    Ok(ExitCode::from(u8::from(failed)))
}

/// The roots `agent` is judged on: the named ones, else its own, with OpenClaw's bundled
/// skills below them.
fn roots_for(
    args: &Args,
    agent: Agent,
    home_dir: &Path,
    cwd: &Path,
    bundled: Option<&PathBuf>,
) -> Vec<Root> {
    let mut roots = if args.roots.is_empty() {
        agent_roots(agent, home_dir, cwd, &SystemEnvironment::default())
    } else {
        args.roots.iter().map(Root::plain).collect()
    };
    // OpenClaw loads the skills of its own package below every other root.
    if let (Agent::Openclaw, Some(dir)) = (agent, bundled) {
        roots.push(Root {
            path: dir.clone(),
            label: "openclaw-bundled".to_owned(),
        });
    }
    roots
}

/// The agents asked for; with neither agents nor roots named, those whose roots exist here.
fn selected_agents(args: &Args, roots_of: &dyn Fn(Agent) -> Vec<Root>) -> Vec<Agent> {
    if !args.agent.is_empty() {
        args.agent.clone()
    } else if !args.roots.is_empty() {
        AGENTS.to_vec()
    } else {
        AGENTS
            .into_iter()
            .filter(|a| roots_of(*a).iter().any(|r| r.path.is_dir()))
            .collect()
    }
}

fn print_reports(args: &Args, reports: &[Report], failed: bool) -> Result<(), CliError> {
    if args.json {
        let out = serde_json::json!({"agents": reports, "ok": !failed});
        super::output::print_json(&out, true)?;
    } else if reports.is_empty() {
        println!("no agent's skill roots exist here; name roots or pass --agent");
    } else {
        let text: Vec<String> = reports.iter().map(render).collect();
        print!("{}", text.join("\n"));
    }
    Ok(())
}

/// One agent's report as a table.
fn render(report: &Report) -> String {
    let mut out = render_heading(report);
    render_rows(report, &mut out);
    render_summary(report, &mut out);
    out
}

/// The agent's line and its roots.
fn render_heading(report: &Report) -> String {
    let reaching = report
        .rows
        .iter()
        .filter(|r| r.state.reaches_model())
        .count();
    let mut out = format!(
        "{} ({}): {} of {} reach the model\n",
        serde_json::to_value(report.agent)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default(),
        report.release,
        reaching,
        report.rows.len()
    );
    for root in &report.roots {
        let note = if root.exists { "" } else { " (absent)" };
        out.push_str(&format!(
            "  root {}: {}{note}\n",
            root.label,
            root.path.display()
        ));
    }
    out
}

/// The STATE / SKILL / ROOT / WHY table, columns as wide as their longest cell.
fn render_rows(report: &Report, out: &mut String) {
    let width = |f: &dyn Fn(&doctor::Row) -> usize, min: usize| {
        report.rows.iter().map(f).max().unwrap_or(0).max(min)
    };
    let (ws, wn, wr) = (
        width(&|r| r.state.label().len(), 5),
        width(&|r| r.name.chars().count(), 5),
        width(&|r| r.root.chars().count(), 4),
    );
    if !report.rows.is_empty() {
        out.push_str(&format!(
            "  {:<ws$}  {:<wn$}  {:<wr$}  WHY\n",
            "STATE", "SKILL", "ROOT"
        ));
    }
    for r in &report.rows {
        let line = format!(
            "  {:<ws$}  {:<wn$}  {:<wr$}  {}",
            r.state.label(),
            r.name,
            r.root,
            r.why
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// The summary's size against the budget, then what to trim and what is too alike.
fn render_summary(report: &Report, out: &mut String) {
    let unit = facts(report.agent)
        .budget
        .map_or("characters", |b| b.measure.unit());
    match report.budget {
        Some(budget) => out.push_str(&format!(
            "  summary: {} of {} {unit} ({}), {}\n",
            report.size, budget, report.budget_source, report.step
        )),
        None => out.push_str(&format!(
            "  summary: {} characters, no budget\n",
            report.size
        )),
    }
    if let Some(own) = &report.own_skills {
        out.push_str(&format!("  its own skills: {own}\n"));
    }
    if !report.trim_first.is_empty() {
        let list: Vec<String> = report
            .trim_first
            .iter()
            .map(|l| format!("{} ({})", l.name, l.chars))
            .collect();
        out.push_str(&format!("  longest descriptions: {}\n", list.join(", ")));
    }
    for o in &report.overlaps {
        out.push_str(&format!(
            "  too alike to route: {} and {} ({:.0}%; shared terms: {}); see `skill explain description-overlap`\n",
            o.a,
            o.b,
            o.score * 100.0,
            o.shared.join(", ")
        ));
    }
}
