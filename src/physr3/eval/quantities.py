"""Read numbers and physical quantities out of model-written answer text (LaTeX, Unicode or plain).

Intent: turn what a model writes after "the answer is" into something comparable, without ever
calling `eval` on model output. The steps, each a small function with its own tests:

1. `latex_to_plain`: unwrap `\\boxed{}`, `\\text{}`, `\\mathrm{}` ...; `\\frac{a}{b}` -> `(a)/(b)`;
   `\\times`/`\\cdot`/`·` -> `*`; LaTeX spacing (`\\,`, `~`) -> space; `^{-2}` and Unicode
   superscripts (`s⁻²`) -> `^(-2)`; `\\mu`, `\\Omega`, `^\\circ` -> µ, Ω, °; Unicode minus -> `-`.
2. `split_value_unit`: keep what follows the last `=`/`≈`, read the leading arithmetic (digits,
   `e`-notation, `* 10^(k)`, `/`, `sqrt`, `pi`) with a whitelisting AST evaluator, and return the rest
   as the unit text.
3. `parse_unit`: read the unit text token by token and stop at the first word that is not a unit
   ("5 m/s towards the east" -> "m/s"); a few spellings pint lacks are mapped first (`rev`, `Torr`,
   `°C`, `per`, `squared`). English words that pint would read as units (`in` = inch, `a` = year,
   `are` = 100 m²) are never units here.

`parse_number` (unitless JEEBench answers) and `parse_quantity` (value with unit, converted by pint)
build on these. pint's registry loads lazily (about 0.4 s) on the first quantity.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

_SUPERSCRIPTS = str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺", "0123456789-+")
_SUPERSCRIPT_RUN = re.compile(r"[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+")
_WRAPPERS = ("boxed", "fbox", "text", "textrm", "textnormal", "mathrm", "mathit", "mathbf", "mathsf",
             "operatorname", "mbox", "rm", "textbf", "textit", "emph", "displaystyle", "mathnormal")
_SIMPLE_MACROS = {
    r"\times": " * ", r"\cdot": " * ", r"\mu": "µ", r"\Omega": "Ω", r"\ohm": "Ω", r"\%": "%",
    r"\pi": " pi ", r"\AA": "Å", r"\angstrom": "Å", r"\degree": "°", r"\approx": "≈", r"\simeq": "≈",
    r"\sim": "≈", r"\circ": "°", r"\quad": " ", r"\qquad": " ", r"\left": "", r"\right": "",
    r"\,": " ", r"\;": " ", r"\:": " ", r"\!": "", r"\ ": " ", r"\$": "",
}


def _brace_group(text: str, start: int) -> tuple[str, int] | None:
    """The content of the `{...}` group opening at `start` (which must be `{`) and the index after it."""
    if start >= len(text) or text[start] != "{":
        return None
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return text[start + 1:i], i + 1
    return text[start + 1:], len(text)  # unclosed: take the rest


def find_boxed(text: str) -> list[tuple[int, str]]:
    """(position, content) of every `\\boxed{...}` / `\\fbox{...}`, braces matched."""
    found = []
    for m in re.finditer(r"\\(?:boxed|fbox)\s*", text):
        group = _brace_group(text, m.end())
        if group is not None:
            found.append((m.start(), group[0]))
    return found


def _unwrap_commands(text: str) -> str:
    """`\\cmd{x}` -> `x` for wrapper commands; `\\frac{a}{b}` -> `(a)/(b)`; `\\sqrt{x}` -> `sqrt(x)`."""
    pattern = re.compile(r"\\(" + "|".join(_WRAPPERS) + r"|[dt]?frac|sqrt)\b\s*")
    for _ in range(50):  # nested wrappers: unwrap from the left until none is left
        m = pattern.search(text)
        if not m:
            break
        name = m.group(1)
        first = _brace_group(text, m.end())
        if first is None:  # `\rm m` or `\frac12`: drop the command, keep the rest
            text = text[:m.start()] + " " + text[m.end():]
            continue
        inner, end = first
        if name.endswith("frac"):
            second = _brace_group(text, end)
            if second is None:
                repl = f"({inner})"
            else:
                repl, end = f"(({inner})/({second[0]}))", second[1]
        elif name == "sqrt":
            repl = f"sqrt({inner})"
        else:
            repl = f" {inner} "
        text = text[:m.start()] + repl + text[end:]
    return text


def latex_to_plain(text: str) -> str:
    """LaTeX / Unicode / Markdown answer text -> plain text that the value and unit readers accept."""
    text = text.replace("\u00a0", " ").replace("\u2009", " ").replace("\u202f", " ")
    text = re.sub(r"\\[()\[\]]", " ", text)  # \( \) \[ \] math delimiters
    text = text.replace("$", " ").replace("**", " ").replace("`", " ")
    text = re.sub(r"\^\s*\{?\s*\\circ\s*\}?", "°", text)
    text = _unwrap_commands(text)
    for macro, repl in sorted(_SIMPLE_MACROS.items(), key=lambda kv: -len(kv[0])):
        text = text.replace(macro, repl)
    text = re.sub(r"_\{[^{}]*\}|_\\?[A-Za-z0-9]", "", text)  # subscripts: v_{0} = 5 -> v = 5
    text = re.sub(r"\^\s*\{([^{}]*)\}", r"^(\1)", text)
    text = re.sub(r"\\[A-Za-z]+", " ", text)  # any other command
    text = text.replace("{", " ").replace("}", " ").replace("~", " ")
    text = _SUPERSCRIPT_RUN.sub(lambda m: "^(" + m.group(0).translate(_SUPERSCRIPTS) + ")", text)
    text = text.translate(str.maketrans({"−": "-", "–": "-", "·": "*", "⋅": "*", "∙": "*", "×": "*",
                                         "⁄": "/", "∕": "/", "μ": "µ", "≃": "≈", "∼": "≈"}))
    text = re.sub(r"µ\s+(?=[A-Za-z])", "µ", text)  # \mu C -> µC
    text = re.sub(r"(\d)\s*[xX]\s*(?=10\s*\^)", r"\1*", text)  # 5x10^3
    text = re.sub(r"°\s*C\b", " degC ", text)
    text = re.sub(r"°\s*F\b", " degF ", text)
    text = text.replace("°", " degree ")
    return re.sub(r"\s+", " ", text).strip()


# ---- numbers -------------------------------------------------------------------------------------

_BINOPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
           ast.Pow: operator.pow}
_FUNCS = {"sqrt": math.sqrt}
_NAMES = {"pi": math.pi, "π": math.pi}


def _eval_node(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _eval_node(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _eval_node(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        left, right = _eval_node(node.left), _eval_node(node.right)
        if isinstance(node.op, ast.Pow) and (abs(right) > 400 or abs(left) > 1e6):
            raise ValueError("exponent out of range")
        return float(_BINOPS[type(node.op)](left, right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCS \
            and len(node.args) == 1 and not node.keywords:
        return float(_FUNCS[node.func.id](_eval_node(node.args[0])))
    if isinstance(node, ast.Name) and node.id in _NAMES:
        return _NAMES[node.id]
    raise ValueError(f"not plain arithmetic: {ast.dump(node)[:40]}")


def eval_arithmetic(expr: str) -> float | None:
    """Value of a plain arithmetic expression (`2.5*10^(-3)`, `(3)/(4)`, `2 sqrt(3)`), else None.

    Parsed with `ast` and evaluated over a whitelist (numbers, + - * / ^, sqrt, pi): model output is
    never passed to `eval`.
    """
    expr = expr.strip().replace("^", "**").replace("π", "pi")
    expr = re.sub(r"(\d)\s*,\s*(\d{3})(?!\d)", r"\1\2", expr)  # 1,000 -> 1000
    expr = re.sub(r"(?<=[\d)])\s*(?=(?:sqrt|pi)\b|\()", "*", expr)  # implicit products: 2sqrt(3), 2(3)
    expr = re.sub(r"\)\s*(?=[\d(])", ")*", expr)
    if not expr or len(expr) > 200:
        return None
    try:
        value = _eval_node(ast.parse(expr, mode="eval"))
    except (SyntaxError, ValueError, TypeError, ZeroDivisionError, OverflowError, RecursionError):
        return None
    return value if math.isfinite(value) else None


# The leading arithmetic of a value: digits and operators, e-notation, sqrt/pi; stops at the first unit letter.
_VALUE_PREFIX = re.compile(r"(?:\d[\d,]*\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|[\s+\-*/^().]|sqrt|pi\b|π)+")
_RELATION = re.compile(r"=|≈|≅")


def split_value_unit(plain: str) -> tuple[float, str] | None:
    """Split plain text into (value, unit text) at the first number after the last `=`/`≈`; None if no number."""
    parts = [p for p in _RELATION.split(plain) if re.search(r"\d", p)]
    if not parts:
        return None
    segment = parts[-1]
    start = re.search(r"(?:[-+]\s*)?(?:\(\s*)*[-+]?\s*(?:\d|\.\d|sqrt\s*\(|pi\b|π)", segment)
    if start is None:
        return None
    m = _VALUE_PREFIX.match(segment, start.start())
    if m is None:
        return None
    expr = m.group(0)
    # Give back a trailing "/", "*" or "(" that starts the unit ("5 /s", "3 (m/s)").
    while True:
        trimmed = expr.rstrip()
        if trimmed and trimmed[-1] in "*/(^-+":
            expr = trimmed[:-1]
            continue
        break
    value = eval_arithmetic(expr)
    while value is None:  # an unbalanced ")" or a dangling token: shorten from the right
        expr = expr[:-1].rstrip()
        if not re.search(r"\d", expr):
            return None
        value = eval_arithmetic(expr)
    rest = segment[start.start() + len(expr):]
    return value, rest.strip().lstrip(")").strip()


def parse_number(text: str) -> float | None:
    """The numeric value in an answer (units ignored): "2.00", "τ = 2 s", "$6.4 \\times 10^{-34}$", "3/4"."""
    plain = latex_to_plain(text)
    split = split_value_unit(plain)
    return None if split is None else split[0]


# ---- units ---------------------------------------------------------------------------------------

# Words pint would accept as units but that are English here ("5 m in 2 s", "a = 3", "are").
_NOT_UNITS = frozenset({"in", "a", "at", "an", "as", "are", "is", "it", "the", "and", "or", "to", "of", "by",
                        "for", "from", "on", "up", "down", "left", "right", "north", "south", "east", "west",
                        "its", "be", "approximately", "about", "nearly", "roughly"})
_UNIT_SPELLINGS = {
    "rev": "revolution", "revs": "revolution", "Torr": "torr", "AU": "astronomical_unit", "kmph": "km/hr",
    "kmh": "km/hr", "sec": "s", "secs": "s", "hrs": "hr", "mins": "min", "degrees": "degree",
    "deg": "degree", "ohms": "ohm", "Ohm": "ohm", "Ohms": "ohm", "amu": "u",
    "lit": "liter", "litre": "liter", "litres": "liter", "gm": "gram", "kgf": "kilogram_force",
}
_UNIT_TOKEN = re.compile(r"[A-Za-zµΩÅ%_]+")


@lru_cache(maxsize=1)
def unit_registry() -> Any:
    """The shared pint registry (loaded on first use; about 0.4 s)."""
    import pint

    return pint.UnitRegistry(autoconvert_offset_to_baseunit=True)


@lru_cache(maxsize=4096)
def _is_unit_word(word: str) -> bool:
    if word in _NOT_UNITS:
        return False
    try:
        unit_registry().parse_units(word)
    except Exception:  # pint raises several error types for unknown or malformed names
        return False
    return True


def _canonical_word(word: str) -> str | None:
    """A pint-readable spelling of one unit word, or None when it is not a unit."""
    word = _UNIT_SPELLINGS.get(word, word)
    if _is_unit_word(word):
        return word
    if len(word) >= 3 and word.lower() != word and _is_unit_word(word.lower()):
        return word.lower()  # "Joules", "Newton"
    return None


def unit_text_to_pint(unit_text: str) -> str:
    """The leading unit expression of `unit_text` in pint syntax; "" if it starts with no unit."""
    text = re.sub(r"\bmm\s+Hg\b", "mmHg", unit_text)
    text = re.sub(r"\bper\b", "/", text)
    text = re.sub(r"\bsquared\b", "^2", text)
    text = re.sub(r"\bcubed\b", "^3", text)
    out: list[str] = []
    for m in re.finditer(r"[A-Za-zµΩÅ%_]+|\^\s*\(?\s*[-+]?\s*\d+(?:\.\d+)?\s*\)?|[*/()]|\s+|.", text):
        tok = m.group(0)
        if _UNIT_TOKEN.fullmatch(tok):
            word = _canonical_word(tok)
            if word is None:
                break
            out.append(word)
        elif tok.startswith("^"):
            if not out or out[-1] in "*/(":
                break
            out.append("**(" + re.sub(r"[\s()^]", "", tok) + ")")
        elif tok in "*/()" or tok.isspace():
            out.append(" " if tok.isspace() else tok)
        else:  # any other character (",", ";", a digit) ends the unit
            break
    expr = "".join(out).strip()
    # Drop dangling operators and unmatched "(" left by the cut.
    while True:
        before = expr
        expr = expr.rstrip(" */(")
        if expr.count("(") > expr.count(")"):
            expr = expr[:expr.rfind("(")].rstrip()
        if expr == before:
            break
    if expr.startswith("/"):
        expr = "1" + expr
    if expr.startswith("*"):
        expr = ""
    return expr


def parse_unit(unit_text: str) -> Any | None:
    """A pint Unit for the leading unit expression of `unit_text`; None when there is none or it is unreadable."""
    expr = unit_text_to_pint(unit_text)
    if not expr:
        return None
    try:
        parsed = unit_registry().parse_expression(expr)
    except Exception:  # pint's parser raises several error types
        return None
    units = getattr(parsed, "units", None)
    if units is None or getattr(parsed, "magnitude", 1) != 1:
        return None
    return units


@dataclass(frozen=True)
class ParsedQuantity:
    """A value with its unit (None when the answer gave a bare number) and a canonical text form."""

    value: float
    unit: Any | None  # pint.Unit
    text: str

    def quantity(self) -> Any:
        """The pint Quantity (dimensionless when there is no unit)."""
        ureg = unit_registry()
        return ureg.Quantity(self.value, self.unit if self.unit is not None else ureg.dimensionless)


def parse_quantity(text: str) -> ParsedQuantity | None:
    """Value and unit from answer text: "5.0 m/s²", "\\mathrm{m\\,s^{-1}}", "3.2e-19 J", "2 \\times 10^{3} kJ"."""
    plain = latex_to_plain(text)
    split = split_value_unit(plain)
    if split is None:
        return None
    value, rest = split
    unit = parse_unit(rest) if rest else None
    canon = f"{value:.10g}" if unit is None else f"{value:.10g} {unit:~C}"
    return ParsedQuantity(value, unit, canon)
