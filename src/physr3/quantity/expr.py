"""The one expression reader: the maths of a model-written solution step, safely, into a tree that evaluates in SI.

Intent: the symbolic verifier must read `v = u + a*t`, `v=u+at`, `\\frac{F}{m}`, `\\sqrt{2gh}`, `F = m a`,
`5.0 m/s²`, `m s^-2`, `3.2 \\times 10^{-19} J`, `θ`, `v_0`, `m_1` the way a physicist would, and must
never execute model text: there is no `eval`, no `sympify` and no `parse_expr` here. A normaliser turns
LaTeX and Unicode into plain maths, a tokenizer and a recursive-descent parser build `Node` tuples, and
`evaluate` computes a float in SI base units from an environment of SI values.

Reading rules (documented because written maths is ambiguous):
- Names resolve in this order: a known variable (the problem's symbols, aliases, symbols the solution
  defined), a function (sqrt sin cos tan asin acos atan exp ln log abs, also `arcsin`...), `pi`/`π`, a
  unit symbol, a split of a run of letters into known variables and functions (`at` -> a*t,
  `mgh` -> m*g*h, `gsinθ` -> g*sin(θ)), a new symbol if it looks like one (one or two letters, a digit or
  an underscore, a Greek name, or two capitals such as `KE`). An English word ends the expression, so
  trailing prose ("= 4.93 m, the height") is ignored.
- `e` is Euler's number only in `e^x` when no variable is called e (it is the elementary charge in
  physics text); otherwise write `exp(x)`.
- `log` is the natural logarithm (as in sympy, which writes the ground truth's equations); `ln` too;
  `log10` is base 10.
- Units bind to the number before them: `10 N / 2.0 kg` is (10 N)/(2.0 kg); a unit group may chain
  `/ * ^` and juxtaposition (`m/s^2`, `m s^-2`, `N*m^2/C^2`, `J/(kg K)`). `m/s^2` means m·s⁻².
- A name right after a number that is both a unit and a known variable (`2 m`, `9.8 g`, `0.42 T`) is
  ambiguous; the parser reads it one way per call (`units_after_number`), and callers try both readings.
- `3.2 × 10^{-19}` and `3.2*10^-19` are scientific notation (one number), `10^{-19}` alone is a power.
- Juxtaposition multiplies; a function takes a parenthesised argument or, without parentheses, the next
  atom (`cos θ`, `sin^2 θ` = sin(θ)^2).
- Sizes are capped (`MAX_CHARS`, `MAX_TOKENS`, nesting depth, exponent size) so nothing can hang.

Two modes. Lenient (the default; the verifier): the rules above, with new symbols when `Names.allow_new`.
Strict (`strict=True`; the code channel, `physr3.quantity.arith`, which turns the tree into Python, and
the answer reader's arithmetic): no split of a run of letters into names, a function needs parentheses,
two numbers side by side are not multiplied; with `allow_new=False` an unknown name is refused. Both read units from `physr3.quantity.units.unit_word` and LaTeX/Unicode through
`physr3.quantity.text.normalize`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from physr3.quantity.text import GREEK, GREEK_NAMES, normalize
from physr3.quantity.units import DIMLESS, Dim, UnitInfo, unit_word

MAX_CHARS = 600
MAX_TOKENS = 240
MAX_DEPTH = 40
MAX_EXPONENT = 64.0

FUNCTIONS: dict[str, Callable[[float], float]] = {
    "sqrt": math.sqrt, "sin": math.sin, "cos": math.cos, "tan": math.tan, "asin": math.asin,
    "acos": math.acos, "atan": math.atan, "arcsin": math.asin, "arccos": math.acos, "arctan": math.atan,
    "exp": math.exp, "ln": math.log, "log": math.log, "log10": math.log10, "abs": abs,
}
TRIG = frozenset({"sin", "cos", "tan"})
STOPWORDS = frozenset(
    "a an the is are was be of at as to in on by so we it or and for if its use get has with from then thus "
    "hence where which gives giving using since this that each per here there into onto our let find given "
    "known unknown value values step equation formula answer final total net required".split())


# ---------------------------------------------------------------------------------------------- tokens
_NUMBER = r"(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+(?!\d))?"  # "2." ending a sentence is 2, then "."
_NAME = r"[A-Za-zα-ωΑ-Ωμϵϑϕ][A-Za-z0-9_α-ωΑ-Ωμϵϑϕ']*"
_TOKEN = re.compile(rf"\s*(?:(?P<num>{_NUMBER})|(?P<name>{_NAME})|(?P<op>[-+*/^(),°%])|(?P<other>\S))")


def tokenize(text: str) -> list[tuple[str, str]]:
    """(kind, text) tokens: num, name, op, other (anything else, which ends an expression)."""
    out: list[tuple[str, str]] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        out.append((kind, m.group(kind)))
        if len(out) > MAX_TOKENS:
            break
    return out


def canonical_name(name: str) -> str:
    """`v_0` -> v0, `θ` -> theta, `Δv` -> Deltav, `m_{1}` -> m1, `x'` -> x'."""
    name = "".join(GREEK.get(ch, ch) for ch in name)
    return name.replace("_", "")


# ---------------------------------------------------------------------------------------------- tree
# Node = (op, *args): ("num", value, literal) | ("qty", value, factor, dim, text) | ("var", name) |
# ("const", "pi") | ("neg", x) | ("add"|"sub"|"mul"|"div"|"pow", a, b) | ("call", fname, x)
Node = tuple


class ParseFail(ValueError):
    """Text that is not (the start of) an expression."""


@dataclass
class Names:
    """What names mean while parsing: known variables (canonical -> resolved) and what is allowed new."""

    variables: Mapping[str, str]
    allow_new: bool = True
    new: set[str] = field(default_factory=set)

    def resolve(self, raw: str) -> str | None:
        c = canonical_name(raw)
        if c in self.variables:
            return self.variables[c]
        return None


def symbol_like(name: str) -> bool:
    """Whether an unknown name reads as a symbol (a new quantity) rather than an English word."""
    c = canonical_name(name)
    if name.lower() in STOPWORDS:
        return False
    if re.fullmatch(r"[A-Za-z]{1,2}'?", c) or "_" in name or any(ch.isdigit() for ch in c):
        return True
    if c in GREEK_NAMES or any(c.startswith(g) and len(c) - len(g) <= 2 for g in GREEK_NAMES):
        return True
    return sum(ch.isupper() for ch in c) >= 2 and len(c) <= 6


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], names: Names, units_after_number: bool, strict: bool = False):
        self.t = list(tokens)
        self.i = 0
        self.names = names
        self.units_first = units_after_number
        self.depth = 0
        self.strict = strict

    # -- helpers
    def peek(self, k: int = 0) -> tuple[str, str] | None:
        j = self.i + k
        return self.t[j] if j < len(self.t) else None

    def take(self) -> tuple[str, str]:
        tok = self.peek()
        if tok is None:
            raise ParseFail("unexpected end")
        self.i += 1
        return tok

    def is_op(self, value: str, k: int = 0) -> bool:
        tok = self.peek(k)
        return tok is not None and tok[0] == "op" and tok[1] == value

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ParseFail("nested too deeply")

    # -- grammar
    def expr(self) -> Node:
        self.enter()
        node = self.term()
        while self.is_op("+") or self.is_op("-"):
            save = self.i
            op = self.take()[1]
            try:
                rhs = self.term()
            except ParseFail:
                self.i = save
                break
            node = ("add" if op == "+" else "sub", node, rhs)
        self.depth -= 1
        return node

    def starts_atom(self) -> bool:
        tok = self.peek()
        return tok is not None and (tok[0] in ("num", "name") or (tok[0] == "op" and tok[1] == "("))

    def term(self) -> Node:
        node = self.unary()
        while True:
            save = self.i
            if self.is_op("*") or self.is_op("/"):
                op = self.take()[1]
                try:
                    rhs = self.unary()
                except ParseFail:
                    self.i = save
                    return node
                node = ("mul" if op == "*" else "div", node, rhs)
            elif self.starts_atom():
                if self.strict and self.peek()[0] == "num" and self.t[self.i - 1][0] == "num":
                    return node  # strict: two numbers side by side ("2.14 0.01 mm") are not a product
                try:
                    rhs = self.power()
                except ParseFail:
                    self.i = save
                    return node
                node = ("mul", node, rhs)
            else:
                return node

    def unary(self) -> Node:
        if self.is_op("-") or self.is_op("+"):
            op = self.take()[1]
            inner = self.unary()
            return ("neg", inner) if op == "-" else inner
        return self.power()

    def power(self) -> Node:
        base = self.atom()
        if self.is_op("^"):
            save = self.i
            self.take()
            try:
                exp = self.unary()
            except ParseFail:
                self.i = save
                return base
            return ("pow", base, exp)
        return base

    def atom(self) -> Node:
        kind, value = self.take()
        if kind == "num":
            try:
                number = float(value)
            except ValueError:
                raise ParseFail(f"bad number {value!r}") from None
            if self.is_op("°") or self.is_op("%"):
                unit = unit_word(self.take()[1])
                return ("qty", number, unit.factor, unit.dim, value + unit.pint)
            group = self.unit_group()
            if group is not None:
                factor, dim, text = group
                return ("qty", number, factor, dim, f"{value} {text}")
            return ("num", number, value)
        if kind == "name":
            return self.name_atom(value)
        if kind == "op" and value == "(":
            self.enter()
            node = self.expr()
            if not self.is_op(")"):
                raise ParseFail("unclosed parenthesis")
            self.take()
            self.depth -= 1
            return node
        raise ParseFail(f"unexpected {value!r}")

    def function_call(self, fname: str) -> Node:
        power = None
        if self.is_op("^"):  # sin^2 x
            self.take()
            power = self.unary()
        if self.is_op("("):
            arg = self.atom()
        elif self.strict:
            raise ParseFail(f"function {fname} needs parentheses")
        else:
            arg = self.power()
            if arg[0] == "num" and self.peek() and self.peek()[0] == "name":  # sin 2θ
                arg = ("mul", arg, self.power())
        node = ("call", fname, arg)
        return ("pow", node, power) if power is not None else node

    def name_atom(self, raw: str) -> Node:
        resolved = self.names.resolve(raw)
        if resolved is not None:
            return ("var", resolved)
        c = canonical_name(raw)
        if c in FUNCTIONS:
            return self.function_call(c)
        if c == "pi":
            return ("const", "pi")
        if c == "e" and self.is_op("^"):  # e^{-t/τ} (sympy's LaTeX for exp) when e is not a variable
            return ("const", "e")
        unit = unit_word(raw)
        if unit is not None and len(c) >= 2:  # a lone letter (m, s, d, A) away from a number is a symbol
            return ("qty", 1.0, unit.factor, unit.dim, raw)
        pieces = None if self.strict else self.split(c)
        if pieces:
            self.t[self.i - 1:self.i] = [("name", p) for p in pieces]
            self.i -= 1
            return self.name_atom(self.take()[1])
        if self.names.allow_new and symbol_like(raw):
            self.names.new.add(c)
            return ("var", c)
        raise ParseFail(f"word {raw!r}")

    def split(self, c: str) -> list[str] | None:
        """`mgh` -> [m, g, h] when every piece is a known variable or function (fewest pieces)."""
        if len(c) > 12 or c.lower() in STOPWORDS and c not in ("at",):
            return None
        known = set(self.names.variables) | set(FUNCTIONS) | {"pi"} | GREEK_NAMES
        best: list[list[str] | None] = [None] * (len(c) + 1)
        best[0] = []
        for end in range(1, len(c) + 1):
            for start in range(max(0, end - 8), end):
                piece = c[start:end]
                if best[start] is not None and piece in known and (
                        best[end] is None or len(best[start]) + 1 < len(best[end])):
                    best[end] = best[start] + [piece]
        out = best[len(c)]
        return out if out and len(out) > 1 else None

    # -- units after a number
    def unit_factor_at(self) -> UnitInfo | None:
        tok = self.peek()
        if tok is None or tok[0] != "name" and not (tok[0] == "op" and tok[1] in "°%"):
            return None
        unit = unit_word(tok[1])
        if unit is None:
            return None
        if not self.units_first and self.names.resolve(tok[1]) is not None:
            return None
        return unit

    def unit_power(self) -> tuple[float, Dim, str]:
        name = self.take()[1]
        unit = unit_word(name)
        factor, dim, text = unit.factor, unit.dim, name
        if self.is_op("^"):
            j, sign = 1, 1.0
            if self.is_op("(", 1):
                j += 1
            if self.is_op("-", j) or self.is_op("+", j):
                sign = -1.0 if self.is_op("-", j) else 1.0
                j += 1
            tok = self.peek(j)
            if tok and tok[0] == "num":
                exp = sign * float(tok[1])
                if abs(exp) <= 6:
                    j += 1
                    if self.is_op("(", 1):
                        if not self.is_op(")", j):
                            return factor, dim, text
                        j += 1
                    self.i += j
                    factor, dim, text = factor ** exp, tuple(d * exp for d in dim), f"{name}^{exp:g}"
        return factor, dim, text

    def unit_group(self) -> tuple[float, Dim, str] | None:
        tok = self.peek()
        if tok == ("num", "1") and self.is_op("/", 1):  # 0.0310 1/h
            save = self.i
            self.i += 2
            if self.unit_factor_at() is None:
                self.i = save
                return None
            factor, dim, text = self.unit_power()
            factor, dim, text = 1.0 / factor, tuple(-d for d in dim), "1/" + text
        elif self.unit_factor_at() is None:
            return None
        else:
            factor, dim, text = self.unit_power()
        while True:
            if (self.is_op("/") or self.is_op("*")) and self.peek(1) is not None:
                op = self.peek()[1]
                save = self.i
                self.take()
                if self.is_op("("):  # J/(kg K)
                    self.take()
                    inner = self.unit_group()
                    if inner is None or not self.is_op(")"):
                        self.i = save
                        return factor, dim, text
                    self.take()
                    f2, d2, t2 = inner
                    t2 = f"({t2})"
                elif self.unit_factor_at() is not None:
                    f2, d2, t2 = self.unit_power()
                else:
                    self.i = save
                    return factor, dim, text
                sign = 1.0 if op == "*" else -1.0
                factor *= f2 ** sign
                dim = tuple(a + sign * b for a, b in zip(dim, d2))
                text += op + t2
            elif self.unit_factor_at() is not None and self.peek()[0] == "name" and \
                    self.names.resolve(self.peek()[1]) is None:
                f2, d2, t2 = self.unit_power()
                factor *= f2
                dim = tuple(a + b for a, b in zip(dim, d2))
                text += " " + t2
            else:
                return factor, dim, text


def parse_prefix(text_or_tokens: str | list[tuple[str, str]], names: Names, units_after_number: bool = True,
                 strict: bool = False) -> tuple[Node, int, int]:
    """Parse the longest expression at the start; returns (node, tokens used, tokens in total)."""
    tokens = tokenize(normalize(text_or_tokens)) if isinstance(text_or_tokens, str) else text_or_tokens
    if not tokens or len(tokens) > MAX_TOKENS:
        raise ParseFail("empty or too long")
    p = _Parser(tokens, names, units_after_number, strict)
    node = p.expr()
    return node, p.i, len(p.t)


def parse_full(text: str, names: Names, units_after_number: bool = True, strict: bool = False) -> Node:
    """Parse the whole text as one expression (ParseFail if anything is left over). `strict` (the code
    channel's mode): a function needs parentheses and a run of letters is never split into names."""
    node, used, total = parse_prefix(text, names, units_after_number, strict)
    if used != total:
        raise ParseFail("text left over")
    return node


def parse_suffix(text: str, names: Names, units_after_number: bool = True) -> Node:
    """The longest expression that ends the text ("The height is h" -> h, "so m1 g - T" -> m1 g - T)."""
    tokens = tokenize(normalize(text))
    for start in range(len(tokens)):
        sub = tokens[start:]
        try:
            trial = Names(names.variables, names.allow_new)
            node, used, total = parse_prefix(sub, trial, units_after_number)
        except ParseFail:
            continue
        if used == total:
            names.new |= trial.new
            return node
    raise ParseFail("no expression at the end")


# ---------------------------------------------------------------------------------------------- use
def variables(node: Node) -> set[str]:
    if node[0] == "var":
        return {node[1]}
    out: set[str] = set()
    for a in node[1:]:
        if isinstance(a, tuple) and a and isinstance(a[0], str):
            out |= variables(a)
    return out


def is_numeric(node: Node) -> bool:
    """True when the expression holds a substituted value: a decimal literal or a number with a unit
    (small integers, simple fractions and pi are symbolic constants, as in `2*vy/g` or `1/2 m v^2`)."""
    if not variables(node):
        return True  # a pure number (16 + 17) is a computed value, never an identity
    return _has_literal(node)


def _has_literal(node: Node) -> bool:
    op = node[0]
    if op == "qty":
        return node[1] != 1.0 or node[4][:1].isdigit()
    if op == "num":
        return not re.fullmatch(r"\d{1,2}", node[2])
    return any(_has_literal(a) for a in node[1:] if isinstance(a, tuple) and a and isinstance(a[0], str))


def has_units(node: Node) -> bool:
    if node[0] == "qty":
        return True
    return any(has_units(a) for a in node[1:] if isinstance(a, tuple) and a and isinstance(a[0], str))


class EvalError(ValueError):
    """An expression that has no finite real value here (unknown name, domain error, overflow)."""


@dataclass(frozen=True)
class Mode:
    """How to read bare numbers: trig arguments in degrees, and bare numbers equal to a stated given's
    magnitude taken in that given's unit (`bare_units`: stated magnitude -> SI factor)."""

    trig_degrees: bool = False
    bare_units: Mapping[str, float] | None = None


def evaluate(node: Node, env: Mapping[str, float], mode: Mode = Mode()) -> float:
    """The value in SI base units; raises EvalError."""
    op = node[0]
    try:
        if op == "num":
            if mode.bare_units and node[1] in mode.bare_units:
                return node[1] * mode.bare_units[node[1]]
            return node[1]
        if op == "qty":
            return node[1] * node[2]
        if op == "var":
            if node[1] not in env:
                raise EvalError(f"unknown {node[1]}")
            return env[node[1]]
        if op == "const":
            return math.pi if node[1] == "pi" else math.e
        if op == "neg":
            return -evaluate(node[1], env, mode)
        if op == "call":
            x = evaluate(node[2], env, mode)
            if node[1] in TRIG and mode.trig_degrees and not variables(node[2]) and not has_units(node[2]):
                x = math.radians(x)
            value = FUNCTIONS[node[1]](x)
        else:
            a, b = evaluate(node[1], env, mode), evaluate(node[2], env, mode)
            if op == "add":
                value = a + b
            elif op == "sub":
                value = a - b
            elif op == "mul":
                value = a * b
            elif op == "div":
                value = a / b
            else:
                if abs(b) > MAX_EXPONENT and abs(a) != 1.0:
                    raise EvalError("exponent too large")
                value = a ** b
        if isinstance(value, complex) or not math.isfinite(value):
            raise EvalError("not a finite real number")
        return float(value)
    except (ValueError, ZeroDivisionError, OverflowError, TypeError) as exc:
        if isinstance(exc, EvalError):
            raise
        raise EvalError(str(exc)) from None


def dimension(node: Node, dims: Mapping[str, Dim | None]) -> Dim | None:
    """SI dimension exponents of the expression; None when unknown or inconsistent."""
    op = node[0]
    if op in ("num", "const"):
        return DIMLESS
    if op == "qty":
        return node[3]
    if op == "var":
        return dims.get(node[1])
    if op == "neg":
        return dimension(node[1], dims)
    if op == "call":
        if node[1] == "sqrt":
            d = dimension(node[2], dims)
            return None if d is None else tuple(x / 2 for x in d)
        if node[1] == "abs":
            return dimension(node[2], dims)
        return DIMLESS
    a, b = dimension(node[1], dims), dimension(node[2], dims)
    if op in ("add", "sub"):
        if a is None or b is None:
            return a or b
        return a if all(abs(x - y) < 1e-9 for x, y in zip(a, b)) else None
    if a is None or b is None:
        return None
    if op == "mul":
        return tuple(x + y for x, y in zip(a, b))
    if op == "div":
        return tuple(x - y for x, y in zip(a, b))
    if b != DIMLESS or node[2][0] not in ("num", "neg", "div"):
        return DIMLESS if a == DIMLESS else None
    try:
        exp = evaluate(node[2], {})
    except EvalError:
        return None
    return tuple(x * exp for x in a)


def to_text(node: Node) -> str:
    """Readable plain-text rendering (for explanations)."""
    prec = {"add": 1, "sub": 1, "mul": 2, "div": 2, "neg": 3, "pow": 4}

    def go(n: Node, parent: int = 0) -> str:
        op = n[0]
        if op == "num":
            return n[2]
        if op == "qty":
            return f"({n[4]})" if parent > 1 and " " in n[4] else n[4]
        if op == "var":
            return n[1]
        if op == "const":
            return n[1]
        if op == "call":
            return f"{n[1]}({go(n[2])})"
        p = prec[op]
        if op == "neg":
            s = "-" + go(n[1], p)
        elif op == "pow":
            s = f"{go(n[1], p + 1)}^{go(n[2], p + 1)}"
        else:
            sym = {"add": " + ", "sub": " - ", "mul": "*", "div": "/"}[op]
            s = go(n[1], p) + sym + go(n[2], p + (op in ("sub", "div")))
        return f"({s})" if p < parent else s

    return go(node)
