//! `skill eval` end to end: a scripted OpenAI-compatible model on loopback that routes by the
//! words a prompt shares with each skill's description (tests/common/router.rs), the real
//! binary, and temp folders. Recall, false rate, routing table, stealing, thresholds, exit
//! codes, JSON, JUnit, record → replay with the server stopped, the mismatch after a
//! description edit, and the four ways a skill reaches the model.

use crate::common;

use common::router::Router;
use common::{json, run, skill, write_skill};
use std::path::{Path, PathBuf};

const CSV: &str = "---\nname: csv-report\ndescription: Summarize CSV spreadsheets into Markdown tables. Use when the user shares a csv spreadsheet to summarize.\n---\n# CSV report\n\nRead the csv spreadsheet, summarize every column into a Markdown table, and draw bar charts of the totals.\n";
const CHARTS: &str = "---\nname: bar-charts\ndescription: Draw bar charts and line charts from numbers. Use when the user wants charts drawn.\n---\n# Charts\n\nDraw the charts with matplotlib.\n";
const PDF: &str = "---\nname: pdf-forms\ndescription: Fill PDF forms and read their fields. Use when the user asks to fill a PDF form.\n---\n# PDF forms\n\nFill the form fields.\n";

const TRIGGERS: &str = "queries:
  - prompt: \"Summarize this csv spreadsheet for me\"
    should_trigger: true
  - prompt: \"Draw bar charts from this csv spreadsheet\"
    should_trigger: true
  - prompt: \"What is the capital of France?\"
    should_trigger: false
  - prompt: \"Fill the PDF form for my visa\"
    should_trigger: false
runs: 2
min_recall: 0.8
max_false_rate: 0.1
";

struct Setup {
    _temp: tempfile::TempDir,
    root: PathBuf,
    csv: PathBuf,
}

fn setup(triggers: &str) -> Setup {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().to_owned();
    let skills = root.join("skills");
    let csv = write_skill(&skills, "csv-report", CSV);
    write_skill(&skills, "bar-charts", CHARTS);
    write_skill(&skills, "pdf-forms", PDF);
    std::fs::create_dir_all(csv.join("evals")).unwrap();
    std::fs::write(csv.join("evals/triggers.yaml"), triggers).unwrap();
    Setup {
        _temp: temp,
        root,
        csv,
    }
}

fn eval(setup: &Setup) -> assert_cmd::Command {
    let mut cmd = skill();
    for var in ["OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "SKILL_RECORD", "CI"] {
        cmd.env_remove(var);
    }
    cmd.current_dir(&setup.root)
        .env("HOME", &setup.root)
        .env("SKILL_CACHE_DIR", setup.root.join("cache"))
        .env("OPENAI_API_KEY", "test-key")
        .arg("eval");
    cmd
}

fn record(setup: &Setup, router: &Router, extra: &[&str]) -> (i32, String, String) {
    run(eval(setup)
        .arg("skills/csv-report")
        .args([
            "--with",
            "skills",
            "--mode",
            "record",
            "--provider",
            "openai",
        ])
        .args(["--model", "router", "--base-url", &router.base])
        .args(extra))
}

fn replay(setup: &Setup, extra: &[&str]) -> (i32, String, String) {
    run(eval(setup)
        .arg("skills/csv-report")
        .args(["--with", "skills"])
        .args(extra))
}

fn cassettes(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().is_file())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn recall_false_rate_routing_and_stealing_recorded_then_replayed_offline() {
    let setup = setup(TRIGGERS);
    let router = Router::start();
    let (code, stdout, stderr) = record(&setup, &router, &[]);
    // csv-report loses the charts query to bar-charts (3 words against 2): recall 2/4.
    assert_eq!(code, 1, "{stdout}{stderr}");
    // One request per run: each run stops at the model's first choice.
    assert_eq!(router.calls(), 8);
    let expected = "FAIL csv-report: recall 0.50 (2/4), false rate 0.00 (0/4)
  - recall 0.50 (2 of 4 runs) is below min_recall 0.80
  want  read (each run)  prompt
  yes   csv-report csv-report  Summarize this csv spreadsheet for me
! yes   bar-charts bar-charts  Draw bar charts from this csv spreadsheet
  no    - -  What is the capital of France?
  no    pdf-forms pdf-forms  Fill the PDF form for my visa
  bar-charts took 2 of csv-report's should-trigger runs
0 passed, 1 failed (8 distractor skills)
";
    assert_eq!(stdout, expected);
    let dir = setup.csv.join("evals/cassettes/triggers");
    assert_eq!(
        cassettes(&dir),
        [
            "q01-summarize-this-csv-spreadsheet-for-me.1.yaml",
            "q01-summarize-this-csv-spreadsheet-for-me.2.yaml",
            "q02-draw-bar-charts-from-this-csv.1.yaml",
            "q02-draw-bar-charts-from-this-csv.2.yaml",
            "q03-what-is-the-capital-of-france.1.yaml",
            "q03-what-is-the-capital-of-france.2.yaml",
            "q04-fill-the-pdf-form-for-my.1.yaml",
            "q04-fill-the-pdf-form-for-my.2.yaml",
        ]
    );
    router.stop();

    // The server is gone: the replay (the default) answers from the cassettes alone.
    let (code, replayed, stderr) = replay(&setup, &[]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(replayed, expected);

    let (code, stdout, _) = replay(&setup, &["--json"]);
    assert_eq!(code, 1);
    let report = json(&stdout);
    let csv = &report["skills"][0];
    assert_eq!(report["version"], 1);
    assert_eq!(csv["name"], "csv-report");
    assert_eq!(csv["recall"], 0.5);
    assert_eq!(csv["recall_runs"], serde_json::json!({"read": 2, "of": 4}));
    assert_eq!(csv["false_rate"], 0.0);
    assert_eq!(csv["passed"], false);
    assert_eq!(
        csv["queries"][1]["prompt"],
        "Draw bar charts from this csv spreadsheet"
    );
    assert_eq!(csv["queries"][1]["should_trigger"], true);
    assert_eq!(csv["queries"][1]["runs"][0]["read"], "bar-charts");
    assert_eq!(
        csv["queries"][2]["runs"][1]["read"],
        serde_json::Value::Null
    );
    assert_eq!(csv["queries"][0]["runs"][0]["stop"], "routed");
    assert_eq!(csv["queries"][2]["runs"][0]["stop"], "answer");
    assert_eq!(
        csv["stolen_by"],
        serde_json::json!([{"name": "bar-charts", "runs": 2}])
    );
    let distractors: Vec<&str> = report["distractors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert_eq!(
        distractors,
        [
            "bar-charts",
            "pdf-forms",
            "docker",
            "github",
            "safe-shell",
            "skill-creator",
            "skill-registry",
            "tmux"
        ]
    );

    let junit = setup.root.join("eval.xml");
    let (code, _, _) = replay(&setup, &["--junit", junit.to_str().unwrap()]);
    assert_eq!(code, 1);
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<testcase ").count(), 4, "{xml}");
    assert!(
        xml.contains(
            "<testsuite name=\"csv-report\" tests=\"4\" skipped=\"0\" errors=\"0\" failures=\"1\""
        ),
        "{xml}"
    );
    assert!(
        xml.contains("name=\"Draw bar charts from this csv spreadsheet\" classname=\"csv-report\" file=\"skills/csv-report/evals/triggers.yaml\" line=\"4\">\n            <failure message=\"should trigger: 0 of 2 runs right (read: bar-charts, bar-charts)\">"),
        "{xml}"
    );
}

#[test]
fn thresholds_decide_the_exit_code() {
    // The same routing passes thresholds it meets.
    let lenient = TRIGGERS.replace("min_recall: 0.8", "min_recall: 0.5");
    let setup = setup(&lenient);
    let router = Router::start();
    let (code, stdout, _) = record(&setup, &router, &["--runs", "1"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.starts_with("PASS csv-report: recall 0.50 (1/2), false rate 0.00 (0/2)\n"));
    assert!(stdout.ends_with("1 passed, 0 failed (8 distractor skills)\n"));
    // A false trigger: the France query reads csv-report once its description says so.
    let greedy = setup.root.join("greedy");
    write_skill(
        &greedy,
        "csv-report",
        CSV.replace(
            "spreadsheet to summarize.",
            "spreadsheet, or asks what the capital of France is.",
        ),
    );
    std::fs::create_dir_all(greedy.join("csv-report/evals")).unwrap();
    std::fs::write(greedy.join("csv-report/evals/triggers.yaml"), &lenient).unwrap();
    let (code, stdout, _) = run(eval(&setup)
        .arg("greedy/csv-report")
        .args(["--with", "skills", "--mode", "live", "--runs", "1"])
        .args([
            "--provider",
            "openai",
            "--model",
            "router",
            "--base-url",
            &router.base,
        ]));
    assert_eq!(code, 1, "{stdout}");
    assert!(
        stdout.contains("  - false rate 0.50 (1 of 2 runs) is above max_false_rate 0.10\n"),
        "{stdout}"
    );
    // Live mode writes no cassette.
    assert!(!greedy.join("csv-report/evals/cassettes").exists());
}

#[test]
fn a_description_edit_makes_the_replay_ask_for_a_new_recording() {
    let setup = setup(TRIGGERS);
    let router = Router::start();
    let (code, stdout, stderr) = record(&setup, &router, &["--runs", "1"]);
    assert_eq!(code, 1, "recall 0.50 is under 0.8: {stdout}{stderr}");
    router.stop();
    let skill_md = setup.csv.join("SKILL.md");
    let edited = CSV.replace("Summarize CSV spreadsheets", "Summarise CSV spreadsheets");
    std::fs::write(&skill_md, edited).unwrap();
    let (code, stdout, stderr) = replay(&setup, &["--runs", "1"]);
    assert_eq!(code, 2, "{stdout}");
    assert!(
        stderr.starts_with(
            "error: csv-report: query at skills/csv-report/evals/triggers.yaml:2, run 1: "
        ),
        "{stderr}"
    );
    assert!(stderr.contains("Summarise CSV spreadsheets"), "{stderr}");
    assert!(
        stderr.contains("skill eval skills/csv-report --with skills --runs 1 --mode record"),
        "{stderr}"
    );
    // A run never recorded is named, with the command that records it.
    std::fs::write(&skill_md, CSV).unwrap();
    let (code, _, stderr) = replay(&setup, &["--runs", "2"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("q01-summarize-this-csv-spreadsheet-for-me.2.yaml: no cassette for this query and run\nRecord them with: skill eval skills/csv-report --with skills --runs 2 --mode record"), "{stderr}");
}

#[test]
fn trigger_sets_are_checked_before_any_model_call() {
    let setup = setup(
        "queries:\n  - prompt: \"Summarize this csv\"\n    should_trigger: true\nmin_recall: 1.5\n",
    );
    let router = Router::start();
    let (code, _, stderr) = record(&setup, &router, &[]);
    assert_eq!(code, 2);
    assert_eq!(
        stderr,
        "error: skills/csv-report/evals/triggers.yaml:4: min_recall is 1.5: it is a share of runs, from 0.0 to 1.0 (0.8 means 80%)\n"
    );
    std::fs::write(
        setup.csv.join("evals/triggers.yaml"),
        "queries:\n  - prompt: \"Summarize this csv\"\n    should_trigger: maybe\n",
    )
    .unwrap();
    let (code, _, stderr) = record(&setup, &router, &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("skills/csv-report/evals/triggers.yaml: not a trigger set: "),
        "{stderr}"
    );
    assert!(stderr.contains("line 3"), "{stderr}");
    std::fs::remove_file(setup.csv.join("evals/triggers.yaml")).unwrap();
    let (code, _, stderr) = record(&setup, &router, &[]);
    assert_eq!(code, 2);
    assert!(
        stderr.starts_with("error: skills/csv-report: no evals/triggers.yaml"),
        "{stderr}"
    );
    assert_eq!(router.calls(), 0);
}

#[test]
fn compare_via_shows_a_skill_that_only_works_when_named() {
    let setup = setup(TRIGGERS);
    let router = Router::start();
    let (code, stdout, stderr) = record(&setup, &router, &["--runs", "1", "--compare-via"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    // Named, mentioned or preloaded, the body is in the prompt and wins the charts query too.
    assert!(
        stdout.contains(
            "  via      recall       false rate
  summary  0.50 (1/2)   0.00 (0/2)
  always   1.00 (2/2)   -
  mention  1.00 (2/2)   -
  preload  1.00 (2/2)   -
"
        ),
        "{stdout}"
    );
    // Each way has its own cassettes, with nanobot's texts in the requests.
    let requests = router.requests();
    let mention = requests
        .iter()
        .map(|r| {
            r["messages"][1]["content"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .find(|c| c.contains("[Active Skills"))
        .unwrap();
    assert_eq!(
        mention,
        "Summarize this csv spreadsheet for me\n\n[Active Skills — instructions for this user turn]\n### Skill: csv-report\n\n# CSV report\n\nRead the csv spreadsheet, summarize every column into a Markdown table, and draw bar charts of the totals.\n[/Active Skills]"
    );
    let preload = requests
        .iter()
        .map(|r| {
            r["messages"][0]["content"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .find(|c| c.contains("# Specified Skills"))
        .unwrap();
    assert!(
        preload
            .contains("\n\n---\n\n# Specified Skills\n\n### Skill: csv-report\n\n# CSV report\n")
    );
    let always = requests
        .iter()
        .map(|r| {
            r["messages"][0]["content"]
                .as_str()
                .unwrap_or("")
                .to_owned()
        })
        .find(|c| c.contains("### Skill: csv-report") && !c.contains("# Specified Skills"))
        .unwrap();
    assert!(always.contains("# Active Skills\n\n"));
    router.stop();
    for via in ["always", "mention", "preload"] {
        assert_eq!(
            cassettes(&setup.csv.join("evals/cassettes/triggers").join(via)).len(),
            4
        );
    }
    let (code, replayed, stderr) = replay(&setup, &["--runs", "1", "--compare-via"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(replayed, stdout);
}

#[test]
fn scenarios_fail_on_token_and_turn_regressions_and_take_a_way() {
    let setup = setup(TRIGGERS);
    let router = Router::start();
    let scenario = |expect: &str| {
        format!(
            "prompt: \"Summarize this csv spreadsheet for me\"\nvia: mention\nexpect:\n{expect}"
        )
    };
    let evals = setup.csv.join("evals");
    std::fs::write(
        evals.join("loaded.yaml"),
        scenario("  max_tokens: 110\n  max_turns_used: 1\n"),
    )
    .unwrap();
    let test = |mode: &str| {
        let mut cmd = skill();
        for var in ["OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "SKILL_RECORD", "CI"] {
            cmd.env_remove(var);
        }
        cmd.current_dir(&setup.root)
            .env("HOME", &setup.root)
            .env("SKILL_CACHE_DIR", setup.root.join("cache"))
            .env("OPENAI_API_KEY", "test-key")
            .args(["test", "skills/csv-report", "--no-sandbox", "--mode", mode])
            .args([
                "--provider",
                "openai",
                "--model",
                "router",
                "--base-url",
                &router.base,
            ]);
        run(&mut cmd)
    };
    // Mentioned, the skill is used without a read: one turn, 110 tokens. triggers.yaml is not
    // taken for a scenario.
    let (code, stdout, stderr) = test("record");
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.starts_with("PASS  csv-report/loaded (1 turn, "),
        "{stdout}"
    );
    assert!(stdout.ends_with("1 passed, 0 failed\n"), "{stdout}");
    std::fs::write(
        evals.join("loaded.yaml"),
        scenario("  max_tokens: 100\n  max_turns_used: 0\n"),
    )
    .unwrap();
    let (code, stdout, _) = test("replay");
    assert_eq!(code, 1);
    assert!(stdout.contains("      - the run used 110 tokens (100 in, 10 out), more than max_tokens 100\n      - the run took 1 turns, more than max_turns_used 0\n"), "{stdout}");
}

#[test]
fn try_takes_mentions_and_preloads() {
    let setup = setup(TRIGGERS);
    let router = Router::start();
    let try_cmd = |extra: &[&str]| {
        let mut cmd = skill();
        for var in ["OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "SKILL_RECORD", "CI"] {
            cmd.env_remove(var);
        }
        cmd.current_dir(&setup.root)
            .env("HOME", &setup.root)
            .env("OPENAI_API_KEY", "test-key")
            .args([
                "try",
                "skills/csv-report",
                "skills/bar-charts",
                "--json",
                "--no-sandbox",
            ])
            .args([
                "--provider",
                "openai",
                "--model",
                "router",
                "--base-url",
                &router.base,
            ])
            .args(extra);
        run(&mut cmd)
    };
    let (code, stdout, _) = try_cmd(&[
        "-p",
        "Draw bar charts from this csv spreadsheet, @csv-report",
    ]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(
        json(&stdout)["final_answer"],
        "Done, following the csv-report skill."
    );
    let (code, stdout, _) = try_cmd(&[
        "-p",
        "Summarize this csv spreadsheet",
        "--preload",
        "bar-charts",
    ]);
    assert_eq!(code, 0, "{stdout}");
    assert_eq!(
        json(&stdout)["skills_read"],
        serde_json::json!(["csv-report"])
    );
    let (code, _, stderr) = try_cmd(&["-p", "x", "--mention", "nope"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("no installed skill is named 'nope'"),
        "{stderr}"
    );
}

#[test]
fn builtins_and_new_skills_ship_trigger_sets_that_replay() {
    let setup = setup(TRIGGERS);
    let (code, stdout, stderr) = run(eval(&setup).arg("--builtin"));
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.ends_with("6 passed, 0 failed (0 distractor skills)\n"),
        "{stdout}"
    );
    let mut new = skill();
    new.current_dir(&setup.root)
        .env("HOME", &setup.root)
        .env("SKILL_CACHE_DIR", setup.root.join("cache"))
        .args(["new", "mine", "--template", "cli-tool", "--dir", "made"]);
    let (code, stdout, _) = run(&mut new);
    assert_eq!(code, 0);
    assert!(
        stdout.contains("  evals/triggers.yaml (and its cassettes)\n"),
        "{stdout}"
    );
    let (code, stdout, _) = run(eval(&setup).arg("made/mine"));
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.starts_with("PASS mine: recall 1.00 (1/1), false rate 0.00 (0/1)\n"),
        "{stdout}"
    );
    // The starter is a real recording: editing the description asks for a new one.
    let skill_md = setup.root.join("made/mine/SKILL.md");
    let text = std::fs::read_to_string(&skill_md).unwrap();
    std::fs::write(
        &skill_md,
        text.replacen("description: ", "description: Edited. ", 1),
    )
    .unwrap();
    let (code, _, stderr) = run(eval(&setup).arg("made/mine"));
    assert_eq!(code, 2);
    assert!(stderr.contains("does not match the recording"), "{stderr}");
    assert!(
        stderr.contains("skill eval made/mine --mode record"),
        "{stderr}"
    );
}

#[test]
fn an_agent_preset_brings_its_installed_skills_as_distractors() {
    let setup = setup(TRIGGERS);
    let installed = setup.root.join(".nanobot/workspace/skills");
    write_skill(&installed, "bar-charts", CHARTS);
    let router = Router::start();
    let (code, stdout, stderr) = run(eval(&setup)
        .args([
            "skills/csv-report",
            "--agent",
            "nanobot",
            "--mode",
            "live",
            "--runs",
            "1",
            "--json",
        ])
        .args([
            "--provider",
            "openai",
            "--model",
            "router",
            "--base-url",
            &router.base,
        ]));
    assert_eq!(code, 1, "{stderr}");
    let report = json(&stdout);
    assert_eq!(report["distractors"][0], "bar-charts");
    assert_eq!(
        report["skills"][0]["queries"][1]["runs"][0]["read"],
        "bar-charts"
    );
    // pdf-forms is not installed for nanobot: the PDF query reads nothing.
    assert_eq!(
        report["skills"][0]["queries"][3]["runs"][0]["read"],
        serde_json::Value::Null
    );
}

/// Ledger questions share no word with csv-report's description until a proposal adds them.
const QUERIES: &str = r#"[
  {"query": "Summarize this csv spreadsheet for me", "should_trigger": true},
  {"query": "Total up the invoices in this ledger export", "should_trigger": true},
  {"query": "Add the ledger invoices by month", "should_trigger": true},
  {"query": "Which ledger invoices are overdue", "should_trigger": true},
  {"query": "Sum the invoices of the ledger per client", "should_trigger": true},
  {"query": "Make a markdown table from the csv", "should_trigger": true},
  {"query": "What is the capital of France?", "should_trigger": false},
  {"query": "Fill the PDF form for my visa", "should_trigger": false},
  {"query": "Write a haiku about autumn", "should_trigger": false}
]"#;

#[test]
fn improve_description_proposes_from_train_failures_and_picks_by_validation() {
    let setup = setup(TRIGGERS);
    std::fs::write(setup.csv.join("evals/eval_queries.json"), QUERIES).unwrap();
    let router = Router::start();
    let (code, recorded, stderr) =
        record(&setup, &router, &["--improve-description", "--runs", "1"]);
    assert_eq!(code, 0, "{recorded}\n{stderr}");
    router.stop();
    assert!(
        recorded.starts_with("csv-report: 2 candidates (queries: skills/csv-report/evals/eval_queries.json, 6 train / 3 validation, limit 1024 characters)\n"),
        "{recorded}"
    );
    let winner = recorded
        .lines()
        .find(|l| l.starts_with("  candidate 1: "))
        .unwrap_or_else(|| panic!("{recorded}"));
    assert!(
        winner.contains("train 6/6 (now 3/6), validation 3/3 (now 2/3)"),
        "{winner}"
    );
    assert!(
        recorded.contains("\n+ description: Summarize CSV spreadsheets"),
        "{recorded}"
    );
    assert!(recorded.contains("ledger"), "{recorded}");
    let proposals = setup
        .csv
        .join("evals/cassettes/improve/iteration-1/propose.yaml");
    assert!(proposals.is_file());
    // The proposer saw only train failures: no validation query reached it.
    let (_, validation) = skill_agent::eval::improve::split(
        &skill_agent::eval::improve::load_queries(&setup.csv)
            .unwrap()
            .1,
    );
    let cassette = std::fs::read_to_string(&proposals).unwrap();
    for query in validation {
        assert!(!cassette.contains(&query.prompt), "{} leaked", query.prompt);
    }

    let (code, replayed, stderr) = replay(&setup, &["--improve-description", "--runs", "1"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(replayed, recorded);
    let (code, json_out, _) = replay(&setup, &["--improve-description", "--runs", "1", "--json"]);
    assert_eq!(code, 0);
    let document = json(&json_out);
    assert_eq!(document["improve_description"][0]["winner"], 1);

    // Edited queries are a new measurement, which the cassettes do not hold.
    std::fs::write(
        setup.csv.join("evals/eval_queries.json"),
        QUERIES.replace("overdue", "late"),
    )
    .unwrap();
    let (code, _, stderr) = replay(&setup, &["--improve-description", "--runs", "1"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--improve-description"), "{stderr}");
}

#[test]
fn improve_description_refuses_queries_it_cannot_split() {
    let setup = setup(TRIGGERS);
    for (content, says) in [
        (
            "[{\"query\": \"a\", \"should_trigger\": true}]",
            "at least two queries",
        ),
        ("{\"query\": 1}", "line 1 column 0: not a list"),
        (
            "[{\"query\": \"a\", \"should_trigger\": true, \"extra\": 1}]",
            "unknown field",
        ),
    ] {
        std::fs::write(setup.csv.join("evals/eval_queries.json"), content).unwrap();
        let (code, _, stderr) = replay(&setup, &["--improve-description"]);
        assert_eq!(code, 2, "{content}: {stderr}");
        assert!(stderr.contains(says), "{content}: {stderr}");
        assert!(stderr.contains("eval_queries.json"), "{stderr}");
    }
}
