"""The code channel's view of a step: `physr3.quantity.expr` in strict mode, with pint values and Python output.

The code channel recomputes a step from its written text when there is no ground truth. Model-written
text must never reach `eval` or `sympy.parse_expr` (both execute Python), so the step is read by the one
expression reader (`physr3.quantity.expr`) in its strict mode: the step's known variables, numbers with
units, the functions of `FUNCTIONS` (with parentheses), pi; no new symbols and no splitting of `mgh` into
m*g*h. Anything else is refused with `ExprError`. The verifier reads the same text with the same reader,
so both agree on every name: `log` is the natural logarithm (as in sympy, which writes the ground truth's
equations), base 10 is `log10`; a word is a unit exactly when `physr3.quantity.units.unit_word` says so.

Reading rules (those of `physr3.quantity.expr`): units bind to the number before them ("10 N / 2.0 kg" is
(10 N)/(2.0 kg), "9.8 m/s^2" one quantity); "3 × 10^8 m/s" is scientific notation; a name right after a
number is a unit, elsewhere a known variable wins (in "m*g" with `m` defined earlier, `m` is the mass);
juxtaposition multiplies. Temperatures in °C/°F are refused (offset units).

A tree renders as Python source (`to_python`, for the sandboxed code: each unit word becomes a variable
holding its SI factor, so the result is in SI base units) and evaluates with pint quantities (`evaluate`,
host-side, to learn the result's unit and to check the code before it is run).
"""

from __future__ import annotations

import math
import re

from physr3.quantity.expr import FUNCTIONS, Names, Node, ParseFail, canonical_name, parse_full, variables
from physr3.quantity.text import normalize
from physr3.quantity.units import DIMLESS, Dim, UnitInfo, pint_unit, unit_word, ureg


class ExprError(ValueError):
    """Text that is not a recomputable arithmetic expression."""


def normalise(text: str) -> str:
    """`physr3.quantity.text.normalize`, refusing temperatures with an offset."""
    if re.search(r"°\s*[CF]\b", text):
        raise ExprError("temperatures in °C/°F have an offset; convert to K")
    return normalize(text)


def parse(text: str, variables: set[str] | frozenset[str] = frozenset()) -> Node:
    """Parse one side of a step's equation; `variables` are names with known values."""
    normalise(text)  # refuses offset temperatures
    known = {canonical_name(v): v for v in variables}
    try:
        return parse_full(text, Names(known, allow_new=False), units_after_number=True, strict=True)
    except ParseFail as exc:
        raise ExprError(str(exc) or "not an expression") from None


# ---------------------------------------------------------------------------------------------- units
# A quantity node is ("qty", value, factor, dim, text); its text is the number as written followed by the
# unit group as the parser assembled it from unit words and / * ^ ( ) and spaces ("9.8 m/s^2", "20 J/(kg K)",
# "0.0310 1/h", "35degree"), or a lone unit word ("kg").
_LEADING_NUMBER = re.compile(r"^\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_GROUP_TOKEN = re.compile(r"[^\W\d][\w']*|[°%]|\d+(?:\.\d+)?|[-+*/^() ]")


def _unit_group(node: Node) -> str:
    text = node[4]
    m = _LEADING_NUMBER.match(text)
    return (text[m.end():] if m else text).strip()


def is_stated_value(node: Node) -> bool:
    """A number, or a number with its units, and nothing else ("4.82 m/s^2", "-3 N", "0.5")."""
    if node[0] == "num":
        return True
    if node[0] == "neg":
        return is_stated_value(node[1])
    return node[0] == "qty" and bool(_LEADING_NUMBER.match(node[4]))


def _unit_info(word: str) -> UnitInfo:
    info = unit_word(word) or pint_unit(word)
    if info is None:
        raise ExprError(f"unknown unit {word!r}")
    return info


def names(node: Node, kind: str) -> set[str]:
    """The variables (`kind="var"`) or unit words (`kind="unit"`) used in `node`."""
    if kind == "var":
        return variables(node)
    if node[0] == "qty":
        return {t for t in _GROUP_TOKEN.findall(_unit_group(node)) if re.fullmatch(r"[^\W\d][\w']*|[°%]", t)}
    return set().union(*(names(a, kind) for a in node[1:] if isinstance(a, tuple) and a and isinstance(a[0], str)))


def unit_identifier(word: str) -> str:
    """A Python name for a unit word in generated code ("Ω" -> "u_ohm", "°" -> "u_degree", "μF" -> "u_uF")."""
    return "u_" + re.sub(r"\W", "_", _unit_info(word).pint)


def unit_quantity(word: str):
    """1 `word` as a pint quantity."""
    info = _unit_info(word)
    return ureg().Quantity(1.0, info.pint.replace("^", "**") or "dimensionless")


# ---------------------------------------------------------------------------------------------- Python
_PREC = {"add": 1, "sub": 1, "mul": 2, "div": 2, "qty": 2, "neg": 3, "pow": 4}


def python_function(name: str) -> str:
    """The Python spelling of a function of `FUNCTIONS` in generated code (`log` -> `math.log`)."""
    fn = FUNCTIONS[name]
    return "abs" if fn is abs else f"math.{fn.__name__}"


def _number(value: float) -> str:
    return repr(value).removesuffix(".0") if float(value).is_integer() else repr(value)


def _group_python(group: str) -> str:
    out = []
    for tok in _GROUP_TOKEN.findall(group):
        if re.fullmatch(r"[^\W\d][\w']*|[°%]", tok):
            out.append(unit_identifier(tok))
        elif tok == "^":
            out.append(" ** ")
        elif tok == " ":
            out.append(" * ")
        elif tok in "*/":
            out.append(f" {tok} ")
        else:
            out.append(tok)
    return re.sub(r"\s+", " ", "".join(out)).strip()


def to_python(node: Node, var_names: dict[str, str] | None = None, parent: int = 0) -> str:
    """Python source for `node`; variables are renamed by `var_names`, unit words use `unit_identifier`."""
    var_names = var_names or {}
    op = node[0]
    if op == "num":
        return _number(node[1])
    if op == "var":
        return var_names.get(node[1], node[1])
    if op == "const":
        return "math.pi" if node[1] == "pi" else "math.e"
    if op == "call":
        return f"{python_function(node[1])}({to_python(node[2], var_names)})"
    prec = _PREC[op]
    if op == "qty":
        group = _group_python(_unit_group(node))
        text = group if node[1] == 1.0 and not _LEADING_NUMBER.match(node[4]) else f"{_number(node[1])} * {group}"
    elif op == "neg":
        text = "-" + to_python(node[1], var_names, prec)
    elif op == "pow":
        text = f"{to_python(node[1], var_names, prec + 1)} ** {to_python(node[2], var_names, prec)}"
    else:
        sym = {"add": " + ", "sub": " - ", "mul": " * ", "div": " / "}[op]
        right = to_python(node[2], var_names, prec + (op in ("sub", "div")))
        text = to_python(node[1], var_names, prec) + sym + right
    return f"({text})" if prec < parent else text


# ---------------------------------------------------------------------------------------------- pint
_BASE = ("meter", "kilogram", "second", "ampere", "kelvin", "mole", "candela")


def _si_quantity(value: float, dim: Dim):
    units = ureg().Quantity(value, "dimensionless")
    for base, exp in zip(_BASE, dim):
        if exp:
            units = units * ureg().Quantity(1.0, base) ** exp
    return units


def evaluate(node: Node, env: dict):
    """Evaluate with pint quantities in SI base units; `env` maps variable names to quantities (or floats)."""
    q = ureg().Quantity
    op = node[0]
    if op == "num":
        return q(node[1], "")
    if op == "qty":
        return _si_quantity(node[1] * node[2], node[3] if node[3] is not None else DIMLESS)
    if op == "var":
        if node[1] not in env:
            raise ExprError(f"unknown name {node[1]!r}")
        value = env[node[1]]
        return value if hasattr(value, "units") else q(float(value), "")
    if op == "const":
        return q(math.pi if node[1] == "pi" else math.e, "")
    if op == "neg":
        return -evaluate(node[1], env)
    if op == "call":
        x = evaluate(node[2], env)
        if node[1] == "sqrt":
            return x ** 0.5
        if node[1] == "abs":
            return abs(x)
        if not x.dimensionless:
            raise ExprError(f"{node[1]}() of a quantity with units ({x.units})")
        try:
            return q(FUNCTIONS[node[1]](x.to("").magnitude), "")
        except (ValueError, OverflowError) as exc:
            raise ExprError(f"{node[1]}(): {exc}") from None
    left, right = evaluate(node[1], env), evaluate(node[2], env)
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
