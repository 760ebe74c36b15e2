//! The results of an impact eval: per run, per configuration, per eval and for the skill
//! (`benchmark.json`), and the iteration folder they are written to.

use super::blind::{Comparison, Tally};
use super::grade::Grading;
use super::outputs::{self, Outputs};
use super::stats::{self, Interval, Spread};
use super::{Config, Eval, ImpactError, Options, Subject};
use crate::Transcript;
use crate::cassette::Mode;
use crate::message::Stop;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One run of one eval in one configuration.
#[derive(Debug, Clone, serde::Serialize)]
pub struct RunReport {
    /// The run (from 1).
    pub run: u32,
    /// How it stopped.
    pub stop: Stop,
    /// Model turns.
    pub turns: usize,
    /// Tokens in and out of the run (the grader's not counted).
    pub total_tokens: u64,
    /// Wall time of the run as recorded (a replay reports the recording's).
    pub duration_ms: u64,
    /// The skills whose SKILL.md the model read.
    pub skills_read: Vec<String>,
    /// Each expectation graded.
    pub grading: Grading,
    /// The answer and the produced files (written to the run's folder, not to JSON).
    #[serde(skip)]
    pub outputs: Outputs,
    /// The whole run (written to the run's folder).
    #[serde(skip)]
    pub transcript: Transcript,
    /// The run's workspace (gone once the run ends), whose path the outputs may name.
    #[serde(skip)]
    pub workspace: PathBuf,
    /// Whether the run called the model (recorded or live) rather than replayed.
    #[serde(skip)]
    pub recorded: bool,
}

/// An eval's runs in one configuration.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ConfigReport {
    /// The configuration.
    pub config: Config,
    /// Pass rate over the runs.
    pub pass_rate: Option<Spread>,
    /// Every run.
    pub runs: Vec<RunReport>,
}

impl ConfigReport {
    /// The report of `runs` in `config`.
    pub fn of(config: Config, runs: Vec<RunReport>) -> ConfigReport {
        ConfigReport {
            config,
            pass_rate: stats::spread(&pass_rates(&runs)),
            runs,
        }
    }
}

fn pass_rates(runs: &[RunReport]) -> Vec<f64> {
    runs.iter()
        .filter_map(|r| r.grading.summary.pass_rate)
        .collect()
}

/// One eval, both configurations.
#[derive(Debug, Clone, serde::Serialize)]
pub struct EvalReport {
    /// Its id.
    pub id: String,
    /// Its folder in the iteration.
    pub folder: String,
    /// What the user asked.
    pub prompt: String,
    /// The skill's configuration first, then the baseline.
    pub configs: Vec<ConfigReport>,
    /// With `--blind`: each with-skill run judged against the baseline run of its number.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub blind: Vec<Comparison>,
}

impl EvalReport {
    /// The report of `eval`.
    pub fn of(eval: &Eval, configs: Vec<ConfigReport>, blind: Vec<Comparison>) -> EvalReport {
        EvalReport {
            id: eval.id.clone(),
            folder: eval.folder(),
            prompt: eval.prompt.clone(),
            configs,
            blind,
        }
    }
}

/// One configuration over every eval and run.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Pass rate per run.
    pub pass_rate: Option<Spread>,
    /// The bootstrap interval of the mean pass rate.
    pub pass_rate_interval: Option<Interval>,
    /// Seconds per run.
    pub time_seconds: Option<Spread>,
    /// Tokens per run.
    pub tokens: Option<Spread>,
    /// Runs counted.
    pub runs: usize,
}

/// The skill's configuration minus the baseline's.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Delta {
    /// Pass rate.
    pub pass_rate: Option<f64>,
    /// Seconds.
    pub time_seconds: Option<f64>,
    /// Tokens.
    pub tokens: Option<f64>,
}

/// `benchmark.json`'s `run_summary`: a summary per configuration, and the delta.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RunSummary {
    /// `with_skill` and the baseline (`without_skill` or `old_skill`).
    #[serde(flatten)]
    pub configs: BTreeMap<Config, Summary>,
    /// With the skill minus the baseline.
    pub delta: Delta,
}

/// The gate of `--min-delta`.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Gate {
    /// The least delta accepted.
    pub min_delta: f64,
    /// Whether the mean delta reaches it.
    pub passed: bool,
    /// Whether the whole interval lies on the same side of `min_delta` as the mean: when it
    /// does not, more runs are needed before the gate means anything.
    pub certain: bool,
    /// Whether there is an interval at all (two runs a side or more).
    #[serde(skip)]
    pub interval: bool,
}

impl Gate {
    /// The gate of `min_delta` on a pass-rate `delta` and its interval.
    pub fn of(min_delta: f64, delta: Option<f64>, interval: Option<Interval>) -> Gate {
        // Pass rates are sums of fractions: 0.7 - 0.6 must reach a gate of 0.1.
        let reaches = |d: f64| d >= min_delta - GATE_TOLERANCE;
        let passed = delta.is_some_and(reaches);
        Gate {
            min_delta,
            passed,
            certain: interval
                .is_some_and(|i| reaches(i.low) == passed && reaches(i.high) == passed),
            interval: interval.is_some(),
        }
    }
}

/// How far below the gate a delta may fall from the rounding of pass rates.
const GATE_TOLERANCE: f64 = 1e-9;

/// A skill's impact eval, as `benchmark.json` holds it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ImpactReport {
    /// The skill's name.
    pub skill_name: String,
    /// The iteration folder written.
    pub iteration: PathBuf,
    /// Runs per eval and configuration.
    pub runs_per_eval: u32,
    /// The configuration compared with.
    pub baseline: Config,
    /// Per configuration, and the delta.
    pub run_summary: RunSummary,
    /// The bootstrap interval of the pass-rate delta (runs resampled within each eval).
    pub delta_interval: Option<Interval>,
    /// The gate, with `--min-delta`.
    pub gate: Option<Gate>,
    /// With `--blind`: wins of each side over every comparison.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blind: Option<Tally>,
    /// Every eval.
    pub evals: Vec<EvalReport>,
}

impl ImpactReport {
    /// The report of `evals`, summed up.
    pub fn of(
        subject: &Subject,
        baseline: Config,
        options: &Options,
        evals: Vec<EvalReport>,
    ) -> ImpactReport {
        let mut configs = BTreeMap::new();
        for config in [Config::WithSkill, baseline] {
            configs.insert(config, summary(&evals, config));
        }
        let mean = |config: Config, field: fn(&Summary) -> Option<Spread>| {
            field(&configs[&config]).map(|s| s.mean)
        };
        let diff = |field: fn(&Summary) -> Option<Spread>| {
            Some(mean(Config::WithSkill, field)? - mean(baseline, field)?)
        };
        let delta = Delta {
            pass_rate: diff(|s| s.pass_rate),
            time_seconds: diff(|s| s.time_seconds),
            tokens: diff(|s| s.tokens),
        };
        let per_eval: Vec<(Vec<f64>, Vec<f64>)> = evals
            .iter()
            .map(|e| {
                (
                    pass_rates(&e.configs[0].runs),
                    pass_rates(&e.configs[1].runs),
                )
            })
            .collect();
        let delta_interval = stats::delta_interval(&per_eval);
        let gate = options
            .min_delta
            .map(|min_delta| Gate::of(min_delta, delta.pass_rate, delta_interval));
        ImpactReport {
            skill_name: subject.name.clone(),
            iteration: PathBuf::new(),
            runs_per_eval: options.runs,
            baseline,
            run_summary: RunSummary { configs, delta },
            delta_interval,
            gate,
            blind: options
                .blind
                .then(|| Tally::of(evals.iter().flat_map(|e| &e.blind))),
            evals,
        }
    }

    /// Whether the gate (when there is one) passed.
    pub fn passed(&self) -> bool {
        self.gate.as_ref().is_none_or(|g| g.passed)
    }
}

fn summary(evals: &[EvalReport], config: Config) -> Summary {
    let runs: Vec<&RunReport> = evals
        .iter()
        .flat_map(|e| e.configs.iter().filter(|c| c.config == config))
        .flat_map(|c| &c.runs)
        .collect();
    let of = |value: fn(&RunReport) -> Option<f64>| {
        stats::spread(&runs.iter().filter_map(|r| value(r)).collect::<Vec<_>>())
    };
    let per_eval: Vec<Vec<f64>> = evals
        .iter()
        .flat_map(|e| e.configs.iter().filter(|c| c.config == config))
        .map(|c| pass_rates(&c.runs))
        .collect();
    Summary {
        pass_rate: of(|r| r.grading.summary.pass_rate),
        pass_rate_interval: stats::mean_interval(&per_eval),
        time_seconds: of(|r| Some(r.duration_ms as f64 / 1000.0)),
        tokens: of(|r| Some(r.total_tokens as f64)),
        runs: runs.len(),
    }
}

/// `timing.json`.
#[derive(serde::Serialize)]
struct Timing {
    total_tokens: u64,
    duration_ms: u64,
}

/// What a recording keeps beside its cassette: the wall time a replay cannot measure.
#[derive(serde::Serialize, serde::Deserialize)]
struct Recorded {
    duration_ms: u64,
}

/// A run's wall time: measured when it called the model (and kept beside the cassette when
/// recorded), the recording's when replayed (the replay's own when the recording kept none).
pub fn duration(cassette: &Path, settled: Mode, elapsed_ms: u64) -> std::io::Result<u64> {
    let sidecar = cassette.with_extension("timing.json");
    match settled {
        Mode::Replay => Ok(std::fs::read(&sidecar)
            .ok()
            .and_then(|bytes| serde_json::from_slice::<Recorded>(&bytes).ok())
            .map_or(elapsed_ms, |t| t.duration_ms)),
        Mode::Record | Mode::Auto => {
            let recorded = pretty(&Recorded {
                duration_ms: elapsed_ms,
            })?;
            skill_archive::atomic_file::write(&sidecar, recorded.as_bytes())?;
            Ok(elapsed_ms)
        }
        Mode::Live => Ok(elapsed_ms),
    }
}

/// Writes `report`'s iteration under `target` as `iteration-N` (the next free N), whole or
/// not at all: it is assembled in a temporary folder beside and renamed into place.
pub(crate) fn write_iteration(target: &Path, report: &mut ImpactReport) -> Result<(), ImpactError> {
    let fail = |path: &Path, source: std::io::Error| ImpactError::Write {
        path: path.to_owned(),
        source,
    };
    std::fs::create_dir_all(target).map_err(|e| fail(target, e))?;
    let temp = tempfile::Builder::new()
        .prefix(".iteration-")
        .tempdir_in(target)
        .map_err(|e| fail(target, e))?;
    let single = report.runs_per_eval == 1;
    for eval in &report.evals {
        if !eval.blind.is_empty() {
            let path = temp.path().join(&eval.folder).join("blind.json");
            std::fs::create_dir_all(temp.path().join(&eval.folder)).map_err(|e| fail(&path, e))?;
            std::fs::write(&path, pretty(&eval.blind).map_err(|e| fail(&path, e))?)
                .map_err(|e| fail(&path, e))?;
        }
        for config in &eval.configs {
            for run in &config.runs {
                let mut dir = temp.path().join(&eval.folder).join(config.config.name());
                if !single {
                    dir = dir.join(format!("run-{}", run.run));
                }
                write_run(&dir, run).map_err(|e| fail(&dir, e))?;
            }
        }
    }
    // Another eval may take a number first: the next one is tried, and a temporary folder that
    // could not be renamed is removed with `temp`.
    for _ in 0..RENAME_TRIES {
        let number = next_iteration(target)
            .ok_or_else(|| fail(target, std::io::Error::other("no iteration number is left")))?;
        let iteration = target.join(format!("iteration-{number}"));
        report.iteration = iteration.clone();
        let benchmark = temp.path().join("benchmark.json");
        let json = pretty(report).map_err(|e| fail(&benchmark, e))?;
        std::fs::write(&benchmark, json).map_err(|e| fail(&benchmark, e))?;
        if !iteration.exists() && std::fs::rename(temp.path(), &iteration).is_ok() {
            let _ = temp.keep();
            return Ok(());
        }
    }
    Err(fail(
        target,
        std::io::Error::other("could not take an iteration number: other runs keep taking them"),
    ))
}

fn write_run(dir: &Path, run: &RunReport) -> std::io::Result<()> {
    outputs::write(&dir.join("outputs"), &run.outputs.files)?;
    std::fs::write(dir.join("answer.md"), &run.outputs.answer)?;
    let timing = Timing {
        total_tokens: run.total_tokens,
        duration_ms: run.duration_ms,
    };
    std::fs::write(dir.join("timing.json"), pretty(&timing)?)?;
    std::fs::write(dir.join("grading.json"), pretty(&run.grading)?)?;
    std::fs::write(dir.join("transcript.json"), pretty(&run.transcript)?)?;
    Ok(())
}

fn pretty<T: serde::Serialize>(value: &T) -> std::io::Result<String> {
    Ok(serde_json::to_string_pretty(value)? + "\n")
}

/// Attempts at an iteration number before giving up.
const RENAME_TRIES: usize = 5;

fn next_iteration(target: &Path) -> Option<u32> {
    let highest = std::fs::read_dir(target)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            entry
                .file_name()
                .to_str()?
                .strip_prefix("iteration-")?
                .parse::<u32>()
                .ok()
        })
        .max()
        .unwrap_or(0);
    highest.checked_add(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gate_counts_a_rounded_delta_as_reached_and_knows_when_noise_decides() {
        let interval = |low, high| {
            Some(Interval {
                low,
                high,
                confidence: 0.95,
            })
        };
        let exact = Gate::of(0.1, Some(0.7 - 0.6), interval(0.7 - 0.6, 0.7 - 0.6));
        assert!(exact.passed && exact.certain, "{exact:?}");
        let noisy = Gate::of(0.1, Some(0.2), interval(-0.1, 0.5));
        assert!(noisy.passed && !noisy.certain);
        let below = Gate::of(0.1, Some(0.0), interval(-0.2, 0.05));
        assert!(!below.passed && below.certain);
        let alone = Gate::of(0.1, Some(0.5), None);
        assert!(alone.passed && !alone.certain && !alone.interval);
        assert!(!Gate::of(0.1, None, None).passed, "no delta passes no gate");
    }
}
