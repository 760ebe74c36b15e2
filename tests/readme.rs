//! The README's command reference, held to the real command tree: every command has its section
//! with each of its flags and an example, and the examples under an `<!-- offline -->` mark run
//! as written, in order, in one folder holding the example skills, with no network and no model.
//! Transcripts under a `<!-- transcript -->` mark run the same way and must print what they
//! show, `…` standing for any text within a line.

use crate::common;

use clap::CommandFactory;
use common::{copy_tree, run, skill};
use std::path::Path;

const OFFLINE_MARK: &str = "<!-- offline -->";
const TRANSCRIPT_MARK: &str = "<!-- transcript -->";

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// The text of `## Commands`, up to the next second-level heading.
fn commands_section(readme: &str) -> &str {
    let start = readme.find("\n## Commands\n").expect("a Commands section");
    let rest = &readme[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

/// Each `### ` heading of the section with its text.
fn subsections(section: &str) -> Vec<(&str, &str)> {
    section
        .split("\n### ")
        .skip(1)
        .map(|part| part.split_once('\n').unwrap_or((part, "")))
        .collect()
}

/// Every command a user runs (groups such as `skill registry` are not run alone), with the
/// long flags and positional names it documents in `--help`.
fn commands(command: &clap::Command, path: &str, out: &mut Vec<(String, Vec<String>)>) {
    let name = format!("{path} {}", command.get_name()).trim().to_owned();
    let subcommands: Vec<_> = command
        .get_subcommands()
        .filter(|s| s.get_name() != "help")
        .collect();
    if subcommands.is_empty() {
        let flags = command
            .get_arguments()
            .filter(|a| !a.is_global_set() && !a.is_hide_set())
            .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
            .filter(|f| f != "--help")
            .collect();
        out.push((name.clone(), flags));
    }
    for sub in subcommands {
        commands(sub, &name, out);
    }
}

#[test]
fn every_command_has_a_section_with_each_of_its_flags_and_an_example() {
    let readme = readme();
    let sections = subsections(commands_section(&readme));
    let mut all = Vec::new();
    commands(&skill::cli::Cli::command(), "", &mut all);
    let mut missing = Vec::new();
    for (command, flags) in &all {
        let heading = format!("`{command}`");
        let Some((_, text)) = sections.iter().find(|(h, _)| *h == heading) else {
            missing.push(format!("{command}: no `### {heading}` section"));
            continue;
        };
        for flag in flags {
            // `--data` must not be found in `--database`: the flag ends at a space or a quote.
            let written = [" ", "`"]
                .iter()
                .any(|end| text.contains(&format!("`{flag}{end}")));
            if !written {
                missing.push(format!("{command}: {flag} is not described"));
            }
        }
        if !text.contains(&format!("```sh\n{command}")) && !text.contains(&format!("\n{command}")) {
            missing.push(format!("{command}: no example"));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    assert!(all.len() > 40, "{} commands", all.len());
}

/// One example line: the words after `skill`, variables set before it, a file its stdout goes
/// to, and the exit code its comment promises (`# exits 1 ...`), else 0.
struct Example {
    line: String,
    args: Vec<String>,
    env: Vec<(String, String)>,
    stdout_to: Option<String>,
    exits: i32,
}

fn example(line: &str, home: &Path) -> Example {
    let (command, comment) = line.split_once("  #").unwrap_or((line, ""));
    let exits = comment
        .trim()
        .strip_prefix("exits ")
        .and_then(|rest| {
            rest.split(|c: char| !c.is_ascii_digit())
                .next()?
                .parse()
                .ok()
        })
        .unwrap_or(0);
    let home = home.display().to_string();
    let mut words = shlex::split(command.trim()).unwrap_or_else(|| panic!("{line}"));
    let mut env = Vec::new();
    while let Some((key, value)) = words[0].split_once('=') {
        env.push((key.to_owned(), value.to_owned()));
        words.remove(0);
    }
    assert_eq!(words.remove(0), "skill", "{line}");
    let stdout_to = match words.iter().position(|w| w == ">") {
        Some(i) => words.drain(i..).nth(1),
        None => None,
    };
    let args = words
        .into_iter()
        .map(|w| w.replacen('~', &home, 1))
        .collect();
    Example {
        line: line.to_owned(),
        args,
        env,
        stdout_to,
        exits,
    }
}

/// The lines of every fenced block that follows the offline mark, in README order.
fn offline_lines(section: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for part in section.split(OFFLINE_MARK).skip(1) {
        let block = part
            .trim_start()
            .strip_prefix("```sh\n")
            .expect("a sh block");
        let block = &block[..block.find("```").expect("the block's end")];
        lines.extend(block.lines().map(str::to_owned));
    }
    lines
}

/// A PATH with a shell and the basic tools only, so that which skills are available (docker,
/// pdftotext and gh are never there) is the same on every machine.
fn few_commands(tmp: &Path) -> std::path::PathBuf {
    let bin = tmp.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for name in [
        "sh", "bash", "env", "cat", "ls", "echo", "mkdir", "grep", "python3",
    ] {
        if let Ok(found) = which::which(name) {
            std::os::unix::fs::symlink(found, bin.join(name)).unwrap();
        }
    }
    bin
}

/// A folder holding the example skills (also `docker-deploy` at its top), a HOME of its own, a
/// PATH without the commands skills need, and a registry address where nothing listens.
struct Workspace {
    _tmp: tempfile::TempDir,
    dir: std::path::PathBuf,
    home: std::path::PathBuf,
    path: std::path::PathBuf,
}

impl Workspace {
    fn new() -> Workspace {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("work");
        let home = tmp.path().join("home");
        std::fs::create_dir_all(&home).unwrap();
        let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/skills");
        copy_tree(&examples, &dir.join("skills"));
        copy_tree(&examples.join("docker-deploy"), &dir.join("docker-deploy"));
        let path = few_commands(tmp.path());
        Workspace {
            _tmp: tmp,
            dir,
            home,
            path,
        }
    }

    /// Runs one example; its exit code, and stdout then stderr.
    fn run(&self, example: &Example) -> (i32, String) {
        let mut cmd = skill();
        cmd.current_dir(&self.dir)
            .env("HOME", &self.home)
            .env("PATH", &self.path)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("SKILL_CACHE_DIR", self.home.join(".cache"))
            .env("SKILL_REGISTRY", "http://127.0.0.1:9")
            .env("OPENCLAW_WORKSPACE", self.home.join(".openclaw/workspace"));
        for var in [
            "SKILL_TOKEN",
            "SKILL_CONFIG_DIR",
            "SKILL_TARGET",
            "SKILL_PROVIDER",
            "SKILL_MODEL",
            "OPENAI_BASE_URL",
            "ANTHROPIC_BASE_URL",
            "CLAWHUB_REGISTRY",
            "CLAWHUB_TOKEN",
            "OPENAI_API_KEY",
            "ANTHROPIC_API_KEY",
            "SKILL_RECORD",
            "GITHUB_ACTIONS",
        ] {
            cmd.env_remove(var);
        }
        for (key, value) in &example.env {
            cmd.env(key, value);
        }
        let (code, stdout, stderr) = run(cmd.args(&example.args));
        if let Some(file) = &example.stdout_to {
            let path = self.dir.join(file);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, &stdout).unwrap();
        }
        (code, stdout + &stderr)
    }
}

#[test]
fn the_offline_examples_of_the_command_reference_run_as_written() {
    let readme = readme();
    let lines = offline_lines(commands_section(&readme));
    assert!(lines.len() > 30, "{} offline example lines", lines.len());
    let workspace = Workspace::new();
    for line in &lines {
        let example = example(line, &workspace.home);
        let (code, output) = workspace.run(&example);
        assert_eq!(code, example.exits, "{}\n{output}", example.line);
    }
}

/// Whether `line` is what `expected` shows, `…` standing for any text.
fn shows(expected: &str, line: &str) -> bool {
    let mut parts = expected.split('…');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i + 1 == parts.len() {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

#[test]
fn the_readme_transcripts_print_what_they_show() {
    let readme = readme();
    let blocks: Vec<&str> = readme.split(TRANSCRIPT_MARK).skip(1).collect();
    assert!(!blocks.is_empty(), "no transcript in the README");
    for part in blocks {
        let block = part
            .trim_start()
            .strip_prefix("```console\n")
            .expect("a console block");
        let block = &block[..block.find("```").expect("the block's end")];
        let workspace = Workspace::new();
        for step in block.split("$ ").filter(|s| !s.is_empty()) {
            let (line, shown) = step.split_once('\n').unwrap_or((step, ""));
            let example = example(line, &workspace.home);
            let (code, output) = workspace.run(&example);
            assert_eq!(code, example.exits, "{line}\n{output}");
            let printed: Vec<&str> = output.lines().collect();
            let expected: Vec<&str> = shown.lines().collect();
            assert_eq!(printed.len(), expected.len(), "{line}\n{output}");
            for (want, got) in expected.iter().zip(&printed) {
                assert!(shows(want, got), "{line}: shows {want:?}, printed {got:?}");
            }
        }
    }
}
