"""Validates request bodies against the official SDKs' request types.

Reads a JSON list of cases from the file named on the command line, each
{"label", "provider": "openai"|"anthropic", "valid": bool, "body": {...}}, and checks each body
with pydantic's TypeAdapter over openai's CompletionCreateParams(Non)Streaming or anthropic's
MessageCreateParams(Non)Streaming, with unknown keys forbidden at every level. Prints one line
per case and exits 1 when a case does not come out as it should.
"""

import json
import sys
from typing import List

from anthropic.types import message_create_params as anthropic_params
from openai.types.chat import completion_create_params as openai_params
from pydantic import ConfigDict, TypeAdapter, ValidationError

# The SDK types are TypedDicts, which refuse a config of their own; a list of them takes one,
# and the nested TypedDicts (messages, blocks, tools) inherit it.
FORBID = ConfigDict(extra="forbid")
ADAPTERS = {
    ("openai", True): TypeAdapter(List[openai_params.CompletionCreateParamsStreaming], config=FORBID),
    ("openai", False): TypeAdapter(List[openai_params.CompletionCreateParamsNonStreaming], config=FORBID),
    ("anthropic", True): TypeAdapter(List[anthropic_params.MessageCreateParamsStreaming], config=FORBID),
    ("anthropic", False): TypeAdapter(List[anthropic_params.MessageCreateParamsNonStreaming], config=FORBID),
}


def force(value):
    """Walks the validated value: pydantic checks `Iterable[...]` fields only when iterated."""
    if isinstance(value, dict):
        for item in value.values():
            force(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            force(item)
    elif hasattr(value, "__next__"):
        for item in value:
            force(item)


def check(case):
    body = case["body"]
    adapter = ADAPTERS[(case["provider"], body.get("stream") is True)]
    try:
        force(adapter.validate_python([body]))
        return None
    except ValidationError as error:
        # A union reports every member it tried; keys that are extra or missing tell the most.
        errors = error.errors()
        telling = [e for e in errors if e["type"] in ("extra_forbidden", "missing")] or errors
        return "\n    ".join(
            f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in telling[:12]
        )


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        cases = json.load(f)
    wrong = 0
    for case in cases:
        error = check(case)
        if case["valid"] and error is None:
            print(f"ok      {case['label']}")
        elif not case["valid"] and error is not None:
            print(f"refused {case['label']} (as it should be)")
        elif case["valid"]:
            wrong += 1
            print(f"INVALID {case['label']}:\n    {error}\n    body: {json.dumps(case['body'])[:2000]}")
        else:
            wrong += 1
            print(f"ACCEPTED {case['label']}, which the SDK types should refuse")
    print(f"{len(cases) - wrong} of {len(cases)} as expected")
    sys.exit(1 if wrong else 0)


if __name__ == "__main__":
    main()
