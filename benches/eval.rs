//! `cargo bench --bench eval`: replaying `skill eval` of 20 queries × 3 runs against 50
//! distractor skills (and the builtins), the whole process, against the target of 300 ms. The
//! cassettes are recorded first from a scripted model through the library.

use skill_agent::cassette::Mode;
use skill_agent::eval::{Options, load_subjects, run, starter::scripted};
use std::process::Command;
use std::time::Instant;

const QUERIES: usize = 20;
const RUNS: u32 = 3;
const DISTRACTORS: usize = 50;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let write = |path: &std::path::Path, text: &str| {
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("folder");
        std::fs::write(path, text).expect("file");
    };
    let topics = [
        "invoices",
        "weather",
        "recipes",
        "flights",
        "podcasts",
        "calendars",
        "backups",
        "translations",
        "spreadsheets",
        "diagrams",
    ];
    for i in 0..DISTRACTORS {
        let topic = topics[i % topics.len()];
        write(
            &root.join(format!("others/tool-{i:02}/SKILL.md")),
            &format!(
                "---\nname: tool-{i:02}\ndescription: Handle {topic} batch {i} with the tool-{i:02} command. Use when the user asks about {topic} number {i}.\n---\n# Tool {i}\n\nRun tool-{i:02}.\n"
            ),
        );
    }
    let subject = root.join("subject/csv-report");
    write(
        &subject.join("SKILL.md"),
        "---\nname: csv-report\ndescription: Summarize CSV files into Markdown tables. Use when the user shares a csv file.\n---\n# CSV report\n\nSummarize each column.\n",
    );
    let mut yaml = String::from("queries:\n");
    for q in 0..QUERIES {
        yaml.push_str(&format!(
            "  - prompt: \"Question number {q} about a csv file\"\n    should_trigger: {}\n",
            q % 2 == 0
        ));
    }
    yaml.push_str(&format!("runs: {RUNS}\n"));
    write(&subject.join("evals/triggers.yaml"), &yaml);
    // SAFETY: set before any thread of this process starts.
    unsafe { std::env::set_var("SKILL_CACHE_DIR", root.join("cache")) };
    let builtins = skill_model::builtin::materialize().expect("builtins");
    let distractors = skill_agent::eval::skills_of_roots(&[
        skill_model::catalog::Root::plain(root.join("others")),
        skill_model::catalog::Root::plain(builtins),
    ]);
    let no_provider = || -> Result<skill_agent::provider::HttpConfig, _> {
        Err(skill_agent::provider::ModelError::Setting(
            "scripted".into(),
        ))
    };
    let options = Options {
        mode: Mode::Record,
        runs: None,
        compare: Vec::new(),
        http: &no_provider,
        rerecord: String::new(),
        script: Some(&scripted),
        confinement: skill_agent::tools::Confinement::default(),
        cassettes: None,
    };
    let subjects = load_subjects(std::slice::from_ref(&subject)).expect("trigger set");
    run(&subjects, &distractors, &options).expect("recording");

    let mut walls = Vec::new();
    for _ in 0..11 {
        let started = Instant::now();
        let output = Command::new(env!("CARGO_BIN_EXE_skill"))
            .current_dir(root)
            .env("SKILL_CACHE_DIR", root.join("cache"))
            .args(["eval", "subject/csv-report", "--with", "others", "--json"])
            .output()
            .expect("skill runs");
        walls.push(started.elapsed());
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON");
        assert_eq!(report["skills"][0]["recall"], 1.0);
        assert_eq!(
            report["distractors"].as_array().map(Vec::len),
            Some(DISTRACTORS + 6)
        );
    }
    walls.sort();
    println!(
        "skill eval replay of {QUERIES} queries x {RUNS} runs against {DISTRACTORS} distractors (+6 builtins): process wall median {:?} (best {:?}; target < 300 ms)",
        walls[walls.len() / 2],
        walls[0],
    );
}
