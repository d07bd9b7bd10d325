"""Read a final answer's value and unit out of model-written text (LaTeX, Unicode or plain), and judge it.

Intent: turn what a model writes after "the answer is" into something comparable, without ever
calling `eval` on model output, and give one verdict for it wherever physr3 judges a final answer (the
answer scorer `physr3.eval.answers` and the symbolic verifier's final-answer check). The steps, each a
small function with its own tests:

1. `physr3.quantity.text.latex_to_plain`: LaTeX, Unicode and Markdown to plain text.
2. `split_value_unit`: keep what follows the last `=`/`≈`, read the leading arithmetic (digits,
   `e`-notation, `* 10^(k)`, `/`, `sqrt`, `pi`) with the one expression reader (`eval_arithmetic`), and
   return the rest as the unit text.
3. `physr3.quantity.units.parse_unit`: the leading unit expression of that text, by pint.

`parse_number` (unitless answers) and `parse_quantity` (value with unit) build on these. `judge` is the one
comparison of an answer span with a gold answer, by answer type, and names the reason:

- `integer`, `numeric`: correct iff |gold − pred| ≤ `abs_tol` (0.01, JEEBench). Deviation: we add 1e-9 so
  that 100.01 vs 100.00 is not lost to binary floating point; units in the prediction are ignored, as the
  question fixes them.
- `numeric_unit`: both sides converted with pint; dimensions must match (`dimension_mismatch` otherwise);
  correct iff |pred − gold| ≤ rel_tol·|gold| (1% default). A bare number against a gold with a unit is
  `missing_unit` (or compared in the gold's unit with `allow_missing_unit=True`); a gold without a unit
  compares magnitudes.

`physr3.eval.answers` (benchmark scoring, the training's outcome term) and the symbolic verifier's final-
answer check both call `judge`, so an answer is right or wrong for both alike. `value_in_unit` reads a
value a solution step states in a given unit (the code channel).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from physr3.quantity.expr import EvalError, Names, ParseFail, evaluate, has_units, parse_full
from physr3.quantity.text import latex_to_plain
from physr3.quantity.units import parse_unit, si_factor, unit_quantity, ureg

# ---- numbers -------------------------------------------------------------------------------------


def eval_arithmetic(text: str) -> float | None:
    """Value of a plain arithmetic expression (`2.5*10^(-3)`, `(3)/(4)`, `2 sqrt(3)`, `1,000`), else None.

    Read by the one expression reader (`physr3.quantity.expr`) in strict mode with no names: numbers,
    + - * / ^, its functions, pi. Model output is never passed to `eval`.
    """
    if not text.strip() or len(text) > 200:
        return None
    try:
        node = parse_full(text, Names({}, allow_new=False), strict=True)
        if has_units(node):
            return None
        return evaluate(node, {})
    except (ParseFail, EvalError):
        return None


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


# Reason codes (stable strings: reports group by them).
MATCH = "match"
MISMATCH = "mismatch"
UNPARSEABLE = "unparseable"
DIMENSION_MISMATCH = "dimension_mismatch"
MISSING_UNIT = "missing_unit"
JUDGED_TYPES = ("integer", "numeric", "numeric_unit")
_FLOAT_SLACK = 1e-9


def parse_number(text: str) -> float | None:
    """The numeric value in an answer (units ignored): "2.00", "τ = 2 s", "$6.4 \\times 10^{-34}$", "3/4"."""
    plain = latex_to_plain(text)
    split = split_value_unit(plain)
    return None if split is None else split[0]


@dataclass(frozen=True)
class ParsedQuantity:
    """A value with its unit (None when the answer gave a bare number) and a canonical text form."""

    value: float
    unit: Any | None  # pint.Unit
    text: str

    def quantity(self) -> Any:
        """The pint Quantity (dimensionless when there is no unit)."""
        reg = ureg()
        return reg.Quantity(self.value, self.unit if self.unit is not None else reg.dimensionless)


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


# ---- judging -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Judgement:
    """The verdict on one answer span: `reason` (MATCH, MISMATCH, UNPARSEABLE, DIMENSION_MISMATCH,
    MISSING_UNIT), the value as read (`extracted`) and why in words."""

    reason: str
    extracted: str
    detail: str = ""

    @property
    def correct(self) -> bool:
        return self.reason == MATCH


def _read_pair(gold: str, span: str, read: Any, what: str) -> tuple[Any, Any]:
    """(gold, answer) read by `read`; a gold answer that cannot be read is a data error (ValueError)."""
    want = read(gold)
    if want is None:
        raise ValueError(f"gold {gold!r} is not {what}")
    return want, read(span)


def _judge_number(gold: str, span: str, abs_tol: float) -> Judgement:
    want, got = _read_pair(gold, span, parse_number, "a number")
    if got is None:
        return Judgement(UNPARSEABLE, span, "no number in the answer")
    extracted = f"{got:.10g}"
    if abs(got - want) <= abs_tol + _FLOAT_SLACK:
        return Judgement(MATCH, extracted)
    return Judgement(MISMATCH, extracted, f"|{want:.10g} - {got:.10g}| > {abs_tol:g}")


def _judge_quantity(gold: str, span: str, rel_tol: float, allow_missing_unit: bool) -> Judgement:
    want, got = _read_pair(gold, span, parse_quantity, "a number with an optional unit")
    if got is None:
        return Judgement(UNPARSEABLE, span, "no number in the answer")
    extracted = got.text
    if want.unit is None:
        value, detail = got.value, "gold has no unit: magnitudes compared"
        if got.unit is not None and got.quantity().dimensionless:
            value = float(got.quantity().to("dimensionless").magnitude)
    elif got.unit is None:
        if not allow_missing_unit:
            return Judgement(MISSING_UNIT, extracted, f"gold is in {want.unit:~C}; the answer has no unit")
        value, detail = got.value, f"no unit: read as {want.unit:~C}"
    else:
        q_want, q_got = want.quantity(), got.quantity()
        if q_got.dimensionality != q_want.dimensionality:
            return Judgement(DIMENSION_MISMATCH, extracted, f"{q_got.dimensionality} vs gold {q_want.dimensionality}")
        value = float(q_got.to(q_want.units).magnitude)
        detail = f"= {value:.6g} {want.unit:~C}" if got.unit != want.unit else ""
    # Relative slack for binary floating point; a zero gold gets a tiny absolute tolerance instead.
    tolerance = (rel_tol + _FLOAT_SLACK) * abs(want.value) if want.value else _FLOAT_SLACK
    if abs(value - want.value) <= tolerance:
        return Judgement(MATCH, extracted, detail)
    return Judgement(MISMATCH, extracted, (detail + "; " if detail else "") + f"off by more than {rel_tol:.3g} relative")


def judge(span: str, gold: str, answer_type: str, rel_tol: float = 0.01, *, abs_tol: float = 0.01,
          allow_missing_unit: bool = False) -> Judgement:
    """The verdict on an answer span against `gold` for a value type (`JUDGED_TYPES`; see the module
    docstring). Raises ValueError for another type or a gold answer that cannot be read (a data error)."""
    if answer_type == "numeric_unit":
        return _judge_quantity(gold, span, rel_tol, allow_missing_unit)
    if answer_type in ("integer", "numeric"):
        return _judge_number(gold, span, abs_tol)
    raise ValueError(f"answer type {answer_type!r} is not a value type ({', '.join(JUDGED_TYPES)})")


_NUMBER_RE = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def value_in_unit(text: str, unit: str) -> float | None:
    """The value a step states ("0.156 1/h", "8.31 J/(mol*K)") in `unit`; None if absent or incompatible.

    The unit text is read by pint's own unit parser (no Python evaluation)."""
    m = _NUMBER_RE.match(text.strip())
    if not m:
        return None
    number, rest = float(m.group(0)), text.strip()[m.end():].strip()
    if rest == unit.strip():
        return number
    try:
        if unit_quantity(rest).dimensionality != unit_quantity(unit).dimensionality:
            return None
        return number * si_factor(rest) / si_factor(unit)
    except Exception:  # not a unit pint reads, or trailing words
        return None


def leading_unit_text(text: str) -> str:
    """'4.82 m/s^2' -> 'm/s^2' (what follows the leading number)."""
    m = _NUMBER_RE.match(text.strip())
    return text.strip()[m.end():].strip() if m else ""


def output_value(text: str) -> float | None:
    """The number a program printed: after the last '=' of its last line (or that line's first number)."""
    tail = text.strip().splitlines()[-1] if text.strip() else ""
    nums = _NUMBER_RE.findall(tail.split("=")[-1]) or _NUMBER_RE.findall(tail)
    try:
        return float(nums[0]) if nums else None
    except ValueError:
        return None
