//! The mention block against the oracle: the user message `skill try` sends for a prompt that
//! names a skill with `$name` is, byte for byte, what nanobot 0.3.5's `ContextBuilder` makes of
//! the same prompt and the same skills folder (`build_explicit_skill_runtime_context`, then
//! `append_runtime_context`). Needs the nanobot-ai==0.3.5 venv that `.ci/run` installs.

use crate::common;
use common::needs::{Need, lacks};

use common::router::Router;
use common::{json, run, skill, write_skill};
use std::path::Path;

const NANOBOT: &str = r#"
import sys
from pathlib import Path
from nanobot.agent.skills import SkillsLoader
from nanobot.runtime_context import append_runtime_context
loader = SkillsLoader(Path(sys.argv[1]))
block = loader.build_explicit_skill_runtime_context(sys.argv[2])
sys.stdout.write(append_runtime_context(sys.argv[2], [block])[0])
"#;

#[test]
fn a_mention_appends_what_nanobot_appends() {
    if lacks(&[Need::Nanobot]) {
        return;
    }
    let python =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("target/test-deps/nanobot-venv/bin/python");
    assert!(
        python.exists(),
        "{} is missing: run .ci/run, which installs nanobot-ai==0.3.5",
        python.display()
    );
    let temp = tempfile::tempdir().unwrap();
    let source = write_skill(
        &temp.path().join("src"),
        "csv-report",
        "---\nname: csv-report\ndescription: Summarize CSV files. Use when the user shares a csv file.\n---\n\n# CSV report\n\nSummarize every column.\n\n",
    );
    let workspace = temp.path().join("ws");
    let prompt = "Summarize data.csv with $csv-report please";
    let router = Router::start();
    let (code, stdout, stderr) = run(skill()
        .env("HOME", temp.path())
        .env("OPENAI_API_KEY", "k")
        .env_remove("OPENAI_BASE_URL")
        .arg("try")
        .arg(&source)
        .arg("--workspace")
        .arg(&workspace)
        .args([
            "-p",
            prompt,
            "--json",
            "--no-sandbox",
            "--provider",
            "openai",
        ])
        .args(["--model", "router", "--base-url", &router.base]));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(json(&stdout)["turns"], 1);
    let sent = router.requests()[0]["messages"][1]["content"]
        .as_str()
        .unwrap()
        .to_owned();
    let out = std::process::Command::new(&python)
        .args(["-c", NANOBOT])
        .arg(&workspace)
        .arg(prompt)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(sent, String::from_utf8(out.stdout).unwrap());
    assert!(sent.contains(
        "[Active Skills — instructions for this user turn]\n### Skill: csv-report\n\n# CSV report"
    ));
}
