//! `skill eval --impact` end to end: a scripted model on loopback that does the task the way
//! the skill tells it (tests/common/worker.rs) and grades, on purpose, one expectation right,
//! one wrong and one with a made-up quote; the real binary on temp folders. Record → replay
//! with the server stopped, the spec's workspace layout, benchmark.json, the gate, baselines
//! (a folder and a git revision), and hostile evals files.

use crate::common;

use common::worker::Worker;
use common::{json, run, skill, snapshots, write_skill};
use serde_json::Value;
use std::path::{Path, PathBuf};

const CSV: &str = "---\nname: csv-report\ndescription: Summarize CSV spreadsheets into a JSON report of totals. Use when the user shares a csv spreadsheet to summarize.\n---\n# CSV report\n\nAdd up the csv spreadsheet's amounts.\n\nWrite `report.json` containing `{\"total\": 42}`.\n\nThen tell the user the total.\n";

const EVALS: &str = r#"{
  "skill_name": "csv-report",
  "evals": [
    {
      "id": 1,
      "prompt": "Summarize this csv spreadsheet of sales into a report",
      "expected_output": "report.json with the total of the amounts",
      "files": ["evals/files/sales.csv"],
      "expectations": [
        "The file `report.json` exists",
        "`report.json` is valid JSON",
        "`report.json` contains `42`",
        "The answer states the total",
        "The report is verified, trust me"
      ]
    },
    {
      "id": "totals-only",
      "prompt": "Give me the total of this csv spreadsheet",
      "files": ["evals/files/sales.csv"],
      "expectations": ["`report.json` contains `total`"]
    }
  ]
}
"#;

struct Setup {
    _temp: tempfile::TempDir,
    root: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let temp = tempfile::tempdir().unwrap();
        let root = temp.path().to_owned();
        let dir = write_skill(&root.join("skills"), "csv-report", CSV);
        std::fs::create_dir_all(dir.join("evals/files")).unwrap();
        std::fs::write(dir.join("evals/evals.json"), EVALS).unwrap();
        std::fs::write(
            dir.join("evals/files/sales.csv"),
            "month,amount\njan,20\nfeb,22\n",
        )
        .unwrap();
        Setup { _temp: temp, root }
    }

    fn skill_dir(&self) -> PathBuf {
        self.root.join("skills/csv-report")
    }

    fn iteration(&self, n: u32) -> PathBuf {
        self.root
            .join(format!("skills/csv-report-workspace/iteration-{n}"))
    }

    fn eval(&self) -> assert_cmd::Command {
        let mut cmd = self.impact();
        cmd.arg("skills/csv-report");
        cmd
    }

    fn impact(&self) -> assert_cmd::Command {
        let mut cmd = skill();
        for var in ["OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "SKILL_RECORD", "CI"] {
            cmd.env_remove(var);
        }
        cmd.current_dir(&self.root)
            .env("HOME", &self.root)
            .env("SKILL_CACHE_DIR", self.root.join("cache"))
            .env("OPENAI_API_KEY", "test-key")
            .args(["eval", "--impact"]);
        cmd
    }

    fn record(&self, worker: &Worker, extra: &[&str]) -> (i32, String, String) {
        run(self
            .eval()
            .args(["--mode", "record", "--provider", "openai"])
            .args(["--model", "worker", "--base-url", &worker.base])
            .args(extra))
    }

    fn replay(&self, extra: &[&str]) -> (i32, String, String) {
        run(self.eval().args(extra))
    }
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    json(&text)
}

fn approx(value: &Value, want: f64) {
    let got = value
        .as_f64()
        .unwrap_or_else(|| panic!("not a number: {value}"));
    assert!((got - want).abs() < 1e-9, "{got} is not {want}");
}

/// The summary with times (which vary) and the temp folder taken out.
fn stable(stdout: &str, root: &Path) -> String {
    let time = regex::Regex::new(r"(?m)^(  time \(s\)\s+).*$").unwrap();
    let out = stdout.replace(&root.display().to_string(), "[ROOT]");
    time.replace_all(&out, "${1}[TIME]").into_owned()
}

#[test]
fn with_and_without_the_skill_recorded_graded_and_replayed_offline() {
    let setup = Setup::new();
    let worker = Worker::start();
    let (code, stdout, stderr) = setup.record(&worker, &["--runs", "2"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let shown = stable(&stdout, &setup.root);
    snapshots().bind(|| insta::assert_snapshot!("impact-recorded", shown));
    worker.stop();

    // The spec's layout, one folder per run with several runs.
    let run1 = setup.iteration(1).join("eval-1/with_skill/run-1");
    assert_eq!(
        std::fs::read_to_string(run1.join("outputs/report.json")).unwrap(),
        "{\"total\": 42}"
    );
    let grading = read_json(&run1.join("grading.json"));
    let passed: Vec<bool> = grading["expectations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["passed"].as_bool().unwrap())
        .collect();
    assert_eq!(passed, [true, true, true, true, false], "{grading:#}");
    assert_eq!(grading["expectations"][0]["by"], "code");
    assert_eq!(grading["expectations"][3]["by"], "model");
    let lie = grading["expectations"][4]["evidence"].as_str().unwrap();
    assert!(lie.starts_with("not accepted"), "{lie}");
    assert_eq!(grading["summary"]["pass_rate"], 0.8);
    let timing = read_json(&run1.join("timing.json"));
    assert!(timing["total_tokens"].as_u64().unwrap() > 0, "{timing}");
    assert!(timing["duration_ms"].is_u64());
    let without = setup.iteration(1).join("eval-1/without_skill/run-1");
    assert!(!without.join("outputs/report.json").exists());
    let transcript = read_json(&without.join("transcript.json"));
    let input_read = transcript["messages"]
        .as_array()
        .unwrap()
        .iter()
        .any(|m| m["content"].as_str().is_some_and(|c| c.contains("jan,20")));
    assert!(input_read, "the input file reached the workspace");

    let benchmark = read_json(&setup.iteration(1).join("benchmark.json"));
    let summary = &benchmark["run_summary"];
    approx(&summary["with_skill"]["pass_rate"]["mean"], 0.9);
    approx(&summary["without_skill"]["pass_rate"]["mean"], 0.1);
    approx(&summary["delta"]["pass_rate"], 0.8);
    assert!(summary["delta"]["tokens"].as_f64().unwrap() > 0.0);

    // With the server gone, a replay gives the same grades into the next iteration.
    let (code, replayed, stderr) = setup.replay(&["--runs", "2"]);
    assert_eq!(code, 0, "{replayed}\n{stderr}");
    let again = read_json(&setup.iteration(2).join("benchmark.json"));
    assert_eq!(
        again["run_summary"]["with_skill"]["pass_rate"],
        summary["with_skill"]["pass_rate"]
    );
    assert_eq!(
        again["run_summary"]["delta"]["pass_rate"],
        summary["delta"]["pass_rate"]
    );
    assert_eq!(
        again["run_summary"]["with_skill"]["time_seconds"], summary["with_skill"]["time_seconds"],
        "a replay reports the recording's times"
    );
    assert_eq!(
        stable(&replayed, &setup.root).replace("iteration-2", "iteration-1"),
        stable(&stdout, &setup.root)
    );
}

#[test]
fn the_gate_fails_below_min_delta_and_says_whether_noise_could_decide() {
    let setup = Setup::new();
    let worker = Worker::start();
    let (code, stdout, stderr) = setup.record(&worker, &["--runs", "1", "--min-delta", "0.5"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("PASS gate: delta +0.80 against --min-delta +0.50 (the whole interval"),
        "{stdout}"
    );
    // One run each: the spec's layout has no run folders.
    assert!(
        setup
            .iteration(1)
            .join("eval-1/with_skill/grading.json")
            .is_file()
    );
    worker.stop();
    let (code, stdout, stderr) = setup.replay(&["--runs", "1", "--min-delta", "0.9", "--json"]);
    assert_eq!(code, 1, "{stdout}\n{stderr}");
    let report = json(&stdout);
    let skill = &report["impact"][0];
    assert_eq!(skill["gate"]["passed"], false);
    for bad in ["nan", "inf", "1.5"] {
        let (code, _, stderr) = setup.replay(&["--runs", "1", "--min-delta", bad]);
        assert_eq!(code, 2, "{bad}");
        assert!(stderr.contains("from -1 to 1"), "{stderr}");
    }
    assert_eq!(skill["gate"]["min_delta"], 0.9);
    assert_eq!(skill["baseline"], "without_skill");
}

#[test]
fn an_edited_skill_or_eval_asks_for_a_new_recording_and_writes_nothing() {
    let setup = Setup::new();
    let worker = Worker::start();
    let (code, stdout, stderr) = setup.record(&worker, &["--runs", "1"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    worker.stop();
    let skill_md = setup.skill_dir().join("SKILL.md");
    std::fs::write(&skill_md, CSV.replace("{\"total\": 42}", "{\"sum\": 42}")).unwrap();
    let (code, stdout, stderr) = setup.replay(&["--runs", "1"]);
    assert_eq!(code, 2, "{stdout}\n{stderr}");
    assert!(
        stderr.contains("skill eval --impact skills/csv-report --runs 1 --mode record"),
        "{stderr}"
    );
    assert!(stderr.contains("eval 1 (with_skill), run 1"), "{stderr}");
    assert!(
        !setup.iteration(2).exists(),
        "a failed eval writes no iteration"
    );
    let leftovers: Vec<_> = std::fs::read_dir(setup.root.join("skills/csv-report-workspace"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(leftovers, ["iteration-1"]);

    std::fs::write(&skill_md, CSV).unwrap();
    let evals = setup.skill_dir().join("evals/evals.json");
    std::fs::write(&evals, EVALS.replace("trust me", "believe me")).unwrap();
    let (code, _, stderr) = setup.replay(&["--runs", "1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("with_skill.1.grade.yaml"), "{stderr}");
}

#[test]
fn a_baseline_folder_or_git_revision_is_the_old_skill() {
    let setup = Setup::new();
    let git = |args: &[&str]| common::git(&setup.root, args);
    // The earlier version wrote its report without the total.
    let skill_md = setup.skill_dir().join("SKILL.md");
    std::fs::write(&skill_md, CSV.replace("{\"total\": 42}", "{}")).unwrap();
    git(&["init", "-q"]);
    git(&["add", "."]);
    git(&["commit", "-qm", "old"]);
    std::fs::write(&skill_md, CSV).unwrap();

    let worker = Worker::start();
    let (code, stdout, stderr) = setup.record(&worker, &["--runs", "1", "--baseline", "HEAD"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains("with the skill against its earlier version"),
        "{stdout}"
    );
    let old = setup.iteration(1).join("eval-1/old_skill");
    assert_eq!(
        std::fs::read_to_string(old.join("outputs/report.json")).unwrap(),
        "{}"
    );
    let benchmark = read_json(&setup.iteration(1).join("benchmark.json"));
    assert_eq!(benchmark["baseline"], "old_skill");
    approx(
        &benchmark["run_summary"]["old_skill"]["pass_rate"]["mean"],
        0.3,
    );
    worker.stop();

    // The same earlier version as a folder (of any name) replays the same cassettes.
    let old_dir = setup.root.join("old/csv-report-v1");
    std::fs::create_dir_all(&old_dir).unwrap();
    std::fs::write(
        old_dir.join("SKILL.md"),
        CSV.replace("{\"total\": 42}", "{}"),
    )
    .unwrap();
    let (code, stdout, stderr) =
        setup.replay(&["--runs", "1", "--baseline", old_dir.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");

    for (reference, says) in [
        (
            "no-such-branch",
            "git could not read the skill at this revision",
        ),
        ("-upload", "neither a folder nor a git revision"),
        ("HEAD:SKILL.md", "neither a folder nor a git revision"),
        ("skills", "a folder without SKILL.md"),
    ] {
        let flag = format!("--baseline={reference}");
        let (code, _, stderr) = setup.replay(&["--runs", "1", &flag]);
        assert_eq!(code, 2, "{reference}: {stderr}");
        assert!(stderr.contains(says), "{reference}: {stderr}");
    }
}

#[test]
fn hostile_or_broken_evals_files_are_refused_before_any_run() {
    let cases: &[(&str, &str)] = &[
        (
            "{\"skill_name\": \"csv-report\",\n \"evals\": [\n  {\"id\": 1, \"prompt\": }\n]}",
            "evals/evals.json:3:",
        ),
        (
            "{\"skill_name\": \"csv-report\", \"evals\": []}",
            "`evals` is empty",
        ),
        (
            r#"{"skill_name": "x", "evals": [{"id": 1, "prompt": "p", "files": ["../../secret.txt"]}]}"#,
            "without ..",
        ),
        (
            r#"{"skill_name": "x", "evals": [{"id": 1, "prompt": "p", "files": ["/etc/passwd"]}]}"#,
            "without ..",
        ),
        (
            r#"{"skill_name": "x", "evals": [{"id": 1, "prompt": "p", "files": ["evals/link.txt"]}]}"#,
            "not a regular file",
        ),
        (
            r#"{"skill_name": "x", "evals": [{"id": 1, "prompt": "p", "files": ["evals/none.csv"]}]}"#,
            "cannot be read",
        ),
        (
            r#"{"skill_name": "x", "evals": [{"id": 1, "prompt": "p"}, {"id": "1", "prompt": "q"}]}"#,
            "ids must differ",
        ),
        (
            r#"{"skill_name": "x", "evals": [{"id": "../..", "prompt": "p"}]}"#,
            "needs a letter or a digit",
        ),
        (
            r#"{"skill_name": "x", "evals": [{"id": 2, "prompt": "  "}]}"#,
            "the prompt is empty",
        ),
        (
            r#"{"skill_name": "x", "evals": [{"id": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", "prompt": "p"}]}"#,
            "longer than 64",
        ),
    ];
    for (content, says) in cases {
        let setup = Setup::new();
        let dir = setup.skill_dir();
        std::fs::write(setup.root.join("secret.txt"), "secret").unwrap();
        std::os::unix::fs::symlink("/etc/hostname", dir.join("evals/link.txt")).unwrap();
        std::fs::write(dir.join("evals/evals.json"), content).unwrap();
        let (code, stdout, stderr) = setup.replay(&[]);
        assert_eq!(code, 2, "{content}\n{stdout}");
        assert!(stderr.contains(says), "{content}\n{stderr}");
        assert!(stderr.contains("evals/evals.json"), "{stderr}");
        assert!(!setup.root.join("skills/csv-report-workspace").exists());
    }
    let setup = Setup::new();
    std::fs::write(
        setup.skill_dir().join("evals/evals.json"),
        b"{\"skill_name\": \"\xff\"}",
    )
    .unwrap();
    let (code, _, stderr) = setup.replay(&[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("not UTF-8"), "{stderr}");
    std::fs::remove_file(setup.skill_dir().join("evals/evals.json")).unwrap();
    let (code, _, stderr) = setup.replay(&[]);
    assert_eq!(code, 2);
    assert!(stderr.contains("no evals/evals.json"), "{stderr}");
    let (code, _, stderr) = run(setup.eval().args(["--mode", "replay"]));
    assert_eq!(code, 2, "{stderr}");
}

#[test]
fn a_replay_without_cassettes_names_the_command_that_records_them() {
    let setup = Setup::new();
    let (code, _, stderr) = setup.replay(&["--runs", "1", "--baseline", "HEAD"]);
    assert_eq!(code, 2, "{stderr}");
    let setup = Setup::new();
    let (code, _, stderr) = setup.replay(&["--runs", "1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("no cassette for this eval and run"),
        "{stderr}"
    );
    assert!(stderr.contains("eval-1/with_skill.1.yaml"), "{stderr}");
}

#[test]
fn builtins_and_new_skills_ship_a_starter_impact_eval_that_replays() {
    let setup = Setup::new();
    let workspace = setup.root.join("ws");
    let mut builtins = skill();
    builtins
        .current_dir(&setup.root)
        .env("HOME", &setup.root)
        .env("SKILL_CACHE_DIR", setup.root.join("cache"))
        .env_remove("SKILL_RECORD")
        .args(["eval", "--impact", "--builtin", "--json", "--workspace"])
        .arg(&workspace);
    let (code, stdout, stderr) = run(&mut builtins);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let report = json(&stdout);
    let skills = report["impact"].as_array().unwrap();
    assert_eq!(skills.len(), 6, "{report:#}");
    for skill in skills {
        approx(&skill["run_summary"]["delta"]["pass_rate"], 1.0);
        let name = skill["skill_name"].as_str().unwrap();
        assert!(
            workspace
                .join(name)
                .join("iteration-1/benchmark.json")
                .is_file()
        );
    }

    let mut new = skill();
    new.current_dir(&setup.root)
        .env("HOME", &setup.root)
        .env("SKILL_CACHE_DIR", setup.root.join("cache"))
        .args(["new", "mine", "--template", "cli-tool", "--dir", "made"]);
    let (code, stdout, _) = run(&mut new);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("  evals/evals.json (and its cassettes)\n"),
        "{stdout}"
    );
    let (code, stdout, stderr) = run(setup.impact().arg("made/mine"));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(stdout.contains("delta +1.00"), "{stdout}");
    // The starter is a real recording: an edited description asks for a new one.
    let skill_md = setup.root.join("made/mine/SKILL.md");
    let text = std::fs::read_to_string(&skill_md).unwrap();
    std::fs::write(
        &skill_md,
        text.replacen("description: ", "description: Edited. ", 1),
    )
    .unwrap();
    let (code, _, stderr) = run(setup.impact().arg("made/mine"));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("does not match the recording"), "{stderr}");
}

#[test]
fn init_writes_a_starter_but_never_scripts_evals_the_author_wrote() {
    let setup = Setup::new();
    let before = std::fs::read_to_string(setup.skill_dir().join("evals/evals.json")).unwrap();
    let (code, _, stderr) = run(setup.eval().arg("--init"));
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("holds evals you wrote"), "{stderr}");
    assert!(
        stderr.contains("\nhint: record them with `skill eval --impact "),
        "{stderr}"
    );
    assert!(
        stderr.contains("skill eval --impact skills/csv-report --mode record"),
        "{stderr}"
    );
    let after = std::fs::read_to_string(setup.skill_dir().join("evals/evals.json")).unwrap();
    assert_eq!(before, after);

    std::fs::remove_file(setup.skill_dir().join("evals/evals.json")).unwrap();
    let (code, stdout, stderr) = run(setup.eval().arg("--init"));
    assert_eq!(code, 0, "{stderr}");
    assert!(stdout.contains("recorded 6 cassettes"), "{stdout}");
    let starter = read_json(&setup.skill_dir().join("evals/evals.json"));
    assert_eq!(starter["evals"][0]["id"], "starter");
    assert_eq!(
        starter["evals"][0]["expectations"][0],
        "The answer mentions `csv-report`"
    );
    let (code, stdout, stderr) = setup.replay(&[]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    // A starter is written again, so it follows an edited description.
    let (code, _, _) = run(setup.eval().arg("--init"));
    assert_eq!(code, 0);
}

#[test]
fn a_blind_judge_sees_both_outputs_in_an_order_it_cannot_guess() {
    let setup = Setup::new();
    let worker = Worker::start();
    let (code, stdout, stderr) = setup.record(&worker, &["--runs", "3", "--blind"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        stdout.contains(
            "blind comparison       with_skill better in 6, without_skill better in 0, 0 ties"
        ),
        "{stdout}"
    );
    worker.stop();
    let mut first = Vec::new();
    for eval in ["eval-1", "eval-totals-only"] {
        let comparisons = read_json(&setup.iteration(1).join(eval).join("blind.json"));
        for comparison in comparisons.as_array().unwrap() {
            first.push(comparison["shown_first"].as_str().unwrap().to_owned());
        }
    }
    let first: Vec<&str> = first.iter().map(String::as_str).collect();
    assert!(
        first.contains(&"with_skill") && first.contains(&"without_skill"),
        "the order varies between runs: {first:?}"
    );
    // Against an earlier version, the judgements are others: asked for, with the command.
    let (code, _, stderr) = setup.replay(&[
        "--runs",
        "3",
        "--blind",
        "--baseline",
        setup.skill_dir().to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("--runs 3 --blind --mode record"),
        "the command records the judgements too: {stderr}"
    );
    let (code, replayed, stderr) = setup.replay(&["--runs", "3", "--blind", "--json"]);
    assert_eq!(code, 0, "{stderr}");
    let report = json(&replayed);
    assert_eq!(report["impact"][0]["blind"]["with_skill"], 6);
    assert_eq!(
        report["impact"][0]["evals"][0]["blind"][0]["winner"],
        "with_skill"
    );
}

/// A skill whose output is hostile HTML: the report must show it as text.
const HOSTILE: &str = "---\nname: csv-report\ndescription: Summarize CSV spreadsheets into a JSON report of totals. Use when the user shares a csv spreadsheet to summarize.\n---\n# CSV report\n\nWrite `report.json` containing `<script>document.title='pwned'</script><img src=x onerror=\"document.title='pwned'\">42`.\n";

#[test]
fn the_html_report_renders_in_chromium_with_no_script_from_the_outputs() {
    let setup = Setup::new();
    std::fs::write(setup.skill_dir().join("SKILL.md"), HOSTILE).unwrap();
    std::fs::write(
        setup.skill_dir().join("evals/triggers.yaml"),
        "queries:\n  - prompt: \"Summarize this csv spreadsheet\"\n    should_trigger: true\nruns: 1\n",
    )
    .unwrap();
    let worker = Worker::start();
    let (code, stdout, stderr) = setup.record(&worker, &["--runs", "2", "--blind"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    worker.stop();
    let page = setup.root.join("report.html");
    let (code, stdout, stderr) =
        setup.replay(&["--runs", "2", "--blind", "--report", page.to_str().unwrap()]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("<script"), "a script reached the page");
    assert!(!html.contains("<img"), "an image reached the page");
    assert!(html.contains("default-src &#x27;none&#x27;") || html.contains("default-src 'none'"));

    let profile = setup.root.join("chromium-profile");
    common::browser::assert_runs_scripts(&profile, &setup.root);
    let url = format!("file://{}", page.display());
    let dom = common::browser::dump_dom(&profile, &url);
    let select = |css: &str| scraper::Selector::parse(css).unwrap();
    let title: String = dom
        .select(&select("title"))
        .next()
        .unwrap()
        .text()
        .collect();
    assert_eq!(title, "Impact of csv-report");
    assert_eq!(dom.select(&select("script")).count(), 0);
    assert_eq!(dom.select(&select("img")).count(), 0);
    let bars: Vec<&str> = dom
        .select(&select("svg.bars g.bar"))
        .map(|g| g.value().attr("data-config").unwrap())
        .collect();
    assert_eq!(bars, ["with_skill", "without_skill"]);
    assert_eq!(dom.select(&select("svg.bars line.whisker")).count(), 2);
    let files: Vec<String> = dom
        .select(&select("pre.file"))
        .map(|p| p.text().collect())
        .collect();
    assert!(
        files
            .iter()
            .any(|f| f.starts_with("<script>document.title='pwned'</script>")),
        "the output is shown as text: {files:?}"
    );
    let sides: Vec<&str> = dom
        .select(&select(".side"))
        .map(|s| s.value().attr("data-config").unwrap())
        .collect();
    assert_eq!(sides.len(), 8, "two evals × two runs, side by side");
    let delta: String = dom
        .select(&select("td.delta"))
        .next()
        .unwrap()
        .text()
        .collect();
    assert!(delta.starts_with("+0.20 (95% interval"), "{delta}");
    let triggers: String = dom
        .select(&select("p.triggers"))
        .next()
        .unwrap()
        .text()
        .collect();
    assert!(
        triggers.contains("did not replay"),
        "no trigger cassettes: {triggers}"
    );
    let history = dom.select(&select("table.history tr")).count();
    assert_eq!(history, 3, "a header and iterations 1 and 2");
    assert_eq!(dom.select(&select("p.blind")).count(), 4);
    common::browser::screenshot(&profile, &url, "impact-report.png", (1280, 1600));
}

#[test]
fn an_unwritable_report_is_an_error_that_names_it() {
    let setup = Setup::new();
    let worker = Worker::start();
    let (code, _, _) = setup.record(&worker, &["--runs", "1"]);
    assert_eq!(code, 0);
    let (code, _, stderr) = setup.replay(&["--runs", "1", "--report", "no/such/folder/r.html"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("no/such/folder/r.html"), "{stderr}");
}

#[test]
fn commands_named_in_expectations_run_in_the_workspace_after_the_run() {
    let setup = Setup::new();
    std::fs::write(
        setup.skill_dir().join("evals/evals.json"),
        r#"{"skill_name": "csv-report", "evals": [{"id": 1,
          "prompt": "Summarize this csv spreadsheet of sales into a report",
          "expectations": ["`cat report.json` prints `42`", "Running `test -f report.json` succeeds",
                           "`false` exits 0"]}]}"#,
    )
    .unwrap();
    let worker = Worker::start();
    let (code, stdout, stderr) = setup.record(&worker, &["--runs", "1"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    worker.stop();
    let grading = |config: &str| {
        let path = setup
            .iteration(1)
            .join("eval-1")
            .join(config)
            .join("grading.json");
        read_json(&path)["expectations"].as_array().unwrap().clone()
    };
    let with = grading("with_skill");
    let passed: Vec<bool> = with
        .iter()
        .map(|g| g["passed"].as_bool().unwrap())
        .collect();
    assert_eq!(passed, [true, true, false], "{with:#?}");
    assert!(
        with.iter().all(|g| g["by"] == "code"),
        "no grader call: {with:#?}"
    );
    assert_eq!(
        with[0]["evidence"],
        "`cat report.json` printed \"{\"total\": 42}\""
    );
    let without = grading("without_skill");
    assert!(without.iter().all(|g| g["passed"] == false), "{without:#?}");
    assert!(
        without[0]["evidence"]
            .as_str()
            .unwrap()
            .starts_with("`cat report.json` failed: "),
        "{without:#?}"
    );
    let (code, _, stderr) = setup.replay(&["--runs", "1"]);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn a_baseline_revision_runs_no_filter_and_reads_no_other_repository() {
    let setup = Setup::new();
    // A skill folder that arrives with its own repository, whose configuration names a filter.
    let dir = setup.skill_dir();
    common::git(&dir, &["init", "-q"]);
    std::fs::write(dir.join(".gitattributes"), "*.md filter=x\n").unwrap();
    common::git(&dir, &["add", "."]);
    common::git(&dir, &["commit", "-qm", "one"]);
    let pwned = setup.root.join("pwned");
    common::git(
        &dir,
        &[
            "config",
            "filter.x.smudge",
            &format!("sh -c 'touch {}; cat'", pwned.display()),
        ],
    );
    common::git(
        &dir,
        &[
            "config",
            "core.fsmonitor",
            &format!("touch {}", pwned.display()),
        ],
    );
    let worker = Worker::start();
    let (code, stdout, stderr) = setup.record(&worker, &["--runs", "1", "--baseline", "HEAD"]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        !pwned.exists(),
        "a command of the repository's configuration ran"
    );
    let old = setup
        .iteration(1)
        .join("eval-1/old_skill/outputs/report.json");
    assert!(old.is_file(), "the revision's SKILL.md was read as stored");

    // A `.git` file pointing at another repository is refused.
    let victim = setup.root.join("victim");
    std::fs::create_dir_all(&victim).unwrap();
    common::git(&victim, &["init", "-q"]);
    std::fs::write(victim.join("SKILL.md"), CSV).unwrap();
    std::fs::write(victim.join("secret.txt"), "TOP SECRET").unwrap();
    common::git(&victim, &["add", "."]);
    common::git(&victim, &["commit", "-qm", "victim"]);
    std::fs::remove_dir_all(dir.join(".git")).unwrap();
    std::fs::write(
        dir.join(".git"),
        format!("gitdir: {}\n", victim.join(".git").display()),
    )
    .unwrap();
    let (code, _, stderr) = setup.replay(&["--runs", "1", "--baseline", "HEAD"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("keeps its history elsewhere"), "{stderr}");
}

#[test]
fn iterations_are_never_written_inside_the_skill_folder() {
    let setup = Setup::new();
    let worker = Worker::start();
    let (code, _, stderr) = setup.record(&worker, &["--runs", "1"]);
    assert_eq!(code, 0, "{stderr}");
    worker.stop();
    // Run from inside the skill folder with no path: the iteration still goes beside it.
    let (code, stdout, stderr) = run(setup
        .impact()
        .current_dir(setup.skill_dir())
        .args(["--runs", "1"]));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    assert!(
        setup.iteration(2).join("benchmark.json").is_file(),
        "{stdout}"
    );
    assert!(!setup.skill_dir().join("csv-report-workspace").exists());
    let inside = setup.skill_dir().join("results");
    let (code, _, stderr) = setup.replay(&["--runs", "1", "--workspace", inside.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("is inside the skill folder"), "{stderr}");
    assert!(
        stderr.ends_with("\nhint: write iterations outside it with --workspace DIR\n"),
        "{stderr}"
    );
    assert!(!inside.exists());
}

#[test]
fn mode_auto_records_the_grader_again_with_the_run_it_grades() {
    let setup = Setup::new();
    let worker = Worker::start();
    let (code, _, stderr) = setup.record(&worker, &["--runs", "1"]);
    assert_eq!(code, 0, "{stderr}");
    // The skill now writes another report; its runs' cassettes are deleted to be recorded
    // again, and the grader's, about the old report, are left.
    let skill_md = setup.skill_dir().join("SKILL.md");
    std::fs::write(&skill_md, CSV.replace("{\"total\": 42}", "{\"total\": 43}")).unwrap();
    let cassettes = setup.skill_dir().join("evals/cassettes/impact");
    for eval in ["eval-1", "eval-totals-only"] {
        std::fs::remove_file(cassettes.join(eval).join("with_skill.1.yaml")).unwrap();
    }
    assert!(cassettes.join("eval-1/with_skill.1.grade.yaml").is_file());
    let (code, stdout, stderr) = run(setup
        .eval()
        .args(["--runs", "1", "--mode", "auto", "--provider", "openai"])
        .args(["--model", "worker", "--base-url", &worker.base]));
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let (code, _, stderr) = setup.replay(&["--runs", "1"]);
    assert_eq!(code, 0, "the new recordings replay: {stderr}");
}

#[test]
fn two_skills_of_one_name_are_refused_one_workspace() {
    let setup = Setup::new();
    let other = setup.root.join("more/csv-report");
    common::copy_tree(&setup.skill_dir(), &other);
    let (code, _, stderr) = run(setup
        .eval()
        .arg("more/csv-report")
        .args(["--workspace", "ws"]));
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("two skills are named csv-report"),
        "{stderr}"
    );
    assert!(!setup.root.join("ws").exists());
}
