//! Fuzzes the frontmatter splitter, the YAML parser, the manifest and requirements model, every
//! lint rule for every target, and every output format, on arbitrary SKILL.md bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skill::lint::report::{render_concise, render_human, render_json};
use skill::lint::{LintRun, Options, Target, lint_skill};
use skill::skill::{Requirements, Skill};
use std::path::Path;

const TARGETS: [Target; 6] = [
    Target::Portable,
    Target::Agentskills,
    Target::Openclaw,
    Target::Nanobot,
    Target::Claude,
    Target::Codex,
];

fuzz_target!(|data: &[u8]| {
    // The first byte picks the target, so one input exercises one target's rules.
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let dir = Path::new("fuzz-skill");
    let skill = Skill::from_bytes(dir, bytes.to_vec());
    if let (Some(manifest), Ok(doc)) = (skill.manifest(), &skill.document) {
        let _ = Requirements::from_manifest(manifest, &doc.source.text);
    }
    let options = Options {
        env_checks: false,
        ..Options::new(TARGETS[usize::from(pick) % TARGETS.len()])
    };
    let run = LintRun {
        skills: vec![lint_skill(skill, &options)],
    };
    let _ = render_human(&run, false);
    let _ = render_concise(&run);
    let _ = render_json(&run);
});
