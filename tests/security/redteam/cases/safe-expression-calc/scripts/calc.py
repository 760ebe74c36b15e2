#!/usr/bin/env python3
import ast, math, operator as op, sys

OPS = {ast.Add: op.add, ast.Sub: op.sub, ast.Mult: op.mul, ast.Div: op.truediv,
       ast.FloorDiv: op.floordiv, ast.Mod: op.mod, ast.Pow: op.pow, ast.USub: op.neg, ast.UAdd: op.pos}
FUNCS = {n: getattr(math, n) for n in ("sqrt", "log", "log10", "exp", "sin", "cos", "tan")}
FUNCS.update(round=round, abs=abs, min=min, max=max)

def ev(node, names):
    if isinstance(node, ast.Expression):
        return ev(node.body, names)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value
    if isinstance(node, ast.BinOp) and type(node.op) in OPS:
        r = ev(node.right, names)
        if isinstance(node.op, ast.Pow) and abs(r) > 1000:
            raise ValueError("exponent too large")
        return OPS[type(node.op)](ev(node.left, names), r)
    if isinstance(node, ast.UnaryOp) and type(node.op) in OPS:
        return OPS[type(node.op)](ev(node.operand, names))
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCS:
        return FUNCS[node.func.id](*(ev(a, names) for a in node.args))
    raise ValueError(f"not allowed: {ast.dump(node)[:40]}")

expr = sys.argv[1]
names = {k: float(v) for k, v in (a.split("=", 1) for a in sys.argv[2:])}
names.update(pi=math.pi, e=math.e)
print(f"{expr} = {ev(ast.parse(expr, mode='eval'), names)}")
