//! What `undeclared-bin` and `description-no-trigger` make of real-looking skills: the classes
//! of false findings the labelled corpus sample showed (tests/precision), each beside a skill
//! whose finding still stands.

use crate::common;

use common::{json, run, skill, write_skill};
use std::path::Path;

/// `skill lint --select select` on `dir` without the cache: the exit code, and each skill's
/// name with its findings' `field` (`"message"`, `"code"`), in the report's order.
fn findings(dir: &Path, select: &str, field: &str) -> (i32, Vec<(String, Vec<String>)>) {
    let (code, stdout, stderr) = run(skill()
        .args(["lint", "--format", "json", "--no-cache", "--select", select])
        .arg(dir));
    let report = json(&stdout);
    let skills = report["skills"]
        .as_array()
        .unwrap_or_else(|| panic!("{stdout}{stderr}"))
        .iter()
        .map(|s| {
            let found = s["diagnostics"]
                .as_array()
                .unwrap_or_else(|| panic!("{stdout}{stderr}"))
                .iter()
                .map(|d| d[field].as_str().unwrap().to_owned())
                .collect();
            (s["name"].as_str().unwrap_or_default().to_owned(), found)
        })
        .collect();
    (code, skills)
}

/// The findings' `field` of the one skill linted in `dir`, the exit code being 0 or 1.
fn findings_of_one(dir: &Path, select: &str, field: &str) -> Vec<String> {
    let (code, mut skills) = findings(dir, select, field);
    assert!(code == 0 || code == 1, "exit {code}");
    skills.remove(0).1
}

/// The messages of `rule`'s findings on a skill whose SKILL.md is `skill_md`.
fn messages(skill_md: String, rule: &str) -> Vec<String> {
    let tmp = tempfile::tempdir().unwrap();
    let dir = write_skill(tmp.path(), "my-skill", skill_md);
    findings_of_one(&dir, rule, "message")
}

/// The names `rule` reports (the first quoted name of each message) for a ClawHub-style skill
/// whose body is `body`.
fn reported_names(body: &str, rule: &str) -> Vec<String> {
    let text = format!(
        "---\nname: my-skill\ndescription: Reads the weather. Use when the user asks about the weather.\nmetadata: {{\"openclaw\": {{\"requires\": {{\"bins\": [\"wx\"]}}}}}}\n---\n\n# Weather\n\n{body}"
    );
    messages(text, rule)
        .iter()
        .map(|m| m.split('\'').nth(1).unwrap().to_owned())
        .collect()
}

/// The commands `undeclared-bin` reports for a ClawHub-style skill whose body is `body`.
fn undeclared(body: &str) -> Vec<String> {
    reported_names(body, "undeclared-bin")
}

/// `n` sections, each a shell block running `wx`, then `extra` as one more section.
fn sections(n: usize, extra: &str) -> String {
    let mut body = String::new();
    for i in 0..n {
        body.push_str(&format!(
            "## Step {i}\n\n```bash\nwx today --city c{i}\n```\n\n"
        ));
    }
    body + extra
}

#[test]
fn a_command_shown_once_among_many_blocks_is_a_side_use() {
    let once = "## Scripting\n\n```bash\nwx totals > sums.txt && bc -l sums.txt\n```\n";
    assert_eq!(undeclared(&sections(5, once)), Vec::<String>::new());
    // The same line in a short body is the skill's own work.
    assert_eq!(undeclared(&sections(2, once)), ["bc"]);
    // Run in two blocks, it recurs: a tool the skill needs.
    let twice = format!("{once}\n## Again\n\n```bash\nbc -l < sums.txt\n```\n");
    assert_eq!(undeclared(&sections(5, &twice)), ["bc"]);
    // Named in the prose as a command to run, it is needed too.
    let told = format!("Always pipe the totals through `bc -l`.\n\n{once}");
    assert_eq!(undeclared(&sections(5, &told)), ["bc"]);
    // Blocks that run nothing the skill needs (installs, exports) do not make a body long.
    let installs = "## Install\n\n```bash\nbrew install wxcli\n```\n\n```bash\nexport WX_UNITS=metric\n```\n\n```bash\npip install wx-extras\n```\n\n```bash\nnpm install -g wx-plot\n```\n\n## Use\n\n```bash\nwxcli today > t.json && jq .temp t.json\n```\n";
    assert_eq!(undeclared(installs), ["wxcli", "jq"]);
}

#[test]
fn a_command_that_only_reads_another_commands_output_is_an_extra() {
    // Pretty-printing an answer or one scripting example: the skill works without the filter.
    let body = "```bash\nwx today --json | jq -r .temp\n```\n\n```bash\nwx week \\\n  | jq '.days[]'\n```\n";
    assert_eq!(undeclared(body), Vec::<String>::new());
    // Run on its own anywhere, it is a tool the skill needs; `||` is a list, not a pipe.
    let alone = format!("{body}\n```bash\njq .temp saved.json\n```\n");
    assert_eq!(undeclared(&alone), ["jq"]);
    let fallback = "```bash\nwx today || wxfallback today\n```\n";
    assert_eq!(undeclared(fallback), ["wxfallback"]);
    // Named in the prose as a command to run, it is needed too.
    let told = format!("Always filter the answer with `jq -r .temp`.\n\n{body}");
    assert_eq!(undeclared(&told), ["jq"]);
}

#[test]
fn a_function_one_block_defines_is_not_a_command_of_the_next() {
    let body = "```bash\ncheckcity() {\n  wx today --city \"$1\"\n}\n```\n\nThen:\n\n```bash\ncheckcity paris\n```\n";
    assert_eq!(undeclared(body), Vec::<String>::new());
    let undefined = "```bash\ncheckcity paris\n```\n";
    assert_eq!(undeclared(undefined), ["checkcity"]);
}

#[test]
fn a_function_a_shipped_script_defines_is_the_skills_own() {
    let tmp = tempfile::tempdir().unwrap();
    let text = "---\nname: my-skill\ndescription: Reads the weather. Use when the user asks about the weather.\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"wx\"]}}}\n---\n\n# Weather\n\n```bash\nsource scripts/wx.sh\nwxrpc today\nwxrpc alerts\n```\n";
    let dir = write_skill(tmp.path(), "my-skill", text);
    let undeclared = |script: &str| {
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(dir.join("scripts/wx.sh"), script).unwrap();
        findings_of_one(&dir, "undeclared-bin", "message")
    };
    let defines = "#!/bin/sh\nwxrpc() {\n  wx \"$@\"\n}\n";
    assert_eq!(undeclared(defines), Vec::<String>::new());
    // A script that does not define it leaves the body running a program of that name.
    let found = undeclared("#!/bin/sh\nwx \"$@\"\n");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("'wxrpc' is run"), "{found:?}");
}

#[test]
fn names_joined_with_underscores_are_not_programs() {
    // Shell functions defined elsewhere, an agent's tools, placeholders of an example.
    let body = "```bash\nwx today\nsage_rpc get_sync_status '{}'\nweb_search \"rain in paris\"\nprocess_data || true\n```\n";
    assert_eq!(undeclared(body), Vec::<String>::new());
    // Programs are named with hyphens, and PostgreSQL's and MySQL's with underscores too.
    let programs = "```bash\nwx today | yt-dlp -a -\npg_dump wx > wx.sql\nx86_64-linux-gnu-gcc -o wx wx.c\n```\n";
    assert_eq!(
        undeclared(programs),
        ["yt-dlp", "pg_dump", "x86_64-linux-gnu-gcc"]
    );
}

#[test]
fn variables_named_only_with_generic_words_are_fill_in_values() {
    let body = "```bash\nwx today --key \"$WX_KEY\" --out \"$OUTPUT_PATH\"\ncurl -H \"Bearer $API_KEY\" \"http://${HOST}:${PORT}/media/${MEDIA_ID}\"\n```\n";
    assert_eq!(reported_names(body, "undeclared-env"), ["WX_KEY"]);
    // A variable named for a service is one the user sets, whatever words follow.
    let named = "```bash\nwx today --key \"$PAPERLESS_API_KEY\" --db \"$DATABASE_URL\"\n```\n";
    assert_eq!(
        reported_names(named, "undeclared-env"),
        ["PAPERLESS_API_KEY", "DATABASE_URL"]
    );
}

#[test]
fn the_agents_own_tools_are_not_commands() {
    let body = "```bash\nwx today\nprocess action:log sessionId:XXX\nmessage action=send channel=discord target=\"#wx\"\nclawdhub install weather-extras\n```\n";
    assert_eq!(undeclared(body), Vec::<String>::new());
    // A program named like a tool, run as a program, is a command.
    let program = "```bash\nwx today | tts --text - --out_path today.wav\n```\n";
    assert_eq!(undeclared(program), ["tts"]);
}

#[test]
fn commands_under_a_setup_section_are_one_off_at_any_depth() {
    let body = "## Setup\n\n### Option 1: Docker\n\n```bash\ndocker run -d wx-bridge\n```\n\n## Use\n\n### Today\n\n```bash\nwx today\nredis-cli get wx:last\n```\n";
    assert_eq!(undeclared(body), ["redis-cli"]);
}

#[test]
fn companion_tools_and_the_authors_own_checks_are_side_uses() {
    let body = "## Use\n\n```bash\nwx today\n```\n\n## Integration Examples\n\n### With ripgrep\n\n```bash\nrg -l rain | wx annotate\n```\n\n## For Developers\n\n### Manual Testing\n\n```bash\npython3 scripts/check.py\n```\n\n## Testing\n\n```bash\nbats tests/\n```\n";
    assert_eq!(undeclared(body), Vec::<String>::new());
    // A skill named for what it integrates still needs what its own sections run.
    let named = "## Weather Integration\n\n```bash\njq .temp today.json\n```\n\n## Testing the forecast\n\n```bash\nyq .days forecast.yaml\n```\n";
    assert_eq!(undeclared(named), ["jq", "yq"]);
}

#[test]
fn variables_read_only_in_an_optional_section_are_not_required() {
    let text = "---\nname: my-skill\ndescription: Reads the weather. Use when the user asks about the weather.\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"wx\"]}}}\n---\n\n# Weather\n\n## Use\n\n```bash\nwx today --key \"$WX_KEY\"\n```\n\n## Optional: Alchemy RPC\n\n```bash\nwx chain --rpc \"$ALCHEMY_RPC_URL\"\n```\n";
    let found = messages(text.to_owned(), "undeclared-env");
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("'WX_KEY'"), "{found:?}");
}

/// The variables `undeclared-env` reports for a skill that reads `$WX_KEY` and
/// `$WX_ALERTS_TOKEN` in one block, after `docs`.
fn undeclared_env_after(docs: &str) -> Vec<String> {
    let body = format!(
        "{docs}\n\n## Use\n\n```bash\nwx today --key \"$WX_KEY\" --alerts \"$WX_ALERTS_TOKEN\"\n```\n"
    );
    reported_names(&body, "undeclared-env")
}

#[test]
fn variables_the_body_documents_as_optional_are_not_required() {
    // Nothing says either is optional: both gate.
    assert_eq!(
        undeclared_env_after("Set `WX_KEY` and `WX_ALERTS_TOKEN`."),
        ["WX_KEY", "WX_ALERTS_TOKEN"]
    );
    for docs in [
        // An env table whose "Required" column says no.
        "| Variable | Purpose | Required |\n|---|---|---|\n| `WX_KEY` | API key | Yes |\n| `WX_ALERTS_TOKEN` | Severe-weather alerts | No |",
        // A line that says so.
        "Set `WX_KEY`. `WX_ALERTS_TOKEN` is optional and turns on alerts.",
        // Set in a section whose heading says so.
        "Set `WX_KEY`.\n\n### 3. (Optional) Alerts\n\n```json\n{\"WX_ALERTS_TOKEN\": \"your-token\"}\n```\n\n### 4. Done\n\nAll set.",
    ] {
        assert_eq!(undeclared_env_after(docs), ["WX_KEY"], "{docs}");
    }
    // A section after the optional one is not optional: a table row there still gates.
    let after = "### (Optional) Alerts\n\nAsk for alerts.\n\n## Keys\n\n| Variable | Required |\n|---|---|\n| WX_ALERTS_TOKEN | Yes |";
    assert_eq!(undeclared_env_after(after), ["WX_KEY", "WX_ALERTS_TOKEN"]);
}

#[test]
fn a_skill_written_for_openclaw_is_asked_for_a_use_when_clause_only_when_its_body_has_one() {
    let tmp = tempfile::tempdir().unwrap();
    let text = "---\nname: my-skill\ndescription: Manage Trello boards, lists, and cards.\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"jq\"]}}}\n---\n\n# Trello\n\n```bash\njq . boards.json\n```\n";
    let dir = write_skill(tmp.path(), "my-skill", text);
    let lint = |target: Option<&str>| {
        let mut cmd = skill();
        cmd.args(["lint", "--format", "json", "--no-cache", "--no-env-checks"]);
        if let Some(t) = target {
            cmd.args(["--target", t]);
        }
        let (code, stdout, stderr) = run(cmd.arg(&dir));
        assert_eq!(code, 0, "{stderr}");
        json(&stdout)
    };
    let codes = |report: &serde_json::Value| -> Vec<String> {
        report["skills"][0]["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_owned())
            .collect()
    };
    // Inferred from metadata.openclaw: OpenClaw's own skills read like this one.
    let inferred = lint(None);
    assert_eq!(inferred["skills"][0]["target"], "openclaw");
    assert!(
        !codes(&inferred).contains(&"SK306".to_owned()),
        "{inferred}"
    );
    assert_eq!(lint(Some("openclaw"))["summary"]["infos"], 0);
    // Claude Code's guide asks for the triggers in the description.
    assert!(codes(&lint(Some("claude"))).contains(&"SK306".to_owned()));
    // Routing left in the body is lost for OpenClaw too: its skill-creator keeps it in the
    // description, and the body is read only after the choice.
    let stranded = text.replace(
        "# Trello\n",
        "# Trello\n\n## When to Use\n\nWhen the user mentions a board or a card.\n",
    );
    std::fs::write(dir.join("SKILL.md"), stranded).unwrap();
    let report = lint(None);
    let found = &report["skills"][0]["diagnostics"][0];
    assert_eq!(found["code"], "SK306", "{report}");
    assert_eq!(
        found["message"],
        "Description does not say when to use the skill; the body does (line 9), but the model reads the body only after choosing"
    );
}

/// Whether `description-no-trigger` reports `description`.
fn reports_no_trigger(description: &str) -> bool {
    let text = format!("---\nname: my-skill\ndescription: {description}\n---\n\n# Skill\n");
    !messages(text, "SK306").is_empty()
}

#[test]
fn triggers_are_found_in_timing_words_and_other_languages() {
    for said in [
        "Verify facts by an internet lookup before answering questions.",
        "Perfect for daily comic delivery via cron or on demand.",
        "当用户询问天气时使用。",
        "投資判断や市場分析の相談時に使用。",
        "Consulta precios de la luz. Usa cuando necesites el precio actual.",
    ] {
        assert!(!reports_no_trigger(said), "{said}");
    }
    for plain in [
        "Formats CSV files.",
        "使用高德地图API进行地点搜索。",
        "複数のファイルを同時に変換します。",
    ] {
        assert!(reports_no_trigger(plain), "{plain}");
    }
}

#[test]
fn a_skill_inside_another_skills_folder_is_gated_on_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let child = "---\nname: wx-alerts\ndescription: Reads weather alerts. Use when the user asks about alerts.\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"jq\"]}}}\n---\n\n```bash\nwx alerts --key \"$WX_KEY\"\n```\n";
    let lint = |dir: &Path| {
        let (code, skills) = findings(dir, "SK509,SK510,SK511", "code");
        assert!(code == 0 || code == 1, "exit {code}");
        let (_, mut codes) = skills
            .into_iter()
            .find(|(name, _)| name == "wx-alerts")
            .expect("wx-alerts is linted");
        codes.sort();
        codes
    };
    // On its own, its undeclared command and variable and its unused `jq` gate it wrongly.
    let alone = write_skill(tmp.path(), "wx-alerts", child);
    assert_eq!(lint(&alone), ["SK509", "SK510", "SK511"]);
    // Inside a bundle whose top folder is the skill OpenClaw and nanobot load, it is never
    // listed on its own, so what it declares gates nothing.
    let bundle = write_skill(
        tmp.path(),
        "wx",
        "---\nname: wx\ndescription: Weather tools. Use when the user asks about the weather.\n---\n\nFor alerts read sub-skills/wx-alerts/SKILL.md.\n",
    );
    write_skill(&bundle.join("sub-skills"), "wx-alerts", child);
    assert_eq!(lint(&bundle), Vec::<String>::new());
}

#[test]
fn requirements_of_a_skill_without_a_body_are_not_called_unused() {
    let lint = |body: &str| {
        let tmp = tempfile::tempdir().unwrap();
        let text = format!(
            "---\nname: my-skill\ndescription: Backs up the workspace. Use when asked for a backup.\nmetadata: {{\"openclaw\": {{\"requires\": {{\"bins\": [\"restic\"]}}}}}}\n---\n{body}"
        );
        let dir = write_skill(tmp.path(), "my-skill", text);
        let (code, mut skills) = findings(&dir, "SK511,SK704", "code");
        assert_eq!(code, 0);
        skills.remove(0).1
    };
    // The missing body is the finding; the unused `restic` is only its symptom.
    assert_eq!(lint("\n  \n"), ["SK704"]);
    // A body that never runs `restic` leaves it gating for nothing.
    assert_eq!(
        lint("\n# Backup\n\nAsk the user where to save it.\n"),
        ["SK511"]
    );
}
