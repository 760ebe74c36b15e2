//! The README's walkthrough, run line by line as written: the lines come from the README's
//! `walkthrough` block, so the two cannot drift apart. A tiny interpreter handles what a shell
//! would: `$EDITOR` (the test edits SKILL.md as a user would), `TOKEN=$(...)`, a server started
//! with `&` (on a free port instead of 8787), and `"$TOKEN"`.

use crate::common;

use common::{Registry, run, skill};
use std::collections::HashMap;
use std::path::Path;

const EDITED: &str = "---\nname: docker-deploy\ndescription: Builds and runs the app in this folder as a Docker container. Use when the user asks to containerise, build an image, or run the app with Docker.\nmetadata:\n  openclaw:\n    requires:\n      bins:\n        - docker\n    install:\n      - kind: brew\n        formula: docker\n        bins:\n          - docker\n---\n\n# Docker Deploy\n\nBuild an image from the Dockerfile in the current folder and run it.\n\n## Steps\n\n1. Check Docker works: `docker --version`.\n2. Build: `docker build -t app .`\n3. Run: `docker run --rm -p 8080:8080 app`\n\n## Rules\n\n- Show the user each command before running it.\n";

/// The lines of the README's walkthrough block, comments dropped.
fn walkthrough_lines() -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let start = readme
        .find("<!-- walkthrough:start -->")
        .expect("walkthrough block");
    let end = readme
        .find("<!-- walkthrough:end -->")
        .expect("walkthrough end");
    readme[start..end]
        .lines()
        .filter(|l| !l.starts_with("```") && !l.starts_with("<!--") && !l.trim().is_empty())
        .map(|l| match l.find("  #") {
            Some(i) => l[..i].trim_end().to_owned(),
            None => l.to_owned(),
        })
        .collect()
}

#[test]
fn the_readme_walkthrough_works_as_written() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("work");
    std::fs::create_dir(&dir).unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir(&home).unwrap();
    let mut vars: HashMap<String, String> = HashMap::new();
    let mut server: Option<Registry> = None;
    let mut seen = Vec::new();
    for line in walkthrough_lines() {
        let mut line = line.replace("$TOKEN", vars.get("TOKEN").map_or("", String::as_str));
        if let Some(s) = &server {
            line = line.replace("http://127.0.0.1:8787", &s.url);
        }
        if line.starts_with("$EDITOR ") {
            let file = dir.join(line.trim_start_matches("$EDITOR ").trim());
            assert!(file.is_file(), "{line}");
            std::fs::write(file, EDITED).unwrap();
            seen.push("edit".to_owned());
            continue;
        }
        let (var, command) = match line.split_once("=$(") {
            Some((var, rest)) => (Some(var.to_owned()), rest.trim_end_matches(')').to_owned()),
            None => (None, line.clone()),
        };
        let mut args = shlex::split(&command).expect("a line sh can split");
        assert_eq!(args.remove(0), "skill", "{line}");
        if args.last().map(String::as_str) == Some("&") {
            args.pop();
            assert_eq!(args[..2], ["registry", "serve"], "{line}");
            let addr = args.iter().position(|a| a == "--addr").unwrap();
            args.drain(addr..addr + 2);
            let data = args.iter().position(|a| a == "--data").unwrap();
            args[data + 1] = dir.join(&args[data + 1]).display().to_string();
            server = Some(Registry::serve(&args[2..]));
            seen.push("serve".to_owned());
            continue;
        }
        let (code, stdout, stderr) = run(skill()
            .current_dir(&dir)
            .env("HOME", &home)
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .env("SKILL_CACHE_DIR", home.join(".cache"))
            .env_remove("SKILL_REGISTRY")
            .env_remove("SKILL_TOKEN")
            .env_remove("CLAWHUB_REGISTRY")
            .env_remove("CLAWHUB_TOKEN")
            .args(&args));
        assert_eq!(code, 0, "{line}\n{stdout}{stderr}");
        let check = |needle: &str| assert!(stdout.contains(needle), "{line}: {needle}\n{stdout}");
        match args[0].as_str() {
            "new" => check("evals/cassettes/basic.yaml"),
            "lint" => assert!(!stdout.contains("error"), "{stdout}"),
            "summary" => check("Builds and runs the app in this folder as a Docker container."),
            "pack" => check("Packed docker-deploy.skill"),
            "login" => check("as @alice"),
            "publish" => check("1.0.0"),
            "search" => check("docker-deploy"),
            "install" => check("Installed docker-deploy"),
            "try" => {
                check("skills read: docker-deploy");
                check("The docker-deploy skill: Builds and runs the app");
            }
            "test" if args.len() > 1 && args[1] == "--init" => check(
                "wrote docker-deploy/evals/basic.yaml and its cassette docker-deploy/evals/cassettes/basic.yaml",
            ),
            "test" => check("1 passed, 0 failed"),
            "eval" if args.len() > 1 && args[1] == "--init" => check(
                "wrote docker-deploy/evals/triggers.yaml (a starter, from the current description) and recorded 2 cassettes",
            ),
            "eval" => check("1 passed, 0 failed"),
            _ => {}
        }
        if let Some(var) = var {
            vars.insert(var, stdout.trim().to_owned());
        }
        seen.push(args[0].clone());
    }
    assert!(
        dir.join("elsewhere/skills/docker-deploy/SKILL.md")
            .is_file()
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("elsewhere/skills/docker-deploy/SKILL.md")).unwrap(),
        EDITED
    );
    assert!(!dir.join("elsewhere/skills/docker-deploy/evals").exists());
    // Every step of the journey the issue names is in the README's block.
    for step in [
        "new", "edit", "test", "lint", "summary", "pack", "registry", "serve", "login", "publish",
        "search", "install", "try",
    ] {
        assert!(
            seen.iter().any(|s| s == step),
            "{step} missing from {seen:?}"
        );
    }
}
