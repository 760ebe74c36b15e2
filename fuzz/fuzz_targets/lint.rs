//! Fuzzes the frontmatter splitter, the YAML parser, the manifest and requirements model, every
//! lint rule for every target, and every output format, on arbitrary SKILL.md bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use skill::lint::report::{render_concise, render_human, render_json};
use skill::lint::{LintRun, Options, Selection, Target, lint_skill};
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
    let dir = Path::new("fuzz-skill");
    let skill = Skill::from_bytes(dir, data.to_vec());
    if let (Some(manifest), Ok(doc)) = (skill.manifest(), &skill.document) {
        let _ = Requirements::from_manifest(manifest, &doc.source.text);
    }
    for target in TARGETS {
        let options = Options { target, selection: Selection::default() };
        let report = lint_skill(Skill::from_bytes(dir, data.to_vec()), &options);
        let run = LintRun { skills: vec![report] };
        let _ = render_human(&run, false);
        let _ = render_concise(&run);
        let _ = render_json(&run);
    }
});
