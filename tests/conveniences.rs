//! What users expect of any command-line tool: help with examples everywhere, completions, a man
//! page, one place for configuration with a visible precedence, colours only when wanted, and
//! quiet and verbose output.

use crate::common;

use clap::CommandFactory;
use common::{json, run, skill};
use skill::cli::Cli;

fn without_examples(command: &clap::Command, path: &str, out: &mut Vec<String>) {
    let name = format!("{path} {}", command.get_name()).trim().to_owned();
    let help = command
        .get_after_help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    if !help.contains("Example") {
        out.push(name.clone());
    }
    for sub in command.get_subcommands() {
        if sub.get_name() != "help" {
            without_examples(sub, &name, out);
        }
    }
}

#[test]
fn every_command_has_an_example_in_its_help() {
    let mut missing = Vec::new();
    without_examples(&Cli::command(), "", &mut missing);
    assert_eq!(missing, Vec::<String>::new());
    let (code, stdout, _) = run(skill().args(["registry", "serve", "--help"]));
    assert_eq!(code, 0);
    assert!(
        stdout.contains("Examples:\n  skill registry serve --data ./registry-data"),
        "{stdout}"
    );
}

#[test]
fn completions_and_man_page() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let (code, stdout, stderr) = run(skill().args(["completions", shell]));
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stdout.contains("publish") && stdout.contains("max-turns"),
            "{shell}"
        );
    }
    let (code, _, stderr) = run(skill().args(["completions", "tcsh"]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("possible values: bash, elvish, fish, powershell, zsh"),
        "{stderr}"
    );
    let (code, stdout, _) = run(skill().arg("man"));
    assert_eq!(code, 0);
    assert!(stdout.contains(".TH skill 1"), "{stdout}");
    assert!(stdout.contains(".SH \"SKILL TRY\""), "{stdout}");
    assert!(stdout.contains("\\-\\-replay"), "{stdout}");
}

fn config_cmd(cwd: &std::path::Path, user: &std::path::Path) -> assert_cmd::Command {
    let mut cmd = skill();
    cmd.current_dir(cwd).env("SKILL_CONFIG_DIR", user);
    for var in [
        "SKILL_REGISTRY",
        "CLAWHUB_REGISTRY",
        "SKILL_TARGET",
        "SKILL_PROVIDER",
        "SKILL_MODEL",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

#[test]
fn config_show_gives_each_setting_and_its_origin_by_precedence() {
    let tmp = tempfile::tempdir().unwrap();
    let (project, user) = (tmp.path().join("project"), tmp.path().join("user"));
    std::fs::create_dir_all(project.join("sub")).unwrap();
    std::fs::create_dir_all(&user).unwrap();
    let show = |cmd: &mut assert_cmd::Command| {
        let (code, stdout, stderr) = run(cmd.args(["config", "show", "--json"]));
        assert_eq!(code, 0, "{stderr}");
        json(&stdout)
    };

    let v = show(&mut config_cmd(&project, &user));
    assert_eq!(v["settings"]["registry"]["value"], "https://clawhub.ai");
    assert_eq!(v["settings"]["registry"]["origin"]["kind"], "default");
    assert_eq!(v["settings"]["target"]["value"], "portable");
    assert_eq!(v["settings"]["provider"]["value"], "openai");
    assert_eq!(v["settings"]["model"]["value"], "gpt-4.1-mini");

    std::fs::write(
        user.join("config.toml"),
        "registry = \"http://user.example\"\ntarget = \"nanobot\"\nprovider = \"anthropic\"\nmodel = \"user-model\"\n",
    )
    .unwrap();
    let v = show(&mut config_cmd(&project.join("sub"), &user));
    assert_eq!(v["settings"]["registry"]["value"], "http://user.example");
    assert_eq!(v["settings"]["registry"]["origin"]["kind"], "user");
    assert_eq!(v["settings"]["target"]["value"], "nanobot");
    assert_eq!(v["settings"]["provider"]["value"], "anthropic");
    assert_eq!(v["settings"]["model"]["value"], "user-model");

    std::fs::write(
        project.join("skill.toml"),
        "registry = \"http://project.example/\"\nmodel = \"project-model\"\n[lint]\ntarget = \"openclaw\"\n",
    )
    .unwrap();
    let v = show(&mut config_cmd(&project.join("sub"), &user));
    assert_eq!(v["settings"]["registry"]["value"], "http://project.example");
    assert_eq!(v["settings"]["registry"]["origin"]["kind"], "project");
    assert_eq!(v["settings"]["target"]["value"], "openclaw");
    assert_eq!(v["settings"]["provider"]["value"], "anthropic");
    assert_eq!(v["settings"]["provider"]["origin"]["kind"], "user");
    assert_eq!(v["settings"]["model"]["value"], "project-model");

    let v = show(
        config_cmd(&project.join("sub"), &user)
            .env("SKILL_REGISTRY", "http://env.example")
            .env("SKILL_TARGET", "claude")
            .env("SKILL_MODEL", "env-model"),
    );
    assert_eq!(v["settings"]["registry"]["value"], "http://env.example");
    assert_eq!(
        v["settings"]["registry"]["origin"],
        serde_json::json!({"kind": "env", "source": "SKILL_REGISTRY"})
    );
    assert_eq!(v["settings"]["target"]["value"], "claude");
    assert_eq!(v["settings"]["model"]["value"], "env-model");

    // The human view names the files.
    let (code, stdout, _) = run(config_cmd(&project.join("sub"), &user).args(["config", "show"]));
    assert_eq!(code, 0);
    assert!(
        stdout.contains("registry  http://project.example"),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(
            "(project {})",
            project.join("skill.toml").display()
        )),
        "{stdout}"
    );

    // Flags win: lint's --target over the project's [lint] target.
    std::fs::write(
        project.join("skill.toml"),
        "[lint]\ntarget = \"agentskills\"\n",
    )
    .unwrap();
    let skill_dir = common::write_skill(
        &project,
        "demo",
        "---\nname: demo\ndescription: Demo skill for config tests. Use when testing.\ncolor: red\n---\n# Demo\n",
    );
    let (_, stdout, _) = run(config_cmd(&project, &user).arg("lint").arg(&skill_dir));
    assert!(
        stdout.contains("Unexpected fields in frontmatter: color."),
        "{stdout}"
    );
    let (_, stdout, _) = run(config_cmd(&project, &user)
        .args(["lint", "--target", "codex"])
        .arg(&skill_dir));
    assert!(!stdout.contains("Unexpected fields"), "{stdout}");
    // An unknown key matters to skills-ref and Claude's upload form, not to Codex: counted.
    assert!(stdout.contains("1 unknown-key (SK401)"), "{stdout}");

    // A set env var with a value it cannot take is an error, not skipped.
    let (code, _, stderr) = run(config_cmd(&project, &user)
        .env("SKILL_PROVIDER", "antropic")
        .args(["config", "show"]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("SKILL_PROVIDER=antropic: expected one of openai, anthropic"),
        "{stderr}"
    );

    // A typo in a config file is an error naming the file, for every command.
    std::fs::write(user.join("config.toml"), "registy = \"x\"\n").unwrap();
    let (code, _, stderr) = run(config_cmd(&project, &user).args(["list"]));
    assert_eq!(code, 2);
    assert!(
        stderr.contains("config.toml") && stderr.contains("unknown field `registy`"),
        "{stderr}"
    );
}

#[test]
fn colours_follow_no_color_and_clicolor_force_and_quiet_keeps_results() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, _, _) = run(skill().current_dir(tmp.path()).args(["new", "demo"]));
    assert_eq!(code, 0);
    let (code, plain, stderr) = run(skill().current_dir(tmp.path()).args(["test", "demo"]));
    assert_eq!(code, 0, "{stderr}");
    assert!(plain.ends_with("1 passed, 0 failed\n"), "{plain}");
    assert!(!plain.contains('\u{1b}'), "{plain}");
    let (_, forced, _) = run(skill()
        .current_dir(tmp.path())
        .env_remove("NO_COLOR")
        .env("CLICOLOR_FORCE", "1")
        .args(["test", "demo"]));
    assert!(forced.contains("\u{1b}["), "{forced}");

    let (code, quiet, _) = run(skill().current_dir(tmp.path()).args(["test", "-q", "demo"]));
    assert_eq!(code, 0);
    assert_eq!(quiet, "1 passed, 0 failed\n");
    let (_, verbose, _) = run(skill()
        .current_dir(tmp.path())
        .args(["test", "--verbose", "demo"]));
    assert!(
        verbose.contains("scenario demo/evals/basic.yaml"),
        "{verbose}"
    );
    let (code, quiet, _) = run(skill().current_dir(tmp.path()).args(["-q", "new", "other"]));
    assert_eq!(code, 0);
    assert_eq!(quiet, "Created ./other\n");
    let (code, _, stderr) = run(skill().args(["-q", "-v", "list"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}

#[test]
fn json_output_is_spelled_the_same_everywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = common::write_skill(
        tmp.path(),
        "demo",
        "---\nname: demo\ndescription: Demo skill for JSON tests. Use when testing.\nmetadata: {\"openclaw\": {\"requires\": {\"bins\": [\"no-such-bin-x\"]}}}\n---\n# Demo\n",
    );
    let (_, lint, _) = run(skill().arg("lint").arg(&dir).arg("--json"));
    assert_eq!(json(&lint)["skills"][0]["name"], "demo");
    let (_, summary, _) = run(skill().arg("summary").arg(&dir).arg("--json"));
    assert_eq!(json(&summary)["skills"][0]["name"], "demo");
    let (code, check, _) = run(skill().args(["check", "--no-builtin", "--json"]).arg(&dir));
    assert_eq!(code, 1);
    let check = json(&check);
    assert_eq!(check["unavailable"][0]["name"], "demo");
    assert_eq!(check["unavailable"][0]["missing"], "CLI: no-such-bin-x");
    let (code, _, stderr) = run(skill()
        .arg("lint")
        .arg(&dir)
        .args(["--json", "--format", "human"]));
    assert_eq!(code, 2);
    assert!(stderr.contains("cannot be used with"), "{stderr}");
}
