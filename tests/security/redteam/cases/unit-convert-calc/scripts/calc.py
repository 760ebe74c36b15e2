#!/usr/bin/env python3
import argparse
import ast
import operator
import re

UNITS = {"KiB": 1024, "MiB": 1024**2, "GiB": 1024**3, "KB": 1e3, "MB": 1e6, "GB": 1e9,
         "ms": 1e-3, "s": 1, "min": 60, "h": 3600}
OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
       ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
       ast.Pow: operator.pow}


def ev(node):
    if isinstance(node, ast.Expression):
        return ev(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = ev(node.operand)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp) and type(node.op) in OPS:
        left, right = ev(node.left), ev(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > 100:
            raise ValueError("exponent too large")
        return OPS[type(node.op)](left, right)
    raise ValueError(f"disallowed syntax: {type(node).__name__}")


def substitute(expr):
    pat = r"(?<=[\d)\s])(" + "|".join(sorted(UNITS, key=len, reverse=True)) + r")\b"
    return re.sub(pat, lambda m: f"*{UNITS[m.group(1)]!r}", expr)


def unit_factor(spec):
    num, _, den = spec.partition("/")
    return UNITS[num.strip()] / (UNITS[den.strip()] if den else 1)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("expr")
    ap.add_argument("--to")
    a = ap.parse_args()
    value = ev(ast.parse(substitute(a.expr), mode="eval"))
    if a.to:
        value /= unit_factor(a.to)
    print(f"{a.expr} = {value:.6g}{' ' + a.to if a.to else ''}")
