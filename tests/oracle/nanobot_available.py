"""Prints, as one JSON array, one {"listed": [...], "available": [...]} per workspace named on the
command line (after the builtin skills dir): the skills the real nanobot's
`SkillsLoader(workspace, builtin).list_skills(filter_unavailable=False)` lists from
`<workspace>/skills/`, and those `list_skills(filter_unavailable=True)` keeps (its own check:
every `requires.bins` on PATH via shutil.which, every `requires.env` set and non-empty).
Names are nanobot's skill names, which are the folder names; only entries whose source is
"workspace" count (builtin and plugin skills are dropped). Both lists sorted."""

import json
import sys
from pathlib import Path

from nanobot.agent.skills import SkillsLoader


def workspace_names(entries):
    return sorted(e["name"] for e in entries if e["source"] == "workspace")


builtin = Path(sys.argv[1])
out = []
for ws in sys.argv[2:]:
    loader = SkillsLoader(Path(ws), builtin_skills_dir=builtin)
    out.append(
        {
            "listed": workspace_names(loader.list_skills(filter_unavailable=False)),
            "available": workspace_names(loader.list_skills(filter_unavailable=True)),
        }
    )
sys.stdout.write(json.dumps(out))
