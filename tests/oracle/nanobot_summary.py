"""Prints, as one JSON array, what the real nanobot builds for each workspace named on the
command line: `SkillsLoader(workspace, builtin).build_skills_summary()` and the skills part of
its system prompt, assembled as `ContextBuilder.build_system_prompt` does (active skills, then
the rendered skills section, joined by the separator nanobot uses between prompt parts)."""

import json
import sys
from pathlib import Path

from nanobot.agent.skills import SkillsLoader
from nanobot.utils.prompt_templates import render_template

builtin = Path(sys.argv[1])
out = []
for ws in sys.argv[2:]:
    loader = SkillsLoader(Path(ws), builtin_skills_dir=builtin)
    summary = loader.build_skills_summary()
    parts = []
    active = loader.get_always_skills()
    if active:
        content = loader.load_skills_for_context(active)
        if content:
            parts.append(f"# Active Skills\n\n{content}")
    rest = loader.build_skills_summary(exclude=set(active))
    if rest:
        parts.append(render_template("agent/skills_section.md", skills_summary=rest))
    out.append({"summary": summary, "prompt": "\n\n---\n\n".join(parts)})
sys.stdout.write(json.dumps(out))
