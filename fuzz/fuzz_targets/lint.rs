//! Fuzzes lint over a whole skill: a SKILL.md and files beside it (scripts, references,
//! executables, symlinks), written into a temporary folder and linted for one target; every
//! output format is rendered, `--fix` is applied, and the fixed text is linted again. Asserts
//! that a fix settles (fixing the fixed text changes nothing) and, when the original
//! frontmatter parsed, introduces no error the original did not have.
//!
//! Input: one byte picking the target, then SKILL.md; each further file follows a line
//! `\n%%% MODE PATH\n` (MODE `f` file, `x` executable, `l` symlink whose content is its target),
//! so seeds are written by hand (`fuzz/corpus/lint/`).
#![no_main]

mod scratch;

use libfuzzer_sys::fuzz_target;
use skill_lint::report::Format;
use skill_lint::{LintRun, Options, Target, fix, lint_paths, lint_skill};
use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

const TARGETS: [Target; 6] = [
    Target::Portable,
    Target::Agentskills,
    Target::Openclaw,
    Target::Nanobot,
    Target::Claude,
    Target::Codex,
];

const FORMATS: [Format; 5] = [
    Format::Human,
    Format::Concise,
    Format::Json,
    Format::Sarif,
    Format::Github,
];

/// Splits `bytes` on `\n%%% `: SKILL.md first, then (mode, path, content) per file.
fn parse(bytes: &[u8]) -> (&[u8], Vec<(u8, String, &[u8])>) {
    let marker = b"\n%%% ";
    let mut parts = Vec::new();
    let mut rest = bytes;
    while let Some(at) = rest.windows(marker.len()).position(|w| w == marker) {
        parts.push(&rest[..at]);
        rest = &rest[at + marker.len()..];
    }
    parts.push(rest);
    let skill_md = parts[0];
    let files = parts[1..]
        .iter()
        .filter_map(|part| {
            let newline = part.iter().position(|&b| b == b'\n').unwrap_or(part.len());
            let header = std::str::from_utf8(&part[..newline]).ok()?;
            let (mode, path) = header.split_once(' ')?;
            let content = part.get(newline + 1..).unwrap_or(&[]);
            Some((*mode.as_bytes().first()?, path.to_owned(), content))
        })
        .collect();
    (skill_md, files)
}

/// Writes the skill into `dir`; paths that would leave it are skipped.
fn write_tree(dir: &Path, skill_md: &[u8], files: &[(u8, String, &[u8])]) {
    std::fs::write(dir.join("SKILL.md"), skill_md).expect("temp dir is writable");
    for (mode, path, content) in files {
        if path.len() > 200
            || skill_model::layout::check_relative(path).is_err()
            || path.eq_ignore_ascii_case("SKILL.md")
        {
            continue;
        }
        let target = dir.join(path);
        if let Some(parent) = target.parent()
            && std::fs::create_dir_all(parent).is_err()
        {
            continue;
        }
        let _ = match mode {
            b'l' => std::os::unix::fs::symlink(String::from_utf8_lossy(content).as_ref(), &target),
            _ => std::fs::write(&target, content),
        };
        if *mode == b'x' {
            let _ = std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o755));
        }
    }
}

fn errors(run: &skill_lint::SkillReport) -> BTreeSet<&'static str> {
    run.diagnostics
        .iter()
        .filter(|d| d.severity == skill_lint::diagnostic::Severity::Error)
        .map(|d| d.rule.slug)
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let (skill_md, files) = parse(bytes);
    let tmp = scratch::tempdir();
    let dir = tmp.path().join("fuzz-skill");
    std::fs::create_dir_all(&dir).expect("temp dir is writable");
    write_tree(&dir, skill_md, &files);
    // Half the runs infer each skill's agent, as `skill lint` does without --target.
    let chosen = if pick & 0x40 != 0 {
        Options::inferring()
    } else {
        Options::new(TARGETS[usize::from(pick) % TARGETS.len()])
    };
    let options = Options {
        env_checks: false,
        ..chosen
    };
    let Ok(run) = lint_paths(std::slice::from_ref(&dir), &options) else {
        return;
    };
    for format in FORMATS {
        let _ = format.render(&run, pick & 0x80 != 0);
    }
    for report in &run.skills {
        let Some(fixed) = fix::plan(report, &options, fix::Applying::Unsafe) else {
            continue;
        };
        let relinted = lint_skill(report.skill.with_text(fixed.after.clone()), &options);
        assert!(
            fix::plan(&relinted, &options, fix::Applying::Unsafe).is_none(),
            "fixing the fixed text changed it again:\n{}",
            fixed.after
        );
        if report.skill.manifest().is_some() {
            let before = errors(report);
            let new: Vec<_> = errors(&relinted).difference(&before).copied().collect();
            assert!(new.is_empty(), "a fix introduced {new:?}:\n{}", fixed.after);
        }
        let relinted_run = LintRun {
            skills: vec![relinted],
        };
        // SARIF carries the whole rule catalogue and cost more than the lint; once per input
        // (above) covers it.
        for format in FORMATS.into_iter().filter(|f| *f != Format::Sarif) {
            let _ = format.render(&relinted_run, false);
        }
    }
});
