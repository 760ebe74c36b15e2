//! What reaches the model, per agent: every folder of an agent's roots judged as loaded,
//! dropped (the agent's own reason), gated off, shadowed, hidden from the model, or cut by the
//! agent's prompt budget (and at which step), with the summary's size against that budget and
//! the descriptions worth trimming first. The reading itself is `skill::agents`; this module
//! only adds the budget, which is a property of the prompt.

use super::openclaw::{self, MAX_SKILLS};
use super::{Listing, claude, codex};
use skill_model::agents::text::js_len;
use skill_model::agents::{AgentCatalog, facts};
use skill_model::catalog::Agent;
use skill_model::environment::Environment;
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
    let label = |i: usize| catalog.roots[i].label.clone();
    let mut rows: Vec<Row> = Vec::new();
    let (listings, _) = super::agent_listings(catalog.clone());
    let in_prompt: Vec<usize> = catalog
        .skills
        .iter()
        .enumerate()
        .filter(|(_, s)| s.availability.is_available() && s.hidden.is_none())
        .map(|(i, _)| i)
        .collect();
    // Per skill in the prompt: None = whole, Some(why) = cut, and whether it is out.
    let mut cuts: std::collections::HashMap<usize, (State, String)> = Default::default();
    let (size, budget_value, source, step) = match agent {
        Agent::Openclaw => {
            let (limit, source) = match openclaw_budget {
                Some(b) => (b, "--budget".to_owned()),
                None => (openclaw::DEFAULT_BUDGET, "default".to_owned()),
            };
            let entries = openclaw::entries(&listings, home);
            let prepared = openclaw::prepare(&entries, MAX_SKILLS, limit);
            let kept: std::collections::HashSet<&str> = prepared.names[..prepared.included]
                .iter()
                .map(String::as_str)
                .collect();
            for &i in &in_prompt {
                let s = &catalog.skills[i];
                if !kept.contains(s.name.as_str()) {
                    let why = if prepared
                        .names
                        .iter()
                        .position(|n| n == &s.name)
                        .is_some_and(|p| p >= MAX_SKILLS)
                    {
                        format!("over the {MAX_SKILLS}-skill limit")
                    } else {
                        "dropped by the budget (step 3)".to_owned()
                    };
                    cuts.insert(i, (State::CutOut, why));
                } else {
                    match prepared.compact {
                        Some(0) => {
                            cuts.insert(
                                i,
                                (
                                    State::Cut,
                                    "description omitted by the budget (step 2)".to_owned(),
                                ),
                            );
                        }
                        Some(n)
                            if js_len(&skill_model::agents::text::js_collapse_spaces(
                                &s.description,
                            )) > n =>
                        {
                            cuts.insert(i, (State::Cut, format!("description shortened to {n} characters by the budget (step 1)")));
                        }
                        _ => {}
                    }
                }
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
            (prepared.size, Some(limit), source, step)
        }
        Agent::Gemini | Agent::Opencode => {
            let shown: Vec<Listing> = in_prompt.iter().map(|&i| listings[i].clone()).collect();
            let text = match agent {
                Agent::Gemini => super::gemini::render(&shown),
                _ => super::opencode::render(&shown),
            };
            (
                text.chars().count(),
                None,
                format!("none: {} lists every skill", facts(agent).name),
                "full".to_owned(),
            )
        }
        Agent::Copilot => {
            let (limit, source) =
                super::agent_budget(agent, env, context_tokens).expect("Copilot CLI has a budget");
            let shown: Vec<Listing> = in_prompt.iter().map(|&i| listings[i].clone()).collect();
            let (whole, _) = super::copilot::prepare(&shown, &catalog.roots, limit);
            for (&i, whole) in in_prompt.iter().zip(&whole) {
                if !whole {
                    cuts.insert(
                        i,
                        (
                            State::Cut,
                            "name only: past the first entry over the budget".to_owned(),
                        ),
                    );
                }
            }
            let collapsed = whole.iter().filter(|w| !**w).count();
            let step = match collapsed {
                0 => "full".to_owned(),
                n => format!("names only for {n} skills"),
            };
            let size = js_len(&super::copilot::render(&shown, &catalog.roots, limit));
            (size, Some(limit), source, step)
        }
        Agent::Nanobot => {
            let text = super::render_nanobot_grouped(&listings, &catalog.roots);
            (
                text.chars().count(),
                None,
                "none: nanobot lists every skill".to_owned(),
                "full".to_owned(),
            )
        }
        Agent::Claude => {
            let (limit, source) =
                super::agent_budget(agent, env, context_tokens).expect("Claude Code has a budget");
            let shown: Vec<Listing> = in_prompt.iter().map(|&i| listings[i].clone()).collect();
            let entries = claude::entries(&shown);
            let prepared = claude::prepare(&entries, limit);
            for ((&i, entry), &bare) in in_prompt.iter().zip(&entries).zip(&prepared.collapsed) {
                let why = if bare {
                    "name only: no room for its description".to_owned()
                } else if entry.capped {
                    format!("description cut to {} characters", claude::DESCRIPTION_CAP)
                } else {
                    continue;
                };
                cuts.insert(i, (State::Cut, why));
            }
            let collapsed = prepared.collapsed.iter().filter(|c| **c).count();
            let step = match collapsed {
                0 => "full".to_owned(),
                n => format!("names only for {n} skills"),
            };
            (prepared.size, Some(limit), source, step)
        }
        Agent::Codex => {
            let (limit, source) =
                super::agent_budget(agent, env, context_tokens).expect("Codex has a budget");
            let shown: Vec<Listing> = in_prompt.iter().map(|&i| listings[i].clone()).collect();
            let entries = codex::entries(&shown, &catalog.roots);
            let fit = codex::prepare(&entries, limit);
            for ((&i, entry), kept) in in_prompt.iter().zip(&entries).zip(&fit) {
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
            let left_out = fit.iter().filter(|k| k.is_none()).count();
            let shortened = fit
                .iter()
                .zip(&entries)
                .any(|(k, e)| k.is_some_and(|n| n < e.description.chars().count()));
            let step = match (left_out, shortened) {
                (0, false) => "full".to_owned(),
                (0, true) => "descriptions shortened".to_owned(),
                (n, _) => format!("descriptions removed, {n} skills left out"),
            };
            let size = codex::size(&entries, &fit);
            (size, Some(limit), source, step)
        }
    };
    for (i, s) in catalog.skills.iter().enumerate() {
        let (state, why) = if !s.availability.is_available() {
            (
                State::GatedOff,
                format!("missing {}", s.availability.describe()),
            )
        } else if let Some(why) = s.hidden {
            (State::Hidden, why.to_owned())
        } else if let Some((state, why)) = cuts.remove(&i) {
            (state, why)
        } else {
            (State::Loaded, String::new())
        };
        rows.push(Row {
            name: s.name.clone(),
            path: s.dir.clone(),
            root: label(s.root),
            state,
            why,
        });
    }
    for d in &catalog.dropped {
        rows.push(Row {
            name: d
                .dir
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
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
    let mut trim_first: Vec<Longest> = in_prompt
        .iter()
        .map(|&i| Longest {
            name: catalog.skills[i].name.clone(),
            chars: catalog.skills[i].description.chars().count(),
        })
        .collect();
    trim_first.sort_by(|a, b| b.chars.cmp(&a.chars).then_with(|| a.name.cmp(&b.name)));
    trim_first.truncate(5);
    Report {
        agent,
        release: facts(agent).release,
        roots: catalog
            .roots
            .iter()
            .map(|r| RootState {
                label: r.label.clone(),
                path: r.path.clone(),
                exists: r.path.is_dir(),
            })
            .collect(),
        rows,
        size,
        budget: budget_value,
        budget_source: source,
        step,
        own_skills: own_skills(agent),
        trim_first,
        overlaps: overlaps(catalog, &in_prompt),
    }
}
