//! `--report FILE`: one self-contained HTML page of an impact eval, for people. Inline CSS and
//! SVG, no script and no request (a Content-Security-Policy forbids both), every text from a
//! run escaped: outputs are a model's and an eval's stranger's words.

use super::Config;
use super::blind::Comparison;
use super::grade::Graded;
use super::outputs::OutputFile;
use super::report::{ConfigReport, ImpactReport, RunReport};
use super::stats::{Interval, Spread};
use std::path::Path;

/// Most bytes of an output file shown on the page.
const SHOWN_BYTES: usize = 8 * 1024;
/// Width in pixels of a pass rate of 1 in the bars.
const BAR_WIDTH: f64 = 320.0;

const TEMPLATE: &str = include_str!("report.html");

/// What the page shows besides the reports: per skill, its trigger eval's rates when one
/// replays, and its earlier iterations.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Extras {
    /// Recall and false rate of the skill's trigger set, or why they could not be had.
    pub triggers: Option<Result<TriggerRates, String>>,
}

/// A trigger eval's rates, for the page.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct TriggerRates {
    /// Share of should-trigger runs that read the skill.
    pub recall: Option<f64>,
    /// Share of should-not runs that read it.
    pub false_rate: Option<f64>,
}

#[derive(serde::Serialize)]
struct SkillView<'a> {
    report: &'a ImpactReport,
    bars: Vec<Bar>,
    delta: Option<f64>,
    delta_interval: Option<Interval>,
    history: Vec<Past>,
    triggers: Option<TriggerView>,
    evals: Vec<EvalView<'a>>,
}

#[derive(serde::Serialize)]
struct TriggerView {
    recall: Option<f64>,
    false_rate: Option<f64>,
    error: Option<String>,
}

#[derive(serde::Serialize)]
struct Bar {
    config: Config,
    mean: f64,
    stddev: f64,
    width: f64,
    whisker: Option<(f64, f64)>,
    /// Where the value is written: past the bar and its whisker.
    label_x: f64,
    seconds: Option<f64>,
    tokens: Option<f64>,
}

#[derive(serde::Serialize)]
struct EvalView<'a> {
    folder: &'a str,
    prompt: &'a str,
    rates: Vec<Option<f64>>,
    pairs: Vec<PairView<'a>>,
}

#[derive(serde::Serialize)]
struct PairView<'a> {
    run: u32,
    sides: [SideView<'a>; 2],
    blind: Option<&'a Comparison>,
}

#[derive(serde::Serialize)]
struct SideView<'a> {
    config: Config,
    answer: &'a str,
    files: Vec<FileView<'a>>,
    expectations: &'a [Graded],
    pass_rate: Option<f64>,
    tokens: u64,
    seconds: f64,
}

#[derive(serde::Serialize)]
struct FileView<'a> {
    path: &'a str,
    bytes: u64,
    text: Option<&'a str>,
    cut: bool,
}

/// An earlier iteration's headline, read back from its `benchmark.json`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub(crate) struct Past {
    /// Its number.
    pub iteration: u32,
    /// With the skill.
    pub with_skill: Option<f64>,
    /// The baseline.
    pub baseline: Option<f64>,
}

/// The page of `reports` (each with its extras).
pub fn render(reports: &[(ImpactReport, Extras)]) -> Result<String, minijinja::Error> {
    let skills: Vec<SkillView> = reports
        .iter()
        .map(|(report, extras)| skill_view(report, extras))
        .collect();
    let mut env = minijinja::Environment::new();
    env.set_undefined_behavior(minijinja::UndefinedBehavior::SemiStrict);
    env.add_template("impact.html", TEMPLATE)?;
    env.get_template("impact.html")?.render(
        minijinja::context! { skills => minijinja::Value::from(minijinja::value::Serde(&skills)) },
    )
}

fn skill_view<'a>(report: &'a ImpactReport, extras: &Extras) -> SkillView<'a> {
    let summary = &report.run_summary;
    let bars = [Config::WithSkill, report.baseline]
        .into_iter()
        .filter_map(|config| {
            let s = summary.configs.get(&config)?;
            let Spread { mean, stddev } = s.pass_rate?;
            let whisker = s
                .pass_rate_interval
                .map(|i| (i.low * BAR_WIDTH, i.high * BAR_WIDTH));
            let end = whisker.map_or(mean * BAR_WIDTH, |(_, high)| high.max(mean * BAR_WIDTH));
            Some(Bar {
                config,
                mean,
                stddev,
                width: mean * BAR_WIDTH,
                whisker,
                label_x: end + 8.0,
                seconds: s.time_seconds.map(|t| t.mean),
                tokens: s.tokens.map(|t| t.mean),
            })
        })
        .collect();
    SkillView {
        report,
        bars,
        delta: summary.delta.pass_rate,
        delta_interval: report.delta_interval,
        history: history(report),
        triggers: extras.triggers.clone().map(|rates| match rates {
            Ok(r) => TriggerView {
                recall: r.recall,
                false_rate: r.false_rate,
                error: None,
            },
            Err(e) => TriggerView {
                recall: None,
                false_rate: None,
                error: Some(e),
            },
        }),
        evals: report.evals.iter().map(eval_view).collect(),
    }
}

fn eval_view(eval: &super::report::EvalReport) -> EvalView<'_> {
    let (with, base) = (&eval.configs[0], &eval.configs[1]);
    let pairs = with
        .runs
        .iter()
        .zip(&base.runs)
        .map(|(ours, theirs)| PairView {
            run: ours.run,
            sides: [side(with, ours), side(base, theirs)],
            blind: eval.blind.iter().find(|c| c.run == ours.run),
        })
        .collect();
    EvalView {
        folder: &eval.folder,
        prompt: &eval.prompt,
        rates: eval
            .configs
            .iter()
            .map(|c| c.pass_rate.map(|s| s.mean))
            .collect(),
        pairs,
    }
}

fn side<'a>(config: &ConfigReport, run: &'a RunReport) -> SideView<'a> {
    SideView {
        config: config.config,
        answer: &run.outputs.answer,
        files: run.outputs.files.iter().map(file_view).collect(),
        expectations: &run.grading.expectations,
        pass_rate: run.grading.summary.pass_rate,
        tokens: run.total_tokens,
        seconds: run.duration_ms as f64 / 1000.0,
    }
}

fn file_view(file: &OutputFile) -> FileView<'_> {
    let text = file.text();
    let cut = file.cut() || text.is_some_and(|t| t.len() > SHOWN_BYTES);
    FileView {
        path: &file.path,
        bytes: file.size,
        text: text.map(|t| &t[..t.floor_char_boundary(SHOWN_BYTES)]),
        cut,
    }
}

/// The headlines of the iterations beside `report`'s, in order, its own last.
fn history(report: &ImpactReport) -> Vec<Past> {
    #[derive(serde::Deserialize)]
    struct Benchmark {
        run_summary: std::collections::BTreeMap<String, serde_json::Value>,
        baseline: String,
    }
    let Some(target) = report.iteration.parent() else {
        return Vec::new();
    };
    let mut points: Vec<Past> = std::fs::read_dir(target)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name();
            let number: u32 = name.to_str()?.strip_prefix("iteration-")?.parse().ok()?;
            let text = std::fs::read(entry.path().join("benchmark.json")).ok()?;
            let benchmark: Benchmark = serde_json::from_slice(&text).ok()?;
            let mean =
                |config: &str| benchmark.run_summary.get(config)?["pass_rate"]["mean"].as_f64();
            Some(Past {
                iteration: number,
                with_skill: mean("with_skill"),
                baseline: mean(&benchmark.baseline),
            })
        })
        .collect();
    points.sort_by_key(|p| p.iteration);
    if points.len() < 2 {
        return Vec::new();
    }
    points
}

/// Writes the page of `reports` to `path`, whole or not at all.
pub fn write(path: &Path, reports: &[(ImpactReport, Extras)]) -> Result<(), super::ImpactError> {
    let page = render(reports).map_err(|source| super::ImpactError::Page {
        path: path.to_owned(),
        source,
    })?;
    skill_archive::atomic_file::write(path, page.as_bytes()).map_err(|source| {
        super::ImpactError::Write {
            path: path.to_owned(),
            source,
        }
    })
}
