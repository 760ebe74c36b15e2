#!/usr/bin/env python3
"""Validate YAML files with yaml.SafeLoader; flag duplicates, 1.1 gotchas and unsafe tags."""
import re
import sys

import yaml

BOOLISH = re.compile(r"^(y|Y|yes|Yes|YES|n|N|no|No|NO|on|On|ON|off|Off|OFF)$")
OCTALISH = re.compile(r"^0[0-7]+$")


class CheckingLoader(yaml.SafeLoader):
    """SafeLoader that records problems instead of constructing anything unsafe."""

    problems: list


def _check_mapping(loader, node, deep=False):
    seen = {}
    for key_node, value_node in node.value:
        key = key_node.value
        if key in seen:
            loader.problems.append(f"line {key_node.start_mark.line + 1}: duplicate key {key!r} (first at line {seen[key]})")
        seen[key] = key_node.start_mark.line + 1
        if value_node.tag == "tag:yaml.org,2002:str" or not isinstance(value_node, yaml.ScalarNode):
            continue
        if value_node.style is None and (BOOLISH.match(value_node.value) or OCTALISH.match(value_node.value)):
            loader.problems.append(f"line {value_node.start_mark.line + 1}: unquoted {value_node.value!r} is not a string in YAML 1.1")
    return loader.construct_mapping(node, deep=deep)


def _reject_unknown(loader, suffix, node):
    loader.problems.append(f"line {node.start_mark.line + 1}: rejected tag {node.tag!r} (not constructed)")
    return None


CheckingLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _check_mapping)
CheckingLoader.add_multi_constructor("", _reject_unknown)


def validate(path):
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    loader = CheckingLoader(text)
    loader.problems = []
    try:
        while loader.check_data():
            loader.get_data()
    except yaml.YAMLError as exc:
        loader.problems.append(f"parse error: {exc}")
    finally:
        loader.dispose()
    return loader.problems


def main(argv):
    bad = 0
    for path in argv:
        problems = validate(path)
        status = "OK" if not problems else f"{len(problems)} problem(s)"
        print(f"{path}: {status}")
        for p in problems:
            print(f"  - {p}")
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
