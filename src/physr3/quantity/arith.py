"""The code channel's strict reader: step arithmetic ("a = (10 N) / (2.0 kg)") with pint units and Python output.

The code channel recomputes a step from its written text when there is no ground truth. Model-written
text must never reach `eval` or `sympy.parse_expr` (both execute Python), so this reader has its own
small tokenizer and recursive-descent parser: numbers, + - * / ^ (also ** × · ÷ −, ², ³), parentheses,
the functions of `physr3.quantity.expr.FUNCTIONS`, pi, the step's known variables, and the unit words of
`physr3.quantity.units.unit_word`. Anything else is refused with `ExprError`. It is the strict sibling of
the verifier's lenient reader (`physr3.quantity.expr`): the same normaliser (`physr3.quantity.text.normalize`),
the same unit table and the same function table (so `log` is the natural logarithm in both, as in sympy,
which writes the ground truth's equations; base 10 is `log10`), but no guessing: no new symbols, no
splitting of `mgh` into m*g*h, and a function needs parentheses.

Reading rules (where written maths is ambiguous):
- Units bind to the number before them: "10 N / 2.0 kg" reads (10 N)/(2.0 kg), and a unit group may
  contain / * ^ between unit symbols ("9.8 m/s^2"). "3 × 10^8 m/s" is scientific notation.
- A name right after a number is a unit when it is a unit word; elsewhere a known variable wins, so in
  "m*g" with `m` defined in an earlier step, `m` is the mass, not the metre; single letters that are
  common variable names (g, h, T, C, ...) are units only right after a number.
- Juxtaposition multiplies ("2 a", "(m1 - m2) g").

`Expr` nodes render as Python source (`to_python`, for the sandboxed code: units become their SI factors,
so the result is in SI base units) and evaluate with pint quantities (`evaluate`, host-side, to learn
the result's unit and to check the code before it is run).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from physr3.quantity.expr import FUNCTIONS
from physr3.quantity.text import normalize
from physr3.quantity.units import unit_word, ureg


class ExprError(ValueError):
    """Text that is not a recomputable arithmetic expression."""


CONSTANTS = {"pi": "math.pi", "π": "math.pi"}
# Single letters (and `in`) that are common variable names: units only right after a number.
_AMBIGUOUS_UNITS = {"g", "h", "in", "T", "C", "F", "H", "A", "L", "K", "N", "V", "W", "d", "u", "y"}

_NUMBER = r"(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_TOKEN_RE = re.compile(rf"\s*(?:(?P<num>{_NUMBER})|(?P<name>[^\W\d]\w*|°)|(?P<op>\*\*|[-+*/^()]))")


@dataclass(frozen=True)
class Expr:
    """A parsed node: ("num", value) | ("var", name) | ("unit", symbol) | ("const", name) |
    ("neg", x) | ("add"/"sub"/"mul"/"div"/"pow", a, b) | ("call", fname, x)."""

    op: str
    args: tuple


def normalise(text: str) -> str:
    """`physr3.quantity.text.normalize`, refusing temperatures with an offset."""
    if re.search(r"°\s*[CF]\b", text):
        raise ExprError("temperatures in °C/°F have an offset; convert to K")
    return normalize(text)


def tokenize(text: str) -> list[tuple[str, str]]:
    text, pos, out = normalise(text), 0, []
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN_RE.match(text, pos)
        if not m:
            raise ExprError(f"unexpected character {text[pos:].strip()[:1]!r}")
        kind = m.lastgroup
        out.append((kind, m.group(kind).replace("^", "**") if kind == "op" else m.group(kind)))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], variables: set[str]):
        self.toks, self.i, self.vars = tokens, 0, variables

    def peek(self, k: int = 0) -> tuple[str, str] | None:
        return self.toks[self.i + k] if self.i + k < len(self.toks) else None

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is None:
            raise ExprError("unexpected end of expression")
        self.i += 1
        return tok

    def expect(self, value: str) -> None:
        tok = self.take()
        if tok[1] != value:
            raise ExprError(f"expected {value!r}, found {tok[1]!r}")

    def parse(self) -> Expr:
        node = self.expr()
        if self.peek() is not None:
            raise ExprError(f"unexpected {self.peek()[1]!r}")
        return node

    def expr(self) -> Expr:
        node = self.term()
        while (tok := self.peek()) and tok[1] in ("+", "-"):
            self.take()
            node = Expr("add" if tok[1] == "+" else "sub", (node, self.term()))
        return node

    def starts_atom(self, tok: tuple[str, str] | None) -> bool:
        return tok is not None and (tok[0] in ("num", "name") or tok[1] == "(")

    def term(self) -> Expr:
        node = self.unary()
        while True:
            tok = self.peek()
            if tok and tok[1] in ("*", "/"):
                self.take()
                node = Expr("mul" if tok[1] == "*" else "div", (node, self.unary()))
            elif self.starts_atom(tok):  # juxtaposition
                node = Expr("mul", (node, self.unary()))
            else:
                return node

    def unary(self) -> Expr:
        tok = self.peek()
        if tok and tok[1] in ("-", "+"):
            self.take()
            inner = self.unary()
            return Expr("neg", (inner,)) if tok[1] == "-" else inner
        return self.power()

    def power(self) -> Expr:
        base = self.atom()
        if (tok := self.peek()) and tok[1] == "**":
            self.take()
            return Expr("pow", (base, self.unary()))
        return base

    def atom(self) -> Expr:
        kind, value = self.take()
        if kind == "num":
            node = Expr("num", (float(value),))
            group = self.unit_group()
            return Expr("mul", (node, group)) if group is not None else node
        if kind == "name":
            if value in FUNCTIONS:
                if not (self.peek() and self.peek()[1] == "("):
                    raise ExprError(f"function {value} needs parentheses")
                self.take()
                arg = self.expr()
                self.expect(")")
                return Expr("call", (value, arg))
            if value in CONSTANTS:
                return Expr("const", (value,))
            if value in self.vars:
                return Expr("var", (value,))
            if unit_word(value) is not None and value not in _AMBIGUOUS_UNITS:
                return Expr("unit", (value,))
            raise ExprError(f"unknown name {value!r}")
        if value == "(":
            node = self.expr()
            self.expect(")")
            return node
        raise ExprError(f"unexpected {value!r}")

    def unit_power(self) -> Expr:
        """A unit word with an optional small power: `s^2`, `s^-2`, `s^(-2)` (the normaliser writes `s²` so)."""
        node = Expr("unit", (self.take()[1],))
        if (tok := self.peek()) and tok[1] == "**":
            paren = bool((nxt := self.peek(1)) and nxt[1] == "(")
            k, sign = 1 + paren, 1.0
            if (nxt := self.peek(k)) and nxt[1] in ("-", "+"):
                sign, k = (-1.0 if nxt[1] == "-" else 1.0), k + 1
            exp = self.peek(k)
            if exp and exp[0] == "num" and (not paren or ((close := self.peek(k + 1)) and close[1] == ")")):
                self.i += k + 1 + paren
                node = Expr("pow", (node, Expr("num", (sign * float(exp[1]),))))
        return node

    def is_unit(self, tok: tuple[str, str] | None) -> bool:
        return tok is not None and tok[0] == "name" and unit_word(tok[1]) is not None

    def unit_group(self) -> Expr | None:
        """Unit symbols right after a number, joined by * / or juxtaposition ("m/s^2", "kg m^2")."""
        if not self.is_unit(self.peek()):
            return None
        node = self.unit_power()
        while True:
            tok, nxt = self.peek(), self.peek(1)
            if tok and tok[1] in ("*", "/") and self.is_unit(nxt):
                self.take()
                node = Expr("mul" if tok[1] == "*" else "div", (node, self.unit_power()))
            elif self.is_unit(tok) and tok[1] not in self.vars:
                node = Expr("mul", (node, self.unit_power()))
            else:
                return node


def parse(text: str, variables: set[str] | frozenset[str] = frozenset()) -> Expr:
    """Parse one side of a step's equation; `variables` are names with known values."""
    tokens = tokenize(text)
    if not tokens:
        raise ExprError("empty expression")
    return _Parser(tokens, set(variables)).parse()


def names(node: Expr, kind: str) -> set[str]:
    """Names of the given node kind ("var" or "unit") used in `node`."""
    if node.op == kind:
        return {node.args[0]}
    return set().union(*(names(a, kind) for a in node.args if isinstance(a, Expr))) if node.args else set()


def unit_identifier(symbol: str) -> str:
    """A Python name for a unit symbol in generated code ("Ω" -> "u_ohm", "°" -> "u_deg")."""
    return "u_" + re.sub(r"\W", "_", unit_word(symbol).pint)


def python_function(name: str) -> str:
    """The Python spelling of a function of `FUNCTIONS` in generated code (`log` -> `math.log`)."""
    fn = FUNCTIONS[name]
    return "abs" if fn is abs else f"math.{fn.__name__}"


_PREC = {"add": 1, "sub": 1, "mul": 2, "div": 2, "neg": 3, "pow": 4}


def to_python(node: Expr, var_names: dict[str, str] | None = None, parent: int = 0) -> str:
    """Python source for `node`; variables are renamed by `var_names`, units use `unit_identifier`."""
    var_names = var_names or {}
    op = node.op
    if op == "num":
        return repr(node.args[0]).removesuffix(".0") if float(node.args[0]).is_integer() else repr(node.args[0])
    if op == "var":
        return var_names.get(node.args[0], node.args[0])
    if op == "unit":
        return unit_identifier(node.args[0])
    if op == "const":
        return CONSTANTS[node.args[0]]
    if op == "call":
        return f"{python_function(node.args[0])}({to_python(node.args[1], var_names)})"
    prec = _PREC[op]
    if op == "neg":
        text = "-" + to_python(node.args[0], var_names, prec)
    elif op == "pow":
        text = f"{to_python(node.args[0], var_names, prec + 1)} ** {to_python(node.args[1], var_names, prec)}"
    else:
        sym = {"add": " + ", "sub": " - ", "mul": " * ", "div": " / "}[op]
        right = to_python(node.args[1], var_names, prec + (op in ("sub", "div")))
        text = to_python(node.args[0], var_names, prec) + sym + right
    return f"({text})" if prec < parent else text


def unit_quantity(symbol: str):
    """1 `symbol` as a pint quantity."""
    return ureg().Quantity(1.0, unit_word(symbol).pint.replace("^", "**"))


def evaluate(node: Expr, env: dict):
    """Evaluate with pint quantities; `env` maps variable names to quantities (or floats)."""
    q = ureg().Quantity
    op, a = node.op, node.args
    if op == "num":
        return q(a[0], "")
    if op == "var":
        value = env[a[0]]
        return value if hasattr(value, "units") else q(float(value), "")
    if op == "unit":
        return unit_quantity(a[0])
    if op == "const":
        return q(math.pi, "")
    if op == "neg":
        return -evaluate(a[0], env)
    if op == "call":
        x = evaluate(a[1], env)
        if a[0] == "sqrt":
            return x ** 0.5
        if a[0] == "abs":
            return abs(x)
        fn = FUNCTIONS[a[0]]
        if not x.dimensionless:
            raise ExprError(f"{a[0]}() of a quantity with units ({x.units})")
        return q(fn(x.to("radian").magnitude if a[0] in ("sin", "cos", "tan") else x.to("").magnitude), "")
    left, right = evaluate(a[0], env), evaluate(a[1], env)
    try:
        if op == "add":
            return left + right
        if op == "sub":
            return left - right
        if op == "mul":
            return left * right
        if op == "div":
            return left / right
        if not right.dimensionless:
            raise ExprError("exponent with units")
        return left ** right.to("").magnitude
    except ZeroDivisionError:
        raise ExprError("division by zero") from None
    except Exception as exc:  # pint DimensionalityError and friends
        if isinstance(exc, ExprError):
            raise
        raise ExprError(f"cannot evaluate: {exc}") from None
