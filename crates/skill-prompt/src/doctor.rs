//! What reaches the model, per agent: every folder of an agent's roots judged as loaded,
//! dropped (the agent's own reason), gated off, shadowed, hidden from the model, or cut by the
//! agent's prompt budget (and at which step), with the summary's size against that budget and
//! the descriptions worth trimming first. The reading itself is `skill_model::agents`; this module
//! only adds the budget, which is a property of the prompt.

use super::openclaw::{self, MAX_SKILLS};
use super::{Listing, claude, codex};
use skill_model::agents::text::{js_collapse_spaces, js_len};
use skill_model::agents::{AgentCatalog, facts};
use skill_model::catalog::Agent;
use skill_model::environment::Environment;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// What became of one folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum State {
    /// In the prompt, whole.
    Loaded,
    /// In the prompt, but the budget shortened or removed its description.
    Cut,
    /// Left out of the prompt by the budget.
    CutOut,
    /// Loaded, but its requirements do not hold here.
    GatedOff,
    /// Loaded, but `disable-model-invocation` keeps it from the model.
    Hidden,
    /// Another skill of the same name wins.
    Shadowed,
    /// Not a skill to this agent.
    Dropped,
}

impl State {
    /// The word the table shows.
    pub fn label(self) -> &'static str {
        match self {
            State::Loaded => "loaded",
            State::Cut => "cut",
            State::CutOut => "cut out",
            State::GatedOff => "gated off",
            State::Hidden => "hidden",
            State::Shadowed => "shadowed",
            State::Dropped => "dropped",
        }
    }

    /// False when the skill does not reach the model although nobody asked for that.
    pub fn reaches_model(self) -> bool {
        matches!(
            self,
            State::Loaded | State::Cut | State::Hidden | State::Shadowed
        )
    }
}

/// One folder's verdict.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Row {
    /// The skill's name to this agent (the folder name when it is not a skill).
    pub name: String,
    /// The folder.
    pub path: PathBuf,
    /// Its root's label.
    pub root: String,
    /// The verdict.
    pub state: State,
    /// Why, in the agent's terms (empty when loaded).
    pub why: String,
}

/// One agent's report.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Report {
    /// The agent.
    pub agent: Agent,
    /// The release its rules come from.
    pub release: &'static str,
    /// Roots, highest precedence first.
    pub roots: Vec<RootState>,
    /// Every folder, in the agent's order.
    pub rows: Vec<Row>,
    /// The size of the skills list the agent would build, in characters of its kind.
    pub size: usize,
    /// The budget, if the agent has one.
    pub budget: Option<usize>,
    /// Where the budget comes from.
    pub budget_source: String,
    /// The step the budget forced (`full`, `descriptions shortened to N`, ...).
    pub step: String,
    /// The skills the agent lists of its own beside its roots', if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub own_skills: Option<String>,
    /// The longest descriptions among the skills that reach the model, longest first.
    pub trim_first: Vec<Longest>,
    /// Pairs of skills in the prompt too alike to route (lint's `description-overlap`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overlaps: Vec<Overlap>,
}

/// A root as the agent finds it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RootState {
    /// Its label (`workspace`, `~/.claude/skills`, ...).
    pub label: String,
    /// The folder.
    pub path: PathBuf,
    /// Whether the folder exists.
    pub exists: bool,
}

/// A skill whose description is among the longest in the prompt.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Longest {
    /// The skill.
    pub name: String,
    /// Its description's length in characters.
    pub chars: usize,
}

/// Two skills of the prompt whose name and description are too alike for the model to choose.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Overlap {
    /// One skill.
    pub a: String,
    /// The other.
    pub b: String,
    /// The similarity, from 0 to 1.
    pub score: f64,
    /// The terms they share that weigh most.
    pub shared: Vec<String>,
}

/// The pairs among the skills at `in_prompt` at or above the overlap threshold.
fn overlaps(catalog: &AgentCatalog, in_prompt: &[usize]) -> Vec<Overlap> {
    use skill_model::similarity::{OVERLAP_THRESHOLD, similar_pairs};
    let shown: Vec<(&str, &str)> = in_prompt
        .iter()
        .map(|&i| {
            let s = &catalog.skills[i];
            (s.name.as_str(), s.description.trim())
        })
        .collect();
    similar_pairs(&shown, OVERLAP_THRESHOLD)
        .into_iter()
        .map(|p| Overlap {
            a: shown[p.a].0.to_owned(),
            b: shown[p.b].0.to_owned(),
            score: p.score,
            shared: p.shared,
        })
        .collect()
}

impl Report {
    /// True when a skill did not reach the model.
    pub fn failed(&self) -> bool {
        self.rows.iter().any(|r| !r.state.reaches_model())
    }
}

/// What the agent lists of its own, and whether this report counts it.
fn own_skills(agent: Agent) -> Option<String> {
    let bundled = facts(agent).bundled;
    let columns: usize = bundled.iter().map(|b| b.size).sum();
    Some(match agent {
        Agent::Claude => format!(
            "{} bundled skills after yours ({columns} columns), counted in the size and budget",
            bundled.len()
        ),
        Agent::Copilot => format!(
            "{} bundled skills after yours ({}), counted in the budget unless turned off in ~/.copilot/settings.json",
            bundled.len(),
            bundled
                .iter()
                .map(|b| b.name)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Agent::Codex => {
            "its system skills, read from $CODEX_HOME/skills/.system once Codex has written them"
                .to_owned()
        }
        Agent::Gemini => {
            "skill-creator and antigravity-support from its package, listed first (not counted)"
                .to_owned()
        }
        Agent::Opencode => "customize-opencode, built in (not counted)".to_owned(),
        Agent::Openclaw | Agent::Nanobot => return None,
    })
}

fn shown(path: &Path) -> String {
    path.display().to_string()
}

/// What an agent's prompt holds before its budget: the catalog, each skill's listing, and the
/// skills offered to the model (available and not hidden), by index into `catalog.skills`.
struct Prompt<'a> {
    catalog: &'a AgentCatalog,
    listings: Vec<Listing>,
    in_prompt: Vec<usize>,
}

impl<'a> Prompt<'a> {
    fn new(catalog: &'a AgentCatalog) -> Prompt<'a> {
        let (listings, _) = super::agent_listings(catalog.clone());
        let in_prompt = catalog
            .skills
            .iter()
            .enumerate()
            .filter(|(_, s)| s.availability.is_available() && s.hidden.is_none())
            .map(|(i, _)| i)
            .collect();
        Prompt {
            catalog,
            listings,
            in_prompt,
        }
    }

    /// The listings of the skills offered to the model, in order.
    fn shown(&self) -> Vec<Listing> {
        self.in_prompt
            .iter()
            .map(|&i| self.listings[i].clone())
            .collect()
    }
}

/// How one agent's budget treated its prompt.
#[derive(Debug, Default)]
struct Fit {
    /// The size of the skills list, in the agent's unit.
    size: usize,
    /// The budget, if the agent has one.
    budget: Option<usize>,
    /// Where the budget comes from.
    source: String,
    /// The step the budget forced.
    step: String,
    /// The skills the budget cut or left out (index into `catalog.skills`), with why.
    cuts: HashMap<usize, (State, String)>,
}

/// "full", or "names only for N skills" when the budget collapsed N entries.
fn names_only_step(collapsed: usize) -> String {
    match collapsed {
        0 => "full".to_owned(),
        n => format!("names only for {n} skills"),
    }
}

/// OpenClaw's three steps: shorten descriptions, omit them, then drop skills (and its cap on
/// how many skills it lists at all).
fn fit_openclaw(prompt: &Prompt, home: Option<&Path>, budget: Option<usize>) -> Fit {
    let (limit, source) = match budget {
        Some(b) => (b, "--budget".to_owned()),
        None => (openclaw::DEFAULT_BUDGET, "default".to_owned()),
    };
    let entries = openclaw::entries(&prompt.listings, home);
    let prepared = openclaw::prepare(&entries, MAX_SKILLS, limit);
    let kept: HashSet<&str> = prepared.names[..prepared.included]
        .iter()
        .map(String::as_str)
        .collect();
    let mut cuts = HashMap::new();
    for &i in &prompt.in_prompt {
        let s = &prompt.catalog.skills[i];
        if !kept.contains(s.name.as_str()) {
            let position = prepared.names.iter().position(|n| n == &s.name);
            let why = if position.is_some_and(|p| p >= MAX_SKILLS) {
                format!("over the {MAX_SKILLS}-skill limit")
            } else {
                "dropped by the budget (step 3)".to_owned()
            };
            cuts.insert(i, (State::CutOut, why));
            continue;
        }
        let collapsed = js_collapse_spaces(&s.description);
        let why = match prepared.compact {
            Some(0) => "description omitted by the budget (step 2)".to_owned(),
            Some(n) if js_len(&collapsed) > n => {
                format!("description shortened to {n} characters by the budget (step 1)")
            }
            _ => continue,
        };
        cuts.insert(i, (State::Cut, why));
    }
    let step = match (prepared.compact, prepared.included < prepared.names.len()) {
        (None, _) => "full".to_owned(),
        (Some(_), true) => format!(
            "{} of {} skills kept, descriptions omitted",
            prepared.included,
            prepared.names.len()
        ),
        (Some(0), false) => "descriptions omitted".to_owned(),
        (Some(n), false) => format!("descriptions shortened to {n}"),
    };
    Fit {
        size: prepared.size,
        budget: Some(limit),
        source,
        step,
        cuts,
    }
}

/// Agents that list every skill whole: the size of their list, and no budget.
fn fit_unbudgeted(prompt: &Prompt) -> Fit {
    let agent = prompt.catalog.agent;
    let text = match agent {
        Agent::Gemini => super::gemini::render(&prompt.shown()),
        Agent::Opencode => super::opencode::render(&prompt.shown()),
        _ => super::render_nanobot_grouped(&prompt.listings, &prompt.catalog.roots),
    };
    Fit {
        size: text.chars().count(),
        source: format!("none: {} lists every skill", facts(agent).name),
        step: "full".to_owned(),
        ..Fit::default()
    }
}

/// Copilot CLI: whole entries until one goes over the budget, names only from there on.
fn fit_copilot(prompt: &Prompt, limit: usize, source: String) -> Fit {
    let shown = prompt.shown();
    let roots = &prompt.catalog.roots;
    let (whole, _) = super::copilot::prepare(&shown, roots, limit);
    let why = "name only: past the first entry over the budget";
    let cuts: HashMap<usize, (State, String)> = prompt
        .in_prompt
        .iter()
        .zip(&whole)
        .filter(|(_, whole)| !**whole)
        .map(|(&i, _)| (i, (State::Cut, why.to_owned())))
        .collect();
    Fit {
        step: names_only_step(cuts.len()),
        size: js_len(&super::copilot::render(&shown, roots, limit)),
        budget: Some(limit),
        source,
        cuts,
    }
}

/// Claude Code: descriptions capped, then names only for the entries that do not fit.
fn fit_claude(prompt: &Prompt, limit: usize, source: String) -> Fit {
    let entries = claude::entries(&prompt.shown());
    let prepared = claude::prepare(&entries, limit);
    let mut cuts = HashMap::new();
    let each = prompt
        .in_prompt
        .iter()
        .zip(&entries)
        .zip(&prepared.collapsed);
    for ((&i, entry), &bare) in each {
        let why = if bare {
            "name only: no room for its description".to_owned()
        } else if entry.capped {
            format!("description cut to {} characters", claude::DESCRIPTION_CAP)
        } else {
            continue;
        };
        cuts.insert(i, (State::Cut, why));
    }
    Fit {
        size: prepared.size,
        budget: Some(limit),
        source,
        step: names_only_step(prepared.collapsed.iter().filter(|c| **c).count()),
        cuts,
    }
}

/// Codex: descriptions shortened, then removed, then skills left out of the list.
fn fit_codex(prompt: &Prompt, limit: usize, source: String) -> Fit {
    let entries = codex::entries(&prompt.shown(), &prompt.catalog.roots);
    let kept = codex::prepare(&entries, limit);
    let mut cuts = HashMap::new();
    for ((&i, entry), kept) in prompt.in_prompt.iter().zip(&entries).zip(&kept) {
        let full = entry.description.chars().count();
        let cut = match kept {
            None => (
                State::CutOut,
                "left out of the list by the budget".to_owned(),
            ),
            Some(0) if full > 0 => (State::Cut, "description removed".to_owned()),
            Some(n) if *n < full => (
                State::Cut,
                format!("description shortened to {n} characters"),
            ),
            Some(_) => continue,
        };
        cuts.insert(i, cut);
    }
    let left_out = kept.iter().filter(|k| k.is_none()).count();
    let shortened = kept
        .iter()
        .zip(&entries)
        .any(|(k, e)| k.is_some_and(|n| n < e.description.chars().count()));
    let step = match (left_out, shortened) {
        (0, false) => "full".to_owned(),
        (0, true) => "descriptions shortened".to_owned(),
        (n, _) => format!("descriptions removed, {n} skills left out"),
    };
    Fit {
        size: codex::size(&entries, &kept),
        budget: Some(limit),
        source,
        step,
        cuts,
    }
}

/// The fit of `prompt` for its agent.
fn fit(
    prompt: &Prompt,
    env: &dyn Environment,
    home: Option<&Path>,
    context_tokens: Option<usize>,
    openclaw_budget: Option<usize>,
) -> Fit {
    let agent = prompt.catalog.agent;
    let budget = || super::agent_budget(agent, env, context_tokens);
    match (agent, budget()) {
        (Agent::Openclaw, _) => fit_openclaw(prompt, home, openclaw_budget),
        (Agent::Copilot, Some((limit, source))) => fit_copilot(prompt, limit, source),
        (Agent::Claude, Some((limit, source))) => fit_claude(prompt, limit, source),
        (Agent::Codex, Some((limit, source))) => fit_codex(prompt, limit, source),
        _ => fit_unbudgeted(prompt),
    }
}

/// One row per folder: the skills (gated off, hidden, cut or loaded), then the dropped folders
/// and the shadowed skills.
fn rows(catalog: &AgentCatalog, mut cuts: HashMap<usize, (State, String)>) -> Vec<Row> {
    let label = |i: usize| catalog.roots[i].label.clone();
    let mut rows: Vec<Row> = Vec::new();
    for (i, s) in catalog.skills.iter().enumerate() {
        let (state, why) = if !s.availability.is_available() {
            let missing = format!("missing {}", s.availability.describe());
            (State::GatedOff, missing)
        } else if let Some(why) = s.hidden {
            (State::Hidden, why.to_owned())
        } else {
            cuts.remove(&i).unwrap_or((State::Loaded, String::new()))
        };
        let (name, path, root) = (s.name.clone(), s.dir.clone(), label(s.root));
        rows.push(Row {
            name,
            path,
            root,
            state,
            why,
        });
    }
    for d in &catalog.dropped {
        let name = d.dir.file_name().map(|n| n.to_string_lossy().into_owned());
        rows.push(Row {
            name: name.unwrap_or_default(),
            path: d.dir.clone(),
            root: label(d.root),
            state: State::Dropped,
            why: d.reason.to_string(),
        });
    }
    for s in &catalog.shadowed {
        rows.push(Row {
            name: s.name.clone(),
            path: s.dir.clone(),
            root: label(s.root),
            state: State::Shadowed,
            why: format!("by {} in {}", shown(&s.by_dir), label(s.by_root)),
        });
    }
    rows
}

/// The five longest descriptions among the skills offered to the model, longest first.
fn trim_first(prompt: &Prompt) -> Vec<Longest> {
    let skills = &prompt.catalog.skills;
    let mut longest: Vec<Longest> = prompt
        .in_prompt
        .iter()
        .map(|&i| Longest {
            name: skills[i].name.clone(),
            chars: skills[i].description.chars().count(),
        })
        .collect();
    longest.sort_by(|a, b| b.chars.cmp(&a.chars).then_with(|| a.name.cmp(&b.name)));
    longest.truncate(5);
    longest
}

/// Judges `catalog` for its agent. `home` is shown as `~` where the agent does so;
/// `openclaw_budget` replaces OpenClaw's 18,000.
pub fn judge(
    catalog: &AgentCatalog,
    env: &dyn Environment,
    home: Option<&Path>,
    context_tokens: Option<usize>,
    openclaw_budget: Option<usize>,
) -> Report {
    let agent = catalog.agent;
    let prompt = Prompt::new(catalog);
    let fit = fit(&prompt, env, home, context_tokens, openclaw_budget);
    let roots = catalog.roots.iter().map(|r| RootState {
        label: r.label.clone(),
        path: r.path.clone(),
        exists: r.path.is_dir(),
    });
    Report {
        agent,
        release: facts(agent).release,
        roots: roots.collect(),
        rows: rows(catalog, fit.cuts),
        size: fit.size,
        budget: fit.budget,
        budget_source: fit.source,
        step: fit.step,
        own_skills: own_skills(agent),
        trim_first: trim_first(&prompt),
        overlaps: overlaps(catalog, &prompt.in_prompt),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skill_model::catalog::Root;
    use skill_model::environment::FakeEnvironment;

    /// `count` skills under `dir` whose descriptions are `words` words long, read as `agent`
    /// reads them.
    fn catalog(agent: Agent, dir: &Path, count: usize, words: usize) -> AgentCatalog {
        for i in 0..count {
            let name = format!("skill-{i}");
            std::fs::create_dir_all(dir.join(&name)).unwrap();
            let description = vec!["word"; words].join(" ");
            let text = format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n");
            std::fs::write(dir.join(&name).join("SKILL.md"), text).unwrap();
        }
        let roots = vec![Root::plain(dir)];
        AgentCatalog::load(agent, roots, &FakeEnvironment::default())
    }

    fn states(fit: &Fit) -> Vec<State> {
        let mut cut: Vec<(usize, State)> = fit.cuts.iter().map(|(i, c)| (*i, c.0)).collect();
        cut.sort_by_key(|c| c.0);
        cut.into_iter().map(|c| c.1).collect()
    }

    #[test]
    fn openclaw_shortens_then_omits_then_drops() {
        let tmp = tempfile::tempdir().unwrap();
        let catalog = catalog(Agent::Openclaw, tmp.path(), 3, 40);
        let prompt = Prompt::new(&catalog);
        let roomy = fit_openclaw(&prompt, None, None);
        assert_eq!((roomy.step.as_str(), roomy.budget), ("full", Some(18_000)));
        assert!(roomy.cuts.is_empty() && roomy.size > 0);
        let tight = fit_openclaw(&prompt, None, Some(roomy.size - 60));
        assert_eq!(tight.source, "--budget");
        assert!(tight.step.starts_with("descriptions shortened to "));
        assert_eq!(states(&tight), [State::Cut; 3]);
        let none = fit_openclaw(&prompt, None, Some(1));
        assert_eq!(none.step, "0 of 3 skills kept, descriptions omitted");
        assert_eq!(states(&none), [State::CutOut; 3]);
        assert_eq!(none.cuts[&0].1, "dropped by the budget (step 3)");
    }

    #[test]
    fn claude_code_gives_names_only_to_what_does_not_fit() {
        let tmp = tempfile::tempdir().unwrap();
        let catalog = catalog(Agent::Claude, tmp.path(), 3, 40);
        let prompt = Prompt::new(&catalog);
        let roomy = fit_claude(&prompt, 100_000, "test".into());
        assert_eq!(roomy.step, "full");
        assert!(roomy.cuts.is_empty());
        let tight = fit_claude(&prompt, 1, "test".into());
        assert_eq!(tight.step, "names only for 3 skills");
        assert_eq!(states(&tight), [State::Cut; 3]);
        assert_eq!(tight.cuts[&2].1, "name only: no room for its description");
        assert!(tight.size < roomy.size);
    }

    #[test]
    fn claude_code_caps_a_long_description() {
        let tmp = tempfile::tempdir().unwrap();
        let catalog = catalog(Agent::Claude, tmp.path(), 1, 400);
        let fit = fit_claude(&Prompt::new(&catalog), 100_000, "test".into());
        let why = format!("description cut to {} characters", claude::DESCRIPTION_CAP);
        assert_eq!(fit.cuts[&0], (State::Cut, why));
        assert_eq!(fit.step, "full");
    }

    #[test]
    fn codex_shortens_then_leaves_skills_out() {
        let tmp = tempfile::tempdir().unwrap();
        let catalog = catalog(Agent::Codex, tmp.path(), 3, 40);
        let prompt = Prompt::new(&catalog);
        let roomy = fit_codex(&prompt, 100_000, "test".into());
        assert_eq!((roomy.step.as_str(), roomy.cuts.len()), ("full", 0));
        let none = fit_codex(&prompt, 1, "test".into());
        assert_eq!(none.step, "descriptions removed, 3 skills left out");
        assert_eq!(states(&none), [State::CutOut; 3]);
    }

    #[test]
    fn copilot_lists_names_only_past_the_budget() {
        let tmp = tempfile::tempdir().unwrap();
        let catalog = catalog(Agent::Copilot, tmp.path(), 3, 40);
        let prompt = Prompt::new(&catalog);
        let roomy = fit_copilot(&prompt, 100_000, "test".into());
        assert_eq!((roomy.step.as_str(), roomy.cuts.len()), ("full", 0));
        let tight = fit_copilot(&prompt, 1, "test".into());
        assert!(tight.step.starts_with("names only for "), "{}", tight.step);
        assert!(states(&tight).iter().all(|s| *s == State::Cut));
        assert!(!tight.cuts.is_empty());
    }

    #[test]
    fn agents_without_a_budget_list_everything() {
        let tmp = tempfile::tempdir().unwrap();
        for agent in [Agent::Gemini, Agent::Opencode, Agent::Nanobot] {
            let dir = tmp.path().join(facts(agent).name);
            let catalog = catalog(agent, &dir, 2, 40);
            let fit = fit_unbudgeted(&Prompt::new(&catalog));
            assert_eq!((fit.budget, fit.step.as_str()), (None, "full"));
            let source = format!("none: {} lists every skill", facts(agent).name);
            assert_eq!(fit.source, source);
            assert!(fit.size > 80 && fit.cuts.is_empty(), "{agent:?}");
        }
    }

    #[test]
    fn rows_say_why_a_skill_is_not_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let catalog = catalog(Agent::Codex, tmp.path(), 2, 4);
        let cuts = HashMap::from([(1, (State::CutOut, "left out".to_owned()))]);
        let rows = rows(&catalog, cuts);
        let seen: Vec<(&str, State, &str)> = rows
            .iter()
            .map(|r| (r.name.as_str(), r.state, r.why.as_str()))
            .collect();
        assert_eq!(
            seen,
            [
                ("skill-0", State::Loaded, ""),
                ("skill-1", State::CutOut, "left out")
            ]
        );
    }
}
