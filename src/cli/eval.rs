//! `skill eval`: trigger and routing evals, and their report (human, JSON, JUnit).

use super::CliError;
use super::suite::{ModelArgs, skill_dirs};
use anstyle::AnsiColor;
use skill_agent::eval::{self as eval, EvalReport, Options, SkillReport};
use skill_agent::r#try::shell_path;
use skill_model::builtin;
use skill_model::catalog::{Agent, Root, agent_roots};
use skill_model::choice::Choice;
use skill_prompt::via::Via;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `skill eval`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "evals/triggers.yaml:\n  queries:\n    - prompt: \"Containerise this Flask app and run it on port 8080\"\n      should_trigger: true\n    - prompt: \"What is the capital of France?\"\n      should_trigger: false\n  runs: 3              # each query asked this many times\n  min_recall: 0.8      # share of should_trigger runs that must read this SKILL.md\n  max_false_rate: 0.1  # share of should-not runs that may\n  via: summary         # or always, mention, preload\n\nExamples:\n  skill eval docker-deploy --with ~/.openclaw/workspace/skills\n  skill eval skills/ --agent openclaw --mode record\n  skill eval docker-deploy --compare-via --json\n  skill eval docker-deploy --impact --runs 3 --min-delta 0.1\n  skill eval docker-deploy --impact --baseline main\n  skill eval docker-deploy --harness claude-code,codex --mode record\n\nevals/evals.json (--impact), as agentskills.io defines it:\n  {\"skill_name\": \"docker-deploy\", \"evals\": [{\"id\": 1,\n    \"prompt\": \"Containerise the Flask app in evals/files/app.py\",\n    \"expected_output\": \"A Dockerfile that runs app.py on port 8080\",\n    \"files\": [\"evals/files/app.py\"],\n    \"expectations\": [\"The file `Dockerfile` exists\", \"`Dockerfile` contains `EXPOSE 8080`\",\n      \"The answer explains how to build the image\"]}]}\nExpectations of the forms \"The file `F` exists\", \"`F` is valid JSON\", \"`F` contains `S`\",\n\"The answer contains `S`\", \"`CMD` exits 0\" and \"`CMD` prints `S`\" are checked by code;\nthe rest by a model grader whose PASS must quote the outputs.\n\nExit 1 when a threshold of a trigger set is missed, or the impact delta is below --min-delta."
)]
pub(crate) struct Args {
    /// Skill folders with evals/triggers.yaml, or folders of skills [default: .]
    #[arg(value_name = "SKILL_DIR")]
    pub(crate) paths: Vec<PathBuf>,
    /// A folder of skills installed beside them as distractors (repeatable).
    #[arg(long = "with", value_name = "ROOT")]
    pub(crate) with: Vec<PathBuf>,
    /// Use this agent's skill roots as distractors (the builtin skills always are).
    #[arg(long, value_parser = super::choice::parser::<skill_model::catalog::Agent>())]
    pub(crate) agent: Option<Agent>,
    /// Ask each query this many times instead of the trigger set's `runs` (with --impact: run
    /// each eval this many times per configuration, 3 by default).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100))]
    pub(crate) runs: Option<u32>,
    /// The cassette mode and the model provider.
    #[command(flatten)]
    pub(crate) model: ModelArgs,
    /// Print JSON.
    #[arg(long)]
    pub(crate) json: bool,
    /// Write a JUnit XML report here (one case per query).
    #[arg(long, value_name = "FILE")]
    pub(crate) junit: Option<PathBuf>,
    /// Also measure recall through the other ways a skill reaches the model (always, mention,
    /// preload), each with its own cassettes.
    #[arg(long)]
    pub(crate) compare_via: bool,
    /// Also evaluate the builtin skills' trigger sets.
    #[arg(long)]
    pub(crate) builtin: bool,
    /// Write a starter evals/triggers.yaml into each skill that has none, and record every
    /// cassette of its trigger set from a scripted model that reads the skill exactly when it
    /// should; with --impact, a starter evals/evals.json and its cassettes.
    #[arg(long, conflicts_with_all = ["mode", "json", "junit", "compare_via", "runs", "baseline", "min_delta", "blind", "report"])]
    pub(crate) init: bool,
    /// Run the recorded commands without the sandbox, where it is missing: only for cassettes
    /// you trust.
    #[arg(long)]
    pub(crate) no_sandbox: bool,
    /// Outcome evals (evals/evals.json): run each eval with the skill and without it (or
    /// against --baseline), grade every expectation with evidence, and write the spec's
    /// workspace (<skill>-workspace/iteration-N) with benchmark.json.
    #[arg(long, conflicts_with_all = ["compare_via", "junit", "with", "agent"])]
    pub(crate) impact: bool,
    /// With --impact: compare with this earlier version (a skill folder, or a git revision of
    /// the skill's repository) instead of no skill.
    #[arg(long, value_name = "BASELINE", requires = "impact")]
    pub(crate) baseline: Option<String>,
    /// With --impact: exit 1 when the with-skill pass rate is not at least this much above the
    /// baseline's (0.1 = ten points).
    #[arg(
        long,
        value_name = "X",
        requires = "impact",
        allow_negative_numbers = true,
        value_parser = delta
    )]
    pub(crate) min_delta: Option<f64>,
    /// Improve the description: split the trigger queries (evals/eval_queries.json, else
    /// evals/triggers.yaml) 60/40 into train and validation, let the model propose descriptions
    /// from the train failures, and print the best on validation as a diff.
    #[arg(long, conflicts_with_all = ["impact", "init", "compare_via", "junit", "builtin"])]
    pub(crate) improve_description: bool,
    /// With --improve-description: most proposals.
    #[arg(long, value_name = "N", default_value_t = 5, requires = "improve_description", value_parser = clap::value_parser!(u32).range(1..=20))]
    pub(crate) iterations: u32,
    /// With --impact: also let a model judge each with-skill run against the baseline run of
    /// the same number, shown as A and B in an order it cannot guess.
    #[arg(long, requires = "impact")]
    pub(crate) blind: bool,
    /// With --impact: also write one self-contained HTML page of the results here (no script,
    /// no network).
    #[arg(long, value_name = "FILE", requires = "impact")]
    pub(crate) report: Option<PathBuf>,
    /// With --impact: write iterations under DIR/<skill>/ instead of <skill>-workspace beside
    /// the skill.
    #[arg(long, value_name = "DIR", requires = "impact")]
    pub(crate) workspace: Option<PathBuf>,
    /// Run the trigger eval through these real agent CLIs instead of skill's own loop
    /// (comma-separated; each found on PATH), recorded and replayed by a model proxy on
    /// loopback under evals/cassettes/harness/<harness>/; with --impact, one agent runs each
    /// eval (its cassettes beside the others, named after it).
    #[arg(
        long,
        value_name = "HARNESS",
        value_delimiter = ',',
        value_parser = super::choice::parser::<skill_agent::agent_cli::Harness>(),
        conflicts_with_all = ["improve_description", "init", "compare_via", "junit"]
    )]
    pub(crate) harness: Vec<skill_agent::agent_cli::Harness>,
}

/// A pass-rate difference: a number from -1 to 1.
fn delta(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(x) if (-1.0..=1.0).contains(&x) => Ok(x),
        _ => Err("a pass-rate difference from -1 to 1 (0.1 is ten points)".to_owned()),
    }
}

/// Runs the eval.
pub(crate) fn run(args: Args) -> Result<ExitCode, CliError> {
    if args.impact {
        return super::impact::run(&args);
    }
    let builtins = builtin::materialize().map_err(CliError::Builtin)?;
    let dirs = skill_dirs(&args.paths, args.builtin.then_some(builtins.as_path()))?;
    let distractors = eval::skills_of_roots(&distractor_roots(&args, builtins)?);
    if args.improve_description {
        return super::improve::run(&args, &dirs, distractors);
    }
    if args.init {
        write_starters(&dirs, &distractors)?;
        return Ok(ExitCode::SUCCESS);
    }
    // Every trigger set is checked before any model is called.
    let subjects = eval::load_subjects(&dirs)?;
    if !args.harness.is_empty() {
        return super::through::run(&args, &subjects, &distractors);
    }
    let mode = args.model.mode()?;
    let http = || args.model.http();
    let confinement =
        super::test::decide_confinement(skill_agent::tools::Origin::Recorded, args.no_sandbox)?;
    let options = Options {
        mode,
        runs: args.runs,
        compare: if args.compare_via {
            Via::ALL.to_vec()
        } else {
            Vec::new()
        },
        http: &http,
        rerecord: rerecord_command(&args, None),
        script: None,
        confinement,
        cassettes: None,
    };
    let report = eval::run(&subjects, &distractors, &options)?;
    if let Some(path) = &args.junit {
        write_junit(path, &report)?;
    }
    if args.json {
        super::output::print_json(&report, true)?;
    } else {
        print_report(&report);
    }
    Ok(if report.skills.iter().all(|s| s.passed) {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The roots whose skills compete with the evaluated ones: `--with`, `--agent`'s roots, then
/// the builtin skills.
fn distractor_roots(args: &Args, builtins: PathBuf) -> Result<Vec<Root>, CliError> {
    let mut roots: Vec<Root> = args.with.iter().map(Root::plain).collect();
    if let Some(agent) = args.agent {
        let home = std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default();
        let env = skill_model::environment::SystemEnvironment::default();
        roots.extend(agent_roots(agent, &home, &std::env::current_dir()?, &env));
    }
    roots.push(Root::plain(builtins));
    Ok(roots)
}

/// `--init`: a starter trigger set where a skill has none, and every cassette recorded.
fn write_starters(dirs: &[PathBuf], distractors: &[PathBuf]) -> Result<(), CliError> {
    for dir in dirs {
        let written = eval::starter::write_trigger_starter(dir, distractors)?;
        let cassettes = super::output::plural(written.cassettes as u64, "cassette", "cassettes");
        if written.wrote_triggers {
            println!(
                "wrote {} (a starter, from the current description) and recorded {cassettes}",
                written.path.display()
            );
        } else {
            println!(
                "kept {} (yours) and recorded its {cassettes}",
                written.path.display()
            );
        }
    }
    Ok(())
}

/// The command that records the cassettes of this eval again (through `harness`, when given).
pub(super) fn rerecord_command(
    args: &Args,
    harness: Option<skill_agent::agent_cli::Harness>,
) -> String {
    let mut command = String::from("skill eval");
    if let Some(harness) = harness {
        command.push_str(" --harness ");
        command.push_str(harness.name());
    }
    if args.builtin {
        command.push_str(" --builtin");
    }
    for path in &args.paths {
        command.push(' ');
        command.push_str(&shell_path(path));
    }
    for root in &args.with {
        command.push_str(" --with ");
        command.push_str(&shell_path(root));
    }
    if let Some(agent) = args.agent {
        command.push_str(" --agent ");
        command.push_str(agent.name());
    }
    if let Some(runs) = args.runs {
        command.push_str(&format!(" --runs {runs}"));
    }
    if args.compare_via {
        command.push_str(" --compare-via");
    }
    command.push_str(" --mode record");
    command
}

pub(super) fn rate(value: Option<f64>, (hits, total): (usize, usize)) -> String {
    match value {
        Some(v) => format!("{v:.2} ({hits}/{total})"),
        None => "-".to_owned(),
    }
}

fn print_report(report: &EvalReport) {
    let mut out = anstream::stdout();
    for skill in &report.skills {
        print_skill(&mut out, skill);
    }
    let passed = report.skills.iter().filter(|s| s.passed).count();
    let _ = writeln!(
        out,
        "{passed} passed, {} failed ({} distractor skill{})",
        report.skills.len() - passed,
        report.distractors.len(),
        if report.distractors.len() == 1 {
            ""
        } else {
            "s"
        }
    );
}

pub(super) fn print_skill(out: &mut impl Write, skill: &SkillReport) {
    let (label, style) = if skill.passed {
        ("PASS", AnsiColor::Green.on_default())
    } else {
        ("FAIL", AnsiColor::Red.on_default().bold())
    };
    let via = if skill.via == Via::Summary {
        String::new()
    } else {
        format!(", via {}", skill.via)
    };
    let _ = writeln!(
        out,
        "{style}{label}{style:#} {}: recall {}, false rate {}{via}",
        skill.skill,
        rate(skill.recall, skill.recall_runs),
        rate(skill.false_rate, skill.false_runs)
    );
    for failure in &skill.failures {
        let _ = writeln!(out, "  - {failure}");
    }
    print_queries(out, skill);
    for steal in &skill.stolen_by {
        let _ = writeln!(
            out,
            "  {} took {} of {}'s should-trigger run{}",
            steal.skill,
            steal.runs,
            skill.skill,
            if steal.runs == 1 { "" } else { "s" }
        );
    }
    if !skill.compare.is_empty() {
        let _ = writeln!(out, "  via      recall       false rate");
        for way in &skill.compare {
            let _ = writeln!(
                out,
                "  {:<8} {:<12} {}",
                way.via.name(),
                rate(way.recall, way.recall_runs),
                rate(way.false_rate, way.false_runs)
            );
        }
    }
}

/// One line per query: what was wanted, what each run read, `!` where that was wrong.
fn print_queries(out: &mut impl Write, skill: &SkillReport) {
    let _ = writeln!(out, "  want  read (each run)  prompt");
    for query in &skill.queries {
        let (right, decided) = query.right(&skill.skill);
        let mark = if right == decided { ' ' } else { '!' };
        let reads: Vec<String> = query
            .runs
            .iter()
            .map(|r| match (&r.read, r.decided) {
                (Some(name), _) => name.clone(),
                (None, true) => "-".to_owned(),
                (None, false) => format!("({})", r.stop),
            })
            .collect();
        let _ = writeln!(
            out,
            "{mark} {:<4}  {}  {}",
            if query.should_trigger { "yes" } else { "no" },
            reads.join(" "),
            query.prompt
        );
    }
}

fn write_junit(path: &std::path::Path, report: &EvalReport) -> Result<(), CliError> {
    skill_archive::atomic_file::write(path, eval::junit::render(report)?.as_bytes())?;
    Ok(())
}
