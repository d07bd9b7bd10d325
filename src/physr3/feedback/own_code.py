"""Run the code channel's own recomputation programs in-process, after checking they are only arithmetic.

The CE channel's offline routes (`physr3.feedback.code`: `ground_truth`, `text`) write their programs
themselves, from a parse tree (`physr3.quantity.arith.to_python`) or a checked sympy srepr, and have already
evaluated the same expression in the host. Starting a sandboxed process for such a program costs a process
per CE feedback and protects nothing, so it runs here; the sandbox (`physr3.feedback.sandbox`) is for code a
model wrote (`feedback.code_model`).

"Own" is checked, not assumed: the program's syntax tree may hold only `import math`, assignments to plain
names, arithmetic (+ - * / ** and unary minus) over numbers, names, `math.<function or constant>` and
`abs`, and `print` of plain values or an f-string. Comments are not in the tree, so text quoted in a comment
cannot add a statement: a program with anything else is refused (`stopped_by="refused"`), never run.
A power or product of two integers whose result would exceed `MAX_INT_BITS` bits raises OverflowError, as
a float operation does, so no integer computation in the host is unbounded (the other operations grow an
integer by a bit at most); f-string format specs are precision and type only (`.6g`), so no width can ask
for a huge string. Everything else is Python's own, so the output is the one the sandbox printed
(tests/feedback/test_own_code.py compares the two).
"""

from __future__ import annotations

import ast
import io
import math
import re
import time
from dataclasses import dataclass

# Float functions and constants only (no factorial, comb or prod, whose integer work is unbounded).
_MATH_NAMES = frozenset("sqrt exp log log10 log2 log1p expm1 sin cos tan asin acos atan atan2 sinh cosh tanh asinh "
                        "acosh atanh hypot degrees radians fabs pow copysign floor ceil pi e tau inf".split())
_BINOPS = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow)
_UNARYOPS = (ast.USub, ast.UAdd)
MAX_INT_BITS = 4096
_FORMAT_SPEC = re.compile(r"(\.\d{1,2})?[eEfFgG%]?")


@dataclass
class OwnRunResult:
    """The fields of `physr3.feedback.sandbox.SandboxResult` that `code.run_plan` reads."""

    stdout: str
    stderr: str
    exit_code: int | None
    stopped_by: str | None  # None (ran; exit_code 1 when it raised) | "refused" (not plain arithmetic, not run)
    wall_s: float = 0.0
    ran: str = "in_process"


class NotArithmetic(ValueError):
    """A program that is not plain arithmetic and print."""


def _check_value(node: ast.AST) -> None:
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return
    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and node.id not in ("print", "abs"):
        return
    if isinstance(node, ast.BinOp) and isinstance(node.op, _BINOPS):
        _check_value(node.left)
        _check_value(node.right)
        return
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, _UNARYOPS):
        _check_value(node.operand)
        return
    if _is_math_attr(node):
        return
    if isinstance(node, ast.Call) and not node.keywords and (
            _is_math_attr(node.func) or (isinstance(node.func, ast.Name) and node.func.id == "abs")):
        for arg in node.args:
            _check_value(arg)
        return
    raise NotArithmetic(f"line {getattr(node, 'lineno', '?')}: {type(node).__name__} is not plain arithmetic")


def _is_math_attr(node: ast.AST) -> bool:
    return (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name)
            and node.value.id == "math" and node.attr in _MATH_NAMES)


def _check_print_arg(node: ast.AST) -> None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return
    if isinstance(node, ast.JoinedStr):
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                continue
            if not isinstance(part, ast.FormattedValue) or part.conversion != -1:
                raise NotArithmetic(f"line {node.lineno}: only plain f-string fields are allowed")
            _check_value(part.value)
            spec = part.format_spec
            if spec is not None and not (isinstance(spec, ast.JoinedStr) and all(
                    isinstance(p, ast.Constant) and isinstance(p.value, str) for p in spec.values)
                    and _FORMAT_SPEC.fullmatch("".join(p.value for p in spec.values))):
                raise NotArithmetic(f"line {node.lineno}: only a precision and type as format spec (.6g)")
        return
    _check_value(node)


def check_arithmetic(code: str) -> ast.Module:
    """The program's tree without its `import math` lines; raises NotArithmetic (or SyntaxError) otherwise."""
    tree = ast.parse(code, "<physr3 code>", "exec")
    body: list[ast.stmt] = []
    for stmt in tree.body:
        if isinstance(stmt, ast.Import) and [(a.name, a.asname) for a in stmt.names] == [("math", None)]:
            continue  # `math` is bound in the namespace below
        if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id not in ("math", "print", "abs")):
            _check_value(stmt.value)
        elif (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name)
              and stmt.value.func.id == "print" and not stmt.value.keywords):
            for arg in stmt.value.args:
                _check_print_arg(arg)
        else:
            raise NotArithmetic(f"line {stmt.lineno}: {type(stmt).__name__} is not an assignment or a print")
        body.append(stmt)
    tree.body = body
    return ast.fix_missing_locations(_BoundedInts().visit(tree))


class _BoundedInts(ast.NodeTransformer):
    """`a ** b` -> `_pow(a, b)`, `a * b` -> `_mul(a, b)`."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        name = {ast.Pow: "_pow", ast.Mult: "_mul"}.get(type(node.op))
        if name is None:
            return node
        return ast.copy_location(ast.Call(ast.Name(name, ast.Load()), [node.left, node.right], []), node)


def _too_big() -> OverflowError:
    return OverflowError(f"integer result with more than {MAX_INT_BITS} bits")


def _pow(base, exponent):
    both_int = type(base) is int and type(exponent) is int
    if both_int and exponent > 0 and base.bit_length() * exponent > MAX_INT_BITS:
        raise _too_big()
    return base ** exponent


def _mul(a, b):
    if type(a) is int and type(b) is int and a.bit_length() + b.bit_length() > MAX_INT_BITS:
        raise _too_big()
    return a * b


def run_own_code(code: str, timeout_s: float | None = None) -> OwnRunResult:
    """Run a checked arithmetic program in this process (a `code.Runner`; `timeout_s` is not needed: no loops)."""
    start = time.perf_counter()
    try:
        tree = check_arithmetic(code)
    except (NotArithmetic, SyntaxError, ValueError, RecursionError) as exc:  # ValueError: NUL bytes; deep nesting
        return OwnRunResult("", f"refused: {type(exc).__name__}: {exc}", None, "refused", time.perf_counter() - start)
    out = io.StringIO()

    def _print(*args) -> None:
        print(*args, file=out)

    try:
        exec(compile(tree, "<physr3 code>", "exec"), {"__builtins__": {"abs": abs, "print": _print}, "math": math,
                                                              "_pow": _pow, "_mul": _mul})
    except Exception as exc:  # ZeroDivisionError, a math domain error, an overflow: reported like the sandbox's exit 1
        return OwnRunResult(out.getvalue(), f"{type(exc).__name__}: {exc}", 1, None, time.perf_counter() - start)
    return OwnRunResult(out.getvalue(), "", 0, None, time.perf_counter() - start)
